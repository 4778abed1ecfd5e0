"""Per session of one log, which annotators' files hold work on it and whether two of them disagree.

Two annotators disagree on a session when they transcribed a turn differently after the WER's
normalisation (annotator.log.text.normalize_words: case, punctuation and non-speech marks do not
count), or when both set its task completion to different values. This is what the session
browser shows and filters by (`double`, `disagreeing`); `annotator agree` measures it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from annotator.annotation_files.annotation_set import AnnotationSet, SessionRef, TurnRef
from annotator.annotation_files.human_format import read_human_file
from annotator.errors import AnnotatorError
from annotator.log.text import normalize_words


@dataclass
class SessionTeamFacts:
    annotators: list[str] = field(default_factory=list)  # who holds work on the session, by name
    disagreeing: bool = False


def team_facts(files: dict[str, Path]) -> dict[SessionRef, SessionTeamFacts]:
    """For every session the annotators' FILES (name -> file, annotator.team.files) hold work on, its
    facts. A file that cannot be read is left out here: the browser is no place to fail; fold and agree say why."""
    work: dict[str, AnnotationSet] = {}
    for name, path in files.items():
        try:
            work[name] = read_human_file(path)
        except AnnotatorError:
            continue
    facts: dict[SessionRef, SessionTeamFacts] = {}
    words: dict[TurnRef, set[tuple[str, ...]]] = {}
    completion: dict[SessionRef, set[str]] = {}
    for name, done in work.items():
        for ref in sorted(done.session_refs, key=lambda ref: (ref.id, ref.occurrence or 0)):
            facts.setdefault(ref, SessionTeamFacts()).annotators.append(name)
        for turn_ref, text in done.transcriptions.items():
            words.setdefault(turn_ref, set()).add(tuple(normalize_words(text)))
        for ref, value in done.task_completion.items():
            completion.setdefault(ref, set()).add(value)
    for turn_ref, versions in words.items():
        if len(versions) > 1:
            facts[turn_ref.session].disagreeing = True
    for ref, values in completion.items():
        if len(values) > 1:
            facts[ref].disagreeing = True
    return facts
