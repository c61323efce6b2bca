import Foundation
import GridGeometry
import NetCDF

/// Reads a file's XLAT/XLONG and checks them: the anchor (south-west mass point of frame 0),
/// whether they change over time, and how well the projection reproduces them.
///
/// A reader must not silently use frame 0 when later frames disagree: a moving nest is
/// refused by the run reader, an inconsistent file is reported (it then uses frame 0, which
/// the round trip checks against the projection).
struct CoordinateCheck {
    let southWestCorner: GeoPoint
    let behaviour: CoordinateBehaviour
    let roundTripCells: Double
    /// Each frame's south-west corner when the grid moves (a moving nest); empty otherwise.
    let frameCorners: [GeoPoint]

    /// Coordinates that differ by less than this are the same (float storage noise).
    static let tolerance = 1e-4

    init(file: NetCDFFile, variables: [SourceRole: String], westEast: Int, southNorth: Int,
         projection: ProjectionParameters) throws(IngestError) {
        let coordinates = try Coordinates(file: file, variables: variables, westEast: westEast, southNorth: southNorth)
        let lat0 = try coordinates.latitudes(frame: 0), lon0 = try coordinates.longitudes(frame: 0)
        guard lat0.allSatisfy({ $0.isFinite && abs($0) <= 90 }), lon0.allSatisfy({ $0.isFinite && abs($0) <= 360 }) else {
            throw IngestError.missingMetadata(path: file.path, what: "valid coordinates (\(coordinates.names) hold missing or out-of-range values)")
        }
        southWestCorner = GeoPoint(latitude: Double(lat0[0]), longitude: Double(lon0[0]))
        behaviour = try Self.behaviour(of: coordinates, latitudes0: lat0, longitudes0: lon0)
        if case .moving = behaviour {
            frameCorners = try (0..<coordinates.frames).map { frame throws(IngestError) in
                GeoPoint(latitude: Double(try coordinates.latitudes(frame: frame)[0]),
                         longitude: Double(try coordinates.longitudes(frame: frame)[0]))
            }
        } else {
            frameCorners = []
        }
        let grid: ProjectedGrid
        do throws(GridGeometryError) {
            grid = try ProjectedGrid(parameters: projection, westEast: westEast, southNorth: southNorth,
                                     southWestCorner: southWestCorner)
        } catch {
            throw .projection(path: file.path, cause: error)
        }
        roundTripCells = Self.worstRoundTrip(grid: grid, latitudes: lat0, longitudes: lon0)
    }

    /// How the coordinates of later frames compare with frame 0: the same, a grid whose
    /// corner moves (a moving nest), or cells that change under a fixed corner (damage).
    private static func behaviour(of coordinates: Coordinates, latitudes0 lat0: [Float], longitudes0 lon0: [Float]) throws(IngestError) -> CoordinateBehaviour {
        var inconsistentFrames: [Int] = []
        var worstDifference = 0.0, changedCells = 0
        for index in 1..<max(coordinates.frames, 1) {
            let lat = try coordinates.latitudes(frame: index), lon = try coordinates.longitudes(frame: index)
            let cornerShift = max(abs(Double(lat[0] - lat0[0])), longitudeDifference(lon[0], lon0[0]))
            if cornerShift > tolerance { return .moving(maxShiftDegrees: cornerShift, frame: index) }
            // Nearly always every frame repeats frame 0 exactly: one comparison of the bytes
            // (memcmp) instead of a remainder per cell, which cost ~10 ms a file on the bench's
            // 24-hour run, on the one core that was busy then. Equal bytes give no changed cell
            // below either (NaN differences are not counted there).
            if sameBytes(lat, lat0) && sameBytes(lon, lon0) { continue }
            var changed = 0
            for cell in lat0.indices {
                let difference = max(abs(Double(lat[cell] - lat0[cell])), longitudeDifference(lon[cell], lon0[cell]))
                if difference > tolerance {
                    changed += 1
                    worstDifference = max(worstDifference, difference)
                }
            }
            if changed > 0 {
                inconsistentFrames.append(index)
                changedCells = max(changedCells, changed)
            }
        }
        return inconsistentFrames.isEmpty ? .fixed
            : .inconsistent(maxDifferenceDegrees: worstDifference, frames: inconsistentFrames, cells: changedCells)
    }

