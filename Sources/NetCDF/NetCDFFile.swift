import CNetCDFLoader
import Foundation

/// The on-disk flavour of a netCDF file.
package enum NetCDFFormat: String, Sendable, Equatable {
    case classic = "netCDF-3 classic"
    case offset64 = "netCDF-3 64-bit offset"
    case cdf5 = "netCDF-3 CDF-5"
    case netCDF4 = "netCDF-4/HDF5"
    case netCDF4Classic = "netCDF-4/HDF5 classic model"
    case unknown = "unknown"

    init(code: Int32) {
        switch code {
        case TC_NC_FORMAT_CLASSIC: self = .classic
        case TC_NC_FORMAT_64BIT_OFFSET: self = .offset64
        case TC_NC_FORMAT_64BIT_DATA: self = .cdf5
        case TC_NC_FORMAT_NETCDF4: self = .netCDF4
        case TC_NC_FORMAT_NETCDF4_CLASSIC: self = .netCDF4Classic
        default: self = .unknown
        }
    }
}

/// A named axis of a file's variables.
package struct Dimension: Sendable, Equatable {
    package let name: String
    /// The number of entries (for the unlimited dimension, the records written so far).
    package let length: Int
    package let isUnlimited: Bool
}

/// An open netCDF file, read-only. Metadata is read once at open; data on demand.
///
/// The file closes when the last reference goes away. Safe to share between threads:
/// every library call is serialised by `NetCDFLibrary`.
package final class NetCDFFile: Sendable {
    package let path: String
    package let format: NetCDFFormat
    package let dimensions: [Dimension]
    /// Global attributes by name; `globalAttributeNames` keeps the file's order.
    package let globalAttributes: [String: AttributeValue]
    package let globalAttributeNames: [String]
    /// Descriptions of the variables, in the file's order.
    package let variables: [VariableInfo]
    private let variablesByName: [String: Int]
    let ncid: Int32

    /// Opens a file for reading.
    ///
    /// - Throws: `NetCDFError` naming the file: `.fileNotFound`, `.notNetCDF`, `.hdfError`,
    ///   `.truncated`, or whatever the library reports.
    package init(path: String) throws(NetCDFError) {
        self.path = path
        let size = try Self.requireRegularFile(path)
        try Self.checkClassicHeader(path: path, size: size)
        var id: Int32 = -1
        try NetCDFLibrary.call(path: path, "open") { tc_nc_open(path, TC_NC_NOWRITE, &id) }
        ncid = id
        do {
            var formatCode: Int32 = 0
            try NetCDFLibrary.call(path: path, "read format") { tc_nc_inq_format(id, &formatCode) }
            format = NetCDFFormat(code: formatCode)
            let metadata = try MetadataReader(path: path, ncid: id)
            dimensions = try metadata.dimensions()
            (globalAttributeNames, globalAttributes) = try metadata.attributes(varid: TC_NC_GLOBAL, variable: nil)
            let infos = try metadata.variables(dimensions: dimensions)
            var byName: [String: Int] = [:]
            for (index, info) in infos.enumerated() { byName[info.name] = index }
            variablesByName = byName
            variables = infos
        } catch {
            _ = NetCDFLibrary.locked { tc_nc_close(id) }
            throw error
        }
    }

    /// Refuses anything but a regular file (through symlinks) before libnetcdf sees the path:
    /// opening a FIFO blocks until a writer comes, a device may never end.
    ///
    /// - Returns: the file's size in bytes (of the file a link names).
    private static func requireRegularFile(_ path: String) throws(NetCDFError) -> UInt64 {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            throw NetCDFError(status: NetCDFStatus(rawValue: code), path: path, operation: "open")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            let kind: String
            switch info.st_mode & S_IFMT {
            case S_IFIFO: kind = "a FIFO"
            case S_IFDIR: kind = "a folder"
            case S_IFSOCK: kind = "a socket"
            case S_IFCHR, S_IFBLK: kind = "a device"
            default: kind = "not a regular file"
            }
            throw NetCDFError(status: .notRegularFile, path: path,
                              operation: "open (it is \(kind); expected a regular netCDF file)")
        }
        return UInt64(max(0, info.st_size))
    }

    /// Reads a netCDF-3 header before libnetcdf does (see `ClassicLayout`): refuses a header
    /// no file can have (libnetcdf 4.9 segfaults opening some), a file that ends inside its
    /// header, and one shorter than its header promises (libnetcdf would read zeros).
    private static func checkClassicHeader(path: String, size: UInt64) throws(NetCDFError) {
        switch ClassicLayout.check(path: path) {
        case .notChecked:
            return
        case .impossible(let what):
            throw NetCDFError(status: .notNetCDF, path: path,
                              operation: "read the netCDF-3 header (it holds \(what): damaged or not a netCDF file)")
        case .tooLong:
            throw NetCDFError(status: .notNetCDF, path: path,
                              operation: "read the netCDF-3 header (it goes on past \(ClassicLayout.maxHeaderBytes >> 20) MiB; a model's header is at most a few MiB: damaged)")
        case .endsInHeader:
            throw NetCDFError(status: .truncated, path: path,
                              operation: "read the netCDF-3 header (the file, \(size) bytes, ends inside it: truncated)")
        case .layout(let layout) where size < layout.requiredSize:
            throw NetCDFError(status: .truncated, path: path,
                              operation: "check size (the header promises \(layout.requiredSize) bytes, the file has \(size): truncated)")
        case .layout:
            return
        }
    }

    deinit {
        let id = ncid
        _ = NetCDFLibrary.locked { tc_nc_close(id) }
    }

    /// The variable of that name, bound to this file for reading.
    ///
    /// - Throws: `NetCDFError` with status `.variableNotFound`, naming file and variable.
    package func variable(_ name: String) throws(NetCDFError) -> Variable {
        guard let index = variablesByName[name] else {
            throw NetCDFError(status: .variableNotFound, path: path, variable: name, operation: "find variable")
        }
        return Variable(file: self, info: variables[index])
    }

    /// Whether the file has a variable of that name.
    package func hasVariable(_ name: String) -> Bool { variablesByName[name] != nil }

    /// The dimension of that name, or nil.
    package func dimension(_ name: String) -> Dimension? { dimensions.first { $0.name == name } }

    /// A global attribute, or nil when absent.
    package func attribute(_ name: String) -> AttributeValue? { globalAttributes[name] }
}

