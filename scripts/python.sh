#!/usr/bin/env bash
# Builds the Python package into a virtual environment that sees Debian's numpy, pandas and scikit-learn
# (build-python/venv; offline: pip takes nothing from the network) and runs its tests.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
mkdir -p build-python
[[ -x build-python/venv/bin/python ]] || /usr/bin/python3 -m venv --system-site-packages build-python/venv
# Installed as docs/guide-python.md and the README tell a user to: setup.py compiles the library and the
# extension in build-python/ (a unity build; scripts/include_check.py makes sure each source also compiles
# alone, as a file-by-file build needs).
build-python/venv/bin/pip install --no-build-isolation --no-index --quiet .
# One pytest worker per core (pytest-xdist): most tests wait on a CLI run or a Dask cluster, so one worker
# leaves a core idle.
CANDOR_CLI="$PWD/build/candor" build-python/venv/bin/python -m pytest -q -p no:cacheprovider -n "$(nproc)" python/tests
# The malformed-input catalogue's Python cases (empty frames, nullable and datetime columns, hostile grids).
build-python/venv/bin/python tests/malformed/run_catalogue.py --python build-python/venv/bin/python build/candor
