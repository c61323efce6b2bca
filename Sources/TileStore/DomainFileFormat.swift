import Catalog
import GridGeometry

/// The byte layout of a domain file (docs/STORE-FORMAT.md is the prose version).
///
///     header   16 bytes   magic "TILECAST", format version (UInt32), flags (UInt32, 0)
///     blocks   ...        one per (variable, tile), encoded by `SeriesCodec`; laid tile by tile,
///                         each tile's variables side by side (issue 30; older files: variable
///                         by variable). Readers find blocks through the index only.
///     index    16 bytes per block: offset (UInt64), length (UInt32), CRC-32 (UInt32)
///     metadata JSON (UTF-8): `DomainFileMetadata`
///     trailer  56 bytes   see `Trailer`
///
/// Written in one pass, front to back; read from the trailer backwards.
enum DomainFileFormat {
    static let magic: [UInt8] = Array("TILECAST".utf8)
    static let version: UInt32 = 1
    static let headerSize = 16
    static let indexEntrySize = 16
    static let trailerSize = 56
}

/// The fixed-size end of a domain file: where the index and metadata are, their checksums,
/// the version again and the magic, with a checksum of its own.
///
///     0  indexOffset     UInt64        8  indexLength      UInt64
///     16 metadataOffset  UInt64        24 metadataLength   UInt64
///     32 indexCRC        UInt32        36 metadataCRC      UInt32
///     40 version         UInt32        44 trailerCRC       UInt32 (CRC-32 of bytes 0..<44)
///     48 magic "TILECAST"
struct Trailer: Equatable {
    var indexOffset: UInt64
    var indexLength: UInt64
    var metadataOffset: UInt64
    var metadataLength: UInt64
    var indexCRC: UInt32
    var metadataCRC: UInt32
    var version: UInt32

    var bytes: [UInt8] {
        var writer = ByteWriter(capacity: DomainFileFormat.trailerSize)
        writer.append(indexOffset)
        writer.append(indexLength)
        writer.append(metadataOffset)
        writer.append(metadataLength)
        writer.append(indexCRC)
        writer.append(metadataCRC)
        writer.append(version)
        writer.append(checksum(writer.bytes))
        writer.append(DomainFileFormat.magic)
        return writer.bytes
    }
}

/// One block's place in the file.
struct BlockEntry: Equatable {
    var offset: UInt64
    var length: UInt32
    var crc: UInt32
}

