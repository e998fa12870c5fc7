import Foundation

extension ServerProcess {
    /// How many file descriptors the server process holds open now (`/proc/<pid>/fd`).
    func openDescriptorCount() throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.processIdentifier)/fd").count
    }
}
