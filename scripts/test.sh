#!/usr/bin/env bash
# Fresh machine -> the test suite: system libraries, a venv with the package and its test, dev (ruff, mypy),
# cluster and docs extras, then pytest on every core in a random order (pytest-randomly prints its seed;
# --randomly-seed=N replays it). It runs every package's tests but the slow ones (a few minutes); -m '' takes
# them in too (the whole suite, as .ci/run runs it). Extra arguments go to pytest (-n 0: one process;
# docs/contributing.md).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/system-deps.sh
python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e '.[test,dev,cluster,docs]'
# Peer tools the format tests run for real, each in its own venv because their
# dependency sets clash with ours (dialbb pulls LangChain and PySide6; lmchallenge
# 5.2 needs click 6, emoji 0.4 and regex 2017). Pinned; tests skip with a reason if absent.
[ -x .venv-dialbb/bin/dialbb-test ] || { python3 -m venv .venv-dialbb \
  && .venv-dialbb/bin/pip install -q --no-deps dialbb==2.0.2 \
  && .venv-dialbb/bin/pip install -q pymongo==4.20.0 python-dotenv==1.2.2 PyYAML==6.0.3; } || echo "test.sh: dialbb not installed" >&2
[ -x .venv-lmc/bin/lmc ] || { python3 -m venv .venv-lmc && .venv-lmc/bin/pip install -q lmchallenge==5.2; } \
  || echo "test.sh: lmchallenge not installed" >&2
# --durations: the slowest tests of every run are in its log, where the next speed-up starts.
exec .venv/bin/python -m pytest -n 4 --dist worksteal --durations=40 -m "not slow" "$@"
