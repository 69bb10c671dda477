#!/usr/bin/env bash
# Set-up, build and every test: C++ (doctest via ctest), the same C++ tests under
# AddressSanitizer + UndefinedBehaviorSanitizer, and the Python tests (pytest).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh -DPAGESIM_WERROR=ON
(cd _build && ctest --output-on-failure)

echo "== Example project built against the installed pagesim (find_package)"
rm -rf _build/install _build/heuristics
cmake --install _build --prefix "$PWD/_build/install" >/dev/null
cmake -S examples/heuristics -B _build/heuristics -DCMAKE_PREFIX_PATH="$PWD/_build/install" >/dev/null
cmake --build _build/heuristics -j"$(nproc)"
(cd _build/heuristics && ctest --output-on-failure)

echo "== C++ tests under ASan + UBSan"
# -O1 -g1: line numbers in the reports and assertions on (no NDEBUG); builds and runs in about
# half the time of RelWithDebInfo (413 s against 808 s on the 2-core VM of bench/RESULTS.md).
cmake -S . -B _build/asan -DCMAKE_BUILD_TYPE=None "-DCMAKE_CXX_FLAGS=-O1 -g1" -DPAGESIM_SANITIZE=ON \
  -DPAGESIM_PYTHON=OFF -DPAGESIM_BENCH=OFF -DPAGESIM_WERROR=ON >/dev/null
cmake --build _build/asan -j"$(nproc)"
(cd _build/asan && ctest --output-on-failure)

echo "== Python tests"
PYTHONPATH="$PWD/_build/python" /usr/bin/python3 -m pytest -q tests/python

echo "== Example notebooks (executed headless; figures in _build/notebooks)"
PYTHONPATH="$PWD/_build/python" PAGESIM_FIGURES="$PWD/_build/notebooks" PYDEVD_DISABLE_FILE_VALIDATION=1 \
  jupyter nbconvert --to notebook --execute --output-dir _build/notebooks \
  examples/compare_policies.ipynb examples/time_and_devices.ipynb
