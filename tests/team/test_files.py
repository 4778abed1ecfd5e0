"""Per-annotator human files: their names beside a log, and finding them again."""

from __future__ import annotations

import pytest

from annotator.team.files import HumanFileIndex, human_files_beside, human_path_of
from annotator.team.names import AnnotatorNameError, check_annotator_name


def test_the_name_extends_the_standards_human_file_name(tmp_path):
    assert human_path_of(tmp_path / "X-20001002-001-hublog.xml", "alice") == tmp_path / "X-20001002-001-human-alice.xml"
    assert human_path_of(tmp_path / "dialogue.xml", "bob.k") == tmp_path / "dialogue-human-bob.k.xml"


@pytest.mark.parametrize("bad", ["", "../x", "a b", "-lead", "é", "a/b", "x" * 41])
def test_names_outside_the_safe_subset_are_refused_in_one_line(bad):
    with pytest.raises(AnnotatorNameError, match="letters, digits"):
        check_annotator_name(bad)


def test_human_files_beside_finds_each_annotators_file_and_nothing_else(tmp_path):
    log = tmp_path / "X-001-hublog.xml"
    log.write_text("<GC_LOG/>")
    for name in [
        "X-001-human.xml",
        "X-001-human-alice.xml",
        "X-001-human-bob-smith.xml",
        "X-002-human-carol.xml",
        "X-001-human-bad name.xml",
        "X-001-human-alice.xml.tmp",
    ]:
        (tmp_path / name).write_text("<GC_LOG_ANNOTATIONS/>")
    (tmp_path / "X-001-human-dir.xml").mkdir()
    expected = {"alice": tmp_path / "X-001-human-alice.xml", "bob-smith": tmp_path / "X-001-human-bob-smith.xml"}
    assert human_files_beside(log) == expected
    index = HumanFileIndex()
    assert index.files_of(log) == expected
    assert index.files_of(tmp_path / "X-002-hublog.xml") == {"carol": tmp_path / "X-002-human-carol.xml"}
    assert index.files_of(tmp_path / "X-003-hublog.xml") == {}


def test_a_missing_folder_has_no_files(tmp_path):
    assert human_files_beside(tmp_path / "gone" / "a.xml") == {}


def test_annotators_files_are_not_logs_of_the_corpus(tmp_path):
    from annotator.corpus.paths import expand_log_paths

    for name in ["X-001-hublog.xml", "X-001-human-alice.xml", "X-001-human-Bob.k.xml", "X-001-human.xml"]:
        (tmp_path / name).write_text("<GC_LOG/>")
    assert expand_log_paths([tmp_path]) == [tmp_path / "X-001-hublog.xml"]
