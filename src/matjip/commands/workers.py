"""``matjip serve --workers N``: N worker processes on one port, and a supervisor that keeps N up.

One Python process tops out at what one core does (the GIL); N workers use N cores.

* **One port, balanced.** Each worker listens on its own socket bound to the same address with
  ``SO_REUSEPORT``: the kernel spreads new connections over the workers' sockets. (One socket
  shared by every worker balances badly under a burst: the worker that wakes first accepts every
  waiting connection, and keep-alive clients then stay on it.) The supervisor binds the address
  first, without listening, so a port in use fails at once and ``--port 0`` picks one port for all.
* **Restarts.** A worker that exits (crash, ``kill -9``, out of memory) is started again; one
  that fails while starting (its port, its app) stops the server with an error instead of
  looping. SIGINT/SIGTERM stop every worker gracefully (SIGKILL after ``STOP_S``).
* Each worker builds its own app from the same settings (they travel to the spawned process), so
  each opens the index itself: on the embedded backend its files are memory-mapped and the page
  cache holds them once for every worker. Sessions are the data directory's SQLite files (WAL),
  shared by the workers of one machine, or PostgreSQL.
* **One session writer.** On SQLite the supervisor also starts a writer process
  (:mod:`matjip.agent.session_writer`): every worker's turns send their checkpoint rows to it over
  a Unix socket and it writes them in group commits, so no worker waits for another's write lock.
  It is started again when it dies; meanwhile (and for a row it lost) the workers write themselves.
"""

from __future__ import annotations

import logging
import multiprocessing
import shutil
import signal
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from matjip.settings import Settings

log = logging.getLogger("matjip.api")

STARTUP_FAILURE = 3  # a worker's exit status when it could not start serving (uvicorn's)
RESTART_PAUSE_S = 1.0  # at most one restart per worker per second
STOP_S = 15.0  # graceful stop (uvicorn's 5 s for open requests, and closing) before SIGKILL


