import Foundation
import NetCDF
import TestSupport
import XCTest

/// Bad files and bad requests give typed errors that name the file (and variable).
final class ErrorTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws { directory = try TemporaryDirectory() }

    /// Runs `body` and returns the NetCDFError it throws, failing the test otherwise.
    private func expectError(_ body: () throws -> Void, file: StaticString = #filePath, line: UInt = #line) -> NetCDFError? {
        do {
            try body()
            XCTFail("expected a NetCDFError", file: file, line: line)
        } catch let error as NetCDFError {
            return error
        } catch {
            XCTFail("expected a NetCDFError, got \(error)", file: file, line: line)
        }
        return nil
    }

    func testMissingFile() {
        let path = directory.path("no-such-file.nc")
        let error = expectError { _ = try NetCDFFile(path: path) }
        XCTAssertEqual(error?.status, .fileNotFound)
        XCTAssertTrue(error?.description.contains(path) ?? false)
    }

    func testNotNetCDF() throws {
        let path = directory.path("notes.txt")
        try "this is not a netCDF file\n".write(toFile: path, atomically: true, encoding: .utf8)
        let error = expectError { _ = try NetCDFFile(path: path) }
        XCTAssertEqual(error?.status, .notNetCDF)
        XCTAssertEqual(error?.path, path)
    }

    /// libnetcdf itself reads a truncated classic file as zeros; we must refuse it.
    func testTruncatedClassicFileIsDamageNotZeros() throws {
        for kind in ["classic", "64-bit-offset"] {
            let whole = directory.path("whole-\(kind).nc")
            let values = (0..<400).map { String($0) }.joined(separator: ", ")
            try makeNetCDF(cdl: """
                netcdf t { dimensions: Time = UNLIMITED ; x = 100 ;
                variables: float T2(Time, x) ; float HGT(x) ;
                data: T2 = \(values) ; HGT = \((0..<100).map { String($0) }.joined(separator: ", ")) ; }
                """, kind: kind, at: whole)
            XCTAssertEqual(try NetCDFFile(path: whole).variable("T2").readFloats().last, 399)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
            for cut in [bytes.count - 4, bytes.count / 2] {
                let truncated = directory.path("cut-\(kind)-\(cut).nc")
                try bytes.prefix(cut).write(to: URL(fileURLWithPath: truncated))
                let error = expectError { _ = try NetCDFFile(path: truncated) }
                XCTAssertEqual(error?.status, .truncated, "\(kind) cut at \(cut)")
                XCTAssertEqual(error?.path, truncated)
            }
        }
    }

    /// libnetcdf 4.9 segfaults in `nc_open` on these CDF-5 headers (`ncdump -h` too): the header
    /// is read before libnetcdf sees the file, and a header no file can have is refused.
    func testImpossibleClassicHeaderIsRefusedBeforeLibnetcdfOpensIt() throws {
        for (name, header) in [("huge-name", CraftedHeader.hugeName), ("huge-attribute", CraftedHeader.hugeAttribute)] {
            let path = directory.path("\(name).nc")
            try Data(header + [UInt8](repeating: 0, count: 256)).write(to: URL(fileURLWithPath: path))
            let error = expectError { _ = try NetCDFFile(path: path) }
            XCTAssertEqual(error?.status, .notNetCDF, name)
            XCTAssertTrue(error?.description.contains("damaged") ?? false, error?.description ?? name)
        }
    }

    /// Names longer than NC_MAX_NAME and ranks above NC_MAX_VAR_DIMS in a classic header:
    /// libnetcdf 4.9.0 opens such files and copies the whole name (or every dimension id) into
    /// its caller's fixed buffer, a heap overflow with bytes the file chose (issue 43 item 1;
    /// `inspect` and `extract` died with SIGSEGV or a glibc abort). Refused before open; and an
    /// HDF5 name over the limit (libnetcdf hands back 260 of its 600 bytes) is refused after.
    func testOverlongNamesAndRanksAreRefused() throws {
        let edgeCases = Repository.sampleGrids.appendingPathComponent("edge-cases")
        let cases = [("header_long_dimension_name.nc", "a name of 100000 bytes"),
                     ("header_long_attribute_name.nc", "a name of 5000 bytes"),
                     ("header_long_variable_name.nc", "a name of 300 bytes"),
                     ("header_rank_over_max.nc", "rank 2000")]
        for (name, said) in cases {
            let path = edgeCases.appendingPathComponent(name).path
            let error = expectError { _ = try NetCDFFile(path: path) }
            XCTAssertEqual(error?.status, .notNetCDF, name)
            XCTAssertEqual(error?.path, path, name)
            XCTAssertTrue(error?.description.contains(said) ?? false, "\(name): \(error?.description ?? "no error")")
        }
        // HDF5: libnetcdf cuts the 600-byte name near 256 bytes, and sometimes hands back bytes
        // read past its own buffer (260 seen), which process to process: opened with every
        // name within NC_MAX_NAME, or refused as damaged; never a longer name.
        let hdf5 = edgeCases.appendingPathComponent("hdf5_long_variable_name.nc").path
        do {
            let file = try NetCDFFile(path: hdf5)
            XCTAssertTrue(file.variables.allSatisfy { $0.name.utf8.count <= 256 }, "\(file.variables.map { $0.name.utf8.count })")
        } catch {
            XCTAssertEqual(error.status, .notNetCDF)
            XCTAssertTrue(error.description.contains("a name longer than 256 bytes"), error.description)
        }
    }

    /// A header that goes on past the check's 256 MiB cap is refused, never handed to
    /// libnetcdf unchecked (issue 43 item 1: it crashed libnetcdf). The file is sparse: two
    /// 150 MB text attributes of zeros, then a variable list.
    func testAHeaderPastTheCapIsRefused() throws {
        func u32(_ n: Int) -> [UInt8] { withUnsafeBytes(of: UInt32(n).bigEndian) { Array($0) } }
        let valueBytes = 150 << 20
        let path = directory.path("huge-header.nc")
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        // CDF-2: numrecs 0, no dimensions, two global attributes "a" and "b" of NC_CHAR.
        try handle.write(contentsOf: Data(Array("CDF".utf8) + [2] + u32(0) + u32(0) + u32(0) + u32(0x0C) + u32(2)
                                          + u32(1) + Array("a".utf8) + [0, 0, 0] + u32(2) + u32(valueBytes)))
        let second = try handle.offset() + UInt64(valueBytes)
        try handle.seek(toOffset: second)
        try handle.write(contentsOf: Data(u32(1) + Array("b".utf8) + [0, 0, 0] + u32(2) + u32(valueBytes)))
        try handle.seek(toOffset: try handle.offset() + UInt64(valueBytes))
        try handle.write(contentsOf: Data(u32(0) + u32(0)))   // no variables
        let error = expectError { _ = try NetCDFFile(path: path) }
        XCTAssertEqual(error?.status, .notNetCDF)
        XCTAssertTrue(error?.description.contains("past 256 MiB") ?? false, error?.description ?? "no error")
    }

    /// A classic file that ends inside its header is truncated, said so before libnetcdf reads it.
    func testFileEndingInsideItsHeaderIsTruncated() throws {
        let whole = directory.path("whole.nc")
        try makeNetCDF(cdl: "netcdf t { dimensions: x = 3 ; variables: float HGT(x) ; HGT:units = \"m\" ; data: HGT = 1, 2, 3 ; }",
                       kind: "classic", at: whole)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        let cut = directory.path("cut-in-header.nc")
        try bytes.prefix(40).write(to: URL(fileURLWithPath: cut))
        let error = expectError { _ = try NetCDFFile(path: cut) }
        XCTAssertEqual(error?.status, .truncated)
        XCTAssertTrue(error?.description.contains("ends inside it") ?? false, error?.description ?? "")
    }

    /// The same with a header of 300 KiB (a global attribute): the header is read in growing
    /// prefixes (64 KiB, then 256 KiB, then 1 MiB), and its last variable still counts.
    func testTruncatedClassicFileWithALargeHeader() throws {
        let whole = directory.path("large-header.nc")
        try makeNetCDF(cdl: """
            netcdf t { dimensions: Time = UNLIMITED ; x = 100 ;
            variables: float T2(Time, x) ; float HGT(x) ;
            :note = "\(String(repeating: "wrf ", count: 75_000))" ;
            data: T2 = \((0..<400).map { String($0) }.joined(separator: ", ")) ; HGT = \((0..<100).map { String($0) }.joined(separator: ", ")) ; }
            """, kind: "64-bit-offset", at: whole)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        XCTAssertGreaterThan(bytes.count, 300_000)
        XCTAssertEqual(try NetCDFFile(path: whole).variable("HGT").readFloats().last, 99)
        let truncated = directory.path("large-header-cut.nc")
        // Inside the values (2,000 bytes after the header; libnetcdf pads the file's end).
        try bytes.prefix(bytes.count - 1_500).write(to: URL(fileURLWithPath: truncated))
        let error = expectError { _ = try NetCDFFile(path: truncated) }
        XCTAssertEqual(error?.status, .truncated)
    }

    func testTruncatedNetCDF4File() throws {
        let source = try Repository.sharedSample("ci_test_file.nc")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: source))
        let truncated = directory.path("cut.nc")
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: truncated))
        let error = expectError {
            let file = try NetCDFFile(path: truncated)
            for info in file.variables where info.type != .char { _ = try file.variable(info.name).readFloats() }
        }
        XCTAssertEqual(error?.path, truncated)
        let status = try XCTUnwrap(error?.status)
        XCTAssertTrue([.hdfError, .notNetCDF, .ioError].contains(status), "unexpected status \(status)")
    }

    func testMissingVariableAndBadHyperslabs() throws {
        let file = try NetCDFFile(path: Repository.sharedSample("wrf_cropped.nc"))
        let missing = expectError { _ = try file.variable("U10") }
        XCTAssertEqual(missing?.status, .variableNotFound)
        XCTAssertEqual(missing?.variable, "U10")
        let t2 = try file.variable("T2")
        let shape = t2.shape
        XCTAssertEqual(expectError { _ = try t2.readFloats(start: [shape[0], 0, 0], count: [1, 1, 1]) }?.status, .indexOutOfBounds)
        XCTAssertEqual(expectError { _ = try t2.readFloats(start: [0, 0, 0], count: [1, shape[1] + 1, 1]) }?.status, .edgeOutOfBounds)
        XCTAssertEqual(expectError { _ = try t2.readFloats(start: [-1, 0, 0], count: [1, 1, 1]) }?.status, .indexOutOfBounds)
        XCTAssertEqual(expectError { _ = try t2.readFloats(start: [0, 0], count: [1, 1]) }?.status, .indexOutOfBounds)
        let error = expectError { _ = try t2.readFloats(start: [0, 0, 0], count: [1, 1, -2]) }
        XCTAssertEqual(error?.status, .edgeOutOfBounds)
        XCTAssertEqual(error?.variable, "T2")
        XCTAssertEqual(expectError { _ = try file.variable("Times").readFloats() }?.status, .typeMismatch)
        XCTAssertEqual(expectError { _ = try t2.readStrings() }?.status, .typeMismatch)
    }
}

