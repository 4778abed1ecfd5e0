"""The workers of a dask.distributed scheduler as a FileMap (annotator.corpus.parallel), and everything
that can go wrong there said in one line, exit status 2:

- an address that is not tcp://HOST:PORT (tls://, ucx://... need settings the command line does not take)
  is refused before anything starts;
- nobody listening is said at once, and no answer within PROBE_SECONDS: a socket is opened to the
  scheduler's port before dask is even imported, where the Client alone would retry for its whole timeout;
- whatever a worker raises on a file (a bug, a RecursionError, MemoryError) comes back as that file's
  error, as text: an exception travelling with its traceback can be one that distributed cannot
  rebuild, and the run then waited forever for a result that never came;
- a task that fails outside the work (a worker that died, workers without annotator installed) names
  the first file of its chunk; a scheduler lost mid-run stops the run with one line.

distributed's own log records (tracebacks on stderr) are held back while the map runs: what they say
reaches the user as that one line. dask is imported only here.
"""

from __future__ import annotations

import importlib.util
import logging
import os
import queue
import socket
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from annotator.corpus.chunks import IN_FLIGHT_PER_WORKER, Outcome, chunks_of, in_order
from annotator.errors import AnnotatorError
from annotator.progress import Progress

T = TypeVar("T")

NEEDS_DASK = "--scheduler needs dask.distributed: pip install 'communicator-annotator[cluster]'"
PROBE_SECONDS = 3.0  # a scheduler's port that has not answered by then is not going to
HANDSHAKE_SECONDS = 20  # the Client's own timeout, once the port has answered
CLOSE_SECONDS = 5  # closing the client, which after a lost scheduler would wait for it
_LOGGERS = ("distributed", "tornado", "bokeh", "asyncio")


class WorkFailed(AnnotatorError):
    """What a worker raised on PATH, other than an AnnotatorError, as one line of text."""

    def __init__(self, path: str | Path, failure: str):
        self.path = str(path)
        self.failure = failure
        super().__init__(f"{self.path}: the work on this file failed on a Dask worker ({failure})")

    def __reduce__(self):
        return type(self), (self.path, self.failure)


def outcomes_on_worker(work: Callable[[Path], T], paths: Sequence[Path]) -> list[T | AnnotatorError]:
    """WORK on each of PATHS, on a worker: its result, its AnnotatorError, or WorkFailed for anything else."""
    outcomes: list[T | AnnotatorError] = []
    for path in paths:
        try:
            outcomes.append(work(path))
        except AnnotatorError as error:
            outcomes.append(error)
        except Exception as error:  # noqa: BLE001 - any bug of the work becomes this file's one line
            outcomes.append(WorkFailed(path, _described(error)))
    return outcomes


def scheduler_endpoint(address: str) -> tuple[str, int]:
    """The host and port of a tcp:// ADDRESS (or HOST:PORT); AnnotatorError for anything else."""
    scheme, separator, rest = address.strip().partition("://")
    if not separator:
        scheme, rest = "tcp", address.strip()
    if scheme != "tcp":
        raise AnnotatorError(
            f"--scheduler {address}: {scheme}:// addresses are not supported; give the "
            "scheduler's tcp://HOST:PORT address"
        )
    if rest.startswith("["):  # [IPv6]:PORT
        host, _, port = rest[1:].partition("]")
        port = port.removeprefix(":") if port.startswith(":") else ""
    else:
        host, _, port = rest.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise AnnotatorError(
            f"--scheduler {address}: not a scheduler address; expected tcp://HOST:PORT, e.g. tcp://127.0.0.1:8786"
        )
    return host, int(port)


def probe(address: str, host: str, port: int) -> None:
    """Raise AnnotatorError unless something accepts a connection at HOST:PORT within PROBE_SECONDS."""
    unreachable = f"--scheduler {address}: cannot reach the Dask scheduler"
    try:
        with socket.create_connection((host, port), timeout=PROBE_SECONDS):
            return
    except ConnectionRefusedError:
        raise AnnotatorError(f"{unreachable}: nothing listens at {host}:{port} (connection refused)") from None
    except socket.gaierror as error:
        raise AnnotatorError(f"{unreachable}: unknown host {host!r} ({error.strerror or error})") from None
    except TimeoutError:
        raise AnnotatorError(f"{unreachable}: no answer from {host}:{port} within {PROBE_SECONDS:g} s") from None
    except OSError as error:
        raise AnnotatorError(f"{unreachable}: {error.strerror or error}") from None


