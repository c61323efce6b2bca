import Foundation
import TestSupport
import XCTest

/// Issue 27 item 9: a bucket like a folder. `tilecast publish` publishes every model's newest
/// cycle of a store with two models; `tilecast inspect s3://...|http://...` lists what the
/// local store's inspect lists (models, cycles, domains, sizes, blocks verified), and
/// `--verify` finds a damaged object (exit 5).
final class RemoteInspectTests: XCTestCase {
    /// inspect's text without its first line (which names the store).
    static func body(_ text: String) -> String { text.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().joined(separator: "\n") }

    func testPublishEveryModelAndInspectABucketAsAFolder() throws {
        let f = try S3StoreTests.Fixture()
        // A second model in the same store (the sample again, under another name).
        let second = try runCommand(try tilecastBinary(), ["extract"] + Repository.sampleGridFiles().filter { $0.contains("wrfout") }
                                    + ["--store", f.store, "--model", "coast"])
        XCTAssertEqual(second.status, 0, second.stderr)
        let published = try f.publish(through: f.moto.address)
        XCTAssertEqual(published.status, 0, published.stderr)
        XCTAssertTrue(published.stdout.contains("published coast 2026-11-22T00Z") && published.stdout.contains("published wrf 2026-11-22T00Z"), published.stdout)
        for model in ["coast", "wrf"] {
            let answer = try runCommand(try tilecastBinary(), ["query", "--store", "s3://\(S3StoreTests.bucket)/store", "--model", model, "--lat", "38.72", "--lon", "-9.14",
                                                               "--s3-endpoint", f.moto.address], environment: f.environment)
            XCTAssertEqual(answer.status, 0, "\(model): \(answer.stderr)")
        }
        // --model names the ones to publish.
        let one = try f.publish(through: f.moto.address, ["--model", "coast"])
        XCTAssertEqual(one.status, 0, one.stderr)
        XCTAssertTrue(one.stdout.contains("published coast") && !one.stdout.contains("published wrf"), one.stdout)

        // inspect of the bucket: what the folder's inspect says, with and without --verify.
        let bucket = ["inspect", "s3://\(S3StoreTests.bucket)/store", "--s3-endpoint", f.moto.address]
        for extra in [[], ["--verify"]] {
            let local = try runCommand(try tilecastBinary(), ["inspect", f.store] + extra)
            XCTAssertEqual(local.status, 0, local.stderr)
            let remote = try runCommand(try tilecastBinary(), bucket + extra, environment: f.environment)
            XCTAssertEqual(remote.status, 0, remote.stderr)
            XCTAssertTrue(remote.stdout.hasPrefix("Store s3://\(S3StoreTests.bucket)/store\n"), remote.stdout)
            XCTAssertEqual(Self.body(remote.stdout), Self.body(local.stdout))
            XCTAssertTrue(remote.stdout.contains("model coast") && remote.stdout.contains("model wrf"), remote.stdout)
        }
        let json = try runCommand(try tilecastBinary(), bucket + ["--format", "json", "--model", "wrf"], environment: f.environment)
        XCTAssertEqual(json.status, 0, json.stderr)
        XCTAssertTrue(json.stdout.contains("\"model\" : \"wrf\"") && !json.stdout.contains("\"model\" : \"coast\""), json.stdout)

        // One byte flipped in the middle of wrf's d02 in the bucket (same size, so the manifest
        // still agrees): inspect opens it; --verify reads every block and finds it.
        let damage = """
        import boto3, sys
        from botocore.config import Config
        s3 = boto3.client("s3", endpoint_url=sys.argv[1], region_name="us-east-1", config=Config(s3={"addressing_style": "path"}))
        key = "store/wrf/2026-11-22T00Z/d02.tcs"
        body = bytearray(s3.get_object(Bucket="\(S3StoreTests.bucket)", Key=key)["Body"].read())
        body[len(body) // 3] ^= 0x20
        s3.put_object(Bucket="\(S3StoreTests.bucket)", Key=key, Body=bytes(body))
        """
        let put = try runCommand("/usr/bin/env", ["python3", "-c", damage, f.moto.address], environment: f.environment)
        XCTAssertEqual(put.status, 0, put.stderr)
        let verified = try runCommand(try tilecastBinary(), bucket + ["--verify"], environment: f.environment)
        XCTAssertEqual(verified.status, 5, verified.stderr)
        XCTAssertTrue(verified.stderr.contains("d02.tcs") && verified.stderr.contains("checksum mismatch"), verified.stderr)
        XCTAssertEqual(verified.stdout, "")
    }

    func testInspectAStoreFolderBehindAWebServer() throws {
        let directory = try TemporaryDirectory()
        let store = try SampleStore.extract(into: directory)
        let local = try runCommand(try tilecastBinary(), ["inspect", store, "--verify"])
        XCTAssertEqual(local.status, 0, local.stderr)
        // A server that lists its folders (nginx's autoindex): listed like the folder.
        let indexed = try Peer.nginx(name: "nginx-index") { port in
            "server { listen 127.0.0.1:\(port); root \(store); location / { autoindex on; } }"
        }
        let listed = try runCommand(try tilecastBinary(), ["inspect", indexed.address, "--verify"])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        XCTAssertEqual(Self.body(listed.stdout), Self.body(local.stdout))
        // One that does not: the models must be named; each shows its latest cycle.
        let plain = try Peer.nginx(serving: store)
        let unnamed = try runCommand(try tilecastBinary(), ["inspect", plain.address])
        XCTAssertEqual(unnamed.status, 2, unnamed.stderr)
        XCTAssertTrue(unnamed.stderr.contains("--model"), unnamed.stderr)
        let named = try runCommand(try tilecastBinary(), ["inspect", plain.address, "--model", SampleStore.model, "--verify"])
        XCTAssertEqual(named.status, 0, named.stderr)
        XCTAssertEqual(Self.body(named.stdout), Self.body(local.stdout))
        let missing = try runCommand(try tilecastBinary(), ["inspect", plain.address, "--model", "nothing"])
        XCTAssertEqual(missing.status, 5, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("no published cycle of nothing"), missing.stderr)
    }
}
