/// Store addresses as they may be printed: a remote store's URL can carry a password
/// (`https://user:pass@host/store`, read as HTTP Basic auth by Sources/ObjectStore), which no
/// message, log line, health answer or listing may show. Every printed address goes through
/// `redacted`, and so does every message `CommandLineMain` prints (a last line of defence for
/// a message that quoted an argument as given).
package enum StoreAddress {
    /// What stands for the credentials of a URL.
    package static let hidden = "***"

    /// `text` with the user information of every URL in it (`scheme://USERINFO@host`) replaced
    /// by `***`: the password and the user name both (a user name can be a token).
    package static func redacted(_ text: String) -> String {
        guard text.contains("://"), text.contains("@") else { return text }
        var result = ""
        var rest = Substring(text)
        while let scheme = rest.range(of: "://") {
            result += rest[..<scheme.upperBound]
            rest = rest[scheme.upperBound...]
            // The authority ends at the first '/', '?', '#' or white space; an '@' inside it
            // ends the user information (the last one: a password may hold an '@').
            let end = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" || $0.isWhitespace || $0 == "\"" } ?? rest.endIndex
            if let at = rest[..<end].lastIndex(of: "@") {
                result += hidden + "@"
                rest = rest[rest.index(after: at)...]
            }
        }
        return result + rest
    }
}
