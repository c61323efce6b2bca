import ArgumentParser
import Dispatch
import Foundation
import TileCastServer

/// `tilecast serve`: the Open-Meteo-compatible forecast API over the store.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve Open-Meteo's /v1/forecast API from the store (also /health, /metrics).",
        discussion: """
        Answers GET /v1/forecast?latitude=..&longitude=..&hourly=..&daily=.. as Open-Meteo
        does, with the numbers `tilecast query` prints. Each request follows the store's
        `latest` link: a cycle published by `tilecast extract` is served from the next
        request on, without a restart. SIGTERM or SIGINT stops it after the requests in flight.

        Example:
          tilecast serve --store /tmp/s --port 8080
          curl 'http://127.0.0.1:8080/v1/forecast?latitude=38.72&longitude=-9.14&hourly=temperature_2m'
        """
    )

    @Option(help: "The store folder.")
    var store: String

    @Option(help: "Address to listen on (127.0.0.1 unless told otherwise).")
    var host: String = "127.0.0.1"

    @Option(help: "Port to listen on (0: any free port).")
    var port: Int = 8080

    @Option(help: "Forecast requests computed at once; more get 503.")
    var maxInFlight: Int = 64

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port \(port): expected 0..65535") }
        guard maxInFlight >= 1 else { throw ValidationError("--max-in-flight \(maxInFlight): expected 1 or more") }
    }

    func run() throws {
        var configuration = ServerConfiguration(storeRoot: store, host: host, port: port)
        configuration.maxInFlight = maxInFlight
        let server = ForecastServer(configuration: configuration)
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        // The command line is synchronous; the server is async: run it in a task and wait.
        Task {
            do {
                try await server.run { port in
                    FileHandle.standardError.write(Data("tilecast: serving \(store) on http://\(host):\(port)\n".utf8))
                }
            } catch {
                outcome.set(error)
            }
            done.signal()
        }
        done.wait()
        if let error = outcome.get() { throw Failure(code: Failure.usage, message: "serve: \(error)") }
    }
}

/// The server's error, handed from its task to the waiting command.
private final class Outcome: @unchecked Sendable {
    private var error: Error?
    private let lock = NSLock()
    func set(_ error: Error) { lock.withLock { self.error = error } }
    func get() -> Error? { lock.withLock { error } }
}
