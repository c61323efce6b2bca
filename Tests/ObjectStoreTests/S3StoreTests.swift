import Foundation
import TestSupport
import XCTest

/// Publishing to and reading from a bucket on moto's S3 server (started here on loopback,
/// checking SigV4 on every request), directly and through the fault proxy.
final class S3StoreTests: XCTestCase {
    static let bucket = "tilecast-test"

    /// Extracts the sample into a local store and starts moto; the environment to reach it.
    struct Fixture {
        let directory: TemporaryDirectory
        let store: String
        let moto: Peer
        let environment: [String: String]

        init() throws {
            directory = try TemporaryDirectory()
            store = try SampleStore.extract(into: directory)
            let (peer, key, secret) = try Peer.moto(bucket: S3StoreTests.bucket)
            moto = peer
            environment = ["AWS_ACCESS_KEY_ID": key, "AWS_SECRET_ACCESS_KEY": secret, "AWS_REGION": "us-east-1",
                           "AWS_CONFIG_FILE": "/nonexistent", "AWS_SHARED_CREDENTIALS_FILE": "/nonexistent"]
        }

        /// `tilecast publish` of the local store to s3://bucket/store through `endpoint`.
        func publish(through endpoint: String, _ extra: [String] = []) throws -> RunOutput {
            try runCommand(try tilecastBinary(), ["publish", "--store", store, "--to", "s3://\(S3StoreTests.bucket)/store", "--s3-endpoint", endpoint,
                                           "--part-size-bytes", "65536"] + extra, environment: environment)
        }

        func query(_ storeAddress: String, endpoint: String, _ lat: Double = 38.72, _ lon: Double = -9.14, _ extra: [String] = [],
                   environment overrides: [String: String] = [:]) throws -> RunOutput {
            try runCommand(try tilecastBinary(), ["query", "--store", storeAddress, "--model", SampleStore.model, "--lat", "\(lat)", "--lon", "\(lon)",
                                           "--s3-endpoint", endpoint] + extra, environment: environment.merging(overrides) { $1 })
        }

        /// A second, newer cycle (the sample moved 6 hours later) extracted into the local store.
        func extractNewerCycle() throws {
            let shifted = try Repository.sampleGridFiles().filter { $0.contains("wrfout") }.map { try shiftedRun($0, byMinutes: 360, into: directory) }
            let result = try runCommand(try tilecastBinary(), ["extract"] + shifted + ["--store", store, "--model", SampleStore.model])
            XCTAssertEqual(result.status, 0, result.stderr)
        }
    }

    static let window = ["--start", "2026-11-22T06Z", "--hours", "3", "--daily", "precipitation_sum"]

    func testPublishedCycleAnswersAsTheLocalStoreAndSignaturesAreChecked() throws {
        let f = try Fixture()
        let published = try f.publish(through: f.moto.address)
        XCTAssertEqual(published.status, 0, published.stderr)
        XCTAssertTrue(published.stdout.contains("latest -> 2026-11-22T00Z"), published.stdout)
        for (lat, lon) in HTTPStoreTests.places {
            let local = try HTTPStoreTests.query(f.store, lat, lon)
            let remote = try f.query("s3://\(Self.bucket)/store", endpoint: f.moto.address, lat, lon,
                                     ["--start", "2026-11-22T00Z", "--hours", "3", "--daily", "temperature_2m_max"])
            XCTAssertEqual(remote.status, local.status, remote.stderr)
            XCTAssertEqual(remote.stdout, local.stdout, "\(lat), \(lon)")
        }
        // moto checks the signature: a wrong secret is refused, and that is no answer.
        let forged = try f.query("s3://\(Self.bucket)/store", endpoint: f.moto.address, environment: ["AWS_SECRET_ACCESS_KEY": "not-the-secret"])
        XCTAssertEqual(forged.status, 5, forged.stderr)
        XCTAssertTrue(forged.stderr.contains("403"), forged.stderr)
        XCTAssertEqual(forged.stdout, "")
        // Credentials from the shared file work as the environment's do.
        let credentials = f.directory.path("credentials")
        try "[default]\naws_access_key_id = \(f.environment["AWS_ACCESS_KEY_ID"] ?? "")\naws_secret_access_key = \(f.environment["AWS_SECRET_ACCESS_KEY"] ?? "")\n"
            .write(toFile: credentials, atomically: true, encoding: .utf8)
        let fromFile = try f.query("s3://\(Self.bucket)/store", endpoint: f.moto.address,
                                   environment: ["AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "", "AWS_SHARED_CREDENTIALS_FILE": credentials])
        XCTAssertEqual(fromFile.status, 0, fromFile.stderr)
    }

    func testThrottlingIsRetriedAndAKilledPublisherIsCompletedByARerun() throws {
        let f = try Fixture()
        let proxy = try Peer.faultProxy(upstream: f.moto.port)
        // 503 SlowDown on the first four requests: retried with backoff, then published.
        try proxy.fault("status503", count: 4)
        let throttled = try f.publish(through: proxy.address)
        XCTAssertEqual(throttled.status, 0, throttled.stderr)
        try proxy.fault("status503", count: 3)
        let throttledQuery = try f.query("s3://\(Self.bucket)/store", endpoint: proxy.address)
        XCTAssertEqual(throttledQuery.status, 0, throttledQuery.stderr)
        XCTAssertTrue(throttledQuery.stdout.contains("2026-11-22T00"), throttledQuery.stdout)

        // A newer cycle whose upload dies after its multipart uploads began: every request
        // naming an upload (parts, completion, the publisher's own abort) finds the server
        // gone, so what is left in the bucket is what a killed publisher leaves.
        try f.extractNewerCycle()
        try proxy.fault("refuse", match: "uploadId")
        let died = try f.publish(through: proxy.address)
        XCTAssertEqual(died.status, 5, died.stderr)
        XCTAssertTrue(died.stderr.contains("run it again"), died.stderr)
        // Readers still get the previous cycle, whole.
        try proxy.fault("none")
        let meanwhile = try f.query("s3://\(Self.bucket)/store", endpoint: proxy.address, 38.72, -9.14, ["--start", "2026-11-22T00Z", "--hours", "3"])
        XCTAssertEqual(meanwhile.status, 0, meanwhile.stderr)
        let previous = try runCommand(try tilecastBinary(), ["query", "--store", f.store, "--model", SampleStore.model, "--lat", "38.72", "--lon", "-9.14",
                                                      "--start", "2026-11-22T00Z", "--hours", "3", "--cycle", "2026-11-22T00Z"])
        XCTAssertEqual(meanwhile.stdout, previous.stdout)
        // The re-run aborts what the dead one left and completes; latest moves on.
        let rerun = try f.publish(through: proxy.address)
        XCTAssertEqual(rerun.status, 0, rerun.stderr)
        XCTAssertTrue(rerun.stdout.contains("latest -> 2026-11-22T06Z"), rerun.stdout)
        XCTAssertFalse(rerun.stdout.contains(" 0 incomplete uploads aborted"), rerun.stdout)
        let after = try f.query("s3://\(Self.bucket)/store", endpoint: f.moto.address, 38.72, -9.14, Self.window)
        let local = try runCommand(try tilecastBinary(), ["query", "--store", f.store, "--model", SampleStore.model, "--lat", "38.72", "--lon", "-9.14"] + Self.window)
        XCTAssertEqual(after.status, 0, after.stderr)
        XCTAssertEqual(after.stdout, local.stdout)
        XCTAssertTrue(after.stdout.contains("2026-11-22T06"), after.stdout)
    }
}
