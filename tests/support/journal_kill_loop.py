"""Kill -9 real windows while the annotator works fast, again and again; no edit older than 2 s may be lost.

    python -m tests.support.journal_kill_loop [COUNT]     # prints the figures (run from the repository)
    python -m pytest tests/stress -q                     # KILL_LOOP_COUNT (default 200) kills

Each round runs one window, or two windows on the same log (the second is told
the log is open and edits it too), as real processes on the offscreen platform,
driven with real key presses (tests/support/window_driver.py): bursts of edits 20-150
ms apart (Ctrl+I, typing, Ctrl+Enter through pre-filled turns, task completion,
undo and redo), pauses, and the odd save. Each window is killed with SIGKILL at
a random moment. The next round's first window restores what the journals hold;
what it shows must be what the killed windows showed at some moment no more
than 2 s before their kill (for each window, the state after its last edit older
than 2 s, or any later state, put on top of the log as it is on disk). It then
saves, so that a second window starts from the same file. The validation child
processes of the killed windows must all be gone at the end.
"""

from __future__ import annotations

import itertools
import os
import random
import shutil
import signal
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from tests.support.kill_loop import REPO, count_from_environment
from tests.support.window_driver import RECOVER_WITHIN_SECONDS, children_of, is_running, run_window

SAMPLE = REPO / "sample_logs" / "travel-20261121-002"
STARTUP_PATIENCE = 180  # seconds for a window to open on a loaded machine (a hang guard)
WORDS = "i want to fly to boston on friday morning please no denver austin yes".split()
SAVE = {"keys": "Ctrl+S"}


@dataclass
class JournalKillReport:
    kills: int = 0
    rounds: int = 0
    two_window_rounds: int = 0
    edits: int = 0  # steps that changed what a window showed
    edits_due: int = 0  # of them, older than 2 s at their window's kill: each had to come back
    kills_mid_burst: int = 0  # kills less than 0.3 s after the window's last edit
    kills_inside_step: int = 0  # kills after a step changed an annotation and before the step ended
    restored_rounds: int = 0  # rounds whose first window was offered work and restored it
    children_left: int = 0  # validation children of killed windows still running at the end
    seconds: float = 0.0
    failures: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        return (
            f"{self.kills} SIGKILLs of real windows in {self.rounds} rounds ({self.two_window_rounds} with two "
            f"windows on one log) in {self.seconds:.0f} s: {self.edits} edits made, {self.edits_due} of them "
            f"older than {RECOVER_WITHIN_SECONDS:.0f} s at their kill; {self.kills_mid_burst} kills came less "
            f"than 0.3 s after an edit, {self.kills_inside_step} inside a step that had changed one; {self.restored_rounds} restores, "
            f"{len(self.failures)} of which lost an edit; {self.children_left} child processes left running"
        )


class Window:
    """A driven window process and the JSON lines it has written so far (read on a thread)."""

    def __init__(self, log: Path, folder: Path, plan: list[dict], answers: list[str]):
        self.process = run_window(log, folder, plan, answers)
        self.plan = plan
        self.lines: list[dict] = []
        self.killed_at: float | None = None
        self.children: list[tuple[int, int | None]] = []
        self._changed = threading.Condition()
        self._stderr: list[str] = []
        self._readers = [
            threading.Thread(target=self._read, daemon=True),
            threading.Thread(target=lambda: self._stderr.extend(self.process.stderr), daemon=True),
        ]
        for reader in self._readers:
            reader.start()

    def _read(self) -> None:
        import json

        for raw in self.process.stdout:
            with self._changed:
                self.lines.append(json.loads(raw))
                self._changed.notify_all()
        with self._changed:
            self._changed.notify_all()

    def wait_for(self, accept, timeout: float = STARTUP_PATIENCE) -> dict | None:
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                found = next((line for line in self.lines if accept(line)), None)
                if found is not None or self.process.poll() is not None or time.monotonic() > deadline:
                    return found
                self._changed.wait(0.1)

    def kill(self) -> None:
        from annotator.journal.instance_lock import process_start_time

        self.children = [(pid, process_start_time(pid)) for pid in children_of(self.process.pid)]
        self.killed_at = time.monotonic()
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()
        for reader in self._readers:  # the lines written just before the kill may still be in the pipe
            reader.join()

    def states(self) -> list[dict]:
        return [line for line in self.lines if line["event"] in ("opened", "step", "changed", "done")]

    def problem(self) -> str:
        return "".join(self._stderr[-20:])


