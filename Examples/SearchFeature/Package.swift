// swift-tools-version:6.0
import PackageDescription

// A search screen's view model and its marble tests: copy this package to start your own.
// The view model imports Combine where it exists and the `marbles` engine (Reactive) elsewhere;
// the tests use MarbleTesting, the one dependency a test target needs, which drives the same
// engine (Combine on Apple platforms, Reactive elsewhere).
let package = Package(
    name: "SearchFeature",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [.library(name: "SearchFeature", targets: ["SearchFeature"])],
    dependencies: [.package(name: "marbles", path: "../..")],
    targets: [
        .target(name: "SearchFeature", dependencies: [.product(name: "Reactive", package: "marbles",
                                                              condition: .when(platforms: [.linux, .windows, .android, .wasi, .openbsd]))]),
        .testTarget(name: "SearchFeatureTests", dependencies: ["SearchFeature", .product(name: "MarbleTesting", package: "marbles")]),
    ],
    swiftLanguageModes: [.v6]
)
