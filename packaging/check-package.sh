#!/usr/bin/env bash
# check-package.sh [BUILD_DIR]: the Debian package, built and used as a user would.
#
# Builds trainstudio_<version>_amd64.deb from an existing build folder (default build/),
# installs it with apt-get, trains the installed experiment for one epoch with the installed
# trainstudio-cli, renders the installed studio offscreen (--screenshot), and removes the
# package again, also when a step fails. As root (or with sudo), the installed programs run
# with the source tree hidden (a private mount namespace), so they must find everything in
# /usr. Exits non-zero when any step fails. packaging/studio.sh test runs it after ctest.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$(cd "${1:-$root/build}" && pwd)"
say() { printf 'check-package.sh: %s\n' "$*"; }
die() { printf 'check-package.sh: %s\n' "$*" >&2; exit 1; }

sudo=()
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || die "installing the package needs root or sudo"
    sudo=(sudo)
fi
# A trainstudio the machine already has is not ours to replace and then remove.
if dpkg-query -W -f='${db:Status-Status}\n' trainstudio 2>/dev/null | grep -qx installed; then
    die "the package trainstudio is already installed; remove it first (apt-get remove trainstudio)"
fi

scratch="$(mktemp -d /tmp/trainstudio-package-check.XXXXXX)"
installing=0
cleanup() {
    local rc=$?
    # Also after an install that failed half-way: whatever dpkg knows of it goes.
    if [ $installing -eq 1 ] && dpkg-query -W trainstudio >/dev/null 2>&1; then
        say "removing the package"
        "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get purge -y -q -o DPkg::Lock::Timeout=120 trainstudio >/dev/null || rc=1
    fi
    rm -rf "$scratch"
    [ $rc -eq 0 ] && say "package check passed (${SECONDS} s)" || say "PACKAGE CHECK FAILED"
    exit $rc
}
trap cleanup EXIT

