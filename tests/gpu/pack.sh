#!/usr/bin/env bash
# On the development machine: gathers into BUILD_DIR/gpu what tests/gpu/run.sh needs on the
# GPU machine, which has no Debian libraries and no datasets. Carry that one folder.
#
#   tests/gpu/pack.sh [BUILD_DIR]         BUILD_DIR default: build-gpu (built with TS_WITH_CUDA=ON)
#
# BUILD_DIR/gpu/bundle.tar.xz, one xz archive (the device call carries 64 MiB at most; since
# libvips the CLI's libraries alone are ~105 MB, ~30 MB in xz) holding:
#   bin/trainstudio-cli            the CLI, stripped
#   lib/                           the shared libraries ldd names, except the C library and
#                                  CUDA's (the GPU machine has those: /usr/local/cuda/lib64, cuDNN)
#   lib/trainstudio/               the CUDA backend and NCCL modules, stripped, where the CLI in
#                                  bin/ finds them (the installed layout)
#   fashion-mnist/                 the 4 IDX files, uncompressed (xz packs them better than gzip),
#                                  from TS_FASHION_MNIST or /usr/share/datasets/fashion-mnist
# The device call carries 64 MiB at most; this checks the folder fits.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${1:-build-gpu}"
[[ "$build" = /* ]] || build="$root/$build"
cli="$build/cli/trainstudio-cli"
data="${TS_FASHION_MNIST:-/usr/share/datasets/fashion-mnist}"
[ -x "$cli" ] || { echo "pack.sh: no $cli (build it first)" >&2; exit 1; }

out="$build/gpu"
rm -rf "$out"
mkdir -p "$out"
bundle="$(mktemp -d)"
trap 'rm -rf "$bundle"' EXIT
mkdir -p "$bundle/bin" "$bundle/lib/trainstudio" "$bundle/fashion-mnist"
strip --strip-unneeded -o "$bundle/bin/trainstudio-cli" "$cli"
modules=("$build"/lib/trainstudio/libtrainstudio-*.so)
[ -f "${modules[0]}" ] || { echo "pack.sh: no CUDA backend module in $build/lib/trainstudio (build with TS_WITH_CUDA=ON)" >&2; exit 1; }
for m in "${modules[@]}"; do strip --strip-unneeded -o "$bundle/lib/trainstudio/$(basename "$m")" "$m"; done

# libstdc++ and libgcc_s go along: the GPU machine's may be older than Debian 12's.
ldd "$cli" "${modules[@]}" | awk '$2 == "=>" && $3 ~ /^\// { print $1, $3 }' | while read -r name path; do
    case "$name" in
        libc.so.*|libm.so.*|libdl.so.*|libpthread.so.*|librt.so.*|ld-linux*) continue ;;
        libcuda.so.*|libcudart*|libcublas*|libcudnn*|libnvidia-ml*|libnccl*) continue ;;
    esac
    case "$path" in /usr/local/cuda*|*/nvidia/*) continue ;; esac
    cp -L "$path" "$bundle/lib/$name"
done

for f in train-images-idx3-ubyte train-labels-idx1-ubyte t10k-images-idx3-ubyte t10k-labels-idx1-ubyte; do
    gzip -dc "$data/$f.gz" >"$bundle/fashion-mnist/$f"
done

tar -C "$bundle" -cf - bin lib fashion-mnist | xz -T0 -9 >"$out/bundle.tar.xz"
bytes=$(stat -c %s "$out/bundle.tar.xz")
echo "pack.sh: $out/bundle.tar.xz: $((bytes / 1024 / 1024)) MiB ($(ls "$bundle/lib" | wc -l) libraries)"
if [ "$bytes" -gt $((64 * 1024 * 1024)) ]; then
    echo "pack.sh: over the 64 MiB a device call carries" >&2
    exit 1
fi
echo "pack.sh: carry [\"${out#"$root"/}\"] and run: tests/gpu/run.sh ${build#"$root"/}"
