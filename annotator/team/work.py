"""One annotator's work on one log in team mode: read from and saved to their own human file, never the log.

    work = TeamWork(doc, "alice")   # folds alice's file (if any) into the open document
    ...edits through annotator.log.annotations...
    work.save()                     # writes X-human-alice.xml atomically; the log is not touched
    work.close()

The file holds what the annotator did: every transcription, reference concepts and task completion of the
document that differs from what the log itself holds (a log annotated before the team
started keeps its values out of every annotator's file), with the annotator's name and,
per value, when it last changed (annotator.annotation_files.human_format; docs/team.md).
The document hears each change as any consumer does, as a listener (docs/events.md).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from annotator.annotation_files.annotation_set import AnnotationSet, SessionRef, TurnRef, session_refs_of, turn_refs_of
from annotator.annotation_files.fold import extract, fold
from annotator.annotation_files.human_format import human_file_content, write_human_file
from annotator.log.document import AnnotationChange, LogDocument
from annotator.team.files import human_path_of
from annotator.team.names import check_annotator_name

# The kinds of change whose value the annotator's file writes with `changed=` (human_format: a turn's
# transcription and concept frame, a session's task completion).
STAMPED_KINDS = frozenset(("transcription", "concepts", "task_completion"))
Place = tuple[int, int | None]  # (session index, turn index; None for the session's task completion)


def utc_now() -> str:
    """The time written as `changed`: ISO 8601, UTC, to the second."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class TeamWork:
    def __init__(self, doc: LogDocument, annotator: str, clock: Callable[[], str] = utc_now):
        """Raises AnnotatorNameError, or AnnotationFileError when the annotator's file cannot be read or folded."""
        self.doc = doc
        self.annotator = check_annotator_name(annotator)
        self.file = human_path_of(doc.path, annotator)
        self._clock = clock
        self.log_values = extract(doc)  # what the log holds itself: nobody's work in the team
        self._changed: dict[Place, str] = {}
        if self.file.exists():
            content = human_file_content(self.file)
            fold(doc, content.annotations)
            places = places_of(doc)
            self._changed = {places[ref]: when for ref, when in content.changed.items() if ref in places}
        doc.settle()  # the annotator's file holds these values: nothing is unsaved yet
        doc.add_listener(self._note)

    def _note(self, change: AnnotationChange) -> None:
        """A value written with its `changed` time changed now; the other kinds (time spent, stored as a save
        begins, flags, a review) carry no time of their own and must not move the value's."""
        if change.kind in STAMPED_KINDS:
            self._changed[change.session.index, None if change.turn is None else change.turn.index] = self._clock()

    def own_annotations(self) -> AnnotationSet:
        """The document's annotations that the log does not hold itself: the annotator's work."""
        now = extract(self.doc)
        logged = self.log_values
        transcriptions = {
            ref: text for ref, text in now.transcriptions.items() if logged.transcriptions.get(ref) != text
        }
        task_completion = {
            ref: value for ref, value in now.task_completion.items() if logged.task_completion.get(ref) != value
        }
        concepts = {ref: frame for ref, frame in now.concepts.items() if logged.concepts.get(ref) != frame}
        notes = {ref: values for ref, values in now.notes.items() if logged.notes.get(ref) != values}
        reviewed = {ref: name for ref, name in now.reviewed.items() if logged.reviewed.get(ref) != name}
        return AnnotationSet(
            transcriptions,
            task_completion,
            concepts,
            {ref: now.turn_id(ref) for ref in transcriptions.keys() | concepts.keys() | notes.keys()},
            notes,
            reviewed,
        )

    def save(self) -> None:
        """Write the annotator's file atomically; the log stays as it is. Raises AnnotatorError."""
        refs = {place: ref for ref, place in places_of(self.doc).items()}
        changed = {refs[place]: when for place, when in self._changed.items() if place in refs}
        write_human_file(
            self.file, self.own_annotations(), self.doc.sessions, annotator=self.annotator, changed=changed
        )
        self.doc.settle()

    def log_saved(self) -> None:
        """The document was written into the log itself (an adjudication): what it holds is now the log's, nobody's work."""
        self.log_values = extract(self.doc)

    def close(self) -> None:
        self.doc.remove_listener(self._note)


def places_of(doc: LogDocument) -> dict[SessionRef | TurnRef, Place]:
    """Where in DOC each session and turn ref is (the refs extract gives them)."""
    places: dict[SessionRef | TurnRef, Place] = {}
    for session_ref, session in session_refs_of(doc.sessions).items():
        places[session_ref] = (session.index, None)
        for turn_ref, index in turn_refs_of(session_ref, session):
            places[turn_ref] = (session.index, index)
    return places
