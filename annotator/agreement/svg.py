"""The report's two plots as inline SVG, drawn here (no plotting library, docs/adr/0009): a heat map of a
square matrix of figures, coloured on its metric's fixed scale with that scale's legend, and a histogram of
per-turn rates. Text is escaped; the output is deterministic."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

CELL = 64
LABEL = 110  # room for the row labels on the left
TOP = 30  # room for the column labels above
SWATCH = 44  # one step of the legend
LEGEND = 56  # room for the legend below the cells
NO_FIGURE_FILL = "#dddddd"
_LOW, _HIGH = (247, 251, 255), (8, 48, 107)  # white to dark blue


def _colour(share: float) -> str:
    share = min(max(share, 0.0), 1.0)
    red, green, blue = (round(low + (high - low) * share) for low, high in zip(_LOW, _HIGH))
    return f"rgb({red},{green},{blue})"


@dataclass(frozen=True)
class ColourScale:
    """A metric's colours, fixed whatever the figures of a report: LIGHTEST is drawn lightest, DARKEST (and
    anything beyond it) darkest, linearly between, so a value has one colour in every report."""

    lightest: float
    darkest: float
    ticks: tuple[float, ...]  # the values the legend shows, from LIGHTEST to DARKEST

    def share(self, value: float) -> float:
        return min(max((value - self.lightest) / (self.darkest - self.lightest), 0.0), 1.0)

    def colour(self, value: float) -> str:
        return _colour(self.share(value))

    def tick_label(self, value: float) -> str:
        beyond = "≥" if self.darkest > self.lightest else "≤"
        return f"{beyond}{value:g}" if value == self.darkest else f"{value:g}"


@dataclass(frozen=True)
class NoFigure:
    """A cell whose figure the items cannot give: how many items there were, and why (shown on hover)."""

    items: int
    reason: str


Cell = float | NoFigure


def heat_map(title: str, labels: list[str], values: list[list[Cell]], scale: ColourScale) -> str:
    """An SVG heat map: row i, column j holds values[i][j], coloured by SCALE (a NoFigure is grey, "too few",
    with its count of items), and SCALE's legend below."""
    size = len(labels)
    legend_width = 10 + SWATCH * (len(scale.ticks) + 1) + 60
    width, height = max(LABEL + CELL * size + 10, legend_width), TOP + CELL * size + LEGEND
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="heat-map" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label="{escape(title)}"><title>{escape(title)}</title>'
    ]
    for index, label in enumerate(labels):
        parts.append(
            f'<text x="{LABEL - 6}" y="{TOP + CELL * index + CELL // 2 + 4}" text-anchor="end">{escape(label)}</text>'
        )
        parts.append(
            f'<text x="{LABEL + CELL * index + CELL // 2}" y="{TOP - 8}" '
            f'text-anchor="middle">{escape(label[:10])}</text>'
        )
    for row, line in enumerate(values):
        for column, value in enumerate(line):
            parts.append(_cell(LABEL + CELL * column, TOP + CELL * row, value, scale))
    parts.append(_legend(TOP + CELL * size + 14, scale))
    parts.append("</svg>")
    return "".join(parts)


def _cell(x: int, y: int, value: Cell, scale: ColourScale) -> str:
    middle = x + CELL // 2
    if isinstance(value, NoFigure):
        return (
            f'<g class="no-figure"><title>{escape(value.reason)}</title>'
            f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{NO_FIGURE_FILL}" stroke="#ffffff"/>'
            f'<text x="{middle}" y="{y + CELL // 2 - 3}" text-anchor="middle">too few</text>'
            f'<text x="{middle}" y="{y + CELL // 2 + 12}" text-anchor="middle">n = {value.items}</text></g>'
        )
    ink = "#ffffff" if scale.share(value) > 0.55 else "#000000"
    return (
        f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{scale.colour(value)}" stroke="#ffffff"/>'
        f'<text x="{middle}" y="{y + CELL // 2 + 4}" text-anchor="middle" fill="{ink}">{value:.2f}</text>'
    )


def _legend(y: int, scale: ColourScale) -> str:
    """One swatch per tick of SCALE, its value below, then the grey of a cell with too few items."""
    parts = ['<g class="legend">']
    for index, tick in enumerate(scale.ticks):
        x = 10 + SWATCH * index
        parts.append(
            f'<rect class="swatch" x="{x}" y="{y}" width="{SWATCH}" height="14" fill="{scale.colour(tick)}"/>'
            f'<text x="{x + SWATCH // 2}" y="{y + 28}" text-anchor="middle">{escape(scale.tick_label(tick))}</text>'
        )
    x = 10 + SWATCH * len(scale.ticks) + 12
    parts.append(
        f'<rect x="{x}" y="{y}" width="{SWATCH - 12}" height="14" fill="{NO_FIGURE_FILL}"/>'
        f'<text x="{x + (SWATCH - 12) // 2}" y="{y + 28}" text-anchor="middle">too few</text></g>'
    )
    return "".join(parts)


def histogram(title: str, rates: list[float], bins: int = 10, top: float = 1.0) -> str:
    """An SVG histogram of RATES in BINS equal bins from 0 to TOP; rates of TOP and above share the last bin."""
    counts = [0] * bins
    for rate in rates:
        counts[min(int(rate / top * bins), bins - 1) if rate > 0 else 0] += 1
    width, height, left, bottom, bar = 520, 260, 50, 40, 44
    plot = height - bottom - 20
    most = max(counts, default=0) or 1
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="histogram" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label="{escape(title)}"><title>{escape(title)}</title>',
        f'<line x1="{left}" y1="{height - bottom}" x2="{left + bar * bins}" y2="{height - bottom}" stroke="#000"/>',
        f'<line x1="{left}" y1="20" x2="{left}" y2="{height - bottom}" stroke="#000"/>',
        f'<text x="{left - 6}" y="24" text-anchor="end">{most}</text>',
        f'<text x="{left - 6}" y="{height - bottom}" text-anchor="end">0</text>',
    ]
    for index, count in enumerate(counts):
        bar_height = round(plot * count / most)
        x = left + bar * index
        parts.append(
            f'<rect x="{x + 2}" y="{height - bottom - bar_height}" width="{bar - 4}" height="{bar_height}" '
            f'fill="{_colour(0.7)}"><title>{count} turn(s)</title></rect>'
        )
        if count:
            parts.append(
                f'<text x="{x + bar // 2}" y="{height - bottom - bar_height - 4}" text-anchor="middle">{count}</text>'
            )
        low = top * index / bins
        parts.append(f'<text x="{x}" y="{height - bottom + 16}" text-anchor="middle">{low:.1f}</text>')
    parts.append(f'<text x="{left + bar * bins}" y="{height - bottom + 16}" text-anchor="middle">{top:.1f}+</text>')
    parts.append(
        f'<text x="{left + bar * bins // 2}" y="{height - 4}" text-anchor="middle">'
        f"per-turn inter-annotator WER</text></svg>"
    )
    return "".join(parts)
