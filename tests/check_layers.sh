#!/usr/bin/env bash
# Fails when an #include points against the layer order (engine/README.md, "Layers").
#
#   bash tests/check_layers.sh [SOURCE_DIR]
#   bash tests/check_layers.sh --self-test    plants wrong includes in a scratch tree: must fail
#
# Inside the engine a folder may include itself and the folders below it; folders on one
# line (optim and data) may not include each other. Above the engine: cli/ includes the
# engine only, widgets/ includes nothing of the engine (reusable Qt widgets), ui/ includes
# the engine and widgets/, never cli/. The engine includes no Qt header (rule 1).
set -uo pipefail
if [ "${1:-}" = "--self-test" ]; then
    scratch="$(mktemp -d)"; trap 'rm -rf "$scratch"' EXIT
    mkdir -p "$scratch"/engine/{tensor,train,store} "$scratch"/{cli,ui,widgets}
    : >"$scratch/engine/train/trainer.h"; : >"$scratch/engine/store/run_writer.h"; : >"$scratch/engine/version.h"
    printf '#include "train/trainer.h"\n' >"$scratch/engine/tensor/tensor.h"      # upwards
    printf '#include "store/run_writer.h"\n' >"$scratch/engine/train/trainer.cpp"  # upwards
    printf '#include <QString>\n' >"$scratch/engine/store/run_writer.cpp"          # Qt in the engine
    printf '#include "version.h"\n' >"$scratch/widgets/chart.h"                     # engine in widgets
    out="$(bash "${BASH_SOURCE[0]}" "$scratch")" && { echo "self-test: the planted includes passed"; exit 1; }
    [ "$(grep -cE '^(engine|widgets)/' <<<"$out")" -eq 4 ] || { printf 'self-test: expected 4 findings, got:\n%s\n' "$out"; exit 1; }
    echo "self-test: the 4 planted includes were found"; exit 0
fi
root="${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
cd "$root" || exit 2

# Top to bottom. "version" stands for the files at engine/'s root.
engine_layers=(learn jobs store train io "optim data" dist exec graph ops backend types tensor version)

declare -A rank
for i in "${!engine_layers[@]}"; do
    for folder in ${engine_layers[$i]}; do rank[$folder]=$i; done
done

failures=0
fail() { printf '%s\n' "$*"; failures=$((failures + 1)); }

# The folder a quoted include names: its first path component, or, for a bare file name,
# the folder it resolves to (the including file's own, then the extra ones given).
include_folder() {
    local file="$1" header="$2"; shift 2
    if [[ "$header" == */* ]]; then printf '%s\n' "${header%%/*}"; return; fi
    local dir; dir="$(dirname "$file")"
    if [ -e "$dir/$header" ]; then printf '%s\n' "."; return; fi
    for dir in "$@"; do
        if [ -e "$dir/$header" ]; then printf '%s\n' "$dir"; return; fi
    done
    printf '%s\n' "?"
}

sources() { find "$@" -type f \( -name '*.h' -o -name '*.cpp' -o -name '*.cu' -o -name '*.cuh' \) 2>/dev/null | sort; }

# file:line:header for every quoted include of the given files.
quoted_includes() { grep -HnoE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]+"' "$@" 2>/dev/null | sed -E 's/:[[:space:]]*#[[:space:]]*include[[:space:]]*"([^"]+)"$/:\1/'; }

# The engine.
while IFS=: read -r file line header; do
    rel="${file#engine/}"
    own="${rel%%/*}"
    [[ "$rel" == */* ]] || own=version
    target="$(include_folder "$file" "$header" engine)"
    case "$target" in
        .) continue ;;
        engine) target=version ;;
        \?) fail "$file:$line: \"$header\" is not an engine header"; continue ;;
    esac
    [ -n "${rank[$target]:-}" ] || { fail "$file:$line: \"$header\": engine/$target is not a layer of engine/README.md"; continue; }
    [ -n "${rank[$own]:-}" ] || { fail "$file: engine/$own is not a layer of engine/README.md"; continue; }
    if [ "$own" != "$target" ] && [ "${rank[$target]}" -le "${rank[$own]}" ]; then
        fail "$file:$line: engine/$own includes \"$header\" from engine/$target, a layer at or above it"
    fi
done < <(quoted_includes $(sources engine))

while IFS=: read -r file line header; do
    fail "$file:$line: the engine includes Qt (<$header>): rule 1"
done < <(grep -HnoE '^[[:space:]]*#[[:space:]]*include[[:space:]]*<Q[A-Za-z]*>' $(sources engine) 2>/dev/null |
         sed -E 's/:[[:space:]]*#[[:space:]]*include[[:space:]]*<([^>]+)>$/:\1/')

# The front ends and the widgets.
check_front() {
    local part="$1" allowed="$2"; shift 2
    local file line header target
    while IFS=: read -r file line header; do
        target="$(include_folder "$file" "$header" "$@")"
        [ "$target" = "." ] && continue
        [ "$target" = "?" ] && { fail "$file:$line: \"$header\" is not found from $part/"; continue; }
        if [ -n "${rank[$target]:-}" ] || [ "$target" = engine ]; then target=engine; fi
        case " $allowed " in
            *" $target "*) ;;
            *) fail "$file:$line: $part/ includes \"$header\" from $target/ (allowed: $allowed)" ;;
        esac
    done < <(quoted_includes $(sources "$part"))
}
check_front cli "cli engine" cli engine
check_front widgets "widgets" widgets
check_front ui "ui engine widgets" ui widgets engine

if [ "$failures" -gt 0 ]; then
    printf 'check_layers: %d include(s) against the layer order (engine/README.md, "Layers")\n' "$failures"
    exit 1
fi
printf 'check_layers: every include follows the layer order\n'
