#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A recursive mutex: the same thread may lock it again (an adapter's transaction body
/// calls back into the adapter). Owns its `pthread_mutex_t` and destroys it in `deinit`.
///
/// `@unchecked Sendable`: all mutable state is the pthread mutex itself, which is designed
/// for use from any thread; the pointer is allocated once and never reassigned.
package final class RecursiveLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    package init() {
        mutex = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    @inline(__always) package func lock() { pthread_mutex_lock(mutex) }
    @inline(__always) package func unlock() { pthread_mutex_unlock(mutex) }

    /// Takes the lock if that needs no waiting (free, or held by this thread).
    @inline(__always) package func tryLock() -> Bool { pthread_mutex_trylock(mutex) == 0 }

    /// Runs `body` holding the lock.
    @inline(__always) package func withLock<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Runs `body` holding the lock if it can be taken without waiting (free, or held by
    /// this thread); nil when another thread holds it.
    package func withLockIfAvailable<R>(_ body: () throws -> sending R) rethrows -> sending R? {
        guard pthread_mutex_trylock(mutex) == 0 else { return nil }
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// A number identifying the calling thread, for ownership checks.
@inline(__always) package func currentThreadID() -> UInt {
    #if canImport(Darwin)
    return UInt(bitPattern: pthread_self())
    #else
    return UInt(pthread_self())
    #endif
}

/// One value per thread, for state that follows a synchronous call stack (open
/// transactions, schema capture). Values are class instances kept alive by the key's slot.
///
/// `@unchecked Sendable`: the key is created once in `init`; each thread only ever reads
/// and writes its own slot.
package final class ThreadLocal<Value: AnyObject>: @unchecked Sendable {
    private var key = pthread_key_t()

    package init() {
        pthread_key_create(&key) { pointer in
            #if canImport(Darwin)
            Unmanaged<AnyObject>.fromOpaque(pointer).release()
            #else
            if let pointer { Unmanaged<AnyObject>.fromOpaque(pointer).release() }
            #endif
        }
    }

    /// The calling thread's value, if any.
    package var value: Value? {
        get {
            guard let pointer = pthread_getspecific(key) else { return nil }
            return Unmanaged<Value>.fromOpaque(pointer).takeUnretainedValue()
        }
        set {
            if let old = pthread_getspecific(key) { Unmanaged<AnyObject>.fromOpaque(old).release() }
            pthread_setspecific(key, newValue.map { Unmanaged.passRetained($0 as AnyObject).toOpaque() })
        }
    }
}

/// A value guarded by a pthread mutex: the package's lock for shared state.
///
/// Used instead of `Synchronization.Mutex` because on Linux that one is built on raw
/// futex calls Thread Sanitizer cannot see, so every use reads as a data race; a
/// pthread mutex is understood, which keeps `swift test --sanitize=thread` meaningful.
///
/// `@unchecked Sendable`: `value` is only read or written inside ``withLock(_:)``, holding
/// `mutex`; the pointer is allocated once and never reassigned.
package final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    // Only `withLock` touches the value, holding the (non-recursive) mutex, so two accesses
    // can never overlap: the dynamic exclusivity check each access would pay (about 80
    // instructions, 1.1 million times in `--contexts 10000`) proves nothing. Measured under
    // callgrind, whole run of `ModelBenchmarks --contexts 2000 --runs 1`: 953.8 M
    // instructions without it, 938.5 M with (+1.6 %).
    @exclusivity(unchecked) private var value: Value

    package init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    @inline(__always) package func withLock<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
