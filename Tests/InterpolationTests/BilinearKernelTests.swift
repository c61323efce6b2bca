import Dispatch
import XCTest
import Interpolation

final class BilinearKernelTests: XCTestCase {
    /// A field linear in i, j and t is reproduced exactly (to Float precision) anywhere
    /// inside: random positions, nodes, the last row and column and the corners.
    func testLinearFieldIsExactEverywhereInside() throws {
        let seed = testSeed(0x5EED_0002)
        var rng = SeededGenerator(seed: seed)
        for _ in 0..<12 {
            let w = Int.random(in: 1...23, using: &rng), h = Int.random(in: 1...19, using: &rng)
            let steps = Int.random(in: 1...40, using: &rng)
            let f = LinearField.random(using: &rng)
            let field = f.sampled(westEast: w, southNorth: h, steps: steps)
            let maxI = Double(w - 1), maxJ = Double(h - 1)
            var positions: [FractionalIndex] = [
                .init(i: maxI, j: maxJ), .init(i: 0, j: 0), .init(i: maxI, j: 0), .init(i: 0, j: maxJ),
                .init(i: maxI, j: maxJ / 3), .init(i: maxI / 3, j: maxJ),
                .init(i: max(0, maxI.nextDown), j: max(0, maxJ.nextDown)),
            ]
            for _ in 0..<300 {
                positions.append(.init(i: .random(in: 0...maxI, using: &rng), j: .random(in: 0...maxJ, using: &rng)))
                positions.append(.init(i: Double(Int.random(in: 0..<w, using: &rng)),
                                       j: Double(Int.random(in: 0..<h, using: &rng))))
            }
            let tolerance = f.tolerance(westEast: w, southNorth: h, steps: steps)
            try withKernel(field, westEast: w, southNorth: h, steps: steps) { kernel in
                for path in KernelPath.allCases {
                    let out = batch(kernel, positions, path: path)
                    for (p, position) in positions.enumerated() {
                        for t in 0..<steps {
                            let expected = f.value(i: position.i, j: position.j, t: Double(t))
                            XCTAssertEqual(Double(out[p * steps + t]), expected, accuracy: tolerance,
                                           "seed \(seed) \(path) grid \(w)x\(h)x\(steps) at (\(position.i), \(position.j)) t \(t)")
                        }
                    }
                }
            }
        }
    }

    /// Exactly on a node, the node's own value comes back bit for bit, even when every
    /// neighbour is NaN (missing).
    func testNodeSurroundedByNaNReturnsTheNodeValue() throws {
        let w = 6, h = 5, steps = 11
        for (ni, nj) in [(0, 0), (2, 3), (w - 1, h - 1), (w - 1, 0), (0, h - 1), (w - 1, 2)] {
            var field = [Float](repeating: .nan, count: w * h * steps)
            for t in 0..<steps { field[(nj * w + ni) * steps + t] = Float(t) * 0.1 - 0.35 }
            try withKernel(field, westEast: w, southNorth: h, steps: steps) { kernel in
                for path in KernelPath.allCases {
                    let out = batch(kernel, [FractionalIndex(i: Double(ni), j: Double(nj))], path: path)
                    for t in 0..<steps {
                        XCTAssertEqual(out[t].bitPattern, field[(nj * w + ni) * steps + t].bitPattern,
                                       "\(path) node (\(ni), \(nj)) t \(t)")
                    }
                }
            }
        }
    }

    /// Along an edge between two finite nodes, NaN cells off the edge do not leak in.
    func testEdgeBetweenFiniteNodesIgnoresNaNOffTheEdge() throws {
        let w = 4, h = 4, steps = 9
        var field = [Float](repeating: .nan, count: w * h * steps)
        for t in 0..<steps {
            field[(1 * w + 2) * steps + t] = 10   // (i 2, j 1)
            field[(2 * w + 2) * steps + t] = 20   // (i 2, j 2)
            field[(3 * w + 1) * steps + t] = 30   // (i 1, j 3)
            field[(3 * w + 2) * steps + t] = 50   // (i 2, j 3)
        }
        try withKernel(field, westEast: w, southNorth: h, steps: steps) { kernel in
            for path in KernelPath.allCases {
                let out = batch(kernel, [.init(i: 2, j: 1.25), .init(i: 1.5, j: 3)], path: path)
                for t in 0..<steps {
                    XCTAssertEqual(out[t], 12.5, "\(path) t \(t)")
                    XCTAssertEqual(out[steps + t], 40, "\(path) t \(t)")
                }
            }
        }
    }

