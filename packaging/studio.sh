#!/usr/bin/env bash
# TrainStudio on Debian 12, from a fresh machine to a running studio or a green test suite.
#
#   bash packaging/studio.sh run  [trainstudio options]   set up, build, start the studio
#   bash packaging/studio.sh test [ctest options]         set up, build, run every test, check the .deb
#   bash packaging/studio.sh build                        set up and build only
#
# Set-up installs the packages of packaging/debian-packages.txt that dpkg reports missing
# (apt-get, through sudo when not root) and configures build/ (CMake + Ninja, Release).
# A second run installs nothing, skips CMake and lets Ninja rebuild only what changed.
# TS_BUILD_DIR overrides the build directory. CUDA needs nothing here: CMake finds
# /usr/local/cuda/bin/nvcc by itself and builds the CPU-only engine when it is absent.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${TS_BUILD_DIR:-$root/build}"

say() { printf 'studio.sh: %s\n' "$*"; }
die() { printf 'studio.sh: %s\n' "$*" >&2; exit 1; }

install_packages() {
    command -v dpkg-query >/dev/null || die "this script sets up Debian 12 (dpkg-query not found)"
    local wanted missing=() p
    mapfile -t wanted < <(sed -e 's/#.*//' -e 's/[[:space:]]//g' "$root/packaging/debian-packages.txt" | grep -v '^$')
    for p in "${wanted[@]}"; do
        dpkg-query -W -f='${db:Status-Status}\n' "$p" 2>/dev/null | grep -qx installed || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0

    local sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null || die "not root and no sudo; as root run: apt-get install ${missing[*]}"
        sudo=(sudo)
    fi
    say "installing ${#missing[@]} missing Debian package(s): ${missing[*]}"
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
}

cache_has() { grep -qx "$1" "$build/CMakeCache.txt" 2>/dev/null; }

configure() {
    if [ -f "$build/CMakeCache.txt" ] && ! cache_has 'CMAKE_GENERATOR:INTERNAL=Ninja'; then
        die "$build was configured with another generator: remove it, or set TS_BUILD_DIR"
    fi
    # Ninja re-runs CMake by itself when a CMakeLists.txt changes; only a new or
    # non-Release build directory needs configuring here.
    if [ ! -f "$build/build.ninja" ] || ! cache_has 'CMAKE_BUILD_TYPE:STRING=Release'; then
        say "configuring $build (CMake + Ninja, Release)"
        cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
    fi
    cache_has 'TS_BUILD_GUI:BOOL=ON' || die "Qt 6 was not found or TS_BUILD_GUI is OFF in $build: no studio and no tests"
}

setup_and_build() {
    install_packages
    configure
    say "building in $build"
    cmake --build "$build"
}

run_studio() {
    local studio="$build/ui/trainstudio"
    if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
        exec "$studio" "$@"
    fi
    say "no display (DISPLAY and WAYLAND_DISPLAY are unset): showing engine info and rendering the studio offscreen instead"
    "$build/cli/trainstudio-cli" info
    # The offscreen platform's default screen is 800x800; give it a desktop-sized one.
    local screens="$build/offscreen-screen.json" shot="$build/trainstudio-screenshot.png"
    printf '{ "screens": [ { "name": "offscreen", "x": 0, "y": 0, "width": 1280, "height": 800, "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1 } ] }\n' >"$screens"
    QT_QPA_PLATFORM="offscreen:configfile=$screens" "$studio" --screenshot "$shot" "$@"
    say "screenshot of the studio: $shot"
}

run_tests() {
    local rc=0
    # On a crash Qt Test attaches gdb for a stack trace; after heap corruption that hung
    # until the ctest timeout (300 s) here. Fail fast instead; set it to 0 for the trace.
    export QTEST_DISABLE_STACK_DUMP="${QTEST_DISABLE_STACK_DUMP:-1}"
    # The ONNX tests run exported models with ONNX Runtime from npm, pinned by
    # tests/onnx/package-lock.json; installed once (later runs need no network). Its CPU
    # library ships in the package, so the install script (GPU providers) is skipped.
    if [ ! -d "$root/tests/onnx/node_modules/onnxruntime-node" ] && command -v npm >/dev/null; then
        say "installing ONNX Runtime for the ONNX tests (npm ci in tests/onnx)"
        (cd "$root/tests/onnx" && npm ci --ignore-scripts --no-audit --no-fund) || say "npm ci failed: the ONNX tests will fail"
    fi
    ctest --test-dir "$build" --output-on-failure --no-tests=error -j2 --timeout 300 "$@" || rc=$?
    if [ $rc -eq 0 ]; then say "all tests passed (${SECONDS} s in all)"; else say "TESTS FAILED (ctest exit code $rc)"; fi
    return $rc
}

command="${1:-}"
[ $# -gt 0 ] && shift
case "$command" in
    run) setup_and_build; run_studio "$@" ;;
    test) setup_and_build; run_tests "$@"
          # Then the Debian package, built, installed, used and removed; TS_PACKAGE_CHECK=0 skips it.
          [ "${TS_PACKAGE_CHECK:-1}" = 0 ] || bash "$root/packaging/check-package.sh" "$build"
          # Then the clang ASan + UBSan build: its short form (the readers' and kernels' suites, a
          # fuzz smoke run) by default, TS_SANITIZE=full for every engine and CLI suite, 0 skips it.
          case "${TS_SANITIZE:-short}" in
              0) ;;
              full|1) bash "$root/packaging/sanitize.sh" ;;
              *) bash "$root/packaging/sanitize.sh" --short ;;
          esac ;;
    build) setup_and_build ;;
    *)
        sed -n '2,12s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
        [ "$command" = "-h" ] || [ "$command" = "--help" ] || exit 2
        ;;
esac
