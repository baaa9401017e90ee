// swift-tools-version:6.0
import PackageDescription
let package = Package(name: "lsanrepro", targets: [
    .target(name: "Empty"),
    .testTarget(name: "EmptyTests", dependencies: ["Empty"]),
])
