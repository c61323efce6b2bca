import Catalog
import PointQuery

/// The stores `tilecast query --store` names, opened: a local store folder here, or a cycle
/// on object storage (opened by `tilecast-remote`, which links the HTTP client `tilecast`
/// leaves out).
package protocol QueryStores {
    /// The stores to answer from: one per model, or only the model `--model` names.
    var stores: [ForecastStore] { get }

    /// Starts reading what answering a place will read, before it is answered: a remote
    /// store's blocks, fetched many at once rather than one request at a time.
    func prefetch(latitude: Double, longitude: Double, times: [Int64], variables: [ForecastVariable])
}

/// A store folder on this machine.
package struct LocalStores: QueryStores {
    package let stores: [ForecastStore]

    /// Opens the store of `options`; a remote one (a bucket or a web address) is handed to
    /// `tilecast-remote` with the same arguments.
    ///
    /// - Throws: `Failure`: S3 options given for a local store (2), no such store or model (5).
    package static func open(_ options: QueryOptions) throws(Failure) -> LocalStores {
        if isRemote(options.store) {
            try SiblingBinary.exec("tilecast-remote", Array(CommandLine.arguments.dropFirst()), neededFor: "a remote store")
        }
        if options.s3Endpoint != nil || options.s3Region != nil {
            throw Failure(.badUsage, "--s3-endpoint and --s3-region apply to an s3:// store only")
        }
        // Without --model, every model of the store: each place is answered by the best match.
        return LocalStores(stores: try querying { () throws(QueryError) in
            try ModelChoice.open(root: options.store, model: options.model, cycle: options.cycle, nestMargin: options.nestMargin)
        })
    }

    /// Blocks of a local store are read when needed: nothing to start.
    package func prefetch(latitude: Double, longitude: Double, times: [Int64], variables: [ForecastVariable]) {}

    /// Whether a `--store` value is a remote store (a bucket or a web address).
    package static func isRemote(_ store: String) -> Bool {
        store.hasPrefix("s3://") || store.hasPrefix("http://") || store.hasPrefix("https://")
    }
}
