"""Fixtures of the format tests: the sample logs with transcriptions in every session, and peer tools."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from annotator.annotation_files.annotation_set import AnnotationSet
from annotator.annotation_files.fold import fold
from annotator.log.document import LogDocument
from tests.support.repository import REPO

# What the callers of sessions 002 and 003 really said (packaging/make_sample_logs.py), with a
# noise token and a breath, so that sclite's reference must drop them as our WER does.
TRANSCRIPTIONS = {
    "travel-20261121-002": {
        "02": "i need to go to san francisco",
        "04": "from the mile high city [noise]",
        "06": "denver",
        "08": "on friday evening please",
        "10": "oh well goodbye",
    },
    "travel-20261121-003": {
        "2": "help",
        "4": "i would like to fly to são paulo",
        "6": "leaving from zürich",
        "8": "no zürich",
        "10": "the third of december",
        "12": "yes please",
        "14": "<breath> thanks very much goodbye",
    },
}


@pytest.fixture
def transcribed_corpus(corpus: Path) -> Path:
    """The sample logs (copies) with transcriptions folded into 002 and 003 too (001 comes annotated)."""
    for folder, texts in TRANSCRIPTIONS.items():
        path = corpus / folder / f"{folder}-hublog.xml"
        doc = LogDocument.load(path)
        annotations = AnnotationSet()
        for turn_id, text in texts.items():
            annotations.add_transcription(doc.sessions[0].id, turn_id, text)
        assert fold(doc, annotations) == len(texts)
        doc.save()
    return corpus


def peer_tool(variable: str, command: str, venv: str | None = None) -> str | None:
    """The peer tool named by environment VARIABLE, else COMMAND on PATH, else in the checkout's VENV."""
    named = os.environ.get(variable)
    if named:
        return named if Path(named).is_file() else shutil.which(named)
    found = shutil.which(command)
    if found is None and venv is not None:
        candidate = REPO / venv / "bin" / command
        found = str(candidate) if candidate.is_file() else None
    return found
