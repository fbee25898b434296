#!/usr/bin/env bash
# Training speed of TrainStudio and PyTorch on the same models, same machine, same run:
#   bash experiments/reference/side_by_side.sh [build-dir] [steps] [--epoch]
# Ours is `bench` (steps on batches already in memory, as PyTorch's side); with --epoch also a
# real epoch of `train` (our loader, shuffling, the epoch's test pass excluded) in a throw-away
# workspace. PyTorch's side is always the in-memory steps.
# Needs Debian's python3-torch for the PyTorch side (apt-get install python3-torch).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cli="${1:-$root/build}/cli/trainstudio-cli"
steps="${2:-100}"
epoch=0
[ "${3:-}" = "--epoch" ] && epoch=1
python=/usr/bin/python3  # Debian's, where python3-torch lives
workspace="$(mktemp -d)"
trap 'rm -rf "$workspace"' EXIT

ratio() { echo "$1 / $2" | bc -l; }
printf '%-6s %18s %18s %8s' model "trainstudio samples/s" "pytorch samples/s" ratio
[ $epoch = 1 ] && printf ' %20s %8s' "trainstudio epoch/s" ratio
printf '\n'
for model in mlp cnn; do
    experiment="$root/experiments/fashion_mnist_$model.yaml"
    ours=$("$cli" bench "$experiment" --device cpu --steps "$steps" --json 2>/dev/null |
           sed -n 's/.*"samples_per_s":\([0-9.]*\).*/\1/p')
    theirs=$(OMP_NUM_THREADS=2 "$python" "$root/experiments/reference/pytorch_fashion_mnist.py" --model "$model" \
             --threads 2 --steps "$steps" | sed -n 's/.*"samples_per_s": \([0-9.]*\).*/\1/p')
    printf '%-6s %18.0f %18.0f %7.2fx' "$model" "$ours" "$theirs" "$(ratio "$ours" "$theirs")"
    if [ $epoch = 1 ]; then
        real=$("$cli" train "$experiment" --device cpu --epochs 1 --workspace "$workspace" --json 2>/dev/null |
               sed -n 's/.*"event":"epoch".*"samples_per_s":\([0-9.]*\).*/\1/p' | tail -n 1)
        printf ' %20.0f %7.2fx' "$real" "$(ratio "$real" "$theirs")"
    fi
    printf '\n'
done
