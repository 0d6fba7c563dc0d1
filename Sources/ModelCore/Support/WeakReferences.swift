internal import SwiftModelCRuntime

// References that do not keep their object alive, like Swift `weak` ones, but without the
// side table a `weak` reference allocates for its object.
//
// A `weak` reference gives its object a side table for the rest of its life: an
// allocation, and every later retain and release of the object goes through the runtime's
// slow path. For records in a `ModelContext` and for the context their memberships point
// to, that was about 8,100 instructions a record saved (Docs/Benchmarks.md, "Stop 66").
// These references instead hold the object `unowned`, which counts in the object's own
// header and keeps only its memory (not the object) allocated, and turn strong with the
// runtime's try-retain (`swift_tryRetain`, the primitive a `weak` load uses), which fails
// once the object has begun to deinitialize.
//
// An object whose last strong reference went keeps its instance memory (its fields are
// already released) until the last of these references to it goes: holders drop the ones
// that read nil when they sweep, as they did their empty `weak` references.

/// A record held without keeping it alive (see the top of this file).
///
/// Not `Sendable`: read and copied by one thread at a time (under its holder's lock), like
/// the `weak` references it replaces. ``record`` may run on any thread: the try-retain is
/// atomic with the record's last release on another.
package struct WeakRecord {
    /// Keeps the record's memory allocated (only) while this reference exists, so the
    /// try-retain reads a live header. Never read: loading it strongly would trap once the
    /// record is gone.
    private unowned(safe) let memory: ModelObject
    /// The record's address.
    private let address: UnsafeMutableRawPointer

    /// A reference to `record`.
    package init(_ record: ModelObject) {
        memory = record
        address = Unmanaged.passUnretained(record).toOpaque()
    }

    /// The record, strongly, or nil once it has begun to deinitialize.
    package var record: ModelObject? {
        guard swift_tryRetain(address) != nil else { return nil }
        return Unmanaged<ModelObject>.fromOpaque(address).takeRetainedValue()
    }

    /// Whether this is a reference to `record` (which the caller holds), without
    /// retaining anything.
    package func refers(to record: ModelObject) -> Bool {
        address == Unmanaged.passUnretained(record).toOpaque()
    }
}

/// A registry (a ``ModelContext``) held without keeping it alive (see the top of this
/// file): every record registered in it points to it, and each save reads it a few times.
///
/// Immutable, so `Sendable`: ``registry`` may run on any thread.
package struct WeakRegistry: Sendable {
    /// The registry, unowned: keeps its memory allocated, and is read only while the
    /// try-retain below holds the registry alive.
    private unowned(safe) let held: any RecordRegistry
    /// The registry's address (as an integer, which is `Sendable`).
    private let address: UInt

    /// A reference to `registry`.
    package init(_ registry: any RecordRegistry) {
        held = registry
        address = UInt(bitPattern: Unmanaged.passUnretained(registry as AnyObject).toOpaque())
    }

    /// The registry, strongly, or nil once it has begun to deinitialize.
    package var registry: (any RecordRegistry)? {
        guard let object = retained() else { return nil }
        // The try-retain keeps it alive while the unowned reference loads it strongly.
        defer { object.release() }
        return held
    }

    /// Whether the registry has begun to deinitialize (or is gone).
    package var isGone: Bool {
        guard let object = retained() else { return true }
        object.release()
        return false
    }

    /// The registry retained by the try-retain, or nil once it has begun to deinitialize.
    private func retained() -> Unmanaged<AnyObject>? {
        guard let object = UnsafeMutableRawPointer(bitPattern: address), swift_tryRetain(object) != nil else { return nil }
        return Unmanaged<AnyObject>.fromOpaque(object)
    }
}
