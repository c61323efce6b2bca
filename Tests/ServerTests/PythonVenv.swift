import Foundation
import TestSupport
import XCTest

/// A Python virtual environment in TMPDIR holding exact versions of packages from PyPI, for the
/// tests that run Open-Meteo client libraries against the server. Kept between runs; when a
/// package is missing or at another version, the pinned ones are installed again. Its own
/// environment, because a library's dependencies must not change the system's Python for the
/// other tests (the official SDK brings urllib3-future, which shadows urllib3).
enum PythonVenv {
    /// The environment's python, with `pins` ("name" -> "version") installed. Skips the test,
    /// saying why, only when the environment cannot be made or PyPI refuses the packages.
    static func require(_ name: String, pins: [String: String]) throws -> String {
        let venv = FileManager.default.temporaryDirectory.appendingPathComponent(name).path
        let python = venv + "/bin/python"
        if FileManager.default.isExecutableFile(atPath: python), try installed(python, pins) {
            return python
        }
        let create = try runTool("python3", ["-m", "venv", venv])
        guard create.status == 0 else { throw XCTSkip("python3 -m venv \(venv) failed: \(create.stderr.prefix(300))") }
        let requirements = pins.keys.sorted().map { "\($0)==\(pins[$0] ?? "")" }
        let install = try runTool(python, ["-m", "pip", "install", "-q"] + requirements)
        guard install.status == 0 else {
            throw XCTSkip("PyPI refused \(requirements.joined(separator: " ")): \(install.stderr.prefix(300))")
        }
        guard try installed(python, pins) else {
            throw XCTSkip("pip installed \(requirements.joined(separator: " ")) but other versions are found in \(venv)")
        }
        return python
    }

    /// Whether every pinned distribution is installed at its version (importlib.metadata's view).
    private static func installed(_ python: String, _ pins: [String: String]) throws -> Bool {
        let check = "import json, sys\nfrom importlib.metadata import version\n"
            + "pins = json.loads(sys.argv[1])\n"
            + "try:\n    sys.exit(0 if all(version(n) == v for n, v in pins.items()) else 1)\n"
            + "except Exception:\n    sys.exit(1)\n"
        let encoded = String(decoding: try JSONSerialization.data(withJSONObject: pins), as: UTF8.self)
        return try runTool(python, ["-c", check, encoded]).status == 0
    }
}

/// The client libraries' pins, in one place: the tests install exactly these, and README's
/// list of the libraries checked names the same versions.
enum ClientLibraryPins {
    /// The official SDK: FlatBuffers, read by openmeteo-requests with openmeteo-sdk's schema.
    static let sdk = ["openmeteo-requests": "1.7.5", "openmeteo-sdk": "1.29.0"]
    /// Three JSON clients with no dependency in common that matters (aiohttp; requests; requests
    /// with pandas), in one environment: Home Assistant's `open-meteo`, `pyopenmeteo`,
    /// `openmeteo-python` (its import name is `openmeteo`).
    static let json = ["open-meteo": "1.0.1", "pyopenmeteo": "0.1.0", "openmeteo-python": "1.0.0"]

    static func sdkPython() throws -> String { try PythonVenv.require("tilecast-openmeteo-sdk-venv", pins: sdk) }
    static func jsonPython() throws -> String { try PythonVenv.require("tilecast-openmeteo-clients-venv", pins: json) }
}
