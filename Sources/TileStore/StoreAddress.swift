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
    ///
    /// A password written with an unencoded '/', '?', '#' or space ends the authority early by
    /// RFC 3986 (`http://alice:Sl/ash@host` reads as host "alice", port "Sl"): an authority
    /// whose "port" is not a number is taken for user information, hidden up to the last '@'
    /// on its line. (`RemoteLocation` refuses such URLs; this keeps them out of every message.)
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
            if let at = rest[..<end].lastIndex(of: "@") ?? brokenUserInformationEnd(rest, authorityEnd: end) {
                result += hidden + "@"
                rest = rest[rest.index(after: at)...]
            }
        }
        return result + rest
    }

    /// The '@' that ends user information cut short by an unencoded '/', '?', '#' or space: the
    /// authority has a ':' followed by something that is no port number, and an '@' follows on
    /// the same line. nil otherwise.
    private static func brokenUserInformationEnd(_ rest: Substring, authorityEnd: Substring.Index) -> Substring.Index? {
        guard let colon = rest[..<authorityEnd].firstIndex(of: ":") else { return nil }
        let port = rest[rest.index(after: colon)..<authorityEnd]
        guard port.isEmpty || !port.allSatisfy(\.isASCIIDigitCharacter) else { return nil }
        let lineEnd = rest.firstIndex { $0 == "\n" || $0 == "\"" } ?? rest.endIndex
        return rest[..<lineEnd].lastIndex(of: "@")
    }

    /// Why a store URL's user information cannot be read, or nil when it can: an '@' after the
    /// authority (a password's '/', '?' or '#' left unencoded) or white space anywhere. The
    /// reason never repeats the URL.
    package static func unreadableUserInformation(_ url: String) -> String? {
        guard let scheme = url.range(of: "://") else { return nil }
        let rest = url[scheme.upperBound...]
        if rest.contains(where: \.isWhitespace) {
            return "the URL holds white space (percent-encode a space in a password as %20); the address is not repeated here"
        }
        let end = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        if rest[end...].contains("@") {
            return "the URL holds an '@' after its host: a password's '/', '?' or '#' must be percent-encoded (%2F, %3F, %23); the address is not repeated here"
        }
        return nil
    }
}

private extension Character {
    var isASCIIDigitCharacter: Bool { isASCII && isNumber }
}
