#!/usr/bin/env bash
# Training speed with another program busy on one core (issue: "speed under load"): one epoch
# of the shipped MLP, idle and beside `while :; do :; done`, with the automatic thread count
# and with --threads fixed at every core (what training did before it followed the load).
#   bash experiments/reference/under_load.sh [build-dir] [rounds]
# Prints each round's seconds and the medians; ratios are loaded / idle.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cli="${1:-$root/build}/cli/trainstudio-cli"
rounds="${2:-3}"
cores=$(nproc)
work=$(mktemp -d)
trap 'rm -rf "$work"; kill "${busy:-}" 2>/dev/null || true' EXIT

epoch() {  # epoch THREADS: seconds of one training epoch (a fresh workspace each time)
    local start end
    start=$(date +%s.%N)
    "$cli" train "$root/experiments/fashion_mnist_mlp.yaml" --epochs 1 --threads "$1" --device cpu \
        --workspace "$work/ws$RANDOM" > /dev/null 2>&1
    end=$(date +%s.%N)
    echo "$end - $start" | bc -l
}
median() { sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

declare -A seconds
for round in $(seq "$rounds"); do
    for mode in idle_auto idle_fixed busy_auto busy_fixed; do
        threads=0; [[ $mode == *fixed ]] && threads=$cores
        if [[ $mode == busy* ]]; then (while :; do :; done) & busy=$!; fi
        s=$(epoch "$threads")
        if [[ $mode == busy* ]]; then kill "$busy"; wait "$busy" 2>/dev/null || true; unset busy; fi
        seconds[$mode]+="$s "
        printf 'round %d %-10s %6.1f s\n' "$round" "$mode" "$s"
    done
done
declare -A m
for mode in idle_auto idle_fixed busy_auto busy_fixed; do
    m[$mode]=$(echo "${seconds[$mode]}" | tr ' ' '\n' | grep . | median)
done
printf 'median: idle auto %.1f s, idle %d threads %.1f s, busy auto %.1f s (%.2fx idle), busy %d threads %.1f s (%.2fx idle)\n' \
    "${m[idle_auto]}" "$cores" "${m[idle_fixed]}" "${m[busy_auto]}" "$(echo "${m[busy_auto]} / ${m[idle_auto]}" | bc -l)" \
    "$cores" "${m[busy_fixed]}" "$(echo "${m[busy_fixed]} / ${m[idle_fixed]}" | bc -l)"
