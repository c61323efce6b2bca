import Foundation
@testable import ObjectStore
import TestSupport
import XCTest

/// The SigV4 signer against AWS's published examples and against botocore's signer (the AWS
/// CLI's), never against itself.
final class SigV4Tests: XCTestCase {
    let exampleCredentials = S3Credentials(accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")
    /// 20130524T000000Z, the time of AWS's S3 examples.
    let exampleDate = Date(timeIntervalSince1970: 1_369_353_600)

    /// "Example: GET Object" of AWS's "Signature Calculations for the Authorization Header"
    /// (S3 API reference): a ranged GET of examplebucket/test.txt.
    func testAWSPublishedGetObjectExample() {
        let signer = SigV4Signer(credentials: exampleCredentials, region: "us-east-1")
        let headers = signer.sign(method: "GET", path: "/test.txt", headers: [("Host", "examplebucket.s3.amazonaws.com"), ("Range", "bytes=0-9")],
                                  payloadHash: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", date: exampleDate)
        XCTAssertEqual(headers.first { $0.0 == "Authorization" }?.1,
                       "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
    }

    /// "Example: PUT Object" of the same page: a body with a storage-class header.
    func testAWSPublishedPutObjectExample() {
        let signer = SigV4Signer(credentials: exampleCredentials, region: "us-east-1")
        let body = Array("Welcome to Amazon S3.".utf8)
        let headers = signer.sign(method: "PUT", path: "/test%24file.text",
                                  headers: [("Host", "examplebucket.s3.amazonaws.com"), ("Date", "Fri, 24 May 2013 00:00:00 GMT"), ("x-amz-storage-class", "REDUCED_REDUNDANCY")],
                                  payloadHash: SigV4Signer.payloadHash(body), date: exampleDate)
        XCTAssertEqual(headers.first { $0.0 == "Authorization" }?.1,
                       "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class, Signature=98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd")
    }

    /// Requests of the shapes TileCast sends (ranged GET, PUT with a checksum, multipart
    /// query strings, keys with spaces and unicode, a session token) signed by botocore.
    func testMatchesBotocore() throws {
        guard (try? runTool("python3", ["-c", "import botocore"]))?.status == 0 else { throw XCTSkip("botocore not installed") }
        struct Case { var method: String; var path: String; var query: [(String, String)]; var headers: [(String, String)]; var body: [UInt8]; var token: String?; var region: String }
        let cases = [
            Case(method: "GET", path: "/tilecast-test/store/wrf/2026-11-22T00Z/d01.tcs", query: [], headers: [("Range", "bytes=-65536")], body: [], token: nil, region: "us-east-1"),
            Case(method: "PUT", path: "/bucket/a%20b/%C3%A9t%C3%A9/cycle.json", query: [], headers: [("Content-Type", "application/json"), ("x-amz-checksum-crc32", "AAAAAA==")], body: Array("{\"x\": 1}".utf8), token: "session/token+1", region: "eu-west-3"),
            Case(method: "PUT", path: "/bucket/k/d02.tcs", query: [("partNumber", "3"), ("uploadId", "abc/def+ghi=")], headers: [("Content-Length", "5")], body: [1, 2, 3, 4, 5], token: nil, region: "us-east-1"),
            Case(method: "GET", path: "/bucket", query: [("uploads", ""), ("prefix", "store/wrf/")], headers: [], body: [], token: nil, region: "us-east-1"),
        ]
        let time = "20261123T145501Z"
        let date = Date(timeIntervalSince1970: 1_795_445_701)
        var json: [[String: Any]] = []
        var ours: [String] = []
        for c in cases {
            let credentials = S3Credentials(accessKeyID: "AKIDTEST", secretAccessKey: "secret/Key+1", sessionToken: c.token)
            let signer = SigV4Signer(credentials: credentials, region: c.region)
            let host = "127.0.0.1:9000"
            let headers = [("Host", host)] + c.headers
            let signed = signer.sign(method: c.method, path: c.path, query: c.query, headers: headers, payloadHash: SigV4Signer.payloadHash(c.body), date: date)
            ours.append(signed.first { $0.0 == "Authorization" }?.1 ?? "")
            let query = c.query.map { $0.1.isEmpty ? $0.0 : "\($0.0)=\(SigV4Signer.encode($0.1))" }.joined(separator: "&")
            var headerObject: [String: String] = [:]
            for (name, value) in c.headers { headerObject[name] = value }
            json.append(["method": c.method, "url": "http://\(host)\(c.path)" + (query.isEmpty ? "" : "?" + query), "headers": headerObject,
                         "body": c.body.map { String(format: "%02x", $0) }.joined(), "key": credentials.accessKeyID,
                         "secret": credentials.secretAccessKey, "token": c.token as Any, "region": c.region, "time": time])
        }
        let input = String(decoding: try JSONSerialization.data(withJSONObject: json), as: UTF8.self)
        let result = try runTool("python3", [Peer.here("botocore_sign.py")], input: input)
        XCTAssertEqual(result.status, 0, result.stderr)
        let theirs = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(theirs.count, cases.count)
        for (mine, botocore) in zip(ours, theirs) { XCTAssertEqual(mine, botocore) }
    }

    func testChecksumHeaderIsBase64OfBigEndianCRC32() {
        // zlib's CRC-32 of "123456789" is 0xCBF43926 (the check value of CRC-32/ISO-HDLC).
        XCTAssertEqual(ObjectChecksum.crc32(Array("123456789".utf8)), 0xCBF4_3926)
        XCTAssertEqual(ObjectChecksum.header(0xCBF4_3926), Data([0xCB, 0xF4, 0x39, 0x26]).base64EncodedString())
    }
}
