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

    /// Past hours from a remote store's older cycles, as from a store folder's (issue 44): two
    /// cycles 6 hours apart, yesterday's 00Z and 06Z (the sample run moved), published to a
    /// bucket and served by nginx with index pages, answer `past_days=2` byte for byte as the
    /// local server does, yesterday's 01-06Z from the 00Z cycle. Before, a remote server read
    /// each model's latest cycle only, and those hours were null. A web server without index
    /// pages cannot be listed: it still answers from `latest` alone.
    func testPastDaysOnABucketAndAWebServerComeFromOlderCycles() throws {
        let directory = try TemporaryDirectory()
        let store = directory.path("store")
        let day: Int64 = 86_400, sampleStart: Int64 = 1_795_305_600   // 2026-11-22T00Z
        let yesterday = Int64(Date().timeIntervalSince1970) / day * day - day
        let files = try Repository.sampleGridFiles().filter { $0.contains("wrfout") }
        var cycles: [String] = []
        for hours in [0, 6] {
            let moved = try files.map { try shiftedRun($0, byMinutes: Int((yesterday - sampleStart) / 60) + hours * 60, into: directory) }
            let result = try runCommand(try tilecastBinary(), ["extract"] + moved + ["--store", store, "--model", SampleStore.model])
            XCTAssertEqual(result.status, 0, result.stderr)
            cycles.append(String(ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(yesterday + Int64(hours) * 3600))).prefix(13)) + "Z")
        }
        let (moto, key, secret) = try Peer.moto(bucket: S3StoreTests.bucket)
        let environment = ["AWS_ACCESS_KEY_ID": key, "AWS_SECRET_ACCESS_KEY": secret, "AWS_REGION": "us-east-1",
                           "AWS_CONFIG_FILE": "/nonexistent", "AWS_SHARED_CREDENTIALS_FILE": "/nonexistent"]
        for cycle in cycles {
            let published = try runCommand(try tilecastBinary(), ["publish", "--store", store, "--to", "s3://\(S3StoreTests.bucket)/store",
                                                                  "--s3-endpoint", moto.address, "--cycle", cycle], environment: environment)
            XCTAssertEqual(published.status, 0, published.stderr)
        }
        let indexed = try Peer.nginx(name: "nginx-index") { port in
            "server { listen 127.0.0.1:\(port); root \(store); location / { autoindex on; } }"
        }
        let plain = try Peer.nginx(serving: store)
        let local = try Self.serve(["--store", store])
        let remotes = [
            ("bucket", try Self.serve(["--store", "s3://\(S3StoreTests.bucket)/store", "--model", SampleStore.model, "--s3-endpoint", moto.address,
                                       "--poll-seconds", "0.3"], environment: environment)),
            ("web server with index pages", try Self.serve(["--store", indexed.address, "--model", SampleStore.model, "--poll-seconds", "0.3"])),
        ]
        let path = "/v1/forecast?latitude=38.72&longitude=-9.14&hourly=temperature_2m,precipitation,wind_speed_10m&past_days=2&forecast_days=1&timezone=GMT"
        let expected = try Self.get(local, path)
        XCTAssertEqual(expected.status, 200, expected.body)
        // Yesterday 01-05Z (hours 25-29 of the answer) come from the 00Z cycle alone.
        func temperatures(_ body: String) throws -> [Any] {
            // `get` took `generationtime_ms` out, leaving its comma.
            let json = body.replacingOccurrences(of: ",,", with: ",")
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            return try XCTUnwrap((object["hourly"] as? [String: Any])?["temperature_2m"] as? [Any])
        }
        let olderHours = 25...29
        XCTAssertTrue(try olderHours.allSatisfy { try temperatures(expected.body)[$0] is Double }, expected.body)
        for (name, remote) in remotes {
            var answer = try Self.get(remote, path)
            // The first listing is made by the poller's first round.
            for _ in 0..<20 where answer.body != expected.body {
                Thread.sleep(forTimeInterval: 0.2)
                answer = try Self.get(remote, path)
            }
            XCTAssertEqual(answer.status, 200, "\(name): \(answer.body)")
            XCTAssertEqual(answer.body, expected.body, name)
        }
        // Without index pages: latest alone, the older cycle's hours null.
        let unlisted = try Self.serve(["--store", plain.address, "--model", SampleStore.model, "--poll-seconds", "0.3"])
        let alone = try Self.get(unlisted, path)
        XCTAssertEqual(alone.status, 200, alone.body)
        XCTAssertTrue(try olderHours.allSatisfy { try temperatures(alone.body)[$0] is NSNull }, alone.body)
    }
}
