import Foundation
import Synchronization
import TileStore
#if canImport(Glibc)
import Glibc
#endif

/// A domain file on a remote store, read with ranged GETs: the store reader's `ByteSource`,
/// as `pread` is for a local file. Opening fetches the header and the last 64 KB (trailer,
/// metadata and usually the index) in two requests at once; later reads fetch exactly the
/// bytes asked for, unless `prefetch` brought them already. The reader checks every block's
/// CRC-32 as it does for a local file, so bytes damaged in transit are damage, never numbers.
package final class RemoteBytes: ByteSource {
    /// What opening reads from the end of a file: trailer, metadata and the index of a few
    /// thousand blocks.
    static let tailBytes = 64 << 10
    /// Prefetched bytes kept at most before the oldest go (a forecast's blocks are ~100 KB).
    static let heldBudget = 8 << 20

    package let client: ObjectClient
    package let relative: String
    package let size: Int
    /// The object's address, for messages.
    package let label: String
    private struct Piece { var offset: Int; var bytes: [UInt8] }
    private let held: Mutex<[Piece]>
    /// Offsets of the reads already answered: the reader keeps those blocks in its own cache
    /// of verified blocks, so prefetching them again would only cost requests.
    private let delivered = Mutex<Set<Int>>([])
    /// Bytes fetched at least by a read that finds nothing held (0: exactly what it asks):
    /// `inspect --verify` reads every block in file order, a request per MiB rather than per block.
    private let readAheadBytes = Atomic<Int>(0)

    /// Makes reads that miss fetch at least `bytes` from where they start (see `readAheadBytes`).
    package func readAhead(_ bytes: Int) { readAheadBytes.store(max(0, min(bytes, Self.heldBudget)), ordering: .relaxed) }

    /// Opens an object: its size, header and tail.
    ///
    /// - Parameter expectedSize: the size the cycle's manifest gives; another size is damage
    ///   (or a cycle replaced under the reader), never read on.
    /// - Throws: `StoreError.missing` for an object that is not there, `.corrupt` for a size
    ///   that is not the manifest's, `.io` for a request that kept failing.
    package init(client: ObjectClient, relative: String, expectedSize: Int?) throws(StoreError) {
        self.client = client
        self.relative = relative
        label = client.describe(relative)
        let tail: (bytes: [UInt8], objectSize: Int)
        var head: [UInt8] = []
        // Both at once: the header's range does not depend on the size.
        let headFuture = try? client.start(.GET, relative, headers: [("Range", "bytes=0-15")], limit: 16)
        do throws(ObjectStoreError) {
            tail = try client.getTail(relative, count: Self.tailBytes)
            if tail.objectSize > tail.bytes.count {
                if let headFuture, let response = try? headFuture.wait(), response.status == 206, response.body.count == min(16, tail.objectSize) {
                    head = response.body
                } else {
                    head = try client.getRange(relative, 0..<min(16, tail.objectSize)).bytes
                }
            } else {
                _ = try? headFuture?.wait()
            }
        } catch {
            throw Self.storeError(error, label: client.describe(relative))
        }
        size = tail.objectSize
        if let expectedSize, expectedSize != size {
            throw .corrupt(path: label, detail: "the object is \(size) bytes, the cycle's manifest says \(expectedSize) (damaged, or replaced while being read)")
        }
        var pieces = [Piece(offset: size - tail.bytes.count, bytes: tail.bytes)]
        if !head.isEmpty { pieces.append(Piece(offset: 0, bytes: head)) }
        held = Mutex(pieces)
    }

    /// Exactly `count` bytes from `offset`: held bytes when a fetch brought them, else a
    /// ranged GET.
    package func read(offset: Int, count: Int) throws(StoreError) -> [UInt8] {
        guard offset >= 0, count >= 0, count <= size - offset else {
            throw .truncated(path: label, detail: "\(count) bytes at \(offset) lie past its end (\(size) bytes)")
        }
        if count == 0 { return [] }
        let found: [UInt8]? = held.withLock { pieces in
            for piece in pieces where piece.offset <= offset && offset + count <= piece.offset + piece.bytes.count {
                let start = offset - piece.offset
                return Array(piece.bytes[start..<(start + count)])
            }
            return nil
        }
        let bytes: [UInt8]
        let ahead = readAheadBytes.load(ordering: .relaxed)
        if let found { bytes = found } else if ahead > count {
            let range = offset..<min(size, offset + ahead)
            let fetched: [UInt8]
            do throws(ObjectStoreError) { fetched = try client.getRange(relative, range).bytes } catch {
                throw Self.storeError(error, label: label)
            }
            hold(Piece(offset: offset, bytes: fetched))
            bytes = Array(fetched[0..<count])
        } else {
            do throws(ObjectStoreError) { bytes = try client.getRange(relative, offset..<(offset + count)).bytes } catch {
                throw Self.storeError(error, label: label)
            }
        }
        delivered.withLock { seen in
            if seen.count > 1 << 20 { seen.removeAll() }
            seen.insert(offset)
        }
        return bytes
    }

    /// Drops the bytes opening fetched (the reader has parsed them).
    package func releaseOpeningBytes() { held.withLock { $0.removeAll() } }

    /// Each read is a request: readers fetch a forecast's blocks ahead (`prefetch(ranges:)`).
    package var fetchesAhead: Bool { true }

    package func prefetch(ranges: [Range<Int>]) -> Int { prefetch(ranges) }

    /// Fetches byte ranges at once, neighbours (gaps up to `gap` bytes) joined into one
    /// request, and holds them for the reads that follow. Failures are left to those reads.
    ///
    /// - Returns: the number of requests sent.
    @discardableResult
    package func prefetch(_ ranges: [Range<Int>], gap: Int = 4096) -> Int {
        let seen = delivered.withLock { $0 }
        let wanted = ranges.filter { range in
            !seen.contains(range.lowerBound) && !range.isEmpty && range.lowerBound >= 0 && range.upperBound <= size && !held.withLock { pieces in
                pieces.contains { $0.offset <= range.lowerBound && range.upperBound <= $0.offset + $0.bytes.count }
            }
        }.sorted { $0.lowerBound < $1.lowerBound }
        var merged: [Range<Int>] = []
        for range in wanted {
            if let last = merged.last, range.lowerBound <= last.upperBound + gap {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        guard !merged.isEmpty, let fetched = try? client.getRanges(relative, merged) else { return merged.count }
        for (range, bytes) in zip(merged, fetched) { hold(Piece(offset: range.lowerBound, bytes: bytes)) }
        return merged.count
    }

    /// Keeps fetched bytes for the reads that follow, the oldest dropped past `heldBudget`.
    private func hold(_ piece: Piece) {
        held.withLock { pieces in
            pieces.append(piece)
            var total = pieces.reduce(0) { $0 + $1.bytes.count }
            while total > Self.heldBudget, !pieces.isEmpty { total -= pieces.removeFirst().bytes.count }
        }
    }

    /// A failed request as the store reports it: an absent object is missing, anything else
    /// an I/O failure naming the address and what the server said.
    package static func storeError(_ error: ObjectStoreError, label: String) -> StoreError {
        switch error {
        case .notFound(let url): return .missing(path: url, what: "object")
        case .request(let url, let detail): return .unreachable(address: url, detail: detail)
        case .configuration(let detail): return .badRequest(detail)
        }
    }
}
