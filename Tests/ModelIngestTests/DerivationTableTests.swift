import Catalog
@testable import ModelIngest
import TestSupport
import XCTest

/// Issue 13, bug 4: what a variable needs is written once, in `Derivations.table`, and both a
/// domain's availability and the frame reader follow it.
final class DerivationTableTests: XCTestCase {
    func testEveryCatalogVariableHasExactlyOneDerivation() {
        XCTAssertEqual(Derivations.table.map(\.variable), ForecastVariable.stored)
    }

    /// Availability follows the table: each source a derivation names, taken away alone,
    /// makes exactly the variables that need it unavailable, with a reason naming it.
    func testAvailabilityFollowsTheTableSourceBySource() throws {
        let profile = try ModelProfile.load("wrf")
        let all = Set(SourceRole.allCases).subtracting([.seaLevelPressure, .pstar])
        let full = VariableAvailability(roles: all, profile: profile)
        XCTAssertEqual(full.available, ForecastVariable.stored)
        for role in Set(Derivations.table.flatMap { $0.allOf }) {
            let without = VariableAvailability(roles: all.subtracting([role]), profile: profile)
            let expected = Derivations.table.filter { derivation in
                // A complete second set of sources without this role keeps the variable.
                let alternative = !derivation.orAllOf.isEmpty && !derivation.orAllOf.contains(role)
                return !alternative && (derivation.allOf.contains(role)
                    || derivation.from.contains { source in Derivations.of(source)?.allOf.contains(role) ?? false })
            }.map(\.variable)
            XCTAssertEqual(without.missing.map(\.0).sorted(), expected.sorted(), "without \(role)")
            for (_, reason) in without.missing {
                XCTAssertTrue(reason.contains(profile.names(role).first ?? "?"), "\(role): \(reason)")
            }
        }
    }

    /// Every variable the reader declares comes with every frame, on the real samples
    /// (a declared but underived variable is now an error, not an all-missing series).
    func testTheReaderMakesEveryDeclaredVariableOnTheSamples() throws {
        let inputs = Repository.sampleGridFiles()
        for run in try ModelRun.readRuns(paths: inputs) {
            for domain in run.domains {
                var reader = try FrameReader(domain: domain)
                XCTAssertEqual(reader.variables, domain.variables.available)
                var frames = 0
                while let frame = try reader.nextFrame() {
                    XCTAssertEqual(Set(frame.values.keys), Set(reader.variables), "\(domain.name) frame \(frames)")
                    frames += 1
                }
                XCTAssertEqual(frames, domain.frames.count)
            }
        }
    }

    /// wrf-python's slp needs the lowest model levels and nothing else: a file with P, PB, T,
    /// QVAPOR, PH and PHB but without HGT, T2 or PSFC (the real wrf_cropped.nc) has
    /// pressure_msl; without one of the six and without HGT, it does not.
    func testSeaLevelPressureNeedsOnlyWhatItsMethodReads() throws {
        let profile = try ModelProfile.load("wrf")
        let levels: Set<SourceRole> = [.pressurePerturbation, .pressureBase, .potentialTemperaturePerturbation,
                                       .vapourMixingRatio, .geopotentialPerturbation, .geopotentialBase]
        XCTAssertTrue(VariableAvailability(roles: levels, profile: profile).available.contains(.pressureMSL))
        let lacking = VariableAvailability(roles: levels.subtracting([.geopotentialBase]).union([.temperature2m, .surfacePressure]), profile: profile)
        let reason = try XCTUnwrap(lacking.missing.first { $0.0 == .pressureMSL }?.1)
        XCTAssertTrue(reason.contains("HGT"), reason)
    }
}
