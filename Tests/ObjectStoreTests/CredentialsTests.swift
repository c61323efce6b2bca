import Foundation
import TestSupport
import XCTest

/// Issue 27 item 2: a store URL with credentials (`http://USER:PASSWORD@HOST/...`) is read with
/// HTTP Basic auth, against nginx requiring it (auth_basic, an htpasswd file made here), and
/// the password appears nowhere: not in the `Host` header, stderr, the server's log, `/health`,
/// error bodies or `inspect`.
final class CredentialsTests: XCTestCase {
    static let user = "alice"
    /// Holds an '@' (percent-encoded in the URL) so that decoding is exercised too.
    static let password = "tc@Secret4711"
    static let encoded = "tc%40Secret4711"

    /// nginx serving `root` only to alice, logging what it received of each request.
    static func guardedNginx(serving root: String, folder: TemporaryDirectory) throws -> Peer {
        let hash = try runTool("openssl", ["passwd", "-apr1", password])
        XCTAssertEqual(hash.status, 0, hash.stderr)
        let htpasswd = folder.path("htpasswd")
        try "\(user):\(hash.stdout.trimmingCharacters(in: .whitespacesAndNewlines))\n".write(toFile: htpasswd, atomically: true, encoding: .utf8)
        return try Peer.nginx(name: "nginx-auth") { port in
            """
            log_format seen '$remote_user|$http_host|$status';
            server {
                listen 127.0.0.1:\(port);
                access_log \(folder.path("seen.log")) seen;
                root \(root);
                location / { auth_basic "tilecast"; auth_basic_user_file \(htpasswd); }
            }
            """
        }
    }

    func assertNoSecret(_ text: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(text.contains(Self.password) || text.contains(Self.encoded) || text.contains("wrong-Pass-99"),
                       "\(what) shows the password: \(text.prefix(2000))", file: file, line: line)
    }

