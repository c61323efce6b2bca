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
