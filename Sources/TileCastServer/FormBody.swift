import Foundation
import Hummingbird

/// A POST's form body (`application/x-www-form-urlencoded`), the way Open-Meteo's clients send
/// the parameters of a request too long for a URL (1,000 places with every variable).
package enum FormBody {
    /// The largest body read: 1,000 places and every variable, with room to spare. Larger is 413.
    static let maxBytes = 1 << 20

    /// The body's bytes, at most `maxBytes`.
    ///
    /// - Throws: `APIError` 413 past `maxBytes`; 415 for a body that is not a form (an empty
    ///   body is no parameters, whatever its type).
    static func collect(_ request: Request) async throws -> String {
        let buffer: ByteBuffer
        do { buffer = try await request.body.collect(upTo: maxBytes) } catch {
            throw APIError(.contentTooLarge, "request body larger than \(maxBytes) bytes: send fewer places a request")
        }
        guard buffer.readableBytes > 0 else { return "" }
        let type = request.headers[.contentType]?.lowercased() ?? ""
        if type.hasPrefix("application/json") { return try formFromJSON(Data(buffer: buffer)) }
        guard type.hasPrefix("application/x-www-form-urlencoded") else {
            throw APIError(.unsupportedMediaType, "POST takes the parameters as a form body (Content-Type: application/x-www-form-urlencoded) or a JSON object (application/json); given \(type.isEmpty ? "no Content-Type" : APIError.echo(type))")
        }
        return String(buffer: buffer)
    }

    /// A JSON body (`{"latitude": [52.5, 48.1], "hourly": ["temperature_2m"], "forecast_days": 3}`,
    /// which Open-Meteo's Vapor server decodes as it decodes a form) as the same form body: a
    /// string, number or boolean is the parameter's value, an array its comma list, null no
    /// parameter. One reader for both bodies after this.
    ///
    /// - Throws: `APIError` 400 for a body that is not a JSON object, or a value that is an
    ///   object or an array holding one.
    package static func formFromJSON(_ data: Data) throws(APIError) -> String {
        let object: [String: JSONParameter]
        do { object = try JSONDecoder().decode([String: JSONParameter].self, from: data) } catch {
            throw APIError("the JSON body must be one object of parameters (strings, numbers, booleans or arrays of them)")
        }
        // Names sorted: the same body gives the same form, so the same ETag.
        return object.keys.sorted().compactMap { name in
            guard let value = object[name], let text = value.text else { return nil }
            return percentEncoded(name) + "=" + percentEncoded(text)
        }.joined(separator: "&")
    }

    /// Every byte but the unreserved ones as %XX, so that `pairs` gives the text back whole.
    private static func percentEncoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 15, radix: 16, uppercase: true)
            }
        }
        return out
    }

    /// "latitude=52.5%2C48.1&hourly=temperature_2m" as (name, value) pairs: `+` is a space,
    /// then percent-decoding, as HTML forms encode them.
    ///
    /// One pass over the body's bytes: Foundation's `replacingOccurrences` and
    /// `removingPercentEncoding` took 0.5 s of a request thread for a 1 MB body of `+`.
    ///
    /// - Throws: `APIError` 400 for a broken percent-escape (or bytes that decode to no UTF-8
    ///   text, which `removingPercentEncoding` refused alike).
    package static func pairs(_ body: String) throws(APIError) -> [(name: String, value: String)] {
        var body = body
        let result: Result<[(name: String, value: String)], APIError> = body.withUTF8 { bytes in
            var pairs: [(name: String, value: String)] = []
            var scratch: [UInt8] = []
            var start = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count && bytes[end] != UInt8(ascii: "&") { end += 1 }
                if end > start {
                    var equals = start
                    while equals < end && bytes[equals] != UInt8(ascii: "=") { equals += 1 }
                    guard let name = decoded(bytes, start..<equals, into: &scratch),
                          let value = equals < end ? decoded(bytes, equals + 1..<end, into: &scratch) : "" else {
                        let field = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
                        return .failure(APIError("the form body holds a broken percent-escape: \(APIError.echo(field))"))
                    }
                    pairs.append((name, value))
                }
                start = end + 1
            }
            return .success(pairs)
        }
        return try result.get()
    }

    /// The text of `bytes[range]` with `+` as a space and `%XX` as its byte; nil for a `%` not
    /// followed by two hex digits, or bytes that are not UTF-8.
    private static func decoded(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, into scratch: inout [UInt8]) -> String? {
        func hex(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        scratch.removeAll(keepingCapacity: true)
        var k = range.lowerBound
        while k < range.upperBound {
            switch bytes[k] {
            case UInt8(ascii: "+"):
                scratch.append(UInt8(ascii: " "))
                k += 1
            case UInt8(ascii: "%"):
                guard k + 2 < range.upperBound, let high = hex(bytes[k + 1]), let low = hex(bytes[k + 2]) else { return nil }
                scratch.append(high << 4 | low)
                k += 3
            case let byte:
                scratch.append(byte)
                k += 1
            }
        }
        return String(validating: scratch, as: UTF8.self)
    }
}

/// One value of a JSON body's parameter: its text as a form would carry it.
struct JSONParameter: Decodable {
    /// nil for JSON null (the parameter is left out).
    let text: String?

    init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer()
        if value.decodeNil() { text = nil; return }
        if let bool = try? value.decode(Bool.self) { text = bool ? "true" : "false"; return }
        // Whole numbers as whole numbers (forecast_days=3, not 3.0).
        if let whole = try? value.decode(Int.self) { text = String(whole); return }
        if let number = try? value.decode(Double.self) { text = String(number); return }
        if let string = try? value.decode(String.self) { text = string; return }
        let items = try value.decode([JSONParameter].self)
        text = items.compactMap(\.text).joined(separator: ",")
    }
}
