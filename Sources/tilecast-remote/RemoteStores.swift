import Catalog
import ObjectStore
import PointQuery
import TileCastCommandLine
import TileStore

/// The cycle of a remote store for `tilecast query`: one model, as a bucket cannot be listed.
struct RemoteStores: QueryStores {
    let store: ForecastStore

    var stores: [ForecastStore] { [store] }

    /// Opens the cycle `options` name, errors as the command line reports them.
    static func open(_ options: QueryOptions) throws(Failure) -> RemoteStores {
        guard let model = options.model else {
            throw Failure(.badUsage, "--model: a remote store (\(StoreAddress.redacted(options.store))) cannot be listed; name the model to read")
        }
        let client: ObjectClient
        do throws(ObjectStoreError) {
            client = try ObjectClient(store: options.store, endpoint: options.s3Endpoint, region: options.s3Region, isQuery: true)
        } catch {
            throw Failure(error)
        }
        return RemoteStores(store: try querying { () throws(QueryError) in
            let opened: OpenedCycle
            do throws(StoreError) { opened = try RemoteCycle(client: client, model: model, cycle: options.cycle).opened } catch {
                throw .store(error)
            }
            return try ForecastStore(root: client.location.description, model: model, opened: opened, nestMargin: options.nestMargin)
        })
    }

    /// Fetches the place's blocks ahead, many requests at once.
    func prefetch(latitude: Double, longitude: Double, times: [Int64], variables: [ForecastVariable]) {
        store.prefetch(latitude: latitude, longitude: longitude, times: times, variables: variables)
    }
}