def random_plan(rng: random.Random, saves: bool) -> list[dict]:
    """About a minute of work, in bursts of quick edits between pauses (the window is killed long before)."""
    plan = [{"row": 0}, {"keys": "Ctrl+Down"}]
    while len(plan) < 400:
        for _ in range(rng.randint(3, 20)):
            action = rng.choices(
                [
                    "Ctrl+I",
                    "type",
                    "Ctrl+Return",
                    "Ctrl+Down",
                    "Ctrl+Up",
                    "Ctrl+Alt+1",
                    "Ctrl+Alt+0",
                    "Ctrl+Z",
                    "Ctrl+Shift+Z",
                    "save",
                ],
                [5, 5, 6, 2, 1, 2, 2, 2, 1, 1 if saves else 0],
            )[0]
            if action == "type":
                plan.append({"type": " " + " ".join(rng.choices(WORDS, k=rng.randint(1, 4)))})
            else:
                plan.append(SAVE if action == "save" else {"keys": action})
            plan.append({"wait": rng.uniform(0.02, 0.15)})
        plan.append({"wait": rng.choice([0.3, 0.8, 1.5, 2.5, 4.0])})
    return plan


def file_state(log: Path) -> dict:
    from annotator.log.document import LogDocument

    session = LogDocument.load(log).sessions[0]
    return {
        "transcriptions": {turn.id: turn.transcription for turn in session.user_turns},
        "task": session.task_completion,
    }


def _values(state: dict) -> dict:
    return {("t", key): value for key, value in state["transcriptions"].items()} | {("task",): state["task"]}


def _state(values: dict) -> dict:
    return {
        "transcriptions": {key[1]: value for key, value in values.items() if key[0] == "t"},
        "task": values[("task",)],
    }


def journalled_differences(window: Window, opened_on: dict) -> list[dict]:
    """For each state the window's journal may hold at its kill, what differs from the file it was
    made against (the file as the window opened it, OPENED_ON, or as a later save wrote it)."""
    states = window.states()
    due = [i for i, line in enumerate(states) if line["t"] <= window.killed_at - RECOVER_WITHIN_SECONDS]
    first = due[-1] if due else 0
    base, differences = _values(opened_on), []
    for i, line in enumerate(states):
        values = _values(line["state"])
        if line.get("step") == SAVE:
            base = values
        if i > first and "type" in line.get("step", {}):
            # The journal is written on its own thread, so it may hold the typing of a step half done.
            differences += _half_typed(_values(states[i - 1]["state"]), values, line["step"]["type"], base)
        if i >= first:
            differences.append({key: value for key, value in values.items() if base[key] != value})
    typing = _typing_at_kill(window)
    if typing and states:  # the kill came between two of its key presses, each journalled as typed
        differences += _half_typed(_values(states[-1]["state"]), None, typing + " ", base)
    return differences


def _half_typed(before: dict, after: dict | None, typing: str, base: dict) -> list[dict]:
    """The differences from BASE of each state between BEFORE and AFTER (None: not known) as TYPING is typed a key
    at a time into the turn it went to (any turn when not known)."""
    from annotator.log.text import clean_text

    turns = [key for key in before if key[0] == "t" and (after is None or before[key] != after[key])]
    found = []
    for key in turns or [key for key in before if key[0] == "t"]:
        for end in range(1, len(typing)):
            typed = before | {key: clean_text((before[key] or "") + typing[:end]) or None}
            found.append({k: value for k, value in typed.items() if base[k] != value})
    return found


def _typing_at_kill(window: Window) -> str:
    """The text of the plan's step the window was killed in, when that step typed it one key at a time."""
    done = sum(1 for line in window.lines if line["event"] == "step")
    step = window.plan[done] if done < len(window.plan) else {}
    return step.get("type", "")


