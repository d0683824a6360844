"""One writer process for the session writes of every worker (``matjip serve --workers N``).

Each worker used to write its turns' checkpoints into ``sessions.sqlite`` itself, the workers
taking turns on the machine's writer lock (``sessions.sqlite.writer``) and SQLite's. The lock's
hold was hardly the statements' own work (a batch takes ~0.4 ms in a process of its own) but the
writing thread waiting for its process's GIL and a core after each SQLite call, while the other
worker's finished turns waited for the lock, holding their turn threads (a save took 17–21 ms of
a ~28 ms turn with two workers).

Now the supervisor starts a writer process beside the workers. A worker's turn sends its row (the
checkpoint already serialized, with the checkpoint it started from) over a Unix socket and waits
for the answer without the GIL; the writer queues it into the same group commit
(:class:`~matjip.agent.checkpoints.SqliteCheckpoints`: the writer lock, ``BEGIN IMMEDIATE``, every
queued row compared and set in one statement, the retention rows, the commit) and answers once the
transaction with it committed — or that the session moved on (``ConversationMoved``, a 409 as
before). The writer's thread holds the locks with nobody in its process to wait for.

Nothing is lost when a process dies: a worker killed mid-turn never reported the turn done (its
``end`` goes out after the writer's answer); when the writer dies (``kill -9``) a worker's turn that
finds no writer, or loses it mid-request, writes its row itself as before (the compare and set
accepts a row that is already the session's latest, so a row the writer committed just before it
died is not reported as overtaken), and the supervisor starts a new writer.
"""

from __future__ import annotations

import contextlib
import logging
import os
import selectors
import socket
import struct
import threading
from typing import Any

import ormsgpack

from matjip.agent.checkpoints import SqliteCheckpoints
from matjip.errors import ConversationMoved

log = logging.getLogger("matjip.api")

_LENGTH = struct.Struct("!I")
OK, MOVED, FAILED = 0, 1, 2  # the writer's answers
# a writer that does not answer within this (stopped, swapped out) is given up on: the worker writes
# the row itself (should the writer still write it later, it finds the session moved on, or the same row)
ANSWER_TIMEOUT_S = 10.0

_address: str | None = None  # this process's writer (set in a worker by the supervisor's start)


class WriterUnavailable(Exception):
    """No writer answered (none running, or it died mid-request): the row is written locally."""


def use_writer(address: str | None) -> None:
    """This process's session writes go to the writer at ``address`` (a worker of ``matjip serve
    --workers N``; ``None``: written by the process itself)."""
    global _address
    _address = address


def writer_client() -> WriterClient | None:
    """A client of this process's writer, or ``None`` when it writes its sessions itself."""
    return WriterClient(_address) if _address else None


def _send(sock: socket.socket, payload: bytes) -> None:
    sock.sendall(_LENGTH.pack(len(payload)) + payload)


def _recv_exactly(sock: socket.socket, n: int) -> bytes | None:
    parts, left = [], n
    while left:
        part = sock.recv(min(left, 1 << 20))
        if not part:
            return None
        parts.append(part)
        left -= len(part)
    return b"".join(parts)


def _recv(sock: socket.socket) -> bytes | None:
    head = _recv_exactly(sock, _LENGTH.size)
    if head is None:
        return None
    return _recv_exactly(sock, _LENGTH.unpack(head)[0])


class WriterClient:
    """A worker's side: one connection per writing thread at a time (idle ones are kept)."""

    def __init__(self, address: str, timeout_s: float = ANSWER_TIMEOUT_S) -> None:
        self.address = address
        self.timeout_s = timeout_s
        self._idle: list[socket.socket] = []
        self._lock = threading.Lock()

    def write(self, row: tuple[Any, ...], parent: str) -> None:
        """Write ``row`` (a checkpoint row, :class:`SqliteCheckpoints`'s) through the writer; returns
        once its transaction committed. Raises :class:`ConversationMoved` when the session moved
        on, :class:`WriterUnavailable` when no writer answered (nothing known to be written)."""
        with self._lock:
            sock = self._idle.pop() if self._idle else None
        try:
            if sock is None:
                sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                sock.settimeout(self.timeout_s)
                sock.connect(self.address)
            _send(sock, ormsgpack.packb([*row, parent]))
            answer = _recv(sock)
        except OSError as exc:
            if sock is not None:
                sock.close()
            raise WriterUnavailable(str(exc)) from exc
        if answer is None:
            sock.close()
            raise WriterUnavailable("the session writer closed the connection")
        with self._lock:
            self._idle.append(sock)
        status, message = ormsgpack.unpackb(answer)
        if status == MOVED:
            raise ConversationMoved(message)
        if status != OK:
            raise WriterUnavailable(message)

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
        for sock in idle:
            sock.close()


