import FileAdapter
import Foundation

/// The archive reader on arbitrary bytes, as a store file and as a per-model file: a
/// load either succeeds or throws ``ArchiveError``; a failed per-model load leaves the
/// store as it was.
public func fuzzArchiveReader(_ bytes: UnsafeRawBufferPointer) {
    let url = fuzzScratchDirectory.appendingPathComponent("archive-\(getpid())")
    do {
        try Data(bytes).write(to: url)
    } catch {
        fuzzFailure("cannot write the scratch file \(url.path): \(error)")
    }
    var options = FileAdapterConfiguration()
    options.autosave = .never
    do {
        let store = try FileAdapter(file: url, models: [FuzzGadget.self], configuration: options)
        _ = try FuzzGadget.query(in: store).all()
    } catch is ArchiveError {
    } catch {
        fuzzFailure("store file: an untyped error: \(type(of: error)) \(error)")
    }
    let store = FileAdapter(configuration: options)
    do {
        let kept = FuzzGadget()
        kept.name = "kept"
        try kept.save(to: store)
        try store.load(FuzzGadget.self, from: url)
    } catch is ArchiveError {
        let names = (try? FuzzGadget.query(in: store).all().map(\.name)) ?? []
        guard names == ["kept"] else { fuzzFailure("a failed load changed the store: \(names)") }
    } catch {
        fuzzFailure("per-model file: an untyped error: \(type(of: error)) \(error)")
    }
}

/// A RAM-backed scratch directory when there is one.
let fuzzScratchDirectory: URL = {
    let shm = URL(fileURLWithPath: "/dev/shm")
    return FileManager.default.isWritableFile(atPath: shm.path) ? shm : FileManager.default.temporaryDirectory
}()
