import Foundation
import RESTAdapter
@testable import RESTContract
@testable import SwiftModelREST
import Testing

/// The byte-level percent decoder and the escaper agree with Foundation's
/// `removingPercentEncoding` / `addingPercentEncoding`.
@Suite struct PercentDecodingTests {
    @Test func decodesAsFoundationDoes() {
        let samples = [
            "", "todos", "5", "a%20b", "%E2%9C%93", "caf%C3%A9", "%zz", "%4", "%", "100%25", "%FF%FE", "%C3",
            "plain+plus", "%2F%2f", "ünï", "%e2%9c%93x",
        ]
        for sample in samples {
            #expect(PercentDecoding.decode(Substring(sample)) == sample.removingPercentEncoding, "\(sample)")
        }
    }

    @Test func decodesRandomBytesAsFoundationDoes() {
        let alphabet = Array("%%%aF09zZ+ é/✓".unicodeScalars.map(String.init))
        for _ in 0..<5_000 {
            let sample = (0..<Int.random(in: 0...8)).map { _ in alphabet.randomElement() ?? "" }.joined()
            let foundation = sample.removingPercentEncoding
            // Foundation on Linux sometimes substitutes U+FFFD for bytes that are not UTF-8
            // (`%a9`) and sometimes answers nil (`%FF`); the decoder always answers nil.
            let expected = foundation?.contains("\u{FFFD}") == true ? nil : foundation
            #expect(PercentDecoding.decode(Substring(sample)) == expected, "\(sample)")
        }
    }

    @Test func escapingAgreesWithFoundationAndRoundTrips() {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let alphabet = Array("aZ09-._~ /%+?&=é✓#".unicodeScalars.map(String.init))
        for _ in 0..<5_000 {
            let sample = (0..<Int.random(in: 0...8)).map { _ in alphabet.randomElement() ?? "" }.joined()
            let escaped = PercentEncoding.escape(sample)
            #expect(escaped == sample.addingPercentEncoding(withAllowedCharacters: allowed), "\(sample)")
            #expect(PercentDecoding.decode(Substring(escaped)) == sample, "\(sample)")
        }
    }

    @Test func formsReadPlusAsSpace() {
        #expect(PercentDecoding.decode("a+b%2Bc", plusIsSpace: true) == "a b+c")
        #expect(PercentDecoding.decode("a+b", plusIsSpace: false) == "a+b")
    }

    @Test func headerNamesCompareWithoutCase() {
        #expect(PercentDecoding.sameName("If-Match", "if-match"))
        #expect(PercentDecoding.sameName("ETAG", "ETag"))
        #expect(!PercentDecoding.sameName("If-Match", "If-Matcx"))
        #expect(!PercentDecoding.sameName("a[", "A{"), "only letters fold")
        #expect(!PercentDecoding.sameName("If-Match", "If-Match-2"))
    }
}
