// swift-tools-version:6.0
import PackageDescription

/// Upcoming language features every Swift target opts into.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "StackWeb",
    products: [
        .executable(name: "stackweb", targets: ["StackWeb"]),
        .library(name: "StackModel", targets: ["StackModel"]),
        // Static, so the fuzz targets (scripts/fuzz.sh) link the server as one archive.
        .library(name: "StackWebServer", type: .static, targets: ["StackWebServer"]),
        // The test images' C shims as an archive of their own, for the router fuzz target; the
        // server's products never depend on it.
        .library(name: "CVipsTestSupport", type: .static, targets: ["CVipsTestSupport"]),
    ],
    targets: [
        // libmicrohttpd: headers and flags come from Debian's pkg-config file.
        .systemLibrary(
            name: "CMicroHTTPDSystem",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        // GnuTLS directly too, for the one bound libmicrohttpd does not set (CMicroHTTPD_limitHandshake).
        .target(
            name: "CMicroHTTPD", dependencies: ["CMicroHTTPDSystem"], linkerSettings: [.linkedLibrary("gnutls")]),
        // libvips: its variadic API gets fixed-argument wrappers in CVips.
        .systemLibrary(
            name: "CVipsSystem",
            pkgConfig: "vips",
            providers: [.apt(["libvips-dev"])]
        ),
        .target(name: "CVips", dependencies: ["CVipsSystem"]),
        // FFmpeg's libraries (libavformat, libavcodec, libswscale, libavutil) read clips: CFFmpeg
        // wraps the few calls the server makes, with the demuxers, decoders and protocol limited.
        .systemLibrary(
            name: "CFFmpegSystem",
            pkgConfig: "libavformat",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev", "libavutil-dev"])]
        ),
        // Linked here: the Swift code imports only CFFmpeg, so the system module's own links would not apply.
        .target(
            name: "CFFmpeg", dependencies: ["CFFmpegSystem"],
            linkerSettings: ["avformat", "avcodec", "swscale", "avutil"].map { .linkedLibrary($0) }),
        // SQLite keeps the rooms' lasting state; one shim for a constant Swift cannot import.
        .systemLibrary(
            name: "CSQLiteSystem",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .target(name: "CSQLite", dependencies: ["CSQLiteSystem"]),
        // hiredis, the Redis client of a group of instances (--redis). Its calls the server makes
        // (redisCommandArgv, redisAppendCommandArgv) take fixed arguments: no shim is needed.
        .systemLibrary(
            name: "CHiredis",
            pkgConfig: "hiredis",
            providers: [.apt(["libhiredis-dev"])]
        ),
        // GnuTLS's digests: SHA-256 for a group's generated token and uploaded photos, HMAC-SHA-256
        // for photo ids. Already linked for libmicrohttpd's TLS; its calls take fixed arguments.
        .systemLibrary(
            name: "CGnuTLS",
            pkgConfig: "gnutls",
            providers: [.apt(["libgnutls28-dev"])]
        ),
        // libqrencode draws the QR code a room shows so guests can add their photos. Its one call
        // (QRcode_encodeData) takes fixed arguments: no shim is needed.
        .systemLibrary(
            name: "CQREncode",
            pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev"])]
        ),
        // The commit the binary names (--version, stackweb_build_info), from a header the Makefile
        // writes; a build without it names none.
        .target(name: "CBuildInfo"),
        .target(name: "StackModel", swiftSettings: strictSettings, linkerSettings: [.linkedLibrary("m")]),
        // The server as a library: everything but the entry point, so tests and fuzz targets link it.
        .target(
            name: "StackWebServer",
            dependencies: [
                "StackModel", "CMicroHTTPD", "CVips", "CFFmpeg", "CSQLite", "CHiredis", "CGnuTLS", "CQREncode",
                "CBuildInfo",
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(name: "StackWeb", dependencies: ["StackWebServer"], swiftSettings: strictSettings),
        // Images the tests and benchmarks make for themselves; never part of the product.
        .target(name: "CVipsTestSupport", dependencies: ["CVipsSystem"], path: "Tests/CVipsTestSupport"),
        .testTarget(name: "StackModelTests", dependencies: ["StackModel"], swiftSettings: strictSettings),
        .testTarget(
            name: "StackWebTests", dependencies: ["StackWebServer", "StackModel", "CVipsTestSupport"],
            swiftSettings: strictSettings),
    ],
    swiftLanguageModes: [.v6]
)
