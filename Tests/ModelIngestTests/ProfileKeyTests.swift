import Foundation
import ModelIngest
import TestSupport
import XCTest

/// Issue 13 item 3: a profile key that is mistyped is refused, naming the key and the file,
/// never ignored (a mistyped source role left that source silently missing).
final class ProfileKeyTests: XCTestCase {
    private var directory: TemporaryDirectory!
    override func setUpWithError() throws { directory = try TemporaryDirectory() }

    /// The built-in WRF profile's text with `old` replaced by `new`, written as a user profile.
    private func userProfile(replacing old: String, with new: String) throws -> String {
        let text = try XCTUnwrap(ModelProfile.builtinText("wrf"))
        XCTAssertTrue(text.contains(old), old)
        let path = directory.path("site.json")
        try text.replacingOccurrences(of: old, with: new).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func assertRefusedProfile(_ path: String, naming key: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try ModelProfile.load(path), file: file, line: line) { error in
            guard case IngestError.badProfile(let origin, let reason) = error else { return XCTFail("\(error)", file: file, line: line) }
            XCTAssertEqual(origin, path, file: file, line: line)
            XCTAssertTrue(reason.contains("unknown key \"\(key)\""), reason, file: file, line: line)
        }
    }

    func testMistypedSourceRoleWithoutUnitIsRefused() throws {
        let path = try userProfile(replacing: #""temperature_2m":      { "names": ["T2"], "unit": "K" }"#,
                                   with: #""temperature_2M":      { "names": ["T2"] }"#)
        assertRefusedProfile(path, naming: "sources.temperature_2M")
    }

    func testMistypedSourceFieldIsRefused() throws {
        let path = try userProfile(replacing: #"{ "names": ["T2"], "unit": "K" }"#, with: #"{ "names": ["T2"], "unti": "degC" }"#)
        assertRefusedProfile(path, naming: "sources.temperature_2m.unti")
    }

    func testUnknownDimensionRoleIsRefused() throws {
        let path = try userProfile(replacing: #""time": ["Time"],"#, with: #""time": ["Time"], "bottom_top": ["bottom_top"],"#)
        assertRefusedProfile(path, naming: "dimensions.bottom_top")
    }

    func testUnknownTopLevelKeyIsRefused() throws {
        let path = try userProfile(replacing: #""convention": "wrf","#, with: #""convention": "wrf", "aliases": {},"#)
        assertRefusedProfile(path, naming: "aliases")
    }

    func testBuiltinsAndACorrectUserProfileLoad() throws {
        for name in ModelProfile.builtinNames { XCTAssertNoThrow(try ModelProfile.load(name), name) }
        let path = try userProfile(replacing: #""names": ["T2"]"#, with: #""names": ["TEMP2", "T2"]"#)
        let profile = try ModelProfile.load(path)
        XCTAssertEqual(profile.sources[.temperature2m]?.names, ["TEMP2", "T2"])
        XCTAssertEqual(profile.dimensions[.westEast], ["west_east"])
        let run = try ModelRun.read(paths: [Fixture.edge("baseline.nc")], profile: profile)
        XCTAssertEqual(run.profileName, "wrf")
    }
}
