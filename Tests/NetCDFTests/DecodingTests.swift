import Foundation
import NetCDF
import TestSupport
import XCTest

/// CF decoding on fixtures written by `ncgen` from CDL at test time.
final class DecodingTests: XCTestCase {
    private static let cdl = """
    netcdf packed {
    dimensions:
        Time = UNLIMITED ;
        x = 4 ;
        DateStrLen = 19 ;
    variables:
        short T2p(Time, x) ;
            T2p:scale_factor = 0.01 ;
            T2p:add_offset = 273.15 ;
            T2p:_FillValue = -32767s ;
        float T2(Time, x) ;
            T2:_FillValue = 9.96921e+36f ;
        float Q2(Time, x) ;
            Q2:missing_value = -999.f ;
        int ICOUNT(Time, x) ;
        int PACKEDINT(x) ;
            PACKEDINT:scale_factor = 1.0e-6 ;
            PACKEDINT:add_offset = 1000. ;
        char Times(Time, DateStrLen) ;
        float scalar ;
    data:
        T2p = 0, 100, -32767, -1000, 1, 2, 3, 4 ;
        T2 = 280, 9.96921e+36, NaN, 281.5, 1, 2, 3, 4 ;
        Q2 = 0.001, -999, -0.0001, 0.002, 1, 2, 3, 4 ;
        ICOUNT = 0, 1, 2, 3, 4, 5, 6, 7 ;
        PACKEDINT = 123456789, -123456789, 1, 0 ;
        Times = "2026-11-22_00:00:00", "2026-11-22_01:00:00" ;
        scalar = 42.5 ;
    }
    """

    private var directory: TemporaryDirectory!

    override func setUpWithError() throws { directory = try TemporaryDirectory() }

    private func fixture(kind: String) throws -> NetCDFFile {
        let path = directory.path("packed-\(kind).nc")
        try makeNetCDF(cdl: Self.cdl, kind: kind, at: path)
        return try NetCDFFile(path: path)
    }

    func testPackedShortsUnpackAndFillBecomesNaN() throws {
        for kind in ["classic", "nc4"] {
            let values = try fixture(kind: kind).variable("T2p").readFloats()
            XCTAssertEqual(values[0], 273.15, accuracy: 1e-4)
            XCTAssertEqual(values[1], 274.15, accuracy: 1e-4)
            XCTAssertTrue(values[2].isNaN, "the packed _FillValue must read as NaN (\(kind))")
            XCTAssertEqual(values[3], 263.15, accuracy: 1e-4)
            let doubles = try fixture(kind: kind).variable("T2p").readDoubles()
            XCTAssertEqual(doubles[1], 274.15, accuracy: 1e-9)
            XCTAssertTrue(doubles[2].isNaN)
        }
    }

    func testFloatFillValueNaNAndMissingValue() throws {
        let file = try fixture(kind: "64-bit-offset")
        let t2 = try file.variable("T2").readFloats()
        XCTAssertEqual(t2[0], 280)
        XCTAssertTrue(t2[1].isNaN, "9.96921e36 is the fill value")
        XCTAssertTrue(t2[2].isNaN)
        XCTAssertEqual(t2[3], 281.5)
        let q2 = try file.variable("Q2").readFloats()
        XCTAssertTrue(q2[1].isNaN, "missing_value must read as NaN")
        XCTAssertEqual(q2[2], -0.0001, "negative values are data, not missing")
    }

    func testIntegersRawAndPackedIntegersKeepTheirDigits() throws {
        let file = try fixture(kind: "nc4")
        XCTAssertEqual(try file.variable("ICOUNT").readInt32(), [0, 1, 2, 3, 4, 5, 6, 7])
        XCTAssertEqual(try file.variable("ICOUNT").readInt16(start: [1, 0], count: [1, 4]), [4, 5, 6, 7])
        let packed = try file.variable("PACKEDINT").readDoubles()
        XCTAssertEqual(packed[0], 1000 + 123.456789, accuracy: 1e-9)
        XCTAssertEqual(packed[1], 1000 - 123.456789, accuracy: 1e-9)
    }

    func testTimesAndScalar() throws {
        let file = try fixture(kind: "classic")
        XCTAssertEqual(try file.variable("Times").readStrings(), ["2026-11-22_00:00:00", "2026-11-22_01:00:00"])
        XCTAssertEqual(try file.variable("scalar").readFloats(), [42.5])
        XCTAssertTrue(file.dimension("Time")?.isUnlimited ?? false)
        XCTAssertEqual(file.format, .classic)
    }
}
