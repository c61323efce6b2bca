import Catalog
import Foundation
import TileStore

/// Keys for SigV4.
package struct S3Credentials: Sendable, Equatable {
    package var accessKeyID: String
    package var secretAccessKey: String
    package var sessionToken: String?

    package init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }
}

/// Where a bucket is and how to sign for it, found the way the AWS tools find it:
///
/// - endpoint: `--s3-endpoint`, else `AWS_ENDPOINT_URL_S3`, `AWS_ENDPOINT_URL`, else
///   `https://s3.REGION.amazonaws.com`. Requests are path-style (`ENDPOINT/BUCKET/KEY`), which
///   every S3-compatible store (MinIO, Ceph's gateway, moto) understands.
/// - region: `--s3-region`, else `AWS_REGION`, `AWS_DEFAULT_REGION`, the profile's `region`
///   in the shared config file, else us-east-1.
/// - credentials: `AWS_ACCESS_KEY_ID` / `AWS_SECRET_ACCESS_KEY` (/ `AWS_SESSION_TOKEN`), else
///   the profile (`AWS_PROFILE`, default "default") in the shared credentials file
///   (`AWS_SHARED_CREDENTIALS_FILE`, ~/.aws/credentials), then in the config file
///   (`AWS_CONFIG_FILE`, ~/.aws/config).
package struct S3Configuration: Sendable {
    /// "http://127.0.0.1:9000", no trailing slash.
    package var endpoint: String
    package var region: String
    package var credentials: S3Credentials

    package init(endpoint: String, region: String, credentials: S3Credentials) {
        self.endpoint = endpoint.hasSuffix("/") ? String(endpoint.dropLast()) : endpoint
        self.region = region
        self.credentials = credentials
    }

    /// The configuration from options and the environment.
    ///
    /// - Throws: `ObjectStoreError.configuration` naming what is missing.
    package static func resolve(endpoint: String?, region: String?,
                                environment: [String: String] = ProcessInfo.processInfo.environment) throws(ObjectStoreError) -> S3Configuration {
        let home = environment["HOME"] ?? NSHomeDirectory()
        let profile = environment["AWS_PROFILE"] ?? "default"
        let configPath = environment["AWS_CONFIG_FILE"] ?? home + "/.aws/config"
        let credentialsPath = environment["AWS_SHARED_CREDENTIALS_FILE"] ?? home + "/.aws/credentials"
        // The config file names sections "profile NAME" (but "default"); the credentials file "NAME".
        let config = IniFile.section(path: configPath, name: profile == "default" ? "default" : "profile " + profile)
        let shared = IniFile.section(path: credentialsPath, name: profile)
        let chosenRegion = nonEmpty(region) ?? nonEmpty(environment["AWS_REGION"]) ?? nonEmpty(environment["AWS_DEFAULT_REGION"])
            ?? nonEmpty(config["region"]) ?? "us-east-1"
        let chosenEndpoint = nonEmpty(endpoint) ?? nonEmpty(environment["AWS_ENDPOINT_URL_S3"]) ?? nonEmpty(environment["AWS_ENDPOINT_URL"])
            ?? "https://s3.\(chosenRegion).amazonaws.com"
        guard chosenEndpoint.hasPrefix("http://") || chosenEndpoint.hasPrefix("https://") else {
            throw .configuration("--s3-endpoint \(chosenEndpoint): expected http://HOST[:PORT] or https://HOST[:PORT]")
        }
        let credentials: S3Credentials
        if let key = nonEmpty(environment["AWS_ACCESS_KEY_ID"]), let secret = nonEmpty(environment["AWS_SECRET_ACCESS_KEY"]) {
            credentials = S3Credentials(accessKeyID: key, secretAccessKey: secret, sessionToken: nonEmpty(environment["AWS_SESSION_TOKEN"]))
        } else if let key = nonEmpty(shared["aws_access_key_id"]), let secret = nonEmpty(shared["aws_secret_access_key"]) {
            credentials = S3Credentials(accessKeyID: key, secretAccessKey: secret, sessionToken: nonEmpty(shared["aws_session_token"]))
        } else if let key = nonEmpty(config["aws_access_key_id"]), let secret = nonEmpty(config["aws_secret_access_key"]) {
            credentials = S3Credentials(accessKeyID: key, secretAccessKey: secret, sessionToken: nonEmpty(config["aws_session_token"]))
        } else {
            throw .configuration("no S3 credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or give profile \"\(profile)\" keys in \(credentialsPath)")
        }
        return S3Configuration(endpoint: chosenEndpoint, region: chosenRegion, credentials: credentials)
    }

    private static func nonEmpty(_ text: String?) -> String? {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        return text
    }
}

