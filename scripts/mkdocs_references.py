"""MkDocs hook: the reference pages made from the code at build time, so they cannot drift from it.

A page holds a marker comment where a reference goes:
    <!-- reference: keys -->   every action of the window's action table (annotator/gui/actions.py)
    <!-- reference: cli -->    every command's --help, from the argparse parsers (annotator/cli/main.py)
    <!-- reference: adrs -->   the decision records in docs/adr/, by number
"""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # the action table imports QtGui; no window is made


def keys_reference() -> str:
    from annotator.gui.actions import ACTIONS, plain_menu_name

    rows = ["| menu | action | keys | what it does |", "| --- | --- | --- | --- |"]
    for action in ACTIONS:
        keys = " or ".join(f"<kbd>{key}</kbd>" for key in action.keys) or "(none: give it one in F1)"
        where = " (in its panel)" if action.in_panel else ""
        text, tip = action.text.replace("&", "").replace("|", r"\|"), action.tip.replace("|", r"\|")
        rows.append(f"| {plain_menu_name(action.menu)} | {text} | {keys}{where} | {tip} |")
    return "\n".join(rows)


def cli_reference() -> str:
    import argparse

    from annotator.cli.main import build_parser

    parser = build_parser()
    parts = ["## annotator", "", "```text", parser.format_help().rstrip(), "```"]
    for action in parser._actions:  # argparse offers no public walk over its sub-commands
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                parts += ["", f"## annotator {name}", "", "```text", sub.format_help().rstrip(), "```"]
    return "\n".join(parts)


def adr_list() -> str:
    from pathlib import Path

    folder = Path(__file__).resolve().parents[1] / "docs" / "adr"
    lines = []
    for record in sorted(folder.glob("[0-9][0-9][0-9][0-9]-*.md")):
        title = record.read_text(encoding="utf-8").splitlines()[0].lstrip("# ").strip()
        lines.append(f"- [{title}]({record.name})")
    return "\n".join(lines)


REFERENCES = {"keys": keys_reference, "cli": cli_reference, "adrs": adr_list}


def on_page_markdown(markdown: str, page, config, files) -> str:
    for name, make in REFERENCES.items():
        marker = f"<!-- reference: {name} -->"
        if marker in markdown:
            markdown = markdown.replace(marker, make())
    return markdown
