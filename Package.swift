// swift-tools-version:6.0
import PackageDescription

/// Upcoming language features every Swift target opts into (see STYLE.md).
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "StackWeb",
    products: [
        .executable(name: "stackweb", targets: ["StackWeb"]),
        .library(name: "StackModel", targets: ["StackModel"]),
    ],
    targets: [
        // libmicrohttpd: headers and flags come from Debian's pkg-config file.
        .systemLibrary(
            name: "CMicroHTTPDSystem",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        .target(name: "CMicroHTTPD", dependencies: ["CMicroHTTPDSystem"]),
        // libvips: its variadic API gets fixed-argument wrappers in CVips.
        .systemLibrary(
            name: "CVipsSystem",
            pkgConfig: "vips",
            providers: [.apt(["libvips-dev"])]
        ),
        .target(name: "CVips", dependencies: ["CVipsSystem"]),
        .target(name: "StackModel", swiftSettings: strictSettings, linkerSettings: [.linkedLibrary("m")]),
        .executableTarget(
            name: "StackWeb",
            dependencies: ["StackModel", "CMicroHTTPD", "CVips"],
            swiftSettings: strictSettings
        ),
        .testTarget(name: "StackModelTests", dependencies: ["StackModel"], swiftSettings: strictSettings),
        .testTarget(
            name: "StackWebTests", dependencies: ["StackWeb", "StackModel", "CVips"], swiftSettings: strictSettings),
    ],
    swiftLanguageModes: [.v6]
)
