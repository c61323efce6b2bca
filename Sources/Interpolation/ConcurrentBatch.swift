// The batch on all cores. The points are cut into contiguous chunks and
// `DispatchQueue.concurrentPerform` runs one iteration per chunk, the calling thread
// included; since every point owns its output row, the result is the serial result byte for
// byte, in the same order, whatever the scheduling.
//
// Four chunks per core rather than one: a core slowed by other work then takes fewer of them
// instead of holding up the end. (Measured on the 2-core benchmark machine: 2 to 64 chunks
// made no difference when both cores were free.)

import Dispatch
import Foundation

extension BilinearKernel {
    /// The batch of `interpolate(_:into:path:)` spread over all active cores with
    /// `DispatchQueue.concurrentPerform`; the output is identical to the serial one.
    /// - Parameter chunks: how many pieces to cut the points into; default 4 per active
    ///   core (at most `positions.count`, at least 1).
    /// - Precondition: `out.count == positions.count * steps`.
    package func interpolateConcurrently(
        _ positions: [FractionalIndex], into out: UnsafeMutableBufferPointer<Float>,
        path: KernelPath = .simd, chunks: Int? = nil
    ) {
        checkOutput(out, points: positions.count)
        guard let base = out.baseAddress, !positions.isEmpty else { return }
        let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let pieces = max(1, min(positions.count, chunks ?? 4 * cores))
        positions.withUnsafeBufferPointer { points in
            let job = ChunkedRows(kernel: self, points: points, out: base, path: path, pieces: pieces)
            DispatchQueue.concurrentPerform(iterations: pieces) { job.run(piece: $0) }
        }
    }
}

/// What every iteration shares. Sendable by our word, not the compiler's: the field and the
/// positions are only read, each chunk's rows are written by one iteration only, and
/// concurrentPerform returns after every iteration, so the borrowed buffers outlive all uses.
private struct ChunkedRows: @unchecked Sendable {
    let kernel: BilinearKernel
    let points: UnsafeBufferPointer<FractionalIndex>
    let out: UnsafeMutablePointer<Float>
    let path: KernelPath
    let pieces: Int

    /// Writes the rows of chunk `piece`: [k*n/pieces, (k+1)*n/pieces) computed without forming
    /// k*n, which could overflow; the first n % pieces chunks are one point longer.
    func run(piece: Int) {
        let n = points.count
        let size = n / pieces, extra = n % pieces
        let start = piece * size + min(piece, extra)
        let end = start + size + (piece < extra ? 1 : 0)
        kernel.rows(points, start..<end, into: out, path: path)
    }
}
