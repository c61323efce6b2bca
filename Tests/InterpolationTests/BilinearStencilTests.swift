import XCTest
import Interpolation

final class BilinearStencilTests: XCTestCase {
    func testLastRowAndColumnAreInsideWithAllWeightOnThem() throws {
        let s = try XCTUnwrap(BilinearStencil(i: 9, j: 4, westEast: 10, southNorth: 5))
        XCTAssertEqual([s.i0, s.i1, s.j0, s.j1], [9, 9, 4, 4])
        XCTAssertEqual(s.weights, BilinearWeights(w00: 0, w10: 0, w01: 0, w11: 1))
    }

    func testInteriorPositionHasTheTextbookWeights() throws {
        let s = try XCTUnwrap(BilinearStencil(i: 2.25, j: 7.5, westEast: 10, southNorth: 9))
        XCTAssertEqual([s.i0, s.i1, s.j0, s.j1], [2, 3, 7, 8])
        XCTAssertEqual(s.weights, BilinearWeights(w00: 0.375, w10: 0.125, w01: 0.375, w11: 0.125))
    }

    func testNodeAndEdgeAliasTheZeroWeightCorners() throws {
        let node = try XCTUnwrap(BilinearStencil(i: 3, j: 2, westEast: 10, southNorth: 9))
        XCTAssertEqual([node.i0, node.i1, node.j0, node.j1], [3, 3, 2, 2])
        XCTAssertEqual(node.weights, BilinearWeights(w00: 1, w10: 0, w01: 0, w11: 0))
        let edge = try XCTUnwrap(BilinearStencil(i: 3, j: 2.5, westEast: 10, southNorth: 9))
        XCTAssertEqual([edge.i0, edge.i1, edge.j0, edge.j1], [3, 3, 2, 3])
    }

    func testOutsideAndNotANumberAreNil() {
        let w = 10, h = 9
        let outside: [(Double, Double)] = [
            (-1e-12, 0), (0, -1e-12), (9.000000001, 0), (0, 8.000000001), (-1, -1), (10, 9),
            (.nan, 1), (1, .nan), (.infinity, 1), (1, -.infinity), (-Double.greatestFiniteMagnitude, 1),
        ]
        for (i, j) in outside {
            XCTAssertNil(BilinearStencil(i: i, j: j, westEast: w, southNorth: h), "(\(i), \(j))")
        }
        XCTAssertNil(BilinearStencil(i: 0, j: 0, westEast: 0, southNorth: 5))
        XCTAssertNil(BilinearStencil(i: 0, j: 0, westEast: 5, southNorth: -3))
        XCTAssertNil(BilinearStencil(i: 0, j: 0, westEast: .min, southNorth: .min))
    }

    func testDegenerateAxesHoldOnlyIndexZero() throws {
        let column = try XCTUnwrap(BilinearStencil(i: 0, j: 2.5, westEast: 1, southNorth: 4))
        XCTAssertEqual([column.i0, column.i1, column.j0, column.j1], [0, 0, 2, 3])
        XCTAssertEqual(column.weights, BilinearWeights(w00: 0.5, w10: 0, w01: 0.5, w11: 0))
        let single = try XCTUnwrap(BilinearStencil(i: 0, j: 0, westEast: 1, southNorth: 1))
        XCTAssertEqual(single.weights, BilinearWeights(w00: 1, w10: 0, w01: 0, w11: 0))
        XCTAssertNil(BilinearStencil(i: 0.5, j: 0, westEast: 1, southNorth: 1))
        XCTAssertNil(BilinearStencil(i: 0, j: 1e-300, westEast: 1, southNorth: 1))
    }

    func testFractionsWithinTheSnapToleranceLandOnTheNode() throws {
        let below = try XCTUnwrap(BilinearStencil(i: 4 - 1e-12, j: 6 + 1e-12, westEast: 10, southNorth: 9))
        XCTAssertEqual([below.i0, below.i1, below.j0, below.j1], [4, 4, 6, 6])
        // All four corners are the node (4, 6); the whole weight sits on one of them.
        let w = below.weights
        XCTAssertEqual([w.w00, w.w10, w.w01, w.w11].sorted(), [0, 0, 0, 1])
        // Just outside the tolerance the neighbour takes a small, non-zero weight.
        let apart = try XCTUnwrap(BilinearStencil(i: 4 + 1e-8, j: 6, westEast: 10, southNorth: 9))
        XCTAssertEqual([apart.i0, apart.i1], [4, 5])
        XCTAssertGreaterThan(apart.weights.w10, 0)
    }

    /// Every corner with weight 0 is a corner that carries weight, and no non-zero weight
    /// is so small that Float could have flushed a neighbour's weight to 0.
    func testZeroWeightCornersAlwaysAliasAWeightedCorner() throws {
        let seed = testSeed(0x5EED_0001)
        var rng = SeededGenerator(seed: seed)
        let w = 7, h = 5
        for _ in 0..<20_000 {
            // Mix nodes, edges, tiny offsets from nodes and general positions.
            func coordinate(_ n: Int) -> Double {
                let node = Double(Int.random(in: 0..<n, using: &rng))
                switch Int.random(in: 0..<4, using: &rng) {
                case 0: return node
                case 1: return min(Double(n - 1), node + .random(in: 0..<1e-7, using: &rng))
                case 2: return max(0, node - Double.random(in: 0..<1e-7, using: &rng))
                default: return .random(in: 0...Double(n - 1), using: &rng)
                }
            }
            let i = coordinate(w), j = coordinate(h)
            let s = try XCTUnwrap(BilinearStencil(i: i, j: j, westEast: w, southNorth: h), "seed \(seed) (\(i), \(j))")
            let corners = [(s.i0, s.j0, s.weights.w00), (s.i1, s.j0, s.weights.w10),
                           (s.i0, s.j1, s.weights.w01), (s.i1, s.j1, s.weights.w11)]
            let weighted = corners.filter { $0.2 != 0 }
            XCTAssertFalse(weighted.isEmpty, "seed \(seed) (\(i), \(j))")
            for corner in corners where corner.2 == 0 {
                XCTAssert(weighted.contains { $0.0 == corner.0 && $0.1 == corner.1 },
                          "seed \(seed) (\(i), \(j)): corner (\(corner.0), \(corner.1)) has weight 0 and no alias")
            }
            for corner in weighted {
                XCTAssertGreaterThanOrEqual(corner.2, 0x1p-60, "seed \(seed) (\(i), \(j))")
            }
            XCTAssert((0..<w).contains(s.i0) && (0..<w).contains(s.i1) && (0..<h).contains(s.j0)
                      && (0..<h).contains(s.j1), "seed \(seed) (\(i), \(j))")
        }
    }
}
