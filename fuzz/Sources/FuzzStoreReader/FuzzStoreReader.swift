// libFuzzer target: arbitrary bytes as a store domain file.
//
// Contract checked (docs/STORE-FORMAT.md, SPEC section 6): opening either succeeds or throws a
// StoreError that is damage; every series read either returns numbers or throws damage (or
// badRequest for a cell outside the grid / a variable not stored); never a crash, never an
// out-of-bounds read (AddressSanitizer), never another kind of error.
//
// Each input is tried twice: as given, and with every checksum recomputed (block CRCs, index,
// metadata, trailer). Random mutations almost never satisfy a CRC-32, so the second pass is
// what carries damage past the checksums into the structural checks, the metadata decoder and
// the block codec: it stands for a file crafted on purpose, not for random damage.
import Catalog
import FuzzDriver
import TileStore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStoreReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    exercise(bytes)
    if let repaired = repairChecksums(bytes), repaired != bytes { exercise(repaired) }
    return 0
}

/// Opens the bytes and reads every series (bounded, so a crafted huge grid cannot time out).
func exercise(_ bytes: [UInt8]) {
    let reader: DomainFileReader
    do {
        reader = try DomainFileReader(bytes: bytes, label: "fuzz.tcs")
    } catch {
        guard error.isDamage else { fatalError("open threw a non-damage error: \(error)") }
        return
    }
    let m = reader.metadata
    var budget = 400_000   // decoded values
    outer: for stored in m.variables {
        guard let variable = stored.variable else { continue }
        for j in 0..<m.southNorth {
            for i in 0..<m.westEast {
                if budget <= 0 { break outer }
                budget -= max(stored.steps, 1)
                read(reader, variable, i, j, steps: stored.steps)
            }
        }
        // Cells just outside the grid are requests, not damage.
        for (i, j) in [(-1, 0), (0, -1), (m.westEast, 0), (0, m.southNorth)] {
            do {
                _ = try reader.series(variable, i: i, j: j)
                fatalError("cell (\(i), \(j)) outside the grid returned numbers")
            } catch {
                guard case .badRequest = error else { fatalError("outside cell: unexpected error \(error)") }
            }
        }
    }
    do {
        try reader.verifyAll()
    } catch {
        guard error.isDamage else { fatalError("verifyAll threw a non-damage error: \(error)") }
    }
}

func read(_ reader: DomainFileReader, _ variable: ForecastVariable, _ i: Int, _ j: Int, steps: Int) {
    do {
        let values = try reader.series(variable, i: i, j: j)
        guard values.count == steps else { fatalError("series has \(values.count) values, metadata says \(steps)") }
    } catch {
        switch error {
        case .badRequest: return   // e.g. a variable listed twice with different steps
        default: guard error.isDamage else { fatalError("read threw a non-damage error: \(error)") }
        }
    }
}

// MARK: - checksum repair

/// The bytes with every CRC that can be located recomputed, or nil when no trailer fits.
func repairChecksums(_ original: [UInt8]) -> [UInt8]? {
    let trailerSize = 56
    guard original.count >= 16 + trailerSize else { return nil }
    var bytes = original
    let t = bytes.count - trailerSize
    func u64(_ at: Int) -> UInt64 { (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) } }
    func u32(_ at: Int) -> UInt32 { (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[at + $1]) << (8 * UInt32($1)) } }
    func put(_ value: UInt32, at: Int) { for k in 0..<4 { bytes[at + k] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(k))) } }
    func range(_ offset: UInt64, _ length: UInt64) -> Range<Int>? {
        let end = offset.addingReportingOverflow(length)
        guard !end.overflow, end.partialValue <= UInt64(t) else { return nil }
        return Int(offset)..<Int(end.partialValue)
    }
    if let index = range(u64(t), u64(t + 8)) {
        // Block CRCs first: they live inside the index, whose CRC covers them.
        var entry = index.lowerBound
        while entry + 16 <= index.upperBound {
            if let block = range(u64(entry), UInt64(u32(entry + 8))) { put(crc32(bytes[block]), at: entry + 12) }
            entry += 16
        }
        put(crc32(bytes[index]), at: t + 32)
    }
    if let metadata = range(u64(t + 16), u64(t + 24)) { put(crc32(bytes[metadata]), at: t + 36) }
    put(crc32(bytes[t..<(t + 44)]), at: t + 44)
    return bytes
}

/// CRC-32, IEEE 802.3 polynomial (zlib's crc32), table-driven.
let crcTable: [UInt32] = (0..<256).map { n -> UInt32 in
    var c = UInt32(n)
    for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    return c
}

func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    var c: UInt32 = 0xFFFF_FFFF
    for byte in bytes { c = crcTable[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
    return c ^ 0xFFFF_FFFF
}

// MARK: - entry point


/// SwiftPM names this executable's entry point `FuzzStoreReader_main`; libFuzzer takes over.
@_cdecl("FuzzStoreReader_main")
public func fuzzStoreReaderMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    tilecast_fuzz_main(argc, argv)
}
