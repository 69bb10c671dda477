#!/usr/bin/env bash
# Set-up, build and the headline demo.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh >/dev/null
PYTHONPATH="$PWD/_build/python" /usr/bin/python3 -m pagesim demo "$@"
