// libFuzzer entry point: built with `swift build --sanitize=fuzzer --sanitize=address`
// (Scripts/fuzz.sh), libFuzzer provides `main` and calls this for every input. A
// plain build makes an executable that does nothing.
import FuzzTargets

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    fuzzJSONImport(UnsafeRawBufferPointer(start: data, count: count))
    return 0
}
