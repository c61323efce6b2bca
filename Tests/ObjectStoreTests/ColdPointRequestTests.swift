import Foundation
import TestSupport
import XCTest

/// Issue 30's O1: a point forecast of the default variables from a store with a cold cache
/// costs at most 4 requests beyond opening the cycle, counted by the fault proxy (which
/// forwards everything unchanged) in front of nginx serving the store folder and in front of
/// moto's S3 server holding the published cycle.
///
/// Each query is its own process, so each place is cold. The cycle's opening (manifest, each
/// domain file's header and tail) is counted by a query for a place outside every domain, which
/// opens the cycle and reads no block; the place's own requests are the rest. With the blocks
/// stored variable by variable (the writer before issue 30) a forecast's ~13 stored variables
/// lay a whole variable's tiles apart, ~13 requests; stored tile by tile they are one range per
/// tile, at most 4 tiles around a place.
final class ColdPointRequestTests: XCTestCase {
    /// A place in the d02 nest and one in d01 only (HTTPStoreTests.places), and seeded places
    /// around them, some beside tile edges by chance.
    static func places() -> [(Double, Double)] {
        var state: UInt64 = 0x30_2026_1127
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        var places: [(Double, Double)] = [(38.72, -9.14), (39.3, -8.0)]
        // Within 0.2 degrees of those (inside the sample's d01 either way).
        for (lat, lon) in places {
            for _ in 0..<4 { places.append((lat + (next() - 0.5) * 0.4, lon + (next() - 0.5) * 0.4)) }
        }
        return places
    }

    /// The proxy's count of requests forwarded so far.
    private func requests(_ proxy: Peer) throws -> Int {
        let stats = try runTool("curl", ["-sf", proxy.address + "/__stats__"]).stdout.split(separator: " ").compactMap { Int($0) }
        XCTAssertEqual(stats.count, 2)
        return stats.first ?? 0
    }

    /// Requests of each place's cold forecast (the default variables, 24 h), after those of
    /// opening the cycle; `query` runs `tilecast query` at a place through the proxy.
    private func coldRequests(_ proxy: Peer, _ query: (Double, Double) throws -> RunOutput) throws -> [Int] {
        var before = try requests(proxy)
        let outside = try query(60, 20)
        XCTAssertEqual(outside.status, 4, outside.stderr)
        let opening = try requests(proxy) - before
        // The manifest and two requests per domain file, at least.
        XCTAssertGreaterThanOrEqual(opening, 3)
        var counts: [Int] = []
        for (lat, lon) in Self.places() {
            before = try requests(proxy)
            let answer = try query(lat, lon)
            XCTAssertEqual(answer.status, 0, "\(lat), \(lon): \(answer.stderr)")
            counts.append(try requests(proxy) - before - opening)
        }
        return counts
    }

    static let window = ["--start", "2026-11-22T00Z", "--hours", "24"]

    func testAColdPointOfTheDefaultVariablesTakesAtMostFourRequestsFromNginx() throws {
        let directory = try TemporaryDirectory()
        let store = try SampleStore.extract(into: directory)
        let nginx = try Peer.nginx(serving: store)
        let proxy = try Peer.faultProxy(upstream: nginx.port)
        let counts = try coldRequests(proxy) { lat, lon in
            try runCommand(try tilecastBinary(), ["query", "--store", proxy.address, "--model", SampleStore.model,
                                                  "--lat", "\(lat)", "--lon", "\(lon)"] + Self.window)
        }
        XCTAssertEqual(counts.count, Self.places().count)
        for (place, count) in zip(Self.places(), counts) {
            XCTAssertGreaterThanOrEqual(count, 1, "\(place): its blocks were fetched")
            XCTAssertLessThanOrEqual(count, 4, "\(place): \(count) requests for a cold point (all: \(counts))")
        }
    }

    func testAColdPointOfTheDefaultVariablesTakesAtMostFourRequestsFromS3() throws {
        let f = try S3StoreTests.Fixture()
        let published = try f.publish(through: f.moto.address)
        XCTAssertEqual(published.status, 0, published.stderr)
        let proxy = try Peer.faultProxy(upstream: f.moto.port)
        let counts = try coldRequests(proxy) { lat, lon in
            try f.query("s3://\(S3StoreTests.bucket)/store", endpoint: proxy.address, lat, lon, Self.window)
        }
        for (place, count) in zip(Self.places(), counts) {
            XCTAssertGreaterThanOrEqual(count, 1, "\(place): its blocks were fetched")
            XCTAssertLessThanOrEqual(count, 4, "\(place): \(count) requests for a cold point (all: \(counts))")
        }
    }
}
