import AsyncHTTPClient
import Foundation
import NIOHTTP1
import Synchronization
import TestSupport
import TileCastServer
import XCTest

/// Issue 48's HTTP caching: every answer carries an ETag, Last-Modified and Cache-Control; a
/// client whose copy is still the answer gets 304; the tag changes when a cycle is published
/// or pruned, or the clock moves a relative window on, and not otherwise. The expected values
/// come from the store's own files (cycle.json's `createdAt`, read here) and the calendar.
final class HTTPCachingTests: XCTestCase {
    /// A clock the test moves.
    final class TestClock: Sendable {
        let seconds: Atomic<Int64>
        init(_ start: Int64) { seconds = Atomic(start) }
        func set(_ value: Int64) { seconds.store(value, ordering: .relaxed) }
    }

    static let fixed = "/v1/forecast?latitude=39.3&longitude=-8&hourly=temperature_2m,precipitation&start_date=2026-11-22&end_date=2026-11-22"
    static let relative = "/v1/forecast?latitude=39.3&longitude=-8&hourly=temperature_2m"

    func configuration(_ store: String, clock: TestClock) -> ServerConfiguration {
        var configuration = ServerConfiguration(storeRoot: store)
        configuration.now = { clock.seconds.load(ordering: .relaxed) }
        return configuration
    }

