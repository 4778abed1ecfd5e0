"""Export to a DialBB test scenario (DialBB framework spec, section 4.6).

    report = export_dialbb([Path("corpus/")], Path("scenario.txt"))

One file. Each session starts with a line "----init", then one line per utterance,
"System: ..." or "User: ...", in the session's order: it starts (and ends) with a
System line only where the session does. DialBB's test tool (`dialbb-test CONFIG
SCENARIO --output OUT`) strips each line, sends the text after "User: " to the
application, and warns when the application's answer differs from the next
"System: " line. So that every line stays exactly one utterance:
- empty utterances are never written (the tool cannot read "System:" back), and the
  turns around a user turn without text merge (dialogue_text, keep_empty=False);
- whitespace, line breaks included, is collapsed to single spaces;
- "User: " and "System: " inside an utterance become "User : " and "System : "
  (the tool removes every "User: " of a user line, not only the first).
"""

from __future__ import annotations

import re
from pathlib import Path

from annotator.corpus.parallel import FileMap, serial_map
from annotator.export.dialogue_text import (
    DEFAULT_TEXT,
    ExportOptions,
    ExportReport,
    read_dialogues,
)
from annotator.log.text import clean_text
from annotator.outputs.guard import OutputGuard
from annotator.outputs.staging import write_together
from annotator.progress import Progress

SESSION_START = "----init"
PREFIXES = {"user": "User: ", "system": "System: "}
_SPEAKER_LABEL = re.compile(r"(User|System): ")


def export_dialbb(
    paths: list[Path],
    out_file: Path,
    options: ExportOptions | None = None,
    progress: Progress | None = None,
    guard: OutputGuard | None = None,
    file_map: FileMap = serial_map,
) -> ExportReport:
    options = options or ExportOptions()
    dialogues, warnings = read_dialogues(
        paths, options.text or DEFAULT_TEXT, keep_empty=False, progress=progress, file_map=file_map
    )
    lines: list[str] = []
    utterances = 0
    for dialogue in dialogues:
        lines.append(SESSION_START)
        for utterance in dialogue.utterances:
            lines.append(PREFIXES[utterance.speaker] + scenario_text(utterance.text))
            utterances += 1
    out_file = Path(out_file)
    write_together({out_file: "".join(line + "\n" for line in lines).encode("utf-8")}, guard)
    return ExportReport("dialbb", out_file, [out_file], len(dialogues), utterances, warnings)


def scenario_text(text: str) -> str:
    """TEXT as one scenario line can hold it (see the module's docstring)."""
    return _SPEAKER_LABEL.sub(r"\1 : ", clean_text(text))
