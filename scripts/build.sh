#!/usr/bin/env bash
# Configures and builds pagesim in _build (Release, Python module, tests, benchmarks).
# Extra arguments go to cmake's configure step.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B _build -DCMAKE_BUILD_TYPE=Release -DPython_EXECUTABLE=/usr/bin/python3 "$@" >/dev/null
cmake --build _build -j"$(nproc)"
