import TileStore
import XCTest

/// The one redaction every printed store address goes through (issue 27 item 2).
final class StoreAddressTests: XCTestCase {
    func testUserInformationIsHiddenWherePrintedAndNothingElseChanges() {
        let cases: [(String, String)] = [
            ("http://alice:tc%40Secret@127.0.0.1:8080/store", "http://***@127.0.0.1:8080/store"),
            // An '@' left unencoded in the password: the last '@' of the authority ends it.
            ("https://bob:p@ss@host/x", "https://***@host/x"),
            ("https://token@host", "https://***@host"),
            ("error at http://a:b@h/p and https://c:d@i/q: refused", "error at http://***@h/p and https://***@i/q: refused"),
            // No credentials: unchanged, '@' in a path or a mail address included.
            ("https://host/p@th", "https://host/p@th"),
            ("s3://bucket/prefix", "s3://bucket/prefix"),
            ("write to ops@example.org", "write to ops@example.org"),
            ("--store \"http://u:v@h\" bad", "--store \"http://***@h\" bad"),
            // issue 43 item 6: a password with an unencoded '/', '?', '#' or space (the authority
            // then ends early, its "port" no number) is hidden to the '@' that ends it.
            ("http://alice:Sl/ashPw9@host/store", "http://***@host/store"),
            ("http://alice:Qu?ery@host/store: not found", "http://***@host/store: not found"),
            ("http://alice:Ha#sh@host/store", "http://***@host/store"),
            ("serving http://alice:pass word@host/store on 8080", "serving http://***@host/store on 8080"),
            ("{\"problems\":[\"http://alice:Sl/ash@h/s: refused\"]}", "{\"problems\":[\"http://***@h/s: refused\"]}"),
            // A port is a port: an '@' further on is no password's end.
            ("https://host:8080/p@th", "https://host:8080/p@th"),
        ]
        for (text, shown) in cases { XCTAssertEqual(StoreAddress.redacted(text), shown, text) }
    }

    /// The URLs whose user information cannot be told apart are refused, without repeating them.
    func testUnreadableUserInformationIsSaidWithoutTheURL() {
        for url in ["http://alice:Sl/ashPw9@host/store", "https://a:b?c@h/s", "http://alice:pass word@host/store"] {
            let reason = StoreAddress.unreadableUserInformation(url)
            XCTAssertNotNil(reason, url)
            XCTAssertFalse(["ashPw9", "c@h", "pass word", "alice"].contains { reason?.contains($0) == true }, reason ?? url)
        }
        for url in ["http://alice:tc%2Fx@host/store", "https://host:8080/store", "http://u:p@h/s"] {
            XCTAssertNil(StoreAddress.unreadableUserInformation(url), url)
        }
    }
}
