import Foundation

/// A netCDF-4 file of about 12 kB whose header declares a `cells` x `cells` WRF grid and
/// holds no data (chunked, so nothing is written): what issue 16 item 10 crashed on.
public func makeHugeDeclaredGrid(at path: String, cells: Int = 200_000) throws {
    let cdl = """
    netcdf huge {
    dimensions:
    \tTime = UNLIMITED ;
    \tDateStrLen = 19 ;
    \tsouth_north = \(cells) ;
    \twest_east = \(cells) ;
    variables:
    \tchar Times(Time, DateStrLen) ;
    \tfloat XLAT(Time, south_north, west_east) ;
    \t\tXLAT:_ChunkSizes = 1, 500, 500 ;
    \tfloat XLONG(Time, south_north, west_east) ;
    \t\tXLONG:_ChunkSizes = 1, 500, 500 ;
    \tfloat T2(Time, south_north, west_east) ;
    \t\tT2:units = "K" ;
    \t\tT2:_ChunkSizes = 1, 500, 500 ;
    // global attributes:
    \t\t:SIMULATION_START_DATE = "2026-11-22_00:00:00" ;
    \t\t:MAP_PROJ = 1 ;
    \t\t:TRUELAT1 = 37.f ;
    \t\t:TRUELAT2 = 42.f ;
    \t\t:STAND_LON = -8.f ;
    \t\t:DX = 15000.f ;
    \t\t:DY = 15000.f ;
    data:
     Times = "2026-11-22_00:00:00" ;
    }
    """
    try makeNetCDF(cdl: cdl, kind: "nc4", at: path)
    try? FileManager.default.removeItem(atPath: path + ".cdl")
}
