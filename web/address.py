"""The address phones should open: this machine's LAN address, and its mDNS name where that resolves.

A page opened on the companion itself as http://localhost:8000 knows only "localhost", which no phone
can reach; the QR code and the start-up log use these instead.

    lan_address()          # "192.168.1.20", or None on a machine with no network
    phone_urls(8000)       # ["http://192.168.1.20:8000", "http://table.local:8000"]
"""

from __future__ import annotations

import ipaddress
import socket
import threading
import time

MDNS_TIMEOUT_S = 1.0  # how long a .local name may take to resolve before we do without it
CACHE_S = 30.0  # addresses are looked up again after this many seconds (Wi-Fi may come up late)

_cache: dict[str, tuple[float, str | None]] = {}
_cache_lock = threading.Lock()


def is_loopback(host: str) -> bool:
    """True for "localhost", 127.x.x.x and ::1: addresses that only this machine can open."""
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _route_address() -> str | None:
    """The address of the interface a packet to another network would leave from (nothing is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 1))
            address = probe.getsockname()[0]
        except OSError:
            return None
    return None if is_loopback(address) or address == "0.0.0.0" else address


def _named_address() -> str | None:
    """A non-loopback IPv4 address the machine's own name resolves to, for a machine with no route."""
    try:
        addresses = socket.gethostbyname_ex(socket.gethostname())[2]
    except OSError:
        return None
    return next((a for a in addresses if not is_loopback(a)), None)


def _resolves(name: str) -> bool:
    """Whether `name` resolves to a non-loopback address within MDNS_TIMEOUT_S seconds."""
    found: list[bool] = []

    def look() -> None:
        try:
            infos = socket.getaddrinfo(name, None, socket.AF_INET)
        except OSError:
            return
        found.append(any(not is_loopback(str(info[4][0])) for info in infos))

    worker = threading.Thread(target=look, name="mdns", daemon=True)
    worker.start()
    worker.join(MDNS_TIMEOUT_S)
    return bool(found and found[0])


def _cached(key: str, find) -> str | None:
    now = time.monotonic()
    with _cache_lock:
        hit = _cache.get(key)
        if hit and now - hit[0] < CACHE_S:
            return hit[1]
    value = find()
    with _cache_lock:
        _cache[key] = (now, value)
    return value


def lan_address() -> str | None:
    """This machine's IPv4 address on the local network, or None when it has none."""
    return _cached("lan", lambda: _route_address() or _named_address())


def mdns_name() -> str | None:
    """"<hostname>.local" when that name resolves here (Avahi on a Pi), else None."""
    name = socket.gethostname().split(".")[0] + ".local"
    return _cached("mdns", lambda: name if _resolves(name) else None)


def phone_urls(port: int) -> list[str]:
    """The addresses phones on the same network can open, the LAN address first; empty with no network."""
    hosts = [host for host in (lan_address(), mdns_name()) if host]
    return [f"http://{host}:{port}" for host in hosts]
