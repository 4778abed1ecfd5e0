#!/usr/bin/env bash
# The C backtrace of every thread of each process that left a core file in the checkout (a test process, a
# window a test started, a worker), then the core file is removed. .ci/run sets `ulimit -c unlimited` so that
# a crash leaves one; docs/contributing.md says how to get the same by hand.
set -uo pipefail
cd "$(dirname "$0")/.."
found=0
while IFS= read -r -d '' core; do
  found=1
  program=$(file -b "$core" | sed -n "s/.*execfn: '\([^']*\)'.*/\1/p")
  echo "=== C backtrace of $core (${program:-unknown program})" >&2
  gdb -batch -nx -iex "set auto-load safe-path /" -ex "info threads" -ex "thread apply all bt 50" -ex "thread apply all py-bt" "${program:-.venv/bin/python}" "$core" >&2 2>&1 | grep -v "^\[New LWP"
  rm -f "$core"
done < <(find . -maxdepth 4 -type f \( -name core -o -name 'core.[0-9]*' \) -not -path './.venv*/*' -print0 2>/dev/null)
[ $found -eq 0 ] && echo "no core file: no process of the run died of a signal" >&2
exit 0
