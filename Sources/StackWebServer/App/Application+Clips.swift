import Dispatch

extension Application {
    /// What serves `GET /clips/ID`: the clips below the photo folder, listed in the background
    /// (a large folder must not hold up the start), their renditions kept in the variant cache.
    static func clipAnswers(
        folder: String, ids: PhotoIDs, variants: PhotoVariants, maxSeconds: Int, log: OperatorLog
    ) -> ClipAnswers {
        let shelf = Locked(ClipShelf(root: folder))
        DispatchQueue.global(qos: .utility).async {
            let listed = ClipShelf(root: folder, ids: ids)
            shelf.withLock { $0 = listed }
        }
        let renditions = ClipRenditions(
            cacheFolder: variants.cacheFolder, cache: variants.cache, maxSeconds: maxSeconds)
        return ClipAnswers(
            shelf: shelf, renditions: renditions, posters: ClipPosters(variants: variants), log: log)
    }
}
