import Foundation
import Glibc

/// The standard `process_*` metrics of Prometheus' client libraries, read from `/proc/self`.
enum ProcessMetrics {
    static func render() -> String {
        var text = ""
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        let page = Double(sysconf(Int32(_SC_PAGESIZE)))
        if let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        {
            // Fields after the command name (which may hold spaces) start after the last ')':
            // state is field 3, utime 14, stime 15, starttime 22, vsize 23, rss 24 (proc(5)).
            let fields = stat[stat.index(after: close)...].split(separator: " ").map(String.init)
            func field(_ number: Int) -> Double { Double(fields[number - 3]) ?? 0 }
            let cpu = (field(14) + field(15)) / ticks
            text += metric("process_cpu_seconds_total", "User and system CPU time spent.", "counter", cpu)
            text += metric("process_virtual_memory_bytes", "Virtual memory size.", "gauge", field(23))
            text += metric("process_resident_memory_bytes", "Resident memory size.", "gauge", field(24) * page)
            text += metric(
                "process_start_time_seconds", "Start time of the process since the epoch.", "gauge",
                bootTime() + field(22) / ticks)
        }
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
        text += metric("process_open_fds", "Open file descriptors.", "gauge", Double(descriptors))
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 {
            text += metric("process_max_fds", "Most file descriptors it may open.", "gauge", Double(limit.rlim_cur))
        }
        return text
    }

    private static func metric(_ name: String, _ help: String, _ type: String, _ value: Double) -> String {
        PrometheusText.header(name, help, type: type) + "\(name) \(PrometheusText.number(value))\n"
    }

    /// When the machine booted, in seconds since the epoch (`btime` in /proc/stat).
    private static func bootTime() -> Double {
        let stat = (try? String(contentsOfFile: "/proc/stat", encoding: .utf8)) ?? ""
        let line = stat.split(separator: "\n").first { $0.hasPrefix("btime ") }
        return line.flatMap { Double($0.dropFirst(6)) } ?? 0
    }
}
