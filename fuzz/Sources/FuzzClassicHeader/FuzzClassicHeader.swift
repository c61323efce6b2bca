// libFuzzer target: arbitrary bytes as the start of a netCDF-3 file (classic, 64-bit offset,
// CDF-5), given to the header parser that the truncation check uses (`ClassicLayout`).
//
// Contract checked: `ClassicLayout.parse(header:)` returns a layout, or nil saying whether more
// bytes could help; never a crash. A layout holds at least the header it was parsed from. And
// the parse is consistent over prefixes, as `ClassicLayout.read` relies on when it reads 64 KiB,
// then 4 times more while the parse runs out: a prefix that parses gives the same layout as the
// whole input, and a prefix that does not parse either ran out or is refused by the whole too.
import FuzzDriver
import NetCDF

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzClassicHeader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let whole = ClassicLayout.parse(header: bytes)
    if let layout = whole.layout, bytes.count >= 8, layout.requiredSize < 8 {
        fatalError("a layout of \(layout.requiredSize) bytes from a header of at least 8")
    }
    // One prefix, its length taken from the input so that the fuzzer explores it too.
    guard size > 1 else { return 0 }
    let cut = Int(bytes[size - 1]) * size / 256
    // `read` never cuts below 64 KiB, and a file that short is read whole: prefixes shorter
    // than the magic number say nothing about it.
    guard cut >= 4 else { return 0 }
    let prefix = ClassicLayout.parse(header: Array(bytes[..<cut]))
    if let layout = prefix.layout, whole.layout != layout {
        fatalError("the first \(cut) bytes parse as \(layout), all \(size) as \(String(describing: whole.layout))")
    }
    if prefix.layout == nil, !prefix.ranOut, whole.layout != nil {
        fatalError("the first \(cut) bytes are refused without running out, all \(size) parse")
    }
    return 0
}

// MARK: - entry point

/// SwiftPM names this executable's entry point `FuzzClassicHeader_main`; libFuzzer takes over.
@_cdecl("FuzzClassicHeader_main")
public func fuzzClassicHeaderMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    tilecast_fuzz_main(argc, argv)
}
