"""The HTML report in a real headless browser (Debian's chromium): it renders its tables and plots, logs no
console error, fetches nothing, and its screenshot is not blank. Skipped only where chromium is absent
(scripts/system-deps.sh installs it, so CI runs these)."""

from __future__ import annotations

import re
import struct
import zlib
from pathlib import Path

import pytest

from tests.support.headless_browser import chromium, needs_chromium

CONSOLE_MESSAGE = re.compile(r":CONSOLE[:(]")  # how chromium's --enable-logging writes a page's console output


def screenshot(page: Path, png: Path) -> list[str]:
    """Take PAGE's screenshot into PNG; the console messages the page logged."""
    done = chromium(f"--screenshot={png}", "--enable-logging=stderr", "--v=0", page.resolve().as_uri())
    assert png.is_file(), done.stderr
    return [line for line in done.stderr.splitlines() if CONSOLE_MESSAGE.search(line)]


def png_pixels(png: Path) -> tuple[int, int, list[bytes]]:
    """Width, height and the rows of RGB(A) bytes of a non-interlaced 8-bit PNG (what chromium writes)."""
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    position, idat, header = 8, b"", b""
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position : position + 8])
        chunk = data[position + 8 : position + 8 + length]
        header = chunk if kind == b"IHDR" else header
        idat += chunk if kind == b"IDAT" else b""
        position += 12 + length
    width, height, depth, colour, _c, _f, interlace = struct.unpack(">IIBBBBB", header)
    assert depth == 8 and colour in (2, 6) and interlace == 0
    step = 3 if colour == 2 else 4
    raw, stride, rows, previous = zlib.decompress(idat), width * step, [], bytearray(width * step)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for x in range(stride):
            left = line[x - step] if x >= step else 0
            up, corner = previous[x], previous[x - step] if x >= step else 0
            if kind == 1:
                line[x] = (line[x] + left) & 255
            elif kind == 2:
                line[x] = (line[x] + up) & 255
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 255
            elif kind == 4:
                estimate = left + up - corner
                nearest = min(
                    (abs(estimate - left), 0, left), (abs(estimate - up), 1, up), (abs(estimate - corner), 2, corner)
                )[2]
                line[x] = (line[x] + nearest) & 255
        rows.append(bytes(line[i] for i in range(stride) if i % step < 3))
        previous = line
    return width, height, rows


@needs_chromium
@pytest.mark.slow
def test_the_report_renders_its_tables_and_plots_with_no_console_error(team_run, tmp_path):
    report, _figures = team_run
    dom = chromium("--dump-dom", report.resolve().as_uri()).stdout
    for table in ("pairs", "task_completion", "sessions", "disagreements"):
        assert f'<table class="{table}">' in dom
    assert dom.count("<svg") == 3 and dom.count('class="heat-map"') == 2 and 'class="histogram"' in dom
    assert dom.count("<tr>") > 20
    assert "<td>next tuesday morning</td><td>next tuesday</td>" in dom  # the top disagreement, both sides
    assert screenshot(report, tmp_path / "report.png") == []


@needs_chromium
@pytest.mark.slow
def test_the_console_check_sees_a_page_error(tmp_path):
    # The check above can fail: a page that throws is caught by the same reading of chromium's log.
    page = tmp_path / "broken.html"
    page.write_text("<html><body><p>x</p><script>notDefinedAnywhere();</script></body></html>")
    messages = screenshot(page, tmp_path / "broken.png")
    assert any("notDefinedAnywhere" in line for line in messages)


@needs_chromium
@pytest.mark.slow
def test_the_screenshot_is_not_blank_and_shows_the_heat_map(team_run, tmp_path):
    report, _figures = team_run
    png = tmp_path / "report.png"
    screenshot(report, png)
    width, height, rows = png_pixels(png)
    assert (width, height) == (1280, 900)
    pixels = [row[x : x + 3] for row in rows for x in range(0, len(row), 3)]
    white = sum(pixel == b"\xff\xff\xff" for pixel in pixels)
    assert white < 0.97 * len(pixels)  # text, tables and plots cover more than 3% of the page
    assert len(set(pixels)) > 50  # drawn, not one flat colour
    bluish = sum(pixel[2] > pixel[0] + 60 for pixel in pixels)  # the heat maps' and histogram's blues
    assert bluish > 2000


def test_the_report_is_self_contained(team_run):
    html = team_run[0].read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>")
    for fetching in ("<script", "<link", " src=", " href=", "url(", "@import"):
        assert fetching not in html
    assert re.findall(r"https?://[^\"' ]+", html) == ["http://www.w3.org/2000/svg"] * 3  # SVG's namespace, not a fetch


@needs_chromium
@pytest.mark.slow
def test_a_blank_page_reads_as_blank(tmp_path):
    # The not-blank check can fail: an empty page's screenshot is all white through the same decoder.
    page = tmp_path / "empty.html"
    page.write_text("<!DOCTYPE html><html><body></body></html>")
    png = tmp_path / "empty.png"
    screenshot(page, png)
    _width, _height, rows = png_pixels(png)
    assert {row[x : x + 3] for row in rows for x in range(0, len(row), 3)} == {b"\xff\xff\xff"}
