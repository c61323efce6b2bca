import ArgumentParser
import Catalog
import Foundation
import ObjectStore
import TileCastCommandLine
import TileCastServer
import TileStore

/// The server's own executable. `tilecast serve ARGS` runs it (it sits beside `tilecast`):
/// linking Hummingbird and SwiftNIO into `tilecast` itself made every `tilecast query` start
/// about 1 ms slower (benchmark B4, benchmarks/RESULTS.md), so the command line stays small
/// and the server is a second binary.
@main
struct ServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tilecast serve",
        abstract: "Serve Open-Meteo's /v1/forecast API from the store (also /health, /metrics).",
        discussion: """
        Answers GET /v1/forecast?latitude=..&longitude=..&hourly=..&daily=.. as Open-Meteo does (JSON or format=csv; errors as HTTP 400 {"error": true, "reason": ...}), with the numbers `tilecast query` prints. Each request follows the store's `latest` link: a cycle published by `tilecast extract` is served from the next request on, without a restart. GET /health is 200 once a cycle is open (503 before); GET /metrics is Prometheus text. SIGTERM or SIGINT stops it after the requests in flight. One log line per request on stderr. The API: docs/openapi.yaml.

        A remote store (s3://BUCKET/PREFIX, or http(s):// for a store folder behind a web server, see `tilecast publish`) is read with ranged requests into a memory cache; name its models with --model, and its latest is looked at in the background every --poll-seconds (never inside a request: a slow or dead object server does not hold up forecasts, /health or /metrics). If a new latest cannot be opened, the cycle being served stays, and /health says why and since when. A user and password written in an http(s) store's address, before its host, are sent as HTTP Basic auth and never printed.

        Example:
          tilecast serve --store /tmp/s --port 8080
          tilecast serve --store s3://forecasts/tilecast --model wrf --s3-endpoint http://127.0.0.1:9000
          curl 'http://127.0.0.1:8080/v1/forecast?latitude=38.72&longitude=-9.14&hourly=temperature_2m'
        """,
        // `tilecast serve --version` (and tilecast-server's): the same version as `tilecast --version`.
        version: TileCastVersion.current
    )

    @Option(help: "The store folder, or a remote store: s3://BUCKET/PREFIX, https://HOST/PATH.")
    var store: String

    @Option(help: "A model of a remote store to serve (repeat for several).")
    var model: [String] = []

    @Option(help: "Seconds between looks at a remote store's latest.")
    var pollSeconds: Double = 30

    @Option(help: "Memory for a remote store's blocks, MiB per domain file.")
    var cacheMb: Int = 64

    @Option(help: "S3 endpoint of an s3:// store (default: AWS_ENDPOINT_URL, else AWS's own).")
    var s3Endpoint: String?

    @Option(help: "S3 region of an s3:// store (default: AWS_REGION, the shared config, us-east-1).")
    var s3Region: String?

    @Option(help: "Address to listen on.")
    var host: String = "127.0.0.1"

    @Option(help: "Port to listen on (0: any free port, printed on stderr).")
    var port: Int = 8080

    @Option(help: "A CSV of named places for the page (header name,latitude,longitude).")
    var places: String?

    @Option(help: ArgumentHelp("Where each request's line goes: - (standard error, the default), off, or a file (appended). Lines are written in batches, every 100 ms.",
                               valueName: "file|-|off"))
    var accessLog = "-"

    @Option(help: ArgumentHelp("A file of API keys, one a line (# comments): every API then refuses a request without one, in its own error shape (Open-Meteo's apikey=, OpenWeatherMap's appid=, QWeather's key=). Read again on SIGHUP. Keys are never logged.",
                               valueName: "file"))
    var apiKeys: String?

    @Option(help: "Hours between a model's cycles (the page warns, and /health says stale, when the newest is older than this plus --cycle-delay-hours).")
    var cycleIntervalHours: Double = 6

    @Option(help: ArgumentHelp("Warning rules (JSON, docs/WARNINGS.md; docs/warnings/mid-latitude.json is a start): /v1/warnings, and the page, then list the warnings in force and coming at a place. A bad file stops the server at start, naming its line.",
                               valueName: "file"))
    var warnings: String?

    @Option(help: "Hours after its start that a cycle is usually published.")
    var cycleDelayHours: Double = 4

    @Option(help: "Cycles a chance of rain is the mean of: the newest N kept cycles covering each hour (a lagged ensemble; 4 is a day of six-hourly runs, 1 the newest run's own neighbourhood probability).")
    var members: Int = 4  // LaggedMembers.defaultCount

    @Option(help: "Longest Cache-Control max-age of an answer, in seconds (0: caches revalidate every time); shorter when the next cycle is due sooner (--cycle-interval-hours after the newest) or the answer moves with the clock (current, forecast_hours, days counted from today).")
    var maxAge: Int = 3600

    @Option(help: "Forecast requests computed at once; more get 503 at once.")
    var maxInFlight: Int = 64

    @Option(help: "On a remote store (s3://, https://): requests reading from the object server at once; more wait (within their deadline), requests of cached places never.")
    var maxRemoteReads: Int = 8

    @Option(help: "Connections held at once at most (lowered to fit the file-descriptor limit, which is raised to its hard limit at start).")
    var maxConnections: Int = 4096

    @Option(help: "MiB of answers held for clients that have not read them, all together; past it forecasts get 503.")
    var maxQueuedMb: Int = 96

    @Option(help: "Seconds a connection may take none of its answer's bytes before it is closed.")
    var writeTimeoutSeconds: Double = 30

    @Option(help: "Seconds a connection may stay without a request before it is closed.")
    var idleTimeoutSeconds: Double = 60

    static func main() async { await CommandLineMain.runAsync(Self.self) }

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port \(port): expected 0..65535") }
        guard (0...31_536_000).contains(maxAge) else { throw ValidationError("--max-age \(maxAge): expected seconds, 0 to 31536000 (a year)") }
        guard maxInFlight >= 1 else { throw ValidationError("--max-in-flight \(maxInFlight): expected 1 or more") }
        guard pollSeconds.isFinite, pollSeconds >= 0 else { throw ValidationError("--poll-seconds \(pollSeconds): expected 0 or more") }
        guard maxRemoteReads >= 1 else { throw ValidationError("--max-remote-reads \(maxRemoteReads): expected 1 or more") }
        guard maxConnections >= 1 else { throw ValidationError("--max-connections \(maxConnections): expected 1 or more") }
        guard maxQueuedMb >= 1, maxQueuedMb <= 1 << 20 else { throw ValidationError("--max-queued-mb \(maxQueuedMb): expected 1 to 1048576") }
        guard writeTimeoutSeconds.isFinite, writeTimeoutSeconds > 0, writeTimeoutSeconds <= 86_400 else {
            throw ValidationError("--write-timeout-seconds \(writeTimeoutSeconds): expected more than 0, at most 86400")
        }
        guard idleTimeoutSeconds.isFinite, idleTimeoutSeconds > 0, idleTimeoutSeconds <= 86_400 else {
            throw ValidationError("--idle-timeout-seconds \(idleTimeoutSeconds): expected more than 0, at most 86400")
        }
        guard cycleIntervalHours.isFinite, cycleIntervalHours > 0, cycleDelayHours.isFinite, cycleDelayHours >= 0 else {
            throw ValidationError("--cycle-interval-hours \(cycleIntervalHours), --cycle-delay-hours \(cycleDelayHours): expected hours, more than 0 and 0 or more")
        }
        guard (1...64).contains(members) else { throw ValidationError("--members \(members): expected 1 to 64 cycles") }
        guard cacheMb >= 1 else { throw ValidationError("--cache-mb \(cacheMb): expected 1 or more") }
        if RemoteLocation.isRemote(store) {
            guard !model.isEmpty else { throw ValidationError("--model: a remote store (\(StoreAddress.redacted(store))) cannot be listed; name the models to serve") }
        } else if !model.isEmpty || s3Endpoint != nil || s3Region != nil {
            throw ValidationError("--model, --s3-endpoint and --s3-region apply to a remote store (s3://, https://) only")
        }
    }

    func run() async throws {
        // Before anything opens a descriptor: a server at the soft limit (systemd's default
        // 1024) crashes in libdispatch rather than refusing (`DescriptorLimit`).
        _ = DescriptorLimit.raiseToHard()
        // The time-zone table (timezone=auto), read now: without it the server does not start,
        // rather than answer GMT for every place.
        if case .failure(let error) = TimeZoneTable.loaded { throw Failure(.badUsage, error.description) }
        // The gazetteer (/v1/search, the page's place search) likewise.
        if case .failure(let error) = Gazetteer.loaded { throw Failure(.badUsage, error.description) }
        var configuration = ServerConfiguration(storeRoot: store, host: host, port: port)
        configuration.maxInFlight = maxInFlight
        configuration.maxAge = maxAge
        configuration.schedule = CycleSchedule(intervalHours: cycleIntervalHours, delayHours: cycleDelayHours)
        configuration.members = members
        if let warnings {
            do throws(WarningRulesError) { configuration.warningRules = try WarningRules.read(path: warnings) } catch {
                throw Failure(.badUsage, "--warnings \(error)")
            }
        }
        configuration.maxConnections = maxConnections
        configuration.maxRemoteReads = maxRemoteReads
        configuration.maxQueuedBytes = maxQueuedMb << 20
        configuration.writeTimeout = .milliseconds(Int64(writeTimeoutSeconds * 1000))
        configuration.idleTimeout = .milliseconds(Int64(idleTimeoutSeconds * 1000))
        if let places {
            do { configuration.places = try NamedPlace.read(path: places) } catch {
                throw Failure(.badUsage, "--places \(error)")
            }
        }
        do throws(AccessLogError) { configuration.accessLog = try AccessLog.open(AccessLogDestination(argument: accessLog)) } catch {
            throw Failure(.badUsage, "--access-log \(error)")
        }
        if let apiKeys {
            do throws(APIKeysError) { configuration.apiKeys = try APIKeys(path: apiKeys) } catch {
                throw Failure(.badUsage, "--api-keys \(error)")
            }
            if let keys = configuration.apiKeys { Self.reloadOnHangUp(keys) }
        }
        if RemoteLocation.isRemote(store) {
            let client: ObjectClient
            do throws(ObjectStoreError) { client = try ObjectClient(store: store, endpoint: s3Endpoint, region: s3Region) } catch {
                throw ValidationError(error.description)
            }
            let remote = RemoteCycles(client: client, models: model, pollInterval: pollSeconds, cacheBudget: cacheMb << 20)
            // The first look at every model's latest before listening (bounded: a dead store
            // is then served as 503s, and /health says why, until a later look succeeds).
            remote.startPolling(waitingUpTo: 15)
            configuration.remote = remote
        }
        let server = ForecastServer(configuration: configuration)
        if let keys = configuration.apiKeys {
            FileHandle.standardError.write(Data("tilecast: \(keys.count) API keys from \(keys.path); SIGHUP reads it again\n".utf8))
        }
        // The address as printed: a password in it never reaches the log.
        let store = StoreAddress.redacted(self.store), host = self.host
        let limits = "tilecast: at most \(server.ledger.maxConnections) connections (file-descriptor limit \(DescriptorLimit.current()))\n"
        do {
            try await server.run { port in
                // Two lines: scripts take the URL as the serving line's last word.
                FileHandle.standardError.write(Data((limits + "tilecast: serving \(store) on http://\(host):\(port)\n").utf8))
            }
        } catch {
            throw Failure(.badUsage, "serve on \(host):\(port): \(error)")
        }
    }

    /// SIGHUP reads the keys file again (`kill -HUP`, `systemctl reload`); a file that cannot be
    /// read leaves the keys as they were and says why. The source lives as long as the process.
    static func reloadOnHangUp(_ keys: APIKeys) {
        signal(SIGHUP, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGHUP, queue: .global())
        source.setEventHandler {
            do throws(APIKeysError) {
                let count = try keys.reload()
                FileHandle.standardError.write(Data("tilecast: SIGHUP: \(count) API keys from \(keys.path)\n".utf8))
            } catch {
                FileHandle.standardError.write(Data("tilecast: SIGHUP: \(error); the keys read before stay\n".utf8))
            }
        }
        source.resume()
        hangUpSource = source
    }
}

/// The SIGHUP source, kept for the process's life (a released source stops delivering). Set
/// once, at start, before the server listens; never read.
nonisolated(unsafe) private var hangUpSource: DispatchSourceSignal?
