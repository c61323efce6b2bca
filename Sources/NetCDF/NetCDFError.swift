import CNetCDFLoader

/// A libnetcdf status code, kept as the number the library returned.
///
/// Named constants cover the codes TileCast reacts to; any other code is still carried
/// faithfully and printed with the library's own message.
public struct NetCDFStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The file is not a netCDF file (or its header is damaged beyond recognition).
    public static let notNetCDF = NetCDFStatus(rawValue: TC_NC_ENOTNC)
    /// No variable of that name.
    public static let variableNotFound = NetCDFStatus(rawValue: TC_NC_ENOTVAR)
    /// No attribute of that name.
    public static let attributeNotFound = NetCDFStatus(rawValue: TC_NC_ENOTATT)
    /// A hyperslab start lies outside the variable.
    public static let indexOutOfBounds = NetCDFStatus(rawValue: TC_NC_EINVALCOORDS)
    /// A hyperslab start + count runs past the variable's end.
    public static let edgeOutOfBounds = NetCDFStatus(rawValue: TC_NC_EEDGE)
    /// The HDF5 layer failed (damaged netCDF-4 file, checksum failure, truncation).
    public static let hdfError = NetCDFStatus(rawValue: TC_NC_EHDFERR)
    /// Reading the file failed below the format layer (short read, I/O error).
    public static let ioError = NetCDFStatus(rawValue: TC_NC_EIO)
    /// A classic-format file is shorter than its header says (truncated).
    public static let truncated = NetCDFStatus(rawValue: TC_NC_ETRUNC)
    /// The file does not exist (the library passes errno through).
    public static let fileNotFound = NetCDFStatus(rawValue: 2) // ENOENT
    /// libnetcdf itself could not be loaded (not installed).
    public static let libraryMissing = NetCDFStatus(rawValue: TC_NC_ENOLIBRARY)
    /// A value could not be converted to the requested type.
    public static let typeMismatch = NetCDFStatus(rawValue: TC_NC_ECHAR)
    /// A value lies outside the range of the requested type.
    public static let outOfRange = NetCDFStatus(rawValue: TC_NC_ERANGE)

    /// The path is not a regular file (a FIFO, socket or device): never handed to libnetcdf,
    /// which would block forever opening a FIFO. TileCast's own code, outside libnetcdf's range.
    public static let notRegularFile = NetCDFStatus(rawValue: -9001)
    /// Reading the variable would need more memory than TileCast allows for one read.
    public static let tooLarge = NetCDFStatus(rawValue: -9002)

    public var description: String {
        if self == .notRegularFile { return "not a regular file" }
        if self == .tooLarge { return "too large to read" }
        guard let text = tc_nc_strerror(rawValue) else { return "netCDF status \(rawValue)" }
        return String(cString: text)
    }
}

/// Any failure to read a netCDF file: what the library said, and which file and variable.
///
/// Every libnetcdf call goes through `NetCDFLibrary.call`, which builds this error, so no
/// status code is ever dropped and every message names the file at fault.
public struct NetCDFError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The library status; for problems found by this layer, the closest library code.
    public let status: NetCDFStatus
    /// The file being read.
    public let path: String
    /// The variable (or attribute) being read, when there was one.
    public let variable: String?
    /// What was being done, in a few words ("open", "read T2[0..3]", ...).
    public let operation: String

    package init(status: NetCDFStatus, path: String, variable: String? = nil, operation: String) {
        self.status = status
        self.path = path
        self.variable = variable
        self.operation = operation
    }

    public var description: String {
        let target = variable.map { "\(path): variable \($0)" } ?? path
        return "\(target): \(operation) failed: \(status.description) (netCDF status \(status.rawValue))"
    }
}
