import Foundation
import Synchronization

/// The room the store has on its disk, and a reserve of it that only a full disk spends.
///
/// A file beside the database (`switchyard.sqlite.reserve`) holds ``reserveBytes`` of the disk. While the disk has
/// room, the store runs as usual. When a write fails because the disk is full, the reserve is released and the
/// store turns *full*: changes and new sessions are refused at once (they would take the reserve), while deleting
/// and expiring sessions, which need a little room for the write-ahead log, go on and hand their pages back to the
/// disk. Once the disk has room again for the reserve and as much besides, the reserve is taken back and the store
/// runs as usual. At start, a disk with no room releases the reserve, so that the store can open and serve reads.
final class SQLiteSpace: Sendable {
    /// The reserve file.
    let reservePath: String
    /// The bytes it holds.
    let reserveBytes: Int
    private let folder: String
    private let state = Mutex(State())

    private struct State {
        /// Since when the disk is full (seconds since 1970), nil while it has room.
        var fullSince: Double?
        /// When room was last looked for.
        var lastCheck: Double = 0
    }

    /// The space of the store at `databasePath`, with a reserve of `reserveBytes` (nil: 1/64 of the disk, from
    /// 1 MiB to 16 MiB).
    init(databasePath: String, reserveBytes: Int?) {
        reservePath = databasePath + ".reserve"
        folder = (databasePath as NSString).deletingLastPathComponent
        let disk = Self.diskBytes(folder.isEmpty ? "." : folder) ?? 0
        self.reserveBytes = reserveBytes ?? min(16 << 20, max(1 << 20, disk / 64))
    }

    /// Whether changes are refused because the disk is full.
    var isFull: Bool { state.withLock { $0.fullSince != nil } }

    /// Before the store opens: releases the reserve when the disk has less room than it (the store could not even
    /// open its log), and says whether the disk counts as full.
    func prepareForOpen() -> Bool {
        let free = freeBytes()
        guard let free, free < 2 * reserveBytes else {
            _ = takeReserve()
            return false
        }
        release()
        state.withLock { $0.fullSince = Self.now() }
        return true
    }

    /// A write failed with a full disk: unless the disk has room after all (a size cap of the database itself was
    /// reached), the reserve is released and the store turns full. Returns whether it turned full now.
    func diskFilled() -> Bool {
        if let free = freeBytes(), free >= 2 * reserveBytes { return false }
        let turned = state.withLock { state in
            guard state.fullSince == nil else { return false }
            state.fullSince = Self.now()
            state.lastCheck = Self.now()
            return true
        }
        release()
        return turned
    }

    /// While full: whether the disk has room again (looked at once a second at most); if so, the reserve is taken
    /// back and the store runs as usual.
    func recovered() -> Bool {
        let now = Self.now()
        let due = state.withLock { state in
            guard state.fullSince != nil, now - state.lastCheck >= 1 else { return false }
            state.lastCheck = now
            return true
        }
        guard due, let free = freeBytes(), free >= 2 * reserveBytes, takeReserve() else { return !isFull }
        state.withLock { $0.fullSince = nil }
        return true
    }

    /// Bytes the disk has free for this process (statvfs's `f_bavail`); nil when it cannot be told.
    func freeBytes() -> Int? {
        var info = statvfs()
        guard statvfs(folder.isEmpty ? "." : folder, &info) == 0 else { return nil }
        return Int(info.f_bavail) * Int(info.f_frsize)
    }

    private static func diskBytes(_ folder: String) -> Int? {
        var info = statvfs()
        guard statvfs(folder, &info) == 0 else { return nil }
        return Int(info.f_blocks) * Int(info.f_frsize)
    }

    /// Allocates the reserve file (a no-op when it is there whole); false when the disk has no room for it.
    private func takeReserve() -> Bool {
        let descriptor = open(reservePath, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var info = stat()
        if fstat(descriptor, &info) == 0, Int(info.st_size) >= reserveBytes, Int(info.st_blocks) * 512 >= reserveBytes {
            return true
        }
        guard posix_fallocate(descriptor, 0, off_t(reserveBytes)) == 0 else {
            _ = ftruncate(descriptor, 0)
            return false
        }
        return true
    }

    /// Gives the reserve back to the disk.
    private func release() {
        unlink(reservePath)
    }

    private static func now() -> Double { Date().timeIntervalSince1970 }
}