/// Reads a file's header: dimensions, attributes and variable descriptions.
private struct MetadataReader {
    let path: String
    let ncid: Int32

    init(path: String, ncid: Int32) throws(NetCDFError) {
        self.path = path
        self.ncid = ncid
    }

    func dimensions() throws(NetCDFError) -> [Dimension] {
        var count: Int32 = 0
        try NetCDFLibrary.call(path: path, "count dimensions") { tc_nc_inq_ndims(ncid, &count) }
        var unlimited: Int32 = -1
        try NetCDFLibrary.call(path: path, "find unlimited dimension") { tc_nc_inq_unlimdim(ncid, &unlimited) }
        var result: [Dimension] = []
        for dimid in 0..<count {
            var length = 0
            let name = try self.name("read dimension \(dimid)", variable: nil) { tc_nc_inq_dim(ncid, dimid, $0, &length) }
            result.append(Dimension(name: name, length: length, isUnlimited: dimid == unlimited))
        }
        return result
    }

    func variables(dimensions: [Dimension]) throws(NetCDFError) -> [VariableInfo] {
        var count: Int32 = 0
        try NetCDFLibrary.call(path: path, "count variables") { tc_nc_inq_nvars(ncid, &count) }
        var result: [VariableInfo] = []
        for varid in 0..<count {
            var type: tc_nc_type = 0
            var rank: Int32 = 0
            let varName = try name("describe variable \(varid)", variable: nil) {
                tc_nc_inq_var(ncid, varid, $0, &type, &rank, nil, nil)
            }
            // The dimension ids' buffer sized by the rank the library just gave, not by
            // NC_MAX_VAR_DIMS: the library writes as many ids as the variable has.
            guard rank >= 0, rank <= TC_NC_MAX_VAR_DIMS else {
                throw NetCDFError(status: .notNetCDF, path: path, variable: varName, operation: "describe variable (rank \(rank))")
            }
            var dimids = [Int32](repeating: -1, count: max(Int(rank), 1))
            var rankAgain: Int32 = 0
            try NetCDFLibrary.call(path: path, variable: varName, "describe variable \(varid)") {
                tc_nc_inq_var(ncid, varid, nil, nil, &rankAgain, &dimids, nil)
            }
            guard rankAgain == rank else {
                throw NetCDFError(status: .notNetCDF, path: path, variable: varName, operation: "describe variable (its rank changed)")
            }
            var dims: [Dimension] = []
            for dimid in dimids.prefix(Int(rank)) {
                guard dimid >= 0, Int(dimid) < dimensions.count else {
                    throw NetCDFError(status: .notNetCDF, path: path, variable: varName, operation: "resolve dimension \(dimid)")
                }
                dims.append(dimensions[Int(dimid)])
            }
            let (names, attributes) = try self.attributes(varid: varid, variable: varName)
            result.append(VariableInfo(id: varid, name: varName,
                                       type: NetCDFType(code: type), dimensions: dims,
                                       attributeNames: names, attributes: attributes))
        }
        return result
    }

