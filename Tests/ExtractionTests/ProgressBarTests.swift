import Extraction
import Foundation
import Synchronization
import TestSupport
import XCTest

/// The extraction progress bar (issue 13, bug 2): domain workers report frame counts from
/// several threads, after releasing the counter's lock, so reports arrive out of order.
final class ProgressBarTests: XCTestCase {
    /// Everything the bar wrote, in order.
    private final class Screen: Sendable {
        let writes = Mutex<[String]>([])
        var sink: @Sendable (String) -> Void { { text in self.writes.withLock { $0.append(text) } } }
        /// The frame counts drawn, in order ("\r[###...] 5/73 frames (d01)" -> 5).
        var counts: [Int] {
            writes.withLock { $0 }.compactMap { line -> Int? in
                guard let close = line.firstIndex(of: "]") else { return nil }
                let rest = line[line.index(after: close)...].trimmingCharacters(in: .whitespaces)
                return rest.split(separator: "/").first.flatMap { Int($0) }
            }
        }
    }

    func testAReportOlderThanOneAlreadyDrawnIsNotDrawn() {
        let screen = Screen()
        let bar = ProgressBar(enabled: true, sink: screen.sink)
        bar.update(done: 6, total: 10, label: "d02")
        bar.update(done: 5, total: 10, label: "d01")   // took its count first, reported second
        bar.update(done: 7, total: 10, label: "d01")
        XCTAssertEqual(screen.counts, [6, 7], "the bar moved backwards")
    }

    /// The extractor's own pattern: a locked counter, the report after the lock. Seeded
    /// shuffles of the reports stand in for the threads' arrival order, then real threads.
    func testConcurrentReportsNeverMoveTheBarBackwardsAndEndAtTheTotal() {
        var generator = SeededGenerator(seed: 13)
        for _ in 0..<20 {
            let screen = Screen()
            let bar = ProgressBar(enabled: true, sink: screen.sink)
            for done in (1...50).shuffled(using: &generator) { bar.update(done: done, total: 50, label: "d01") }
            XCTAssertEqual(screen.counts, screen.counts.sorted())
            XCTAssertEqual(screen.counts.last, 50)
        }
        let screen = Screen()
        let bar = ProgressBar(enabled: true, sink: screen.sink)
        let counter = Mutex(0)
        let total = 8 * 500
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<500 {
                let done = counter.withLock { count -> Int in count += 1; return count }
                bar.update(done: done, total: total, label: "d01")
            }
        }
        let counts = screen.counts
        XCTAssertEqual(counts, counts.sorted(), "the bar moved backwards")
        XCTAssertEqual(counts.last, total, "the last line drawn is not the final count")
        bar.finish()
        XCTAssertEqual(screen.writes.withLock { $0.last }, "\r\u{1B}[K", "finish clears the line")
    }

    func testADisabledBarWritesNothing() {
        let screen = Screen()
        let bar = ProgressBar(enabled: false, sink: screen.sink)
        bar.update(done: 1, total: 2, label: "d01")
        bar.finish()
        XCTAssertTrue(screen.writes.withLock { $0 }.isEmpty)
    }
}