    func testJustInsideTheLastRowAndColumnInterpolates() throws {
        let w = 8, h = 6, steps = 5
        let f = LinearField(a: 3, b: 2, c: -1.5, d: 0.25)
        let field = f.sampled(westEast: w, southNorth: h, steps: steps)
        let positions = [
            FractionalIndex(i: Double(w - 1) - 1e-3, j: Double(h - 1) - 1e-3),
            FractionalIndex(i: Double(w - 1).nextDown, j: Double(h - 1).nextDown),
            FractionalIndex(i: Double(w - 1) - 0.5, j: Double(h - 1)),
        ]
        try withKernel(field, westEast: w, southNorth: h, steps: steps) { kernel in
            let out = batch(kernel, positions)
            for (p, position) in positions.enumerated() {
                for t in 0..<steps {
                    XCTAssertEqual(Double(out[p * steps + t]), f.value(i: position.i, j: position.j, t: Double(t)),
                                   accuracy: f.tolerance(westEast: w, southNorth: h, steps: steps), "point \(p) t \(t)")
                }
            }
        }
    }

    /// Rows of points outside are NaN; the rows around them are untouched by that.
    func testOutsidePointsGiveNaNRowsAndLeaveOthersAlone() throws {
        let w = 5, h = 4, steps = 10
        let field = LinearField(a: 1, b: 1, c: 1, d: 1).sampled(westEast: w, southNorth: h, steps: steps)
        let positions: [FractionalIndex] = [
            .init(i: 1, j: 1), .init(i: -0.001, j: 1), .init(i: 2, j: 2), .init(i: 4.0001, j: 0),
            .init(i: .nan, j: 0), .init(i: 4, j: 3), .init(i: 0, j: .infinity),
        ]
        try withKernel(field, westEast: w, southNorth: h, steps: steps) { kernel in
            for concurrent in [false, true] {
                let out = batch(kernel, positions, concurrent: concurrent, chunks: 3)
                for (p, inside) in [true, false, true, false, false, true, false].enumerated() {
                    let row = out[(p * steps)..<((p + 1) * steps)]
                    XCTAssertEqual(row.allSatisfy(\.isNaN), !inside, "point \(p) concurrent \(concurrent)")
                    XCTAssertEqual(row.contains(where: \.isNaN), !inside, "point \(p) concurrent \(concurrent)")
                }
                XCTAssertEqual(kernel.stencil(at: positions[1]), nil)
            }
            var single = [Float](repeating: 0, count: steps)
            let inside = single.withUnsafeMutableBufferPointer { kernel.interpolate(at: positions[3], into: $0) }
            XCTAssertFalse(inside)
            XCTAssert(single.allSatisfy(\.isNaN))
        }
    }

    func testDegenerateGridsDoNotCrash() throws {
        for (w, h) in [(1, 1), (1, 7), (9, 1)] {
            let steps = 3
            let f = LinearField(a: 2, b: 0.5, c: -0.25, d: 1)
            let field = f.sampled(westEast: w, southNorth: h, steps: steps)
            let positions = [FractionalIndex(i: 0, j: 0), .init(i: Double(w - 1) / 2, j: Double(h - 1) / 2),
                             .init(i: Double(w - 1), j: Double(h - 1)), .init(i: 0.5, j: 0.5)]
            try withKernel(field, westEast: w, southNorth: h, steps: steps) { kernel in
                let out = batch(kernel, positions)
                for (p, position) in positions.dropLast().enumerated() {
                    for t in 0..<steps {
                        XCTAssertEqual(Double(out[p * steps + t]), f.value(i: position.i, j: position.j, t: Double(t)),
                                       accuracy: 1e-5, "grid \(w)x\(h) point \(p)")
                    }
                }
                // (0.5, 0.5) is inside only when neither axis is degenerate.
                XCTAssert(out[(3 * steps)...].allSatisfy(\.isNaN), "grid \(w)x\(h)")
            }
        }
    }

    func testFieldOfTheWrongSizeOrImpossibleDimensionsThrows() throws {
        let field = [Float](repeating: 0, count: 24)
        try field.withUnsafeBufferPointer { buffer in
            XCTAssertThrowsError(try BilinearKernel(field: buffer, westEast: 2, southNorth: 3, steps: 5)) {
                XCTAssertEqual($0 as? InterpolationError, .fieldSizeMismatch(expected: 30, actual: 24))
            }
            XCTAssertThrowsError(try BilinearKernel(field: buffer, westEast: 0, southNorth: 3, steps: 8)) {
                XCTAssertEqual($0 as? InterpolationError, .invalidDimensions(westEast: 0, southNorth: 3, steps: 8))
            }
            XCTAssertThrowsError(try BilinearKernel(field: buffer, westEast: .max, southNorth: 3, steps: 8)) {
                XCTAssertEqual($0 as? InterpolationError, .invalidDimensions(westEast: .max, southNorth: 3, steps: 8))
            }
            XCTAssertNoThrow(try BilinearKernel(field: buffer, westEast: 2, southNorth: 3, steps: 4))
        }
    }

