import CNetCDF
import CNetCDFLoader
import NetCDF
import XCTest

/// The loader's copies of netCDF constants equal the real header's (CNetCDF, via pkg-config),
/// and the library loads on first use.
final class LoaderTests: XCTestCase {
    func testConstantsMatchTheHeader() {
        let pairs: [(String, Int32, Int32)] = [
            ("NC_NOERR", TC_NC_NOERR, NC_NOERR), ("NC_NOWRITE", TC_NC_NOWRITE, NC_NOWRITE), ("NC_SHARE", TC_NC_SHARE, NC_SHARE),
            ("NC_GLOBAL", TC_NC_GLOBAL, NC_GLOBAL), ("NC_MAX_NAME", TC_NC_MAX_NAME, NC_MAX_NAME),
            ("NC_MAX_VAR_DIMS", TC_NC_MAX_VAR_DIMS, NC_MAX_VAR_DIMS),
            ("NC_ENOTNC", TC_NC_ENOTNC, NC_ENOTNC), ("NC_ENOTVAR", TC_NC_ENOTVAR, NC_ENOTVAR),
            ("NC_ENOTATT", TC_NC_ENOTATT, NC_ENOTATT), ("NC_EINVALCOORDS", TC_NC_EINVALCOORDS, NC_EINVALCOORDS),
            ("NC_EEDGE", TC_NC_EEDGE, NC_EEDGE), ("NC_EHDFERR", TC_NC_EHDFERR, NC_EHDFERR),
            ("NC_EIO", TC_NC_EIO, NC_EIO), ("NC_ETRUNC", TC_NC_ETRUNC, NC_ETRUNC), ("NC_ERANGE", TC_NC_ERANGE, NC_ERANGE),
            ("NC_ECHAR", TC_NC_ECHAR, NC_ECHAR),
            ("NC_FORMAT_CLASSIC", TC_NC_FORMAT_CLASSIC, NC_FORMAT_CLASSIC),
            ("NC_FORMAT_64BIT_OFFSET", TC_NC_FORMAT_64BIT_OFFSET, NC_FORMAT_64BIT_OFFSET),
            ("NC_FORMAT_64BIT_DATA", TC_NC_FORMAT_64BIT_DATA, NC_FORMAT_64BIT_DATA),
            ("NC_FORMAT_NETCDF4", TC_NC_FORMAT_NETCDF4, NC_FORMAT_NETCDF4),
            ("NC_FORMAT_NETCDF4_CLASSIC", TC_NC_FORMAT_NETCDF4_CLASSIC, NC_FORMAT_NETCDF4_CLASSIC),
            ("NC_BYTE", TC_NC_BYTE, NC_BYTE), ("NC_CHAR", TC_NC_CHAR, NC_CHAR), ("NC_SHORT", TC_NC_SHORT, NC_SHORT),
            ("NC_INT", TC_NC_INT, NC_INT), ("NC_FLOAT", TC_NC_FLOAT, NC_FLOAT), ("NC_DOUBLE", TC_NC_DOUBLE, NC_DOUBLE),
            ("NC_UBYTE", TC_NC_UBYTE, NC_UBYTE), ("NC_USHORT", TC_NC_USHORT, NC_USHORT), ("NC_UINT", TC_NC_UINT, NC_UINT),
            ("NC_INT64", TC_NC_INT64, NC_INT64), ("NC_UINT64", TC_NC_UINT64, NC_UINT64), ("NC_STRING", TC_NC_STRING, NC_STRING),
        ]
        for (name, loader, header) in pairs { XCTAssertEqual(loader, header, name) }
    }

    func testLibraryLoadsAndSpeaksItsOwnMessages() {
        XCTAssertEqual(tc_nc_load(), 0)
        XCTAssertEqual(NetCDFStatus.notNetCDF.description, String(cString: nc_strerror(NC_ENOTNC)))
    }
}
