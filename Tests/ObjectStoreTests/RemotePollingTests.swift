import Foundation
import TestSupport
import XCTest

/// Issue 27 item 5: `tilecast serve` on a remote store looks at `latest` in the background,
/// never inside a request: with the object server hanging, then dead, forecasts (from the
/// cycle already open, its blocks cached), `/health` and `/metrics` answer at once, and
/// `/health` says the poll is failing and since when; with the server back, the problem goes.
final class RemotePollingTests: XCTestCase {
    /// One GET with curl, given at most `seconds`; the time it took.
    static func timedGet(_ server: Peer, _ path: String, seconds: Int = 3) throws -> (status: Int, body: String, seconds: Double) {
        let started = Date()
        let result = try runTool("curl", ["-s", "--max-time", "\(seconds)", "-o", "-", "-w", "\n%{http_code}", server.address + path])
        var lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let status = Int(lines.popLast() ?? "") ?? 0
        let body = lines.joined(separator: "\n").replacingOccurrences(of: #""generationtime_ms":[0-9.e-]+"#, with: "", options: .regularExpression)
        return (status, body, Date().timeIntervalSince(started))
    }

    func testSlowAndDeadObjectServersDoNotHoldUpRequests() throws {
        let f = try S3StoreTests.Fixture()
        XCTAssertEqual(try f.publish(through: f.moto.address).status, 0)
        var proxy = try Peer.faultProxy(upstream: f.moto.port)
        let proxyPort = proxy.port
        // Small limits: a failed look at latest is over within 2 s (defaults: RELIABILITY.md).
        let environment = f.environment.merging(["TILECAST_OBJECT_PROGRESS_SECONDS": "1", "TILECAST_OBJECT_ATTEMPT_SECONDS": "1",
                                                 "TILECAST_OBJECT_QUERY_SECONDS": "2"]) { $1 }
        let server = try RemoteServerTests.serve(["--store", "s3://\(S3StoreTests.bucket)/store", "--model", SampleStore.model,
                                                  "--s3-endpoint", proxy.address, "--poll-seconds", "0.3"], environment: environment)
        let first = try Self.timedGet(server, RemoteServerTests.forecast)
        XCTAssertEqual(first.status, 200, first.body)
        XCTAssertFalse(try Self.timedGet(server, "/health").body.contains("problems"))

        func checkAnswersAtOnce(_ label: String) throws {
            for _ in 0..<3 {
                let forecast = try Self.timedGet(server, RemoteServerTests.forecast)
                XCTAssertEqual(forecast.status, 200, "\(label): \(forecast.body)")
                XCTAssertEqual(forecast.body, first.body, label)
                XCTAssertLessThan(forecast.seconds, 1, "\(label): a forecast waited")
                let metrics = try Self.timedGet(server, "/metrics")
                XCTAssertEqual(metrics.status, 200, label)
                XCTAssertTrue(metrics.body.contains("tilecast_cycle_age_seconds"), label)
                XCTAssertLessThan(metrics.seconds, 1, "\(label): /metrics waited")
                let health = try Self.timedGet(server, "/health")
                XCTAssertEqual(health.status, 200, "\(label): \(health.body)")
                XCTAssertLessThan(health.seconds, 1, "\(label): /health waited")
                XCTAssertTrue(health.body.contains("\"wrf\":\"2026-11-22T00Z\""), "\(label): \(health.body)")
                XCTAssertTrue(health.body.contains("the poll of latest is failing (failing since 20"), "\(label): \(health.body)")
                Thread.sleep(forTimeInterval: 0.4)
            }
        }

        // The object server hangs on latest: no answer, ever.
        try proxy.fault("stall", match: "latest/cycle.json")
        Thread.sleep(forTimeInterval: 3)
        try checkAnswersAtOnce("hanging")
        let hanging = try Self.timedGet(server, "/health").body
        XCTAssertTrue(hanging.contains("latest/cycle.json: GET gave up"), hanging)

        // The object server dead (the proxy killed: connections refused).
        proxy.kill()
        Thread.sleep(forTimeInterval: 3)
        try checkAnswersAtOnce("dead")

        // Back: the next look succeeds and the problem is gone.
        proxy = try Peer.faultProxy(upstream: f.moto.port, port: proxyPort)
        let deadline = Date().addingTimeInterval(10)
        var health = try Self.timedGet(server, "/health")
        while health.body.contains("problems") && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.2)
            health = try Self.timedGet(server, "/health")
        }
        XCTAssertEqual(health.status, 200, health.body)
        XCTAssertFalse(health.body.contains("problems"), health.body)
        XCTAssertEqual(try Self.timedGet(server, RemoteServerTests.forecast).body, first.body)
    }
}

/// Issue 27 item 4 in the server: everything one request reads from the object server ends by
/// one deadline, however many places it asks for.
final class RemoteRequestDeadlineTests: XCTestCase {
    func testARequestOfManyUncachedPlacesEndsByItsDeadline() throws {
        let f = try S3StoreTests.Fixture()
        XCTAssertEqual(try f.publish(through: f.moto.address).status, 0)
        let proxy = try Peer.faultProxy(upstream: f.moto.port)
        let environment = f.environment.merging(["TILECAST_OBJECT_PROGRESS_SECONDS": "1", "TILECAST_OBJECT_ATTEMPT_SECONDS": "1",
                                                 "TILECAST_OBJECT_QUERY_SECONDS": "2"]) { $1 }
        let server = try RemoteServerTests.serve(["--store", "s3://\(S3StoreTests.bucket)/store", "--model", SampleStore.model,
                                                  "--s3-endpoint", proxy.address, "--poll-seconds", "0.3"], environment: environment)
        XCTAssertEqual(try RemotePollingTests.timedGet(server, "/health").status, 200)
        // Five places no request read before, their blocks trickling a byte every 0.4 s: each
        // place's reads alone could take the 2 s a read may; the request's deadline is 2 s.
        try proxy.fault("trickle", match: ".tcs", blocksOnly: true, interval: 0.4)
        let latitudes = "38.9,39.1,39.3,39.5,39.7", longitudes = "-8.9,-8.7,-8.5,-8.3,-8.1"
        let path = "/v1/forecast?latitude=\(latitudes)&longitude=\(longitudes)&hourly=temperature_2m&start_date=2026-11-22&end_date=2026-11-22"
        let answer = try RemotePollingTests.timedGet(server, path, seconds: 30)
        print("request-deadline: \(answer.status) in \(answer.seconds) s: \(answer.body.prefix(300))")
        XCTAssertEqual(answer.status, 503, answer.body)
        XCTAssertTrue(answer.body.contains("deadline"), answer.body)
        XCTAssertLessThan(answer.seconds, 4.5, "the request outlived its deadline")
        try proxy.fault("none")
        let again = try RemotePollingTests.timedGet(server, path, seconds: 30)
        XCTAssertEqual(again.status, 200, again.body)
    }
}