    /// The newest cycle's publication, from its cycle.json (the model folder's `latest` link).
    func publishedAt(_ store: String) throws -> Int64 {
        let model = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: store).first { !$0.hasPrefix(".") })
        let manifest = try Data(contentsOf: URL(fileURLWithPath: "\(store)/\(model)/latest/cycle.json"))
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: manifest) as? [String: Any])
        let created = try XCTUnwrap(object["createdAt"] as? String)
        let formatter = ISO8601DateFormatter()
        return Int64(try XCTUnwrap(formatter.date(from: created)).timeIntervalSince1970)
    }

    func httpDate(_ seconds: Int64) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    func testEveryAnswerCarriesValidatorsAndFreshness() async throws {
        let directory = try TemporaryDirectory()
        let store = try StoreMaker.extractBaseline(into: directory)
        let published = try publishedAt(store)
        // Five hours fifty minutes after publication: the next cycle (6 h) is due in 600 s.
        let clock = TestClock(published + 5 * 3600 + 50 * 60)
        try await LiveServer.with(configuration(store, clock: clock)) { server in
            for path in [Self.fixed, Self.fixed + "&format=csv", "/v1/meteogram.svg?latitude=39.3&longitude=-8", "/v1/cycles"] {
                let (reply, headers) = try await server.send(.GET, path)
                XCTAssertEqual(reply.status, 200, path)
                let tag = try XCTUnwrap(headers["etag"], path)
                XCTAssertTrue(tag.hasPrefix("W/\"") && tag.hasSuffix("\""), tag)
                XCTAssertEqual(headers["vary"], "Accept-Encoding", path)
                let control = try XCTUnwrap(headers["cache-control"], path)
                let age = try XCTUnwrap(Int(control.replacingOccurrences(of: "public, max-age=", with: "")), control)
                // The fixed window: until the next cycle is due; the meteogram and the
                // cycles' ages also move with the quarter hour and the minute.
                if path.hasPrefix("/v1/forecast") {
                    XCTAssertEqual(age, 600, path)
                    XCTAssertEqual(headers["last-modified"], httpDate(published), path)
                } else {
                    XCTAssertTrue(age >= 0 && age <= 600, "\(path): \(age)")
                }
            }
            // The limit, and an overdue cycle's short age.
            clock.set(published + 7 * 3600)
            let (_, overdue) = try await server.send(.GET, Self.fixed)
            XCTAssertEqual(overdue["cache-control"], "public, max-age=60")
            clock.set(published + 60)
            let (_, fresh) = try await server.send(.GET, Self.fixed)
            XCTAssertEqual(fresh["cache-control"], "public, max-age=3600")
        }
        var limited = configuration(store, clock: TestClock(published + 60))
        limited.maxAge = 120
        try await LiveServer.with(limited) { server in
            let (_, headers) = try await server.send(.GET, Self.fixed)
            XCTAssertEqual(headers["cache-control"], "public, max-age=120")
        }
    }

    func testMatchingValidatorsGet304AndOthersTheAnswer() async throws {
        let directory = try TemporaryDirectory()
        let store = try StoreMaker.extractBaseline(into: directory)
        let published = try publishedAt(store)
        try await LiveServer.with(configuration(store, clock: TestClock(published + 60))) { server in
            let (first, headers) = try await server.send(.GET, Self.fixed)
            XCTAssertEqual(first.status, 200)
            let tag = try XCTUnwrap(headers["etag"])
            let strong = String(tag.dropFirst(2))
            for validator in [tag, strong, "\"other\", \(tag)", "*"] {
                let (reply, again) = try await server.send(.GET, Self.fixed, headers: [("If-None-Match", validator)])
                XCTAssertEqual(reply.status, 304, validator)
                XCTAssertEqual(reply.body, "", validator)
                XCTAssertEqual(again["etag"], tag, validator)
                XCTAssertNotNil(again["cache-control"], validator)
            }
            let (head, _) = try await server.send(.HEAD, Self.fixed, headers: [("If-None-Match", tag)])
            XCTAssertEqual(head.status, 304)
            let (other, _) = try await server.send(.GET, Self.fixed, headers: [("If-None-Match", "W/\"0000000000000000\"")])
            XCTAssertEqual(other.status, 200)
            XCTAssertEqual(other.body, first.body.replacingGenerationTime(with: other.body))
            // Another request's tag is not this one's.
            let (_, otherRequest) = try await server.send(.GET, Self.fixed.replacingOccurrences(of: "39.3", with: "39.4"))
            XCTAssertNotEqual(otherRequest["etag"], tag)
            let (changed, _) = try await server.send(.GET, Self.fixed.replacingOccurrences(of: "39.3", with: "39.4"), headers: [("If-None-Match", tag)])
            XCTAssertEqual(changed.status, 200)
            // If-Modified-Since: at or after Last-Modified is 304, before it the answer;
            // If-None-Match, when sent, decides alone.
            let (since, _) = try await server.send(.GET, Self.fixed, headers: [("If-Modified-Since", httpDate(published))])
            XCTAssertEqual(since.status, 304)
            let (before, _) = try await server.send(.GET, Self.fixed, headers: [("If-Modified-Since", httpDate(published - 1))])
            XCTAssertEqual(before.status, 200)
            let (both, _) = try await server.send(.GET, Self.fixed, headers: [("If-None-Match", "W/\"nope\""), ("If-Modified-Since", httpDate(published + 10))])
            XCTAssertEqual(both.status, 200)
            // gzip and identity bodies have different tags.
            let (_, zipped) = try await server.send(.GET, Self.fixed, headers: [("Accept-Encoding", "gzip")])
            XCTAssertEqual(zipped["content-encoding"], "gzip")
            XCTAssertNotEqual(zipped["etag"], tag)
            let (crossed, _) = try await server.send(.GET, Self.fixed, headers: [("Accept-Encoding", "gzip"), ("If-None-Match", tag)])
            XCTAssertEqual(crossed.status, 200)
            // POST: the same parameters as a form body.
            let form = String(Self.fixed.split(separator: "?")[1])
            let (posted, postedHeaders) = try await server.send(.POST, "/v1/forecast", headers: [("Content-Type", "application/x-www-form-urlencoded")], body: form)
            XCTAssertEqual(posted.status, 200)
            let postedTag = try XCTUnwrap(postedHeaders["etag"])
            let (post304, _) = try await server.send(.POST, "/v1/forecast", headers: [("Content-Type", "application/x-www-form-urlencoded"), ("If-None-Match", postedTag)], body: form)
            XCTAssertEqual(post304.status, 304)
        }
    }

    /// OpenWeatherMap's paths carry the same validators; their times follow the clock in their
    /// own steps (the current weather's quarter hour, One Call's minute).
    func testOpenWeatherMapAnswersAreCachedAlike() async throws {
        let directory = try TemporaryDirectory()
        let store = try StoreMaker.extractBaseline(into: directory)
        let clock = TestClock(baselineNow)
        try await LiveServer.with(configuration(store, clock: clock)) { server in
            let weather = "/data/2.5/weather?lat=39.3&lon=-8&units=metric"
            let (first, headers) = try await server.send(.GET, weather)
            XCTAssertEqual(first.status, 200, first.body)
            let tag = try XCTUnwrap(headers["etag"])
            XCTAssertEqual(headers["cache-control"], "public, max-age=300", "02:10Z: the quarter hour ends at 02:15Z")
            let (again, _) = try await server.send(.GET, weather, headers: [("If-None-Match", tag)])
            XCTAssertEqual(again.status, 304)
            let onecall = "/data/3.0/onecall?lat=39.3&lon=-8"
            let (_, call) = try await server.send(.GET, onecall)
            XCTAssertEqual(call["cache-control"], "public, max-age=60")
            clock.set(baselineNow + 6 * 60)
            let (later, laterHeaders) = try await server.send(.GET, weather, headers: [("If-None-Match", tag)])
            XCTAssertEqual(later.status, 200, "a new quarter hour: a new answer")
            XCTAssertNotEqual(laterHeaders["etag"], tag)
        }
    }

    /// The tag moves with the store's publications and nothing else; two servers reading one
    /// store give one request one tag.
    func testTagChangesWhenACycleIsPublishedOrPrunedAndNotOtherwise() async throws {
        let directory = try TemporaryDirectory()
        let store = try StoreMaker.shiftedCycles(starts: [0, 12], keep: 3, into: directory)
        let clock = TestClock(baselineNow)
        func tag(_ path: String = HTTPCachingTests.fixedShifted) async throws -> String {
            var found = ""
            try await LiveServer.with(configuration(store, clock: clock)) { server in
                let (reply, headers) = try await server.send(.GET, path)
                XCTAssertEqual(reply.status, 200)
                found = try XCTUnwrap(headers["etag"])
            }
            return found
        }
        var seen: Set<String> = []
        let first = try await tag()
        seen.insert(first)
        try await LiveServer.with(configuration(store, clock: clock)) { server in
            var tags: Set<String> = []
            for _ in 0..<3 {
                _ = try await server.send(.GET, Self.relative)
                let (_, headers) = try await server.send(.GET, Self.fixedShifted)
                tags.insert(try XCTUnwrap(headers["etag"]))
            }
            XCTAssertEqual(tags, [first], "the same store, other requests between: one tag")
        }
        // A newer cycle published.
        try StoreMaker.extractShifted(start: 24, keep: 3, into: directory, store: store)
        let published = try await tag()
        XCTAssertFalse(seen.contains(published), "a publication changes the tag")
        seen.insert(published)
        // An older cycle filed between the others with --keep 3: the oldest (start 0) is pruned,
        // `latest` stays: the kept cycles changed, so does the tag.
        try StoreMaker.extractShifted(start: 6, keep: 3, into: directory, store: store)
        let pruned = try await tag()
        XCTAssertFalse(seen.contains(pruned), "a prune changes the tag")
        let again = try await tag()
        XCTAssertEqual(again, pruned, "and then holds")
    }

    static let fixedShifted = "/v1/forecast?latitude=39.3&longitude=-8&hourly=temperature_2m&start_date=2026-11-22&end_date=2026-11-24"

    /// A window counted from today changes at the zone's local midnight; `current` at each
    /// quarter hour; a fixed window with the clock never.
    func testTagMovesWithTheClockOnlyForRelativeWindows() async throws {
        let directory = try TemporaryDirectory()
        let store = try StoreMaker.extractBaseline(into: directory)
        // 2026-11-22T02:10Z; Lisbon is UTC+0 in November, Kolkata UTC+5:30 (midnight 18:30Z).
        let clock = TestClock(baselineNow)
        try await LiveServer.with(configuration(store, clock: clock)) { server in
            func tagAndAge(_ path: String) async throws -> (String, Int) {
                let (reply, headers) = try await server.send(.GET, path)
                XCTAssertEqual(reply.status, 200, path)
                let age = Int((headers["cache-control"] ?? "").replacingOccurrences(of: "public, max-age=", with: "")) ?? -1
                return (try XCTUnwrap(headers["etag"]), age)
            }
            let kolkata = Self.relative + "&timezone=Asia/Kolkata"
            let current = "/v1/forecast?latitude=39.3&longitude=-8&current=temperature_2m"
            let (fixed0, _) = try await tagAndAge(Self.fixed)
            let (day0, dayAge0) = try await tagAndAge(Self.relative)
            let (india0, indiaAge0) = try await tagAndAge(kolkata)
            let (now0, nowAge0) = try await tagAndAge(current)
            XCTAssertLessThanOrEqual(dayAge0, 3600)
            XCTAssertEqual(indiaAge0, 3600, "Kolkata's midnight is 16 h 20 min away")
            XCTAssertEqual(nowAge0, 5 * 60, "02:10Z: the quarter hour ends at 02:15Z")
            // forecast_hours counts from the local hour (issue 47): Lisbon's next at 03:00Z,
            // Kolkata's (07:40 local) at 02:30Z, so it may be kept 20 minutes only.
            let hours = "/v1/forecast?latitude=39.3&longitude=-8&hourly=temperature_2m&forecast_hours=3"
            let (_, hoursAge) = try await tagAndAge(hours)
            XCTAssertEqual(hoursAge, 50 * 60, "02:10Z: Lisbon's hour ends at 03:00Z")
            let (_, indiaHoursAge) = try await tagAndAge(hours + "&timezone=Asia/Kolkata")
            XCTAssertLessThanOrEqual(indiaHoursAge, 20 * 60, "Kolkata's hour ends at 02:30Z")
            // 02:14Z: the same quarter hour and day.
            clock.set(baselineNow + 4 * 60)
            let (now1, _) = try await tagAndAge(current)
            XCTAssertEqual(now1, now0)
            // 02:16Z: a new quarter hour; the day is the same.
            clock.set(baselineNow + 6 * 60)
            let (now2, _) = try await tagAndAge(current)
            XCTAssertNotEqual(now2, now0)
            let tag1 = try await tagAndAge(Self.relative).0
            XCTAssertEqual(tag1, day0)
            // 18:29Z: Kolkata's day ends in a minute.
            clock.set(baselineNow + 16 * 3600 + 19 * 60)
            let (india1, indiaAge1) = try await tagAndAge(kolkata)
            XCTAssertEqual(india1, india0)
            XCTAssertEqual(indiaAge1, 60)
            let tag2 = try await tagAndAge(Self.relative).0
            XCTAssertEqual(tag2, day0)
            // 18:31Z: a new day in Kolkata, not yet in Lisbon.
            clock.set(baselineNow + 16 * 3600 + 21 * 60)
            let tag3 = try await tagAndAge(kolkata).0
            XCTAssertNotEqual(tag3, india0)
            let tag4 = try await tagAndAge(Self.relative).0
            XCTAssertEqual(tag4, day0)
            // The next day in Lisbon (GMT by default): a new tag; the fixed window never moves.
            clock.set(baselineNow + 22 * 3600)
            let tag5 = try await tagAndAge(Self.relative).0
            XCTAssertNotEqual(tag5, day0)
            let tag6 = try await tagAndAge(Self.fixed).0
            XCTAssertEqual(tag6, fixed0)
        }
    }
}

