"""A generated team corpus: copies of sample session 001 as five sessions, each with the human files of
three annotators beside it (X-human-NAME.xml), whose disagreements are planted so the figures are known.

Every annotator starts from the sample's six transcriptions (22 words a session). Planted:
- ann2 writes "austin" for "boston" in session 1, turn 2 (one substitution in six words);
- ann3 writes "next tuesday" for "next tuesday morning" in session 1, turn 8 (one word fewer);
- ann3 leaves turn 12 ("thank you bye", three words) of session 5 untranscribed;
- task completion: ann1 1 1 0 1 0, ann2 1 1 0 0 0, ann3 1 0 0 1 0 over sessions 1-5.
"""

from __future__ import annotations

from pathlib import Path

from lxml import etree

from annotator.annotation_files.annotation_set import AnnotationSet
from annotator.annotation_files.fold import canonical_without_annotations, fold, read_annotations
from annotator.annotation_files.human_format import write_human_file
from annotator.log.document import LogDocument

SAMPLE = Path(__file__).resolve().parents[2] / "sample_logs" / "travel-20261121-001" / "travel-20261121-001-hublog.xml"
SAMPLE_ID = "travel:20261121:001"
SESSIONS = 5
ANNOTATORS = ("ann1", "ann2", "ann3")
TASK_COMPLETION = {"ann1": "11010", "ann2": "11000", "ann3": "10010"}
PLANTED = {("ann2", 1, "2"): "i want to fly to austin", ("ann3", 1, "8"): "next tuesday"}
LEFT_OUT = {("ann3", 5, "12")}
WORDS_PER_SESSION = 22


def session_id(number: int) -> str:
    return f"planted:20261125:{number:03d}"


def log_path(folder: Path, number: int) -> Path:
    return folder / f"planted-{number:03d}-hublog.xml"


def base_transcriptions() -> dict[str, str]:
    annotations = read_annotations(SAMPLE)
    return {annotations.turn_id(ref): text for ref, text in annotations.transcriptions.items()}


def annotator_set(name: str, number: int, planted: dict[tuple[str, int, str], str] = PLANTED) -> AnnotationSet:
    """NAME's work on session NUMBER: the sample's transcriptions but where PLANTED gives another text."""
    annotations = AnnotationSet()
    for turn_id, text in base_transcriptions().items():
        if (name, number, turn_id) not in LEFT_OUT:
            annotations.add_transcription(session_id(number), turn_id, planted.get((name, number, turn_id), text))
    annotations.add_task_completion(session_id(number), TASK_COMPLETION.get(name, TASK_COMPLETION["ann1"])[number - 1])
    return annotations


def raw_log_bytes(number: int) -> bytes:
    """Session 001 without its annotations (C14N of the rest), under the id of session NUMBER."""
    root = etree.fromstring(canonical_without_annotations(SAMPLE.read_bytes()))
    root.find("GC_SESSION").set("id", session_id(number))
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8")


def make_team_corpus(
    folder: Path,
    annotators: tuple[str, ...] = ANNOTATORS,
    numbers: tuple[int, ...] = tuple(range(1, SESSIONS + 1)),
    planted: dict[tuple[str, int, str], str] = PLANTED,
) -> Path:
    """Raw logs of sessions NUMBERS with each annotator's human file beside them (an annotator not in
    TASK_COMPLETION rates every session as ann1 does)."""
    folder.mkdir(parents=True, exist_ok=True)
    for number in numbers:
        log = log_path(folder, number)
        log.write_bytes(raw_log_bytes(number))
        for name in annotators:
            work = annotator_set(name, number, planted)
            write_human_file(log.with_name(f"planted-{number:03d}-human-{name}.xml"), work)
    return folder


def merged_human_file(path: Path, name: str) -> Path:
    """One human file holding all five sessions of annotator NAME."""
    write_human_file(path, AnnotationSet.merged(annotator_set(name, number) for number in range(1, SESSIONS + 1)))
    return path


def annotated_logs(folder: Path, name: str) -> Path:
    """The raw logs with annotator NAME's work folded in: what one annotator's annotated logs are."""
    folder.mkdir(parents=True, exist_ok=True)
    for number in range(1, SESSIONS + 1):
        log = log_path(folder, number)
        log.write_bytes(raw_log_bytes(number))
        doc = LogDocument.load(log)
        fold(doc, annotator_set(name, number))
        doc.save(overwrite=True)
    return folder
