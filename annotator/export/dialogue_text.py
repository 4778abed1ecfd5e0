"""What the dialogue formats (ConvLab, DialBB, LM Challenge) share: each session as a
list of utterances, one per side's turn.

    dialogues, warnings = read_dialogues(paths, text="prefer-transcription", keep_empty=False)
    for dialogue in dialogues:
        for utterance in dialogue.utterances:
            utterance.speaker, utterance.text, utterance.turn_ids

The rules (as the Communicator evaluators did):
- a user turn's text is chosen by TEXT: "transcription" (the human transcription),
  "asr" (the recognizer's text) or "prefer-transcription" (the transcription where
  there is one, else the recognizer's text); a system turn's text is its text_output;
- GC_TURNs whose side is unknown are skipped over (as the metrics do);
- consecutive turns of the same side are merged into one utterance, their texts
  joined with a space. With keep_empty=False, turns without text are left out
  first (so the turns around them merge), and a warning names the user turns lost;
- a session with no user turn (with keep_empty=False: no user turn with text) is
  skipped with a warning.

Dialogues hold plain values, not views, so the logs' trees are freed as soon as
each log has been read.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from annotator.analysis.metrics import session_metrics
from annotator.analysis.metrics_scan import transcriptions_by_turn
from annotator.corpus.parallel import FileMap, first_results, raise_if_failed, serial_map
from annotator.corpus.paths import ANNOTATION_ROOT, common_root, expand_log_paths, root_tag
from annotator.errors import AnnotatorError
from annotator.file_name_text import name_text
from annotator.imports.synthetic_log import import_marker
from annotator.log.concepts import Concepts, parsed_concepts, reference_concepts
from annotator.log.document import LogDocument
from annotator.log.elements import Session, Turn
from annotator.log.text import clean_text
from annotator.progress import Progress

TEXT_CHOICES = ("prefer-transcription", "transcription", "asr")
DEFAULT_TEXT = "prefer-transcription"
SPEAKER_CHOICES = ("user", "system", "both")


class ExportOptionError(AnnotatorError):
    """An export option that cannot be used (a bad dataset name, split ratios...)."""


@dataclass
class ExportOptions:
    """Every option of `annotator export`; each format reads the ones that apply to it."""

    text: str = DEFAULT_TEXT  # user text: prefer-transcription | transcription | asr
    dataset: str = "communicator"  # ConvLab dataset name
    split: str | None = None  # ConvLab: one split for all dialogues
    split_ratios: tuple[float, float, float] | None = None  # ConvLab: train, validation, test shares
    seed: int = 42  # ConvLab: shuffles the dialogues before cutting them by split_ratios
    speaker: str = "user"  # LM Challenge: whose utterances: user | system | both


@dataclass
class ExportReport:
    """What an export wrote; str() is the one-line summary, warnings are shown beside it."""

    format: str
    output: Path
    files: list[Path] = field(default_factory=list)
    sessions: int = 0
    utterances: int = 0
    warnings: list[str] = field(default_factory=list)
    summary: str = ""

    def __str__(self) -> str:
        return self.summary or (
            f"exported {self.sessions} session(s), {self.utterances} utterance(s) as {self.format} to {self.output}"
        )


@dataclass(frozen=True)
class TurnText:
    """One GC_TURN's contribution to an utterance, with what the log knows about it."""

    turn_id: str
    index: int  # position among the session's GC_TURNs
    speaker: str  # "user" | "system"
    text: str  # "" when the turn has no text of the chosen kind
    source: str | None  # "transcription" | "asr" | "system" | None (no text)
    stime: float | None
    etime: float | None
    audio: str | None  # the audio path as written in the log
    asr_text: str | None = None
    transcription: str | None = None
    wer: float | None = None
    prompts: tuple[str, ...] = ()  # type_prompt values of the turn (system turns)
    error_message: bool = False  # a system text marked type_error_msg="true"
    help_message: bool = False  # a system text marked type_help_msg="true"
    concepts: Concepts | None = None  # user turns: the reference concepts, else the parse (None: neither)
    concepts_source: str | None = None  # "reference" | "parse" | None


@dataclass
class Utterance:
    speaker: str
    parts: list[TurnText]

    @property
    def text(self) -> str:
        return " ".join(part.text for part in self.parts if part.text)

    @property
    def turn_ids(self) -> list[str]:
        return [part.turn_id for part in self.parts]

    @property
    def stime(self) -> float | None:
        return next((p.stime for p in self.parts if p.stime is not None), None)

    @property
    def etime(self) -> float | None:
        return next((p.etime for p in reversed(self.parts) if p.etime is not None), None)


@dataclass
class Dialogue:
    session_id: str
    log_path: Path
    log_name: str  # the log's path relative to the common root of the exported paths, with /, as name_text writes it
    stime: float | None
    etime: float | None
    task_completion: str | None
    wer: float | None
    wer_errors: int
    wer_reference_words: int
    imported: dict[str, str]  # what an import recorded (see annotator.imports.synthetic_log)
    utterances: list[Utterance]

    @property
    def times_synthetic(self) -> bool:
        return self.imported.get(":synthetic_times") == "true"


def read_dialogues(
    paths: list[Path],
    text: str = DEFAULT_TEXT,
    keep_empty: bool = False,
    progress: Progress | None = None,
    file_map: FileMap = serial_map,
) -> tuple[list[Dialogue], list[str]]:
    """The dialogues of the logs at PATHS (files or folders), and the warnings for the caller.

    Each log is read by FILE_MAP's work (log_dialogues); logs that cannot be read are all named
    in one UnreadableFiles error, raised once every other log was read."""
    check_text_choice(text)
    paths = [Path(p) for p in paths]
    work = partial(log_dialogues, root=common_root(paths) if paths else Path.cwd(), text=text, keep_empty=keep_empty)
    dialogues: list[Dialogue] = []
    warnings: list[str] = []
    failed: list[AnnotatorError] = []
    for _, (found, said) in first_results(file_map(work, expand_log_paths(paths), progress), failed):
        dialogues += found
        warnings += said
    raise_if_failed(failed)
    return dialogues, warnings