/// The AWS shared files' INI form: `[section]` lines, then `key = value` lines.
enum IniFile {
    static func section(path: String, name: String) -> [String: String] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [:] }
        var values: [String: String] = [:]
        var inside = false
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") && line.hasSuffix("]") {
                inside = line.dropFirst().dropLast().trimmingCharacters(in: .whitespaces) == name
                continue
            }
            guard inside, let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            values[key] = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        }
        return values
    }
}

/// A remote store: `s3://BUCKET/PREFIX` or `http(s)://[USER:PASSWORD@]HOST/PATH` (a store
/// folder behind any static web server or CDN).
///
/// Credentials in an http(s) URL are HTTP Basic auth: sent in an `Authorization` header, kept
/// out of `base` (so out of the `Host` header, every address printed and every message), and
/// never printed; `description` is the URL without them.
package enum RemoteLocation: Sendable, Equatable, CustomStringConvertible {
    /// `authorization`: the `Authorization` header's value ("Basic ..."), nil without credentials.
    case http(base: String, authorization: String?)
    case s3(bucket: String, prefix: String)

    /// Whether a `--store` value names a remote store (else it is a folder).
    package static func isRemote(_ text: String) -> Bool {
        text.hasPrefix("s3://") || text.hasPrefix("http://") || text.hasPrefix("https://")
    }

    /// - Throws: `.configuration` for an address that is not one of the two forms (the message
    ///   quotes the address redacted).
    package init(_ text: String) throws(ObjectStoreError) {
        let shown = StoreAddress.redacted(text)
        if text.hasPrefix("s3://") {
            let rest = text.dropFirst("s3://".count)
            let parts = rest.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            guard let bucket = parts.first, !bucket.isEmpty,
                  bucket.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." || $0 == "_" }) else {
                throw .configuration("--store \(shown): expected s3://BUCKET/PREFIX with a bucket name")
            }
            let prefix = parts.count > 1 ? parts[1].split(separator: "/").joined(separator: "/") : ""
            self = .s3(bucket: String(bucket), prefix: prefix)
        } else if text.hasPrefix("http://") || text.hasPrefix("https://") {
            if let reason = StoreAddress.unreadableUserInformation(text) { throw .configuration("--store: \(reason)") }
            var base = text
            while base.hasSuffix("/") { base.removeLast() }
            guard let schemeEnd = base.range(of: "://") else { throw .configuration("--store \(shown): expected http(s)://HOST/PATH") }
            let afterScheme = base[schemeEnd.upperBound...]
            let authorityEnd = afterScheme.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? afterScheme.endIndex
            var authorization: String?
            if let at = afterScheme[..<authorityEnd].lastIndex(of: "@") {
                // user:password, each percent-encoded in a URL (RFC 3986 3.2.1).
                let userInfo = afterScheme[..<at]
                let colon = userInfo.firstIndex(of: ":")
                let user = String(userInfo[..<(colon ?? userInfo.endIndex)])
                let password = colon.map { String(userInfo[userInfo.index(after: $0)...]) } ?? ""
                guard let plainUser = user.removingPercentEncoding, let plainPassword = password.removingPercentEncoding, !plainUser.isEmpty else {
                    throw .configuration("--store \(shown): the user information is not USER:PASSWORD (percent-encoded)")
                }
                authorization = "Basic " + Data((plainUser + ":" + plainPassword).utf8).base64EncodedString()
                base = String(base[..<schemeEnd.upperBound]) + String(afterScheme[afterScheme.index(after: at)...])
            }
            guard base.split(separator: "/").count >= 2 else { throw .configuration("--store \(shown): expected http(s)://HOST/PATH") }
            self = .http(base: base, authorization: authorization)
        } else {
            throw .configuration("--store \(shown): expected s3://BUCKET/PREFIX, http://... or https://...")
        }
    }

    package var description: String {
        switch self {
        case .http(let base, _): return base
        case .s3(let bucket, let prefix): return "s3://\(bucket)" + (prefix.isEmpty ? "" : "/\(prefix)")
        }
    }

    /// The key of a store-relative path ("MODEL/CYCLE/d01.tcs") in the bucket.
    package func key(_ relative: String) -> String {
        switch self {
        case .http: return relative
        case .s3(_, let prefix): return prefix.isEmpty ? relative : prefix + "/" + relative
        }
    }
}

/// Why object storage could not be used: bad settings, or a request that kept failing.
package enum ObjectStoreError: ExitCoded, Sendable, CustomStringConvertible {
    /// An address, endpoint or credentials problem (exit 2).
    case configuration(String)
    /// A request failed after its retries (network, server error, refused credentials).
    case request(url: String, detail: String)
    /// The object is not there (404).
    case notFound(url: String)

    /// Bad settings are usage (2); a store that cannot be read or written is 5.
    package var exitCode: ExitStatus {
        if case .configuration = self { return .badUsage }
        return .damagedStore
    }

    package var description: String {
        switch self {
        case .configuration(let detail): return detail
        case .request(let url, let detail): return "\(url): \(detail)"
        case .notFound(let url): return "\(url): not found"
        }
    }
}
