import ArgumentParser
import Foundation
import TileCastServer

/// The server's own executable. `tilecast serve ARGS` runs it (it sits beside `tilecast`):
/// linking Hummingbird and SwiftNIO into `tilecast` itself made every `tilecast query` start
/// about 1 ms slower (B4), so the command line stays small and the server is a second binary.
@main
struct ServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tilecast serve",
        abstract: "Serve Open-Meteo's /v1/forecast API from the store (also /health, /metrics).",
        discussion: """
        Answers GET /v1/forecast?latitude=..&longitude=..&hourly=..&daily=.. as Open-Meteo
        does (JSON or format=csv; errors as HTTP 400 {"error": true, "reason": ...}), with the
        numbers `tilecast query` prints. Each request follows the store's `latest` link: a
        cycle published by `tilecast extract` is served from the next request on, without a
        restart. GET /health is 200 once a cycle is open (503 before); GET /metrics is
        Prometheus text. SIGTERM or SIGINT stops it after the requests in flight. One log line
        per request on stderr. The API: docs/openapi.yaml.

        Example:
          tilecast serve --store /tmp/s --port 8080
          curl 'http://127.0.0.1:8080/v1/forecast?latitude=38.72&longitude=-9.14&hourly=temperature_2m'
        """
    )

    @Option(help: "The store folder.")
    var store: String

    @Option(help: "Address to listen on.")
    var host: String = "127.0.0.1"

    @Option(help: "Port to listen on (0: any free port, printed on stderr).")
    var port: Int = 8080

    @Option(help: "A CSV of named places for the page (header name,latitude,longitude).")
    var places: String?

    @Option(help: "Forecast requests computed at once; more get 503 at once.")
    var maxInFlight: Int = 64

    /// As `tilecast`'s main: usage errors are exit 2 (SPEC 5), messages on stderr.
    static func main() async {
        do {
            var command = try parse()
            try await command.run()
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                print(fullMessage(for: error))
                Foundation.exit(0)
            }
            let message = fullMessage(for: error)
            if !message.isEmpty { FileHandle.standardError.write(Data("\(message)\n".utf8)) }
            Foundation.exit(code == .validationFailure ? 2 : code.rawValue)
        }
    }

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port \(port): expected 0..65535") }
        guard maxInFlight >= 1 else { throw ValidationError("--max-in-flight \(maxInFlight): expected 1 or more") }
    }

    func run() async throws {
        var configuration = ServerConfiguration(storeRoot: store, host: host, port: port)
        configuration.maxInFlight = maxInFlight
        if let places {
            do { configuration.places = try NamedPlace.read(path: places) } catch {
                FileHandle.standardError.write(Data("tilecast: error: --places \(error)\n".utf8))
                throw ExitCode(2)
            }
        }
        let server = ForecastServer(configuration: configuration)
        let store = self.store, host = self.host
        do {
            try await server.run { port in
                FileHandle.standardError.write(Data("tilecast: serving \(store) on http://\(host):\(port)\n".utf8))
            }
        } catch {
            FileHandle.standardError.write(Data("tilecast: error: serve on \(host):\(port): \(error)\n".utf8))
            throw ExitCode(2)
        }
    }
}
