import AsyncHTTPClient
import Foundation
import TestSupport
import XCTest

/// `tilecast serve` as an operator runs it: the real binaries, a port chosen by the system,
/// an answer, and SIGTERM ending it cleanly (exit 0).
final class ServeBinaryTests: XCTestCase {
    func testServeStartsAnswersAndStopsOnSIGTERM() async throws {
        let directory = try TemporaryDirectory("tilecast-serve-binary")
        let store = try StoreMaker.extractBaseline(into: directory)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try StoreMaker.tilecast())
        process.arguments = ["serve", "--store", store, "--port", "0"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        // The bound port is on stderr: "tilecast: serving STORE on http://127.0.0.1:PORT".
        var text = ""
        let deadline = Date().addingTimeInterval(30)
        while !text.contains("serving"), Date() < deadline, process.isRunning {
            let chunk = errors.fileHandleForReading.availableData
            if chunk.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
            text += String(decoding: chunk, as: UTF8.self)
        }
        let line = try XCTUnwrap(text.split(separator: "\n").first { $0.contains("serving") }, text)
        let base = try XCTUnwrap(line.split(separator: " ").last.map(String.init), text)
        XCTAssertTrue(base.hasPrefix("http://127.0.0.1:"), base)

        let server = LiveServer(base: base)
        let health = try await server.get("/health")
        XCTAssertEqual(health.status, 200, health.body)
        let reply = try await server.get("/v1/forecast?latitude=39.3&longitude=-8&hourly=temperature_2m&start_date=2026-11-22&end_date=2026-11-22")
        XCTAssertEqual(reply.status, 200, reply.body)

        process.terminate()  // SIGTERM
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .exit)
        XCTAssertEqual(process.terminationStatus, 0, text)
        let rest = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        // One access-log line per request.
        XCTAssertTrue((text + rest).contains("GET /v1/forecast?latitude=39.3&longitude=-8"), text + rest)
        XCTAssertTrue((text + rest).contains("GET /health 200"), text + rest)
    }

    /// `--access-log FILE`: each request's line lands in the file (appended, written in batches
    /// and at SIGTERM), none on standard error; `--access-log off` writes none anywhere; a file
    /// that cannot be opened stops the server before it listens (exit 2, the path named).
    func testAccessLogGoesToAFileOrNowhere() async throws {
        let directory = try TemporaryDirectory("tilecast-serve-access-log")
        let store = try StoreMaker.extractBaseline(into: directory)
        let bad = try StoreMaker.run(["serve", "--store", store, "--port", "0", "--access-log", directory.path("no/such/folder/log")])
        XCTAssertEqual(bad.status, 2, bad.stderr)
        XCTAssertTrue(bad.stderr.contains("no/such/folder/log: cannot write the access log"), bad.stderr)
        let file = directory.path("access.log")
        try "an earlier line\n".write(toFile: file, atomically: true, encoding: .utf8)
        for destination in [file, "off"] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: try StoreMaker.tilecast())
            process.arguments = ["serve", "--store", store, "--port", "0", "--access-log", destination]
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            defer { if process.isRunning { process.terminate() } }
            var text = ""
            let deadline = Date().addingTimeInterval(30)
            while !text.contains("serving"), Date() < deadline, process.isRunning {
                let chunk = errors.fileHandleForReading.availableData
                if chunk.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
                text += String(decoding: chunk, as: UTF8.self)
            }
            let line = try XCTUnwrap(text.split(separator: "\n").first { $0.contains("serving") }, text)
            let server = LiveServer(base: try XCTUnwrap(line.split(separator: " ").last.map(String.init)))
            for _ in 0..<3 { _ = try await server.get("/health") }
            let missing = try await server.get("/nowhere?apikey=s3cret")
            XCTAssertEqual(missing.status, 404)
            process.terminate()
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0, text)
            text += String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            XCTAssertFalse(text.contains("GET /health"), "no request line on standard error with --access-log \(destination): \(text)")
        }
        let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.first, "an earlier line", "appended, not replaced")
        XCTAssertEqual(lines.filter { $0.contains(" GET /health 200 ") }.count, 3, "\(lines)")
        let refused = try XCTUnwrap(lines.first { $0.contains("/nowhere") }, "\(lines)")
        // "2026-12-05T12:00:00Z GET /nowhere?apikey=*** 404 0.05ms"
        let words = refused.split(separator: " ")
        XCTAssertEqual(words.count, 5, String(refused))
        XCTAssertNotNil(ISO8601DateFormatter().date(from: String(words[0])), String(refused))
        XCTAssertEqual(words[1...3].joined(separator: " "), "GET /nowhere?apikey=*** 404")
        XCTAssertTrue(words[4].hasSuffix("ms"), String(refused))
        XCTAssertEqual(lines.count, 5, "the off run wrote nothing: \(lines)")
    }

    func testServeWithoutStoreIsUsage() throws {
        let result = try StoreMaker.run(["serve"])
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("--store"), result.stderr)
    }

    /// A bad `--places` file stops the server before it listens: exit 2, the file and line named.
    func testBadPlacesFileNamesTheLine() throws {
        let directory = try TemporaryDirectory("tilecast-serve-places")
        let store = try StoreMaker.extractBaseline(into: directory)
        let cases: [(String, String)] = [
            ("name,latitude,longitude\nPorto,41.15,-8.63\nLisbon,north,-9.14\n", "places.csv:3: latitude \"north\""),
            ("name,latitude,longitude\nPorto,41.15,-8.63\n,38.72,-9.14\n", "places.csv:3: no name"),
            ("city,x,y\nPorto,41.15,-8.63\n", "places.csv:1: the header must name lat and lon"),
        ]
        for (text, expected) in cases {
            let file = directory.path("places.csv")
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            let result = try StoreMaker.run(["serve", "--store", store, "--port", "0", "--places", file])
            XCTAssertEqual(result.status, 2, result.stderr)
            XCTAssertTrue(result.stderr.contains(expected), "expected \(expected) in: \(result.stderr)")
        }
        let missing = try StoreMaker.run(["serve", "--store", store, "--port", "0", "--places", directory.path("nowhere.csv")])
        XCTAssertEqual(missing.status, 2, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("nowhere.csv: points file not found"), missing.stderr)
    }
}
