#!/usr/bin/env bash
# The GPU check, in one call on the GPU machine (see shared/gpu/README.md): device info, the
# CUDA selftest, then our engine and PyTorch side by side; one table last.
#
#   tests/gpu/run.sh [BUILD_DIR]          BUILD_DIR default: build-gpu (relative to the repo)
#
# Needs, from the development machine, only what tests/gpu/pack.sh BUILD_DIR puts in
# BUILD_DIR/gpu (carry that one folder): bundle.tar.xz with the CLI, its CUDA backend and NCCL
# modules, the shared libraries they need that the GPU machine lacks, and Fashion-MNIST. Without the bundle it runs BUILD_DIR/cli/trainstudio-cli.
# Logs go to ${OUT:-/tmp/ts-gpu-out}. Environment: TS_FASHION_MNIST (the 4 IDX files;
# default /usr/share/datasets/fashion-mnist, else BUILD_DIR/gpu/fashion-mnist), TS_BENCH_STEPS
# (200), TS_PYTHON (/opt/torch/.venv/bin/python3, else python3), TS_DEVICE (cuda; cpu for a
# dry run of this script on a development machine). Each step has its own timeout: the whole
# run stays under 9.5 minutes at worst (device call: timeout_s 600), ~4 when all goes well.
# Exit status: 0 when the selftest passed and every target is met, 1 otherwise.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${1:-build-gpu}"
[[ "$build" = /* ]] || build="$root/$build"
out="${OUT:-/tmp/ts-gpu-out}"
steps="${TS_BENCH_STEPS:-200}"
device="${TS_DEVICE:-cuda}"
mkdir -p "$out"

bundle="$build/gpu"
cli="$build/cli/trainstudio-cli"
lib="$bundle/lib"
if [ -f "$bundle/bundle.tar.xz" ]; then  # pack.sh's: bin/, lib/ and fashion-mnist/ in one xz archive
    unpacked="$(mktemp -d "${TMPDIR:-/tmp}/ts-gpu-bundle.XXXXXX")"
    tar -C "$unpacked" -xJf "$bundle/bundle.tar.xz" 2>/dev/null ||
        python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' "$bundle/bundle.tar.xz" "$unpacked"
    cli="$unpacked/bin/trainstudio-cli"  # finds its CUDA module in ../lib/trainstudio
    lib="$unpacked/lib"
    bundle="$unpacked"
fi
[ -x "$cli" ] || { echo "run.sh: no trainstudio-cli in $bundle or $build/cli (run tests/gpu/pack.sh first)" >&2; exit 2; }

data="${TS_FASHION_MNIST:-/usr/share/datasets/fashion-mnist}"
has_data() { [ -f "$1/train-images-idx3-ubyte.gz" ] || [ -f "$1/train-images-idx3-ubyte" ]; }
if [ -z "${TS_FASHION_MNIST:-}" ] && ! has_data "$data"; then data="$bundle/fashion-mnist"; fi
has_data "$data" || echo "run.sh: warning: no Fashion-MNIST at $data; benches will fail" >&2

# PyTorch keeps the environment it came with (its own CUDA libraries); ours gets the README's paths.
python_ld="${LD_LIBRARY_PATH:-}"
python="${TS_PYTHON:-/opt/torch/.venv/bin/python3}"
[ -x "$python" ] || python=python3
export LD_LIBRARY_PATH="/usr/local/cuda/lib64:/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib:$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

say() { printf '\n== %s\n' "$*"; }

# step NAME SECONDS COMMAND...: stdout to $out/NAME.jsonl, stderr to $out/NAME.err, exit status
# to $out/NAME.rc; never stops the script.
step() {
    local name="$1" limit="$2" rc=0 start=$SECONDS
    shift 2
    timeout --kill-after=10 "$limit" "$@" >"$out/$name.jsonl" 2>"$out/$name.err" || rc=$?
    echo "$rc" >"$out/$name.rc"
    local note=""
    if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then note=" (timed out after ${limit} s)"; fi
    printf '%-22s exit %3s  %4ss%s\n' "$name" "$rc" "$((SECONDS - start))" "$note"
    return 0
}

say "device ($out)"
gpu_state() { if command -v nvidia-smi >/dev/null; then nvidia-smi "$@" 2>&1; else echo "nvidia-smi: not found"; fi; }
gpu_state -L | tee "$out/nvidia-smi.log"
step info 30 "$cli" info
cat "$out/info.jsonl" "$out/info.err"

say "selftest (exit 0 pass, 77 no GPU, 1 failures)"
# Its training comparison reads the experiments as they are (no --set): copies that point at $data.
experiments="$(mktemp -d "${TMPDIR:-/tmp}/ts-gpu-experiments.XXXXXX")"
for model in mlp cnn; do
    sed "s#^\(  path:\).*#\1 $data#" "$root/experiments/fashion_mnist_$model.yaml" >"$experiments/fashion_mnist_$model.yaml"
done
step selftest 75 "$cli" selftest --device "$device" --json --experiments "$experiments"
tail -n 5 "$out/selftest.jsonl" "$out/selftest.err" 2>/dev/null || true
say "ours: bench ($steps steps) and one 60,000-sample epoch"
for model in mlp cnn; do
    for batch in 128 1024; do
        step "ours_bench_${model}_$batch" 30 "$cli" bench "$root/experiments/fashion_mnist_$model.yaml" --device "$device" \
            --steps "$steps" --json --set "training.batch_size=$batch" --set "dataset.path=$data"
    done
done
workspace="$(mktemp -d "${TMPDIR:-/tmp}/ts-gpu-workspace.XXXXXX")"  # runs, checkpoints: not worth bringing back
for model in mlp cnn; do
    # validation_fraction 0: all 60,000 training samples in the epoch, as PyTorch's.
    step "ours_epoch_$model" 45 "$cli" train "$root/experiments/fashion_mnist_$model.yaml" --device "$device" --epochs 1 \
        --json --workspace "$workspace" --set "dataset.path=$data" --set dataset.validation_fraction=0
done

say "selftest at every matrix-product precision (tf32, bf16, f16 against the CPU's rounding)"
step selftest_precisions 45 "$cli" selftest --device "$device" --json --no-training --precision all
tail -n 1 "$out/selftest_precisions.jsonl" 2>/dev/null || true

say "PyTorch ($python)"
step pytorch 210 env LD_LIBRARY_PATH="$python_ld" TS_FASHION_MNIST="$data" "$python" -u \
    "$root/experiments/reference/pytorch_gpu_bench.py" --json --steps "$steps" --device "$device"
grep -h '"error"' "$out/pytorch.jsonl" | cut -c1-300 || true

say "GPU after the runs"
gpu_state --query-gpu=name,temperature.gpu,power.draw,clocks.sm,clocks.mem,memory.used --format=csv |
    tee -a "$out/nvidia-smi.log"

say "summary"
rc=0
if command -v python3 >/dev/null; then python3 "$root/tests/gpu/table.py" "$out" || rc=$?
else "$python" "$root/tests/gpu/table.py" "$out" || rc=$?; fi
exit "$rc"
