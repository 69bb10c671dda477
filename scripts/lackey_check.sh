#!/usr/bin/env bash
# Produces a real valgrind lackey trace of a small program and reads it with pagesim
# (not part of the unit tests, which stay hermetic): scripts/lackey_check.sh [PROGRAM ARGS...]
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "lackey_check: valgrind is not installed"; exit 2; }
out=$(mktemp --suffix=.lackey)
trap 'rm -f "$out"' EXIT
((${#@})) || set -- /bin/ls /
valgrind --tool=lackey --trace-mem=yes --log-file="$out" "$@" >/dev/null
echo "lackey trace of '$*': $(wc -l <"$out") lines"
PYTHONPATH="${PAGESIM_PYTHONPATH:-$PWD/_build/python}" /usr/bin/python3 -m pagesim info "$out"
PYTHONPATH="${PAGESIM_PYTHONPATH:-$PWD/_build/python}" /usr/bin/python3 -m pagesim info --instructions "$out" | sed -n 2p