extension StoreMaker {
    /// The sample d01 run filed as a cycle `start` hours after its own start, into `store`.
    static func extractShifted(start: Int, keep: Int, into directory: TemporaryDirectory, store: String) throws {
        let source = Repository.sampleGrids.appendingPathComponent("wrfout_d01_2026-11-22_00:00:00").path
        let folder = directory.path("run-\(start)")
        let shift = try runTool("python3", [Repository.root.appendingPathComponent("Scripts/shift_run.py").path, source, folder, String(start)])
        XCTAssertEqual(shift.status, 0, shift.stderr)
        let extract = try run(["extract", folder, "--store", store, "--keep", String(keep), "--quiet"])
        XCTAssertEqual(extract.status, 0, extract.stderr)
    }
}

private extension String {
    /// This answer with another's `generationtime_ms` (the one field that differs between two
    /// makings of one answer).
    func replacingGenerationTime(with other: String) -> String {
        func time(_ text: String) -> String? {
            guard let range = text.range(of: "\"generationtime_ms\":[0-9.]+", options: .regularExpression) else { return nil }
            return String(text[range])
        }
        guard let mine = time(self), let theirs = time(other) else { return self }
        return replacingOccurrences(of: mine, with: theirs)
    }
}

/// The build behind the ETags (issue 48): the version and the running executable's CRC-32, so a
/// new build with the same version never answers a cache's old tag with a 304.
final class BuildIdentityTests: XCTestCase {
    func testIdentityIsTheVersionAndTheExecutablesChecksum() throws {
        let identity = BuildIdentity.current
        let parts = identity.split(separator: "+")
        guard parts.count == 2 else { return XCTFail("no checksum in \(identity)") }
        // zlib.crc32 in Python over the same file, read by this process's id.
        let pid = ProcessInfo.processInfo.processIdentifier
        let result = try runTool("python3", ["-c", "import sys, zlib; print(format(zlib.crc32(open(sys.argv[1], 'rb').read()), 'x'))",
                                             "/proc/\(pid)/exe"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(String(parts[1]), result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
