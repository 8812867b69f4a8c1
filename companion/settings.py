"""Settings: typed defaults, an optional TOML file, and command-line overrides that win.

`companion serve` works with no file at all. The file (deploy/config.example.toml) has this layout;
every key is optional and a missing one keeps its default:

    data_dir = "/var/lib/table-companion"   # default: $XDG_DATA_HOME/table-companion
                                             #       or ~/.local/share/table-companion

    [web]
    host = "0.0.0.0"          # address to listen on
    port = 8000               # 0: any free port

    [camera]
    source = "auto"           # auto | picamera2 | opencv:N | replay:DIR | sim
    settle_ms = 600           # the tray must be still this long before a reading, milliseconds
    rotation = 0              # 0 | 90 | 180 | 270: degrees clockwise the camera's frames are turned, so the
                              # table's near edge is at the bottom (a camera mounted upside down: 180);
                              # a turn the host chose on the page (DATA/camera.json) stands over it
    confidence_threshold = 0.8  # a reading at least this sure (0-1) is proposed as certain
    reader = "learned"        # learned (the trained models) | rules (the old reader tuned on the wood photos)

    [gpio]
    mode = "auto"             # auto | mock | off
    confirm = 17              # BCM numbers, see deploy/WIRING.md
    retry = 27
    led = 22                  # one pin, [red, green, blue] for an RGB LED, or "none"
    buzzer = "none"           # a pin, or "none"

Command-line overrides use the `Settings` field names (`host`, `port`, `camera`, `data_dir`, `gpio`,
`settle_ms`, `rotation`, `confidence_threshold`, `reader`, and `pins` as a dict of pin names); None means
"not given".
A relative `data_dir` in the file is taken relative to the file's folder.

Unknown keys and wrong types raise `SettingsError` (a ValueError) with one line naming the key.
"""

from __future__ import annotations

import contextlib
import math
import os
import re
import tempfile
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

CAMERA_CHOICES = ("auto", "picamera2", "opencv:N", "replay:DIR", "sim")
GPIO_MODES = ("auto", "mock", "off")
READERS = ("learned", "rules")  # the learned dice reader (vision.learned), or the rule-tuned vision.dice
ROTATIONS = (0, 90, 180, 270)  # degrees clockwise a camera's frames may be turned (vision.sources)
FIRST_BCM, LAST_BCM = 2, 27  # GPIOs on the 40-pin header; 0 and 1 belong to a HAT's ID EEPROM

_CAMERA_PATTERN = re.compile(r"auto|picamera2|sim|opencv:\d+|replay:.+")


class SettingsError(ValueError):
    """A settings file or override that cannot be used; the message is one line naming the key."""


def default_data_dir() -> Path:
    """$XDG_DATA_HOME/table-companion, or ~/.local/share/table-companion."""
    xdg = os.environ.get("XDG_DATA_HOME", "")
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".local" / "share"
    return base / "table-companion"


@dataclass(frozen=True)
class PinSettings:
    """BCM GPIO numbers (see deploy/WIRING.md); `led` is one pin, (red, green, blue), or None.

    Same field names as `hardware.PinMap`: `PinMap(**dataclasses.asdict(settings.pins))`.
    """

    confirm: int = 17
    retry: int = 27
    led: int | tuple[int, int, int] | None = 22
    buzzer: int | None = None


@dataclass(frozen=True)
class Settings:
    """Everything `companion serve` needs to know, with defaults that work on any machine."""

    host: str = "0.0.0.0"
    port: int = 8000
    camera: str = "auto"  # auto | picamera2 | opencv:N | replay:DIR | sim
    data_dir: Path = field(default_factory=default_data_dir)
    gpio: str = "auto"  # auto | mock | off
    pins: PinSettings = field(default_factory=PinSettings)
    settle_ms: int = 600  # milliseconds the tray must be still before a reading
    # degrees clockwise the camera's frames are turned, so the table's near edge is at the bottom: the
    # learned reader knows a slanted camera sees a die's side faces below its top face
    rotation: int = 0
    confidence_threshold: float = 0.8  # 0-1; at or above it a reading is proposed as certain
    # learned: on every set the rules were not tuned on it reads more dice right, with far fewer false
    # dice and more honest certainty (`companion bench vision compare`); it falls back to the rules where
    # its models are missing
    reader: str = "learned"

    @property
    def camera_index(self) -> int | None:
        """N for camera "opencv:N", else None."""
        return int(self.camera.split(":", 1)[1]) if self.camera.startswith("opencv:") else None

    @property
    def replay_dir(self) -> Path | None:
        """DIR for camera "replay:DIR", else None."""
        return Path(self.camera.split(":", 1)[1]).expanduser() if self.camera.startswith("replay:") else None