class DaskMap:
    """WORK on the workers of the dask.distributed scheduler at ADDRESS (checked here, before any work).

    What travels to the workers is WORK (by reference: the workers must import the same annotator)
    and each file's absolute path, which they must see on a shared file system; what comes back is
    each file's result. Absolute, because a worker runs in a folder of its own: a relative path would
    name another file there, or none."""

    def __init__(self, address: str):
        self.address = address
        self.host, self.port = scheduler_endpoint(address)

    def __call__(
        self, work: Callable[[Path], T], paths: Sequence[Path], progress: Progress | None = None
    ) -> Iterator[Outcome]:
        if not _dask_installed():  # said before dialling the address
            raise AnnotatorError(NEEDS_DASK)
        probe(self.address, self.host, self.port)
        distributed = _import_distributed()
        with _quiet_logs():
            try:
                client = distributed.Client(self.address, timeout=f"{HANDSHAKE_SECONDS}s")
            except Exception as error:  # noqa: BLE001 - OSError, TimeoutError, or whatever the comm raises
                raise AnnotatorError(
                    f"--scheduler {self.address}: cannot reach the Dask scheduler: {_described(error)}"
                ) from None
            try:
                workers = max(1, sum(client.nthreads().values()))
                chunks = chunks_of(paths, workers)
                finished: queue.SimpleQueue = queue.SimpleQueue()

                def submit(index: int) -> Any:
                    chunk = [paths[i] for i in chunks[index]]
                    sent = [Path(os.path.abspath(path)) for path in chunk]
                    future = client.submit(outcomes_on_worker, work, sent, pure=False)
                    future.add_done_callback(lambda _: finished.put(index))
                    return chunk[0], future

                yield from in_order(
                    paths, chunks, submit, finished.get, self._chunk_result, workers * IN_FLIGHT_PER_WORKER, progress
                )
            except AnnotatorError:
                raise
            except Exception as error:  # noqa: BLE001 - the connection lost while submitting or asking
                raise self._lost(error) from None
            finally:
                _close(client)

    def _chunk_result(self, handle: tuple[Path, Any]) -> list:
        first, future = handle
        try:
            return future.result()
        except Exception as error:  # noqa: BLE001 - the task failed outside the work itself
            if future.status == "cancelled" or "connection" in str(error).lower():
                raise self._lost(error) from None
            if type(error).__name__ == "KilledWorker":
                raise AnnotatorError(
                    f"{first}: the Dask workers that took this file died (killed, or out of memory?); the run stopped"
                ) from None
            raise AnnotatorError(
                f"{first}: the Dask workers could not run the work on this file "
                f"({_described(error)}; do they have this version of annotator installed?)"
            ) from None

    def _lost(self, error: BaseException) -> AnnotatorError:
        return AnnotatorError(
            f"--scheduler {self.address}: lost the connection to the Dask scheduler during "
            f"the run ({type(error).__name__}); the run stopped"
        )


def _described(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text[:300]}" if text else type(error).__name__


def _close(client: Any) -> None:
    try:
        client.close(timeout=CLOSE_SECONDS)
    except Exception:  # noqa: BLE001, S110 - a client whose scheduler is gone may fail to close; nothing is lost
        pass


@contextmanager
def _quiet_logs() -> Iterator[None]:
    """distributed's, tornado's and asyncio's handlers print nothing meanwhile (the caller says it in one line)."""
    handlers = [handler for name in _LOGGERS for handler in logging.getLogger(name).handlers]
    levels = [handler.level for handler in handlers]
    last_resort = logging.lastResort  # what prints the records of loggers that have no handler
    for handler in handlers:
        handler.setLevel(logging.CRITICAL + 1)
    logging.lastResort = logging.NullHandler()
    try:
        yield
    finally:
        logging.lastResort = last_resort
        for handler, level in zip(handlers, levels):
            handler.setLevel(level)


def _dask_installed() -> bool:
    try:
        return all(importlib.util.find_spec(name) is not None for name in ("dask", "distributed"))
    except (ImportError, ValueError):
        return False


def _import_distributed():
    try:
        import dask.distributed as distributed
    except ImportError:
        raise AnnotatorError(NEEDS_DASK) from None
    return distributed
