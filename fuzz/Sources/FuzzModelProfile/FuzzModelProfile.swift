// libFuzzer target: arbitrary bytes as a name profile (`tilecast extract --profile FILE`).
//
// Contract checked (SPEC section 2: "name mappings live in data, so a site can add its own
// aliases"): `ModelProfile.decode` either throws `IngestError.badProfile` naming the file and
// saying what is wrong, or returns a profile that names every dimension and converts every
// unit it gives, and that reads back the same once written (`tilecast profile NAME > FILE` is
// how a site starts one). Never a crash.
import Foundation
import FuzzDriver
import ModelIngest

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzModelProfile(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    let profile: ModelProfile
    do {
        profile = try ModelProfile.decode(bytes, origin: "site.json")
    } catch {
        guard case IngestError.badProfile(let origin, let reason) = error, origin == "site.json", !reason.isEmpty else {
            fatalError("refused with \(error)")
        }
        return 0
    }
    for role in DimensionRole.allCases where (profile.dimensions[role] ?? []).isEmpty {
        fatalError("accepted a profile without \(role.rawValue) names")
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    guard let written = try? encoder.encode(profile), let again = try? ModelProfile.decode(written, origin: "site.json"), again == profile else {
        fatalError("the profile does not read back once written: \(profile)")
    }
    return 0
}

// MARK: - entry point

/// SwiftPM names this executable's entry point `FuzzModelProfile_main`; libFuzzer takes over.
@_cdecl("FuzzModelProfile_main")
public func fuzzModelProfileMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    tilecast_fuzz_main(argc, argv)
}
