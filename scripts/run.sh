#!/usr/bin/env bash
# Fresh machine -> the app on the bundled sample session.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/system-deps.sh
python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q .
.venv/bin/annotator info sample_logs/travel-20261121-001
.venv/bin/annotator validate --hide-quirks sample_logs && echo "sample logs: no findings but the DTD's own quirks"
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  exec .venv/bin/annotator
fi
echo "No display here: starting the window offscreen once to show it works (run 'annotator' on a desktop)."
ANNOTATOR_SMOKE_TEST=1 QT_QPA_PLATFORM=offscreen .venv/bin/annotator
