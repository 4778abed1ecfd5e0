#!/usr/bin/env bash
# The window on the oldest Qt bindings pyproject.toml allows: a second venv (.venv-floor) with the lowest
# PySide6-Essentials and pyqtgraph of their ">=" bounds, so that a call newer than the declared floor fails
# here, not on a user's machine. It runs the tests marked qt_floor: every module of annotator/gui imported,
# every dock, dialog and window made, shown and closed (tests/gui/test_every_window.py), and the tests of what
# leans on recent Qt and pyqtgraph API (the filter models, the plots). Extra arguments go to pytest
# (-m '': the whole GUI suite on the floor).
set -euo pipefail
cd "$(dirname "$0")/.."
floor_pins=$(python3 - <<'PY'
import re, tomllib
with open("pyproject.toml", "rb") as file:
    dependencies = tomllib.load(file)["project"]["dependencies"]
for name in ("PySide6-Essentials", "pyqtgraph"):
    floors = {m.group(1) for d in dependencies if d.split(">")[0].strip() == name
              for m in [re.search(r">=\s*([0-9][0-9.]*)", d)] if m}
    if len(floors) != 1:
        raise SystemExit(f"test-qt-floor.sh: no single '>=' floor for {name} in pyproject.toml: {sorted(floors)}")
    print(f"{name}=={floors.pop()}")
PY
)
python3 -m venv .venv-floor
.venv-floor/bin/python -m pip install -q --upgrade pip
# The pins go in the same command as the project, so that pip resolves them together. The project is built in
# the checkout (build/, *.egg-info): a build started at once (.ci/run runs the standalone build beside this) waits.
# shellcheck disable=SC2086
flock pyproject.toml .venv-floor/bin/python -m pip install -q -e '.[test]' $floor_pins
.venv-floor/bin/python -c "import PySide6, pyqtgraph; print('Qt floor:', 'PySide6', PySide6.__version__, '/ pyqtgraph', pyqtgraph.__version__)"
exec .venv-floor/bin/python -m pytest tests/gui -m qt_floor -n auto -q -p no:cacheprovider "$@"
