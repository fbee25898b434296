#!/usr/bin/env bash
# make-man-page.sh EXECUTABLE "NAME LINE" INCLUDE.h2m OUTPUT.1.gz
# The man page help2man makes from the executable's --help and --version, gzipped as Debian
# wants it (-9n: no time stamp). Run in a clean environment: the studio reads the language
# from the user's settings and the system locale, and the page must be the English text, and
# the executable is called by its bare name so the Usage line does not show the build folder.
# NAME is the executable's name (the studio's --version says "TrainStudio 0.1.0").
set -euo pipefail
[ $# -eq 4 ] || { echo "usage: $0 EXECUTABLE NAME-LINE INCLUDE.h2m OUTPUT.1.gz" >&2; exit 2; }
exe="$1" name="$2" include="$3" out="$4"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
clean=(env -i PATH="$(dirname "$exe"):/usr/bin:/bin" HOME="$scratch" XDG_CONFIG_HOME="$scratch"
       LANG=C.UTF-8 LC_ALL=C.UTF-8 QT_QPA_PLATFORM=offscreen)
program="$(basename "$exe")"
version="$("${clean[@]}" "$program" --version | head -1 | awk '{print $NF}')"
[ -n "$version" ] || { echo "$0: $program --version printed no version" >&2; exit 1; }
"${clean[@]}" help2man --no-info --section=1 --name="$name" --include="$include" \
    --version-string="$program $version" --output="$scratch/page.1" "$program"
gzip -9n -c "$scratch/page.1" >"$out.tmp"
mv "$out.tmp" "$out"
