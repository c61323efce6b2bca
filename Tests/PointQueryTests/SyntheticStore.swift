import Catalog
import Foundation
import GridGeometry
import TileStore
import TestSupport

/// Builds a store from fields given as functions of (i, j, hour), written through the real
/// writer and published through the real cycle writer: fixtures whose true answers are known.
struct SyntheticDomain {
    var id: Int
    var parent: Int?
    var westEast: Int
    var southNorth: Int
    var dx: Double
    var southWestCorner: GeoPoint
    var times: [Int64]
    var variables: [ForecastVariable]
    /// Value of a variable at cell (i, j) at frame index t (running totals: the interval amount).
    var value: (ForecastVariable, Int, Int, Int) -> Float
}

enum SyntheticStore {
    static let cycle: Int64 = 1_795_305_600   // 2026-11-22T00:00Z
    static let projection = ProjectionParameters(kind: .lambertConformal, trueLatitude1: 37, trueLatitude2: 42,
                                                 standardLongitude: -8, dx: 9000)

    static func write(_ domains: [SyntheticDomain], to root: String, model: String = "synthetic", cycle: Int64 = cycle) throws {
        let writer = try CycleWriter(root: root, model: model, cycle: cycle)
        var entries: [CycleManifest.DomainEntry] = []
        for domain in domains {
            var parameters = projection
            parameters.dx = domain.dx
            parameters.dy = domain.dx
            let metadata = DomainFileMetadata(
                model: model, modelTitle: "synthetic test run", cycle: cycle, domain: domain.id,
                parentDomain: domain.parent, parentGridRatio: domain.parent == nil ? nil : 3, parentStart: nil,
                projection: parameters, westEast: domain.westEast, southNorth: domain.southNorth,
                southWestCorner: domain.southWestCorner, times: domain.times, sources: ["synthetic"], createdBy: "tests")
            let file = try DomainFileWriter(path: writer.domainPath(domain.id), metadata: metadata, variables: domain.variables)
            for t in domain.times.indices {
                var frame: [ForecastVariable: [Float]] = [:]
                for variable in domain.variables {
                    var field = [Float](repeating: 0, count: domain.westEast * domain.southNorth)
                    for j in 0..<domain.southNorth {
                        for i in 0..<domain.westEast { field[j * domain.westEast + i] = domain.value(variable, i, j, t) }
                    }
                    frame[variable] = field
                }
                try file.add(frame: frame)
            }
            let bytes = try file.finish()
            entries.append(CycleManifest.DomainEntry(domain: CycleStore.domainName(domain.id), file: CycleStore.domainFileName(domain.id),
                                                     bytes: bytes, frames: domain.times.count, variables: domain.variables.map(\.rawValue)))
        }
        _ = try writer.publish(manifest: CycleManifest(model: model, cycle: writer.cycleName, modelTitle: "synthetic test run",
                                                       domains: entries, inputs: [], warnings: [], createdBy: "tests", createdAt: ""))
    }

    static func hourly(_ count: Int, from start: Int64 = cycle) -> [Int64] { (0..<count).map { start + Int64($0) * 3600 } }
}