def log_dialogues(path: Path, *, root: Path, text: str, keep_empty: bool) -> tuple[list[Dialogue], list[str]]:
    """The dialogues of one log and their warnings (none for a MITRE annotation file): per-file work."""
    doc = load_log(path)
    if doc is None:
        return [], []
    log_name = name_text(relative_name(path, root))
    warnings: list[str] = []
    dialogues = [session_dialogue(session, path, log_name, text, keep_empty, warnings) for session in doc.sessions]
    return [dialogue for dialogue in dialogues if dialogue is not None], warnings


def load_log(path: Path) -> LogDocument | None:
    """The log at PATH, or None for a MITRE human-annotation file (a corpus folder holds both)."""
    return None if root_tag(path) == ANNOTATION_ROOT else LogDocument.load(path)


def session_dialogue(
    session: Session, path: Path, log_name: str, text: str, keep_empty: bool, warnings: list[str]
) -> Dialogue | None:
    """One session as a Dialogue, or None (with a warning) when it has no user turn to export."""
    where = f"{log_name}: session {session.id}"
    metrics = session_metrics(session)
    transcriptions = transcriptions_by_turn(session)
    texts = [
        _turn_text(turn, transcriptions.get(turn.index), text, metrics.turn_wer.get(turn.index))
        for turn in session.turns
    ]
    turns = [t for t in texts if t is not None]
    if not any(t.speaker == "user" for t in turns):
        warnings.append(f"{where}: skipped, it has no user turn")
        return None
    if not keep_empty:
        textless = [t.turn_id for t in turns if t.speaker == "user" and not t.text]
        turns = [t for t in turns if t.text]
        if not any(t.speaker == "user" for t in turns):
            warnings.append(f"{where}: skipped, no user turn has {_wanted(text)}")
            return None
        if textless:
            warnings.append(
                f"{where}: {len(textless)} user turn(s) without {_wanted(text)} left out (turn {', '.join(textless)})"
            )
    wer = metrics.values.get("word_error_rate")
    return Dialogue(
        session_id=session.id,
        log_path=path,
        log_name=log_name,
        stime=session.stime,
        etime=session.etime,
        task_completion=session.task_completion,
        wer=wer if isinstance(wer, float) else None,
        wer_errors=metrics.wer_errors,
        wer_reference_words=metrics.wer_reference_words,
        imported=import_marker(session),
        utterances=merge_turns(turns),
    )


def merge_turns(turns: list[TurnText]) -> list[Utterance]:
    """Consecutive turns of the same side become one utterance."""
    utterances: list[Utterance] = []
    for turn in turns:
        if utterances and utterances[-1].speaker == turn.speaker:
            utterances[-1].parts.append(turn)
        else:
            utterances.append(Utterance(turn.speaker, [turn]))
    return utterances


def choose_user_text(transcription: str | None, asr: str | None, text: str) -> tuple[str, str | None]:
    """The user text TEXT asks for and where it came from ("transcription", "asr" or None)."""
    transcription, asr = clean_text(transcription), clean_text(asr)
    if text in ("transcription", "prefer-transcription") and transcription:
        return transcription, "transcription"
    if text in ("asr", "prefer-transcription") and asr:
        return asr, "asr"
    return "", None


def check_text_choice(text: str) -> None:
    if text not in TEXT_CHOICES:
        raise ExportOptionError(f"--text {text}: expected one of {', '.join(TEXT_CHOICES)}")


def relative_name(path: Path, root: Path) -> str:
    resolved = path.resolve()
    try:
        return resolved.relative_to(root).as_posix()
    except ValueError:
        return resolved.as_posix()


def finite(value: float | None) -> float | None:
    """VALUE rounded to the microsecond (epoch floats carry noise below it), None when not finite."""
    return round(value, 6) if value is not None and math.isfinite(value) else None


def _turn_text(turn: Turn, transcription: str | None, text: str, wer: float | None) -> TurnText | None:
    speaker = turn.speaker
    if speaker == "user":
        asr = turn.asr_text
        chosen, source = choose_user_text(transcription, asr, text)
        audio = turn.audio_data("input")
        facts = turn.facts()
        reference = reference_concepts(facts)
        concepts = reference if reference is not None else parsed_concepts(facts)
        return TurnText(
            turn.id,
            turn.index,
            speaker,
            chosen,
            source,
            turn.stime,
            turn.etime,
            audio.text if audio is not None else None,
            asr,
            clean_text(transcription) or None,
            wer,
            concepts=concepts,
            concepts_source=None if concepts is None else "reference" if reference is not None else "parse",
        )
    if speaker == "system":
        said = clean_text(turn.system_text)
        audio = turn.audio_data("output")
        data = turn.system_data
        return TurnText(
            turn.id,
            turn.index,
            speaker,
            said,
            "system" if said else None,
            turn.stime,
            turn.etime,
            audio.text if audio is not None else None,
            prompts=tuple(p for a in turn.activities if (p := (a.get("type_prompt") or "").strip())),
            error_message=any(d.get("type_error_msg") == "true" for d in data),
            help_message=any(d.get("type_help_msg") == "true" for d in data),
        )
    return None


def _wanted(text: str) -> str:
    return {"transcription": "a transcription", "asr": "recognizer text"}.get(
        text, "a transcription or recognizer text"
    )
