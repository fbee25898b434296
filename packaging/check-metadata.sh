#!/usr/bin/env bash
# check-metadata.sh SOURCE_ROOT VERSION: the package's desktop file and AppStream metadata
# pass the validators software centres and desktops use, and the newest release named in the
# metadata and in the Debian changelog is the project's version (ctest package_metadata).
# Exit 77 (skipped) when a validator is not installed (packaging/debian-packages.txt has them).
set -euo pipefail
root="$1" version="$2"
desktop="$root/packaging/trainstudio.desktop"
metainfo="$root/packaging/io.github.trainstudio.TrainStudio.metainfo.xml"
changelog="$root/packaging/debian/changelog"
for tool in desktop-file-validate appstreamcli dpkg-parsechangelog; do
    command -v "$tool" >/dev/null || { echo "SKIP: $tool not installed"; exit 77; }
done
fail=0
# desktop-file-validate prints hints too; any output at all is a finding.
out="$(desktop-file-validate "$desktop" 2>&1)" || fail=1
[ -z "$out" ] || { echo "$desktop:"; echo "$out"; fail=1; }
appstreamcli validate --no-net --explain "$metainfo" || { echo "$metainfo: appstreamcli validate failed (above)"; fail=1; }
newest="$(sed -n 's/.*<release version="\([^"]*\)".*/\1/p' "$metainfo" | head -1)"
[ "$newest" = "$version" ] || { echo "$metainfo: newest <release> is '$newest', the project is $version: add a release with its notes"; fail=1; }
logged="$(dpkg-parsechangelog -l "$changelog" -S Version)"
[ "$logged" = "$version" ] || { echo "$changelog: newest entry is '$logged', the project is $version: add an entry (dch -v $version)"; fail=1; }
[ $fail -eq 0 ] && echo "package metadata OK: desktop file, AppStream $newest, changelog $logged"
exit $fail
