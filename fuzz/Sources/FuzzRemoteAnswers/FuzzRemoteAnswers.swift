// libFuzzer target: what a remote store (S3 or a web server) answers, as the reader takes it.
//
// The first byte picks what the rest is:
//   0  a cycle manifest (`latest/cycle.json`): `RemoteCycle.decodeManifest`, as for `latest`
//      and for a named cycle
//   1  an answer to `Range: bytes=a-b`: `ObjectClient.checkRange`
//   2  an answer to `Range: bytes=-n` (a domain file's tail): `ObjectClient.checkTail`
// For 1 and 2: a status byte, a and n (two bytes each), a `Content-Range` value up to a
// newline (none when empty), then the body.
//
// Contract checked (docs/RELIABILITY.md, "Limits of every remote read"; SPEC section 8,
// "truncated or altered objects"): a manifest is refused as damage or is of the model asked
// for, a cycle, at least one domain, plain file names, and reads back the same once written;
// an answer is refused with an `ObjectStoreError` naming the object, or is exactly the bytes
// asked for (a tail: the last min(n, size) bytes of an object of `size` >= 0 bytes). Never a
// crash.
import Catalog
import FuzzDriver
import NIOHTTP1
import ObjectStore
import PointQuery
import TileStore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRemoteAnswers(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let mode = bytes.first else { return 0 }
    switch mode % 3 {
    case 0:
        manifest(Array(bytes.dropFirst()), cycle: .latest)
        manifest(Array(bytes.dropFirst()), cycle: .cycle(CycleID(seconds: 1_795_305_600)))   // 2026-11-22T00Z
    default:
        guard bytes.count >= 6 else { return 0 }
        let statuses = [200, 206, 404, 403, 416, 500, 503, 301]
        let status = statuses[Int(bytes[1]) % statuses.count]
        let first = Int(bytes[2]) << 8 | Int(bytes[3]), count = Int(bytes[4]) << 8 | Int(bytes[5])
        let rest = bytes[6...]
        let newline = rest.firstIndex(of: 0x0A) ?? rest.endIndex
        let contentRange = String(decoding: rest[..<newline], as: UTF8.self)
        let body = Array(rest[min(newline + 1, rest.endIndex)...])
        let response = ObjectResponse(status: status, headers: HTTPHeaders(contentRange.isEmpty ? [] : [("Content-Range", contentRange)]), body: body)
        if mode % 3 == 1 { range(response, first..<(first + count)) } else { tail(response, count: count) }
    }
    return 0
}

let url = "s3://bucket/prefix/wrf/2026-11-22T00Z/d01.tcs"

func manifest(_ bytes: [UInt8], cycle: CycleSelector) {
    let decoded: CycleManifest
    do {
        decoded = try RemoteCycle.decodeManifest(bytes, model: "wrf", cycle: cycle, address: url)
    } catch {
        guard error.isDamage, error.description.hasPrefix(url) else { fatalError("manifest refused with \(error)") }
        return
    }
    guard decoded.model == "wrf", CycleID(name: decoded.cycle) != nil, cycle == .latest || decoded.cycle == cycle.description,
          !decoded.domains.isEmpty, decoded.domains.allSatisfy({ StoreFileSystem.isPlainName($0.file) }) else {
        fatalError("accepted the manifest \(decoded)")
    }
    // What publish writes from it (today's form) must read back the same.
    // The checksum is written anew over the new bytes; everything else reads back the same.
    var expected = decoded
    guard let written = try? decoded.encoded(),
          let again = try? RemoteCycle.decodeManifest(written, model: "wrf", cycle: cycle, address: url), again.checksum != nil,
          ({ expected.checksum = again.checksum; return again == expected })() else {
        fatalError("the manifest does not read back once written: \(decoded)")
    }
}

func range(_ response: ObjectResponse, _ asked: Range<Int>) {
    do {
        let answer = try ObjectClient.checkRange(response, asked, url: url)
        guard answer.bytes.count == asked.count else { fatalError("\(answer.bytes.count) bytes for the range \(asked)") }
    } catch {
        refused(error)
    }
}

func tail(_ response: ObjectResponse, count: Int) {
    do {
        let answer = try ObjectClient.checkTail(response, count: count, url: url)
        guard answer.objectSize >= 0, answer.bytes.count == min(count, answer.objectSize) else {
            fatalError("\(answer.bytes.count) bytes for the last \(count) of an object of \(answer.objectSize)")
        }
    } catch {
        refused(error)
    }
}

func refused(_ error: ObjectStoreError) {
    switch error {
    case .notFound(let named), .request(let named, _): guard named == url else { fatalError("refused naming \(named)") }
    case .configuration: fatalError("an answer refused as configuration: \(error)")
    }
}

// MARK: - entry point

/// SwiftPM names this executable's entry point `FuzzRemoteAnswers_main`; libFuzzer takes over.
@_cdecl("FuzzRemoteAnswers_main")
public func fuzzRemoteAnswersMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    tilecast_fuzz_main(argc, argv)
}
