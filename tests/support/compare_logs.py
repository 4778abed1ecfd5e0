"""A log (copy of sample session 001, no annotations) with two or three annotators' human files beside it,
their disagreements planted: what Compare is tested on.

Every annotator starts from the sample's six transcriptions (tests/support/planted_team.py). Planted:
- turn 2: bob writes "austin" for "boston" (a transcription disagreement);
- turn 4: bob writes "No, Boston Massachusetts." (the same words after the WER normalisation: agreed);
- turn 8: bob writes "next tuesday" for "next tuesday morning" (a disagreement);
- turn 10: same words, but alice's concepts are book(:confirm=yes), bob's book(:confirm=no) (a concepts disagreement);
- turn 12: only alice transcribes it (agreed: nobody else gave a value);
- task completion: alice 1, bob 0.
A third annotator, carol, writes "i want to fly to denver" in turn 2 and agrees with alice elsewhere.
UNTRANSCRIBED names turns no annotator transcribes at all (a turn only the adjudicator may fill).
"""

from __future__ import annotations

from pathlib import Path

from annotator.annotation_files.annotation_set import AnnotationSet
from annotator.annotation_files.human_format import write_human_file
from annotator.log.concepts import Concepts
from tests.support import planted_team

SESSION = planted_team.session_id(1)
CHANGED = {
    ("bob", "2"): "i want to fly to austin",
    ("bob", "4"): "No, Boston Massachusetts.",
    ("bob", "8"): "next tuesday",
    ("carol", "2"): "i want to fly to denver",
}
OMITTED = {("bob", "12"), ("carol", "12")}
CONCEPTS = {
    "alice": Concepts("book", ((":confirm", "yes"),)),
    "bob": Concepts("book", ((":confirm", "no"),)),
    "carol": Concepts("book", ((":confirm", "yes"),)),
}
TASK_COMPLETION = {"alice": "1", "bob": "0", "carol": "1"}
DISAGREEING_TURNS = ["2", "8", "10"]  # then the task completion row


def annotator_set(name: str, untranscribed: tuple[str, ...] = ()) -> AnnotationSet:
    annotations = AnnotationSet()
    for turn_id, text in planted_team.base_transcriptions().items():
        if (name, turn_id) not in OMITTED and turn_id not in untranscribed:
            annotations.add_transcription(SESSION, turn_id, CHANGED.get((name, turn_id), text))
    annotations.add_concepts(SESSION, "10", CONCEPTS[name])
    annotations.add_task_completion(SESSION, TASK_COMPLETION[name])
    return annotations


def make_team_log(
    folder: Path, annotators: tuple[str, ...] = ("alice", "bob"), untranscribed: tuple[str, ...] = ()
) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    log = planted_team.log_path(folder, 1)
    log.write_bytes(planted_team.raw_log_bytes(1))
    for name in annotators:
        write_human_file(folder / f"planted-001-human-{name}.xml", annotator_set(name, untranscribed), annotator=name)
    return log
