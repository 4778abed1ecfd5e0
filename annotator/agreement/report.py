"""`annotator agree -o report.html`: one self-contained HTML page (CSS inline, plots as inline SVG, no
script, nothing fetched) with the heat maps of pairwise agreement, the histogram of per-turn
inter-annotator WER, the tables of annotator.agreement.tables and the most disagreeing turns."""

from __future__ import annotations

from html import escape

from annotator import __version__
from annotator.agreement.figures import Agreement
from annotator.agreement.svg import heat_map, histogram
from annotator.agreement.tables import Table, all_tables

_STYLE = """
body { font-family: sans-serif; margin: 2em; color: #111; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 1.6em; }
table { border-collapse: collapse; margin: 0.5em 0; font-size: 0.9em; }
th, td { border: 1px solid #bbb; padding: 0.25em 0.5em; text-align: left; vertical-align: top; }
th { background: #eef2f7; }
td.number { text-align: right; font-variant-numeric: tabular-nums; }
.plots { display: flex; flex-wrap: wrap; gap: 2em; align-items: flex-start; }
figure { margin: 0; } figcaption { font-size: 0.9em; color: #444; max-width: 32em; }
svg text { font-size: 12px; font-family: sans-serif; }
p.note { color: #444; max-width: 60em; }
div.scroll { overflow-x: auto; }
"""

WER_SCALE_FLOOR = 0.05
# The disagreements as a reader compares them: both transcriptions in view (turns.csv has every column).
_SHOWN = {
    "disagreements": (
        "session_id",
        "turn_id",
        "annotator_a",
        "annotator_b",
        "wer",
        "transcription_a",
        "transcription_b",
    )
}
_IN_HTML = ("pairs", "task_completion", "sessions", "disagreements")  # turns: every turn, in the CSV only


def report_html(agreement: Agreement, top: int, sources: dict[str, list[str]]) -> str:
    """The page: SOURCES names each annotator's files."""
    tables = {table.name: table for table in all_tables(agreement, top)}
    parts = [
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">',
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">",
        f"<title>Agreement between annotators</title><style>{_STYLE}</style></head><body>",
        "<h1>Agreement between annotators</h1>",
        _sources(sources),
        _plots(agreement),
    ]
    parts += [_table_html(_narrowed(tables[name], _SHOWN.get(name))) for name in _IN_HTML]
    parts.append(
        f'<p class="note">Written by annotator {escape(__version__)}. Figures are explained in '
        "docs/agreement.md; turns.csv (annotator agree --csv) lists every compared turn.</p></body></html>\n"
    )
    return "\n".join(parts)


def _sources(sources: dict[str, list[str]]) -> str:
    items = "".join(
        f"<li><b>{escape(name)}</b>: {escape(', '.join(paths[:3]))}"
        f"{escape(f' and {len(paths) - 3} more file(s)') if len(paths) > 3 else ''}</li>"
        for name, paths in sources.items()
    )
    return f"<h2>Annotators</h2><ul>{items}</ul>"


def _plots(agreement: Agreement) -> str:
    names = agreement.annotators
    wer: list[list[float | None]] = [[0.0 if a == b else None for b in names] for a in names]
    kappa: list[list[float | None]] = [[1.0 if a == b else None for b in names] for a in names]
    for figures in agreement.pairs:
        i, j = names.index(figures.pair[0]), names.index(figures.pair[1])
        wer[i][j] = wer[j][i] = figures.words.wer_mean
        kappa[i][j] = kappa[j][i] = figures.kappa.value
    # The darkest cell is the least agreeing pair (at least WER 0.05, so that near-agreement stays pale).
    darkest = max([figures.words.wer_mean or 0.0 for figures in agreement.pairs] + [WER_SCALE_FLOOR])
    rates = [turn.wer for turn in agreement.turns if turn.wer is not None]
    return (
        '<h2>Pairwise agreement</h2><div class="plots">'
        + _figure(
            heat_map("Inter-annotator WER (symmetric mean)", names, wer, darkest),
            "Inter-annotator WER, mean of both directions, on the turns both transcribed: "
            f"0 is full agreement, darkest {darkest:.2f}; grey: no turn in common.",
        )
        + _figure(
            heat_map("Cohen's kappa on task completion", names, kappa),
            "Cohen's kappa on task completion over the sessions both rated: 1 is full agreement; "
            "grey: no figure (no session in common, or one value only).",
        )
        + _figure(
            histogram("Per-turn inter-annotator WER", rates),
            f"Per-turn inter-annotator WER over {len(rates)} compared turn(s), every pair.",
        )
        + "</div>"
    )


def _figure(svg: str, caption: str) -> str:
    return f"<figure>{svg}<figcaption>{escape(caption)}</figcaption></figure>"


def _narrowed(table: Table, columns: tuple[str, ...] | None) -> Table:
    if columns is None:
        return table
    keep = [table.columns.index(column) for column in columns]
    return Table(table.name, table.title, columns, [tuple(row[index] for index in keep) for row in table.rows])


def _table_html(table: Table) -> str:
    head = "".join(f"<th>{escape(column)}</th>" for column in table.columns)
    body = "".join("<tr>" + "".join(_cell(cell) for cell in row) + "</tr>" for row in table.rows)
    if not table.rows:
        body = f'<tr><td colspan="{len(table.columns)}">none</td></tr>'
    return (
        f'<h2 id="{table.name}">{escape(table.title)}</h2>'
        f'<div class="scroll"><table class="{table.name}"><thead><tr>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table></div>"
    )


def _cell(text: str) -> str:
    numeric = text.replace(".", "", 1).replace("-", "", 1).isdigit()
    return f'<td class="number">{escape(text)}</td>' if numeric else f"<td>{escape(text)}</td>"
