import ArrayAdapter
import Foundation

/// The JSON importer on arbitrary bytes: it must throw typed errors and, when it throws,
/// leave the store empty (an import is one transaction).
public func fuzzJSONImport(_ bytes: UnsafeRawBufferPointer) {
    let store = ArrayAdapter()
    do {
        let report = try FuzzGadget.importJSON(Data(bytes), into: store)
        let count = (try? FuzzGadget.count(in: store)) ?? -1
        guard count == report.inserted.count else { fuzzFailure("imported \(report.inserted.count) but the store holds \(count)") }
    } catch is SerializationError {
        expectEmpty(store)
    } catch is CastError {
        expectEmpty(store)
    } catch is RecordInvalid {
        expectEmpty(store)
    } catch is StoreError {
        expectEmpty(store)
    } catch is ModelError {
        expectEmpty(store)
    } catch {
        fuzzFailure("an untyped error: \(type(of: error)) \(error)")
    }
}

private func expectEmpty(_ store: ArrayAdapter) {
    let count = (try? FuzzGadget.count(in: store)) ?? -1
    guard count == 0 else { fuzzFailure("a failed import left \(count) records") }
}

/// Stops the fuzzer with a message: the input is a finding.
func fuzzFailure(_ message: String) -> Never {
    FileHandle.standardError.write(Data("fuzz finding: \(message)\n".utf8))
    abort()
}
