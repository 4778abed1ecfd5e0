#!/usr/bin/env bash
# Style and types: ruff's lint and format checks on the code and the tests, and mypy on annotator/ with the
# settings in pyproject.toml (every body checked; the data-safety core strict). Needs the [test] extra in .venv.
set -euo pipefail
cd "$(dirname "$0")/.."
.venv/bin/ruff check annotator tests scripts packaging
.venv/bin/ruff format --check annotator tests scripts packaging
.venv/bin/mypy
