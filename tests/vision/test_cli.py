"""`companion read` and `companion bench vision`, run through the real command-line entry point."""

import json
import re

import cv2
import numpy as np
import pytest

from companion.cli import main
from vision.bench import Label
from vision.render import DieSpec, render_scene


def _photo(tmp_path, name, specs, seed=3):
    image, truth = render_scene(np.random.default_rng(seed), specs, variations=False)
    path = tmp_path / name
    cv2.imwrite(str(path), image)
    return path, truth


def test_read_json_prints_one_line_per_image_and_survives_an_unreadable_file(tmp_path, capsys):
    good, truth = _photo(tmp_path, "roll.png", [DieSpec("d6", "white", 4), DieSpec("d6", "red", 2)])
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"not an image")
    code = main(["read", str(broken), str(good), "--json", "--reader", "rules"])  # the readings it expects
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert code == 1  # one file could not be read
    assert lines[0]["image"] == str(broken) and "not a readable image" in lines[0]["error"]
    assert lines[0]["dice"] == []
    record = lines[1]
    assert record["error"] is None and (record["width"], record["height"]) == (640, 480)
    assert sorted(d["value"] for d in record["dice"]) == [2, 4]
    for die in record["dice"]:
        assert set(die) == {"value", "kind", "colour", "box", "confidence"}
        assert die["kind"] == "d6" and 0 <= die["confidence"] <= 1 and len(die["box"]) == 4
    assert {d["colour"] for d in record["dice"]} == {"white", "red"}


def test_read_annotate_writes_a_boxed_copy(tmp_path, capsys):
    good, _ = _photo(tmp_path, "roll.png", [DieSpec("d6", "black", 5)])
    out = tmp_path / "annotated"
    assert main(["read", str(good), "--annotate", str(out), "--reader", "rules"]) == 0
    assert "5 (d6, black" in capsys.readouterr().out
    written = cv2.imread(str(out / "roll.annotated.png"))
    original = cv2.imread(str(good))
    assert written.shape == original.shape and not np.array_equal(written, original)


def test_read_of_a_missing_file_reports_it(tmp_path, capsys):
    assert main(["read", str(tmp_path / "nope.jpg")]) == 1
    assert "no such file" in capsys.readouterr().out


