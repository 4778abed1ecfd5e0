"""annotation_values reads a document once per revision (the journal and whoever else asks for it): a change
is seen at once, and no caller can spoil what another gets."""

from __future__ import annotations

from pathlib import Path

from annotator.journal.values import annotation_values
from annotator.log.annotations import set_transcription
from annotator.log.document import LogDocument


def test_values_follow_every_change_and_are_each_callers_own(absolute_audio_log: Path):
    doc = LogDocument.load(absolute_audio_log)
    first = annotation_values(doc)
    user_turn = doc.sessions[0].user_turns[0]
    key = (0, user_turn.index)
    assert first[key][2] is None
    first[key] = ("spoilt", None, "spoilt")
    assert annotation_values(doc)[key] == (doc.sessions[0].id, user_turn.id, None)
    set_transcription(user_turn, "to boston")
    assert annotation_values(doc)[key] == (doc.sessions[0].id, user_turn.id, "to boston")
    assert annotation_values(LogDocument.load(absolute_audio_log))[key][2] is None
