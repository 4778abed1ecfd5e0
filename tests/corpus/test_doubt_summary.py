"""The session browser's doubt per session: the doubt of its most doubtful user turn still to transcribe."""

from __future__ import annotations

from annotator.corpus.scan import scan_corpus, summarize_document
from annotator.log.annotations import set_transcription
from annotator.log.document import LogDocument


def test_each_session_summary_carries_its_most_doubtful_untranscribed_turn(corpus):
    by_session = {s.session_id: s.doubt for s in scan_corpus(corpus)}
    # 001 is fully transcribed: nothing left to doubt; 002: turn 04 (0.83); 003: turn 6 (0.85) is second to 2 ("help", 0.95)
    assert by_session["travel:20261121:001"] is None
    assert by_session["travel:20261121:002"] == 0.828
    assert by_session["travel:20261121:003"] == 0.952


def test_a_transcribed_turn_no_longer_counts(corpus):
    path = next(corpus.glob("*002*/*.xml"))
    document = LogDocument.load(path)
    session = document.sessions[0]
    set_transcription(session.turns[3], "from the mile high city")  # 04, the most doubtful
    assert summarize_document(document)[0].doubt == 0.684104  # now 06's
