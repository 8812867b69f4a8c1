"""The real WSGI server: waitress, threaded, in the one process that owns camera and GPIO (no reloader).

Each live phone holds one event stream, and so one worker thread, open: `threads` must exceed the
phones at the table plus a few for commands.
"""

from __future__ import annotations

import threading
import time

from flask import Flask
from waitress.server import create_server

DEFAULT_THREADS = 48


class WebServer:
    """Serve `app` on host:port until `close()`; port 0 picks a free port (see `.port`)."""

    def __init__(self, app: Flask, host: str = "0.0.0.0", port: int = 8000, threads: int = DEFAULT_THREADS):
        self.app = app
        self._server = create_server(app, host=host, port=port, threads=threads, channel_timeout=30,
                                     ident="table-companion")
        self.host, self.port = self._server.effective_host, self._server.effective_port
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        return f"http://{host}:{self.port}"

    def run(self) -> None:
        """Serve in this thread until closed."""
        self._server.run()

    def start(self) -> WebServer:
        """Serve in a background thread (tests, benchmarks)."""
        self._thread = threading.Thread(target=self.run, name="web", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        """End the phones' event streams first (so no worker writes to a closed server), then stop."""
        live = self.app.extensions.get("live")
        if live is not None:
            live.close()
            deadline = time.monotonic() + 2
            while live.count() and time.monotonic() < deadline:
                time.sleep(0.02)
        self._server.close()
        if self._thread is not None:
            self._thread.join(timeout=5)
