import Catalog
import Extraction
import Foundation
import ModelIngest
import NetCDF
import PointQuery
import TileStore
import XCTest

/// One rule gives every error its exit status (`ExitStatus(for:)`, issue 44 item 4): the
/// statuses are SPEC section 5's, written out here, and an error keeps its status however it
/// reaches a command (inside a `QueryError`, or alone from `extract`).
final class ExitStatusRuleTests: XCTestCase {
    func testEachErrorHasOneStatus() {
        let netcdf = NetCDFError(status: .truncated, path: "run/wrfout_d01", operation: "open")
        let cases: [(any Error, Int32, String)] = [
            (IngestError.noInput(paths: ["run"]), 3, "unreadable run"),
            (IngestError.unreadable(netcdf), 3, "an unreadable file"),
            (netcdf, 3, "a netCDF error alone"),
            (ExtractionError.inputInsideStore(path: "s/wrf/.data/x", store: "s"), 2, "an input inside the store"),
            (ExtractionError.prunedAtOnce(cycle: "2026-11-20T00Z", keep: 1, kept: ["2026-11-22T00Z"]), 2, "a cycle --keep prunes at once"),
            (ExtractionError.fewerDomains(cycle: "c", lost: ["d02"], published: ["d01", "d02"]), 3, "fewer domains"),
            (ExtractionError.implausibleValues("T2"), 3, "implausible values"),
            (StoreError.badRequest("cell outside the grid"), 2, "a store's refusal of a request"),
            (StoreError.corrupt(path: "s/d01.tcs", detail: "x"), 5, "damage"),
            (StoreError.locked(path: "s", holder: "pid 1"), 5, "a locked store"),
            (QueryError.badRequest("--hours -1"), 2, "a bad query"),
            (QueryError.outsideTimes(requested: "t", available: "a..b"), 4, "outside the run"),
            (QueryError.outsideDomains(latitude: 0, longitude: 0, extents: []), 4, "outside the domains"),
            (QueryError.store(.corrupt(path: "s/d01.tcs", detail: "x")), 5, "damage met by a query"),
            (CocoaError(.fileNoSuchFile), 3, "an error no TileCast type describes"),
        ]
        for (error, status, what) in cases { XCTAssertEqual(ExitStatus(for: error).rawValue, status, what) }
        // The same store error, alone (extract) and inside a query's error (query, serve): one
        // status (extract said 2, query 5, before the rule).
        let refusal = StoreError.badRequest("cell outside the grid")
        XCTAssertEqual(ExitStatus(for: QueryError.store(refusal)), ExitStatus(for: refusal))
    }
}
