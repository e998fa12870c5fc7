import Foundation

/// What keyed photo ids and the "in some room's stack" check cost, against what they replace: the
/// FNV-1a id, and the library look-up every `GET /photos/{id}` makes already. Compiled by
/// Benchmarks/bench_ids.py with the server's own sources for these types, `swiftc -O`.
@main
struct IDBench {
    static func nanoseconds(_ count: Int, _ body: (Int) -> Void) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        for index in 0..<count { body(index) }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / Double(count)
    }

    static func main() {
        let photos = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 20_000
        let paths = (0..<photos).map { "album-\($0 % 40)/IMG_\($0).jpg" }
        let ids = PhotoIDs(secret: Array(PhotoIDs.drawSecret().utf8))
        var sink = 0
        let fnv = nanoseconds(photos) { sink &+= PhotoIDs.legacyID(of: paths[$0]).utf8.count }
        let hmac = nanoseconds(photos) { sink &+= ids.id(of: paths[$0]).utf8.count }
        let keyed = paths.map(ids.id(of:))
        // The look-up the router makes already (the library, behind its lock)…
        let library = Locked(Dictionary(uniqueKeysWithValues: keyed.map { ($0, $0.utf8.count) }))
        let lookup = nanoseconds(1_000_000) { index in sink &+= library.withLock { $0[keyed[index % photos]] ?? 0 } }
        // …and the one it adds: 4 rooms, each with 50 photos removed.
        let stacked = StackedPhotos()
        for room in 0..<4 { stacked.roomSaved("r\(room)", removed: Array(keyed[(room * 50)..<(room * 50 + 50)])) }
        let holds = nanoseconds(1_000_000) { sink &+= stacked.holds(keyed[$0 % photos]) ? 1 : 0 }
        // A save: the room's removals given again, one of them changed each time.
        var removed = Array(keyed[0..<50])
        let save = nanoseconds(100_000) {
            removed[$0 % 50] = keyed[50 + $0 % (photos - 50)]
            stacked.roomSaved("r0", removed: removed)
        }
        print(
            """
            {"photos": \(photos), "fnv_id_ns": \(Int(fnv)), "hmac_id_ns": \(Int(hmac)), \
            "library_lookup_ns": \(Int(lookup)), "stacked_holds_ns": \(Int(holds)), \
            "stacked_save_50_removed_ns": \(Int(save)), "sink": \(sink % 2)}
            """)
    }
}
