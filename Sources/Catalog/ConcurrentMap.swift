import Dispatch
import Synchronization

/// `(0..<count).map(body)` spread over all cores with `DispatchQueue.concurrentPerform`,
/// results in index order. The one place the engine fans work out (tile encoding, domains
/// of an extraction, batches of point forecasts).
package func concurrentMap<T: Sendable>(_ count: Int, _ body: @Sendable (Int) -> T) -> [T] {
    guard count > 0 else { return [] }
    let slots = Slots<T>(count: count)
    DispatchQueue.concurrentPerform(iterations: count) { index in slots.set(index, body(index)) }
    return slots.values
}

/// One slot per index, each written once by one worker.
private final class Slots<T: Sendable>: Sendable {
    private let storage: Mutex<[T?]>

    init(count: Int) { storage = Mutex(Array(repeating: nil, count: count)) }

    func set(_ index: Int, _ value: T) {
        storage.withLock { $0[index] = value }
    }

    /// Every slot; `concurrentPerform` returns only after every index ran.
    var values: [T] { storage.withLock { $0.compactMap { $0 } } }
}