/// Inputs reached through a symbolic link are read as the file they name (its size, not the link's).
final class SymlinkInputTests: XCTestCase {
    func testSymlinkedClassicFileOpens() throws {
        let directory = try TemporaryDirectory()
        let target = Repository.sampleGrids.appendingPathComponent("wrfout_d01_2026-11-22_00:00:00").path
        let link = directory.path("wrfout_d01_link")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let file = try NetCDFFile(path: link)
        XCTAssertEqual(file.format, .offset64)
        XCTAssertEqual(try file.variable("T2").readFloats(start: [0, 0, 0], count: [1, 1, 1]),
                       try NetCDFFile(path: target).variable("T2").readFloats(start: [0, 0, 0], count: [1, 1, 1]))
    }
}

/// Issue 16 item 10: a read is bounded before its buffer is allocated.
final class ReadBoundTests: XCTestCase {
    func testReadOfAHugeDeclaredVariableIsRefusedBeforeAllocating() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("huge.nc")
        try makeHugeDeclaredGrid(at: path)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        XCTAssertLessThan((attributes[.size] as? NSNumber)?.intValue ?? .max, 100_000, "the file itself is tiny")
        let variable = try NetCDFFile(path: path).variable("XLAT")
        XCTAssertThrowsError(try variable.readFloats()) { error in
            guard let error = error as? NetCDFError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.status, .tooLarge)
            XCTAssertEqual(error.variable, "XLAT")
            XCTAssertTrue(error.description.contains(path), error.description)
        }
        XCTAssertThrowsError(try variable.readDoubles(start: [0, 0, 0], count: [1, 200_000, 200_000]))
        // A frame-sized window of it is an ordinary read (fill values: NaN).
        XCTAssertEqual(try variable.readFloats(start: [0, 0, 0], count: [1, 2, 3]).count, 6)
    }
}
