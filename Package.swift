// swift-tools-version:6.2
import PackageDescription

/// Settings shared by every target: Swift 6 language mode, strict concurrency, no implicit Foundation leaks.
let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let nio: [Target.Dependency] = [
    .product(name: "NIOCore", package: "swift-nio"),
    .product(name: "NIOPosix", package: "swift-nio"),
]

let package = Package(
    name: "tilt",
    products: [
        .executable(name: "tiltd", targets: ["tiltd"]),
        .executable(name: "tilt", targets: ["tilt"]),
        .executable(name: "tiltfx", targets: ["tiltfx"]),
        .library(name: "TiltClient", targets: ["TiltClient"]),
        .library(name: "TiltCore", targets: ["TiltCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        // MARK: System libraries (Debian packages, see scripts/bootstrap)
        .systemLibrary(
            name: "CLibIIO", path: "Sources/CLibIIO",
            providers: [.apt(["libiio-dev"])]),
        .systemLibrary(
            name: "CSDL2", path: "Sources/CSDL2",
            providers: [.apt(["libsdl2-dev"])]),
        .systemLibrary(
            name: "CXRandR", path: "Sources/CXRandR",
            providers: [.apt(["libxrandr-dev"])]),
        .systemLibrary(
            name: "CEGL", path: "Sources/CEGL",
            providers: [.apt(["libegl-dev", "libgles-dev", "libgl-dev"])]),
        .systemLibrary(
            name: "CZlib", path: "Sources/CZlib",
            providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(
            name: "CPNG", path: "Sources/CPNG", pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]),
        .systemLibrary(
            name: "CTurboJPEG", path: "Sources/CTurboJPEG", pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(
            name: "CSystemd", path: "Sources/CSystemd", pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]),
        .systemLibrary(
            name: "CGStreamer", path: "Sources/CGStreamer", pkgConfig: "gstreamer-video-1.0",
            providers: [.apt(["libgstreamer1.0-dev", "libgstreamer-plugins-base1.0-dev"])]),

        // MARK: Libraries
        .target(name: "TiltCore", swiftSettings: swiftSettings),
        .target(name: "TiltFusion", dependencies: ["TiltCore"], swiftSettings: swiftSettings),
        .target(
            name: "TiltSensors", dependencies: ["TiltCore", "CLibIIO", "CZlib", "CSystemd"],
            swiftSettings: swiftSettings),
        .target(
            name: "TiltWire", dependencies: ["TiltCore", .product(name: "NIOCore", package: "swift-nio")],
            swiftSettings: swiftSettings),
        .target(
            name: "TiltDaemon",
            dependencies: [
                "TiltCore", "TiltFusion", "TiltSensors", "TiltWire", "CSystemd",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ] + nio,
            swiftSettings: swiftSettings),
        .target(
            name: "TiltClient",
            dependencies: ["TiltCore", "TiltWire"] + nio,
            swiftSettings: swiftSettings),
        .target(name: "TiltEffects", dependencies: ["TiltCore"], swiftSettings: swiftSettings),
        .target(name: "TiltMedia", dependencies: ["TiltCore", "CGStreamer"], swiftSettings: swiftSettings),
        .target(name: "TiltImage", dependencies: ["TiltCore", "CPNG", "CTurboJPEG"], swiftSettings: swiftSettings),
        .target(
            name: "TiltGL", dependencies: ["TiltCore", "TiltEffects", "TiltImage", "CEGL"], swiftSettings: swiftSettings
        ),
        .target(
            name: "TiltDesktop", dependencies: ["TiltCore", "CEGL", "CXRandR"], swiftSettings: swiftSettings),
        .target(
            name: "TiltRender",
            dependencies: [
                "TiltCore", "TiltEffects", "TiltImage", "TiltGL", "TiltClient", "TiltWire", "TiltMedia", "CSDL2",
                "CEGL",
                "CXRandR",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings),
        .target(
            name: "TiltServe",
            dependencies: [
                "TiltCore", "TiltWire", "TiltEffects", "TiltGL",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ] + nio,
            swiftSettings: swiftSettings),
        .target(
            name: "TiltPlayback", dependencies: ["TiltCore", "TiltSensors", "TiltFusion"], swiftSettings: swiftSettings),
        .target(
            name: "TiltTools", dependencies: ["TiltCore", "TiltSensors", "TiltFusion", "TiltWire", "TiltClient"],
            swiftSettings: swiftSettings),

        .target(
            name: "TiltCommandLine",
            dependencies: ["TiltCore", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: swiftSettings),

        // MARK: Executables (thin: parse arguments, call a library)
        .executableTarget(
            name: "tiltd",
            dependencies: [
                "TiltDaemon", "TiltWire", "TiltCore", "TiltCommandLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings),
        .executableTarget(
            name: "tilt",
            dependencies: [
                "TiltTools", "TiltCore", "TiltFusion", "TiltSensors", "TiltWire", "TiltClient", "TiltCommandLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings),
        .executableTarget(
            name: "tiltfx",
            dependencies: [
                "TiltRender", "TiltGL", "TiltImage", "TiltEffects", "TiltPlayback", "TiltServe", "TiltMedia",
                "TiltCore", "TiltWire", "TiltCommandLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings),

        // MARK: Tests
        .target(
            name: "TiltTestKit", dependencies: ["TiltCore", "TiltSensors", "TiltImage", "CPNG", "CTurboJPEG"],
            path: "Tests/TiltTestKit",
            swiftSettings: swiftSettings),
        .testTarget(name: "TiltCoreTests", dependencies: ["TiltCore", "TiltTestKit"], swiftSettings: swiftSettings),
        .testTarget(
            name: "TiltMediaTests", dependencies: ["TiltMedia", "TiltCore", "TiltTestKit"], swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TiltFusionTests", dependencies: ["TiltFusion", "TiltCore", "TiltTestKit"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "TiltSensorsTests", dependencies: ["TiltSensors", "TiltCore", "TiltTestKit"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "TiltWireTests",
            dependencies: [
                "TiltWire", "TiltCore", .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "TiltClientTests",
            dependencies: ["TiltClient", "TiltWire", "TiltCore", .product(name: "NIOCore", package: "swift-nio")],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "TiltDaemonTests",
            dependencies: [
                "TiltDaemon", "TiltClient", "TiltWire", "TiltTestKit", "TiltSensors", "TiltFusion", "TiltCore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "TiltEffectsTests", dependencies: ["TiltEffects", "TiltCore"], swiftSettings: swiftSettings),
        .testTarget(
            name: "TiltRenderTests",
            dependencies: [
                "TiltRender", "TiltGL", "TiltImage", "TiltEffects", "TiltCore", "TiltTestKit", "TiltMedia", "CPNG",
                "CTurboJPEG", .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["Golden"], swiftSettings: swiftSettings),
        .testTarget(
            name: "TiltServeTests",
            dependencies: [
                "TiltServe", "TiltTestKit", "TiltCore", "TiltEffects",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "TiltImageTests", dependencies: ["TiltImage", "TiltTestKit", "TiltCore"], swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TiltPlaybackTests", dependencies: ["TiltPlayback", "TiltCore", "TiltSensors", "TiltTestKit"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "TiltToolsTests",
            dependencies: [
                "TiltTools", "TiltClient", "TiltWire", "TiltSensors", "TiltFusion", "TiltCore", "TiltTestKit",
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "TiltDesktopTests", dependencies: ["TiltDesktop", "TiltCore", "TiltTestKit", "CEGL", "CXRandR"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "TiltWebTests", dependencies: ["TiltTestKit", "TiltRender", "TiltImage"], swiftSettings: swiftSettings
        ),
    ]
)
