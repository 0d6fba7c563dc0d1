import FileAdapter
import Foundation

/// An in-memory disk for power-loss tests, behind FileAdapter's ``FileSystem`` seam.
///
/// Like a journaling file system with a page cache:
/// - file data written since the file's last `sync` is volatile;
/// - directory changes (creating, renaming, removing) since the directory's last sync are
///   volatile, and survive a cut as a prefix of the order they happened in.
///
/// After ``arm(_:)``, the call that exhausts the count and every later call fail with
/// `EIO`: the power is off. ``reboot()`` then decides what survived: a random prefix of
/// the volatile directory changes, and for each surviving file with volatile data, its
/// synced contents, its new contents, or a torn mix (4 KiB blocks new, old, zeroed or
/// garbage, and possibly a shorter length).
final class SimulatedDisk: FileSystem, Sendable {
    fileprivate struct Inode {
        var data: [UInt8] = []
        var synced: [UInt8] = []
        var permissions: UInt16
        var isDirty: Bool { data != synced }
    }

    fileprivate enum DirectoryChange {
        case link(String, Int)
        case rename(String, String, Int)
        case unlink(String)
    }

    fileprivate struct State {
        var inodes: [Int: Inode] = [:]
        var names: [String: Int] = [:]
        var durableNames: [String: Int] = [:]
        var changes: [DirectoryChange] = []
        var handles: [Int32: Int] = [:]
        var nextInode = 1
        var nextHandle: Int32 = 3
        var remaining = -1
        var isOff = false
        var random: UInt64
        var statistics = Statistics()
    }

    /// What the last cuts did.
    struct Statistics {
        var cuts = 0
        var tornFiles = 0
        var lostData = 0
        var lostDirectoryChanges = 0
    }

    private let state: Locked<State>

    init(seed: UInt64) {
        state = Locked(State(random: seed | 1))
    }

    /// Cuts the power after `operations` more writing calls (creating, writing, syncing,
    /// closing, renaming, removing).
    func arm(_ operations: Int) {
        state.withLock { $0.remaining = operations }
    }

    var statistics: Statistics { state.withLock { $0.statistics } }

    /// Restores power after a cut, deciding what the disk kept; disarms. Without a cut,
    /// a clean shutdown: everything written is kept.
    func reboot() {
        state.withLock { state in
            state.remaining = -1
            state.handles.removeAll()
            guard state.isOff else {
                state.durableNames = state.names
                state.changes.removeAll()
                for (inode, file) in state.inodes { state.inodes[inode]?.synced = file.data }
                return
            }
            state.isOff = false
            state.statistics.cuts += 1
            let kept = Int(state.next() % UInt64(state.changes.count + 1))
            state.statistics.lostDirectoryChanges += state.changes.count - kept
            var names = state.durableNames
            for change in state.changes.prefix(kept) {
                switch change {
                case .link(let name, let inode): names[name] = inode
                case .rename(let source, let destination, let inode):
                    names[source] = nil
                    names[destination] = inode
                case .unlink(let name): names[name] = nil
                }
            }
            state.names = names
            state.durableNames = names
            state.changes.removeAll()
            for inode in Set(names.values) {
                guard var file = state.inodes[inode], file.isDirty else { continue }
                switch state.next() % 3 {
                case 0:
                    file.data = file.synced
                    state.statistics.lostData += 1
                case 1: break
                default:
                    file.data = state.tear(file.data, over: file.synced)
                    state.statistics.tornFiles += 1
                }
                file.synced = file.data
                state.inodes[inode] = file
            }
            state.inodes = state.inodes.filter { Set(names.values).contains($0.key) }
        }
    }

    /// Removes a file durably (setting up the next round of a test).
    func erase(_ path: String) {
        state.withLock { state in
            state.names[path] = nil
            state.durableNames[path] = nil
        }
    }

    // MARK: FileSystem

    func readFile(at path: String) throws(FileSystemError) -> [UInt8]? {
        try state.withLock { state throws(FileSystemError) in
            guard !state.isOff else { throw Self.eio }
            return state.names[path].flatMap { state.inodes[$0]?.data }
        }
    }

