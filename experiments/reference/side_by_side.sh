#!/usr/bin/env bash
# Training speed of TrainStudio and PyTorch on the same models, same machine, same run:
#   bash experiments/reference/side_by_side.sh [build-dir] [steps]
# Needs Debian's python3-torch for the PyTorch side (apt-get install python3-torch).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cli="${1:-$root/build}/cli/trainstudio-cli"
steps="${2:-100}"
python=/usr/bin/python3  # Debian's, where python3-torch lives

printf '%-6s %18s %18s %8s\n' model "trainstudio samples/s" "pytorch samples/s" ratio
for model in mlp cnn; do
    ours=$("$cli" bench "$root/experiments/fashion_mnist_$model.yaml" --device cpu --steps "$steps" --json 2>/dev/null |
           sed -n 's/.*"samples_per_s":\([0-9.]*\).*/\1/p')
    theirs=$(OMP_NUM_THREADS=2 "$python" "$root/experiments/reference/pytorch_fashion_mnist.py" --model "$model" \
             --threads 2 --steps "$steps" | sed -n 's/.*"samples_per_s": \([0-9.]*\).*/\1/p')
    printf '%-6s %18.0f %18.0f %7.2fx\n' "$model" "$ours" "$theirs" "$(echo "$ours / $theirs" | bc -l)"
done
