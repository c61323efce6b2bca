import Hummingbird
import PointQuery

/// An answer that is not a forecast: Open-Meteo's error shape, `{"error": true, "reason": "..."}`,
/// with the HTTP status saying whose fault it is (4xx: the request; 503: the store or load).
package struct APIError: Error, Sendable, Equatable {
    package let status: HTTPResponse.Status
    package let reason: String

    package init(_ status: HTTPResponse.Status, _ reason: String) {
        self.status = status
        self.reason = reason
    }

    /// A 400: the request is at fault.
    package init(_ reason: String) { self.init(.badRequest, reason) }

    /// Bytes of a client's value an error quotes back at most: enough to recognise it, while
    /// a refusal of a 1 MB value stays a small answer (the answer budget never counts errors).
    package static let maxEchoBytes = 100

    /// A value the client sent, as an error quotes it: whole up to `maxEchoBytes`, else its
    /// first bytes (cut between characters) and how long it was.
    package static func echo<S: StringProtocol>(_ text: S) -> String {
        let utf8 = text.utf8
        guard utf8.count > maxEchoBytes else { return String(text) }
        // Back to the start of a character, so the cut never splits a UTF-8 sequence.
        let head = Array(utf8.prefix(maxEchoBytes + 1))
        var end = maxEchoBytes
        while end > 0, UTF8.isContinuation(head[end]) { end -= 1 }
        return String(decoding: head[..<end], as: UTF8.self) + "... (\(utf8.count) bytes)"
    }

    /// A query error as the API answers it: anything about the place, times or variables is
    /// the client's (400); a missing or damaged store is ours, and temporary (503), never a 500.
    package init(query error: QueryError) {
        switch error {
        case .store(let error): self.init(.serviceUnavailable, error.description)
        case .outsideTimes:
            self.init(.badRequest, error.description)
            isOutsideTimes = true
        case .outsideDomains:
            self.init(.badRequest, error.description)
            isOutsideDomains = true
        default: self.init(.badRequest, error.description)
        }
    }

    /// The place is held but no cycle covers any of the times asked: the API answers that with
    /// nulls (`ForecastEngine.placeOrNulls`), the command line with exit 4.
    package private(set) var isOutsideTimes = false

    /// No domain holds the place: other APIs answer that as their own "not found" (OpenWeatherMap's 404).
    package private(set) var isOutsideDomains = false

    /// The answer's JSON text (the reason may quote anything a client sent).
    package var body: String {
        var body = "{\"error\": true, \"reason\": "
        JSONText.appendQuoted(reason, to: &body)
        return body + "}"
    }

    package var response: Response {
        Response(status: status, headers: [.contentType: "application/json; charset=utf-8"],
                 body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}

/// The few JSON pieces the API writes by hand (field order matters to match Open-Meteo).
enum JSONText {
    static func appendQuoted(_ text: String, to out: inout String) { out += ForecastRenderer.jsonQuoted(text) }

    static func quoted(_ text: String) -> String { ForecastRenderer.jsonQuoted(text) }

    /// A Double as JSON: finite values as Swift prints them ("38.72"), others as null.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) + ".0" }
        return "\(value)"
    }

    /// A number as people read it: whole numbers without ".0" ("6", "2.5").
    static func short(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }
}
