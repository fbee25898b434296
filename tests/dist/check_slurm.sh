#!/usr/bin/env bash
# `trainstudio-cli slurm` writes an sbatch script with one srun task per GPU.
#   check_slurm.sh CLI SOURCE_DIR WORKDIR
set -uo pipefail
cli="$1" src="$2" work="$3"
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*"; exit 1; }
exp="$src/experiments/fashion_mnist_mlp.yaml"
"$cli" slurm "$exp" --nodes 2 --gpus-per-node 4 --time 01:00:00 --workspace "$work/ws" --output "$work/job.sbatch" \
    || fail "slurm exited $?"
s="$work/job.sbatch"
[ -x "$s" ] || fail "the script is not executable"
head -n1 "$s" | grep -qx '#!/bin/bash' || fail "no bash shebang"
for line in '#SBATCH --nodes=2' '#SBATCH --ntasks-per-node=4' '#SBATCH --gpus-per-node=4' '#SBATCH --time=01:00:00' \
            '#SBATCH --job-name=fashion_mnist_mlp'; do
    grep -qx -- "$line" "$s" || fail "missing '$line'"
done
grep -q "8 ranks" "$s" || fail "the header does not say 8 ranks"
grep -q "16 per rank" "$s" || fail "the header does not give the per-rank batch (128 / 8)"
grep -q -- '^srun --mpi=pmix --gpus-per-task=1 ' "$s" || fail "no srun line with one GPU per task"
grep -q -- " train '$exp' --device cuda --workspace '$work/ws'" "$s" || fail "the srun line does not train the experiment"
bash -n "$s" || fail "the script is not valid bash"
# The global batch must split over the ranks: 128 over 3 is refused with the way out.
out=$("$cli" slurm "$exp" --nodes 3 --gpus-per-node 1 2>&1) && fail "128 over 3 ranks was accepted"
grep -q "multiple of 3" <<<"$out" || fail "the refusal does not say what to do: $out"
# Without --output the script goes to stdout.
"$cli" slurm "$exp" --nodes 1 --gpus-per-node 2 | grep -qx '#SBATCH --ntasks-per-node=2' || fail "no script on stdout"
echo "PASS slurm script"
