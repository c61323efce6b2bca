import Foundation
import TestSupport
import XCTest

/// `tilecast serve` on a bucket: the local store's answers, a newly published cycle picked up
/// by polling `latest`, the cycle kept when a new `latest` is broken, and errors, never
/// numbers, when the object server is gone mid-read.
final class RemoteServerTests: XCTestCase {
    /// Hours both cycles cover (07Z-23Z), so that the local server, which also answers past
    /// hours from older kept cycles, and a server on a bucket, which reads each model's latest
    /// cycle only, are asked the same question.
    static let forecast = "/v1/forecast?latitude=38.72&longitude=-9.14&hourly=temperature_2m,precipitation,wind_speed_10m&start_hour=2026-11-22T07:00&end_hour=2026-11-22T23:00"

    static func get(_ server: Peer, _ path: String) throws -> (status: Int, body: String) {
        let result = try runTool("curl", ["-s", "-o", "-", "-w", "\n%{http_code}", server.address + path])
        var lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let status = Int(lines.popLast() ?? "") ?? 0
        // generationtime_ms differs between any two answers.
        let body = lines.joined(separator: "\n").replacingOccurrences(of: #""generationtime_ms":[0-9.e-]+"#, with: "", options: .regularExpression)
        return (status, body)
    }

    static func serve(_ arguments: [String], environment: [String: String] = [:]) throws -> Peer {
        let port = try Peer.freePort()
        return try Peer.launch(try tilecastBinary(), ["serve", "--port", "\(port)"] + arguments, environment: environment, port: port,
                               folder: try TemporaryDirectory("serve"))
    }

    func testServerOnABucketFollowsLatestAndKeepsItsCycleWhenTheNewOneIsBroken() throws {
        let f = try S3StoreTests.Fixture()
        XCTAssertEqual(try f.publish(through: f.moto.address).status, 0)
        let proxy = try Peer.faultProxy(upstream: f.moto.port)
        let remote = try Self.serve(["--store", "s3://\(S3StoreTests.bucket)/store", "--model", SampleStore.model, "--s3-endpoint", proxy.address,
                                "--poll-seconds", "0.3"], environment: f.environment)
        let local = try Self.serve(["--store", f.store])
        let first = try Self.get(remote, Self.forecast)
        XCTAssertEqual(first.status, 200, first.body)
        XCTAssertEqual(first.body, try Self.get(local, Self.forecast).body)

        // A newer cycle published: served from the next look at latest on.
        try f.extractNewerCycle()
        XCTAssertEqual(try f.publish(through: f.moto.address).status, 0)
        Thread.sleep(forTimeInterval: 0.6)
        let health = try Self.get(remote, "/health")
        XCTAssertTrue(health.body.contains("2026-11-22T06Z"), health.body)
        let second = try Self.get(remote, Self.forecast)
        XCTAssertEqual(second.status, 200)
        XCTAssertEqual(second.body, try Self.get(local, Self.forecast).body)
        XCTAssertNotEqual(second.body, first.body)

        // latest replaced by a manifest naming a cycle whose files are not there: the server
        // keeps the cycle it has and says why.
        let broken = """
        import boto3, json, sys
        from botocore.config import Config
        s3 = boto3.client("s3", endpoint_url=sys.argv[1], region_name="us-east-1", config=Config(s3={"addressing_style": "path"}))
        key = "store/wrf/latest/cycle.json"
        manifest = json.loads(s3.get_object(Bucket="\(S3StoreTests.bucket)", Key=key)["Body"].read())
        manifest["cycle"] = "2026-11-23T00Z"
        manifest.pop("checksum", None)  # as written before issue 43: else refused for its checksum first
        s3.put_object(Bucket="\(S3StoreTests.bucket)", Key=key, Body=json.dumps(manifest).encode())
        """
        let put = try runCommand("/usr/bin/env", ["python3", "-c", broken, f.moto.address], environment: f.environment)
        XCTAssertEqual(put.status, 0, put.stderr)
        Thread.sleep(forTimeInterval: 0.6)
        let kept = try Self.get(remote, Self.forecast)
        XCTAssertEqual(kept.status, 200, kept.body)
        XCTAssertEqual(kept.body, second.body)
        let problem = try Self.get(remote, "/health")
        XCTAssertEqual(problem.status, 200)
        XCTAssertTrue(problem.body.contains("2026-11-22T06Z") && problem.body.contains("still serving the previous cycle"), problem.body)

        // The object server gone mid-read (a place whose blocks are not cached yet): an error,
        // never numbers; back again, answers again.
        let elsewhere = Self.forecast.replacingOccurrences(of: "latitude=38.72&longitude=-9.14", with: "latitude=39.3&longitude=-8.0")
        try proxy.fault("refuse", match: ".tcs")
        let gone = try Self.get(remote, elsewhere)
        XCTAssertEqual(gone.status, 503, gone.body)
        XCTAssertFalse(gone.body.contains("\"hourly\""), gone.body)
        try proxy.fault("none")
        let back = try Self.get(remote, elsewhere)
        XCTAssertEqual(back.status, 200, back.body)
        XCTAssertEqual(back.body, try Self.get(local, elsewhere).body)
    }
}
