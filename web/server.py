"""The real WSGI server: waitress, threaded, in the one process that owns camera and GPIO (no reloader).

Each live phone's event stream holds one worker thread while it is open, so the server has a thread
for every stream the broadcaster allows plus `API_THREADS` that streams can never take: a flood of
streams is refused (503) before it reaches the API's threads. A stream notices its phone has gone
within `live.POLL_S` (waitress looks ahead on the connection), so its thread comes back at once.
"""

from __future__ import annotations

import threading
import time

from flask import Flask
from waitress.server import create_server

API_THREADS = 16  # threads that only commands and pages use


class WebServer:
    """Serve `app` on host:port until `close()`; port 0 picks a free port (see `.port`)."""

    def __init__(self, app: Flask, host: str = "0.0.0.0", port: int = 8000) -> None:
        self.app = app
        live = app.extensions["live"]
        self._server = create_server(app, host=host, port=port, threads=live.most + API_THREADS,
                                     connection_limit=live.most + 4 * API_THREADS,
                                     channel_request_lookahead=1, channel_timeout=30,
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
        live = self.app.extensions["live"]
        live.close()
        deadline = time.monotonic() + 2
        while live.count() and time.monotonic() < deadline:
            time.sleep(0.02)
        self._server.close()
        if self._thread is not None:
            self._thread.join(timeout=5)