# (section, key in the file) -> Settings field; section "" is the top level.
FILE_KEYS: dict[tuple[str, str], str] = {
    ("", "data_dir"): "data_dir",
    ("web", "host"): "host",
    ("web", "port"): "port",
    ("camera", "source"): "camera",
    ("camera", "settle_ms"): "settle_ms",
    ("camera", "rotation"): "rotation",
    ("camera", "confidence_threshold"): "confidence_threshold",
    ("camera", "reader"): "reader",
    ("gpio", "mode"): "gpio",
    ("gpio", "confirm"): "pins.confirm",
    ("gpio", "retry"): "pins.retry",
    ("gpio", "led"): "pins.led",
    ("gpio", "buzzer"): "pins.buzzer",
}
_SECTIONS = ("web", "camera", "gpio")
_PIN_NAMES = ("confirm", "retry", "led", "buzzer")


def load_settings(path: Path | None, overrides: Mapping[str, Any] | None = None) -> Settings:
    """Settings from the defaults, then the TOML file at `path` (if given), then `overrides`.

    Creates the data folder if it is missing. Raises `SettingsError` for a missing or broken file,
    an unknown key, a wrong type or value, a pin used twice, or a data folder that cannot be made.
    """
    values: dict[str, Any] = {}
    pins: dict[str, Any] = {}
    if path is not None:
        _read_file(Path(path), values, pins)
    for name, value in (overrides or {}).items():
        if value is None:
            continue
        where = f"command line: {name}"
        if name == "pins":
            if not isinstance(value, Mapping):
                raise SettingsError(f"{where} must be a dict of pin names, got {value!r}")
            for pin_name, pin in value.items():
                if pin_name not in _PIN_NAMES:
                    known = ", ".join(_PIN_NAMES)
                    raise SettingsError(f"command line: unknown pin {pin_name!r} (known: {known})")
                if pin is not None:
                    pins[pin_name] = _pin(f"command line: pins.{pin_name}", pin_name, pin, text_ok=True)
        elif name in _FIELD_CHECKS:
            values[name] = _FIELD_CHECKS[name](where, value, True)
        else:
            known = ", ".join([*_FIELD_CHECKS, "pins"])
            raise SettingsError(f"command line: unknown setting {name!r} (known: {known})")
    _check_pin_conflicts(PinSettings(**pins))
    settings = replace(Settings(), **values, pins=PinSettings(**pins))
    try:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        folder = str(settings.data_dir)
        raise SettingsError(f"data_dir {folder!r} cannot be created: {err.strerror or err}") from None
    return settings


def _read_file(path: Path, values: dict[str, Any], pins: dict[str, Any]) -> None:
    try:
        with path.open("rb") as file:
            document = tomllib.load(file)
    except FileNotFoundError:
        raise SettingsError(f"{path}: no such settings file") from None
    except OSError as err:
        raise SettingsError(f"{path}: cannot be read: {err.strerror}") from None
    except tomllib.TOMLDecodeError as err:
        raise SettingsError(f"{path}: not valid TOML: {err}") from None
    for top_key, top_value in document.items():
        if top_key in _SECTIONS:
            if not isinstance(top_value, dict):
                raise SettingsError(f"{path}: [{top_key}] must be a table, got {top_value!r}")
            entries = [(top_key, key, value) for key, value in top_value.items()]
        elif isinstance(top_value, dict):
            raise SettingsError(f"{path}: [{top_key}] is not a known section (known: {', '.join(_SECTIONS)})")
        else:
            entries = [("", top_key, top_value)]
        for section, key, value in entries:
            where = f"{path}: [{section}] {key}" if section else f"{path}: {key}"
            target = FILE_KEYS.get((section, key))
            if target is None:
                raise SettingsError(f"{where} is not a known setting ({_known_keys(section)})")
            if target.startswith("pins."):
                pins[key] = _pin(where, key, value, text_ok=False)
            elif target == "data_dir":
                data_dir = _data_dir(where, value, False)
                values["data_dir"] = data_dir if data_dir.is_absolute() else path.parent / data_dir
            else:
                values[target] = _FIELD_CHECKS[target](where, value, False)


def _known_keys(section: str) -> str:
    if section:
        return "known in [" + section + "]: " + ", ".join(k for s, k in FILE_KEYS if s == section)
    tops = [k for s, k in FILE_KEYS if s == ""] + [f"[{s}]" for s in _SECTIONS]
    return "known at the top: " + ", ".join(tops)


# -- one check per setting: (where, value, from_command_line) -> typed value -----------------------------


def _whole(where: str, value: Any, text_ok: bool, what: str) -> int:
    if text_ok and isinstance(value, str) and re.fullmatch(r"-?\d+", value.strip()):
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise SettingsError(f"{where} must be {what}, got {value!r}")
    return value


def _host(where: str, value: Any, text_ok: bool) -> str:
    if not isinstance(value, str) or not value.strip() or any(c.isspace() for c in value):
        raise SettingsError(f"{where} must be a host name or address such as \"0.0.0.0\", got {value!r}")
    return value


def _port(where: str, value: Any, text_ok: bool) -> int:
    what = "a port number from 1 to 65535 (0: any free port)"
    port = _whole(where, value, text_ok, what)
    if not 0 <= port <= 65535:
        raise SettingsError(f"{where} must be {what}, got {port}")
    return port


