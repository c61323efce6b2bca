// S1's ceiling (issue 30): the least a Hummingbird 2 server can do for a forecast request.
// It answers every GET with one body held in memory (a real `tilecast serve` answer, saved by
// benchmarks/server_bench.py), through the same framework, event loops and HTTP/1.1 channel as
// `tilecast-server`, with no parsing, no store and no per-request log. `tilecast serve` is
// measured against it with the same wrk script in the same run: the ratio says how much of the
// framework's own rate the forecast work leaves.
//
//   hummingbird-ceiling BODY_FILE PORT
//
// A request that accepts gzip gets the body compressed for it with zlib at level 6, as
// tilecast-server compresses each answer (its ContentEncoding) and nginx's `gzip_comp_level 6`.
// (swift-nio-extras' HTTPResponseCompressor cannot be used: Hummingbird's extra channel
// handlers see HTTPTypes parts, not NIOHTTP1's.)
import CeilingZlib
import Foundation
import Hummingbird
import NIOCore

let arguments = CommandLine.arguments
guard arguments.count >= 3, let body = FileManager.default.contents(atPath: arguments[1]), let port = Int(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: hummingbird-ceiling BODY_FILE PORT\n".utf8))
    exit(2)
}
let plain = ByteBuffer(bytes: body)
let bytes = [UInt8](body)

enum Gzip {
    /// `bytes` in gzip's wrapper (windowBits 15 + 16), level 6; nil if zlib fails.
    static func compressed(_ bytes: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        guard deflateInit2_(&stream, 6, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            return nil
        }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))) + 32)
        var input = bytes
        let status = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = uInt(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        return Array(output.prefix(Int(stream.total_out)))
    }
}

let router = Router()
// Every path answers, as the nginx reference's `try_files` does: wrk's URLs differ per request.
router.get("**") { request, _ -> Response in
    if request.headers[.acceptEncoding]?.contains("gzip") == true, let compressed = Gzip.compressed(bytes) {
        return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8", .contentEncoding: "gzip"],
                        body: .init(byteBuffer: ByteBuffer(bytes: compressed)))
    }
    return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: plain))
}
let app = Application(router: router,
                      configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "tilecast"))
try await app.runService()