say "building the package in $build"
rm -f "$build"/trainstudio_*.deb
cmake --build "$build" --target package >"$scratch/cpack.log" 2>&1 || { cat "$scratch/cpack.log"; die "cmake --build $build --target package failed"; }
debs=("$build"/trainstudio_*_amd64.deb)
[ -f "${debs[0]}" ] && [ ${#debs[@]} -eq 1 ] || die "expected one trainstudio_*_amd64.deb in $build, found: ${debs[*]}"
deb="${debs[0]}"
say "$(basename "$deb"): $(du -k "$deb" | cut -f1) KiB; Depends: $(dpkg-deb -f "$deb" Depends)"

# What users' tools read from it: lintian (errors fail; every tag is shown), the AppStream
# metadata against the files beside it (desktop file, icon), the desktop file.
say "lintian, appstreamcli validate-tree, desktop-file-validate"
lint_rc=0
lint="$(lintian --fail-on error "$deb" 2>&1)" || lint_rc=$?
printf '%s\n' "$lint" | grep -v -e '^running with root privileges' -e '^$' || true
[ $lint_rc -eq 0 ] || die "lintian reports errors in $(basename "$deb") (exit code $lint_rc, above)"
dpkg-deb -x "$deb" "$scratch/tree"
appstreamcli validate-tree --no-net "$scratch/tree" || die "appstreamcli validate-tree failed on the package's files (above)"
desktop-file-validate "$scratch/tree/usr/share/applications/trainstudio.desktop" || die "desktop-file-validate failed (above)"

say "installing it"
# apt-get wants a path with a slash to take a file rather than a package name.
installing=1
(cd "$build" && "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q -o DPkg::Lock::Timeout=120 "./$(basename "$deb")") \
    >"$scratch/apt.log" 2>&1 || { cat "$scratch/apt.log"; die "apt-get install ./$(basename "$deb") failed"; }
for f in /usr/bin/trainstudio /usr/bin/trainstudio-cli /usr/share/trainstudio/experiments/fashion_mnist_mlp.yaml \
         /usr/share/trainstudio/experiments/lessons/fix_imbalance.yaml /usr/share/trainstudio/experiments/data/fashion_mnist_imbalanced/train-images-idx3-ubyte.gz \
         /usr/share/applications/trainstudio.desktop /usr/share/metainfo/io.github.trainstudio.TrainStudio.metainfo.xml \
         /usr/share/icons/hicolor/scalable/apps/trainstudio.svg /usr/share/icons/hicolor/48x48/apps/trainstudio.png \
         /usr/share/man/man1/trainstudio.1.gz /usr/share/man/man1/trainstudio-cli.1.gz /usr/share/doc/trainstudio/copyright; do
    [ -f "$f" ] || die "the installed package has no $f"
done
for exe in /usr/bin/trainstudio /usr/bin/trainstudio-cli /usr/lib/trainstudio/*.so; do
    [ -f "$exe" ] || continue  # a CPU-only build has no modules
    if ldd "$exe" | grep -q 'not found'; then ldd "$exe" | grep 'not found'; die "$exe needs libraries that are not installed"; fi
done
# NVIDIA's libraries are the CUDA module's alone (engine/backend/cuda_module_api.h): the
# programs start on machines without them.
for exe in /usr/bin/trainstudio /usr/bin/trainstudio-cli; do
    if ldd "$exe" | grep -E 'lib(cuda|cudart|cublas|cudnn|nccl)'; then die "$exe links NVIDIA's libraries (above): they belong in /usr/lib/trainstudio"; fi
done

# The installed programs, run from a scratch folder with a scratch workspace and HOME.
cat >"$scratch/use-installed.sh" <<EOF
set -euo pipefail
cd "$scratch"
export HOME="$scratch/home" XDG_CONFIG_HOME="$scratch/home/.config" XDG_DATA_HOME="$scratch/home/.local/share"
export TRAINSTUDIO_WORKSPACE="$scratch/workspace"
mkdir -p "\$HOME"
/usr/bin/trainstudio-cli info
/usr/bin/trainstudio-cli train /usr/share/trainstudio/experiments/fashion_mnist_mlp.yaml --epochs 1
printf '{ "screens": [ { "name": "offscreen", "x": 0, "y": 0, "width": 1280, "height": 800, "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1 } ] }\n' >screen.json
QT_QPA_PLATFORM="offscreen:configfile=$scratch/screen.json" /usr/bin/trainstudio --screenshot "$scratch/studio.png"
EOF
runner=(bash "$scratch/use-installed.sh")
# Hide the source tree (and the build folders in it) behind an empty tmpfs, for these
# programs only, where the kernel lets us make a mount namespace.
if "${sudo[@]}" unshare --mount true 2>/dev/null; then
    runner=("${sudo[@]}" unshare --mount bash -c "mount -t tmpfs none '$root' && exec bash '$scratch/use-installed.sh'")
    say "running the installed programs with $root hidden"
else
    say "no mount namespace here: running the installed programs with the source tree visible"
fi
say "trainstudio-cli train /usr/share/trainstudio/experiments/fashion_mnist_mlp.yaml --epochs 1; trainstudio --screenshot"
start=$SECONDS
"${runner[@]}" >"$scratch/use.log" 2>&1 || { tail -40 "$scratch/use.log"; die "the installed programs failed (above)"; }
grep -E 'test_acc|accuracy' "$scratch/use.log" | tail -2 || true
# `info` loads the installed CUDA module (and NVIDIA's libraries) also without a GPU.
if [ -f /usr/lib/trainstudio/libtrainstudio-cuda.so ]; then
    grep -E '^CUDA (runtime|devices)' "$scratch/use.log" || true
    grep -q '^CUDA runtime ' "$scratch/use.log" || die "the installed trainstudio-cli did not load /usr/lib/trainstudio/libtrainstudio-cuda.so (its info above)"
fi
[ -s "$scratch/studio.png" ] || die "the installed studio wrote no screenshot"
say "installed programs ran in $((SECONDS - start)) s; screenshot $(file -b "$scratch/studio.png" | cut -d, -f2)"
