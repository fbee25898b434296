#!/usr/bin/env bash
# A distributed run never hangs on a rank that stops making progress (issue 37, item 4).
#   stop_timeout.sh CLI TST_DIST MPIRUN WORKDIR
# Trains the MLP on a Fashion-MNIST subset with `mpirun -np 2 trainstudio-cli train` and
# training.dist_timeout_s: 5; after the first checkpoint, rank 1 gets SIGSTOP (seen: rank 0 then
# spun at 85% CPU forever and the run stayed "running"). Rank 0 must end the run within the
# timeout, the liveness probe's grace (timeout / 4, at least 1 s) and a margin, naming rank 1
# and its host; the run is failed in the store, and `train --resume` finishes it from its
# last checkpoint.
set -euo pipefail
cli="$1" tst="$2" mpirun="$3" work="$4"
timeout_s=5
bound=30  # seconds from SIGSTOP to mpirun's exit: 5 s + 1.25 s of probing, the store, the abort
rm -rf "$work"
mkdir -p "$work/fashion"
"$tst" --write-subset "$work/fashion" 1280 200  # 10 steps an epoch
yaml="$work/mlp.yaml"
"$tst" --print-yaml "$work/fashion" 6 >"$yaml"
mpi=("$mpirun" -np 2 --allow-run-as-root --oversubscribe --bind-to none)

# mpirun itself in the background (not a function's subshell): its children are the ranks.
"${mpi[@]}" "$cli" train "$yaml" --workspace "$work/ws" --json --set training.dist_timeout_s=$timeout_s \
    >"$work/stopped.jsonl" 2>"$work/stopped.err" &
launcher=$!
victim=""
cleanup() {
    [ -n "$victim" ] && kill -KILL "$victim" 2>/dev/null || true
    kill -KILL "$launcher" 2>/dev/null || true
}
trap cleanup EXIT
for _ in $(seq 600); do  # up to 60 s for the first checkpoint (the end of epoch 1)
    if compgen -G "$work/ws/checkpoints/*/*.safetensors" >/dev/null; then break; fi
    sleep 0.1
done
compgen -G "$work/ws/checkpoints/*/*.safetensors" >/dev/null || { echo "FAIL: no checkpoint appeared"; cat "$work/stopped.err"; exit 1; }
for pid in $(pgrep -P "$launcher" || true); do
    if tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -qx 'OMPI_COMM_WORLD_RANK=1'; then victim=$pid; fi
done
[ -n "$victim" ] || { echo "FAIL: rank 1 not found among mpirun's children (or the run ended first)"; exit 1; }
kill -STOP "$victim"
start=$(date +%s%N)
echo "stopped rank 1 (process $victim) after $(grep -c '"event":"epoch"' "$work/stopped.jsonl" || true) epoch(s)"

for _ in $(seq $((bound * 10))); do
    kill -0 "$launcher" 2>/dev/null || break
    sleep 0.1
done
if kill -0 "$launcher" 2>/dev/null; then
    echo "FAIL: the run still runs ${bound} s after rank 1 stopped"
    tail -5 "$work/stopped.err"
    exit 1
fi
status=0
wait "$launcher" || status=$?
elapsed_ms=$((($(date +%s%N) - start) / 1000000))
kill -KILL "$victim" 2>/dev/null || true
echo "mpirun exited with $status, $elapsed_ms ms after SIGSTOP (timeout ${timeout_s} s)"
[ "$status" -ne 0 ] || { echo "FAIL: the stopped run exited 0"; exit 1; }

# The message names the rank that stopped answering and its host.
said=$(cat "$work/stopped.jsonl" "$work/stopped.err")
host=$(hostname)
grep -q "rank 1 (host $host) does not answer" <<<"$said" ||
    { echo "FAIL: no message naming rank 1 on $host"; cat "$work/stopped.err"; tail -3 "$work/stopped.jsonl"; exit 1; }
grep -q "within $timeout_s.0 s (training.dist_timeout_s)" <<<"$said" || { echo "FAIL: the timeout is not stated"; exit 1; }
echo "said: $(grep -o 'rank 0 of 2: [^"]*does not answer[^".]*' <<<"$said" | head -n1)"

# Failed in the store, not "running"; its checkpoint resumes to the end.
"$cli" runs show 1 --workspace "$work/ws" --json | grep -q '"status":"failed"' ||
    { echo "FAIL: run 1 is not failed in the store"; "$cli" runs show 1 --workspace "$work/ws"; exit 1; }
"${mpi[@]}" "$cli" train --resume 1 --workspace "$work/ws" --json >"$work/resumed.jsonl"
grep -q '"event":"done","outcome":"finished"' "$work/resumed.jsonl" || { echo "FAIL: the resumed run did not finish"; exit 1; }
echo "resumed: $(grep '"event":"done"' "$work/resumed.jsonl" | grep -oE '"test_acc":[^,}]*')"
echo "PASS stop_timeout"