    func permissions(at path: String) -> UInt16? {
        state.withLock { state in state.names[path].flatMap { state.inodes[$0]?.permissions } }
    }

    func createFile(at path: String, permissions: UInt16) throws(FileSystemError) -> Int32 {
        try state.withLock { state throws(FileSystemError) in
            try state.tick()
            guard state.names[path] == nil else { throw FileSystemError(code: EEXIST, reason: "exists") }
            let inode = state.nextInode
            state.nextInode += 1
            state.inodes[inode] = Inode(permissions: permissions)
            state.names[path] = inode
            state.changes.append(.link(path, inode))
            let handle = state.nextHandle
            state.nextHandle += 1
            state.handles[handle] = inode
            return handle
        }
    }

    func write(_ handle: Int32, _ bytes: [UInt8]) throws(FileSystemError) {
        try state.withLock { state throws(FileSystemError) in
            try state.tick()
            guard let inode = state.handles[handle] else { throw FileSystemError(code: EBADF, reason: "bad handle") }
            state.inodes[inode]?.data += bytes
        }
    }

    func sync(_ handle: Int32) throws(FileSystemError) {
        try state.withLock { state throws(FileSystemError) in
            try state.tick()
            guard let inode = state.handles[handle], var file = state.inodes[inode] else {
                throw FileSystemError(code: EBADF, reason: "bad handle")
            }
            file.synced = file.data
            state.inodes[inode] = file
        }
    }

    func close(_ handle: Int32) throws(FileSystemError) {
        try state.withLock { state throws(FileSystemError) in
            try state.tick()
            guard state.handles.removeValue(forKey: handle) != nil else {
                throw FileSystemError(code: EBADF, reason: "bad handle")
            }
        }
    }

    func rename(_ source: String, to destination: String) throws(FileSystemError) {
        try state.withLock { state throws(FileSystemError) in
            try state.tick()
            guard let inode = state.names.removeValue(forKey: source) else {
                throw FileSystemError(code: ENOENT, reason: "no such file")
            }
            state.names[destination] = inode
            state.changes.append(.rename(source, destination, inode))
        }
    }

    func remove(_ path: String) {
        state.withLock { state in
            guard (try? state.tick()) != nil, state.names.removeValue(forKey: path) != nil else { return }
            state.changes.append(.unlink(path))
        }
    }

    func syncDirectory(_ path: String) throws(FileSystemError) {
        try state.withLock { state throws(FileSystemError) in
            try state.tick()
            state.durableNames = state.names
            state.changes.removeAll()
        }
    }

    static let eio = FileSystemError(code: EIO, reason: "input/output error (the power is off)")
}

extension SimulatedDisk.State {
    /// Counts one writing call; throws once the power is off.
    mutating func tick() throws(FileSystemError) {
        guard !isOff else { throw SimulatedDisk.eio }
        guard remaining >= 0 else { return }
        if remaining == 0 {
            isOff = true
            throw SimulatedDisk.eio
        }
        remaining -= 1
    }

    mutating func next() -> UInt64 {
        random ^= random >> 12
        random ^= random << 25
        random ^= random >> 27
        return random &* 0x2545_F491_4F6C_DD1D
    }

    /// `new` as a power cut may leave it: per 4 KiB block new, old, zeroed or garbage, and
    /// possibly cut short.
    mutating func tear(_ new: [UInt8], over old: [UInt8]) -> [UInt8] {
        var result = new
        let block = 4096
        var start = 0
        while start < result.count {
            let end = min(start + block, result.count)
            switch next() % 4 {
            case 0: break
            case 1:
                for k in start..<end { result[k] = k < old.count ? old[k] : 0 }
            case 2:
                for k in start..<end { result[k] = 0 }
            default:
                for k in start..<end { result[k] = UInt8(truncatingIfNeeded: next()) }
            }
            start = end
        }
        if !result.isEmpty, next() % 2 == 0 {
            result.removeLast(Int(next() % UInt64(result.count)))
        }
        return result
    }
}
