"""The report's two plots as inline SVG, drawn here (no plotting library, docs/adr/0009): a heat map of a
square matrix of figures and a histogram of per-turn rates. Text is escaped; the output is deterministic."""

from __future__ import annotations

from html import escape

CELL = 64
LABEL = 110  # room for the row labels on the left
TOP = 30  # room for the column labels above
_LOW, _HIGH = (247, 251, 255), (8, 48, 107)  # white to dark blue


def _colour(share: float) -> str:
    share = min(max(share, 0.0), 1.0)
    red, green, blue = (round(low + (high - low) * share) for low, high in zip(_LOW, _HIGH))
    return f"rgb({red},{green},{blue})"


def heat_map(title: str, labels: list[str], values: list[list[float | None]], high_is_dark: float = 1.0) -> str:
    """An SVG heat map: row i, column j holds values[i][j] (None: no figure, grey); HIGH_IS_DARK is the
    value drawn darkest (0 lightest)."""
    size = len(labels)
    width, height = LABEL + CELL * size + 10, TOP + CELL * size + 10
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
            x, y = LABEL + CELL * column, TOP + CELL * row
            share = None if value is None else value / high_is_dark if high_is_dark else 0.0
            fill = "#dddddd" if share is None else _colour(share)
            ink = "#ffffff" if share is not None and share > 0.55 else "#000000"
            text = "n/a" if value is None else f"{value:.2f}"
            parts.append(
                f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}" stroke="#ffffff"/>'
                f'<text x="{x + CELL // 2}" y="{y + CELL // 2 + 4}" text-anchor="middle" '
                f'fill="{ink}">{text}</text>'
            )
    parts.append("</svg>")
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
