import Foundation
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Real servers for the object-store tests, started on 127.0.0.1 and stopped when released:
/// nginx serving a folder, moto's S3 server (checking SigV4), and the fault proxy.
final class Peer {
    let process: Process
    let port: Int
    let folder: TemporaryDirectory

    init(process: Process, port: Int, folder: TemporaryDirectory) {
        self.process = process
        self.port = port
        self.folder = folder
    }

    var address: String { "http://127.0.0.1:\(port)" }

    /// Stops the server (SIGKILL: as a crash would).
    func kill() {
        guard process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    /// A free TCP port on loopback (bound, read, released).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, size) == 0 && getsockname(fd, $0, &size) == 0 }
        }
        guard bound else { throw XCTSkip("no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Waits until something accepts connections on the port.
    static func waitForPort(_ port: Int, process: Process, seconds: Double = 20) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = UInt16(port).bigEndian
            let connected = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
            close(fd)
            if connected { return }
            if !process.isRunning { throw NSError(domain: "Peer", code: 1, userInfo: [NSLocalizedDescriptionKey: "server exited (\(process.terminationStatus))"]) }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw NSError(domain: "Peer", code: 2, userInfo: [NSLocalizedDescriptionKey: "nothing listens on \(port)"])
    }

    static func launch(_ executable: String, _ arguments: [String], environment: [String: String] = [:], port: Int, folder: TemporaryDirectory) throws -> Peer {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        let log = folder.path("server.log")
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: log)
        try process.run()
        let peer = Peer(process: process, port: port, folder: folder)
        try waitForPort(port, process: process)
        return peer
    }

    /// nginx (Debian's) serving `root` with byte ranges, as a CDN or static host would.
    static func nginx(serving root: String) throws -> Peer {
        try nginx(name: "nginx") { port in
            """
            server {
                listen 127.0.0.1:\(port);
                root \(root);
                location / { }
            }
            """
        }
    }

    /// nginx with its scratch paths in a temporary folder, in the foreground, on a free port;
    /// `site` gives what goes inside `http { }` after them (upstreams, servers) for that port.
    static func nginx(name: String, site: (Int) -> String) throws -> Peer {
        guard let nginx = ["/usr/sbin/nginx", "/usr/bin/nginx"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw XCTSkip("nginx is not installed (Scripts/setup installs it)")
        }
        let folder = try TemporaryDirectory(name)
        let port = try freePort()
        let config = """
        daemon off;
        worker_processes 1;
        pid \(folder.path("nginx.pid"));
        error_log \(folder.path("error.log"));
        events { worker_connections 256; }
        http {
            access_log \(folder.path("access.log"));
            client_body_temp_path \(folder.path("body"));
            proxy_temp_path \(folder.path("proxy"));
            fastcgi_temp_path \(folder.path("fastcgi"));
            uwsgi_temp_path \(folder.path("uwsgi"));
            scgi_temp_path \(folder.path("scgi"));
        \(site(port))
        }
        """
        try config.write(toFile: folder.path("nginx.conf"), atomically: true, encoding: .utf8)
        return try launch(nginx, ["-c", folder.path("nginx.conf"), "-p", folder.url.path], port: port, folder: folder)
    }

    /// moto's standalone S3 server, checking every request's signature once set up, with a
    /// bucket; returns the server and the access keys moto issued.
    static func moto(bucket: String) throws -> (Peer, key: String, secret: String) {
        guard (try? runTool("python3", ["-c", "import moto.server, boto3"]))?.status == 0 else {
            throw XCTSkip("moto[server] is not installed (Scripts/setup installs Scripts/requirements.txt)")
        }
        let folder = try TemporaryDirectory("moto")
        let port = try freePort()
        let python = try runTool("python3", ["-c", "import sys; print(sys.executable)"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let peer = try launch(python, ["-m", "moto.server", "-H", "127.0.0.1", "-p", "\(port)"],
                              environment: ["INITIAL_NO_AUTH_ACTION_COUNT": "3", "S3_UPLOAD_PART_MIN_SIZE": "1024"], port: port, folder: folder)
        let setup = try runTool("python3", [here("moto_setup.py"), peer.address, bucket])
        let keys = setup.stdout.split(whereSeparator: \.isWhitespace).map(String.init)
        guard setup.status == 0, keys.count == 2 else {
            throw NSError(domain: "moto", code: 1, userInfo: [NSLocalizedDescriptionKey: "moto setup failed: \(setup.stderr)"])
        }
        return (peer, keys[0], keys[1])
    }

    /// The fault proxy in front of `upstream` ("127.0.0.1:PORT"); `port` to reuse one.
    static func faultProxy(upstream: Int, port: Int? = nil) throws -> Peer {
        let folder = try TemporaryDirectory("proxy")
        let port = try port ?? freePort()
        let python = try runTool("python3", ["-c", "import sys; print(sys.executable)"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        return try launch(python, [here("fault_proxy.py"), "\(port)", "127.0.0.1:\(upstream)"], port: port, folder: folder)
    }

    /// Sets the proxy's next fault (see fault_proxy.py).
    func fault(_ mode: String, count: Int = -1, match: String = "", method: String = "", blocksOnly: Bool = false, interval: Double = 3600) throws {
        let url = "\(address)/__fault__?mode=\(mode)&count=\(count)&match=\(match.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")&method=\(method)&blocks=\(blocksOnly ? 1 : 0)&interval=\(interval)"
        let result = try runTool("curl", ["-sf", url])
        XCTAssertEqual(result.status, 0, "fault proxy control: \(result.stderr)")
    }

    /// A file beside this source file.
    static func here(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(name).path
    }
}

/// What a command printed and its exit status.
struct RunOutput {
    let status: Int32
    let stdout: String
    let stderr: String
}

/// Runs a built binary with extra environment variables.
@discardableResult
func runCommand(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> RunOutput {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    // Both pipes read at once (a chatty command must not block on a full pipe).
    let errData = Mutex<Data>(Data())
    let reader = Thread { errData.withLock { $0 = err.fileHandleForReading.readDataToEndOfFile() } }
    reader.start()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    while reader.isExecuting || !reader.isFinished { Thread.sleep(forTimeInterval: 0.005) }
    return RunOutput(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData.withLock { $0 }, as: UTF8.self))
}

import Synchronization

/// The sample run (SampleGrids: d01 and its d02 nest) extracted once into a local store.
enum SampleStore {
    static let model = "wrf"

    static func extract(into directory: TemporaryDirectory, name: String = "store") throws -> String {
        let store = directory.path(name)
        let result = try runCommand(try tilecastBinary(), ["extract"] + Repository.sampleGridFiles().filter { $0.contains("wrfout") }
                             + ["--store", store, "--model", model])
        XCTAssertEqual(result.status, 0, result.stderr)
        return store
    }
}
