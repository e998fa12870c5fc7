import CVipsTestSupport
import Foundation
import Testing

@testable import StackWebServer

/// A guest who asks for every size and format there is gets a bounded set of variants, made on a
/// fixed number of threads, and a clear "come back" when too many wait.
@Suite struct VariantBoundTests {
    /// Widths and heights that snap to each of the ladder's nine steps.
    static let sides = [100, 200, 400, 700, 1000, 1500, 2000, 3000, 4000]

    /// Variant files in a cache folder (not the photo index).
    static func variants(in cache: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: cache)) ?? []).filter {
            !$0.hasPrefix(PhotoIndex.fileName) && !$0.contains(".tmp-")
        }
    }

    static func threads(of pid: Int32) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8))
        let line = status?.split(separator: "\n").first { $0.hasPrefix("Threads:") } ?? ""
        return Int(line.split(separator: "\t").last ?? "") ?? 0
    }

    @Test func theVariantServingABoxIsTheLadderStepOfThePhotoFittedIntoIt() {
        // Fitted into the box, never enlarged, the long side snapped up.
        #expect(PhotoVariants.longSide(box: (512, 512), photoWidth: 4000, photoHeight: 3000) == 512)
        #expect(PhotoVariants.longSide(box: (300, Int.max), photoWidth: 4000, photoHeight: 3000) == 512)
        #expect(PhotoVariants.longSide(box: (Int.max, 300), photoWidth: 4000, photoHeight: 3000) == 512)
        #expect(PhotoVariants.longSide(box: (300, Int.max), photoWidth: 3000, photoHeight: 4000) == 512)
        #expect(PhotoVariants.longSide(box: (1024, 128), photoWidth: 4000, photoHeight: 3000) == 256)
        // Every box at least as large as the photo shares the step that holds the whole photo.
        for side in Self.sides where side >= 1600 {
            #expect(PhotoVariants.longSide(box: (side, side), photoWidth: 1600, photoHeight: 1200) == 2048)
        }
        // A photo whose size is unknown gets the box's short side.
        #expect(PhotoVariants.longSide(box: (700, 300), photoWidth: 0, photoHeight: 0) == 512)
        // However many boxes, a photo has at most one long side per step up to its own.
        var steps: Set<Int> = []
        for width in Self.sides {
            for height in Self.sides {
                steps.insert(PhotoVariants.longSide(box: (width, height), photoWidth: 1600, photoHeight: 1200))
            }
        }
        #expect(steps == [128, 256, 512, 768, 1024, 1536, 2048])
    }

    @Test func webPIsMadeOnlyWhereItsEncoderIsCheap() {
        #expect(PhotoVariants.Format.chosen(acceptsWebP: true, longSide: 1536) == .webp)
        #expect(PhotoVariants.Format.chosen(acceptsWebP: true, longSide: 2048) == .jpeg)
        #expect(PhotoVariants.Format.chosen(acceptsWebP: false, longSide: 512) == .jpeg)
    }

    @Test func conversionsPastTheWaitingLimitAreRefusedNotQueued() {
        let budget = PixelBudget(budget: 48, maxRunning: 1, maxWaiting: 2)
        let release = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        for _ in 0..<3 {
            done.enter()
            #expect(
                budget.run(cost: 1) {
                    release.wait(); done.leave()
                })
        }
        // One runs, two wait: a fourth is refused at once, and nothing of it runs.
        #expect(!budget.run(cost: 1) { Issue.record("a refused job ran") })
        #expect(budget.waiting == 2)
        for _ in 0..<3 { release.signal() }
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(budget.run(cost: 1) {})
    }

    @Test func aPoolRunsOnItsOwnThreadsAndRefusesPastItsQueue() {
        let pool = WorkerPool(name: "test-pool", threads: 2, capacity: 3)
        let release = DispatchSemaphore(value: 0)
        let running = Locked((now: 0, most: 0, threads: Set<UInt>()))
        let done = DispatchGroup()
        let job: @Sendable () -> Void = {
            running.withLock {
                $0.now += 1
                $0.most = max($0.most, $0.now)
                $0.threads.insert(UInt(pthread_self()))
            }
            release.wait()
            running.withLock { $0.now -= 1 }
            done.leave()
        }
        var accepted = 0
        for round in 0..<8 {
            done.enter()
            if pool.submit(job) { accepted += 1 } else { done.leave() }
            // Both threads busy first, so what follows can only wait.
            if round == 1 { #expect(Poll.until(5) { running.withLock { $0.now } == 2 }) }
        }
        // Two running and three waiting: the other three were refused.
        #expect(accepted == 5)
        #expect(pool.queued == 3)
        for _ in 0..<accepted { release.signal() }
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(running.withLock { $0.most } == 2)
        #expect(running.withLock { $0.threads.count } == 2)
    }

    /// 10 photos × 9 widths × 9 heights × 2 `Accept` classes = 1,620 different requests, 48 at a
    /// time: every one is answered (a variant, or 429 with `Retry-After` while too many wait), the
    /// cache holds at most one variant per ladder step and format class, and the server's threads
    /// stay a fixed few.
    @Test func sixteenHundredTwentyVariantRequestsMakeABoundedCacheOnFixedThreads() throws {
        let folder = try TemporaryFiles.folder()
        CVipsSetup.start()
        #expect(CVipsTest_writeJPEG(folder + "/photo-0.jpg", 1600, 1200, 1) == 0)
        for index in 1..<10 {
            try FileManager.default.copyItem(atPath: folder + "/photo-0.jpg", toPath: folder + "/photo-\(index).jpg")
        }
        let cache = try TemporaryFiles.folder()
        let state = try TemporaryFiles.folder() + "/state.db"
        let server = try ServerProcess.start(arguments: ["--photos", folder, "--cache", cache, "--state", state])
        defer { server.stop() }
        #expect(server.shows(photos: 10))
        let ids = try PhotoIDs.kept(in: state)
        let http = HTTPTestClient(port: server.port)
        let pid = server.process.processIdentifier
        let threadsBefore = Self.threads(of: pid)

        var list: [(path: String, accept: String)] = []
        for index in 0..<10 {
            let id = ids.id(of: "photo-\(index).jpg")
            for width in Self.sides {
                for height in Self.sides {
                    for accept in ["image/avif,image/webp,*/*", "image/jpeg,*/*"] {
                        list.append(("/photos/\(id)?w=\(width)&h=\(height)", accept))
                    }
                }
            }
        }
        let asks = list
        #expect(asks.count == 1620)
        let next = Locked(0)
        let answers = Locked<[(index: Int, status: Int, retryAfter: String?)]>([])
        let mostThreads = Locked(threadsBefore)
        let clients = DispatchGroup()
        for _ in 0..<48 {
            clients.enter()
            Thread {
                while true {
                    let index = next.withLock { next -> Int in
                        defer { next += 1 }
                        return next
                    }
                    guard index < asks.count else { break }
                    let reply = try? http.get(asks[index].path, headers: ["Accept": asks[index].accept])
                    answers.withLock { $0.append((index, reply?.status ?? 0, reply?.header("Retry-After"))) }
                    let threads = Self.threads(of: pid)
                    mostThreads.withLock { $0 = max($0, threads) }
                }
                clients.leave()
            }.start()
        }
        #expect(clients.wait(timeout: .now() + 600) == .success)
        let all = answers.withLock { $0 }
        #expect(all.count == 1620)
        #expect(all.allSatisfy { $0.status == 200 || ($0.status == 429 && $0.retryAfter == "1") })
        // A refused request gets its variant when it comes back.
        for refused in all where refused.status == 429 {
            let ask = asks[refused.index]
            #expect(
                Poll.until(60) {
                    (try? http.get(ask.path, headers: ["Accept": ask.accept]))?.status == 200
                })
        }
        // Per photo: JPEG at the seven steps up to its own size (2048), WebP at the six up to 1536.
        let made = Self.variants(in: cache)
        #expect(made.count <= 10 * (7 + 6), "\(made.count) variants")
        #expect(made.filter { $0.hasSuffix(".webp") }.count <= 10 * 6)
        // The server's own pools are made at start and libmicrohttpd polls on one thread; what a
        // burst adds is libvips' workers for the conversions running (at most two at once, each
        // with one worker per core plus its pipeline's own): bounded whatever the requests.
        // Dispatch's shared pool (the index's parallel reads at start, saves' follow-ups) keeps or
        // lets go of a thread per core as it sees fit, whatever the requests.
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let libvipsWorkers = PhotoVariants.maxConversions * (cores + 2)
        let most = mostThreads.withLock { $0 }
        #expect(most <= threadsBefore + libvipsWorkers + cores, "threads \(threadsBefore) → \(most)")
    }

    /// The photos after the front one are made at the size pages asked for as soon as the front
    /// card changes, so the next step finds them ready.
    @Test func theNextPhotosAreMadeAheadAtTheSizePagesAskedFor() throws {
        let folder = try TemporaryFiles.folder()
        CVipsSetup.start()
        for index in 0..<6 {
            #expect(CVipsTest_writeJPEG(folder + "/p\(index).jpg", 1200 + 10 * Int32(index), 900, 1) == 0)
        }
        let cache = try TemporaryFiles.folder()
        let server = try ServerProcess.start(arguments: ["--photos", folder, "--cache", cache])
        defer { server.stop() }
        #expect(server.shows(photos: 6))
        let http = HTTPTestClient(port: server.port)
        let cards = try #require(try http.get("/api/rooms/main").json()["cards"] as? [[String: Any]])
        let order = cards.sorted { ($0["position"] as? Int ?? 0) < ($1["position"] as? Int ?? 0) }
            .compactMap { $0["photo"] as? String }
        #expect(order.count == 6)
        // The page shows the front photo at 600 px wide.
        #expect(try http.get("/photos/\(order[0])?w=600", headers: ["Accept": "image/webp"]).status == 200)
        #expect(Self.variants(in: cache).count == 1)
        #expect(try http.post("/api/rooms/main/commands", json: #"{"command":"next"}"#).status == 200)
        // The front is now order[1]: order[2...4] are made without anyone asking.
        #expect(Poll.until(30) { Self.variants(in: cache).count == 4 })
        let before = Set(Self.variants(in: cache))
        for id in order[2...4] {
            let reply = try http.get("/photos/\(id)?w=600", headers: ["Accept": "image/webp"])
            #expect(reply.status == 200)
            #expect(reply.header("Content-Type") == "image/webp")
            let name = reply.header("ETag")?.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            #expect(name.map(before.contains) == true, "\(id) was not made ahead")
        }
        #expect(Set(Self.variants(in: cache)) == before)
    }
}
