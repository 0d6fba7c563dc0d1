/// How a ``FileAdapter`` writes its files (`FileAdapter.Configuration`; formerly
/// `FileAdapterOptions`).
///
/// ```swift
/// var configuration = FileAdapter.Configuration()
/// configuration.autosave = .never                 // only save() / serialize() write
/// configuration.permissions = 0o640
/// let store = try FileAdapter(file: url, configuration: configuration)
/// ```
public struct FileAdapterConfiguration: Sendable {
    /// When files are written without an explicit ``FileAdapter/save()``.
    public enum Autosave: Sendable, Equatable {
        /// Only explicit saves write.
        case never
        /// After each committed write or transaction, once `coalescing` has passed: every
        /// commit in that window is written by one save, on a background queue. Call
        /// ``FileAdapter/flush()`` to write pending changes now (before exiting, say).
        case afterCommit(coalescing: Duration)
    }

    /// When files are written without an explicit save. Default: after each commit,
    /// coalescing commits within 250 ms.
    public var autosave: Autosave = .afterCommit(coalescing: .milliseconds(250))
    /// Permission bits of files the adapter creates (an existing file keeps its own).
    /// Default `0o600`: owner only.
    public var permissions: UInt16 = 0o600
    /// Whether a save waits for the data to reach the disk (`fsync` of the file and its
    /// directory) before returning. Default `true`; `false` trades durability across
    /// power loss for speed: a process crash still leaves whole files, but a power cut
    /// may lose recent saves or leave a file damaged, which loading reports as an
    /// ``ArchiveError`` (see "Durability" in `Docs/FileAdapter.md`).
    public var synchronous: Bool = true
    /// Called on the autosave queue when an autosave fails (the changes stay pending and
    /// the next commit or ``FileAdapter/flush()`` retries).
    public var onAutosaveError: (@Sendable (any Error) -> Void)?
    /// The file system the adapter reads and writes through (tests simulate power loss
    /// with their own).
    package var fileSystem: any FileSystem = POSIXFileSystem()

    /// The defaults.
    public init() {}
}

/// What loading does when the file does not exist.
public enum MissingFilePolicy: Sendable {
    /// Treat it as an empty store (and create the file on the next save).
    case startEmpty
    /// Throw ``ArchiveError`` `.missingFile`.
    case fail
}

/// The former name of ``FileAdapterConfiguration``.
@available(*, deprecated, renamed: "FileAdapterConfiguration")
public typealias FileAdapterOptions = FileAdapterConfiguration