def _by_reader(out: str) -> dict[str, str]:
    """`companion bench vision`'s output, each reader's lines under its name ("learned", "rules")."""
    parts = re.split(r"^  (learned|rules)\b.*:$", out, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def test_bench_vision_on_rendered_scenes_prints_both_readers_figures(capsys):
    assert main(["bench", "vision", "render:3"]) == 0
    readers = _by_reader(capsys.readouterr().out)
    assert list(readers) == ["learned", "rules"]  # the reader serve uses, then the old one
    for lines in readers.values():
        for figure in ("dice right:", "photos right:", "false dice/photo:", "median ms/frame:"):
            assert figure in lines


def test_bench_vision_on_a_labelled_folder(tmp_path, capsys):
    (tmp_path / "images").mkdir()
    specs = [DieSpec("d6", "white", 3), DieSpec("d6", "yellow", 6)]
    path, truth = _photo(tmp_path / "images", "a.png", specs)
    rows = ["image,width,height,die,value,x1,y1,x2,y2"]
    rows += [f"a.png,640,480,{i},{t.value},{','.join(map(str, t.box))}" for i, t in enumerate(truth)]
    (tmp_path / "labels.csv").write_text("\n".join(rows) + "\n")
    assert main(["bench", "vision", str(tmp_path)]) == 0
    readers = _by_reader(capsys.readouterr().out)
    assert list(readers) == ["learned", "rules"]
    for lines in readers.values():
        assert "dice right:      2/2" in lines and "photos right:    1/1" in lines
    for reader in ("learned", "rules"):  # the boxes turn with the photo
        assert main(["bench", "vision", str(tmp_path), "--vary", "turned", "--reader", reader]) == 0
        out = capsys.readouterr().out
        assert "every photo turned" in out and list(_by_reader(out)) == [reader]
        assert "dice right:      2/2" in out
    assert main(["bench", "vision", str(tmp_path), "--vary", "sideways"]) == 2
    assert "known: smaller, larger, turned" in capsys.readouterr().err


def test_bench_vision_reads_a_shared_sets_measured_part_alone_when_asked(tmp_path, capsys):
    from vision.diceset import photo_split

    (tmp_path / "images").mkdir()
    rows = ["image,width,height,die,value,x1,y1,x2,y2"]
    for name, value in (("roll_1.png", 2), ("roll_60.png", 4)):  # runs of 25: photo 60 is measured, 1 is not
        _, truth = _photo(tmp_path / "images", name, [DieSpec("d6", "white", value)])
        rows.append(f"{name},640,480,0,{truth[0].value},{','.join(map(str, truth[0].box))}")
    (tmp_path / "labels.csv").write_text("\n".join(rows) + "\n")
    assert photo_split(tmp_path) == (["roll_1.png"], ["roll_60.png"])
    assert main(["bench", "vision", str(tmp_path), "--reader", "learned"]) == 0
    assert "photos right:    2/2" in capsys.readouterr().out
    assert main(["bench", "vision", str(tmp_path), "--reader", "learned", "--measured", "--verbose"]) == 0
    out = capsys.readouterr().out
    assert "its measured part" in out and "photos right:    1/1" in out and "dice right:      1/1" in out


def test_bench_vision_on_a_folder_of_crops_reads_each_crop_as_one_die(tmp_path, capsys):
    path, truth = _photo(tmp_path, "whole.png", [DieSpec("d6", "white", 5)])
    x1, y1, x2, y2 = truth[0].box
    pad = (x2 - x1) // 4
    cv2.imwrite(str(tmp_path / "crop.png"), cv2.imread(str(path))[y1 - pad:y2 + pad, x1 - pad:x2 + pad])
    cv2.imwrite(str(tmp_path / "other.png"), np.full((40, 40, 3), 128, np.uint8))  # a training crop: no die
    (tmp_path / "crops.csv").write_text("crop,split,value\ncrop.png,val,5\nother.png,train,2\n")
    assert main(["bench", "vision", str(tmp_path), "--measured"]) == 0
    readers = _by_reader(capsys.readouterr().out)
    assert list(readers) == ["learned", "rules"]
    for lines in readers.values():
        assert "dice right:      1/1" in lines and "false dice/photo: 0.000" in lines
    assert main(["bench", "vision", str(tmp_path), "--reader", "learned"]) == 0
    assert "dice right:      1/2" in capsys.readouterr().out  # both crops: the grey one holds no die


def test_bench_vision_compare_reads_with_the_readers_asked_for(tmp_path, monkeypatch, capsys):
    import vision.sidebyside as sidebyside

    path, truth = _photo(tmp_path, "a.png", [DieSpec("d6", "white", 3), DieSpec("d6", "red", 6)])
    labels = [Label(t.value, t.box) for t in truth]
    photos = [("a set", [("a.png", cv2.imread(str(path)), labels)])]
    monkeypatch.setattr(sidebyside, "held_out_photos", lambda: iter(photos))
    timed = []
    monkeypatch.setattr(sidebyside, "speed", lambda read: timed.append(read) or {(640, 480): 1.0})
    for asked, rows in ((["--reader", "learned"], {"learned"}), ([], {"learned", "rules"})):
        assert main(["bench", "vision", "compare", "--renders", "0", "--oblique", "0", *asked]) == 0
        out = capsys.readouterr().out
        assert set(re.findall(r"^  (\w+) +dice ", out, flags=re.M)) == rows
        assert re.search(r"^  learned +dice 100.00 % \(2/2\)", out, flags=re.M)  # the set's photo
    assert len(timed) == 2 and all(callable(read) for read in timed)  # the learned reader's speed, each time
    assert "learned reader at 640x480: median 1.0 ms" in out


def test_bench_vision_help_names_every_variation(capsys):
    from vision.variations import VARIATIONS

    with pytest.raises(SystemExit):
        main(["bench", "vision", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert all(name in text.split("take them:")[1] for name in VARIATIONS)


def test_calibrate_treehouse_captures_six_faces_from_the_synthetic_camera(tmp_path):
    from companion.commands.calibrate import capture_faces
    from vision.sources import SyntheticSource
    from vision.symbols import TREEHOUSE_FACES
    from vision.treehouse import TreehouseTemplates, load_treehouse_faces

    camera = SyntheticSource(fps=0, roll_s=0, seed=2)

    def show(prompt):  # the player puts the die down with the asked face up
        face = next(f for f in TREEHOUSE_FACES if f" {f} up" in prompt)
        camera.show([DieSpec("treehouse", "treehouse", face)])

    crops = capture_faces(camera, ask=show)
    assert sorted(crops) == sorted(TREEHOUSE_FACES)
    TreehouseTemplates(crops).save(tmp_path / "treehouse", crops)
    templates = load_treehouse_faces(tmp_path)
    for face in TREEHOUSE_FACES:
        camera.show([DieSpec("treehouse", "treehouse", face)])
        from vision.dice import read_dice

        assert [d.value for d in read_dice(camera.read(), treehouse=templates)] == [face]


def test_annotate_writes_the_words_given_for_each_die_in_place_of_its_value():
    from vision.drawing import annotate

    frame = np.full((120, 160, 3), 200, np.uint8)
    die = {"value": 3, "box": (60, 60, 90, 90), "confidence": 1.0}
    plain, cream, red = (annotate(frame, [die]), annotate(frame, [die], words=["cream 3"]),
                         annotate(frame, [die], words=["red 3"]))
    above = (slice(40, 60), slice(60, 160))  # where the label goes
    assert not np.array_equal(cream[above], red[above]) and not np.array_equal(cream[above], plain[above])
    assert np.array_equal(annotate(frame, [die], labels=False, words=["cream 3"]),
                          annotate(frame, [die], labels=False))  # boxes only: no words
