#!/usr/bin/env bash
# A distributed run killed mid-training resumes, and ends where an uninterrupted one ends.
#   kill_resume.sh CLI TST_DIST MPIRUN WORKDIR
# Trains the MLP on a Fashion-MNIST subset with `mpirun -np 2 trainstudio-cli train` three times:
# uninterrupted; killed (SIGKILL to one rank, after the first checkpoint; mpirun then ends the
# other); resumed with `train --resume 1`; then forked with `train --fork 1`. The resumed run's final test metrics must equal the
# uninterrupted run's, to the printed digits (the reduction order is fixed, dist/mpi_communicator.h).
set -euo pipefail
cli="$1" tst="$2" mpirun="$3" work="$4"
rm -rf "$work"
mkdir -p "$work/fashion"
"$tst" --write-subset "$work/fashion" 2560 500  # 20 steps an epoch
yaml="$work/mlp.yaml"
"$tst" --print-yaml "$work/fashion" 3 >"$yaml"
run() { "$mpirun" -np 2 --allow-run-as-root --oversubscribe --bind-to none "$cli" "$@"; }
final() { grep '"event":"done"' "$1" | grep -oE '"(test|train)_(loss|acc)":[^,}]*' | tr '\n' ' '; }

run train "$yaml" --workspace "$work/ref" --json >"$work/ref.jsonl"

# mpirun itself in the background (not a function's subshell): its children are the ranks.
"$mpirun" -np 2 --allow-run-as-root --oversubscribe --bind-to none "$cli" train "$yaml" --workspace "$work/ws" --json \
    >"$work/killed.jsonl" 2>"$work/killed.err" &
launcher=$!
for _ in $(seq 600); do  # up to 60 s for the first checkpoint (the end of epoch 1)
    if compgen -G "$work/ws/checkpoints/*/*.safetensors" >/dev/null; then break; fi
    sleep 0.1
done
compgen -G "$work/ws/checkpoints/*/*.safetensors" >/dev/null || { echo "FAIL: no checkpoint appeared"; kill "$launcher"; exit 1; }
ranks=$(pgrep -P "$launcher" || true)
[ -n "$ranks" ] || { echo "FAIL: the run ended before it could be killed"; exit 1; }
victim=$(head -n1 <<<"$ranks")
kill -KILL "$victim"
if wait "$launcher"; then echo "FAIL: the killed run exited 0"; exit 1; fi
if grep -q '"event":"done"' "$work/killed.jsonl"; then echo "FAIL: the killed run finished before the kill"; exit 1; fi
echo "killed rank process $victim after $(grep -c '"event":"epoch"' "$work/killed.jsonl") epoch(s)"

run train --resume 1 --workspace "$work/ws" --json >"$work/resumed.jsonl"
expected=$(final "$work/ref.jsonl") got=$(final "$work/resumed.jsonl")
echo "uninterrupted $expected; resumed $got"
[ -n "$expected" ] && [ "$expected" = "$got" ] || { echo "FAIL: the resumed run ends elsewhere"; exit 1; }

# A fork of the distributed run, distributed too: a new run from run 1's last checkpoint with a
# changed learning rate, linked to it, trained to the end.
run train --fork 1 --set optimizer.lr=0.0005 --workspace "$work/ws" --json >"$work/forked.jsonl"
grep -q '"event":"done","outcome":"finished"' "$work/forked.jsonl" || { echo "FAIL: the fork did not finish"; exit 1; }
fork=$(grep -oE '"event":"run","run_id":[0-9]+' "$work/forked.jsonl" | grep -oE '[0-9]+$')
"$cli" runs show "$fork" --workspace "$work/ws" --json | grep -qE '"parent":\{"id":1[,}]' ||
    { echo "FAIL: run $fork is not linked to run 1"; "$cli" runs show "$fork" --workspace "$work/ws"; exit 1; }
echo "forked run 1 as run $fork: $(final "$work/forked.jsonl")"
echo "PASS kill_resume"