/// Everything about a domain file except its data: what the query needs to choose a domain,
/// place a point, and say where an answer came from.
package struct DomainFileMetadata: Codable, Sendable, Equatable {
    /// A stored variable, and where its blocks start in the index.
    package struct StoredVariable: Codable, Sendable, Equatable {
        package var name: String
        package var unit: String
        /// The quantization step (the value of one integer unit).
        package var step: Float
        /// True when the series is stored as a running total (precipitation, snowfall): the
        /// amount over an interval is the difference of two totals, so sums over any window
        /// carry one rounding error, not one per interval. A missing total means the interval
        /// ending then is unknown (it counts as 0 in later totals).
        package var runningTotal: Bool
        /// 1 for static fields (elevation), else the number of times.
        package var steps: Int
        /// Index of the variable's first block; its tiles follow in row-major tile order.
        package var firstBlock: Int

        package var variable: ForecastVariable? { ForecastVariable.stored(named: name) }

        /// Pinned: part of format version 1.
        enum CodingKeys: String, CodingKey { case name, unit, step, runningTotal, steps, firstBlock }
    }

    /// Pinned: these names are format version 1 (a golden file test holds them).
    enum CodingKeys: String, CodingKey {
        case model, modelTitle, cycle, domain, parentDomain, parentGridRatio, parentStart, projection, westEast, southNorth
        case southWestCorner, times, tileWidth, tileHeight, variables, sources, createdBy
        /// Added within version 1: optional, absent in older files and ignored by older readers
        /// (docs/STORE-FORMAT.md, "Versioning").
        case unavailable, motion, stream
    }

    package var model: String
    /// The model and version the input files name (TITLE).
    package var modelTitle: String
    /// The run's cycle (simulation start, or as given), seconds since 1970 UTC.
    package var cycle: Int64
    package var domain: Int
    package var parentDomain: Int?
    package var parentGridRatio: Int?
    package var parentStart: [Int]?
    package var projection: ProjectionParameters
    package var westEast: Int
    package var southNorth: Int
    package var southWestCorner: GeoPoint
    /// Frame times, seconds since 1970 UTC, strictly increasing.
    package var times: [Int64]
    package var tileWidth: Int
    package var tileHeight: Int
    package var variables: [StoredVariable]
    /// The input files, by name.
    package var sources: [String]
    package var createdBy: String
    /// Catalog variables the input could not give, each with the reason naming the missing
    /// source ("no SNOWNC"), so a query refusing one can say why; nil in older files.
    package var unavailable: [String: String]?
    /// A moving nest: where its own grid lay at each frame on this grid (which covers every
    /// position it took); nil for a grid that stays put. An older reader, which ignores it,
    /// finds missing values wherever the nest was not, never another place's numbers.
    package var motion: StoredMotion?
    /// The output stream of a domain's fast stream ("auxhist2": surface fields every 15
    /// minutes beside the hourly history); nil for the domain's history. The manifest lists
    /// such a file under `streams`, which older readers ignore.
    package var stream: String?

    /// A moving nest's grid: its size, and per frame its cell [0, 0] on the covering grid.
    package struct StoredMotion: Codable, Sendable, Equatable {
        package var westEast: Int
        package var southNorth: Int
        /// Per frame, [i, j].
        package var offsets: [[Int]]

        package init(westEast: Int, southNorth: Int, offsets: [[Int]]) {
            self.westEast = westEast
            self.southNorth = southNorth
            self.offsets = offsets
        }

        /// Whether the nest's grid held every cell around grid position (i, j) `margin` cells
        /// inside its edges, at frame `frame`.
        package func covers(i: Double, j: Double, margin: Double, frame: Int) -> Bool {
            guard offsets.indices.contains(frame), offsets[frame].count == 2 else { return false }
            let x = i - Double(offsets[frame][0]), y = j - Double(offsets[frame][1])
            return x >= margin && y >= margin && x <= Double(westEast - 1) - margin && y <= Double(southNorth - 1) - margin
        }
    }

    package init(model: String, modelTitle: String, cycle: Int64, domain: Int, parentDomain: Int?, parentGridRatio: Int?,
                parentStart: [Int]?, projection: ProjectionParameters, westEast: Int, southNorth: Int,
                southWestCorner: GeoPoint, times: [Int64], tileWidth: Int = 8, tileHeight: Int = 8,
                variables: [StoredVariable] = [], sources: [String], createdBy: String, unavailable: [String: String]? = nil,
                motion: StoredMotion? = nil, stream: String? = nil) {
        self.model = model
        self.modelTitle = modelTitle
        self.cycle = cycle
        self.domain = domain
        self.parentDomain = parentDomain
        self.parentGridRatio = parentGridRatio
        self.parentStart = parentStart
        self.projection = projection
        self.westEast = westEast
        self.southNorth = southNorth
        self.southWestCorner = southWestCorner
        self.times = times
        self.tileWidth = tileWidth
        self.tileHeight = tileHeight
        self.variables = variables
        self.sources = sources
        self.createdBy = createdBy
        self.unavailable = unavailable
        self.motion = motion
        self.stream = stream
    }

    package var tilesAcross: Int { (westEast + tileWidth - 1) / max(tileWidth, 1) }
    package var tilesDown: Int { (southNorth + tileHeight - 1) / max(tileHeight, 1) }
    package var tileCount: Int { tilesAcross * tilesDown }

    /// The tile holding a cell, and the cell's index inside it and the tile's cell count.
    func locate(i: Int, j: Int) -> (tile: Int, cell: Int, cells: Int) {
        let tileX = i / tileWidth, tileY = j / tileHeight
        let width = min(tileWidth, westEast - tileX * tileWidth)
        let height = min(tileHeight, southNorth - tileY * tileHeight)
        return (tileY * tilesAcross + tileX, (j - tileY * tileHeight) * width + (i - tileX * tileWidth), width * height)
    }
}
