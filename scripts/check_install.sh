#!/usr/bin/env bash
# Installs the Python package into a fresh virtual environment (offline, Debian's numpy,
# pandas, ... through --system-site-packages) and runs the Python tests against the
# installed copy. Slow (a full build of the compiled core): not part of scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
venv="$(realpath -m "${1:-_build/venv}")"
rm -rf "$venv"
/usr/bin/python3 -m venv --system-site-packages "$venv"
"$venv/bin/pip" install --no-build-isolation --no-index ./python
rm -rf python/build python/pagesim.egg-info
# Run from elsewhere so that only the installed package is importable.
root="$PWD"
(cd /tmp && "$venv/bin/python" -c "import pagesim, sys; assert 'site-packages' in pagesim.__file__, pagesim.__file__; print('installed:', pagesim.__file__)")
(cd /tmp && "$venv/bin/python" -m pytest -q -p no:cacheprovider "$root/tests/python")
