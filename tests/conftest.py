"""Shared fixtures. Qt runs offscreen; tests never touch the user's real files or settings."""

from __future__ import annotations

import gc
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from tests.support.audio_sandbox import SYSTEM_ALSA_CONF, AudioSandbox, needs_alsa  # noqa: E402
from tests.support.repository import REPO, SAMPLE_LOGS, sample_log_paths  # noqa: E402
from tests.support.sample_transcriptions import transcribe  # noqa: E402


def pytest_terminal_summary(terminalreporter, config) -> None:
    """The random order's seed, last, whatever the verbosity: pytest-randomly prints it only in the
    header, which -q leaves out, and a failure that depends on the order needs it to be replayed."""
    seed = getattr(config.option, "randomly_seed", None)
    if isinstance(seed, int):
        terminalreporter.write_line(f"random order: replay it with -p randomly --randomly-seed={seed}")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Slow tests first, each group still in pytest-randomly's order (this runs after its shuffle, and the
    sort is stable, so the seed still replays the whole order). On two workers a test of a minute or more
    drawn last would run alone at the end; drawn first, the short tests fill the other worker meanwhile."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


def _qt_application():
    """The process's QApplication, or None when no test has made one (Qt is not even imported then)."""
    core = sys.modules.get("PySide6.QtCore")
    return None if core is None else core.QCoreApplication.instance()


@pytest.fixture(scope="session", autouse=True)
def background_work_ends_before_the_process():
    """The work a window's last tasks left running on Qt's shared pool ends before the interpreter does, as
    the application waits for it (gui/app.end_process): PySide's clean-up at exit destroys every Qt object
    Python owns, letting the GIL go around each destructor, and a pool thread still running Python then races
    with it."""
    yield
    if _qt_application() is not None:
        sys.modules["PySide6.QtCore"].QThreadPool.globalInstance().waitForDone()


@pytest.fixture(autouse=True)
def collection_on_the_main_thread_once_qt_is_up():
    """As in the application (gui/runtime/collector.py): once this process has a QApplication, Python's automatic
    collector stays off for the rest of its life, whichever test runs (the order is random, the GUI tests
    and the others interleave). Left on, it runs on whichever thread happens to allocate (a pool thread a
    closed window left running, a cluster's thread) and frees there the Qt objects in reference cycles, which
    must go on the thread that made them. What each test leaves is collected here, on the main thread,
    generation by generation as the collector's thresholds call for it (a full collection after every test
    would cost minutes over the suite)."""
    yield
    if _qt_application() is None:
        return
    gc.disable()
    counts, thresholds = gc.get_count(), gc.get_threshold()
    due = [generation for generation in range(3) if counts[generation] > thresholds[generation]]
    if due:
        gc.collect(due[-1])


@pytest.fixture(scope="session", autouse=True)
def session_user_data(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Module- and session-wide fixtures run before any test's own folders exist: they get a run-wide pair, so a
    command they start never meets the user's real journal or an index an older version left in the real cache."""
    folder = tmp_path_factory.mktemp("session-user")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ANNOTATOR_DATA_DIR", str(folder / "data"))
        patch.setenv("ANNOTATOR_CACHE_DIR", str(folder / "cache"))
        yield


@pytest.fixture(autouse=True)
def isolated_user_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The recovery journal (and any other per-user data) and the corpus index (the user's cache)
    go to the test's own folders."""
    folder = tmp_path / "user-data"
    monkeypatch.setenv("ANNOTATOR_DATA_DIR", str(folder))
    monkeypatch.setenv("ANNOTATOR_CACHE_DIR", str(tmp_path / "user-cache"))
    return folder


@pytest.fixture
def sample_logs() -> list[Path]:
    """The bundled sample logs, read-only: copy before changing them (see corpus)."""
    paths = sample_log_paths()
    assert len(paths) >= 3, "sample_logs/ must hold at least three sessions"
    return paths


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    """A writable copy of sample_logs/ (logs and audio) in a temporary folder."""
    target = tmp_path / "corpus"
    shutil.copytree(SAMPLE_LOGS, target)
    return target


@pytest.fixture
def annotated_log(corpus: Path) -> Path:
    return corpus / "travel-20261121-001" / "travel-20261121-001-hublog.xml"


@pytest.fixture
def absolute_audio_log(corpus: Path) -> Path:
    return corpus / "travel-20261121-002" / "travel-20261121-002-hublog.xml"


@pytest.fixture
def latin1_log(corpus: Path) -> Path:
    return corpus / "travel-20261121-003" / "travel-20261121-003-hublog.xml"


@pytest.fixture
def transcribed_corpus(corpus: Path) -> Path:
    """The sample logs (copies) with transcriptions folded into 002 and 003 too (001 comes annotated): for the
    exports and imports of dialogue formats (tests/export, tests/imports)."""
    return transcribe(corpus)


@pytest.fixture
def audio_sink(tmp_path: Path) -> AudioSandbox:
    """Real playback into a file, for the audio tests and the GUI's: the default ALSA output writes to
    tmp_path/played.wav instead of a sound card (tests/support/audio_sandbox.py)."""
    needs_alsa()
    played = tmp_path / "played.wav"
    config = tmp_path / "asound.conf"
    config.write_text(
        f'<{SYSTEM_ALSA_CONF}>\npcm.!default {{ type file; slave.pcm "null"; file "{played}"; format "wav" }}\n',
        encoding="utf-8",
    )
    return AudioSandbox(config, played)


_LOCAL_CLUSTER = """
import sys
from dask.distributed import LocalCluster
with LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None) as cluster:
    print(cluster.scheduler_address, flush=True)
    sys.stdin.readline()  # until the test closes our stdin
"""


@pytest.fixture(scope="module")
def cluster():
    """A LocalCluster of 2 worker processes for the tests of --scheduler (tests/corpus, tests/corpus_index), in a
    process of its own: Dask's threads (its event loop, its offload pool) then never share the test process with
    the Qt tests that run after these."""
    pytest.importorskip("dask.distributed")
    process = subprocess.Popen(
        [sys.executable, "-c", _LOCAL_CLUSTER],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        cwd=REPO,
    )
    try:
        address = process.stdout.readline().strip()
        assert address.startswith("tcp://"), "the cluster did not start"
        yield address
    finally:
        process.stdin.close()
        process.wait(timeout=60)


@pytest.fixture(scope="module")
def small_corpus(tmp_path_factory) -> Path:
    """Three copies of the sample logs, one with a truncated log beside them: what the cluster runs on."""

    root = tmp_path_factory.mktemp("cluster-corpus")
    for copy in range(3):
        shutil.copytree(SAMPLE_LOGS, root / f"site-{copy}")
    (root / "site-1" / "a-truncated-hublog.xml").write_text('<?xml version="1.0"?>\n<GC_LOG>\n')
    return root
