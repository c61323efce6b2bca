import Synchronization

/// Verified blocks of one domain file, kept in memory up to a byte budget; the oldest go
/// first when it is full. A point forecast reads ~18 small blocks, so once a file's hot
/// blocks are here a forecast makes no system call at all.
///
/// Only blocks whose checksum held are put here; a block read again after eviction is
/// checked again.
final class BlockCache: Sendable {
    private struct State {
        var slots: [[UInt8]?]
        /// Block indices in the order they were cached (from `head` on).
        var order: [Int] = []
        var head = 0
        var bytes = 0
        var hits = 0
        var misses = 0
    }

    let budget: Int
    private let state: Mutex<State>

    init(blocks: Int, budget: Int) {
        self.budget = max(budget, 0)
        state = Mutex(State(slots: [[UInt8]?](repeating: nil, count: blocks)))
    }

    /// The cached bytes of a block, or nil (counted as a miss).
    @inline(__always)
    func get(_ block: Int) -> [UInt8]? {
        state.withLock { state in
            if let bytes = state.slots[block] {
                state.hits += 1
                return bytes
            }
            state.misses += 1
            return nil
        }
    }

    /// Keeps a verified block, evicting the oldest beyond the budget.
    func put(_ block: Int, _ bytes: [UInt8]) {
        guard bytes.count <= budget else { return }
        state.withLock { state in
            guard state.slots[block] == nil else { return }
            state.slots[block] = bytes
            state.order.append(block)
            state.bytes += bytes.count
            while state.bytes > budget, state.head < state.order.count {
                let oldest = state.order[state.head]
                state.head += 1
                state.bytes -= state.slots[oldest]?.count ?? 0
                state.slots[oldest] = nil
            }
            if state.head > 1024 && state.head * 2 > state.order.count {
                state.order.removeFirst(state.head)
                state.head = 0
            }
        }
    }

    /// Hits, misses and bytes held so far.
    var statistics: BlockCacheStatistics {
        state.withLock { BlockCacheStatistics(hits: $0.hits, misses: $0.misses, bytes: $0.bytes) }
    }
}

/// How a reader's block cache did: for benchmarks and `/metrics`.
public struct BlockCacheStatistics: Sendable, Equatable {
    public var hits: Int
    public var misses: Int
    public var bytes: Int
    public var hitRate: Double { hits + misses == 0 ? 0 : Double(hits) / Double(hits + misses) }
}
