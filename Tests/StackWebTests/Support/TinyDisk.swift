import Foundation
import Glibc
import Testing

/// A real, tiny disk to fill: a 1 MiB tmpfs (mounting one needs root).
enum TinyDisk {
    /// A 1 MiB tmpfs, unmounted when the body returns.
    static func mounted(_ body: (String) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stackweb-disk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let mount = Process()
        mount.executableURL = URL(fileURLWithPath: "/bin/mount")
        mount.arguments = ["-t", "tmpfs", "-o", "size=1m", "tmpfs", folder.path]
        try mount.run()
        mount.waitUntilExit()
        try #require(mount.terminationStatus == 0, "mount -t tmpfs failed")
        defer { umount2(folder.path, Int32(MNT_DETACH)) }
        try body(folder.path)
    }

    /// Makes the disk at `folder` read-only, as a NAS share mounted so (or writable again).
    static func makeReadOnly(_ folder: String, _ readOnly: Bool = true) throws {
        let mount = Process()
        mount.executableURL = URL(fileURLWithPath: "/bin/mount")
        mount.arguments = ["-o", readOnly ? "remount,ro" : "remount,rw", folder]
        try mount.run()
        mount.waitUntilExit()
        try #require(mount.terminationStatus == 0, "mount -o \(mount.arguments?[1] ?? "") failed")
    }

    /// Fills the disk at `folder` with one file until the kernel says it is full.
    static func fill(_ folder: String) -> String {
        let path = folder + "/filler"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let block = [UInt8](repeating: 0x55, count: 4096)
        while block.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
        fsync(fd)
        close(fd)
        return path
    }
}
