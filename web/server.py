"""The real server, in the one process that owns camera and GPIO (no reloader).

One asyncio loop (uvicorn, pure Python with h11) accepts every connection. Pages and the JSON API run
in Flask on a pool of `API_THREADS` threads (a2wsgi); a phone's event stream is opened by the Flask
route (which checks the table, the seat and the limits) and then handed to the loop, which serves it
without holding a thread: hundreds of idle streams cost a little memory each, the API's threads stay
free, and a phone that leaves is noticed at once (its connection closes, its stream ends).
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import socket
import threading
from collections.abc import Awaitable, Callable
from typing import Any

import uvicorn
from a2wsgi import WSGIMiddleware
from flask import Flask

from .live import HANDOFF, Broadcaster, LiveStream

API_THREADS = 16  # threads for pages and commands; streams never take one
SHUTDOWN_S = 3.0  # the most a stop waits for open responses, in seconds

Message = dict[str, Any]


class LiveFirst:
    """The ASGI app: Flask on threads, and the event streams it hands over served on the loop."""

    def __init__(self, app: Flask, threads: int = API_THREADS) -> None:
        self.flask = WSGIMiddleware(app, workers=threads)

    async def __call__(self, scope: dict, receive: Callable[[], Awaitable[Message]],
                       send: Callable[[Message], Awaitable[None]]) -> None:
        if scope["type"] != "http":
            return await self.flask(scope, receive, send)
        handed: list[LiveStream] = []

        async def send_unless_handed(message: Message) -> None:
            if handed and message["type"] == "http.response.body" and not message.get("more_body"):
                return  # the route's headers went out; the stream's body goes on below
            await send(message)

        await self.flask({**scope, HANDOFF: handed.append}, receive, send_unless_handed)
        if handed:
            await _serve_stream(handed[0], receive, send)


async def _serve_stream(stream: LiveStream, receive: Callable[[], Awaitable[Message]],
                        send: Callable[[Message], Awaitable[None]]) -> None:
    """Send the stream's frames until it ends (shutdown) or the phone disconnects."""

    async def pump() -> None:
        async for text in stream.frames():
            await send({"type": "http.response.body", "body": text.encode(), "more_body": True})
        await send({"type": "http.response.body", "body": b"", "more_body": False})

    async def phone_gone() -> None:
        while (await receive())["type"] != "http.disconnect":
            pass

    tasks = [asyncio.ensure_future(pump()), asyncio.ensure_future(phone_gone())]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        stream.close()


class _Uvicorn(uvicorn.Server):
    """uvicorn, ending the phones' streams before it waits for open responses. SIGTERM or SIGINT stops
    serving; then SIGINT goes on as KeyboardInterrupt (the CLI exits 130, as the systemd unit expects),
    where uvicorn would raise the signal again and kill the process before `serve` closes camera, GPIO
    and store."""

    def __init__(self, config: uvicorn.Config, live: Broadcaster) -> None:
        super().__init__(config)
        self.live = live

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        self.live.close()
        await super().shutdown(sockets)

    @contextlib.contextmanager
    def capture_signals(self):
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        caught: list[int] = []

        def stop(sig: int, frame) -> None:
            caught.append(sig)
            self.should_exit = True

        previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
        try:
            yield
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)
        if signal.SIGINT in caught:
            raise KeyboardInterrupt


class WebServer:
    """Serve `app` on host:port until `close()`; port 0 picks a free port (see `.port`)."""

    def __init__(self, app: Flask, host: str = "0.0.0.0", port: int = 8000) -> None:
        self.app = app
        self.live: Broadcaster = app.extensions["live"]
        self._socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._socket.bind((host, port))
        self._socket.listen(2048)  # phones may knock before the loop runs; they wait in the backlog
        self.host, self.port = self._socket.getsockname()[:2]
        config = uvicorn.Config(LiveFirst(app), lifespan="off", http="h11", ws="none", loop="asyncio",
                                proxy_headers=False, access_log=False, log_config=None, log_level="warning",
                                backlog=2048, timeout_graceful_shutdown=SHUTDOWN_S, server_header=False)
        self._server = _Uvicorn(config, self.live)
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        return f"http://{host}:{self.port}"

    def run(self) -> None:
        """Serve in this thread until closed (or, in the main thread, until SIGTERM or Ctrl+C)."""
        self._server.run(sockets=[self._socket])

    def start(self) -> WebServer:
        """Serve in a background thread (tests, benchmarks)."""
        self._thread = threading.Thread(target=self.run, name="web", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        """End the phones' event streams, stop taking connections, and wait for open answers."""
        self.live.close()
        self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=SHUTDOWN_S + 5)
        self._socket.close()
