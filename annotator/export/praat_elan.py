"""Export every session as a Praat TextGrid or an ELAN file, each beside a WAV of the whole session.

    export_textgrid([Path("corpus/")], Path("praat/"))   # praat/NAME.TextGrid + praat/NAME.wav, index.csv
    export_eaf([Path("corpus/")], Path("elan/"))         # elan/NAME.eaf + elan/NAME.wav, index.csv

NAME comes from the log's file name (less "-hublog.xml" or ".xml") and the session id (left
out where it says the same as the log's name), made of letters, digits, ".", "_" and "-" only (every file system takes it), at most
_MAX_NAME characters, and unique ignoring case ("-2", "-3"... on a clash). index.csv lists, in the
order exported: the log, the session id, the TextGrid (or EAF) and the WAV, by their names in the
folder. The tiers are annotator.export.session_tiers, the WAV annotator.export.session_audio
(written a block at a time), a session too long to make a WAV of refused by
annotator.export.session_length; docs/praat-elan.md says how to go there and back. All files are
written, or none.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from annotator.annotation_files.spreadsheet_cells import neutralise_cell
from annotator.corpus.parallel import FileMap, first_results, raise_if_failed, serial_map
from annotator.corpus.paths import common_root, expand_log_paths
from annotator.corpus_index.location import alignment_cache_file
from annotator.errors import AnnotatorError
from annotator.export.dialogue_text import ExportOptions, ExportReport, load_log, relative_name
from annotator.export.eaf_file import eaf_bytes
from annotator.export.session_audio import SessionAudio, session_audio
from annotator.export.session_length import check_session_span, check_wav_size
from annotator.export.session_tiers import SessionTiers, session_tiers
from annotator.export.textgrid_file import textgrid_bytes
from annotator.export.words_rows import TurnWords, sessions_words
from annotator.file_name_text import name_text
from annotator.log.audio_refs import resolver_for
from annotator.log.elements import Session
from annotator.outputs.guard import OutputGuard
from annotator.outputs.staging import StagedFolder
from annotator.progress import Progress
from annotator.timeline.data import build_timeline

INDEX_FILE = "index.csv"
SUFFIXES = {"textgrid": ".TextGrid", "eaf": ".eaf"}
_MAX_NAME = 120
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
_RESERVED = {"CON", "PRN", "AUX", "NUL", *(f"COM{n}" for n in range(10)), *(f"LPT{n}" for n in range(10))}


@dataclass
class SessionPair:
    """What the per-file work found of one session: its tiers and its WAV (to be written)."""

    log_name: str
    stem: str  # the name wanted, before it is made unique
    tiers: SessionTiers
    audio: SessionAudio

    @property
    def warnings(self) -> list[str]:
        return self.audio.warnings


def export_textgrid(
    paths: list[Path],
    out_dir: Path,
    options: ExportOptions | None = None,
    progress: Progress | None = None,
    guard: OutputGuard | None = None,
    file_map: FileMap = serial_map,
) -> ExportReport:
    return _export("textgrid", paths, out_dir, progress, guard, file_map)


def export_eaf(
    paths: list[Path],
    out_dir: Path,
    options: ExportOptions | None = None,
    progress: Progress | None = None,
    guard: OutputGuard | None = None,
    file_map: FileMap = serial_map,
) -> ExportReport:
    return _export("eaf", paths, out_dir, progress, guard, file_map)


def _export(
    kind: str, paths: list[Path], out_dir: Path, progress: Progress | None, guard: OutputGuard | None, file_map: FileMap
) -> ExportReport:
    paths = [Path(p) for p in paths]
    out_dir = Path(out_dir)
    work = partial(session_pairs, root=common_root(paths) if paths else Path.cwd(), cache_file=alignment_cache_file())
    report = ExportReport(kind, out_dir)
    taken: set[str] = {INDEX_FILE.lower()}
    index = io.StringIO()
    rows = csv.writer(index, lineterminator="\n")
    rows.writerow(["log", "session_id", kind, "wav"])
    failed: list[AnnotatorError] = []
    with StagedFolder(out_dir, guard) as staged:
        for _, pairs in first_results(file_map(work, expand_log_paths(paths), progress), failed):
            for pair in pairs:
                name = unique_name(pair.stem, taken)
                annotation, wav = f"{name}{SUFFIXES[kind]}", f"{name}.wav"
                staged.write(wav, pair.audio.write)  # block by block: the session's length costs disk, not memory
                staged.write(annotation, annotation_bytes(kind, pair, out_dir / wav))
                rows.writerow(
                    [neutralise_cell(text) for text in (pair.log_name, pair.tiers.session_id, annotation, wav)]
                )
                report.sessions += 1
                report.utterances += len(pair.tiers.user_turns)
                report.warnings += [
                    f"{pair.log_name}: session {pair.tiers.session_id}: {said}" for said in pair.warnings
                ]
        raise_if_failed(failed)
        staged.write(INDEX_FILE, index.getvalue().encode("utf-8"))
    report.files = staged.files
    tool = "Praat TextGrid" if kind == "textgrid" else "ELAN"
    report.summary = (
        f"wrote {report.sessions} {tool} file(s), each with the session's WAV, "
        f"{report.utterances} user turn(s), to {out_dir}"
    )
    return report


def session_pairs(path: Path, *, root: Path, cache_file: Path | None = None) -> list[SessionPair]:
    """The tiers and WAV of every session of the log at PATH (none for a MITRE file), with the words the
    alignment cache at CACHE_FILE holds: per-file work."""
    doc = load_log(path)
    if doc is None:
        return []
    log_name = name_text(relative_name(path, root))
    words = sessions_words(doc.sessions, resolver_for(path), cache_file)
    return [session_pair(session, log_name, found) for session, found in zip(doc.sessions, words)]


def session_pair(session: Session, log_name: str, words: dict[int, TurnWords] | None = None) -> SessionPair:
    """SESSION's tiers and WAV, named after LOG_NAME (the log's path as index.csv gives it) and its id, with
    the aligned turns' WORDS by turn index; a SessionTooLongError for a session whose times or WAV are longer
    than the export makes."""
    timeline = build_timeline(session)
    tiers = session_tiers(session, timeline, words)
    check_session_span(session, timeline, tiers)  # before a clip is decoded
    audio = session_audio(timeline, tiers.duration_ms)
    check_wav_size(session, audio)
    log_stem = re.sub(r"(-hublog)?\.xml$", "", Path(log_name).name, flags=re.IGNORECASE)
    return SessionPair(log_name, _stem(log_stem, session.id), tiers, audio)


def annotation_bytes(kind: str, pair: SessionPair, wav: Path) -> bytes:
    """The TextGrid or EAF ("textgrid", "eaf") of PAIR, whose WAV is (to be) written at WAV."""
    return textgrid_bytes(pair.tiers) if kind == "textgrid" else eaf_bytes(pair.tiers, wav, pair.log_name)


def _stem(log_stem: str, session_id: str) -> str:
    """LOG_STEM-SESSION_ID, or LOG_STEM alone where the session id says the same (travel-001 and travel:001)."""
    same = re.sub(r"[\W_]+", "", log_stem).lower() == re.sub(r"[\W_]+", "", session_id).lower()
    return log_stem if same else f"{log_stem}-{session_id}"


def unique_name(wanted: str, taken: set[str]) -> str:
    """WANTED made a safe file name, with "-2", "-3"... until no name in TAKEN (lower case) has it; recorded."""
    base = _UNSAFE.sub("_", wanted.replace("/", "_")).strip("._-")[:_MAX_NAME] or "session"
    if base.split(".")[0].upper() in _RESERVED:
        base = f"_{base}"
    name, number = base, 1
    while any(f"{name}{suffix}".lower() in taken for suffix in (".wav", ".textgrid", ".eaf")):
        number += 1
        name = f"{base}-{number}"
    taken.update(f"{name}{suffix}".lower() for suffix in (".wav", ".textgrid", ".eaf"))
    return name
