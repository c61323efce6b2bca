import Foundation
import Hummingbird
import ObjectStore
import Synchronization

/// How many requests of a server on a remote store may read from the object server at once
/// (`--max-remote-reads`), apart from `--max-in-flight`.
///
/// A request is computed first from what is cached (`RemoteReadScope` refusing every read):
/// a place read before answers at once, on any thread. Only a request that needed the object
/// server takes a slot here and is computed again, on a thread of its own (never one of GCD's
/// shared workers, which a slow object server would otherwise fill: with 30 such requests,
/// cached places, `/health` and `/metrics` waited behind them). Waiting for a slot holds no
/// thread and counts against the request's deadline; a request still waiting at its deadline
/// gets 503.
package final class RemoteReadGate: Sendable {
    package let limit: Int
    /// A request's deadline, from its arrival (`RemoteLimits.querySeconds`).
    package let seconds: Double

    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var busy = 0
        var waiting: [Waiter] = []
        var next: UInt64 = 0
    }

    private let state = Mutex<State>(State())

    /// The gate of the server a request is answered by (set around its routes).
    @TaskLocal package static var current: RemoteReadGate?

    package init(limit: Int, seconds: Double) {
        self.limit = max(1, limit)
        self.seconds = seconds
    }

    /// Requests reading from the object server now, and waiting for a slot (for `/metrics`).
    package var counts: (reading: Int, waiting: Int) { state.withLock { ($0.busy, $0.waiting.count) } }

    /// Waits for a slot until `deadline`; false when none came by then.
    func acquire(until deadline: Date) async -> Bool {
        await withCheckedContinuation { continuation in
            // Admitted, or listed, under one lock: a slot freed meanwhile is never missed.
            let id = state.withLock { state -> UInt64? in
                if state.busy < limit && state.waiting.isEmpty {
                    state.busy += 1
                    return nil
                }
                state.next += 1
                state.waiting.append(Waiter(id: state.next, continuation: continuation))
                return state.next
            }
            guard let id else {
                continuation.resume(returning: true)
                return
            }
            let wait = max(0, deadline.timeIntervalSinceNow)
            // Whoever takes the waiter out of the list resumes it: a release (true) or its deadline (false).
            Task {
                try? await Task.sleep(for: .milliseconds(Int64(wait * 1000)))
                let expired = self.state.withLock { state -> Waiter? in
                    guard let k = state.waiting.firstIndex(where: { $0.id == id }) else { return nil }
                    return state.waiting.remove(at: k)
                }
                expired?.continuation.resume(returning: false)
            }
        }
    }

    /// Gives a slot back: to the longest waiting request, else free.
    func release() {
        let next = state.withLock { state -> Waiter? in
            guard !state.waiting.isEmpty else {
                state.busy -= 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.continuation.resume(returning: true)
    }

    /// Runs `work` on a thread of its own (see the type's comment), under `scope`.
    static func onOwnThread<T: Sendable>(scope: RemoteReadScope, _ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: ObjectClient.within(scope) { work() }) }
            thread.name = "tilecast remote read"
            thread.start()
        }
    }
}

/// Sets `RemoteReadGate.current` for every route of a server on a remote store.
struct RemoteReadMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext
    let gate: RemoteReadGate

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try await RemoteReadGate.$current.withValue(gate) { try await next(request, context) }
    }
}