    /// The largest distance in cells between a cell's index and where the projection puts
    /// its stored coordinates (every cell of small grids, a regular sample of large ones).
    static func worstRoundTrip(grid: ProjectedGrid, latitudes: [Float], longitudes: [Float]) -> Double {
        let westEast = grid.westEast, southNorth = grid.southNorth
        let stride = max(1, Int((Double(westEast * southNorth) / 20_000).squareRoot().rounded(.up)))
        var worst = 0.0
        for j in Swift.stride(from: 0, to: southNorth, by: stride) {
            for i in Swift.stride(from: 0, to: westEast, by: stride) {
                let cell = j * westEast + i
                let position = grid.position(of: GeoPoint(latitude: Double(latitudes[cell]), longitude: Double(longitudes[cell])))
                let distance = max(abs(position.i - Double(i)), abs(position.j - Double(j)))
                worst = max(worst, distance.isFinite ? distance : .infinity)
            }
        }
        return worst
    }

    private static func sameBytes(_ a: [Float], _ b: [Float]) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBytes { x in
            b.withUnsafeBytes { y in
                guard let first = x.baseAddress, let second = y.baseAddress else { return true } // both empty
                return memcmp(first, second, x.count) == 0
            }
        }
    }

    /// |a - b| in degrees of longitude, across the dateline.
    static func longitudeDifference(_ a: Float, _ b: Float) -> Double {
        var difference = abs(Double(a) - Double(b)).truncatingRemainder(dividingBy: 360)
        if difference > 180 { difference = 360 - difference }
        return difference
    }
}

/// A file's latitude and longitude variables, checked for shape, read one frame at a time.
private struct Coordinates {
    let latitude: Variable
    let longitude: Variable
    let southNorth: Int
    let westEast: Int
    /// Frames the coordinates hold (1 without a time dimension).
    let frames: Int
    /// "XLAT/XLONG", for messages.
    let names: String

    init(file: NetCDFFile, variables: [SourceRole: String], westEast: Int, southNorth: Int) throws(IngestError) {
        guard let latName = variables[.latitude], let lonName = variables[.longitude] else {
            throw IngestError.missingMetadata(path: file.path, what: "latitude/longitude coordinates (XLAT/XLONG, XLAT_M/XLONG_M or latitcrs/longicrs)")
        }
        do {
            latitude = try file.variable(latName)
            longitude = try file.variable(lonName)
        } catch { throw IngestError.unreadable(error) }
        names = latName + "/" + lonName
        guard latitude.shape.suffix(2) == [southNorth, westEast], longitude.shape == latitude.shape,
              latitude.shape.count == 2 || latitude.shape.count == 3 else {
            throw IngestError.missingMetadata(path: file.path, what: "\(names) of shape [(Time,) \(southNorth), \(westEast)] (found \(latitude.shape) and \(longitude.shape))")
        }
        self.southNorth = southNorth
        self.westEast = westEast
        frames = latitude.shape.count == 3 ? latitude.shape[0] : 1
        guard frames > 0 else {
            throw IngestError.missingMetadata(path: file.path, what: "coordinates in \(latName) (it holds no frames)")
        }
    }

    func latitudes(frame: Int) throws(IngestError) -> [Float] { try read(latitude, frame) }
    func longitudes(frame: Int) throws(IngestError) -> [Float] { try read(longitude, frame) }

    private func read(_ variable: Variable, _ index: Int) throws(IngestError) -> [Float] {
        do {
            if variable.shape.count == 2 { return try variable.readFloats() }
            return try variable.readFloats(start: [index, 0, 0], count: [1, southNorth, westEast])
        } catch { throw IngestError.unreadable(error) }
    }
}
