import Foundation
import PointQuery
import TestSupport
import TileStore
import XCTest

/// A store that cannot be read says why, with its cause kept as a `StoreError` (and the
/// system's errno), never flattened to text or taken for an empty store.
final class StoreErrorCauseTests: XCTestCase {
    /// A store path that cannot be listed (here a plain file: ENOTDIR) used to read as a store
    /// with nothing published ("no published cycle (run tilecast extract first)").
    func testAStoreThatCannotBeListedSaysWhy() throws {
        let directory = try TemporaryDirectory("store-cause")
        let file = directory.path("not-a-folder")
        try "x".write(toFile: file, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try ForecastStore(root: file)) { error in
            guard case QueryError.store(.io(let failure)) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(failure.code, ENOTDIR)
            XCTAssertEqual(failure.path, file)
            XCTAssertEqual((error as? QueryError)?.exitCode, .damagedStore)
        }
        XCTAssertThrowsError(try CycleStore.models(root: file)) { error in
            guard case StoreError.io(let failure) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(failure.code, ENOTDIR)
        }
    }

    /// An empty store folder has no models and says so; a folder that is not there (a
    /// mistyped --store, issue 49) says that instead of "no published cycle".
    func testAnEmptyStoreHasNoPublishedCycleAndAMissingOneIsMissing() throws {
        let directory = try TemporaryDirectory("store-empty")
        let empty = directory.url.path, missing = directory.path("not-yet")
        for root in [empty, missing] { XCTAssertEqual(try CycleStore.models(root: root), []) }
        XCTAssertThrowsError(try ForecastStore(root: empty)) { error in
            XCTAssertEqual(error as? QueryError, .store(.noCycle(address: empty, model: nil, cycle: nil)))
            XCTAssertTrue("\(error)".contains("no published cycle"), "\(error)")
        }
        XCTAssertThrowsError(try ForecastStore(root: missing)) { error in
            XCTAssertEqual(error as? QueryError, .store(.missing(path: missing, what: "store folder")))
            XCTAssertEqual("\(error)", "\(missing): store folder not found")
        }
    }
}
