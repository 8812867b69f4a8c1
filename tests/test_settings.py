"""Settings: defaults that work with no file, the TOML layout, overrides, clear errors, atomic saves."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import tomllib
from dataclasses import fields
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.settings import (
    FILE_KEYS,
    PinSettings,
    Settings,
    SettingsError,
    load_settings,
    save_atomically,
)

EXAMPLE = Path(__file__).resolve().parent.parent / "deploy" / "config.example.toml"


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch) -> Path:
    """Keep the default data folder inside the test's temporary folder."""
    home = tmp_path / "xdg"
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    return home


def write(tmp_path: Path, text: str, name: str = "config.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_no_file_gives_working_defaults_and_makes_the_data_folder(data_home):
    loaded = load_settings(None, {})
    assert loaded == Settings()
    assert (loaded.host, loaded.port, loaded.camera, loaded.gpio) == ("0.0.0.0", 8000, "auto", "auto")
    assert (loaded.settle_ms, loaded.confidence_threshold) == (600, 0.8)
    assert loaded.pins == PinSettings(confirm=17, retry=27, led=22, buzzer=None)
    assert loaded.data_dir == data_home / "table-companion"
    assert loaded.data_dir.is_dir()


def test_data_folder_defaults_to_local_share_without_an_absolute_xdg_data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_DATA_HOME", "relative/ignored")
    assert Settings().data_dir == tmp_path / ".local" / "share" / "table-companion"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert Settings().data_dir == tmp_path / ".local" / "share" / "table-companion"


def test_example_config_loads_and_matches_the_defaults():
    assert load_settings(EXAMPLE, {}) == Settings()


def test_example_config_shows_every_setting():
    document = tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))
    shown = {(section, key) for section, table in document.items() for key in table}
    assert shown == set(FILE_KEYS) - {("", "data_dir")}  # data_dir is commented: its default varies
    assert "# data_dir = " in EXAMPLE.read_text(encoding="utf-8")
    covered = {FILE_KEYS[key].split(".")[0] for key in FILE_KEYS}
    assert covered == {f.name for f in fields(Settings)}


def test_file_values_are_read_into_typed_settings(tmp_path):
    path = write(tmp_path, """
data_dir = "games"
[web]
host = "127.0.0.1"
port = 8080
[camera]
source = "opencv:1"
settle_ms = 400
rotation = 180
confidence_threshold = 1
[gpio]
mode = "mock"
confirm = 5
retry = 6
led = [16, 20, 21]
buzzer = 23
""")
    loaded = load_settings(path, {})
    assert loaded == Settings(
        host="127.0.0.1", port=8080, camera="opencv:1", data_dir=tmp_path / "games", gpio="mock",
        pins=PinSettings(confirm=5, retry=6, led=(16, 20, 21), buzzer=23), settle_ms=400,
        rotation=180, confidence_threshold=1.0,
    )
    assert isinstance(loaded.confidence_threshold, float)
    assert loaded.camera_index == 1 and loaded.replay_dir is None
    assert (tmp_path / "games").is_dir()


def test_command_line_overrides_win_and_none_means_not_given(tmp_path):
    path = write(tmp_path, '[web]\nport = 8080\n[camera]\nsource = "sim"\n[gpio]\nconfirm = 5\n')
    loaded = load_settings(path, {"port": "9000", "camera": None, "gpio": "off", "pins": {"led": "none"},
                                  "data_dir": tmp_path / "elsewhere", "confidence_threshold": "0.9"})
    assert (loaded.port, loaded.camera, loaded.gpio, loaded.confidence_threshold) == (9000, "sim", "off", 0.9)
    assert loaded.pins == PinSettings(confirm=5, led=None)
    assert loaded.data_dir == tmp_path / "elsewhere"


def test_serve_turns_the_camera_as_its_command_line_says():
    from companion.cli import build_parser

    args = build_parser().parse_args(["serve", "--rotation", "180"])
    assert load_settings(None, {"rotation": args.rotation}).rotation == 180
    assert load_settings(None, {}).rotation == 0
    with pytest.raises(SystemExit):
        build_parser().parse_args(["serve", "--rotation", "45"])


def test_port_zero_means_any_free_port():
    assert load_settings(None, {"port": 0}).port == 0


def test_rgb_led_can_be_given_on_the_command_line():
    assert load_settings(None, {"pins": {"led": "5,6,13"}}).pins.led == (5, 6, 13)