class Writer:
    """The writer process's side: one thread that reads every worker connection that has requests
    (``selectors``), writes all the rows read in one :class:`SqliteCheckpoints` batch (one
    transaction, with its retention rows) and answers each. Rows that arrive while a batch is
    written wait in their sockets and make the next batch: a group commit across the workers, with
    no thread hand-off (nor GIL hand-back) per row."""

    def __init__(self, store: SqliteCheckpoints, address: str) -> None:
        self.store = store
        self.address = address
        with contextlib.suppress(FileNotFoundError):
            os.unlink(address)  # a writer that died left its socket file
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(address)
        self.listener.listen(256)
        self._selector = selectors.DefaultSelector()
        self._buffers: dict[socket.socket, bytearray] = {}
        self._closed = False

    def serve_forever(self) -> None:
        self.listener.setblocking(False)
        self._selector.register(self.listener, selectors.EVENT_READ)
        while not self._closed:
            try:
                ready = self._selector.select(timeout=1.0)
            except (OSError, ValueError):  # closed
                return
            batch: list[tuple[socket.socket, bytes]] = []
            for key, _ in ready:
                if key.fileobj is self.listener:
                    for conn in self._accept():  # a new connection's first request may be there already
                        batch += self._read(conn)
                else:
                    batch += self._read(key.fileobj)  # type: ignore[arg-type]
            if batch:
                self._write(batch)

    def _accept(self) -> list[socket.socket]:
        accepted: list[socket.socket] = []
        with contextlib.suppress(BlockingIOError, OSError):
            while True:
                conn, _ = self.listener.accept()
                conn.setblocking(False)
                self._buffers[conn] = bytearray()
                self._selector.register(conn, selectors.EVENT_READ)
                accepted.append(conn)
        return accepted

    def _read(self, conn: socket.socket) -> list[tuple[socket.socket, bytes]]:
        """The whole requests ``conn`` has sent so far (a worker sends one and waits for its answer)."""
        buffer = self._buffers[conn]
        try:
            while True:
                part = conn.recv(1 << 20)
                if not part:
                    self._drop(conn)
                    return []
                buffer += part
        except BlockingIOError:
            pass
        except OSError:
            self._drop(conn)
            return []
        requests = []
        while len(buffer) >= _LENGTH.size:
            (n,) = _LENGTH.unpack_from(buffer)
            if len(buffer) < _LENGTH.size + n:
                break
            requests.append((conn, bytes(buffer[_LENGTH.size : _LENGTH.size + n])))
            del buffer[: _LENGTH.size + n]
        return requests

    def _write(self, batch: list[tuple[socket.socket, bytes]]) -> None:
        rows = []
        for conn, request in list(batch):
            try:
                *row, parent = ormsgpack.unpackb(request)
            except (ormsgpack.MsgpackDecodeError, TypeError, ValueError):  # not a worker's: dropped
                batch.remove((conn, request))
                self._drop(conn)
                continue
            rows.append((tuple(row), str(parent)))
        errors = self.store.write_rows(rows)
        for (conn, _), error in zip(batch, errors, strict=True):
            if error is None:
                answer = [OK, ""]
            else:
                answer = [MOVED if isinstance(error, ConversationMoved) else FAILED, str(error)]
            try:  # a few bytes into an empty socket buffer (the worker waits for them): never blocks
                _send(conn, ormsgpack.packb(answer))
            except OSError:
                self._drop(conn)

    def _drop(self, conn: socket.socket) -> None:
        if self._buffers.pop(conn, None) is not None:
            with contextlib.suppress(KeyError, ValueError):
                self._selector.unregister(conn)
            conn.close()

    def close(self) -> None:
        self._closed = True
        self.listener.close()
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.address)
