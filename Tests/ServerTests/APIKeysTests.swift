import Foundation
import TestSupport
import TileCastServer
import XCTest

/// `serve --api-keys FILE` (issue 45): with it every API refuses a missing or unknown key in its
/// own shape, the page and operations need none, SIGHUP reads the file again, and no key
/// reaches the access log; without it keys are ignored (every other test).
final class APIKeysTests: XCTestCase {
    static let forecast = "/v1/forecast?latitude=39.3&longitude=-8&hourly=temperature_2m&start_date=2026-11-22&end_date=2026-11-22"
    static let weather = "/data/2.5/weather?lat=39.3&lon=-8&units=metric"
    static let qWeather = "/v7/weather/24h?location=-8,39.3&lang=en"

    func testEachAPIRefusesAMissingOrUnknownKeyInItsOwnShape() async throws {
        let directory = try TemporaryDirectory("tilecast-api-keys")
        let store = try StoreMaker.extractBaseline(into: directory)
        let file = directory.path("keys")
        try "# the centre's apps\nalpha-1\n\n  beta-2\t\n".write(toFile: file, atomically: true, encoding: .utf8)
        var settings = configuration(store)
        let keys = try APIKeys(path: file)
        XCTAssertEqual(keys.count, 2)
        settings.apiKeys = keys
        try await LiveServer.with(settings) { server in
            for suffix in ["", "&apikey=", "&apikey=gamma", "&apikey=alpha"] {
                let refused = try await server.get(Self.forecast + suffix)
                XCTAssertEqual(refused.status, 401, suffix)
                XCTAssertEqual(refused.object?["error"] as? Bool, true, refused.body)
                XCTAssertTrue((refused.object?["reason"] as? String ?? "").contains("apikey"), refused.body)
                XCTAssertFalse(refused.body.contains("alpha-1"), "the answer names no key")
            }
            for key in ["alpha-1", "beta-2"] {
                let answered = try await server.get(Self.forecast + "&apikey=" + key)
                XCTAssertEqual(answered.status, 200, answered.body)
            }
            let svg = try await server.get("/v1/meteogram.svg?latitude=39.3&longitude=-8")
            XCTAssertEqual(svg.status, 401, "the meteogram is Open-Meteo's side of the API")
            for suffix in ["", "&appid=nope"] {
                let refused = try await server.get(Self.weather + suffix)
                XCTAssertEqual(refused.status, 401, suffix)
                XCTAssertEqual(refused.object?["cod"] as? String, "401", refused.body)
                XCTAssertTrue((refused.object?["message"] as? String ?? "").hasPrefix("Invalid API key"), refused.body)
            }
            try await expect(server, Self.weather + "&appid=beta-2", 200)
            for suffix in ["", "&key=", "&key=alpha-1x"] {
                let refused = try await server.get(Self.qWeather + suffix)
                XCTAssertEqual(refused.status, 401, suffix)
                XCTAssertEqual(refused.contentType, "application/problem+json", refused.body)
                let error = refused.object?["error"] as? [String: Any]
                XCTAssertEqual(error?["status"] as? Int, 401, refused.body)
                XCTAssertEqual(error?["title"] as? String, "Unauthorized", refused.body)
            }
            try await expect(server, Self.qWeather + "&key=alpha-1", 200)
            // The page, health and metrics need no key.
            for path in ["/", "/health", "/metrics"] {
                try await expect(server, path, 200)
            }
            // A new file, read again (what SIGHUP does): the old keys go, the new one comes.
            try "delta-4\n".write(toFile: file, atomically: true, encoding: .utf8)
            XCTAssertEqual(try keys.reload(), 1)
            try await expect(server, Self.forecast + "&apikey=alpha-1", 401)
            try await expect(server, Self.forecast + "&apikey=delta-4", 200)
            // A broken file leaves the keys as they were.
            try "delta-4\ntwo keys\n".write(toFile: file, atomically: true, encoding: .utf8)
            XCTAssertThrowsError(try keys.reload()) { error in
                XCTAssertEqual((error as? APIKeysError)?.description, "\(file):2: expected one key a line, without spaces")
            }
            try await expect(server, Self.forecast + "&apikey=delta-4", 200)
        }
    }