    /// The batch returns only when every row is written: with two big chunks the caller
    /// finishes its own while another thread may still be writing the other, so a batch that
    /// did not wait for it would hand back unwritten rows (the -12345 sentinel) or partial ones.
    func testConcurrentBatchReturnsOnlyWhenEveryRowIsWritten() throws {
        let seed = testSeed(0x5EED_0008)
        var rng = SeededGenerator(seed: seed)
        let w = 40, h = 30, steps = 73
        let field = (0..<(w * h * steps)).map { _ in Float.random(in: -5...5, using: &rng) }
        let positions = (0..<10_000).map { _ in
            FractionalIndex(i: .random(in: 0...Double(w - 1), using: &rng), j: .random(in: 0...Double(h - 1), using: &rng))
        }
        try withKernel(field, westEast: w, southNorth: h, steps: steps) { kernel in
            let serial = batch(kernel, positions)
            for round in 0..<8 {
                let out = batch(kernel, positions, concurrent: true, chunks: 2)
                // The last value first, at once: it is the last one the other chunk writes.
                XCTAssertEqual(out[out.count - 1].bitPattern, serial[serial.count - 1].bitPattern,
                               "seed \(seed) round \(round): returned before the last row was written")
                XCTAssertNil(firstBitDifference(serial, out), "seed \(seed) round \(round)")
            }
        }
    }

    /// Many concurrent batches started from Dispatch workers at once (so the pool is busy)
    /// all finish, each with the serial result.
    func testConcurrentBatchesFromInsideDispatchWorkersFinishAndAgree() throws {
        let seed = testSeed(0x5EED_0007)
        var rng = SeededGenerator(seed: seed)
        let w = 23, h = 17, steps = 30
        let field = (0..<(w * h * steps)).map { _ in Float.random(in: -5...5, using: &rng) }
        let positions = (0..<700).map { _ in
            FractionalIndex(i: .random(in: 0...Double(w - 1), using: &rng), j: .random(in: 0...Double(h - 1), using: &rng))
        }
        try withKernel(field, westEast: w, southNorth: h, steps: steps) { kernel in
            let serial = batch(kernel, positions)
            let callers = 16
            let results = UnsafeMutableBufferPointer<Int>.allocate(capacity: callers)
            defer { results.deallocate() }
            results.initialize(repeating: -2)
            // The kernel only reads the field, which outlives the calls: safe to share.
            nonisolated(unsafe) let shared = results, sharedKernel = kernel
            DispatchQueue.concurrentPerform(iterations: callers) { caller in
                let out = batch(sharedKernel, positions, concurrent: true, chunks: 5 + caller)
                shared[caller] = firstBitDifference(serial, out) ?? -1
            }
            XCTAssertEqual(Array(results), [Int](repeating: -1, count: callers), "seed \(seed): -1 means identical")
        }
    }

    /// The concurrent batch is the serial batch, bit for bit and in the same order, for any
    /// number of chunks, including more chunks than points.
    func testConcurrentBatchEqualsSerialBatch() throws {
        let seed = testSeed(0x5EED_0003)
        var rng = SeededGenerator(seed: seed)
        let w = 37, h = 29, steps = 73
        var field = (0..<(w * h * steps)).map { _ in Float.random(in: -40...40, using: &rng) }
        for _ in 0..<200 { field[Int.random(in: 0..<field.count, using: &rng)] = .nan }
        let positions = (0..<5_003).map { _ in
            FractionalIndex(i: .random(in: -1...Double(w), using: &rng), j: .random(in: -1...Double(h), using: &rng))
        }
        try withKernel(field, westEast: w, southNorth: h, steps: steps) { kernel in
            for path in KernelPath.allCases {
                let serial = batch(kernel, positions, path: path)
                XCTAssertFalse(serial.contains(-12345), "seed \(seed): a row was not written")
                for chunks in [nil, 1, 2, 7, 64, positions.count, positions.count + 5] {
                    let concurrent = batch(kernel, positions, path: path, concurrent: true, chunks: chunks)
                    let firstDifference = firstBitDifference(serial, concurrent)
                    XCTAssertNil(firstDifference, "seed \(seed) \(path) chunks \(chunks.map(String.init) ?? "default")")
                }
            }
            XCTAssertEqual(batch(kernel, [], concurrent: true), [])
            XCTAssertEqual(batch(kernel, []), [])
        }
    }
}