    func testPasswordInAStoreURLIsBasicAuthAndNeverShown() throws {
        let directory = try TemporaryDirectory()
        let store = try SampleStore.extract(into: directory)
        let logs = try TemporaryDirectory("seen")
        let nginx = try Self.guardedNginx(serving: store, folder: logs)
        let address = "http://\(Self.user):\(Self.encoded)@127.0.0.1:\(nginx.port)"

        // Without credentials: refused (the server does require them).
        let anonymous = try HTTPStoreTests.query(nginx.address, 38.72, -9.14)
        XCTAssertEqual(anonymous.status, 5, anonymous.stderr)
        XCTAssertTrue(anonymous.stderr.contains("401"), anonymous.stderr)

        // With them: the local store's answer, and nginx saw alice, with a Host of host:port.
        let local = try HTTPStoreTests.query(store, 38.72, -9.14)
        let remote = try HTTPStoreTests.query(address + "/", 38.72, -9.14)
        XCTAssertEqual(remote.status, 0, remote.stderr)
        XCTAssertEqual(remote.stdout, local.stdout)
        assertNoSecret(remote.stderr, "query's stderr")
        let seen = try String(contentsOfFile: logs.path("seen.log"), encoding: .utf8).split(separator: "\n")
        let authorized = seen.filter { $0.hasPrefix("\(Self.user)|") }
        XCTAssertFalse(authorized.isEmpty, seen.joined(separator: "\n"))
        for line in authorized {
            XCTAssertEqual(line.split(separator: "|").dropFirst().first.map(String.init), "127.0.0.1:\(nginx.port)", "Host header: \(line)")
        }
        XCTAssertFalse(seen.contains { $0.contains("@") || $0.contains(Self.password) || $0.contains(Self.encoded) }, seen.joined(separator: "\n"))

        // A wrong password: an error naming the address without any credentials.
        let wrongAddress = "http://\(Self.user):wrong-Pass-99@127.0.0.1:\(nginx.port)"
        let wrong = try HTTPStoreTests.query(wrongAddress, 38.72, -9.14)
        XCTAssertEqual(wrong.status, 5, wrong.stderr)
        XCTAssertTrue(wrong.stderr.contains("401") && wrong.stderr.contains("http://127.0.0.1:\(nginx.port)/wrf/latest/cycle.json"), wrong.stderr)
        assertNoSecret(wrong.stderr, "a refused query's stderr")
        // Messages that quote the address as given (no --model; a bad option) redact it.
        let noModel = try runCommand(try tilecastBinary(), ["query", "--store", address, "--lat", "38.7", "--lon", "-9.1"])
        XCTAssertEqual(noModel.status, 2, noModel.stderr)
        XCTAssertTrue(noModel.stderr.contains("http://***@127.0.0.1"), noModel.stderr)
        assertNoSecret(noModel.stderr, "a usage error")
        let badServe = try runCommand(try tilecastBinary(), ["serve", "--store", address, "--port", "0"])
        XCTAssertEqual(badServe.status, 2, badServe.stderr)
        assertNoSecret(badServe.stderr, "serve's usage error")

        // inspect names the store without its credentials.
        let inspected = try runCommand(try tilecastBinary(), ["inspect", address, "--model", SampleStore.model])
        XCTAssertEqual(inspected.status, 0, inspected.stderr)
        XCTAssertTrue(inspected.stdout.hasPrefix("Store http://127.0.0.1:\(nginx.port)\n"), inspected.stdout)
        assertNoSecret(inspected.stdout + inspected.stderr, "inspect")
        let refusedInspect = try runCommand(try tilecastBinary(), ["inspect", wrongAddress, "--model", SampleStore.model])
        XCTAssertEqual(refusedInspect.status, 5, refusedInspect.stderr)
        assertNoSecret(refusedInspect.stdout + refusedInspect.stderr, "a refused inspect")

        // The server: its log, /health, error bodies (with the right password and a wrong one).
        let served = try RemoteServerTests.serve(["--store", address, "--model", SampleStore.model, "--poll-seconds", "0.3"])
        let forecast = try RemoteServerTests.get(served, RemoteServerTests.forecast)
        XCTAssertEqual(forecast.status, 200, forecast.body)
        let health = try RemoteServerTests.get(served, "/health")
        XCTAssertEqual(health.status, 200, health.body)
        assertNoSecret(health.body, "/health")
        let refused = try RemoteServerTests.serve(["--store", wrongAddress, "--model", SampleStore.model, "--poll-seconds", "0.3"])
        let refusedHealth = try RemoteServerTests.get(refused, "/health")
        XCTAssertEqual(refusedHealth.status, 503, refusedHealth.body)
        XCTAssertTrue(refusedHealth.body.contains("401"), refusedHealth.body)
        assertNoSecret(refusedHealth.body, "/health of a refused store")
        let refusedForecast = try RemoteServerTests.get(refused, RemoteServerTests.forecast)
        XCTAssertEqual(refusedForecast.status, 503, refusedForecast.body)
        assertNoSecret(refusedForecast.body, "a forecast's error body")
        for server in [served, refused] {
            server.kill()
            let log = try String(contentsOfFile: server.folder.path("server.log"), encoding: .utf8)
            XCTAssertTrue(log.contains("serving http://***@127.0.0.1:\(nginx.port)"), log)
            assertNoSecret(log, "the server's stderr")
        }

        // issue 43 item 6: a password with an unencoded '/', '?', '#' or a space cannot be told
        // from the path: every command refuses it (exit 2) and no output shows any of it.
        for password in ["Sl/ashPw9", "Qu?eryPw9", "Ha#shPw9", "Spa cePw9"] {
            let broken = "http://\(Self.user):\(password)@127.0.0.1:\(nginx.port)"
            let secret = String(password.suffix(5))
            for arguments in [["query", "--store", broken, "--model", SampleStore.model, "--lat", "38.7", "--lon", "-9.1"],
                              ["inspect", broken, "--model", SampleStore.model],
                              ["serve", "--store", broken, "--model", SampleStore.model, "--port", "0"]] {
                let run = try runCommand(try tilecastBinary(), arguments)
                XCTAssertEqual(run.status, 2, "\(arguments[0]) \(password): \(run.stderr)")
                XCTAssertFalse((run.stdout + run.stderr).contains(secret), "\(arguments[0]) showed \(password): \(run.stderr)")
                XCTAssertTrue(run.stderr.contains("percent-encode"), run.stderr)
            }
        }
    }
}
