import Catalog
import GridGeometry
import NetCDF

/// A file's domain identity and projection, read the way its convention stores them:
/// WRF global attributes, or MM5 (archiver) scalar variables.
struct DomainMetadata {
    var title: String
    var domainID: Int
    var nest: NestPlacement?
    var projection: ProjectionParameters
    var bucketMM: Double?
    var simulationStart: Int64?
    /// Where this file's segment of the simulation began (WRF's START_DATE): later than the
    /// simulation start in a restart segment, equal to it otherwise; nil when not stated.
    var segmentStart: Int64?

    init(file: NetCDFFile, profile: ModelProfile) throws(IngestError) {
        switch profile.convention {
        case .wrf: try self.init(wrf: file)
        case .mm5: try self.init(mm5: file)
        }
    }

    private init(wrf file: NetCDFFile) throws(IngestError) {
        let path = file.path
        func number(_ name: String) throws(IngestError) -> Double {
            guard let value = file.attribute(name)?.double, value.isFinite else {
                throw IngestError.missingMetadata(path: path, what: "global attribute \(name) (a number)")
            }
            return value
        }
        title = (file.attribute("TITLE")?.string ?? "WRF").trimmingCharacters(in: .whitespaces)
        // WRF writes the nest attributes in capitals; WPS's geogrid (geo_em files) in lower case.
        func integer(_ name: String) -> Int? { file.attribute(name)?.int ?? file.attribute(name.lowercased())?.int }
        domainID = integer("GRID_ID") ?? 1
        if let parent = integer("PARENT_ID"), parent != domainID, parent > 0,
           let ratio = integer("PARENT_GRID_RATIO"), ratio >= 1,
           let iStart = integer("I_PARENT_START"), let jStart = integer("J_PARENT_START") {
            nest = NestPlacement(parentID: parent, ratio: ratio, iParentStart: iStart, jParentStart: jStart)
        }
        let code = Int(try number("MAP_PROJ"))
        let trueLatitude1 = try number("TRUELAT1")
        let standardLongitude: Double
        if let stated = file.attribute("STAND_LON")?.double { standardLongitude = stated } else { standardLongitude = try number("CEN_LON") }
        let dx = try number("DX"), dy = try number("DY")
        do throws(GridGeometryError) {
            // GridGeometry's own table of MAP_PROJ codes, tested there.
            projection = try ProjectionParameters(
                wrfMapProjection: code,
                trueLatitude1: trueLatitude1,
                trueLatitude2: file.attribute("TRUELAT2")?.double ?? trueLatitude1,
                standardLongitude: standardLongitude,
                poleLatitude: file.attribute("POLE_LAT")?.double ?? 90,
                poleLongitude: file.attribute("POLE_LON")?.double ?? 0,
                dx: dx,
                dy: dy)
        } catch .unsupportedProjection {
            throw IngestError.badProjection(path: path, detail: "MAP_PROJ = \(code); expected 1 (Lambert), 2 (polar stereographic), 3 (Mercator) or 6 (lat-lon)")
        } catch {
            throw IngestError.projection(path: path, cause: error)
        }
        bucketMM = file.attribute("BUCKET_MM")?.double
        segmentStart = (file.attribute("START_DATE")?.string).flatMap(ModelTime.parseWRF)
        simulationStart = (file.attribute("SIMULATION_START_DATE")?.string).flatMap(ModelTime.parseWRF) ?? segmentStart
    }

    private init(mm5 file: NetCDFFile) throws(IngestError) {
        let path = file.path
        /// MM5 archiver files keep projection numbers as scalar variables (attributes also accepted).
        func number(_ name: String) throws(IngestError) -> Double {
            if file.hasVariable(name), let value = try? file.variable(name).readDoubles().first, value.isFinite {
                return value
            }
            if let value = file.attribute(name)?.double, value.isFinite { return value }
            throw IngestError.missingMetadata(path: path, what: "MM5 scalar \(name)")
        }
        title = (file.attribute("title")?.string ?? file.attribute("TITLE")?.string ?? "MM5")
            .trimmingCharacters(in: .whitespaces)
        domainID = Int(exactly: (try? number("domain_id")) ?? 1) ?? 1
        nest = nil
        let code = Int(try number("map_proj_code"))
        let lat1 = try number("stdlat_1")
        let lat2 = (try? number("stdlat_2")) ?? lat1
        let standardLongitude = try number("stdlon"), spacing = try number("grid_ds")
        do throws(GridGeometryError) {
            // GridGeometry's own reading of the archiver scalars, tested there.
            projection = try ProjectionParameters.mm5(
                mapProjCode: code, standardLatitude1: lat1, standardLatitude2: lat2,
                standardLongitude: standardLongitude, gridSpacingKilometres: spacing)
        } catch .unsupportedProjection {
            throw IngestError.badProjection(path: path, detail: "map_proj_code = \(code); expected 1 (Lambert), 2 (polar stereographic) or 3 (Mercator)")
        } catch {
            throw IngestError.projection(path: path, cause: error)
        }
        bucketMM = nil
        let timeName = ["time", "Time"].first(where: file.hasVariable)
        simulationStart = timeName.flatMap { try? file.variable($0) }
            .flatMap { $0.attributes["units"]?.string }.flatMap(ModelTime.parseSinceUnits)
        segmentStart = simulationStart
    }
}
