"""What the callers of the sample sessions said, folded into copies of them: every session then has transcriptions
(001 comes annotated), for the exports whose peers read them."""

from __future__ import annotations

from pathlib import Path

from annotator.annotation_files.annotation_set import AnnotationSet
from annotator.annotation_files.fold import fold
from annotator.log.document import LogDocument

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


def transcribe(corpus: Path) -> Path:
    """CORPUS, a copy of sample_logs/, with TRANSCRIPTIONS folded into 002 and 003 and saved."""
    for folder, texts in TRANSCRIPTIONS.items():
        path = corpus / folder / f"{folder}-hublog.xml"
        doc = LogDocument.load(path)
        annotations = AnnotationSet()
        for turn_id, text in texts.items():
            annotations.add_transcription(doc.sessions[0].id, turn_id, text)
        assert fold(doc, annotations) == len(texts)
        doc.save()
    return corpus
