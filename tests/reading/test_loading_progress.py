"""parse_log_file's chunk watcher: it hears every chunk read, in order, up to the file's size, and an
exception it raises stops the parse there, with the file closed (how the window cancels an open)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from annotator.reading.loading import parse_log_file
from tests.support.xml_builders import log_text, session, system_turn, user_turn, write_log

TURN_PAIRS = 6000


def many_megabytes_log(tmp_path: Path) -> Path:
    turns = [
        turn
        for i in range(TURN_PAIRS)
        for turn in (
            system_turn(f"s{i}", 1000.0 + 4 * i, "where to?"),
            user_turn(f"u{i}", 1002.0 + 4 * i, "to boston please"),
        )
    ]
    return write_log(tmp_path / "big.xml", log_text([session("s1", turns, end=1000.0 + 4 * TURN_PAIRS)]))


class Stop(Exception):
    pass


def test_the_watcher_hears_each_chunk_up_to_the_size(tmp_path: Path):
    path = many_megabytes_log(tmp_path)
    size = path.stat().st_size
    assert size > 2 << 20, "the log must span several chunks"
    heard: list[tuple[int, int]] = []
    parsed = parse_log_file(path, lambda done, total: heard.append((done, total)))
    assert len(heard) >= 3
    assert [done for done, _ in heard] == sorted({done for done, _ in heard})
    assert heard[-1] == (size, size) and {total for _, total in heard} == {size}
    assert len(parsed.tree.getroot().find("GC_SESSION")) == 2 * TURN_PAIRS


def test_raising_in_the_watcher_stops_the_parse_with_the_file_closed(tmp_path: Path):
    path = many_megabytes_log(tmp_path)
    heard: list[int] = []

    def stop_after_first(done: int, _total: int) -> None:
        heard.append(done)
        raise Stop

    open_before = set(os.listdir("/proc/self/fd"))
    with pytest.raises(Stop):
        parse_log_file(path, stop_after_first)
    assert len(heard) == 1 and heard[0] < path.stat().st_size
    assert set(os.listdir("/proc/self/fd")) <= open_before
