#!/usr/bin/env bash
# The one virtual environment of ./floorboard and .ci/run: creates .venv when it is missing, and installs
# REQFILE only when it, or a file it includes with -r, changed since it was last installed. Because
# requirements-dev.txt includes requirements.txt, the launcher finds its requirements in place after .ci/run.
#   tools/venv.sh requirements.txt      (PYTHON: the interpreter that creates .venv; python3 by default)
set -euo pipefail
cd "$(dirname "$0")/.."
req="${1:?usage: tools/venv.sh REQUIREMENTS_FILE}"
PYTHON="${PYTHON:-python3}"
stamps=.venv/.installed  # per requirements file: the sha256 of the version last installed

# REQFILE and every file it includes, recursively (an include is relative to the file that names it).
files() {
  echo "$1"
  local opt arg
  while read -r opt arg _ || [ -n "$opt" ]; do  # the last line may lack its newline
    case "$opt" in
      -r | --requirement) files "$(dirname "$1")/$arg" ;;
      --requirement=*) files "$(dirname "$1")/${opt#*=}" ;;
    esac
  done < "$1"
}

# sha256 of stdin (coreutils on Linux, shasum on macOS).
digest() {
  if command -v sha256sum > /dev/null; then sha256sum; else shasum -a 256; fi | cut -d' ' -f1
}

reqs=()
while IFS= read -r f; do reqs+=("$f"); done < <(files "$req")  # no mapfile: macOS ships bash 3.2
hashes=()
stale=0
for f in "${reqs[@]}"; do
  hash=$(digest < "$f")  # taken before installing: a file edited meanwhile stays stale
  hashes+=("$hash")
  [ "$(cat "$stamps/$(basename "$f")" 2>/dev/null)" = "$hash" ] || stale=1
done

if [ ! -x .venv/bin/python ]; then
  echo "Creating .venv ..." >&2
  "$PYTHON" -m venv .venv
  stale=1
fi
if [ "$stale" = 1 ]; then
  echo "Installing $req into .venv ..." >&2
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -r "$req"
  mkdir -p "$stamps"
  for i in "${!reqs[@]}"; do
    echo "${hashes[$i]}" > "$stamps/$(basename "${reqs[$i]}")"
  done
fi
