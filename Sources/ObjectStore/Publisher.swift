import Catalog
import Foundation
import NIOHTTP1
import TileStore
#if canImport(Glibc)
import Glibc
#endif

/// Publishes a local store's cycle to a bucket, in the order that keeps readers safe:
///
/// 1. incomplete multipart uploads under the model's prefix (a publisher that died) are aborted;
/// 2. each domain file is uploaded (multipart above `partSize`, parts in parallel), every
///    object and part with S3's `x-amz-checksum-crc32`, so the bucket refuses bytes that
///    changed on the way;
/// 3. the cycle's manifest is uploaded beside them;
/// 4. `MODEL/latest/cycle.json` is replaced last, with one PUT (atomic per object), unless the
///    bucket's latest is a newer cycle (re-publishing an older cycle does not move it back).
///
/// A reader therefore sees the old cycle or the new one, never a mix; a publisher killed at any
/// step leaves `latest` as it was, and running it again completes the job.
package struct Publisher {
    package let client: ObjectClient
    /// Bytes per multipart part (S3: at least 5 MiB but the last); smaller files are one PUT.
    package var partSize: Int = 16 << 20
    /// Parts in flight at once.
    package var parallelParts: Int = 4

    package init(client: ObjectClient) { self.client = client }

    /// What a publication did.
    package struct Summary: Sendable {
        package var model: String
        package var cycle: String
        package var files: Int
        package var bytes: Int
        package var abortedUploads: Int
        package var movedLatest: Bool
        package var requests: Int
    }

    /// Publishes one cycle of a model (the only one when nil; `tilecast
    /// publish` names each model of the store in turn).
    ///
    /// - Throws: `ObjectStoreError` naming the address that failed; `StoreError` for a local
    ///   cycle that cannot be read.
    package func publish(root: String, model: String?, cycle: CycleSelector = .latest) throws -> Summary {
        let models = try CycleStore.models(root: root)
        let chosen: String
        if let model { chosen = model } else if models.count == 1, let only = models.first { chosen = only } else {
            throw ObjectStoreError.configuration(models.isEmpty ? "\(root): no published cycle to publish (run tilecast extract first)"
                                                 : "the store holds several models (\(models.joined(separator: ", "))): choose one with --model")
        }
        let published = try CycleStore.openCycle(root: root, model: chosen, cycle: cycle)
        let before = client.statistics.requests
        let aborted = try abortIncompleteUploads(under: chosen + "/")
        var bytes = 0
        for (entry, path) in zip(published.manifest.files, published.domainPaths) {
            try upload(file: path, to: chosen + "/" + published.name + "/" + entry.file)
            bytes += entry.bytes
        }
        let manifestBytes = try published.manifest.encoded()
        try put(manifestBytes, to: chosen + "/" + published.name + "/" + CycleManifest.fileName, contentType: "application/json")
        // latest moves forward only.
        var moveLatest = true
        let latestPath = RemoteCycle.manifestPath(model: chosen, cycle: .latest)
        if let current = try client.getObject(latestPath),
           let manifest = try? JSONDecoder().decode(CycleManifest.self, from: Data(current)),
           let currentID = CycleID(name: manifest.cycle), let ours = CycleID(name: published.name), currentID > ours {
            moveLatest = false
        }
        if moveLatest { try put(manifestBytes, to: latestPath, contentType: "application/json") }
        return Summary(model: chosen, cycle: published.name, files: published.domainPaths.count, bytes: bytes,
                       abortedUploads: aborted, movedLatest: moveLatest, requests: client.statistics.requests - before)
    }

    /// One object in one PUT, with its CRC-32.
    package func put(_ body: [UInt8], to relative: String, contentType: String = "application/octet-stream") throws(ObjectStoreError) {
        let response = try client.send(.PUT, relative, headers: [("Content-Type", contentType), ("Content-Length", "\(body.count)"),
                                                                ("x-amz-checksum-crc32", ObjectChecksum.header(ObjectChecksum.crc32(body)))], body: body)
        guard response.status == 200 else { throw client.failure(response, relative, "PUT") }
    }

    /// A local file: one PUT, or a multipart upload.
    func upload(file path: String, to relative: String) throws {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        let size = Int(try handle.seekToEnd())
        if size <= partSize {
            try handle.seek(toOffset: 0)
            try put(Array(handle.readData(ofLength: size)), to: relative)
            return
        }
        let created = try client.send(.POST, relative, query: [("uploads", "")], headers: [("x-amz-checksum-algorithm", "CRC32")])
        guard created.status == 200, let uploadID = XMLText.first("UploadId", in: created.body) else {
            throw client.failure(created, relative, "CreateMultipartUpload")
        }
        do {
            let count = (size + partSize - 1) / partSize
            var parts: [(number: Int, etag: String, crc: String)] = []
            var next = 0
            while next < count {
                // A batch of parts in flight together, each read from the file just before.
                let batch = next..<min(next + parallelParts, count)
                var started: [(number: Int, body: [UInt8], crc: String, future: Result<EventLoopFutureBox, Error>)] = []
                for index in batch {
                    try handle.seek(toOffset: UInt64(index * partSize))
                    let body = Array(handle.readData(ofLength: min(partSize, size - index * partSize)))
                    let crc = ObjectChecksum.header(ObjectChecksum.crc32(body))
                    let future = Result { EventLoopFutureBox(try client.start(.PUT, relative, query: partQuery(index + 1, uploadID), headers: partHeaders(body, crc), body: body)) }
                    started.append((index + 1, body, crc, future))
                }
                for part in started {
                    var response: ObjectResponse?
                    if case .success(let box) = part.future, let answer = try? box.future.wait(), answer.status == 200 { response = answer }
                    if response == nil {
                        // Retried alone, with backoff (throttling, a dropped connection).
                        response = try client.send(.PUT, relative, query: partQuery(part.number, uploadID), headers: partHeaders(part.body, part.crc), body: part.body)
                    }
                    guard let answer = response, answer.status == 200, let etag = answer.headers.first(name: "etag") else {
                        throw response.map { client.failure($0, relative, "UploadPart \(part.number)") } ?? ObjectStoreError.request(url: client.describe(relative), detail: "UploadPart \(part.number) failed")
                    }
                    parts.append((part.number, etag, part.crc))
                }
                next = batch.upperBound
            }
            let list = parts.map { "<Part><PartNumber>\($0.number)</PartNumber><ETag>\(XMLText.escape($0.etag))</ETag><ChecksumCRC32>\($0.crc)</ChecksumCRC32></Part>" }.joined()
            let body = Array("<CompleteMultipartUpload xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">\(list)</CompleteMultipartUpload>".utf8)
            // S3 may answer 200 and still report an error in the body: tried again then.
            var completed = false
            for _ in 0..<3 where !completed {
                let response = try client.send(.POST, relative, query: [("uploadId", uploadID)], headers: [("Content-Type", "application/xml")], body: body)
                guard response.status == 200 else { throw client.failure(response, relative, "CompleteMultipartUpload") }
                completed = XMLText.first("Error", in: response.body) == nil
            }
            guard completed else { throw ObjectStoreError.request(url: client.describe(relative), detail: "CompleteMultipartUpload kept reporting an error") }
        } catch {
            _ = try? client.send(.DELETE, relative, query: [("uploadId", uploadID)])
            throw error
        }
    }

    private func partQuery(_ number: Int, _ uploadID: String) -> [(String, String)] { [("partNumber", "\(number)"), ("uploadId", uploadID)] }

    private func partHeaders(_ body: [UInt8], _ crc: String) -> [(String, String)] {
        [("Content-Length", "\(body.count)"), ("x-amz-checksum-crc32", crc)]
    }

    /// Aborts every incomplete multipart upload under a prefix (what a killed publisher left).
    ///
    /// - Returns: how many were aborted.
    package func abortIncompleteUploads(under relativePrefix: String) throws(ObjectStoreError) -> Int {
        guard case .s3 = client.location else { return 0 }
        let prefix = client.location.key(relativePrefix)
        // The whole bucket's list, filtered here: a `prefix` parameter holds slashes, which
        // moto's signature check decodes before signing (S3 itself does not), refusing
        // correctly signed requests. One page: up to 1000 uploads in progress.
        let response = try client.send(.GET, "", query: [("uploads", "")])
        guard response.status == 200 else { throw client.failure(response, "", "ListMultipartUploads") }
        var aborted = 0
        for upload in XMLText.all("Upload", in: response.body) {
            guard let key = XMLText.first("Key", in: Array(upload.utf8)).map(XMLText.unescape), let id = XMLText.first("UploadId", in: Array(upload.utf8)),
                  key.hasPrefix(prefix) else { continue }
            let relative = String(key.dropFirst(client.location.key("").count))
            let answer = try client.send(.DELETE, relative, query: [("uploadId", XMLText.unescape(id))])
            guard answer.status == 204 || answer.status == 200 || answer.status == 404 else { throw client.failure(answer, relative, "AbortMultipartUpload") }
            aborted += 1
        }
        return aborted
    }
}

import NIOCore

/// A future carried through `Result` (which wants its success type named).
struct EventLoopFutureBox {
    let future: EventLoopFuture<ObjectResponse>
    init(_ future: EventLoopFuture<ObjectResponse>) { self.future = future }
}

/// The few values read out of S3's XML answers (no XML library: the elements are flat text).
enum XMLText {
    static func all(_ tag: String, in bytes: [UInt8]) -> [String] {
        let text = String(decoding: bytes, as: UTF8.self)
        var found: [String] = []
        var rest = text[...]
        while let open = rest.range(of: "<\(tag)>"), let close = rest[open.upperBound...].range(of: "</\(tag)>") {
            found.append(String(rest[open.upperBound..<close.lowerBound]))
            rest = rest[close.upperBound...]
        }
        return found
    }

    static func first(_ tag: String, in bytes: [UInt8]) -> String? { all(tag, in: bytes).first }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    }
}
