#!/usr/bin/env bash
# Fresh machine -> whole test suite: system libraries, a venv with the package
# and its test extra, then pytest (extra arguments go to pytest).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/system-deps.sh
python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e '.[test]'
exec .venv/bin/python -m pytest "$@"