    func testKeysAreRedactedFromLoggedTargets() {
        XCTAssertEqual(APIKeys.redacted("/v1/forecast?latitude=1&apikey=s3cret&hourly=t"), "/v1/forecast?latitude=1&apikey=***&hourly=t")
        XCTAssertEqual(APIKeys.redacted("/data/2.5/weather?appid=abc&lat=1"), "/data/2.5/weather?appid=***&lat=1")
        XCTAssertEqual(APIKeys.redacted("/v7/weather/now?location=1,2&key=k1"), "/v7/weather/now?location=1,2&key=***")
        XCTAssertEqual(APIKeys.redacted("/v2.5/TOKEN123/-8,39/weather?token=x"), "/v2.5/***/-8,39/weather?token=***")
        XCTAssertEqual(APIKeys.redacted("/v1/forecast?latitude=1&monkey=2"), "/v1/forecast?latitude=1&monkey=2")
    }

    /// The real binary: a bad file stops it before it listens (exit 2, the line named); SIGHUP
    /// reads the file again; the access log never shows a key.
    func testServeReadsTheFileAgainOnSIGHUPAndNeverLogsAKey() async throws {
        let directory = try TemporaryDirectory("tilecast-api-keys-binary")
        let store = try StoreMaker.extractBaseline(into: directory)
        let file = directory.path("keys")
        try "one key per line? no\n".write(toFile: file, atomically: true, encoding: .utf8)
        let bad = try StoreMaker.run(["serve", "--store", store, "--port", "0", "--api-keys", file])
        XCTAssertEqual(bad.status, 2, bad.stderr)
        XCTAssertTrue(bad.stderr.contains("keys:1: expected one key a line"), bad.stderr)

        try "first-secret-key\n".write(toFile: file, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try StoreMaker.tilecast())
        process.arguments = ["serve", "--store", store, "--port", "0", "--api-keys", file]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        var text = ""
        func read(until needle: String) async throws {
            let deadline = Date().addingTimeInterval(30)
            while !text.contains(needle), Date() < deadline, process.isRunning {
                let chunk = errors.fileHandleForReading.availableData
                if chunk.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
                text += String(decoding: chunk, as: UTF8.self)
            }
        }
        try await read(until: "serving")
        XCTAssertTrue(text.contains("1 API keys from \(file)"), text)
        let line = try XCTUnwrap(text.split(separator: "\n").first { $0.contains("serving") }, text)
        let server = LiveServer(base: try XCTUnwrap(line.split(separator: " ").last.map(String.init)))
        let allowed = try await server.get(Self.forecast + "&apikey=first-secret-key")
        XCTAssertEqual(allowed.status, 200, allowed.body)
        let missing = try await server.get(Self.forecast)
        XCTAssertEqual(missing.status, 401, missing.body)

        // The server may be serving as the file changes; SIGHUP is when it reads it.
        try "second-secret-key\nthird-secret-key\n".write(toFile: file, atomically: true, encoding: .utf8)
        kill(process.processIdentifier, SIGHUP)
        try await read(until: "SIGHUP: 2 API keys")
        let dropped = try await server.get(Self.forecast + "&apikey=first-secret-key")
        XCTAssertEqual(dropped.status, 401, dropped.body)
        // Past the key check: the binary's clock is today's, after the sample run, so the
        // current weather is OpenWeatherMap's 404, not the 401.
        let added = try await server.get(Self.weather + "&appid=third-secret-key")
        XCTAssertEqual(added.status, 404, added.body)

        process.terminate()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, text)
        text += String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(text.contains("apikey=***"), text)
        XCTAssertTrue(text.contains("appid=***"), text)
        XCTAssertFalse(text.contains("secret-key"), "a key reached the log:\n\(text)")
    }

    /// `path`'s status from `server` is `status`.
    private func expect(_ server: LiveServer, _ path: String, _ status: Int, line: UInt = #line) async throws {
        let reply = try await server.get(path)
        XCTAssertEqual(reply.status, status, "\(path): \(reply.body.prefix(200))", line: line)
    }
}
