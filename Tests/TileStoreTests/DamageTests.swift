import Catalog
import Foundation
@testable import TileStore
import TestSupport
import XCTest

/// Damaged files are reported as damage, with the right typed error, never as numbers.
final class DamageTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var path = ""
    private var pristine: [UInt8] = []

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        path = directory.path("tiny.tcs")
        _ = try FormatTests.tinyFile(at: path)
        pristine = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    }

    private func write(_ bytes: [UInt8]) throws -> String {
        let damaged = directory.path("damaged-\(UUID().uuidString).tcs")
        try Data(bytes).write(to: URL(fileURLWithPath: damaged))
        return damaged
    }

    /// Opens the file and reads every series; returns the StoreError met.
    private func errorReading(_ file: String) -> StoreError? {
        do {
            let reader = try DomainFileReader(path: file)
            for variable in [ForecastVariable.temperature2m, .elevation] {
                for j in 0..<2 { for i in 0..<3 { _ = try reader.series(variable, i: i, j: j) } }
            }
            return nil
        } catch {
            return error
        }
    }

    private func trailerField(_ offset: Int) -> Int {
        let start = pristine.count - 56 + offset
        return (0..<8).reduce(0) { $0 | Int(pristine[start + $1]) << (8 * $1) }
    }

    func testFlippedDataByteIsAChecksumError() throws {
        var bytes = pristine
        bytes[16] ^= 0x10   // the first byte of the first data block
        guard case .checksumMismatch(_, "data block 0")? = errorReading(try write(bytes)) else { return XCTFail() }
    }


    func testEveryDataByteFlipIsCaught() throws {
        let indexOffset = trailerField(0)
        for position in 16..<indexOffset {
            var bytes = pristine
            bytes[position] ^= 0x01
            let file = try write(bytes)
            guard case .checksumMismatch(_, let part)? = errorReading(file) else {
                return XCTFail("flip at \(position) not reported as a checksum mismatch")
            }
            XCTAssertTrue(part.hasPrefix("data block"), part)
        }
    }

    func testFlippedIndexByte() throws {
        var bytes = pristine
        bytes[trailerField(0) + 5] ^= 0x40
        guard case .checksumMismatch(_, "index")? = errorReading(try write(bytes)) else { return XCTFail() }
    }

    func testFlippedMetadataByte() throws {
        var bytes = pristine
        bytes[trailerField(16) + 10] ^= 0x02
        guard case .checksumMismatch(_, "metadata")? = errorReading(try write(bytes)) else { return XCTFail() }
    }

    func testFlippedHeaderAndTrailerBytes() throws {
        var header = pristine
        header[0] ^= 0xFF
        guard case .notAStoreFile? = errorReading(try write(header)) else { return XCTFail() }
        var trailer = pristine
        trailer[pristine.count - 56 + 3] ^= 0x01
        guard case .checksumMismatch(_, "trailer")? = errorReading(try write(trailer)) else { return XCTFail() }
    }

    func testTruncatedFiles() throws {
        for length in [0, 10, 16, pristine.count / 2, pristine.count - 1] {
            let error = errorReading(try write(Array(pristine.prefix(length))))
            switch error {
            case .truncated?, .notAStoreFile?: continue
            default: XCTFail("cut at \(length): \(String(describing: error))")
            }
        }
    }

    /// A file from a future version is refused by version, not misread.
    func testNewerVersionIsRefused() throws {
        var bytes = pristine
        bytes[8] = 2
        let trailerStart = bytes.count - 56
        bytes[trailerStart + 40] = 2
        let crc = checksum(Array(bytes[trailerStart..<(trailerStart + 44)]))
        for k in 0..<4 { bytes[trailerStart + 44 + k] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(k))) }
        guard case .unsupportedVersion(_, 2, 1)? = errorReading(try write(bytes)) else {
            return XCTFail("\(String(describing: errorReading(try write(bytes))))")
        }
    }

    /// A flipped bit in the header's version (trailer intact) is damage, not "a newer format":
    /// the old reader said "store format version 65 is newer" and sent operators to upgrade.
    func testFlippedHeaderVersionIsDamageNotANewerFormat() throws {
        for flipped: UInt8 in [0x41, 0x03, 0x81] {
            var bytes = pristine
            bytes[8] ^= flipped
            let error = errorReading(try write(bytes))
            guard case .corrupt(_, let detail)? = error else { return XCTFail("flip \(flipped): \(String(describing: error))") }
            XCTAssertTrue(detail.contains("header"), detail)
        }
    }

    func testMissingFile() {
        guard case .missing? = errorReading(directory.path("nothing.tcs")) else { return XCTFail() }
    }
}
