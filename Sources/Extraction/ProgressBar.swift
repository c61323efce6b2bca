import Foundation
import Synchronization

/// A one-line progress bar, redrawn in place; silent when disabled (not on a terminal).
///
/// Domains are extracted side by side and each worker reports the frames done across all
/// domains. A worker takes its count under the extractor's counter lock but reports it after
/// releasing that lock, so reports can arrive out of order: 6 can be drawn before 5. The bar
/// keeps, behind one lock, the highest count drawn and ignores older reports, so it never moves
/// backwards and its last line is the latest count, not whatever report came last.
package final class ProgressBar: Sendable {
    private struct State {
        var drawn = false
        var highest = 0
    }
    private let enabled: Bool
    private let sink: @Sendable (String) -> Void
    private let state = Mutex(State())

    /// `sink` receives each piece of terminal output (standard error by default).
    package init(enabled: Bool, sink: @escaping @Sendable (String) -> Void = ProgressBar.standardError) {
        self.enabled = enabled
        self.sink = sink
    }

    package static let standardError: @Sendable (String) -> Void = { text in
        FileHandle.standardError.write(Data(text.utf8))
    }

    package func update(done: Int, total: Int, label: String) {
        guard enabled, total > 0 else { return }
        state.withLock { state in
            guard done > state.highest else { return }
            state.highest = done
            state.drawn = true
            sink("\r[\(Self.bar(done: done, total: total))] \(done)/\(total) frames (\(label))")
        }
    }

    /// Clears the line; the next run's counts start again from zero.
    package func finish() {
        state.withLock { state in
            state.highest = 0
            guard state.drawn else { return }
            state.drawn = false
            sink("\r\u{1B}[K")
        }
    }

    private static func bar(done: Int, total: Int) -> String {
        let width = 30
        let filled = max(0, min(width, done * width / total))
        return String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
    }
}
