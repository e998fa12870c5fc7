@testable import StackWebServer

/// `--uploads review`: a guest's photo waits until the control token approves or rejects it. The
/// headers of either token, a fixture in that mode, and the control token's decision.
extension UploadFixture {
    /// Headers that carry the control token.
    static let controlHeaders = ["Authorization": "Bearer \(controlToken)"]
    /// Headers that carry the add token: a guest's.
    static let addHeaders = ["Authorization": "Bearer \(addToken)"]

    /// A fixture whose guests' photos wait for review, both tokens set.
    static func inReview() throws -> UploadFixture {
        try UploadFixture { configuration in
            configuration.uploads.mode = .review
            configuration.token = controlToken
            configuration.addToken = addToken
        }
    }

    /// The control token's `decision` ("approve" or "reject") on the waiting photo `id`.
    func decide(_ id: String, _ decision: String) throws -> HTTPTestClient.Reply {
        try http.post("/api/rooms/main/uploads/\(id)/\(decision)", json: "", headers: Self.controlHeaders)
    }
}