def reuse_port_socket(host: str, port: int, *, listen: bool, backlog: int = 2048) -> socket.socket:
    """A TCP socket bound to (host, port) with ``SO_REUSEPORT``: listening (a worker's), or only
    bound (the supervisor's, which reserves the port and resolves port 0).

    Made with ``proto=IPPROTO_TCP``: asyncio sets ``TCP_NODELAY`` on accepted connections only
    when the listener says so; without it every streamed chunk on a keep-alive connection waits
    ~40 ms for a delayed ACK (uvicorn issue #3149, its ``--workers`` has it)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind((host, port))
        if listen:
            sock.listen(backlog)
    except OSError:
        sock.close()
        raise
    return sock


def worker_main(
    settings: Settings, host: str, port: int, log_level: str, access_log: bool, writer: str | None = None
) -> None:
    """One worker (a spawned process): the app on its own ``SO_REUSEPORT`` socket; its session
    rows go to the session writer at ``writer`` (a Unix socket) when there is one."""
    import uvicorn

    from matjip.agent.session_writer import use_writer
    from matjip.api import create_app
    from matjip.commands.server import LOG_FORMAT, uvicorn_config

    logging.basicConfig(level=log_level.upper(), format=LOG_FORMAT)
    use_writer(writer)
    try:
        sock = reuse_port_socket(host, port, listen=True)
    except OSError as exc:
        log.error("worker cannot listen on %s:%d: %s", host, port, exc)
        sys.exit(STARTUP_FAILURE)
    config = uvicorn_config(
        settings, create_app(settings), host, port, log_level=log_level, access_log=access_log
    )
    server = uvicorn.Server(config)
    server.run(sockets=[sock])
    if not server.started:
        sys.exit(STARTUP_FAILURE)


def writer_main(sessions_path: Path, address: str, max_age_days: float, ready: Any = None) -> None:
    """The session writer (a spawned process), serving until terminated. Ctrl-C reaches the whole
    process group: the writer ignores it and is stopped after the workers, so the turns they finish
    while stopping are still written by it."""
    from matjip.agent.checkpoints import SqliteCheckpoints
    from matjip.agent.retention import Retention
    from matjip.agent.service import open_sessions
    from matjip.agent.session_writer import Writer

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    store = SqliteCheckpoints(open_sessions(sessions_path))
    Retention(store, max_age_days)  # its rows go into every batch (on_put)
    writer = Writer(store, address)
    if ready is not None:
        ready.set()
    try:
        writer.serve_forever()
    finally:
        writer.close()


class Supervisor:
    """Starts ``workers`` worker processes and keeps that many running until told to stop."""

    def __init__(
        self, settings: Settings, host: str, port: int, workers: int, *, log_level: str, access_log: bool
    ) -> None:
        self.settings = settings
        self.host = host
        self.port = port
        self.workers = workers
        self.log_level = log_level
        self.access_log = access_log
        self.stop = threading.Event()
        self.failed = False
        self._ctx = multiprocessing.get_context("spawn")  # no fork of a process with threads
        self._procs: list[Any] = []
        self._writer: Any = None
        self._writer_dir: str | None = None
        self.writer_address: str | None = None
        if settings.database_url is None:  # sessions in sessions.sqlite: one writer for all workers
            self._writer_dir = tempfile.mkdtemp(prefix="matjip-")  # a short path (Unix sockets: 107 bytes)
            self.writer_address = str(Path(self._writer_dir) / "sessions.sock")

    def _start(self) -> Any:
        proc = self._ctx.Process(
            target=worker_main,
            args=(self.settings, self.host, self.port, self.log_level, self.access_log, self.writer_address),
            name="matjip-worker",
        )
        proc.start()
        log.info("worker started [%d]", proc.pid)
        return proc

    def _start_writer(self) -> None:
        """The session writer, started and listening (or, if it does not come up within a minute or
        exits first, none from then on: the workers write themselves)."""
        if self.writer_address is None:
            return
        self.settings.data_dir.mkdir(parents=True, exist_ok=True)
        ready = self._ctx.Event()
        args = (self.settings.sessions_path, self.writer_address, self.settings.session_max_age_days, ready)
        self._writer = self._ctx.Process(target=writer_main, args=args, name="matjip-session-writer")
        self._writer.start()
        deadline = time.monotonic() + 60
        while not ready.wait(0.1) and self._writer.is_alive() and time.monotonic() < deadline:
            pass
        if ready.is_set():
            log.info("session writer started [%d]", self._writer.pid)
            return
        # one that cannot start (its socket, its database) is not started again every second
        log.warning("the session writer did not start: the workers write their sessions themselves")
        if self._writer.is_alive():
            self._writer.kill()
        self._writer.join()
        self._writer = None

    def _keep_writer(self) -> None:
        if self._writer is not None and not self._writer.is_alive() and not self.stop.is_set():
            self._writer.join()
            log.warning(
                "session writer [%d] exited (%s); starting another", self._writer.pid, self._writer.exitcode
            )
            time.sleep(RESTART_PAUSE_S)
            self._start_writer()

    def run(self) -> int:
        """Serve until SIGINT/SIGTERM; the exit status (non-zero when a worker could not start)."""
        reserved = reuse_port_socket(self.host, self.port, listen=False)
        self.port = int(reserved.getsockname()[1])
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: self.stop.set())
        started = [0.0] * self.workers
        try:
            self._start_writer()
            for i in range(self.workers):
                self._procs.append(self._start())
                started[i] = time.monotonic()
            while not self.stop.wait(0.2):
                self._keep_writer()
                for i, proc in enumerate(self._procs):
                    if proc.is_alive():
                        continue
                    proc.join()
                    if proc.exitcode == STARTUP_FAILURE:
                        log.error("worker [%d] could not start; stopping", proc.pid)
                        self.failed = True
                        self.stop.set()
                        break
                    log.warning("worker [%d] exited (%s); starting another", proc.pid, proc.exitcode)
                    time.sleep(max(0.0, started[i] + RESTART_PAUSE_S - time.monotonic()))
                    self._procs[i] = self._start()
                    started[i] = time.monotonic()
        finally:
            self._shutdown()
            reserved.close()
        return 1 if self.failed else 0

    def _shutdown(self) -> None:
        for proc in self._procs:
            if proc.is_alive():
                proc.terminate()  # SIGTERM: uvicorn finishes open requests (up to 5 s)
        deadline = time.monotonic() + STOP_S
        for proc in self._procs:
            proc.join(max(0.0, deadline - time.monotonic()))
            if proc.is_alive():
                proc.kill()
                proc.join()
        log.info("all workers stopped")
        if self._writer is not None and self._writer.is_alive():  # after the workers: their last turns
            self._writer.terminate()
            self._writer.join(STOP_S)
            if self._writer.is_alive():
                self._writer.kill()
                self._writer.join()
        if self._writer_dir is not None:
            shutil.rmtree(self._writer_dir, ignore_errors=True)