    func attributes(varid: Int32, variable: String?) throws(NetCDFError) -> ([String], [String: AttributeValue]) {
        var count: Int32 = 0
        try NetCDFLibrary.call(path: path, variable: variable, "count attributes") { tc_nc_inq_varnatts(ncid, varid, &count) }
        var names: [String] = []
        var values: [String: AttributeValue] = [:]
        for index in 0..<count {
            let attributeName = try name("name attribute \(index)", variable: variable) { tc_nc_inq_attname(ncid, varid, index, $0) }
            if let value = try attribute(varid: varid, name: attributeName, variable: variable) {
                names.append(attributeName)
                values[attributeName] = value
            }
        }
        return (names, values)
    }

    /// A name (of a dimension, variable or attribute) that a libnetcdf call copies into the
    /// buffer it is given, refused when longer than NC_MAX_NAME.
    ///
    /// libnetcdf has no query for a name's length: it `strcpy`s the name it holds. Its classic
    /// layer takes any length from the header (`ClassicLayout` refuses such headers before
    /// open); its HDF5 layer cuts names near NC_MAX_NAME but can hand back a few bytes more (a
    /// 600-byte HDF5 dataset name came back as 260 bytes with bytes past its own buffer). So
    /// the buffer is many times NC_MAX_NAME + 1, zeroed, and what comes back is checked.
    private func name(_ operation: @autoclosure () -> String, variable: String?,
                      _ read: (UnsafeMutablePointer<CChar>) -> Int32) throws(NetCDFError) -> String {
        let capacity = Self.nameBufferBytes
        var text: String?
        var status: Int32 = TC_NC_NOERR
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: capacity) { buffer in
            guard let base = buffer.baseAddress else { return }
            base.initialize(repeating: 0, count: capacity)
            status = NetCDFLibrary.locked { read(base) }
            let length = strnlen(base, capacity)
            guard status == TC_NC_NOERR, length <= Int(TC_NC_MAX_NAME) else { return }
            text = String(decoding: UnsafeRawBufferPointer(start: base, count: length), as: UTF8.self)
        }
        if status != TC_NC_NOERR {
            throw NetCDFError(status: NetCDFStatus(rawValue: status), path: path, variable: variable, operation: operation())
        }
        guard let text else {
            throw NetCDFError(status: .notNetCDF, path: path, variable: variable,
                              operation: operation() + " (a name longer than \(TC_NC_MAX_NAME) bytes: damaged or not written by netCDF)")
        }
        return text
    }

    /// 16 times NC_MAX_NAME + 1: room for what the HDF5 layer's over-long names were seen to be.
    private static let nameBufferBytes = 16 * (Int(TC_NC_MAX_NAME) + 1)

    /// One attribute's value; nil for types TileCast has no use for (compound, opaque, ...).
    private func attribute(varid: Int32, name: String, variable: String?) throws(NetCDFError) -> AttributeValue? {
        var type: tc_nc_type = 0
        var length = 0
        let label = "read attribute \(name)"
        try NetCDFLibrary.call(path: path, variable: variable, label) { tc_nc_inq_att(ncid, varid, name, &type, &length) }
        switch Int32(type) {
        case TC_NC_CHAR:
            var chars = [CChar](repeating: 0, count: length + 1)
            try NetCDFLibrary.call(path: path, variable: variable, label) { tc_nc_get_att_text(ncid, varid, name, &chars) }
            return .text(decodeName(chars))
        case TC_NC_BYTE, TC_NC_UBYTE, TC_NC_SHORT, TC_NC_USHORT, TC_NC_INT, TC_NC_UINT, TC_NC_INT64:
            var numbers = [Int64](repeating: 0, count: max(length, 1))
            try NetCDFLibrary.call(path: path, variable: variable, label) { tc_nc_get_att_longlong(ncid, varid, name, &numbers) }
            return .integers(Array(numbers.prefix(length)))
        case TC_NC_FLOAT, TC_NC_DOUBLE, TC_NC_UINT64:
            var numbers = [Double](repeating: 0, count: max(length, 1))
            try NetCDFLibrary.call(path: path, variable: variable, label) { tc_nc_get_att_double(ncid, varid, name, &numbers) }
            return .reals(Array(numbers.prefix(length)))
        default:
            return nil
        }
    }
}

/// Decodes a NUL-terminated C buffer as UTF-8, dropping trailing NULs and spaces.
func decodeName(_ buffer: [CChar]) -> String {
    let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    return String(decoding: bytes, as: UTF8.self)
}
