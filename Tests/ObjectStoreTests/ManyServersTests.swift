import Foundation
import Synchronization
import TestSupport
import XCTest

/// Issue 14's "many servers": two `tilecast serve` processes over one bucket behind a real
/// nginx (round robin) answer the local store's numbers, through a cycle switch, under a
/// steady stream of requests, with no errors.
final class ManyServersTests: XCTestCase {
    func testTwoServersBehindNginxOverOneBucketAnswerAlikeThroughACycleSwitch() throws {
        let f = try S3StoreTests.Fixture()
        XCTAssertEqual(try f.publish(through: f.moto.address).status, 0)
        let servers = try (0..<2).map { _ in
            try RemoteServerTests.serve(["--store", "s3://\(S3StoreTests.bucket)/store", "--model", SampleStore.model,
                                            "--s3-endpoint", f.moto.address, "--poll-seconds", "0.3"], environment: f.environment)
        }
        let front = try Peer.nginxFront(upstreams: servers.map(\.port))
        let local = try RemoteServerTests.serve(["--store", f.store])
        let path = RemoteServerTests.forecast
        let probe = RemoteServerTests.self
        let before = try probe.get(local, path)
        XCTAssertEqual(before.status, 200)

        // The newer cycle extracted locally (the local server's answer after the switch), then
        // published while requests stream through nginx.
        try f.extractNewerCycle()
        Thread.sleep(forTimeInterval: 0.2)
        let after = try probe.get(local, path)
        XCTAssertNotEqual(after.body, before.body)
        let publishing = Mutex<Int32?>(nil)
        let tilecast = try tilecastBinary(), environment = f.environment
        let arguments = ["publish", "--store", f.store, "--to", "s3://\(S3StoreTests.bucket)/store", "--s3-endpoint", f.moto.address]
        let publisher = Thread {
            let status = (try? runCommand(tilecast, arguments, environment: environment))?.status ?? -1
            publishing.withLock { $0 = status }
        }
        publisher.start()
        var old = 0, new = 0, other: [String] = []
        let deadline = Date().addingTimeInterval(60)
        var afterPublished = 0
        while Date() < deadline {
            let answer = try probe.get(front, path)
            if answer.status == 200 && answer.body == before.body { old += 1 } else if answer.status == 200 && answer.body == after.body { new += 1 } else {
                other.append("\(answer.status): \(answer.body.prefix(200))")
            }
            if publishing.withLock({ $0 }) != nil {
                afterPublished += 1
                // Both servers have looked at latest again after 0.3 s: from then on, only the new cycle.
                if afterPublished > 40 { break }
            }
        }
        XCTAssertEqual(publishing.withLock { $0 }, 0)
        XCTAssertEqual(other, [], "answers that are neither cycle's")
        XCTAssertGreaterThan(old, 0)
        XCTAssertGreaterThan(new, 0)
        Thread.sleep(forTimeInterval: 0.5)
        for _ in 0..<10 {
            let answer = try probe.get(front, path)
            XCTAssertEqual(answer.body, after.body)
        }
        // Both servers answered (nginx's round robin), each on the new cycle.
        for server in servers {
            XCTAssertTrue(try probe.get(server, "/health").body.contains("2026-11-22T06Z"))
        }
    }
}

extension Peer {
    /// nginx in front of servers on loopback (round robin), as Scripts/ops/nginx-tilecast.conf.
    static func nginxFront(upstreams: [Int]) throws -> Peer {
        try nginx(name: "nginx-front") { port in nginxProxy(port: port, upstreams: upstreams) }
    }

    /// The proxy both fronts share: an upstream of `upstreams` with kept connections, and one
    /// `location /` passing every request to it; `before` goes ahead of the upstream (a cache
    /// path), `location` inside the location (the cache's directives).
    static func nginxProxy(port: Int, upstreams: [Int], before: String = "", location: String = "") -> String {
        """
        \(before)
        upstream tilecast {
            \(upstreams.map { "server 127.0.0.1:\($0);" }.joined(separator: "\n        "))
            keepalive 8;
        }
        server {
            listen 127.0.0.1:\(port);
            location / {
                proxy_pass http://tilecast;
                proxy_http_version 1.1;
                proxy_set_header Connection "";
                \(location)
            }
        }
        """
    }
}
