#!/usr/bin/env bash
# Training speed of TrainStudio and PyTorch on the same models, same machine, same run:
#   bash experiments/reference/side_by_side.sh [build-dir] [steps] [--epoch]
#   MODELS="vit char_gpt" ROUNDS=3 bash experiments/reference/side_by_side.sh build 20
# Ours is `bench` (steps on batches already in memory, as PyTorch's side); with --epoch also a
# real epoch of `train` (our loader, shuffling, the epoch's test pass excluded) in a throw-away
# workspace (mlp and cnn only). PyTorch's side is always the in-memory steps, 2 threads, the
# experiment's batch (128; the char-GPT 32). Each model runs ROUNDS times (default 1), ours and
# PyTorch's alternating; with more than one round the last line per model is the median.
# Needs Debian's python3-torch for the PyTorch side (apt-get install python3-torch).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cli="${1:-$root/build}/cli/trainstudio-cli"
steps="${2:-100}"
epoch=0
[ "${3:-}" = "--epoch" ] && epoch=1
models="${MODELS:-mlp cnn vit char_gpt}"
rounds="${ROUNDS:-1}"
python=/usr/bin/python3  # Debian's, where python3-torch lives
reference="$root/experiments/reference"
workspace="$(mktemp -d)"
trap 'rm -rf "$workspace"' EXIT

ratio() { echo "$1 / $2" | bc -l; }
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
experiment_of() { case "$1" in char_gpt) echo "$root/experiments/fortunes_char_gpt.yaml" ;;
                                *) echo "$root/experiments/fashion_mnist_$1.yaml" ;; esac; }
theirs_of() {
    case "$1" in
    char_gpt) OMP_NUM_THREADS=2 "$python" "$reference/pytorch_char_gpt.py" --bench --threads 2 --steps "$steps" ;;
    *) OMP_NUM_THREADS=2 "$python" "$reference/pytorch_fashion_mnist.py" --model "$1" --threads 2 --steps "$steps" ;;
    esac | sed -n 's/.*"samples_per_s": \([0-9.]*\).*/\1/p'
}

printf '%-9s %5s %18s %18s %8s' model round "trainstudio samples/s" "pytorch samples/s" ratio
[ $epoch = 1 ] && printf ' %20s %8s' "trainstudio epoch/s" ratio
printf '\n'
for model in $models; do
    experiment="$(experiment_of "$model")"
    all_ours=() all_theirs=() all_ratios=()
    for round in $(seq "$rounds"); do
        ours=$("$cli" bench "$experiment" --device cpu --steps "$steps" --json 2>/dev/null |
               sed -n 's/.*"samples_per_s":\([0-9.]*\).*/\1/p')
        theirs=$(theirs_of "$model")
        all_ours+=("$ours") all_theirs+=("$theirs") all_ratios+=("$(ratio "$ours" "$theirs")")
        printf '%-9s %5s %18.1f %18.1f %7.2fx' "$model" "$round" "$ours" "$theirs" "$(ratio "$ours" "$theirs")"
        if [ $epoch = 1 ] && [ "$model" = mlp -o "$model" = cnn ]; then
            real=$("$cli" train "$experiment" --device cpu --epochs 1 --workspace "$workspace" --json 2>/dev/null |
                   sed -n 's/.*"event":"epoch".*"samples_per_s":\([0-9.]*\).*/\1/p' | tail -n 1)
            printf ' %20.0f %7.2fx' "$real" "$(ratio "$real" "$theirs")"
        fi
        printf '\n'
    done
    if [ "$rounds" -gt 1 ]; then
        printf '%-9s %5s %18.1f %18.1f %7.2fx\n' "$model" median "$(median "${all_ours[@]}")" \
               "$(median "${all_theirs[@]}")" "$(median "${all_ratios[@]}")"
    fi
done
