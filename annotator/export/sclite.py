"""Export to NIST sclite: a reference and a hypothesis file in trn format.

    export_sclite([Path("corpus/")], Path("scoring/"))   # scoring/ref.trn, scoring/hyp.trn

then `sclite -r ref.trn trn -h hyp.trn trn -i rm -o sum stdout` (Debian: `sctk sclite ...`).

One line per user GC_TURN that has both a transcription (the reference) and
recognizer text (the hypothesis): exactly the turns whose errors
annotator.analysis.metrics adds up into a session's word error rate, so sclite's WER over
the files equals ours over the sessions (sum of errors over sum of reference words).
Turns are not merged here: the WER is per GC_TURN.

Each line is the text followed by the utterance id in parentheses, "words (spk_utt)".
The words are those our WER aligns (annotator.log.text.normalize_words: lower case,
punctuation gone, [bracketed] noise tokens and <angle> tokens dropped, as the
Communicator evaluation did). sclite reads the speaker as the part of the id before
the first "-" (else before the first "_"), so the speaker part is the session id and
the utterance part the turn id, with "-", "_", "(", ")" and whitespace made "."; a
collision (two sessions or turns that only differ there, or share their id) gets a
".2", ".3"... suffix, so each session is a speaker of its own.
"""

from __future__ import annotations

import re
from pathlib import Path

from annotator.analysis.metrics_scan import transcriptions_by_turn
from annotator.analysis.metrics_wer import recognizer_text
from annotator.corpus.parallel import FileMap, first_results, raise_if_failed, serial_map
from annotator.corpus.paths import common_root, expand_log_paths
from annotator.errors import AnnotatorError
from annotator.export.dialogue_text import ExportOptions, ExportReport, load_log, relative_name
from annotator.log.elements import Session
from annotator.log.text import normalize_words
from annotator.outputs.guard import OutputGuard
from annotator.outputs.staging import StagedFolder
from annotator.progress import Progress

REFERENCE_FILE = "ref.trn"
HYPOTHESIS_FILE = "hyp.trn"
_NOT_ID = re.compile(r"[\s()_-]")


class _Ids:
    """Unique sclite ids SPEAKER_UTTERANCE, unique ignoring case (sclite lower-cases them).

    Every session is a speaker of its own: sessions sharing an id get ".2", ".3"... too."""

    def __init__(self) -> None:
        self.taken_speakers: set[str] = set()
        self.taken_turns: dict[str, set[str]] = {}  # speaker part -> utterance parts, lower case

    def speaker(self, session_id: str) -> str:
        """A new speaker part for the next session."""
        return _unique(_id_part(session_id, "session"), self.taken_speakers)

    def utterance(self, speaker: str, turn_id: str) -> str:
        turn = _unique(_id_part(turn_id, "turn"), self.taken_turns.setdefault(speaker, set()))
        return f"{speaker}_{turn}"


def _unique(candidate: str, taken: set[str]) -> str:
    """CANDIDATE, or CANDIDATE.2, .3... the first not in TAKEN (lower case); recorded as taken."""
    result, number = candidate, 1
    while result.lower() in taken:
        number += 1
        result = f"{candidate}.{number}"
    taken.add(result.lower())
    return result


def export_sclite(
    paths: list[Path],
    out_dir: Path,
    options: ExportOptions | None = None,
    progress: Progress | None = None,
    guard: OutputGuard | None = None,
    file_map: FileMap = serial_map,
) -> ExportReport:
    out_dir = Path(out_dir)
    ids = _Ids()
    reference: list[str] = []
    hypothesis: list[str] = []
    warnings: list[str] = []
    sessions = 0
    paths = [Path(p) for p in paths]
    root = common_root(paths) if paths else Path.cwd()
    failed: list[AnnotatorError] = []
    for path, scored in first_results(file_map(scored_sessions, expand_log_paths(paths), progress), failed):
        for session_id, pairs in scored:
            if not pairs:
                warnings.append(
                    f"{relative_name(path, root)}: session {session_id}: skipped, no user turn has "
                    "both a transcription and recognizer text"
                )
                continue
            sessions += 1
            speaker = ids.speaker(session_id)
            for turn_id, ref_words, hyp_words in pairs:
                utterance_id = ids.utterance(speaker, turn_id)
                reference.append(trn_line(ref_words, utterance_id))
                hypothesis.append(trn_line(hyp_words, utterance_id))
    raise_if_failed(failed)
    with StagedFolder(out_dir, guard) as staged:
        for name, lines in ((REFERENCE_FILE, reference), (HYPOTHESIS_FILE, hypothesis)):
            staged.write(name, "".join(lines).encode("utf-8"))
    return ExportReport("sclite", out_dir, staged.files, sessions, len(reference), warnings)


def scored_sessions(path: Path) -> list[tuple[str, list[tuple[str, list[str], list[str]]]]]:
    """(session id, scored turns) of each session of the log at PATH, none for a MITRE annotation
    file: the per-file work of the export, picklable with its results."""
    doc = load_log(path)
    return [] if doc is None else [(session.id, scored_turns(session)) for session in doc.sessions]


def scored_turns(session: Session) -> list[tuple[str, list[str], list[str]]]:
    """(turn id, reference words, hypothesis words) of the user turns our WER aligns, in log order."""
    transcriptions = transcriptions_by_turn(session)
    scored = []
    for turn in session.turns:
        if turn.speaker != "user" or turn.index not in transcriptions:
            continue
        heard = recognizer_text(turn)
        if heard is None:
            continue
        scored.append((turn.id, normalize_words(transcriptions[turn.index]), normalize_words(heard)))
    return scored


def trn_line(words: list[str], utterance_id: str) -> str:
    return f"{' '.join(words)} ({utterance_id})\n"


def _id_part(raw: str, fallback: str) -> str:
    return _NOT_ID.sub(".", raw.strip()) or fallback
