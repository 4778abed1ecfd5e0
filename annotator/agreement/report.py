"""`annotator agree -o report.html`: one self-contained HTML page (CSS inline, plots as inline SVG, no
script, nothing fetched) with the heat maps of pairwise agreement, the histogram of per-turn
inter-annotator WER, the tables of annotator.agreement.tables and the most disagreeing turns.

The page cannot be wider than the window: every table takes the page's width with fixed column widths and
wraps its text anywhere (a column name at its underscores), and a heat map too wide for the window scrolls
inside its own figure. A figure the items cannot give shows its reason in its cell."""

from __future__ import annotations

from html import escape

from annotator import __version__
from annotator.agreement.figures import Agreement
from annotator.agreement.svg import Cell, ColourScale, NoFigure, heat_map, histogram
from annotator.agreement.tables import Table, all_tables, words_reason

_STYLE = """
body { font-family: sans-serif; margin: 2em; color: #111; overflow-wrap: anywhere; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 1.6em; }
table { border-collapse: collapse; margin: 0.5em 0; font-size: 0.9em; width: 100%; table-layout: fixed; }
th, td { border: 1px solid #bbb; padding: 0.25em 0.4em; text-align: left; vertical-align: top; }
th { background: #eef2f7; font-size: 0.9em; }
td.number { text-align: right; font-variant-numeric: tabular-nums; }
td.missing { color: #555; font-style: italic; font-size: 0.9em; }
.plots { display: flex; flex-wrap: wrap; gap: 2em; align-items: flex-start; }
figure { margin: 0; min-width: 0; max-width: 100%; overflow-x: auto; }
figcaption { font-size: 0.9em; color: #444; max-width: 32em; }
svg text { font-size: 12px; font-family: sans-serif; }
p.note { color: #444; max-width: 60em; }
"""

# Fixed colours per metric, darker where annotators agree less, so a value looks the same in every report.
WER_SCALE = ColourScale(lightest=0.0, darkest=0.25, ticks=(0.0, 0.05, 0.1, 0.15, 0.2, 0.25))
KAPPA_SCALE = ColourScale(lightest=1.0, darkest=0.0, ticks=(1.0, 0.8, 0.6, 0.4, 0.2, 0.0))
# Columns of free text get a wider share of a table's width; the others share the rest equally.
_TEXT_COLUMNS = {"transcription_a": "25%", "transcription_b": "25%", "computed_by": "35%"}
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
TABLES_IN_HTML = ("pairs", "task_completion", "sessions", "disagreements")  # turns: every turn, in the CSV only


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
    parts += [_table_html(_narrowed(tables[name], _SHOWN.get(name))) for name in TABLES_IN_HTML]
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
    wer: list[list[Cell]] = [[0.0] * len(names) for _ in names]
    kappa: list[list[Cell]] = [[1.0] * len(names) for _ in names]
    for figures in agreement.pairs:
        i, j = names.index(figures.pair[0]), names.index(figures.pair[1])
        words, coefficient = figures.words, figures.kappa
        wer[i][j] = wer[j][i] = NoFigure(words.items, words_reason(words)) if words.wer_mean is None else words.wer_mean
        kappa[i][j] = kappa[j][i] = (
            NoFigure(coefficient.items, coefficient.reason("session"))
            if coefficient.value is None
            else coefficient.value
        )
    rates = [turn.wer for turn in agreement.turns if turn.wer is not None]
    return (
        '<h2>Pairwise agreement</h2><div class="plots">'
        + _figure(
            heat_map("Inter-annotator WER (symmetric mean)", names, wer, WER_SCALE),
            "Inter-annotator WER, mean of both directions, on the turns both transcribed. Fixed colours, the "
            f"same in every report: 0 (full agreement) lightest, {WER_SCALE.darkest:g} and above darkest; "
            "grey: too few items (no turn in common), n: how many there were.",
        )
        + _figure(
            heat_map("Cohen's kappa on task completion", names, kappa, KAPPA_SCALE),
            "Cohen's kappa on task completion over the sessions both rated. Fixed colours, the same in every "
            "report: 1 (full agreement) lightest, 0 (chance agreement) and below darkest; grey: too few items "
            "(it needs 2 sessions and 2 different values), n: how many sessions there were.",
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
    """TABLE without its reason columns: a figure left empty shows its reason in its own cell."""
    reason_of = {figure: reason for reason, figures in table.explains.items() for figure in figures}
    shown = [column for column in table.columns if column not in table.explains]
    widths = "".join(
        f'<col style="width: {_TEXT_COLUMNS[column]}">' if column in _TEXT_COLUMNS else "<col>" for column in shown
    )
    head = "".join(f"<th>{_breakable(column)}</th>" for column in shown)
    body = "".join(_row_html(dict(zip(table.columns, row)), shown, reason_of) for row in table.rows)
    if not table.rows:
        body = f'<tr><td colspan="{len(shown)}">none</td></tr>'
    return (
        f'<h2 id="{table.name}">{escape(table.title)}</h2>'
        f'<table class="{table.name}"><colgroup>{widths}</colgroup><thead><tr>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table>"
    )


def _breakable(column: str) -> str:
    """A column name that may wrap after each underscore."""
    return "_<wbr>".join(escape(part) for part in column.split("_"))


def _row_html(cells: dict[str, str], shown: list[str], reason_of: dict[str, str]) -> str:
    """One row; neighbouring empty figures of one reason share one cell that says it."""
    groups: list[tuple[str, list[str]]] = []  # (the reason, or "" for a value; its columns)
    for column in shown:
        reason = cells[reason_of[column]] if column in reason_of and not cells[column] else ""
        if reason and groups and groups[-1][0] == reason:
            groups[-1][1].append(column)
        else:
            groups.append((reason, [column]))
    parts = [_missing(reason, len(columns)) if reason else _cell(cells[columns[0]]) for reason, columns in groups]
    return "<tr>" + "".join(parts) + "</tr>"


def _missing(reason: str, span: int) -> str:
    spanning = f' colspan="{span}"' if span > 1 else ""
    return f'<td class="missing"{spanning}>{escape(reason)}</td>'


def _cell(text: str) -> str:
    numeric = text.replace(".", "", 1).replace("-", "", 1).isdigit()
    return f'<td class="number">{escape(text)}</td>' if numeric else f"<td>{escape(text)}</td>"
