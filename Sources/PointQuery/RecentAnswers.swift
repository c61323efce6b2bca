import Synchronization

/// The last few answers of a function whose inputs repeat, behind a lock: the places of a
/// request, and a server's requests within an hour, ask for the same times, and what depends
/// only on them (the sun's moments, a time plan, the cycles' shares of the hours) need not be
/// worked out per place. Newest first; the oldest is dropped beyond `capacity`. A key must
/// hold (not merely name) what it compares by identity, so that an identity is never reused.
final class RecentAnswers<Key: Equatable & Sendable, Value: Sendable>: Sendable {
    private let capacity: Int
    private let entries = Mutex<[(key: Key, value: Value)]>([])

    init(capacity: Int) { self.capacity = capacity }

    /// The kept answer for `key`, else `make()`'s, kept for the next asker.
    func value(for key: Key, make: () -> Value) -> Value {
        if let known = entries.withLock({ $0.first { $0.key == key }?.value }) { return known }
        let made = make()
        entries.withLock { entries in
            entries.insert((key, made), at: 0)
            if entries.count > capacity { entries.removeLast() }
        }
        return made
    }
}
