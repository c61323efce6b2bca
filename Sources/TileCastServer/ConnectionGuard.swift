import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The process's file-descriptor limit.
///
/// Reaching it is fatal, not merely refused: libdispatch aborts (SIGILL) when it cannot open
/// `/proc/<tid>/stat` for a worker thread, so the server keeps its connections far enough
/// below the limit that the store's files, the event loops and GCD always find a descriptor.
package enum DescriptorLimit {
    /// Raises the soft RLIMIT_NOFILE to the hard one (systemd hands services a soft 1024 and a
    /// far higher hard limit) and returns the soft limit in force afterwards.
    package static func raiseToHard() -> Int {
        var value = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &value) == 0 else { return 1024 }
        if value.rlim_cur < value.rlim_max {
            var raised = value
            raised.rlim_cur = value.rlim_max
            if setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &raised) == 0 { value = raised }
        }
        return clamped(value.rlim_cur)
    }

    /// The soft limit in force.
    package static func current() -> Int {
        var value = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &value) == 0 else { return 1024 }
        return clamped(value.rlim_cur)
    }

    /// RLIM_INFINITY and other huge values as a number a connection count can be compared to.
    private static func clamped(_ value: rlim_t) -> Int { value > rlim_t(Int32.max) ? Int(Int32.max) : Int(value) }

    /// Descriptors the process holds now (the entries of /proc/self/fd, less the one used to
    /// list them), or nil where there is no /proc.
    package static func openCount() -> Int? {
        guard let directory = opendir("/proc/self/fd") else { return nil }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { $0.first }
            if name != UInt8(ascii: ".") { count += 1 }
        }
        return max(0, count - 1)
    }

    /// Descriptors kept for everything but client connections: the store's domain files (a
    /// few per model, and those of a cycle still read after a new one is published), the
    /// listening socket, the event loops' epoll/eventfd/timerfd, GCD's transient opens of
    /// /proc, a remote store's HTTP connections, standard streams. An eighth of the limit, at
    /// least 128.
    package static func headroom(limit: Int) -> Int { max(128, limit / 8) }

    /// Connections the server holds at most under `limit`: the rest of the headroom, and never
    /// more than `ceiling` (each idle connection also costs memory, see `ServerConfiguration.maxConnections`).
    ///
    /// - Parameter storeFiles: the domain files of the cycles the store keeps
    ///   (`CycleCache.keptFiles`), kept beyond the headroom: a request reaching back over every
    ///   kept cycle holds them all open at once.
    package static func connections(limit: Int, ceiling: Int, storeFiles: Int = 0) -> Int {
        max(8, min(ceiling, limit - headroom(limit: limit) - max(0, storeFiles)))
    }
}

