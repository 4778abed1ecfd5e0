"""--jobs N gives the same output as a serial run, for every corpus-wide command, and a bad log
stops none of the others: each is one line, a last line names them all, exit status 2.

The corpus is the sample sessions copied eight times (24 logs whose session ids repeat, so the
numbering of occurrences across logs is exercised), run in this process through the real
command line, with the per-file work in 2 worker processes or serially.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from annotator.cli.main import main
from tests.support.corpus_commands import WRITERS
from tests.support.repository import SAMPLE_LOGS

COPIES = 8


@pytest.fixture(scope="module")
def corpora(tmp_path_factory) -> dict[str, Path]:
    """ "good": 24 readable logs; "bad": the same and two logs that cannot be read, sorted among them."""
    root = tmp_path_factory.mktemp("corpora")
    good = root / "good"
    for copy in range(COPIES):
        shutil.copytree(SAMPLE_LOGS, good / f"site-{copy}")
    bad = root / "bad"
    shutil.copytree(good, bad)
    (bad / "site-0" / "a-truncated-hublog.xml").write_text('<?xml version="1.0"?>\n<GC_LOG>\n  <GC_SESSION id="x">\n')
    (bad / "site-5" / "not-a-log.xml").write_text("<html/>\n")
    return {"good": good, "bad": bad}


def bad_logs(corpora) -> list[Path]:
    return [corpora["bad"] / "site-0" / "a-truncated-hublog.xml", corpora["bad"] / "site-5" / "not-a-log.xml"]


def run(argv: list, capsys) -> tuple[int, str, str]:
    capsys.readouterr()
    status = main([str(arg) for arg in argv])
    out, err = capsys.readouterr()
    return status, out, err


def read_outputs(folder: Path) -> dict[str, bytes]:
    return {
        path.relative_to(folder).as_posix(): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()
    }


@pytest.mark.parametrize("command", ["info", "validate"])
def test_reports_are_the_same_with_two_processes(corpora, capsys, command: str):
    serial = run([command, corpora["good"], "--jobs", "1"], capsys)
    assert serial[0] in (0, 1) and serial[1].count(str(corpora["good"])) >= 3 * COPIES
    assert run([command, corpora["good"], "--jobs", "2"], capsys) == serial


@pytest.mark.parametrize("command", ["info", "validate"])
def test_a_bad_log_stops_none_of_the_others(corpora, capsys, command: str):
    status, out, err = run([command, corpora["bad"], "--jobs", "2"], capsys)
    assert status == 2
    good = run([command, corpora["good"], "--jobs", "1"], capsys)[1]
    assert out.count("travel-20261121-00") == good.count("travel-20261121-00"), "every readable log is reported"
    first, second = bad_logs(corpora)
    lines = err.splitlines()
    if command == "info":  # the unreadable logs are lines of stderr, as a single one always was
        assert lines[0].startswith(f"annotator: {first}:4:1:") and lines[1].startswith(
            f"annotator: {second}:1: not a Communicator log"
        )
    else:  # validate lists them with the findings, file:line:column: error: reason
        assert f"{first}:4:1:" in out and f"{second}:1: error:" in out
    assert lines[-1] == f"annotator: 2 files could not be read: {first}, {second}"
    assert run([command, corpora["bad"], "--jobs", "1"], capsys) == (status, out, err)


@pytest.mark.parametrize("command", WRITERS)
@pytest.mark.slow
def test_outputs_are_the_same_bytes_with_two_processes(corpora, tmp_path: Path, capsys, command: str):
    out = tmp_path / "out"  # the same folder for both runs: ConvLab's preprocess.py names it
    outputs = []
    for jobs in ("1", "2"):
        out.mkdir()
        status, _, err = run([*WRITERS[command](corpora["good"], out), "--jobs", jobs], capsys)
        assert status == 0, err
        outputs.append((read_outputs(out), err))
        shutil.rmtree(out)
    assert outputs[0][0], "something was written"
    assert outputs[1] == outputs[0]


@pytest.mark.parametrize("command", WRITERS)
@pytest.mark.slow
def test_bad_logs_are_all_named_and_nothing_is_written(corpora, tmp_path: Path, capsys, command: str):
    out = tmp_path / "out"
    out.mkdir()
    results = [run([*WRITERS[command](corpora["bad"], out), "--jobs", jobs], capsys) for jobs in ("1", "2")]
    assert list(out.iterdir()) == [], "all or nothing: nothing written"
    first, second = bad_logs(corpora)
    status, _, err = results[0]
    lines = err.splitlines()
    assert status == 2 and len(lines) == 3, err
    assert lines[0].startswith(f"annotator: {first}:4:1:") and lines[1].startswith(
        f"annotator: {second}:1: not a Communicator log"
    )
    assert lines[2] == f"annotator: 2 files could not be read: {first}, {second}; nothing written"
    assert results[1] == results[0]


def test_jobs_and_scheduler_exclude_each_other(corpora, capsys):
    with pytest.raises(SystemExit) as exited:
        main(["info", str(corpora["good"]), "--jobs", "2", "--scheduler", "tcp://127.0.0.1:1"])
    assert exited.value.code == 2 and "not allowed with argument" in capsys.readouterr().err


@pytest.mark.parametrize("jobs", ["0", "-1", "two"])
def test_jobs_is_a_number_of_processes(corpora, capsys, jobs: str):
    with pytest.raises(SystemExit) as exited:
        main(["info", str(corpora["good"]), f"--jobs={jobs}"])
    assert exited.value.code == 2 and "is not a number of processes from 1" in capsys.readouterr().err


def test_without_dask_the_scheduler_is_one_line(corpora):
    script = (
        "import sys; sys.modules['dask'] = None; from annotator.cli.main import main; "
        f"sys.exit(main(['info', {str(corpora['good'])!r}, '--scheduler', 'tcp://127.0.0.1:1']))"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout) == (2, "")
    assert (
        done.stderr == "annotator: --scheduler needs dask.distributed: pip install 'communicator-annotator[cluster]'\n"
    )


def test_the_scheduler_comes_from_the_environment_unless_jobs_is_given(corpora, capsys, monkeypatch):
    monkeypatch.setenv("DASK_SCHEDULER_ADDRESS", "tcp://127.0.0.1:1")
    monkeypatch.setitem(sys.modules, "dask", None)  # so the address is not dialled: the error says dask is needed
    status, _, err = run(["info", corpora["good"] / "site-0"], capsys)
    assert status == 2 and "--scheduler needs dask.distributed" in err
    status, out, err = run(["info", corpora["good"] / "site-0", "--jobs", "1"], capsys)
    assert status == 0 and err == "" and out.count("session ") == 3
