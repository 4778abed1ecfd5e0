"""The standalone build, dist/annotator/, run for real (build it first: bash packaging/build.sh).

Skipped when it has not been built: building takes about a minute and needs
PyInstaller, so it is a separate step (packaging/build.sh, which also runs
packaging/smoke_test.sh with timings).
"""

from __future__ import annotations

import os
import re
import subprocess
import tomllib
import wave
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BUILD = REPO / "dist" / "annotator"
APP = BUILD / "annotator"
INTERNAL = BUILD / "_internal"
LOG = Path("sample_logs/travel-20261121-002/travel-20261121-002-hublog.xml")
# The offscreen platform has no windows to size or raise, and says so once for each.
OFFSCREEN_NOTICE = re.compile(r"This plugin does not support [A-Za-z]+\(\)")
SYSTEM_ALSA_CONF = Path("/usr/share/alsa/alsa.conf")

pytestmark = pytest.mark.skipif(not APP.is_file(), reason="dist/annotator/ is not built (bash packaging/build.sh)")


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """The app's settings, journal and caches go to the test's own folders."""
    home = tmp_path / "home"
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700)
    return dict(
        os.environ,
        HOME=str(home),
        XDG_CONFIG_HOME=str(home / ".config"),
        XDG_DATA_HOME=str(home / ".local/share"),
        XDG_CACHE_HOME=str(home / ".cache"),
        XDG_RUNTIME_DIR=str(runtime),
        ANNOTATOR_DATA_DIR=str(tmp_path / "annotator-data"),
    )


def run(env: dict[str, str], *args: str, **extra_env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(APP), *args], capture_output=True, text=True, cwd=REPO, timeout=180, env={**env, **extra_env}
    )


def test_window_opens_on_a_log_offscreen_and_quits_cleanly(env: dict[str, str]):
    done = run(env, str(LOG), QT_QPA_PLATFORM="offscreen", ANNOTATOR_SMOKE_TEST="1")
    assert done.returncode == 0, done.stderr
    assert re.search(rf"^smoke test: opened=True turns=10 path={re.escape(str(LOG))}$", done.stdout, re.M), done.stdout
    other = [line for line in done.stderr.splitlines() if line.strip() and not OFFSCREEN_NOTICE.fullmatch(line)]
    assert not other, done.stderr  # no traceback, no Qt warning


def test_no_path_opens_the_bundled_sample_session(env: dict[str, str]):
    done = run(env, QT_QPA_PLATFORM="offscreen", ANNOTATOR_SMOKE_TEST="1")
    assert done.returncode == 0, done.stderr
    bundled = INTERNAL / "annotator/_resources/sample_session/travel-20261121-001-hublog.xml"
    assert f"smoke test: opened=True turns=12 path={bundled}" in done.stdout.splitlines()


def test_version_is_the_package_version(env: dict[str, str]):
    version = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["version"]
    done = run(env, "--version")
    assert done.returncode == 0 and done.stdout.strip() == f"annotator {version}"


def test_validate_runs_on_the_sample_logs(env: dict[str, str]):
    done = run(env, "validate", "--hide-quirks", "sample_logs")
    assert done.returncode == 0, done.stdout + done.stderr


def test_build_carries_the_resources_and_portaudio_and_not_the_unused_qt_modules():
    resources = INTERNAL / "annotator" / "_resources"
    for name in (
        "gc_log.dtd",
        "markers/communicator-kpis.yml",
        "icons/annotator-256.png",
        "README.md",
        "docs/guide.md",
        "sample_session/travel-20261121-001-hublog.xml",
    ):
        assert (resources / name).is_file(), name
    assert (INTERNAL / "libportaudio.so.2").is_file()
    present = {path.name.split(".")[0] for path in (INTERNAL / "PySide6").glob("Qt*.so")}
    assert {"QtCore", "QtGui", "QtWidgets"} <= present
    assert not present & {"QtNetwork", "QtQml", "QtQuick", "QtWebEngineCore", "QtMultimedia", "QtTest"}
    # The system's C++ runtime and ALSA, not copies (see packaging/pyinstaller/trim.py).
    assert not list(INTERNAL.glob("libstdc++.so*")) and not list(INTERNAL.glob("libasound.so*"))