def run(folder: Path, count: int, seed: int = 20261121) -> JournalKillReport:
    rng = random.Random(seed)
    report = JournalKillReport()
    shutil.copytree(SAMPLE, folder / "call")
    log = folder / "call" / f"{SAMPLE.name}-hublog.xml"
    started = time.monotonic()
    expected = {_canonical(file_state(log)): file_state(log)}  # what the next first window may show once restored
    killed: list[Window] = []
    previous: list[Window] = []  # the windows the last round killed
    for round_number in itertools.count():
        if report.kills >= count:
            break
        two = count - report.kills >= 2 and rng.random() < 0.5
        opened_on = file_state(log)
        # The first window restores, then saves: a second window starts from the same file. With a
        # second window it saves no more, so that both journals are made against that file.
        first = Window(
            log, folder / f"settings-{round_number}-a", [SAVE] + random_plan(rng, saves=not two), ["Restore"]
        )
        windows, bases = [first], [opened_on]
        opened = first.wait_for(lambda line: line["event"] == "opened")
        saved = first.wait_for(lambda line: line.get("step") == SAVE)
        if opened is None or saved is None:
            report.failures.append(f"round {round_number}: the window did not open: {first.problem()}")
            first.kill()
            break
        asked = [line["title"] for line in first.lines if line["event"] == "asked"]
        report.restored_rounds += asked == ["Restore unsaved work?"]
        if asked not in ([], ["Restore unsaved work?"]):
            report.failures.append(f"round {round_number}: the first window was asked {asked}")
        if _canonical(opened["state"]) not in expected:
            report.failures.append(
                f"round {round_number}: {_unexpected(opened['state'], expected)}; "
                f"{_last_moments(previous, folder, round_number - 1)}"
            )
        if two:
            second = Window(
                log, folder / f"settings-{round_number}-b", random_plan(rng, saves=False), ["Edit here too"]
            )
            windows.append(second)
            bases.append(saved["state"])
            if second.wait_for(lambda line: line["event"] == "opened") is None:
                report.failures.append(f"round {round_number}: the second window did not open: {second.problem()}")
            asked = [line["title"] for line in second.lines if line["event"] == "asked"]
            if asked != ["Log already open"]:
                report.failures.append(f"round {round_number}: the second window was asked {asked}")
        for window in windows:
            time.sleep(rng.uniform(0.2, 6.0))
            window.kill()
        _keep_journals(folder, round_number)
        killed += windows
        previous = windows
        report.rounds += 1
        report.two_window_rounds += two
        report.kills += len(windows)
        report.edits += sum(_count_edits(window) for window in windows)
        report.edits_due += sum(_count_edits(window, due_only=True) for window in windows)
        report.kills_mid_burst += sum(_mid_burst(window) for window in windows)
        report.kills_inside_step += sum(window.lines[-1]["event"] == "changed" for window in windows if window.lines)
        expected = _restorable(
            _values(file_state(log)),
            [journalled_differences(window, base) for window, base in zip(windows, bases, strict=True)],
        )
    last = Window(log, folder / "settings-last", [SAVE], ["Restore"])
    opened = last.wait_for(lambda line: line["event"] == "opened")
    if opened is None:
        report.failures.append(f"last restore: the window did not open: {last.problem()}")
    elif _canonical(opened["state"]) not in expected:
        report.failures.append(
            f"last restore: {_unexpected(opened['state'], expected)}; "
            f"{_last_moments(previous, folder, report.rounds - 1)}"
        )
    last.wait_for(lambda line: line["event"] == "done")
    last.kill()
    time.sleep(2)
    report.children_left = sum(_still_running(pid, start) for window in killed for pid, start in window.children)
    report.seconds = time.monotonic() - started
    return report


def _restorable(on_disk: dict, choices: list[list[dict]]) -> dict[str, dict]:
    """What a restore may show: the log on disk with one journalled difference of each window on top,
    in either order (journals are restored oldest first, and two may have been written together)."""
    found = {}
    for picked in itertools.product(*choices):
        for order in itertools.permutations(picked):
            values = dict(on_disk)
            for difference in order:
                values |= difference
            found.setdefault(_canonical(_state(values)), _state(values))
    return found


def _keep_journals(folder: Path, round_number: int) -> None:
    """A copy of the journals the round's killed windows left, for a failure to be looked into."""
    from annotator.journal.files import journal_dir

    if journal_dir().is_dir():
        shutil.copytree(journal_dir(), folder / f"journals-after-round-{round_number}")


def _last_moments(windows: list[Window], folder: Path, round_number: int) -> str:
    """What the last killed windows did last, and where their journals were kept."""
    said = []
    for window in windows:
        lines = [line for line in window.lines if line["event"] in ("step", "changed")][-4:]
        said.append(
            " then ".join(f"{line.get('step', 'changed')} at -{window.killed_at - line['t']:.2f} s" for line in lines)
        )
    return (
        f"the killed windows' last steps: {' | '.join(said)}; journals in {folder}/journals-after-round-{round_number}"
    )


def _unexpected(restored: dict, expected: dict[str, dict]) -> str:
    """What a restore showed against the expected state nearest to it: only the values that differ."""
    shown = _values(restored)
    nearest = min(expected.values(), key=lambda state: sum(shown.get(k) != v for k, v in _values(state).items()))
    wanted = _values(nearest)
    return (
        f"restored { ({k: shown.get(k) for k in wanted if shown.get(k) != wanted[k]}) } where the nearest of "
        f"{len(expected)} expected states holds { ({k: v for k, v in wanted.items() if shown.get(k) != v}) }"
    )


def _canonical(state: dict) -> str:
    import json

    return json.dumps(state, sort_keys=True)


def _count_edits(window: Window, due_only: bool = False) -> int:
    states = window.states()
    changed = [now for before, now in itertools.pairwise(states) if now["state"] != before["state"]]
    if due_only:
        changed = [line for line in changed if line["t"] <= window.killed_at - RECOVER_WITHIN_SECONDS]
    return len(changed)


def _mid_burst(window: Window) -> bool:
    states = window.states()
    edited = [now["t"] for before, now in itertools.pairwise(states) if now["state"] != before["state"]]
    return bool(edited) and edited[-1] >= window.killed_at - 0.3


def _still_running(pid: int, start: int | None) -> bool:
    from annotator.journal.instance_lock import process_start_time

    return is_running(pid) and process_start_time(pid) == start


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as name:
        os.environ["ANNOTATOR_DATA_DIR"] = str(Path(name) / "data")
        print(run(Path(name), int(sys.argv[1]) if len(sys.argv) > 1 else count_from_environment()))
