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
    /// How `arena` was allocated, to free it the same way.
    private let arenaMapping: ArenaMapping?
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
            let mapping = ArenaMapping(byteCount: max(dataSize, 1))
            arenaMapping = mapping
            arena = mapping.start
            let flags = UnsafeMutablePointer<Atomic<UInt8>>.allocate(capacity: max(blocks, 1))
            for k in 0..<max(blocks, 1) { (flags + k).initialize(to: Atomic(0)) }
            ready = flags
        } else {
            arena = nil
            arenaMapping = nil
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
        arenaMapping?.free()
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

    /// A block's bytes when it is already in the resident buffer, else nil (bounded mode, or
    /// not loaded yet). Counts nothing: for prefetch hints only, never for an answer.
    @inline(__always)
    func residentBytes(_ block: Int, offset: Int, length: Int) -> UnsafeRawBufferPointer? {
        guard let arena, let ready, block >= 0, block < blocks, ready[block].load(ordering: .acquiring) == 1 else { return nil }
        return UnsafeRawBufferPointer(start: UnsafeRawPointer(arena + offset), count: length)
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

/// The resident buffer's memory: on Linux an anonymous mapping aligned to 2 MiB and marked
/// MADV_HUGEPAGE, so that the few MB of a store file sit on a handful of huge pages instead of
/// thousands of 4 KiB ones. Point reads hop between random blocks of the whole file; with 4 KiB
/// pages nearly every block is a TLB miss, and under a hypervisor a miss walks two page tables.
/// (Measured on the 2-core KVM benchmark machine: perf annotate put about half of
/// `SeriesCodec.decode`'s samples on its first load of a block and of the cell's payload.)
/// Where the mapping or the advice is refused, the pages are ordinary ones: same bytes, slower.
private struct ArenaMapping {
    let start: UnsafeMutableRawPointer
    /// The whole mapping (nil: `start` came from the Swift allocator).
    private let mapped: (base: UnsafeMutableRawPointer, length: Int)?

    private static let hugePage = 2 << 20

    init(byteCount: Int) {
        #if os(Linux)
        // Large enough to be worth a huge page: map with room to align the start to 2 MiB.
        if byteCount >= Self.hugePage / 2 {
            let length = (byteCount + Self.hugePage - 1) / Self.hugePage * Self.hugePage + Self.hugePage
            if let base = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), base != MAP_FAILED {
                let address = UInt(bitPattern: base)
                let aligned = (address + UInt(Self.hugePage) - 1) & ~(UInt(Self.hugePage) - 1)
                let start = base + Int(aligned - address)
                // Advice only: a kernel without transparent huge pages keeps small ones.
                _ = madvise(start, length - Int(aligned - address), Int32(MADV_HUGEPAGE))
                self.start = start
                mapped = (base, length)
                return
            }
        }
        #endif
        start = .allocate(byteCount: byteCount, alignment: 16)
        mapped = nil
    }

    func free() {
        if let mapped {
            #if os(Linux)
            munmap(mapped.base, mapped.length)
            #endif
        } else {
            start.deallocate()
        }
    }
}

/// How a reader's block cache did: for benchmarks and `/metrics`.
package struct BlockCacheStatistics: Sendable, Equatable {
    package var hits: Int
    package var misses: Int
    package var bytes: Int
    package var hitRate: Double { hits + misses == 0 ? 0 : Double(hits) / Double(hits + misses) }
}
