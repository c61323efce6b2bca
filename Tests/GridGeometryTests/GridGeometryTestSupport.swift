import Foundation
import GridGeometry
import TestSupport
import XCTest

/// Where the repository is, found from this file's own path (symlinks resolved, so a scratch
/// package that links the test folder still finds the real repository).
enum GeometryRepository {
    static let root: URL = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// SampleGrids/projections, written by Scripts/make_projection_fixtures.py.
    static let projectionFixtures = root.appendingPathComponent("SampleGrids/projections")
}

/// One cross-check case written by Scripts/make_projection_fixtures.py (pyproj on R = 6370 km).
struct ProjectionFixture: Decodable {
    struct Node {
        let i: Int
        let j: Int
        let point: GeoPoint
    }

    let name: String
    let description: String
    let proj4: String
    let parameters: ProjectionParameters
    let westEast: Int
    let southNorth: Int
    let southWestCorner: GeoPoint
    var nodes: [Node] = []

    private enum CodingKeys: String, CodingKey {
        case name, description, proj4, parameters, westEast, southNorth, southWestCorner
    }

    static let caseNames = [
        "lambert_portugal", "lambert_tangent", "lambert_offcentre", "lambert_south", "polar_north",
        "polar_south", "mercator_dateline", "latlon_regular", "rotated_north", "rotated_south",
    ]

    /// The sidecar JSON and the CSV of one case.
    static func load(_ name: String) throws -> ProjectionFixture {
        let folder = GeometryRepository.projectionFixtures
        let json = try Data(contentsOf: folder.appendingPathComponent(name + ".json"))
        var fixture = try JSONDecoder().decode(ProjectionFixture.self, from: json)
        let csv = try String(contentsOf: folder.appendingPathComponent(name + ".csv"), encoding: .utf8)
        let lines = csv.split(whereSeparator: \.isNewline)
        guard lines.first == "i,j,lat,lon" else {
            throw FixtureError.malformed("\(name).csv: header is not i,j,lat,lon")
        }
        for line in lines.dropFirst() {
            let fields = line.split(separator: ",")
            guard fields.count == 4, let i = Int(fields[0]), let j = Int(fields[1]),
                  let lat = Double(fields[2]), let lon = Double(fields[3])
            else { throw FixtureError.malformed("\(name).csv: bad row \(line)") }
            fixture.nodes.append(Node(i: i, j: j, point: GeoPoint(latitude: lat, longitude: lon)))
        }
        guard fixture.nodes.count == fixture.westEast * fixture.southNorth else {
            throw FixtureError.malformed("\(name).csv: \(fixture.nodes.count) rows for a \(fixture.westEast) x \(fixture.southNorth) grid")
        }
        return fixture
    }

    func grid() throws -> ProjectedGrid {
        try ProjectedGrid(parameters: parameters, westEast: westEast, southNorth: southNorth,
                          southWestCorner: southWestCorner)
    }
}

enum FixtureError: Error {
    case malformed(String)
}

/// The smallest difference between two longitudes, in degrees.
func longitudeDifference(_ a: Double, _ b: Double) -> Double {
    abs((a - b).remainder(dividingBy: 360))
}

/// The grid of the real sample wrf_d01_allvars_cropped.nc: MAP_PROJ 1, TRUELAT1 30, TRUELAT2 35,
/// STAND_LON 87, DX = DY = 30000, cropped to 10 x 8, anchored at its XLAT/XLONG[0,0].
func realSampleGrid() throws -> ProjectedGrid {
    let parameters = try ProjectionParameters(wrfMapProjection: 1, trueLatitude1: 30, trueLatitude2: 35,
                                              standardLongitude: 87, dx: 30000, dy: 30000)
    return try ProjectedGrid(parameters: parameters, westEast: 10, southNorth: 8,
                             southWestCorner: GeoPoint(latitude: 29.04805, longitude: 85.61215))
}

/// Asserts that `body` throws `invalidParameters` whose message mentions `name`.
func assertInvalid(_ name: String, file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void) {
    do {
        try body()
        XCTFail("expected invalidParameters naming \(name), nothing was thrown", file: file, line: line)
    } catch GridGeometryError.invalidParameters(let message) {
        XCTAssertTrue(message.contains(name), "message \"\(message)\" does not name \(name)", file: file, line: line)
    } catch {
        XCTFail("expected invalidParameters naming \(name), got \(error)", file: file, line: line)
    }
}
