#!/usr/bin/env bash
# Runs a command as on a bare machine with only Node: a PATH of symlinks to everything on the current PATH
# except the system Chromium and ffmpeg/ffprobe, so the e2e browser and the media tools come from npm.
#   scripts/without-system-tools.sh npm test
set -euo pipefail
hidden=(chromium chromium-browser google-chrome ffmpeg ffprobe)
bin=$(mktemp -d "${TMPDIR:-/tmp}/ohgood-bare-path-XXXXXX")
trap 'rm -rf "$bin"' EXIT
IFS=: read -r -a dirs <<<"$PATH"
for dir in "${dirs[@]}"; do
  [ -d "$dir" ] || continue
  for tool in "$dir"/*; do
    name=${tool##*/}
    [ -x "$tool" ] && [ ! -d "$tool" ] || continue
    [ -e "$bin/$name" ] && continue # the first on PATH wins, as in a shell
    case " ${hidden[*]} " in *" $name "*) continue ;; esac
    ln -s "$tool" "$bin/$name"
  done
done
echo "== without system tools: ${hidden[*]} are not on PATH"
PATH="$bin" "$@"