def _camera(where: str, value: Any, text_ok: bool) -> str:
    if not isinstance(value, str) or not _CAMERA_PATTERN.fullmatch(value):
        raise SettingsError(f"{where} must be one of {', '.join(CAMERA_CHOICES)}, got {value!r}")
    return value


def _data_dir(where: str, value: Any, text_ok: bool) -> Path:
    if isinstance(value, Path):
        value = str(value)
    if not isinstance(value, str) or not value.strip():
        raise SettingsError(f"{where} must be a folder path, got {value!r}")
    return Path(value).expanduser()


def _gpio(where: str, value: Any, text_ok: bool) -> str:
    if value not in GPIO_MODES:
        raise SettingsError(f"{where} must be one of {', '.join(GPIO_MODES)}, got {value!r}")
    return value


def _settle_ms(where: str, value: Any, text_ok: bool) -> int:
    ms = _whole(where, value, text_ok, "a whole number of milliseconds")
    if not 0 <= ms <= 60_000:
        raise SettingsError(f"{where} must be from 0 to 60000 milliseconds, got {ms}")
    return ms


def _rotation(where: str, value: Any, text_ok: bool) -> int:
    degrees = _whole(where, value, text_ok, "0, 90, 180 or 270 degrees")
    if degrees not in ROTATIONS:
        raise SettingsError(f"{where} must be 0, 90, 180 or 270 degrees, got {degrees}")
    return degrees


def _confidence(where: str, value: Any, text_ok: bool) -> float:
    if text_ok and isinstance(value, str):
        with contextlib.suppress(ValueError):
            value = float(value)
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise SettingsError(f"{where} must be a number from 0 to 1, got {value!r}")
    if not 0 <= value <= 1:
        raise SettingsError(f"{where} must be a number from 0 to 1, got {value}")
    return float(value)


def _reader(where: str, value: Any, text_ok: bool) -> str:
    if value not in READERS:
        raise SettingsError(f"{where} must be one of {', '.join(READERS)}, got {value!r}")
    return value


_FIELD_CHECKS = {
    "host": _host,
    "port": _port,
    "camera": _camera,
    "data_dir": _data_dir,
    "gpio": _gpio,
    "settle_ms": _settle_ms,
    "rotation": _rotation,
    "confidence_threshold": _confidence,
    "reader": _reader,
}


def checked(name: str, where: str, value: Any) -> Any:
    """A setting's value as the config file's check of field `name` takes it (SettingsError, saying
    `where`, for anything else): for a value kept elsewhere, such as the page's turn of the camera."""
    return _FIELD_CHECKS[name](where, value, False)


def _bcm(where: str, value: Any, text_ok: bool) -> int:
    pin = _whole(where, value, text_ok, "a BCM pin number")
    if not FIRST_BCM <= pin <= LAST_BCM:
        raise SettingsError(f"{where} must be a BCM GPIO from {FIRST_BCM} to {LAST_BCM}, got {pin}")
    return pin


def _pin(where: str, name: str, value: Any, text_ok: bool) -> int | tuple[int, int, int] | None:
    """One pin setting; "none" means not wired (only the LED and the buzzer may be absent)."""
    if isinstance(value, str) and value.strip().lower() == "none" and name in ("led", "buzzer"):
        return None
    if name == "led" and text_ok and isinstance(value, str) and "," in value:
        value = value.split(",")
    if name == "led" and isinstance(value, list | tuple):
        if len(value) != 3:
            raise SettingsError(f"{where} must be one pin or three [red, green, blue], got {value!r}")
        red, green, blue = (_bcm(where, channel, text_ok) for channel in value)
        return red, green, blue
    if name in ("led", "buzzer") and isinstance(value, str) and not (text_ok and value.strip().isdigit()):
        raise SettingsError(f"{where} must be a BCM pin number or \"none\", got {value!r}")
    return _bcm(where, value, text_ok)


def _check_pin_conflicts(pins: PinSettings) -> None:
    used: dict[int, str] = {}
    jobs: list[tuple[str, int | None]] = [("confirm", pins.confirm), ("retry", pins.retry)]
    if isinstance(pins.led, tuple):
        jobs += list(zip(("led (red)", "led (green)", "led (blue)"), pins.led, strict=True))
    else:
        jobs.append(("led", pins.led))
    jobs.append(("buzzer", pins.buzzer))
    for job, pin in jobs:
        if pin is None:
            continue
        if pin in used:
            raise SettingsError(f"[gpio] {job}: BCM {pin} is already used by {used[pin]}")
        used[pin] = job


def save_atomically(path: Path, text: str | bytes, mode: int = 0o644) -> None:
    """Replace the file at `path` with `text` so that a power cut leaves the old file or the new one.

    Writes a temporary file in the same folder, flushes it to the SD card (fsync), renames it over
    `path` (os.replace) and syncs the folder. `mode` is the new file's permission bits.
    """
    path = Path(path)
    data = text.encode("utf-8") if isinstance(text, str) else text
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(descriptor, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise
    folder = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)
