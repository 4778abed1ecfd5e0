"""Import a DialBB test scenario (or the output of `dialbb-test --output`, the same format).

    import_dialbb(Path("scenario.txt"), Path("logs/"))

Read as DialBB's test tool reads it: UTF-8, each line stripped, blank lines
skipped; a line starting with "----" (DialBB writes "----init") starts a session;
"System: TEXT" and "User: TEXT" are utterances. Empty utterances ("System:",
which dialbb-test writes when the application said nothing) are left out. Lines
before the first "----init" form a session of their own. Each session becomes
DIR/STEM-NNN-hublog.xml (STEM the scenario's file name, NNN the session's number
from 001) with one GC_TURN per utterance (annotator.imports.synthetic_log).
"""

from __future__ import annotations

from pathlib import Path

from annotator.file_name_text import name_text
from annotator.imports import ImportFormatError, ImportReport
from annotator.imports.synthetic_log import TextSession, TextTurn, nmtoken, write_logs
from annotator.input_files import read_input_text
from annotator.outputs.guard import OutputGuard
from annotator.progress import Progress

SESSION_MARK = "----"
LABELS = {"System:": "system", "User:": "user"}


def import_dialbb(
    source: Path, out_dir: Path, progress: Progress | None = None, guard: OutputGuard | None = None
) -> ImportReport:
    sessions = read_scenario(source)
    report = ImportReport("dialbb", source, out_dir)
    stem = nmtoken(source.name.rsplit(".", 1)[0] if "." in source.name else source.name, "scenario")
    width = max(3, len(str(len(sessions))))
    planned = []
    for number, (line, turns) in enumerate(sessions, start=1):
        name = f"{stem}-{number:0{width}d}"
        if not turns:
            report.warnings.append(f"{source}:{line}: session {number}: skipped, it has no utterance")
            continue
        record = {":import_format": "dialbb", ":import_source": name_text(source.name), ":source_session": str(number)}
        comment = (
            f"Imported by the Communicator Log Annotator from session {number} of the DialBB scenario "
            f"{name_text(source.name)}: text turns only, no audio; every time is synthesised, not recorded "
            '(GC_EVENT etype="IMPORT", GC_DATA key=":synthetic_times")'
        )
        planned.append((name, TextSession(name, turns, record), comment))
        report.turns += len(turns)
    report.files = write_logs(out_dir, planned, progress, guard)
    return report


def read_scenario(source: Path) -> list[tuple[int, list[TextTurn]]]:
    """(line number of the session's start, its utterances) for each session of the scenario."""
    text = read_input_text(source, lambda reason: ImportFormatError(f"{source}: {reason}"))
    sessions: list[tuple[int, list[TextTurn]]] = []
    # DialBB reads with Python's universal newlines: \n, \r\n and \r end lines, nothing else does.
    for number, raw in enumerate(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"), start=1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith(SESSION_MARK):
            sessions.append((number, []))
            continue
        label = next((label for label in LABELS if line.startswith(label)), None)
        if label is None:
            raise ImportFormatError(
                f'{source}:{number}: expected "----init", "System: ..." or "User: ...", found {line[:40]!r}'
            )
        if not sessions:
            sessions.append((number, []))
        utterance = line[len(label) :].removeprefix(" ")
        if utterance.strip():
            sessions[-1][1].append(TextTurn(LABELS[label], utterance))
    return sessions
