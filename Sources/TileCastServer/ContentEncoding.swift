import CZlib
import Foundation

/// gzip and deflate for answers whose client asks for them (`Accept-Encoding`), as Open-Meteo's
/// server compresses its answers: JSON and CSV shrink several times, which a phone on a slow
/// link feels more than the server's few hundred microseconds.
enum ContentEncoding: String, Sendable, CaseIterable {
    case gzip
    case deflate

    /// Answers smaller than this go as they are: compressing them saves next to nothing.
    static let minimumBytes = 1024

    /// The encoding a request accepts, gzip first; nil when it names neither, or refuses both
    /// with `q=0`.
    static func accepted(_ header: String?) -> ContentEncoding? {
        guard let header = header?.lowercased() else { return nil }
        var accepted: Set<String> = []
        for item in header.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let name = parts.first, !name.isEmpty else { continue }
            // "gzip;q=0" refuses gzip; any other weight accepts it.
            let refused = parts.dropFirst().contains { parameter in
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                return pair.count == 2 && pair[0] == "q" && Double(pair[1]) == 0
            }
            if !refused { accepted.insert(name) }
        }
        if accepted.contains("gzip") || accepted.contains("x-gzip") { return .gzip }
        if accepted.contains("deflate") { return .deflate }
        return nil
    }

    /// The bytes compressed (gzip: RFC 1952's wrapper; deflate: zlib's, as HTTP's `deflate`
    /// means); nil if zlib fails, and the answer then goes uncompressed.
    func compress(_ bytes: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        // windowBits 15 + 16 asks zlib for the gzip wrapper.
        let windowBits: Int32 = self == .gzip ? 15 + 16 : 15
        guard deflateInit2_(&stream, 6, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                            Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        // Room for the worst case, left uninitialized: only the pages zlib writes are touched,
        // so a 66 MB answer that compresses to 2 MB costs 2 MB more, not another 66 MB of zeros
        // (the answer budget reserves the uncompressed size, `ForecastEngine.AnswerSize`).
        let room = Int(deflateBound(&stream, uLong(bytes.count))) + 32
        var status: Int32 = Z_STREAM_ERROR
        let output = [UInt8](unsafeUninitializedCapacity: room) { out, initialized in
            status = bytes.withUnsafeBufferPointer { input in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                return CZlib.deflate(&stream, Z_FINISH)
            }
            initialized = status == Z_STREAM_END ? Int(stream.total_out) : 0
        }
        guard status == Z_STREAM_END else { return nil }
        // A copy of the exact size: the room's untouched pages are not held while the answer waits.
        return [UInt8](unsafeUninitializedCapacity: output.count) { exact, initialized in
            initialized = exact.initialize(fromContentsOf: output)
        }
    }
}
