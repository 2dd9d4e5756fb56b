#!/usr/bin/env bash
# Builds the DocC catalogs of the products a provider developer imports, with the toolchain's own
# docc and swift-symbolgraph-extract (no outside package), warnings as errors.
#
#   Scripts/build-docs.sh                 # archives in .build/docs/<Module>.doccarchive
#   Scripts/build-docs.sh --static        # also transformed for static hosting
#
# The modules are built first (`swift build`, a no-op when they are up to date); their symbol graphs
# are extracted from the built .swiftmodule files, so the build's own flags are never changed.
set -euo pipefail
cd "$(dirname "$0")/.."
modules=(ContactProvider ContactProviderConformance ContactProviderTesting Contacts)
static=()
if [ "${1:-}" = "--static" ]; then static=(--transform-for-static-hosting); fi

toolchain="$(dirname "$(readlink -f "$(command -v swift)")")"
docc="$toolchain/docc"
extract="$toolchain/swift-symbolgraph-extract"
for tool in "$docc" "$extract"; do
    [ -x "$tool" ] || { echo "build-docs: $tool not found next to swift" >&2; exit 1; }
done

start=$(date +%s%N)
for module in "${modules[@]}"; do swift build --target "$module" 2>&1 | grep -E "error|warning:" >&2 || true; done
bin="$(swift build --show-bin-path)"
triple="$(swift -print-target-info | sed -n 's/^ *"triple": "\(.*\)",$/\1/p' | head -1)"
out=".build/docs"
rm -rf "$out" && mkdir -p "$out/symbol-graphs"

# C modules (their module maps) that a Swift module's interface may mention.
clang_modules=()
for map in "$bin"/*.build/module.modulemap; do [ -e "$map" ] && clang_modules+=(-Xcc "-fmodule-map-file=$map"); done

status=0
for module in "${modules[@]}"; do
    graphs="$out/symbol-graphs/$module"
    mkdir -p "$graphs"
    # The kit re-exports AppStores (the backends the host's contact commands share): its symbols are
    # documented as the kit's own, where a provider developer looks for them.
    reexported=()
    if [ "$module" = ContactProviderConformance ]; then reexported=(-experimental-allowed-reexported-modules=AppStores); fi
    # The test doubles re-export the floor module that holds SeededRandom, documented as theirs.
    if [ "$module" = ContactProviderTesting ]; then reexported=(-experimental-allowed-reexported-modules=SeededRandomness); fi
    "$extract" -module-name "$module" -I "$bin/Modules" -target "$triple" -minimum-access-level public \
        -output-dir "$graphs" "${clang_modules[@]}" "${reexported[@]}"
    log="$out/$module.docc.log"
    if "$docc" convert "Sources/$module/$module.docc" --additional-symbol-graph-dir "$graphs" \
        --fallback-display-name "$module" --fallback-bundle-identifier "org.contactprovidersimulator.$module" \
        --output-dir "$out/$module.doccarchive" --warnings-as-errors "${static[@]}" >"$log" 2>&1
    then
        rc=0
    else
        rc=$?
    fi
    grep -E 'warning|error' "$log" >&2 || true
    if [ "$rc" -ne 0 ]; then
        echo "build-docs: $module: docc failed (exit $rc; warnings count as errors): $log" >&2
        status=1
    fi
done
end=$(date +%s%N)
elapsed=$(( (end - start) / 1000000 ))
printf 'build-docs: %s in %s (%d.%01d s)\n' "${modules[*]}" "$out" $((elapsed / 1000)) $((elapsed % 1000 / 100))
exit $status
