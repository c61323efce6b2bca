// The inputs of B1 and its growth curves: a seeded random field and seeded random positions,
// the same bytes in every build and run, written as raw little-endian files for numpy.

import Foundation
import Interpolation

/// SplitMix64 (Steele, Lea and Flood 2014): the same seed gives the same inputs everywhere.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform Float in [low, high), from the top 24 bits (cheaper than Float.random for
    /// the 73 million values of the largest grid, and just as reproducible).
    mutating func float(_ low: Float, _ high: Float) -> Float {
        low + Float(next() >> 40) * 0x1p-24 * (high - low)
    }

    /// A uniform Double in [0, upper], from the top 53 bits.
    mutating func double(upTo upper: Double) -> Double {
        Double(next() >> 11) * 0x1p-53 * upper
    }
}

/// One benchmark input: a field of one variable and positions inside its grid.
struct Workload {
    let westEast: Int
    let southNorth: Int
    let steps: Int
    let field: [Float]
    let positions: [FractionalIndex]
    let seed: UInt64

    /// A field of values in [-40, 40) and `points` positions uniform over the whole grid,
    /// last row and column included. The field and the positions use separate streams, so
    /// the positions do not change with the number of steps.
    init(westEast: Int, southNorth: Int, steps: Int, points: Int, seed: UInt64) {
        self.westEast = westEast
        self.southNorth = southNorth
        self.steps = steps
        self.seed = seed
        var values = SplitMix64(seed: seed)
        field = (0..<(westEast * southNorth * steps)).map { _ in values.float(-40, 40) }
        var places = SplitMix64(seed: seed ^ 0xA5A5_A5A5_A5A5_A5A5)
        let maxI = Double(westEast - 1), maxJ = Double(southNorth - 1)
        positions = (0..<points).map { _ in
            FractionalIndex(i: places.double(upTo: maxI), j: places.double(upTo: maxJ))
        }
    }

    var values: Int { positions.count * steps }

    /// Writes field.f32 ([j][i][t]), positions.f64 ((i, j) pairs) and meta.json to `directory`.
    func write(to directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try field.withUnsafeBytes { try Data($0).write(to: directory.appendingPathComponent("field.f32")) }
        let pairs = positions.flatMap { [$0.i, $0.j] }
        try pairs.withUnsafeBytes { try Data($0).write(to: directory.appendingPathComponent("positions.f64")) }
        let meta: [String: Int] = ["westEast": westEast, "southNorth": southNorth, "steps": steps,
                                   "points": positions.count, "seed": Int(truncatingIfNeeded: seed)]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(meta).write(to: directory.appendingPathComponent("meta.json"))
    }
}

/// Writes raw Float values (little-endian on every machine we run on) to `url`.
func writeRaw(_ values: [Float], to url: URL) throws {
    try values.withUnsafeBytes { try Data($0).write(to: url) }
}