def test_replay_camera_names_its_folder():
    loaded = load_settings(None, {"camera": "replay:~/clips"})
    assert loaded.replay_dir == Path("~/clips").expanduser()
    assert loaded.camera_index is None


@pytest.mark.parametrize(("text", "named"), [
    ('[camera]\nsorce = "sim"\n', "[camera] sorce is not a known setting (known in [camera]: source,"),
    ('[wbe]\nport = 1\n', "[wbe] is not a known section (known: web, camera, gpio)"),
    ("port = 8000\n", "port is not a known setting (known at the top: data_dir, [web], [camera], [gpio])"),
    ('[web]\nport = "8000"\n', "[web] port must be a port number from 1 to 65535"),
    ("[web]\nport = true\n", "[web] port must be a port number"),
    ("[web]\nport = 70000\n", "(0: any free port), got 70000"),
    ("[web]\nhost = 5\n", "[web] host must be a host name"),
    ('[camera]\nsource = "webcam"\n', "[camera] source must be one of auto, picamera2, opencv:N"),
    ('[camera]\nsource = "opencv:x"\n', "[camera] source must be one of"),
    ("[camera]\nsettle_ms = 1.5\n", "[camera] settle_ms must be a whole number of milliseconds, got 1.5"),
    ("[camera]\nsettle_ms = -1\n", "[camera] settle_ms must be from 0 to 60000 milliseconds"),
    ("[camera]\nrotation = 45\n", "[camera] rotation must be 0, 90, 180 or 270 degrees, got 45"),
    ('[camera]\nrotation = "90"\n', "[camera] rotation must be 0, 90, 180 or 270 degrees, got '90'"),
    ("[camera]\nconfidence_threshold = 80\n", "[camera] confidence_threshold must be a number from 0 to 1"),
    ("[camera]\nconfidence_threshold = nan\n", "[camera] confidence_threshold must be a number from 0 to 1"),
    ('[gpio]\nmode = "on"\n', "[gpio] mode must be one of auto, mock, off, got 'on'"),
    ("[gpio]\nconfirm = 40\n", "[gpio] confirm must be a BCM GPIO from 2 to 27, got 40"),
    ('[gpio]\nconfirm = "none"\n', "[gpio] confirm must be a BCM pin number, got 'none'"),
    ("[gpio]\nled = [5, 6]\n", "[gpio] led must be one pin or three [red, green, blue]"),
    ('[gpio]\nbuzzer = "off"\n', "[gpio] buzzer must be a BCM pin number or \"none\", got 'off'"),
    ("[gpio]\nretry = 17\n", "[gpio] retry: BCM 17 is already used by confirm"),
    ("[gpio]\nled = [5, 6, 22]\nbuzzer = 6\n", "[gpio] buzzer: BCM 6 is already used by led (green)"),
    ("web = 8000\n", "[web] must be a table"),
    ("data_dir = 3\n", "data_dir must be a folder path"),
])
def test_bad_file_is_refused_in_one_line_naming_the_key(tmp_path, text, named):
    path = write(tmp_path, text)
    with pytest.raises(SettingsError) as caught:
        load_settings(path, {})
    message = str(caught.value)
    assert named in message
    assert "\n" not in message
    assert isinstance(caught.value, ValueError)


def test_message_shows_the_wrong_value_as_written(tmp_path):
    with pytest.raises(SettingsError, match=r"\[web\] port must be .*, got '8000'$"):
        load_settings(write(tmp_path, '[web]\nport = "8000"\n'), {})


def test_missing_file_and_broken_toml_are_settings_errors(tmp_path):
    with pytest.raises(SettingsError, match="no such settings file"):
        load_settings(tmp_path / "absent.toml", {})
    with pytest.raises(SettingsError, match="not valid TOML"):
        load_settings(write(tmp_path, "[web\nport = 1\n"), {})


@pytest.mark.parametrize(("overrides", "named"), [
    ({"prot": 8000}, "command line: unknown setting 'prot'"),
    ({"port": "eighty"}, "command line: port must be a port number"),
    ({"pins": {"confrim": 5}}, "command line: unknown pin 'confrim'"),
    ({"pins": 5}, "command line: pins must be a dict"),
    ({"gpio": "maybe"}, "command line: gpio must be one of auto, mock, off"),
])
def test_bad_override_is_refused_naming_it(overrides, named):
    with pytest.raises(SettingsError, match=named.replace("(", r"\(")):
        load_settings(None, overrides)