def test_self_test_loads_the_bundled_portaudio_and_keeps_children_clean(env: dict[str, str]):
    done = run(env, ANNOTATOR_FROZEN_SELF_TEST="1")
    lines = done.stdout.splitlines()
    assert any(line.startswith(f"self-test: portaudio={INTERNAL / 'libportaudio.so.2'} ") for line in lines), done
    assert "self-test: audio probe child exit status 0" in lines, done
    assert any(re.fullmatch(r"self-test: validation in a child process: \d+ findings", line) for line in lines), done
    children = [line for line in lines if line.startswith("self-test: children get LD_LIBRARY_PATH=")]
    assert children and str(INTERNAL) not in children[0]  # rubberband, xdg-open get the system's libraries
    assert not [line for line in lines if "speed failed" in line]
    about = [line for line in lines if line.startswith("self-test: about: ")]
    assert about and "not available" not in about[0].split("sounddevice / PortAudio")[0], about
    assert "jiwer=" in about[0] and "PySide6 / Qt=6." in about[0]


def test_plays_through_the_bundled_portaudio(env: dict[str, str], tmp_path: Path):
    """ALSA's default output made a WAV file (as in tests/audio): the tone lands there."""
    if not SYSTEM_ALSA_CONF.exists():
        pytest.skip("ALSA's configuration (libasound2-data) is not installed")
    played = tmp_path / "played.wav"
    config = tmp_path / "asound.conf"
    config.write_text(
        f'<{SYSTEM_ALSA_CONF}>\npcm.!default {{ type file; slave.pcm "null"; file "{played}"; format "wav" }}\n',
        encoding="utf-8",
    )
    done = run(env, ANNOTATOR_FROZEN_SELF_TEST="1", ALSA_CONFIG_PATH=str(config))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "self-test: output='default' played=3200 frames" in done.stdout
    with wave.open(str(played)) as sound:
        assert sound.getnframes() >= 3200 * sound.getframerate() // 16000


def test_desktop_files_travel_with_the_build_and_install_it(env: dict[str, str]):
    script = BUILD / "desktop" / "install-user.sh"
    done = subprocess.run(["bash", str(script)], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    desktop = Path(env["XDG_DATA_HOME"]) / "applications" / "io.github.communicator_annotator.desktop"
    assert f'Exec="{APP}" %f' in desktop.read_text().splitlines()
    assert (Path(env["XDG_DATA_HOME"]) / "icons/hicolor/48x48/apps/io.github.communicator_annotator.png").is_file()


def test_parquet_export_works_in_the_build(env: dict[str, str], tmp_path: Path):
    done = run(env, "export", str(LOG), "--to", "parquet", "-o", str(tmp_path / "tables"))
    assert done.returncode == 0, done.stderr
    assert sorted(path.name for path in (tmp_path / "tables").iterdir()) == [
        "events.parquet",
        "sessions.parquet",
        "turns.parquet",
        "words.parquet",
    ]


def test_agreement_figures_work_in_the_build(env: dict[str, str], tmp_path: Path):
    """statsmodels is imported by name when a kappa is computed (the analysis cannot see it): the spec lists it."""
    header = "file,session_id,turn_id,transcription,task_completion"
    for name, completions in (("alice", "010101"), ("bob", "111100")):
        rows = [f"x.xml,s{i},,,{value}" for i, value in enumerate(completions)]
        rows += [f"x.xml,s{i},2,{name} heard {i}," for i in range(len(completions))]
        (tmp_path / f"{name}.csv").write_text("\n".join([header, *rows]) + "\n", encoding="utf-8")
    done = run(env, "agree", f"alice={tmp_path / 'alice.csv'}", f"bob={tmp_path / 'bob.csv'}")
    assert done.returncode == 0, done.stderr
    header_line, pair = done.stdout.splitlines()[:2]
    kappa = dict(zip(header_line.split("\t"), pair.split("\t")))["cohens_kappa"]
    assert kappa == "0.0000", done.stdout


def test_the_build_aligns_words_with_its_own_model_and_espeak_data(env: dict[str, str]):
    """pocketsphinx's model and espeakng-loader's library and data are files the spec collects beside their
    modules: every turn of a sample log aligns in the build."""
    assert (INTERNAL / "pocketsphinx" / "model" / "en-us" / "cmudict-en-us.dict").is_file()
    assert (INTERNAL / "espeakng_loader" / "espeak-ng-data" / "en_dict").is_file()
    assert list((INTERNAL / "espeakng_loader").glob("libespeak-ng.so*"))
    done = run(env, "align", "--jobs", "1", str(LOG))
    assert done.returncode == 0, done.stderr
    assert re.search(r"\d+ turn\(s\) aligned \(\d+ now, 0 kept from before\), 0 skipped", done.stderr), done.stderr
