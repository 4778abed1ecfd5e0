"""The documentation: a short README in front, and the site's references made from the code
(scripts/mkdocs_references.py, the MkDocs hook; .ci/run builds the whole site with --strict)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def references():
    spec = importlib.util.spec_from_file_location("mkdocs_references", REPO / "scripts" / "mkdocs_references.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_readme_is_a_short_front_page():
    assert len((REPO / "README.md").read_text(encoding="utf-8").splitlines()) <= 400


def test_every_page_the_readme_links_exists():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\((docs/[^)#]+)", readme)
    assert len(links) > 10
    assert [link for link in links if not (REPO / link).is_file()] == []


def test_the_keyboard_reference_has_every_action_and_its_keys(references):
    from annotator.gui.actions import ACTIONS

    table = references.keys_reference()
    rows = table.splitlines()[2:]
    assert len(rows) == len(ACTIONS)
    for action, row in zip(ACTIONS, rows):
        assert action.text.replace("&", "") in row
        assert all(f"<kbd>{key}</kbd>" in row for key in action.keys), row


def test_the_command_line_reference_has_every_command_and_option(references):
    from annotator.cli.main import COMMANDS

    text = references.cli_reference()
    for command in COMMANDS:
        assert f"## annotator {command}\n" in text
    assert "--scheduler" in text and "--find" in text and "--annotators" in text


def test_the_decision_list_names_every_record(references):
    listed = references.adr_list().splitlines()
    assert len(listed) == len(list((REPO / "docs" / "adr").glob("[0-9][0-9][0-9][0-9]-*.md")))
    assert all(re.fullmatch(r"- \[.+\]\(\d{4}-[\w-]+\.md\)", line) for line in listed)
