import NetCDF
import XCTest

/// The netCDF-3 header parser behind the truncation check takes a file's first bytes as they
/// are: a crafted header must be refused, never trap (found by fuzz/Sources/FuzzClassicHeader).
final class ClassicHeaderTests: XCTestCase {
    /// CDF-5 counts are 8 bytes: a name or attribute length near 2^64 overflowed the padding
    /// to 4 bytes (`(length + 3) / 4 * 4`), a trap that ended `tilecast extract` and `inspect`.
    func testLengthsNearTwoToThe64AreRefused() {
        let nameLength = CraftedHeader.hugeName
        XCTAssertNil(ClassicLayout.parse(header: nameLength).layout)
        XCTAssertFalse(ClassicLayout.parse(header: nameLength).ranOut, "no prefix of a file holds such a name")
        // A global attribute of 2^61 - 1 doubles: its byte count wraps to 2^64 - 8.
        let attribute = CraftedHeader.hugeAttribute
        XCTAssertNil(ClassicLayout.parse(header: attribute).layout)
        XCTAssertFalse(ClassicLayout.parse(header: attribute).ranOut)
    }

    /// A variable whose size overflows 64 bits promises more than any file holds: the file is
    /// truncated, not a small one (the size used to wrap to a few bytes and pass the check).
    func testVariableSizesThatOverflowPromiseMoreThanAnyFile() {
        // One dimension of 2^62, a double variable over it twice: 2^124 values.
        let header = cdf5([0, 0x0A, 1]) + be64(1) + [0x78, 0, 0, 0] + be64(1 << 62) + absentList
            + be32(0x0B) + be64(1) + be64(1) + [0x76, 0, 0, 0] + be64(2) + be64(0) + be64(0) + absentList
            + be32(6) + be64(8) + be64(4096)
        XCTAssertEqual(ClassicLayout.parse(header: header).layout?.requiredSize, UInt64.max)
    }

    /// The seeds' kind of header still parses: one fixed dimension and one int variable.
    /// A record count of 0xFFFFFFFF ("still being streamed") with record variables: libnetcdf
    /// 4.9 reads it as 4,294,967,295 records and zeros past the file's end, so it is refused,
    /// not passed with its records left out of the size (FuzzClassicHeader's finding).
    func testAStreamingRecordCountIsRefused() {
        let header: [UInt8] = Array("CDF".utf8) + [1] + be32(0xFFFF_FFFF) + be32(0x0A) + be32(2)
            + be32(4) + Array("Time".utf8) + be32(0) + be32(1) + [0x78, 0, 0, 0] + be32(3)
            + be32(0) + be32(0) + be32(0x0B) + be32(1) + be32(2) + [0x54, 0x32, 0, 0] + be32(2) + be32(0) + be32(1)
            + be32(0) + be32(0) + be32(5) + be32(12) + be32(80)
        let parsed = ClassicLayout.parse(header: header)
        XCTAssertNil(parsed.layout)
        XCTAssertFalse(parsed.ranOut)
        // The same header with a real record count parses.
        var counted = header
        counted.replaceSubrange(4..<8, with: be32(2))
        XCTAssertEqual(ClassicLayout.parse(header: counted).layout?.requiredSize, 80 + 2 * 12)
    }

    func testAPlainHeaderParses() {
        let header: [UInt8] = Array("CDF".utf8) + [1] + be32(0) + be32(0x0A) + be32(1) + be32(1) + [0x78, 0, 0, 0] + be32(3)
            + be32(0) + be32(0) + be32(0x0B) + be32(1) + be32(1) + [0x76, 0, 0, 0] + be32(1) + be32(0) + be32(0) + be32(0)
            + be32(4) + be32(12) + be32(64)
        XCTAssertEqual(ClassicLayout.parse(header: header).layout?.requiredSize, 64 + 12)
    }
}

/// netCDF-3 header bytes written by hand (the netCDF "Classic Format Specification").
enum CraftedHeader {
    /// A CDF-5 header naming a dimension whose name is 2^64 - 2 bytes long.
    static var hugeName: [UInt8] { cdf5([0, 0x0A, 1]) + be64(0xFFFF_FFFF_FFFF_FFFE) }

    /// A CDF-5 header with a global attribute of 2^61 - 1 doubles (its byte count wraps to
    /// 2^64 - 8).
    static var hugeAttribute: [UInt8] {
        cdf5([0]) + be32(0) + be64(0) + be32(0x0C) + be64(1) + be64(1) + [0x61, 0, 0, 0] + be32(6) + be64(0x1FFF_FFFF_FFFF_FFFF)
    }

}

/// An empty list in CDF-5: a zero tag (4 bytes) and a zero count (8).
var absentList: [UInt8] { be32(0) + be64(0) }

/// "CDF" 5, then big-endian 8-byte counts.
func cdf5(_ counts: [UInt64]) -> [UInt8] {
    Array("CDF".utf8) + [5] + be64(counts[0]) + counts.dropFirst().enumerated().flatMap { $0.offset == 0 ? be32(UInt32($0.element)) : be64($0.element) }
}

func be64(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * UInt64($0))) } }
func be32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32($0))) } }
