// libFuzzer target: arbitrary text as a `--points` CSV.
//
// Contract checked: PointsFile.parse either returns rows whose coordinates are finite and in
// range (latitude -90..90, longitude -180..360) with a line number, or throws badRequest with a
// message; never a crash. TimeParsing.parse (the `time` column and --time) gets each line too.
import FuzzDriver
import PointQuery

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPointsFile(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    do {
        let rows = try PointsFile.parse(text, source: "fuzz.csv")
        guard !rows.isEmpty else { fatalError("parse returned no rows without an error") }
        for row in rows {
            let p = row.point
            guard p.latitude.isFinite, abs(p.latitude) <= 90, p.longitude.isFinite, p.longitude >= -180, p.longitude <= 360,
                  let line = p.line, line >= 2 else {
                fatalError("parse returned an impossible point: \(p)")
            }
        }
    } catch {
        guard case .badRequest(let message) = error, !message.isEmpty else { fatalError("parse threw \(error)") }
    }
    for line in text.split(whereSeparator: \.isNewline).prefix(64) { _ = TimeParsing.parse(String(line)) }
    return 0
}

// MARK: - entry point


/// SwiftPM names this executable's entry point `FuzzPointsFile_main`; libFuzzer takes over.
@_cdecl("FuzzPointsFile_main")
public func fuzzPointsFileMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    tilecast_fuzz_main(argc, argv)
}
