import Foundation
import Testing

@testable import StackWebServer

/// The QR code a room's wall shows: what it names, who gets it, and that it never carries the
/// control token. Each code is read back from the SVG's modules, and by `zbarimg` where installed.
@Suite struct AddCodeTests {
    static let lanHost = "192.168.1.20:8080"

    @Test func theCodeNamesTheAddPageWithTheAddTokenAtTheHostTheViewerReached() throws {
        let fixture = try UploadFixture { configuration in
            configuration.token = UploadFixture.controlToken
            configuration.addToken = UploadFixture.addToken
        }
        let reply = try fixture.http.get("/api/rooms/main/add-code.svg", headers: ["Host": Self.lanHost])
        #expect(reply.status == 200)
        #expect(reply.header("Content-Type") == "image/svg+xml")
        #expect(reply.header("Cache-Control") == "no-store")
        #expect(reply.header("Content-Security-Policy")?.contains("default-src 'none'") == true)
        let url = "http://\(Self.lanHost)/add?room=main#token=\(UploadFixture.addToken)"
        #expect(try Self.modules(of: reply.text) == QRCode(encoding: url))
        if let decoded = try Self.zbarimg(reply.text) { #expect(decoded == url) }
        #expect(!reply.text.contains(UploadFixture.controlToken))
    }

    @Test func withoutAnAddTokenTheCodeCarriesNoTokenNotTheControlOne() throws {
        let fixture = try UploadFixture { $0.token = UploadFixture.controlToken }
        let reply = try fixture.http.get("/api/rooms/main/add-code.svg", headers: ["Host": Self.lanHost])
        #expect(reply.status == 200)
        let url = "http://\(Self.lanHost)/add?room=main"
        #expect(try Self.modules(of: reply.text) == QRCode(encoding: url))
        #expect(try Self.modules(of: reply.text) != QRCode(encoding: url + "#token=" + UploadFixture.controlToken))
        if let decoded = try Self.zbarimg(reply.text) { #expect(decoded == url) }
    }

    @Test func aRoomThatTakesNoPhotosHasNoCode() throws {
        let fixture = try UploadFixture { configuration in
            configuration.uploads.mode = .off
            configuration.uploads.rooms = ["party": .review]
            configuration.addToken = UploadFixture.addToken
        }
        let main = try fixture.http.get("/api/rooms/main/add-code.svg")
        #expect(main.status == 404)
        #expect(!main.text.contains(UploadFixture.addToken))
        #expect(try fixture.http.get("/api/rooms/party/add-code.svg", headers: ["Host": Self.lanHost]).status == 200)
        #expect(try fixture.http.get("/api/rooms/Bad%20Name/add-code.svg").status == 400)
    }

    @Test func aServerWithoutUploadsHasNoCode() throws {
        let server = try TestServer()
        #expect(try server.http.get("/api/rooms/main/add-code.svg").status == 404)
    }

    @Test(arguments: [
        ("127.0.0.1:8080", "http://192.168.1.20:8080/add?room=main#token=t"),
        ("localhost:9000", "http://192.168.1.20:9000/add?room=main#token=t"),
        ("[::1]:8081", "http://192.168.1.20:8081/add?room=main#token=t"),
        ("frame.local:8080", "http://frame.local:8080/add?room=main#token=t"),
        ("10.0.0.7", "http://10.0.0.7/add?room=main#token=t"),
    ])
    func aLoopbackHostBecomesTheLANAddress(host: String, url: String) {
        #expect(AddCodes(addToken: "t", lanHost: "192.168.1.20").url(room: "main", hostHeader: host) == url)
    }

    /// On a server that listens on this machine only, a code would name the guest's own phone:
    /// the wall is told why there is none and how to fix it instead.
    @Test func aLoopbackOnlyServerSaysWhyPhonesCannotReachIt() throws {
        let fixture = try UploadFixture { $0.addToken = UploadFixture.addToken }
        for host in ["127.0.0.1:\(fixture.server.port)", "localhost:\(fixture.server.port)"] {
            let reply = try fixture.http.get("/api/rooms/main/add-code.svg", headers: ["Host": host])
            #expect(reply.status == 409)
            #expect(reply.text.contains("--host 0.0.0.0") && reply.text.contains("--public-url"))
            #expect(!reply.text.contains(UploadFixture.addToken))
        }
        // Behind a proxy that passes the name phones used, that name works.
        #expect(try fixture.http.get("/api/rooms/main/add-code.svg", headers: ["Host": Self.lanHost]).status == 200)
    }

    /// `--public-url` names the address phones reach, whatever the viewer used (a proxy's).
    @Test func thePublicURLIsWhatTheCodeNames() throws {
        let publicURL = try PublicURL(parsing: "https://frame.example/")
        let fixture = try UploadFixture { configuration in
            configuration.addToken = UploadFixture.addToken
            configuration.publicURL = publicURL
        }
        let reply = try fixture.http.get("/api/rooms/main/add-code.svg")
        #expect(reply.status == 200)
        let url = "https://frame.example/add?room=main#token=\(UploadFixture.addToken)"
        #expect(try Self.modules(of: reply.text) == QRCode(encoding: url))
        // Its name is one the server answers to.
        #expect(try fixture.http.get("/healthz", headers: ["Host": "frame.example"]).status == 200)
    }

    @Test(arguments: [("127.0.0.1:8080", nil), ("localhost", nil), (nil, nil), ("10.0.0.7:81", "10.0.0.7:81")])
    func withoutALANAddressALoopbackHostHasNoCode(host: String?, reached: String?) {
        let url = AddCodes(addToken: nil).url(room: "main", hostHeader: host)
        #expect(url == reached.map { "http://\($0)/add?room=main" })
    }

    @Test func withoutHostTheLANAddressAndPort() {
        let codes = AddCodes(addToken: nil, scheme: "https", lanHost: "192.168.1.20", port: 8443)
        #expect(codes.url(room: "party", hostHeader: nil) == "https://192.168.1.20:8443/add?room=party")
    }

    @Test func theCodeIsDarkOnLightWithItsQuietZone() throws {
        let code = try #require(QRCode(encoding: "http://192.168.1.20:8080/add?room=main#token=0123456789abcdef"))
        let svg = code.svg(title: "a <title> & more")
        let side = code.size + 2 * QRCode.quietZone
        #expect(svg.contains(#"viewBox="0 0 \#(side) \#(side)""#))
        #expect(svg.contains(##"<rect width="\##(side)" height="\##(side)" fill="#fff"/><path fill="#000""##))
        #expect(svg.contains("<title>a &lt;title&gt; &amp; more</title>"))
        #expect(try Self.modules(of: svg) == code)
    }

    /// The code an SVG of `QRCode.svg` draws, read from its path's rectangles.
    static func modules(of svg: String) throws -> QRCode {
        let viewBox = try #require(svg.firstMatch(of: #/viewBox="0 0 (\d+) \d+"/#)?.output.1)
        let size = try #require(Int(viewBox)) - 2 * QRCode.quietZone
        var modules = [Bool](repeating: false, count: size * size)
        for run in svg.matches(of: #/M(\d+) (\d+)h(\d+)v1h-\d+z/#) {
            let (x, y, length) = (Int(run.output.1)!, Int(run.output.2)!, Int(run.output.3)!)
            for column in x..<(x + length) {
                modules[(y - QRCode.quietZone) * size + column - QRCode.quietZone] = true
            }
        }
        return QRCode(size: size, modules: modules)
    }

    /// What `zbarimg` reads in the code drawn 8 pixels a module; `nil` when it is not installed.
    static func zbarimg(_ svg: String) throws -> String? {
        guard
            let tool = ["/usr/bin/zbarimg", "/usr/local/bin/zbarimg"].first(where: FileManager.default.isExecutableFile)
        else { return nil }
        let code = try modules(of: svg)
        let scale = 8
        let side = (code.size + 2 * QRCode.quietZone) * scale
        var pixels = Array("P1\n\(side) \(side)\n".utf8)
        for row in 0..<side {
            for column in 0..<side {
                let (x, y) = (column / scale - QRCode.quietZone, row / scale - QRCode.quietZone)
                let dark = (0..<code.size).contains(x) && (0..<code.size).contains(y) && code.isDark(x: x, y: y)
                pixels.append(dark ? UInt8(ascii: "1") : UInt8(ascii: "0"))
            }
            pixels.append(UInt8(ascii: "\n"))
        }
        let file = try TemporaryFiles.folder() + "/code.pbm"
        try Data(pixels).write(to: URL(fileURLWithPath: file))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["--quiet", "--raw", file]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: text, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
