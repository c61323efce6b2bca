import Crypto
import Foundation

/// AWS Signature Version 4 for S3 (and anything that speaks it: MinIO, Ceph's gateway, moto).
///
/// A pure function of the request, the credentials and the time, so that tests can compare it
/// with botocore's signer and AWS's published examples. The payload hash is given by the
/// caller (the hex SHA-256 of the body, or `UNSIGNED-PAYLOAD`) and is also sent as
/// `x-amz-content-sha256`, which S3 requires.
package struct SigV4Signer: Sendable {
    package let credentials: S3Credentials
    package let region: String
    package let service: String

    package init(credentials: S3Credentials, region: String, service: String = "s3") {
        self.credentials = credentials
        self.region = region
        self.service = service
    }

    /// The headers to add to a request: `x-amz-date`, `x-amz-content-sha256` (when
    /// `payloadHash` is given), `x-amz-security-token` (with a session token) and
    /// `Authorization`.
    ///
    /// - Parameters:
    ///   - path: the request path as sent, already percent-encoded ("/bucket/a%20b").
    ///   - query: the query items, not encoded (encoded and sorted here).
    ///   - headers: the headers to sign (`host` at least), names in any case.
    package func sign(method: String, path: String, query: [(String, String)] = [], headers: [(String, String)],
                      payloadHash: String?, date: Date) -> [(String, String)] {
        let (amzDate, day) = Self.timestamps(date)
        var signed = headers.map { ($0.0.lowercased(), Self.trimmed($0.1)) }
        var added: [(String, String)] = [("x-amz-date", amzDate)]
        if let payloadHash { added.append(("x-amz-content-sha256", payloadHash)) }
        if let token = credentials.sessionToken { added.append(("x-amz-security-token", token)) }
        signed += added
        // Headers of one name are joined by commas, in the order given.
        var merged: [String: String] = [:]
        for (name, value) in signed { merged[name] = merged[name].map { $0 + "," + value } ?? value }
        let names = merged.keys.sorted()
        let canonicalHeaders = names.map { "\($0):\(merged[$0] ?? "")\n" }.joined()
        let signedHeaders = names.joined(separator: ";")
        let encodedQuery: [(name: String, value: String)] = query.map { item in (Self.encode(item.0), Self.encode(item.1)) }
        let sortedQuery = encodedQuery.sorted { a, b in a.name == b.name ? a.value < b.value : a.name < b.name }
        let canonicalQuery = sortedQuery.map { item in item.name + "=" + item.value }.joined(separator: "&")
        let canonicalRequest = [method, path.isEmpty ? "/" : path, canonicalQuery, canonicalHeaders, signedHeaders,
                                payloadHash ?? Self.hex(SHA256.hash(data: Data()))].joined(separator: "\n")
        let scope = "\(day)/\(region)/\(service)/aws4_request"
        let stringToSign = ["AWS4-HMAC-SHA256", amzDate, scope, Self.hex(SHA256.hash(data: Data(canonicalRequest.utf8)))].joined(separator: "\n")
        var key = SymmetricKey(data: Data(("AWS4" + credentials.secretAccessKey).utf8))
        for part in [day, region, service, "aws4_request"] {
            key = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data(part.utf8), using: key)))
        }
        let signature = Self.hex(HMAC<SHA256>.authenticationCode(for: Data(stringToSign.utf8), using: key))
        let authorization = "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(scope), SignedHeaders=\(signedHeaders), Signature=\(signature)"
        return added + [("Authorization", authorization)]
    }

    /// "20130524T000000Z" and "20130524", UTC.
    static func timestamps(_ date: Date) -> (String, String) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let day = String(format: "%04d%02d%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0)
        return (day + String(format: "T%02d%02d%02dZ", c.hour ?? 0, c.minute ?? 0, c.second ?? 0), day)
    }

    /// Sequential spaces folded to one, ends trimmed (SigV4's canonical header value).
    static func trimmed(_ value: String) -> String {
        value.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ").trimmingCharacters(in: .whitespaces)
    }

    /// RFC 3986 percent-encoding of everything but unreserved characters (and `/` when asked:
    /// S3 keys keep their slashes in the path).
    package static func encode(_ text: String, keepSlash: Bool = false) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: "/") where keepSlash:
                out.append("/")
            default:
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }

    /// Lower-case hex of a digest.
    package static func hex<D: Sequence>(_ digest: D) -> String where D.Element == UInt8 {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        for byte in digest { out.append(digits[Int(byte >> 4)]); out.append(digits[Int(byte & 15)]) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Hex SHA-256 of bytes: a body's `x-amz-content-sha256`.
    package static func payloadHash(_ bytes: [UInt8]) -> String { hex(SHA256.hash(data: bytes)) }
}
