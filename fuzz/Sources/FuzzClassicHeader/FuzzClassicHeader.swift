// libFuzzer target: arbitrary bytes as the start of a netCDF-3 file (classic, 64-bit offset,
// CDF-5), given to the header parser that the truncation check uses (`ClassicLayout`), and then,
// as a file, to the real path `inspect` and `extract` take (`NetCDFFile`: the check, then
// libnetcdf's own open and the header's every name, attribute and variable, then the values of
// the small variables). Under AddressSanitizer, a name or id libnetcdf copies past the buffer
// it was given is a finding (issue 43 item 1: 100,000-byte names crashed inspect and extract).
//
// Contract checked: `ClassicLayout.parse(header:)` returns a layout, or nil saying whether more
// bytes could help; never a crash. A layout holds at least the header it was parsed from. And
// the parse is consistent over prefixes, as `ClassicLayout.read` relies on when it reads 64 KiB,
// then 4 times more while the parse runs out: a prefix that parses gives the same layout as the
// whole input, and a prefix that does not parse either ran out or is refused by the whole too.
import Foundation
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
    openThroughLibnetcdf(bytes)
    return 0
}

/// One file per process, rewritten for each input (in /dev/shm where there is one).
private let scratchPath: String = {
    let folder = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
    return folder + "/tilecast-fuzz-classic-\(getpid()).nc"
}()

/// The bytes as a file through `NetCDFFile`: an error is an answer, a crash is a finding.
private func openThroughLibnetcdf(_ bytes: [UInt8]) {
    guard FileManager.default.createFile(atPath: scratchPath, contents: Data(bytes)) else { return }
    guard let file = try? NetCDFFile(path: scratchPath) else { return }
    for info in file.variables where info.count <= 4096 && info.type != .char {
        _ = try? file.variable(info.name).readDoubles()
    }
}

// MARK: - entry point

/// SwiftPM names this executable's entry point `FuzzClassicHeader_main`; libFuzzer takes over.
@_cdecl("FuzzClassicHeader_main")
public func fuzzClassicHeaderMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    tilecast_fuzz_main(argc, argv)
}
