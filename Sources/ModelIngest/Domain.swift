import Catalog
import GridGeometry

/// One frame of a domain: its time and where it is stored.
package struct DomainFrame: Sendable, Equatable {
    package let time: Int64
    /// Index into `Domain.files`.
    package let fileIndex: Int
    /// Index along the file's time dimension.
    package let frameIndex: Int
}

/// One domain of a run (d01, d02, ...), stitched from its files in time order.
package struct Domain: Sendable {
    package let id: Int
    /// The domain's files, in time order.
    package let files: [SourceFile]
    /// Every frame once, in time order.
    package let frames: [DomainFrame]
    package let grid: ProjectedGrid
    package let nest: NestPlacement?
    /// Where the nest's coordinates put its origin in the parent, against where its
    /// attributes say (nil when the parent is not part of the run).
    package let nestCheck: NestCheck?
    /// What this domain can provide, and what it cannot and why.
    package let variables: VariableAvailability
    /// Where a moving nest's grid lies at each frame on `grid`, the fixed grid covering every
    /// position it took; nil for a domain that stays put.
    package var motion: NestMotion? = nil
    /// The output stream of a domain's fast stream ("auxhist2"); nil for the domain's history.
    package var stream: String? = nil

    package var name: String { domainName(id) }
    /// "d02", or "d02 auxhist2" for a fast stream: what messages call it.
    package var label: String { stream.map { "\(name) \($0)" } ?? name }
    package var times: [Int64] { frames.map(\.time) }
    package var projection: ProjectionParameters { grid.parameters }
    /// The most common interval between frames (nil for a single frame).
    package var step: Int64? { Self.commonStep(times) }
    /// Grid spacing in metres (DX).
    package var spacing: Double { projection.dx }
    /// The size of the grid the files hold: `grid`'s, except for a moving nest.
    package var fileWestEast: Int { motion?.westEast ?? grid.westEast }
    package var fileSouthNorth: Int { motion?.southNorth ?? grid.southNorth }

    static func commonStep(_ times: [Int64]) -> Int64? {
        var counts: [Int64: Int] = [:]
        for index in times.indices.dropFirst() { counts[times[index] - times[index - 1], default: 0] += 1 }
        return counts.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }?.key
    }
}

/// A moving nest (WRF's vortex-following nests move by whole parent cells): its files' grid
/// lies, at each frame, at a whole-cell offset on the fixed grid that covers every position.
package struct NestMotion: Sendable, Equatable {
    /// The size of the grid the files hold.
    package let westEast: Int
    package let southNorth: Int
    /// Per frame of the domain (in time order), the files' cell [0, 0] on the covering grid.
    package let offsets: [CellOffset]
}

/// A whole-cell position on a grid.
package struct CellOffset: Sendable, Equatable, Hashable {
    package let i: Int
    package let j: Int

    package init(i: Int, j: Int) {
        self.i = i
        self.j = j
    }
}

/// A nest's placement measured against its parent.
package struct NestCheck: Sendable, Equatable {
    /// Where the attributes (I/J_PARENT_START, ratio) put the nest's mass point [0,0] in the parent.
    package let expected: GridPosition
    /// Where its XLAT/XLONG put it.
    package let measured: GridPosition
    /// Parent DX over nest DX, against PARENT_GRID_RATIO.
    package let spacingRatio: Double

    /// The larger of the two axis offsets, in parent cells.
    package var offsetCells: Double { max(abs(expected.i - measured.i), abs(expected.j - measured.j)) }
}

