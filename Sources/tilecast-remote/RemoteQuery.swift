import ObjectStore
import PointQuery

/// Opening a remote store for `tilecast query` (the command's code is tilecast's own).
enum RemoteQuery {
    /// The cycle of a remote store, errors as the command line reports them.
    static func open(store: String, model: String?, cycle: String, nestMargin: Double, endpoint: String?, region: String?) throws -> RemoteCycle {
        guard let model else {
            throw Failure(code: Failure.usage, message: "--model: a remote store (\(store)) cannot be listed; name the model to read")
        }
        let client: ObjectClient
        do throws(ObjectStoreError) { client = try ObjectClient(store: store, endpoint: endpoint, region: region) } catch {
            throw Failure(code: Failure.usage, message: error.description)
        }
        do throws(QueryError) { return try RemoteCycle(client: client, model: model, cycle: cycle, nestMargin: nestMargin) } catch {
            throw Failure(code: error.exitCode, message: error.description)
        }
    }
}
