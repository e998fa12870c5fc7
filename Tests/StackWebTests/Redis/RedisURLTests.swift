import Testing

@testable import StackWebServer

@Suite struct RedisURLTests {
    @Test(arguments: [
        ("redis://127.0.0.1:6379", RedisURL(host: "127.0.0.1", port: 6379)),
        ("redis://cache.lan", RedisURL(host: "cache.lan")),
        ("redis://:s3cret@10.0.0.5:6380/2", RedisURL(host: "10.0.0.5", port: 6380, password: "s3cret", database: 2)),
        ("redis://[::1]:7000/", RedisURL(host: "::1", port: 7000)),
    ])
    func parses(text: String, expected: RedisURL) throws {
        #expect(try RedisURL(parsing: text) == expected)
    }

    @Test func aUserNameIsKeptForACLs() throws {
        let url = try RedisURL(parsing: "redis://web:pw@host:1/0")
        #expect(url.user == "web")
        #expect(url.password == "pw")
    }

    @Test(arguments: [
        "http://host:6379", "redis://", "redis://host:0", "redis://host:70000", "redis://host:x",
        "redis://host/db", "redis://user@host", "redis://[::1]x",
    ])
    func refuses(text: String) {
        #expect(throws: Configuration.Failure.self) { try RedisURL(parsing: text) }
    }

    @Test func theDescriptionLeavesThePasswordOut() throws {
        let url = try RedisURL(parsing: "redis://:s3cret@10.0.0.5:6380/2")
        #expect(url.description == "redis://10.0.0.5:6380/2")
    }
}
