#!/usr/bin/env bash
# One process x 2 threads against 2 ranks x 1 thread (mpirun), for the shipped MLP and CNN on a
# Fashion-MNIST subset (6,400 training images, one epoch); the time in the gradient all-reduce,
# with and without waiting for the other rank; 1 x 1 thread as the baseline. Not a test: numbers for engine/README.md.
#   measure_scaling.sh BUILD_DIR SOURCE_DIR WORKDIR
set -euo pipefail
build="$1" src="$2" work="$3"
cli="$build/cli/trainstudio-cli" tst="$build/tests/dist/tst_dist"
mpi=(mpirun -np 2 --allow-run-as-root --oversubscribe --bind-to none -x OMP_NUM_THREADS=1)
export OMPI_MCA_btl_vader_single_copy_mechanism=none
rm -rf "$work" && mkdir -p "$work/fashion"
"$tst" --write-subset "$work/fashion" 6400 1000
epoch_field() { grep '"event":"epoch"' "$1" | grep -oE "\"$2\":[^,}]*" | cut -d: -f2; }
for model in mlp cnn; do
    exp="$src/experiments/fashion_mnist_$model.yaml"
    sets=(--set dataset.path="$work/fashion" --set dataset.validation_fraction=0 --set dataset.loader.num_workers=1 --epochs 1)
    # training.threads, not OMP_NUM_THREADS: the backend sets its thread count itself (automatic:
    # every idle core; under mpirun an equal share of the cores per rank on this machine).
    "$cli" train "$exp" "${sets[@]}" --set training.threads=1 --device cpu --workspace "$work/single_$model" --json >"$work/single_$model.jsonl"
    "$cli" train "$exp" "${sets[@]}" --set training.threads=2 --device cpu --workspace "$work/one_$model" --json >"$work/one_$model.jsonl"
    "${mpi[@]}" "$cli" train "$exp" "${sets[@]}" --device cpu --workspace "$work/two_$model" --json >"$work/two_$model.jsonl"
    single=$(epoch_field "$work/single_$model.jsonl" seconds) one=$(epoch_field "$work/one_$model.jsonl" seconds) two=$(epoch_field "$work/two_$model.jsonl" seconds)
    reduce=$("$cli" runs export 1 --workspace "$work/two_$model" --metrics all_reduce_s | awk -F, 'NR>1 {s+=$3; n++} END {printf "%.3f %d", s, n}')
    echo "$model: 1 x 1 thread ${single} s/epoch; 1 x 2 threads ${one} s/epoch; 2 ranks x 1 thread ${two} s/epoch; all-reduce (with waiting) ${reduce% *} s over ${reduce#* } steps"
done
"${mpi[@]}" "$tst" --bench-allreduce 535818   # the MLP's parameters
"${mpi[@]}" "$tst" --bench-allreduce 421642   # the CNN's