def test_data_folder_that_cannot_be_made_is_a_settings_error(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    with pytest.raises(SettingsError, match="data_dir .* cannot be created"):
        load_settings(None, {"data_dir": str(blocker / "data")})


def _toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, str):
        def plain(c: str) -> bool:
            return " " <= c <= "~" and c not in '"\\'

        return '"' + "".join(c if plain(c) else f"\\U{ord(c):08x}" for c in value) + '"'
    return repr(value)


_scalars = st.one_of(st.booleans(), st.integers(-10**6, 10**6), st.text(max_size=12),
                     st.floats(allow_nan=False, allow_infinity=False))


@settings(max_examples=150, deadline=None)
@given(key=st.sampled_from(sorted(FILE_KEYS)), value=st.one_of(_scalars, st.lists(_scalars, max_size=4)))
def test_any_value_for_any_key_loads_or_is_a_settings_error(tmp_path_factory, key, value):
    section, name = key
    if name == "data_dir":
        return  # any string is a folder; making it is tested above
    header = f"[{section}]\n" if section else ""
    path = write(tmp_path_factory.mktemp("fuzz"), f"{header}{name} = {_toml_value(value)}\n")
    try:
        loaded = load_settings(path, {})
    except SettingsError as err:
        assert name in str(err)
    else:
        assert isinstance(loaded, Settings)


def test_save_atomically_writes_and_replaces_leaving_no_temporary_file(tmp_path):
    target = tmp_path / "calibration.json"
    save_atomically(target, '{"px_per_mm": 3.1}')
    save_atomically(target, '{"px_per_mm": 3.2}')
    assert target.read_text(encoding="utf-8") == '{"px_per_mm": 3.2}'
    assert stat.S_IMODE(target.stat().st_mode) == 0o644
    assert os.listdir(tmp_path) == ["calibration.json"]


def test_save_atomically_keeps_the_old_file_when_the_write_fails(tmp_path, monkeypatch):
    target = tmp_path / "calibration.json"
    save_atomically(target, b"old")

    def power_cut(src, dst):
        raise OSError("power cut")

    monkeypatch.setattr(os, "replace", power_cut)
    with pytest.raises(OSError, match="power cut"):
        save_atomically(target, "new")
    assert target.read_bytes() == b"old"
    assert os.listdir(tmp_path) == ["calibration.json"]


# -- the deploy files agree with the settings and with each other ------------------------------------------

DEPLOY = EXAMPLE.parent


def test_install_script_is_valid_bash_and_matches_the_service_paths():
    script = DEPLOY / "install.sh"
    subprocess.run(["bash", "-n", str(script)], check=True)
    if shutil.which("shellcheck"):
        subprocess.run(["shellcheck", str(script)], check=True)
    install = script.read_text(encoding="utf-8")
    unit = (DEPLOY / "companion.service").read_text(encoding="utf-8")
    exec_start = (
        "ExecStart=/opt/table-companion/venv/bin/companion serve --config /etc/table-companion/config.toml"
    )
    assert exec_start in unit.splitlines()
    assert "readonly VENV=$PREFIX/venv" in install and "readonly PREFIX=/opt/table-companion" in install
    assert "readonly CONFIG=$CONFIG_DIR/config.toml" in install
    assert "readonly CONFIG_DIR=/etc/table-companion" in install
    assert "User=companion" in unit and "readonly SERVICE_USER=companion" in install
    for line in ("Restart=on-failure", "Environment=GPIOZERO_PIN_FACTORY=lgpio", "Environment=LG_WD=/tmp"):
        assert line in unit.splitlines()


def test_service_data_folder_is_the_settings_default_under_var_lib(monkeypatch):
    unit = (DEPLOY / "companion.service").read_text(encoding="utf-8").splitlines()
    monkeypatch.setenv("XDG_DATA_HOME", "/var/lib")
    assert "Environment=XDG_DATA_HOME=/var/lib" in unit
    assert "StateDirectory=table-companion" in unit
    assert Settings().data_dir == Path("/var/lib/table-companion")


def test_opencv_pin_keeps_apt_numpy():
    constraints = (DEPLOY / "constraints-bookworm.txt").read_text(encoding="utf-8").splitlines()
    assert "opencv-python-headless==4.11.0.86" in constraints
    assert "numpy<2" in constraints
    assert '"opencv-python-headless==4.11.0.86"' in (DEPLOY / "install.sh").read_text(encoding="utf-8")
