#!/usr/bin/env bash
# On the development machine: gathers into BUILD_DIR/gpu what tests/gpu/run.sh needs on the
# GPU machine, which has no Debian libraries and no datasets. Carry that one folder.
#
#   tests/gpu/pack.sh [BUILD_DIR]         BUILD_DIR default: build-gpu (built with TS_WITH_CUDA=ON)
#
# BUILD_DIR/gpu/trainstudio-cli.gz  the CLI, stripped and gzipped (28 MB -> ~8 MB: static
#                                 OpenBLAS holds kernels for every CPU); run.sh unpacks it
# BUILD_DIR/gpu/lib/              the shared libraries ldd names, except the C library and
#                                 CUDA's (the GPU machine has those: /usr/local/cuda/lib64, cuDNN)
# BUILD_DIR/gpu/lib/trainstudio/  the CUDA backend and NCCL modules, stripped: run.sh puts the
#                                 CLI in a bin/ beside lib/, the installed layout they are found in
# BUILD_DIR/gpu/fashion-mnist/    the 4 IDX .gz files (~30 MB) from TS_FASHION_MNIST or
#                                 /usr/share/datasets/fashion-mnist
# The device call carries 64 MiB at most; this checks the folder fits.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${1:-build-gpu}"
[[ "$build" = /* ]] || build="$root/$build"
cli="$build/cli/trainstudio-cli"
data="${TS_FASHION_MNIST:-/usr/share/datasets/fashion-mnist}"
[ -x "$cli" ] || { echo "pack.sh: no $cli (build it first)" >&2; exit 1; }

bundle="$build/gpu"
rm -rf "$bundle"
mkdir -p "$bundle/lib/trainstudio" "$bundle/fashion-mnist"
strip --strip-unneeded -o "$bundle/trainstudio-cli" "$cli"
gzip -9 "$bundle/trainstudio-cli"
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

for f in train-images-idx3-ubyte.gz train-labels-idx1-ubyte.gz t10k-images-idx3-ubyte.gz t10k-labels-idx1-ubyte.gz; do
    cp "$data/$f" "$bundle/fashion-mnist/"
done

bytes=$(du -sb "$bundle" | cut -f1)
echo "pack.sh: $bundle: $((bytes / 1024 / 1024)) MiB ($(ls "$bundle/lib" | tr '\n' ' '))"
if [ "$bytes" -gt $((64 * 1024 * 1024)) ]; then
    echo "pack.sh: over the 64 MiB a device call carries" >&2
    exit 1
fi
echo "pack.sh: carry [\"${bundle#"$root"/}\"] and run: tests/gpu/run.sh ${build#"$root"/}"
