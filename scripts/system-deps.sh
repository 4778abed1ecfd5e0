#!/usr/bin/env bash
# Debian/Ubuntu system libraries the app and its tests need. Installs them when
# run as root or with sudo; otherwise says which are missing and goes on.
#   libportaudio2      sounddevice's PortAudio (without it the app runs but cannot play)
#   libasound2-data    ALSA's base configuration (the playback tests write into an ALSA file device)
#   rubberband-cli     pitch-keeping speed change (0.5x-2x); without it speed stays at 1x
#   libsndfile1        soundfile's codec library (the wheel also bundles one)
#   Qt's runtime libs  libegl1 libgl1 libfontconfig1 libxkbcommon0 libdbus-1-3 + xcb ones for a real display
#   libxml2-utils      xmllint, used by the tests to cross-check DTD validation
#   espeak-ng sox      speech for the sample logs (packaging/make_sample_logs.py)
#   sctk               NIST's sclite, the tests compare our WER with it
#   xvfb xdotool imagemagick  a virtual display, keys and `import` for screenshots and end-to-end checks
#   chromium           a real headless browser: the tests render `annotator agree`'s HTML report in it
#   praat              the real Praat: the tests have it read the exported TextGrid and WAV, edit and save them
#   gdb file           the C backtrace of a test process that died of a signal, from its core (scripts/c-backtraces.sh)
set -euo pipefail
PACKAGES=(python3-venv libportaudio2 libasound2-data rubberband-cli libsndfile1 libegl1 libgl1 libfontconfig1 libxkbcommon0 libdbus-1-3
  libxkbcommon-x11-0 libxcb-cursor0 libxcb-icccm4 libxcb-image0 libxcb-keysyms1 libxcb-randr0
  libxcb-render-util0 libxcb-shape0 libxcb-xinerama0 libxcb-xkb1
  libxml2-utils espeak-ng sox sctk xvfb xdotool imagemagick chromium praat gdb file)
missing=()
for package in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -eq 0 ]; then SUDO=""; elif command -v sudo >/dev/null; then SUDO="sudo"; else
  echo "system-deps: not root and no sudo; please install: ${missing[*]}" >&2; exit 0; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# sctk is not in every release; install what exists rather than fail on one name.
available=()
for package in "${missing[@]}"; do
  apt-cache show "$package" >/dev/null 2>&1 && available+=("$package") || echo "system-deps: $package is not available here" >&2
done
[ ${#available[@]} -eq 0 ] || $SUDO apt-get install -y -qq --no-install-recommends "${available[@]}" >/dev/null
