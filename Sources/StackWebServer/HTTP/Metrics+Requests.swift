import Dispatch

extension Route {
    /// The route's name as a label: one of a few words, never the room or photo it names.
    var metricLabel: String {
        switch self {
        case .health: "health"
        case .metrics: "metrics"
        case .rooms: "rooms"
        case .snapshot: "snapshot"
        case .events: "events"
        case .pointer: "pointer"
        case .commands: "commands"
        case .uploads, .uploadQueue, .uploadDecision, .uploadPreview, .addCode: "uploads"
        case .photo: "photo"
        case .clip, .clipPoster: "clip"
        case .file: "file"
        }
    }

    /// Whether its answers are timed: the POSTs a person waits on.
    var isTimed: Bool {
        switch self {
        case .pointer, .commands: true
        default: false
        }
    }
}

extension Metrics {
    /// Counts `response` by route and status, and times it for the timed routes; an answer that
    /// comes later (an acknowledged change waiting for its save, a conversion) when it comes.
    func counting(_ response: Response, route: Route, started: DispatchTime) -> Response {
        guard case .deferred(let produce) = response.body else {
            answered(route, response.status, started: started)
            return response
        }
        var counted = response
        counted.body = .deferred { [self] complete in
            produce { final in
                self.answered(route, final.status, started: started)
                complete(final)
            }
        }
        return counted
    }

    private func answered(_ route: Route, _ status: Int, started: DispatchTime) {
        httpRequests.add(route.metricLabel, String(status))
        if route.isTimed {
            httpDuration.observe(
                Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9, route.metricLabel)
        }
    }
}
