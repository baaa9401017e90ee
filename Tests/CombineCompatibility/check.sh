#!/bin/sh
# Typechecks every snippet on its own against the debug build's modules, in Swift 5 and Swift 6
# mode, and counts them. Run from the package root after `swift build`. Snippets/ is the set the
# CombineCompatibilityTests target builds; Unsupported/ holds files that use what Reactive does
# not offer. "unchanged" means only `import Combine` became `import Reactive`; the files that load
# URLs also import ReactiveNetworking beside FoundationNetworking (Linux-only lines).
modules=.build/debug/Modules
files="Tests/CombineCompatibility/Snippets/*.swift Tests/CombineCompatibility/Unsupported/*.swift"
total=$(ls $files | wc -l)
for mode in 5 6; do
    unchanged=0; networking=0; failed=""
    for file in $files; do
        if swiftc -typecheck -swift-version "$mode" -I "$modules" "$file" >/dev/null 2>&1; then
            if grep -q "import ReactiveNetworking" "$file"; then networking=$((networking + 1)); else unchanged=$((unchanged + 1)); fi
        else
            failed="$failed $(basename "$file")"
        fi
    done
    echo "Swift $mode mode, $total files: $unchanged typecheck unchanged, $networking with the networking import;${failed:+ not:$failed}"
done
