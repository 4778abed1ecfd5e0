#!/usr/bin/env bash
# Fresh machine -> the app's main job on the bundled sample session.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/system-deps.sh
python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q .
.venv/bin/annotator info sample_logs/travel-20261121-001
.venv/bin/annotator validate sample_logs || true  # exit 1 means findings, which it prints
