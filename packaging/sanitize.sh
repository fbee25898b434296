#!/usr/bin/env bash
# The sanitizer job: the engine, the CLI, their test suites and the fuzz targets built with
# clang under AddressSanitizer + UndefinedBehaviorSanitizer (TS_FUZZ=ON), then the engine and
# CLI suites run and every fuzz target smoke-run over its seed corpus (tests/fuzz/corpus).
# Any sanitizer report, failed suite or fuzzer finding fails the job.
#
#   bash packaging/sanitize.sh [--short] [seconds per fuzz target, default 15; 3 with --short]
#
# --short, CI's form (about 6 minutes of its 30): the engine, the fuzz targets and only the
# suites of the readers of outside bytes and of the CPU kernels (TS_SANITIZE_SHORT_SUITES);
# the fuzz targets run briefly over their seeds, which hold every earlier finding's input.
#
# TS_SANITIZE_BUILD_DIR overrides the build directory (default build-sanitize). The GUI suites
# stay on the normal build (packaging/studio.sh test), which keeps this job's time down.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${TS_SANITIZE_BUILD_DIR:-$root/build-sanitize}"
short=0
if [ "${1:-}" = "--short" ]; then short=1; shift; fi
fuzz_seconds="${1:-$([ $short = 1 ] && echo 3 || echo 15)}"
# The short form's suites: readers (datasets, checkpoints, experiment files and their lossless saving, the store) and kernels
# (tst_op_registry runs every registered op's cases forward and backward).
short_suites="${TS_SANITIZE_SHORT_SUITES:-tst_data_readers tst_checkpoint tst_experiment_yaml tst_experiment_text tst_store tst_executor tst_ops_conv_pool tst_ops_norm tst_ops_linear tst_ops_loss tst_op_registry tst_trainer}"
say() { printf 'sanitize.sh: %s\n' "$*"; }
die() { printf 'sanitize.sh: %s\n' "$*" >&2; exit 1; }
start=$SECONDS

command -v clang++-16 >/dev/null || die "clang++-16 not found (apt-get install clang-16 libclang-rt-16-dev libomp-16-dev)"
if [ ! -f "$build/build.ninja" ]; then
    say "configuring $build (clang-16, ASan + UBSan, fuzz targets)"
    # -O0: clang builds about twice as fast as at -O1, the sanitizers' usual level, and the suites
    # run only a little slower (short form: build 289 s against 439 s, suites 30 s against 20 s);
    # line tables only: enough for the reports' stack traces at a fraction of -g's build time.
    cmake -S "$root" -B "$build" -G Ninja -DCMAKE_C_COMPILER=clang-16 -DCMAKE_CXX_COMPILER=clang++-16 \
        -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O0 -gline-tables-only" \
        -DTS_FUZZ=ON -DTS_WITH_CUDA=OFF >/dev/null
fi
if [ $short = 1 ]; then
    say "building the engine, the fuzz targets and the suites: $short_suites"
    # shellcheck disable=SC2086  # the list is words
    cmake --build "$build" --target tests/fuzz/all $short_suites
    suites="^engine\\.($(echo $short_suites | tr ' ' '|'))\$"
else
    say "building the engine, the CLI, their suites and the fuzz targets"
    cmake --build "$build" --target cli/all tests/engine/all tests/cli/all tests/fuzz/all
    suites='^(engine|cli)\.'
fi
built=$SECONDS

# Every report is fatal; leaks count too. Qt's own start-up allocations are not ours.
export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1:check_initialization_order=1:strict_string_checks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$root/tests/fuzz/lsan.supp:print_suppressions=0}"
export QTEST_DISABLE_STACK_DUMP=1 QT_QPA_PLATFORM=offscreen
rc=0
say "suites under the sanitizers ($suites)"
ctest --test-dir "$build" --output-on-failure --no-tests=error -j2 --timeout 600 -R "$suites" || rc=$?
tested=$SECONDS

say "fuzz targets: ${fuzz_seconds} s each over tests/fuzz/corpus"
artifacts="$build/fuzz-artifacts"
mkdir -p "$artifacts"
for corpus in "$root"/tests/fuzz/corpus/*/; do
    target="$(basename "$corpus")"
    work="$build/fuzz-corpus/$target"  # new inputs go here, not into the committed seeds
    mkdir -p "$work"
    if ! "$build/tests/fuzz/$target" -max_total_time="$fuzz_seconds" -timeout=10 -rss_limit_mb=2048 \
            -artifact_prefix="$artifacts/$target-" -print_final_stats=1 "$work" "$corpus" >"$build/fuzz-$target.log" 2>&1; then
        rc=1
        say "FUZZ FINDING in $target (log: $build/fuzz-$target.log, input: $artifacts/$target-*):"
        tail -n 40 "$build/fuzz-$target.log"
    fi
    say "$target: $(grep -m1 -o 'stat::number_of_executed_units: *[0-9]*' "$build/fuzz-$target.log" | grep -o '[0-9]*$' || echo '?') executions"
done
say "times: build $((built - start)) s, suites $((tested - built)) s, fuzzing $((SECONDS - tested)) s, $((SECONDS - start)) s in all"
if [ $rc -eq 0 ]; then say "clean"; else say "FAILED"; fi
exit $rc
