"""Reading alignments (the exports, through the cache and the turns) does not load the engine: every
`annotator export` would otherwise pay numpy's and the decoder's start-up and memory for nothing."""

from __future__ import annotations

import subprocess
import sys

from tests.support.repository import command_environment


def _loaded(module: str) -> list[str]:
    """Which of numpy and the engine importing MODULE loads, in a fresh interpreter."""
    script = (
        f"import sys; import {module}; "
        "print(' '.join(m for m in ('numpy', 'annotator.alignment.engine') if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, env=command_environment()
    )
    return done.stdout.split()


def test_the_exports_read_alignments_without_loading_the_engine():
    assert _loaded("annotator.export.csv_export") == []  # the CSV export never needed numpy
    assert _loaded("annotator.export.praat_elan") == ["numpy"]  # its WAV does, the engine not


def test_align_turn_is_still_there_to_import():
    from annotator.alignment import align_turn
    from annotator.alignment.engine import align_turn as engine_align_turn

    assert align_turn is engine_align_turn