/// The connections open now, the bytes of answers not yet taken by their sockets, and the
/// idle connections to close first when the server nears its connection limit.
package final class ConnectionLedger: Sendable {
    /// The most connections held at once; from this many on, no more are accepted (they wait
    /// in the listen backlog) until one closes.
    package let maxConnections: Int
    /// From this many on, idle keep-alive connections are closed, oldest first, so that the
    /// limit is reached only by connections that are being answered.
    package let closeIdleFrom: Int
    /// Answer bytes held for sockets that have not taken them yet, all connections together;
    /// past it, new forecasts are refused with 503 until slow clients drain or time out.
    package let maxQueuedBytes: Int

    private struct Entry {
        let channel: any Channel
        /// When the connection last finished an answer (or opened); nil while a request is
        /// being read or answered.
        var idleSince: ContinuousClock.Instant?
    }

    private struct State {
        var open: [ObjectIdentifier: Entry] = [:]
        var closedIdle = 0
        var closedStalled = 0
    }

    private let state = Mutex(State())
    private let queued = Atomic<Int>(0)

    package init(maxConnections: Int, maxQueuedBytes: Int) {
        self.maxConnections = max(1, maxConnections)
        closeIdleFrom = max(1, self.maxConnections * 7 / 8)
        self.maxQueuedBytes = max(1, maxQueuedBytes)
    }

    package var openConnections: Int { state.withLock { $0.open.count } }
    package var queuedBytes: Int { queued.load(ordering: .relaxed) }
    package var idleConnectionsClosed: Int { state.withLock { $0.closedIdle } }
    package var stalledConnectionsClosed: Int { state.withLock { $0.closedStalled } }

    /// Whether a new answer may be queued: false while slow clients hold the whole budget.
    package var hasRoomForAnswers: Bool { queuedBytes < maxQueuedBytes }

    func charge(_ bytes: Int) { queued.add(bytes, ordering: .relaxed) }

    /// Counts `bytes` if they fit in the budget, or if nothing is counted at all (so that one
    /// answer larger than the budget can still be made, alone).
    func tryCharge(_ bytes: Int) -> Bool {
        var current = queued.load(ordering: .relaxed)
        while true {
            if current > 0, current + bytes > maxQueuedBytes { return false }
            let (exchanged, original) = queued.compareExchange(expected: current, desired: current + bytes, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
    }
    func release(_ bytes: Int) { queued.subtract(bytes, ordering: .relaxed) }

    /// A connection opened; at or past `closeIdleFrom`, the connections idle longest are closed
    /// (an eighth of those held at a time, so a flood of idle connections costs little work).
    func opened(_ channel: any Channel) {
        let victims: [any Channel] = state.withLock { state in
            state.open[ObjectIdentifier(channel)] = Entry(channel: channel, idleSince: ContinuousClock.now)
            guard state.open.count >= closeIdleFrom else { return [] }
            let idle = state.open.filter { $0.value.idleSince != nil && $0.key != ObjectIdentifier(channel) }
            let count = min(idle.count, max(1, state.open.count - closeIdleFrom + maxConnections / 8))
            let chosen = idle.sorted { ($0.value.idleSince ?? .now) < ($1.value.idleSince ?? .now) }.prefix(count)
            state.closedIdle += chosen.count
            for victim in chosen { state.open[victim.key]?.idleSince = nil }
            return chosen.map(\.value.channel)
        }
        for victim in victims { victim.close(promise: nil) }
    }

    func closed(_ channel: any Channel) { state.withLock { _ = $0.open.removeValue(forKey: ObjectIdentifier(channel)) } }

    func busy(_ channel: any Channel) { state.withLock { $0.open[ObjectIdentifier(channel)]?.idleSince = nil } }

    func idle(_ channel: any Channel) { state.withLock { $0.open[ObjectIdentifier(channel)]?.idleSince = .now } }

    func stalledClosed() { state.withLock { $0.closedStalled += 1 } }
}

/// The budget a forecast reserves before it is computed, from its estimated size; released
/// once its real answer is counted (`QueuedAnswer`) or it failed.
final class AnswerReservation: Sendable {
    let ledger: ConnectionLedger
    private let amount = Atomic<Int>(0)

    init(ledger: ConnectionLedger) { self.ledger = ledger }

    func reserve(_ bytes: Int) -> Bool {
        guard ledger.tryCharge(bytes) else { return false }
        amount.add(bytes, ordering: .relaxed)
        return true
    }

    func release() { ledger.release(amount.exchange(0, ordering: .relaxed)) }

    deinit { ledger.release(amount.load(ordering: .relaxed)) }
}

/// Watches one connection after HTTP decoding: tells the ledger when it is busy or idle, and
/// closes it when its socket has taken none of the bytes written to it for `writeTimeout`
/// (a client that never reads; its answer's memory is freed with the connection).
final class ConnectionWatch: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    let ledger: ConnectionLedger
    let writeTimeout: TimeAmount
    private var inProgress = 0
    /// Bytes handed to NIO and not yet written to the socket.
    private var pending = 0
    private var lastProgress = NIODeadline.now()
    private var check: Scheduled<Void>?

    init(ledger: ConnectionLedger, writeTimeout: TimeAmount) {
        self.ledger = ledger
        self.writeTimeout = writeTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        ledger.opened(context.channel)
        // Forgotten by the ledger whichever way the connection ends.
        let ledger = self.ledger, channel = context.channel
        channel.closeFuture.whenComplete { _ in ledger.closed(channel) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        check?.cancel()
        check = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) {
            inProgress += 1
            ledger.busy(context.channel)
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let part = unwrapOutboundIn(data)
        let bytes: Int
        if case .body(let buffer) = part { bytes = buffer.readableBytes } else { bytes = 0 }
        if case .end = part {
            inProgress = max(0, inProgress - 1)
            if inProgress == 0 { ledger.idle(context.channel) }
        }
        guard bytes > 0 else {
            context.write(data, promise: promise)
            return
        }
        if pending == 0 { lastProgress = .now() }
        pending += bytes
        let done = promise ?? context.eventLoop.makePromise()
        let loopBound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        done.futureResult.whenComplete { _ in
            let handler = loopBound.value.handler
            handler.pending -= bytes
            handler.lastProgress = .now()
        }
        context.write(data, promise: done)
        scheduleCheck(context: context)
    }

    private func scheduleCheck(context: ChannelHandlerContext) {
        guard check == nil else { return }
        let loopBound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        check = context.eventLoop.scheduleTask(deadline: lastProgress + writeTimeout) {
            let (handler, context) = loopBound.value
            handler.check = nil
            guard handler.pending > 0 else { return }
            if NIODeadline.now() - handler.lastProgress >= handler.writeTimeout {
                handler.ledger.stalledClosed()
                context.close(promise: nil)
            } else {
                handler.scheduleCheck(context: context)
            }
        }
    }
}

/// Closes an HTTP/1.0 connection after its answer unless it asked for keep-alive (HTTP/1.0's
/// default; Hummingbird's loop, HummingbirdCore's HTTPChannelHandler.swift, ends a connection
/// only on `Connection: close`). It sits before NIOHTTPTypes' conversion, which drops the
/// version: it marks such a request `Connection: close`, and its answer says so.
final class HTTP10Close: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private var closing = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data), head.version.major == 1, head.version.minor == 0 else {
            context.fireChannelRead(data)
            return
        }
        let keepAlive = head.headers[canonicalForm: "connection"].contains { $0.lowercased() == "keep-alive" }
        if !keepAlive {
            closing = true
            head.headers.replaceOrAdd(name: "connection", value: "close")
        }
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if closing, case .head(var head) = unwrapOutboundIn(data) {
            head.headers.replaceOrAdd(name: "connection", value: "close")
            context.write(wrapOutboundOut(.head(head)), promise: promise)
            return
        }
        context.write(data, promise: promise)
    }
}

/// Hummingbird's HTTP/1 channel with the server's own handlers: `HTTP10Close` before the
/// conversion to HTTP types, `ConnectionWatch` after it.
struct GuardedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value
    let inner: HTTP1Channel
    let ledger: ConnectionLedger
    let writeTimeout: TimeAmount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let ledger = self.ledger, writeTimeout = self.writeTimeout
        return inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let operations = channel.pipeline.syncOperations
            let codec = try operations.handler(type: HTTP1ToHTTPServerCodec.self)
            try operations.addHandler(HTTP10Close(), position: .before(codec))
            try operations.addHandler(ConnectionWatch(ledger: ledger, writeTimeout: writeTimeout), position: .after(codec))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async { await inner.handle(value: value, logger: logger) }

    /// The builder `Application` takes.
    static func builder(ledger: ConnectionLedger, idleTimeout: TimeAmount, writeTimeout: TimeAmount) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            GuardedHTTP1Channel(inner: HTTP1Channel(responder: responder, configuration: .init(idleTimeout: idleTimeout)),
                                ledger: ledger, writeTimeout: writeTimeout)
        }
    }
}