/// Which catalog variables a domain can provide, from the sources its files hold.
package struct VariableAvailability: Sendable, Equatable {
    package let available: [ForecastVariable]
    /// Each missing variable with the reason ("no SNOWNC").
    package let missing: [(ForecastVariable, String)]
    /// Variables available only by a route a larger extraction set takes (cape from the model
    /// levels when the file has no CAPE field: `Derivation.orAllOfSet`): that set, and why the
    /// main route is closed ("no CAPE").
    package private(set) var routeSets: [ForecastVariable: (set: ExtractionSet, reason: String)] = [:]

    /// What an extraction of `set` stores from this domain: the set's variables the domain
    /// provides by a route the set takes.
    package func provided(by set: ExtractionSet) -> [ForecastVariable] {
        available.filter { $0.belongs(to: set) && (routeSets[$0]?.set ?? .surface) <= set }
    }

    /// What an extraction of `set` lacks, with the reason: the missing variables, and those only
    /// a larger set would make ("no CAPE (with --set all: from the model levels)").
    package func lacking(in set: ExtractionSet) -> [(ForecastVariable, String)] {
        let closed = routeSets.filter { $0.value.set > set }
            .map { ($0.key, "\($0.value.reason) (with --set \($0.value.set.rawValue): from the model levels)") }
        return (missing + closed).sorted { $0.0 < $1.0 }
    }

    package static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.available == rhs.available && lhs.missing.map(\.0) == rhs.missing.map(\.0) && lhs.missing.map(\.1) == rhs.missing.map(\.1)
    }

    /// Works out availability from the roles a file provides.
    /// - Parameter soilProblem: why the file's soil fields were set aside (`SoilLayers`): the
    ///   reason given for the soil variables instead of "no TSLB".
    init(roles: Set<SourceRole>, profile: ModelProfile, soilProblem: String? = nil) {
        func label(_ role: SourceRole) -> String { profile.names(role).first ?? "\(role.rawValue) source in profile \(profile.name)" }
        func need(_ required: [SourceRole], anyOf alternatives: [SourceRole] = []) -> String? {
            let absent = required.filter { !roles.contains($0) }
            if !absent.isEmpty { return "no " + absent.map(label).joined(separator: ", ") }
            if !alternatives.isEmpty && !alternatives.contains(where: roles.contains) {
                // Name only the alternatives this profile knows, so WRF users never read "pstar".
                let known = alternatives.filter { !profile.names($0).isEmpty }
                return known.count == 1 ? "no " + label(known[0]) : "none of " + known.map(label).joined(separator: ", ")
            }
            return nil
        }
        // What is missing for each variable, from the one derivation table.
        var reasons: [ForecastVariable: String?] = [:]
        var routeSets: [ForecastVariable: (set: ExtractionSet, reason: String)] = [:]
        for derivation in Derivations.table {
            if let direct = derivation.orDirectly, roles.contains(direct) {
                reasons[derivation.variable] = .some(nil)
                continue
            }
            if !derivation.orAllOf.isEmpty, derivation.orAllOf.allSatisfy(roles.contains) {
                reasons[derivation.variable] = .some(nil)
                // The main route still serves every set when its sources are there.
                if derivation.orAllOfSet > .surface, let closed = need(derivation.allOf, anyOf: derivation.oneOf) {
                    routeSets[derivation.variable] = (derivation.orAllOfSet, closed)
                }
                continue
            }
            if let lacking = derivation.from.first(where: { (reasons[$0] ?? nil) != nil }), let why = reasons[lacking] ?? nil {
                reasons[derivation.variable] = "needs \(lacking.rawValue) (\(why))"
                continue
            }
            reasons[derivation.variable] = need(derivation.allOf, anyOf: derivation.oneOf)
            if let soilProblem, derivation.allOf.contains(where: { $0 == .soilTemperature || $0 == .soilMoisture || $0 == .relativeSoilMoisture }),
               (reasons[derivation.variable] ?? nil) != nil {
                reasons[derivation.variable] = soilProblem
            }
        }
        available = ForecastVariable.stored.filter { (reasons[$0] ?? nil) == nil }
        missing = ForecastVariable.stored.compactMap { variable in
            (reasons[variable] ?? nil).map { (variable, $0) }
        }
        self.routeSets = routeSets
    }
}
