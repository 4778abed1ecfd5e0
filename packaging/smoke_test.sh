#!/usr/bin/env bash
# Smoke test of the built app, dist/annotator/ (bash packaging/build.sh makes it):
# the window opens offscreen on a sample log and quits cleanly, with nothing on
# stderr; --version and `validate` work; the frozen app's self-test passes (the
# bundled PortAudio, child processes, rubberband, the environment children get).
# Prints the start-up time (median of 5 runs, to the smoke line) and the size.
# tests/packaging/test_frozen_app.py runs the same checks under pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
APP="${APP:-dist/annotator/annotator}"
LOG="sample_logs/travel-20261121-002/travel-20261121-002-hublog.xml"
[ -x "$APP" ] || { echo "smoke test: $APP is not built (bash packaging/build.sh)" >&2; exit 1; }

# The app must not read or write the user's settings, journal or caches.
SANDBOX="$(mktemp -d)"
trap 'rm -rf "$SANDBOX"' EXIT
export HOME="$SANDBOX" XDG_CONFIG_HOME="$SANDBOX/config" XDG_DATA_HOME="$SANDBOX/data" \
  XDG_CACHE_HOME="$SANDBOX/cache" XDG_RUNTIME_DIR="$SANDBOX/runtime" ANNOTATOR_DATA_DIR="$SANDBOX/annotator"
mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"

fail() { echo "smoke test FAILED: $*" >&2; exit 1; }

# Each run: the window opens offscreen on LOG, prints the smoke line 200 ms after
# it is shown, and closes. Lines are time-stamped as they arrive (unbuffered).
times=()
for run in 1 2 3 4 5; do
  started=$(date +%s.%N)
  { PYTHONUNBUFFERED=1 QT_QPA_PLATFORM=offscreen ANNOTATOR_SMOKE_TEST=1 "$APP" "$LOG" 2>"$SANDBOX/err"; echo "exit=$?"; } \
    | while IFS= read -r line; do echo "$(date +%s.%N) $line"; done >"$SANDBOX/out"
  grep -q " exit=0$" "$SANDBOX/out" || fail "$(tail -n 1 "$SANDBOX/out") (stderr: $(cat "$SANDBOX/err"))"
  smoke=$(grep " smoke test: " "$SANDBOX/out") || fail "no smoke line; stdout: $(cat "$SANDBOX/out")"
  [[ "$smoke" =~ \ smoke\ test:\ opened=True\ turns=[1-9][0-9]*\ path=$LOG$ ]] || fail "smoke line: $smoke"
  # The offscreen platform's own notices (propagateSizeHints(), raise(): it has no windows to size or raise;
  # the GUI tests ignore them too) are the only thing allowed on stderr.
  grep -Ev "^This plugin does not support [A-Za-z]+\(\)$" "$SANDBOX/err" >"$SANDBOX/err.other" || true
  [ ! -s "$SANDBOX/err.other" ] || fail "stderr: $(cat "$SANDBOX/err.other")"
  times+=("$(awk -v end="${smoke%% *}" -v start="$started" 'BEGIN { printf "%.2f", end - start }')")
done
median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n 3p)
echo "window: ${smoke#* }"
echo "start-up to the smoke line, 5 runs: ${times[*]} s; median ${median} s"

version=$("$APP" --version) || fail "--version exited with $?"
[[ "$version" =~ ^annotator\ [0-9] ]] || fail "--version printed: $version"
echo "version: $version"

"$APP" validate --hide-quirks sample_logs >"$SANDBOX/out" 2>"$SANDBOX/err" \
  || fail "validate exited with $? ($(cat "$SANDBOX/out" "$SANDBOX/err"))"
echo "validate --hide-quirks sample_logs: exit 0"

# The aligner's model, dictionary and espeak-ng data came along: every turn of the sample logs is aligned.
"$APP" align --jobs 1 sample_logs >"$SANDBOX/out" 2>"$SANDBOX/err" \
  || fail "align exited with $? ($(cat "$SANDBOX/out" "$SANDBOX/err"))"
grep -q " 0 skipped;" "$SANDBOX/err" || fail "align skipped turns: $(cat "$SANDBOX/err")"
echo "align sample_logs: $(tail -1 "$SANDBOX/err")"

# The bundled PortAudio loads (there may be no output device here: exit 1 is fine),
# the child processes start, and programs the app starts do not inherit the build's library folder.
ANNOTATOR_FROZEN_SELF_TEST=1 "$APP" >"$SANDBOX/out" 2>"$SANDBOX/err" || true
grep -q "^self-test: portaudio=.*/_internal/libportaudio.so.2 " "$SANDBOX/out" \
  || fail "the bundled PortAudio was not loaded: $(cat "$SANDBOX/out" "$SANDBOX/err")"
if grep "^self-test: children get LD_LIBRARY_PATH=" "$SANDBOX/out" | grep -q "_internal"; then
  fail "child programs inherit the build's LD_LIBRARY_PATH"
fi
grep -q "^self-test: validation in a child process: [0-9]* findings$" "$SANDBOX/out" \
  || fail "validation in a child process failed: $(cat "$SANDBOX/out" "$SANDBOX/err")"
grep -q "^self-test: audio probe child exit status 0$" "$SANDBOX/out" \
  || fail "the audio probe child failed: $(cat "$SANDBOX/out" "$SANDBOX/err")"
! grep -q "^self-test: speed failed" "$SANDBOX/out" || fail "$(grep "speed failed" "$SANDBOX/out")"
sed 's/^/  /' "$SANDBOX/out"

echo "size: $(du -sh "$(dirname "$APP")" | cut -f1)"
echo "smoke test passed"
