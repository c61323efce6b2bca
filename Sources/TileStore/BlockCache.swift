#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Verified blocks of one domain file, kept in memory. A point forecast reads ~18 small
/// blocks, so once a file's hot blocks are here a forecast makes no system call at all.
///
/// Only blocks whose checksum held are kept; a block that failed is read (and checked) again
/// next time.
///
/// Two ways to keep them, chosen at open by the file's data size against the budget:
/// - resident (every store file of a normal run: a few MB against 64 MB): one buffer the size
///   of the file's data area, each block copied to its own place in it once verified, and a
///   ready flag per block. A hit is one atomic load (acquire) and no lock, no reference count
///   and no copy, so readers on all cores share the blocks without touching a common cache
///   line. Nothing is ever evicted: the buffer's pages are only touched for blocks read.
/// - bounded (a data area larger than the budget): blocks as arrays behind a mutex, the oldest
///   evicted first beyond the budget (first in, first out).
final class BlockCache: @unchecked Sendable {
    // @unchecked: `arena` is written only under `state`'s lock, at a block whose ready flag is
    // still 0, and read only after the flag was seen as 1 with acquire ordering (the flag is
    // stored with release ordering after the bytes): a reader never sees a block being written.
    private struct State {
        var slots: [[UInt8]?]
        /// Block indices in the order they were cached (from `head` on).
        var order: [Int] = []
        var head = 0
        var bytes = 0
        var misses = 0
    }

    let budget: Int
    /// The file, for messages.
    let path: String
    private let state: Mutex<State>
    /// Resident mode only: the data area's bytes and one ready flag per block.
    private let arena: UnsafeMutableRawPointer?
    private let ready: UnsafeMutablePointer<Atomic<UInt8>>?
    private let blocks: Int
    /// Hits, counted per thread (by a hash of the thread's id) so that two cores never write
    /// one counter's cache line in turn; each counter has a 128-byte line pair of its own.
    private let hitCounters: UnsafeMutablePointer<Atomic<Int>>
    private static let stripes = 64, stride = 16

    /// - Parameters:
    ///   - blocks: blocks in the file.
    ///   - dataSize: bytes from the first block's start to the last block's end; resident
    ///     when it fits the budget.
    init(path: String, blocks: Int, dataSize: Int, budget: Int) {
        self.path = path
        self.budget = max(budget, 0)
        self.blocks = blocks
        state = Mutex(State(slots: []))
        if dataSize <= self.budget {
            arena = .allocate(byteCount: max(dataSize, 1), alignment: 16)
            let flags = UnsafeMutablePointer<Atomic<UInt8>>.allocate(capacity: max(blocks, 1))
            for k in 0..<max(blocks, 1) { (flags + k).initialize(to: Atomic(0)) }
            ready = flags
        } else {
            arena = nil
            ready = nil
            state.withLock { $0.slots = [[UInt8]?](repeating: nil, count: blocks) }
        }
        hitCounters = .allocate(capacity: Self.stripes * Self.stride)
        for k in 0..<(Self.stripes * Self.stride) { (hitCounters + k).initialize(to: Atomic(0)) }
    }

    deinit {
        if let ready {
            ready.deinitialize(count: max(blocks, 1))
            ready.deallocate()
        }
        arena?.deallocate()
        hitCounters.deinitialize(count: Self.stripes * Self.stride)
        hitCounters.deallocate()
    }

    /// Runs `body` on a block's bytes: from memory, or first loaded by `load` (which reads the
    /// block and verifies its checksum, throwing when it does not hold).
    ///
    /// - Parameters:
    ///   - block: the block's index.
    ///   - offset, length: where the block lies in the data area (resident mode's buffer).
    ///   - load: the block's verified bytes, `length` of them.
    @inline(__always)
    func withBlock<Result>(_ block: Int, offset: Int, length: Int, load: () throws(StoreError) -> [UInt8],
                           _ body: (UnsafeRawBufferPointer) -> Result) throws(StoreError) -> Result {
        guard let arena, let ready else { return try withBoundedBlock(block, load: load, body) }
        let start = UnsafeRawPointer(arena + offset)
        if ready[block].load(ordering: .acquiring) == 1 {
            countHit()
            return body(UnsafeRawBufferPointer(start: start, count: length))
        }
        let loadedHere = try state.withLock { (state) throws(StoreError) -> Bool in
            // Another thread may have loaded it while this one waited for the lock: a hit.
            if ready[block].load(ordering: .acquiring) == 1 { return false }
            let bytes = try load()
            guard bytes.count == length else {
                throw StoreError.corrupt(path: path, detail: "block \(block) read \(bytes.count) bytes, expected \(length)")
            }
            bytes.withUnsafeBytes { (arena + offset).copyMemory(from: $0.baseAddress ?? start, byteCount: length) }
            state.bytes += length
            state.misses += 1
            ready[block].store(1, ordering: .releasing)
            return true
        }
        if !loadedHere { countHit() }
        return body(UnsafeRawBufferPointer(start: start, count: length))
    }

    /// The bounded mode: arrays behind the mutex, evicted first in, first out.
    private func withBoundedBlock<Result>(_ block: Int, load: () throws(StoreError) -> [UInt8],
                                          _ body: (UnsafeRawBufferPointer) -> Result) throws(StoreError) -> Result {
        let cached: [UInt8]? = state.withLock { state in
            if let bytes = state.slots[block] { return bytes }
            state.misses += 1
            return nil
        }
        if let cached {
            countHit()
            return cached.withUnsafeBytes(body)
        }
        let bytes = try load()
        put(block, bytes)
        return bytes.withUnsafeBytes(body)
    }

    /// Keeps a verified block (bounded mode), evicting the oldest beyond the budget.
    private func put(_ block: Int, _ bytes: [UInt8]) {
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

    @inline(__always)
    private func countHit() {
        #if canImport(Glibc)
        let thread = UInt(pthread_self())
        #else
        let thread = UInt(bitPattern: pthread_self())
        #endif
        let stripe = Int(truncatingIfNeeded: (thread &* 0x9E37_79B9_7F4A_7C15) >> 58) & (Self.stripes - 1)
        hitCounters[stripe * Self.stride].wrappingAdd(1, ordering: .relaxed)
    }

    /// Whether blocks are kept in the one resident buffer (the data area fits the budget).
    var isResident: Bool { arena != nil }

    /// Hits, misses and bytes held so far.
    var statistics: BlockCacheStatistics {
        var hits = 0
        for stripe in 0..<Self.stripes { hits += hitCounters[stripe * Self.stride].load(ordering: .relaxed) }
        return state.withLock { BlockCacheStatistics(hits: hits, misses: $0.misses, bytes: $0.bytes) }
    }
}

/// How a reader's block cache did: for benchmarks and `/metrics`.
public struct BlockCacheStatistics: Sendable, Equatable {
    public var hits: Int
    public var misses: Int
    public var bytes: Int
    public var hitRate: Double { hits + misses == 0 ? 0 : Double(hits) / Double(hits + misses) }
}
