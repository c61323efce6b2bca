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
        ]
        for (text, shown) in cases { XCTAssertEqual(StoreAddress.redacted(text), shown, text) }
    }
}
