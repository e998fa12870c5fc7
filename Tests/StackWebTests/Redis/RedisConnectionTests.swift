import Foundation
import Testing

@testable import StackWebServer

/// The hiredis connection against a real `redis-server`.
@Suite(.enabled(if: RedisServer.isInstalled, "needs redis-server"))
struct RedisConnectionTests {
    @Test func valuesAreBinarySafeAndPipelinesKeepTheirOrder() throws {
        let redis = try RedisServer()
        let connection = redis.connection()
        let value: [UInt8] = [0, 1, 2, 0xFF, 0x0D, 0x0A, 0]
        try connection.command([Array("SET".utf8), Array("k".utf8), value])
        #expect(try connection.command("GET", "k") == .string(value))
        let replies = try connection.pipeline([
            [Array("INCR".utf8), Array("n".utf8)], [Array("INCR".utf8), Array("n".utf8)],
            [Array("GET".utf8), Array("missing".utf8)], [Array("LPUSH".utf8), Array("k".utf8), Array("x".utf8)],
            [Array("RPUSH".utf8), Array("l".utf8), Array("a".utf8), Array("".utf8)],
            [Array("LRANGE".utf8), Array("l".utf8), Array("0".utf8), Array("-1".utf8)],
        ])
        #expect(replies[0] == .integer(1))
        #expect(replies[1] == .integer(2))
        #expect(replies[2] == .null)
        guard case .error(let message) = replies[3] else { throw RedisError.unexpected("\(replies[3])") }
        #expect(message.hasPrefix("WRONGTYPE"))
        #expect(replies[5] == .array([.string(Array("a".utf8)), .string([])]))
        #expect(throws: RedisError.self) { try connection.command("LPUSH", "k", "x") }
    }

    @Test func aRestartedRedisIsReachedAgainByTheNextCall() throws {
        let redis = try RedisServer()
        let connection = redis.connection()
        #expect(try connection.command("PING").text == "PONG")
        redis.stop()
        #expect(throws: RedisError.self) { try connection.command("PING") }
        try redis.start()
        #expect(try connection.command("PING").text == "PONG")
    }

    @Test func aScriptIsLoadedAgainAfterARestart() throws {
        let redis = try RedisServer()
        let connection = redis.connection()
        let script = RedisScript("return redis.call('INCRBY', KEYS[1], ARGV[1])")
        #expect(try script.run(keys: [Array("n".utf8)], arguments: [Array("5".utf8)], on: connection) == .integer(5))
        redis.stop()
        try redis.start()
        // The first call finds the old connection closed (whether a command on it ran is unknown).
        #expect(throws: RedisError.self) { try connection.command("PING") }
        #expect(try script.run(keys: [Array("n".utf8)], arguments: [Array("2".utf8)], on: connection) == .integer(2))
    }

    @Test func anUnreachableRedisFailsWithinTheTimeout() {
        let connection = RedisConnection(url: RedisURL(host: "127.0.0.1", port: 1), timeout: 0.5)
        let started = Date()
        #expect(throws: RedisError.self) { try connection.command("PING") }
        #expect(Date().timeIntervalSince(started) < 2)
    }
}
