import Foundation
import PointQuery

/// `/v1/search`: Open-Meteo's Geocoding API (`name`, `count`, `language`, `format`,
/// `countryCode`) over the server's own places (`--places`, first) and the gazetteer, keeping
/// only the places some domain of the served cycles holds: a name found here always has a
/// forecast (the page shows the first result's), and a name outside every domain would only
/// lead to an "outside" error.
package struct PlaceSearch: Sendable {
    package let name: String
    package let count: Int
    package let language: String
    package let countryCode: String?

    /// Open-Meteo's default and largest `count`.
    package static let defaultCount = 10
    package static let maxCount = 100

    /// The request's parameters, refused in Open-Meteo's words where it refuses them.
    package init(query: [(name: String, value: String)]) throws(APIError) {
        func value(_ key: String) -> String? { query.last { $0.name == key }?.value }
        guard let name = value("name") else { throw APIError("Parameter 'name' is required: the place's name, or the start of it") }
        self.name = name
        if let text = value("count") {
            guard let count = Int(text.trimmingCharacters(in: .whitespaces)), (1...Self.maxCount).contains(count) else {
                throw APIError("Parameter count must be between 1 and \(Self.maxCount).")
            }
            self.count = count
        } else {
            count = Self.defaultCount
        }
        // Names are GeoNames' own (mostly English or the local form) in every language: the
        // package the gazetteer comes from does not say which language an alternate name is in.
        language = (value("language") ?? "en").lowercased()
        let format = value("format") ?? "json"
        guard format == "json" else {
            throw APIError("Parameter 'format' must be json; this server does not answer the Geocoding API in '\(APIError.echo(format))'")
        }
        let code = value("countryCode").map { $0.trimmingCharacters(in: .whitespaces).uppercased() }
        countryCode = code?.isEmpty == false ? code : nil
    }

    /// A result: a gazetteer place, or one of the server's named places (with the GeoNames
    /// facts of a gazetteer place of the same name within `twinKilometres`, when there is one).
    package struct Match: Sendable, Equatable {
        package let name: String
        package let latitude: Double
        package let longitude: Double
        package let timezone: String
        package let facts: Gazetteer.Place?
    }

    /// How close a gazetteer place of the same name must be to be the same place as a named one.
    static let twinKilometres = 10.0

    /// The results, best first: the named places whose name matches, in their file's order,
    /// then the gazetteer's, most people first; only places `inside` holds; at most `count`.
    package func results(gazetteer: Gazetteer, named: [NamedPlace], inside: (Double, Double) -> Bool,
                         zone: (Double, Double) -> String) -> [Match] {
        let wanted = Gazetteer.fold(name)
        guard wanted.count >= 2 else { return [] }
        let found = gazetteer.search(name).filter { countryCode == nil || $0.countryCode == countryCode }
        var results: [Match] = []
        var twins = Set<Int>()
        for place in named where Gazetteer.matches(folded: Gazetteer.fold(place.name), search: wanted) {
            guard results.count < count, inside(place.latitude, place.longitude) else { continue }
            let folded = Gazetteer.fold(place.name)
            let twin = gazetteer.search(place.name).first {
                Gazetteer.fold($0.name) == folded && Self.kilometres($0.latitude, $0.longitude, place.latitude, place.longitude) <= Self.twinKilometres
            }
            if countryCode != nil && twin?.countryCode != countryCode { continue }
            if let twin { twins.insert(twin.id) }
            results.append(Match(name: place.name, latitude: place.latitude, longitude: place.longitude,
                                  timezone: twin?.timezone ?? zone(place.latitude, place.longitude), facts: twin))
        }
        for place in found where results.count < count && !twins.contains(place.id) && inside(place.latitude, place.longitude) {
            results.append(Match(name: place.name, latitude: place.latitude, longitude: place.longitude, timezone: place.timezone, facts: place))
        }
        return results
    }

    /// Great-circle distance on WRF's sphere (haversine).
    static func kilometres(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let r = Double.pi / 180
        let a = pow(sin((lat2 - lat1) * r / 2), 2) + cos(lat1 * r) * cos(lat2 * r) * pow(sin((lon2 - lon1) * r / 2), 2)
        return 2 * 6370 * asin(min(1, sqrt(a)))
    }

    /// Open-Meteo's answer: `results` (left out when there are none, as Open-Meteo's encoder
    /// leaves out empty fields), then `generationtime_ms`. Fields not known are left out the
    /// same way: `elevation` and `admin1`..`admin4` always (the gazetteer lacks them), GeoNames'
    /// `id`, `feature_code`, `country_code`, `country` and `population` for a named place that
    /// has no gazetteer twin.
    package static func json(_ results: [Match], milliseconds: Double) -> String {
        var out = "{"
        if !results.isEmpty {
            out += "\"results\":[" + results.map { result in
                var fields: [String] = []
                if let facts = result.facts { fields.append("\"id\":\(facts.id)") }
                fields.append("\"name\":" + JSONText.quoted(result.name))
                fields.append("\"latitude\":" + JSONText.number(result.latitude))
                fields.append("\"longitude\":" + JSONText.number(result.longitude))
                if let facts = result.facts {
                    fields.append("\"feature_code\":" + JSONText.quoted(facts.featureCode))
                    fields.append("\"country_code\":" + JSONText.quoted(facts.countryCode))
                }
                fields.append("\"timezone\":" + JSONText.quoted(result.timezone))
                if let facts = result.facts {
                    fields.append("\"population\":\(facts.population)")
                    fields.append("\"country\":" + JSONText.quoted(facts.country))
                }
                return "{" + fields.joined(separator: ",") + "}"
            }.joined(separator: ",") + "],"
        }
        return out + "\"generationtime_ms\":" + JSONText.number((milliseconds * 1000).rounded() / 1000) + "}"
    }
}
