#!/usr/bin/env bash
# Build the standalone one-folder app into dist/annotator/ (Linux).
#
#   bash packaging/build.sh            # build, then run the smoke test on it
#   bash packaging/build.sh --no-test  # build only
#
# It works in its own virtual environment, .venv-build/, where it installs
# PyInstaller 6 and this package from the checkout (a real wheel install, the
# same files a user's `pip install` gets), then runs packaging/pyinstaller/annotator.spec.
# PortAudio is copied into the build from the system (Debian: libportaudio2),
# so the machine that builds needs it; the machines that run the build do not.
set -euo pipefail
cd "$(dirname "$0")/.."
REPO="$PWD"
PYTHON="${PYTHON:-python3}"
VENV="$REPO/.venv-build"
started=$(date +%s)

if [ ! -x "$VENV/bin/python" ]; then
  "$PYTHON" -m venv "$VENV"
  "$VENV/bin/python" -m pip install -q --upgrade pip
fi
"$VENV/bin/python" -m pip install -q "pyinstaller==6.*"
# pip reinstalls a local folder every time: the build always has the checkout's current code. It builds in the
# checkout (build/, *.egg-info), so builds started at once (.ci/run runs the Qt floor beside this) take turns.
flock pyproject.toml "$VENV/bin/python" -m pip install -q .

"$VENV/bin/pyinstaller" --noconfirm --clean --log-level WARN \
  --distpath "$REPO/dist" --workpath "$REPO/build/pyinstaller" \
  packaging/pyinstaller/annotator.spec

# The desktop integration travels with the build: bash dist/annotator/desktop/install-user.sh
mkdir -p dist/annotator/desktop/icons
cp packaging/linux/install-user.sh packaging/linux/communicator-log.xml \
  packaging/linux/io.github.communicator_annotator.desktop packaging/linux/io.github.communicator_annotator.metainfo.xml \
  dist/annotator/desktop/
cp resources/icons/annotator.svg resources/icons/annotator-*.png dist/annotator/desktop/icons/

finished=$(date +%s)
echo "build: dist/annotator/ ($(du -sh dist/annotator | cut -f1)) in $((finished - started)) s"

if [ "${1:-}" != "--no-test" ]; then
  bash packaging/smoke_test.sh
fi
