import Foundation
import Hummingbird

/// A POST's form body (`application/x-www-form-urlencoded`), the way Open-Meteo's clients send
/// the parameters of a request too long for a URL (1,000 places with every variable).
enum FormBody {
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
        guard type.hasPrefix("application/x-www-form-urlencoded") else {
            throw APIError(.unsupportedMediaType, "POST takes the parameters as a form body (Content-Type: application/x-www-form-urlencoded); given \(type.isEmpty ? "no Content-Type" : type)")
        }
        return String(buffer: buffer)
    }

    /// "latitude=52.5%2C48.1&hourly=temperature_2m" as (name, value) pairs: `+` is a space,
    /// then percent-decoding, as HTML forms encode them.
    ///
    /// - Throws: `APIError` 400 for a broken percent-escape.
    static func pairs(_ body: String) throws(APIError) -> [(name: String, value: String)] {
        var pairs: [(name: String, value: String)] = []
        for field in body.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ text: Substring) throws(APIError) -> String {
                guard let value = text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding else {
                    throw APIError("the form body holds a broken percent-escape: \(text.prefix(80))")
                }
                return value
            }
            pairs.append((try decoded(parts[0]), parts.count > 1 ? try decoded(parts[1]) : ""))
        }
        return pairs
    }
}
