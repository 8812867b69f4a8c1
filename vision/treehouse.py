"""Read the Treehouse die: a dark square face with a light symbol, matched to calibrated templates.

Templates are grey images named after the faces (AIM.png, TIP.png, ...) in a folder written by
`companion calibrate treehouse`; `TreehouseTemplates.default()` draws them from `vision.symbols`.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.symbols import TREEHOUSE_FACES, draw_symbol

PATCH_PX = 32  # templates and face crops are compared at this size


def _normalise(patch: np.ndarray) -> np.ndarray:
    """The middle 76 % of a face (the symbol, not the rim): PATCH_PX square, softened, unit norm."""
    h, w = patch.shape[:2]
    patch = patch[round(h * 0.12):round(h * 0.88), round(w * 0.12):round(w * 0.88)]
    p = cv2.resize(patch, (PATCH_PX, PATCH_PX), interpolation=cv2.INTER_AREA).astype(np.float32)
    p = cv2.GaussianBlur(p, (0, 0), 1.0)
    p -= p.mean()
    norm = float(np.linalg.norm(p))
    return p / norm if norm > 1e-6 else p


class TreehouseTemplates:
    """One normalised template per Treehouse face."""

    def __init__(self, images: dict[str, np.ndarray]):
        missing = [f for f in TREEHOUSE_FACES if f not in images]
        if missing:
            raise ValueError(f"Treehouse templates missing for {', '.join(missing)}")
        self.templates = {face: _normalise(img) for face, img in images.items()}

    @classmethod
    def default(cls) -> TreehouseTemplates:
        """Templates drawn from the renderer's symbols (0.75 of the face, centred, on black)."""
        images = {}
        for face in TREEHOUSE_FACES:
            canvas = np.zeros((64, 64), np.uint8)
            sym = draw_symbol(face, 48)
            canvas[8:56, 8:56] = sym
            images[face] = canvas
        return cls(images)

    @classmethod
    def load(cls, folder: Path) -> TreehouseTemplates:
        """Templates from FACE.png files in folder (as `companion calibrate treehouse` writes)."""
        images = {}
        for face in TREEHOUSE_FACES:
            img = cv2.imread(str(Path(folder) / f"{face}.png"), cv2.IMREAD_GRAYSCALE)
            if img is not None:
                images[face] = img
        return cls(images)

    def save(self, folder: Path, crops: dict[str, np.ndarray]) -> None:
        """Write face crops as FACE.png into folder."""
        Path(folder).mkdir(parents=True, exist_ok=True)
        for face, crop in crops.items():
            cv2.imwrite(str(Path(folder) / f"{face}.png"), crop)

    def match(self, crop: np.ndarray) -> tuple[str, float, float]:
        """(best face, its correlation -1..1, margin over the next face) for a square grey crop."""
        scores = {}
        for face, tpl in self.templates.items():
            best = -1.0
            for k in range(4):
                best = max(best, float((_normalise(np.rot90(crop, k)) * tpl).sum()))
            scores[face] = best
        ranked = sorted(scores.items(), key=lambda kv: -kv[1])
        return ranked[0][0], ranked[0][1], ranked[0][1] - ranked[1][1]


def face_crops(gray: np.ndarray, min_side_px: float = 16, max_side_px: float = 160,
               frame: np.ndarray | None = None) -> list[tuple[np.ndarray, tuple[int, int, int, int]]]:
    """Light symbols on a dark face: (upright square crop of the face, box px) per candidate.

    Found symbol first (a light mark, its strokes joined, with dark body all round), then the face by
    rays from the symbol's centre to where the dark body ends (the rim, or the table); so a black
    table or a touching die does not hide the face, as a dark-region search would.
    """
    contrast = gray.astype(np.int16) - cv2.blur(gray, (41, 41)).astype(np.int16)
    light = ((contrast > 40) & (gray > 110)).astype(np.uint8)
    joined = cv2.morphologyEx(light, cv2.MORPH_CLOSE, np.ones((7, 7), np.uint8))
    contours, _ = cv2.findContours(joined, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    h, w = gray.shape
    out = []
    for c in contours:
        x, y, bw, bh = cv2.boundingRect(c)
        extent = max(bw, bh)
        if not 0.3 * min_side_px <= extent <= 0.85 * max_side_px or cv2.contourArea(c) < 20:
            continue
        if _is_round_pip(c, light[y:y + bh, x:x + bw], x, y):
            continue  # a plain round pip: the 1 of a black d6, not a symbol
        cx, cy = x + bw / 2, y + bh / 2
        face = _face_from_rays(gray, cx, cy, extent)
        if face is None:
            continue
        (fx, fy), side, angle, body = face
        if not (min_side_px <= side <= max_side_px and 1.1 * extent <= side <= 3.2 * extent):
            continue
        if frame is not None:  # the Treehouse die is black: a dark red or blue die is not one
            ring = _ring(frame, fx, fy, side * 0.42)
            if len(ring) == 0:
                continue
            b, g, r = np.median(ring, axis=0)
            if max(b, g, r) - min(b, g, r) > 25 or max(b, g, r) > 110:
                continue
        rot = cv2.getRotationMatrix2D((fx, fy), angle, 1.0)
        rot[:, 2] += (side / 2 - fx, side / 2 - fy)
        crop = cv2.warpAffine(gray, rot, (int(round(side)), int(round(side))))
        half = side / 2
        box = (int(max(0, fx - half)), int(max(0, fy - half)), int(min(w - 1, fx + half)),
               int(min(h - 1, fy + half)))
        out.append((crop, box))
    return out


def _is_round_pip(contour: np.ndarray, light: np.ndarray, x: int, y: int) -> bool:
    """A solid, round light blob. (The AIM target is round too, but hollow.)"""
    area = cv2.contourArea(contour)
    (_, _), radius = cv2.minEnclosingCircle(contour)
    if area < 0.65 * np.pi * radius ** 2:
        return False
    inside = np.zeros(light.shape, np.uint8)
    cv2.drawContours(inside, [contour], 0, 1, -1, offset=(-x, -y))
    return float(light[inside > 0].mean()) > 0.85


def _ring(image: np.ndarray, x: float, y: float, r: float, count: int = 16) -> np.ndarray:
    """Pixels on a circle of radius r px around (x, y), those inside the image."""
    a = np.arange(count) * 2 * np.pi / count
    xs, ys = (x + r * np.cos(a)).round().astype(int), (y + r * np.sin(a)).round().astype(int)
    ok = (xs >= 0) & (xs < image.shape[1]) & (ys >= 0) & (ys < image.shape[0])
    return image[ys[ok], xs[ok]]


def _face_from_rays(gray: np.ndarray, cx: float, cy: float, extent: float):
    """((x, y), side, angle, body level) of the dark face around a symbol, or None."""
    count = 24
    angles = np.arange(count) * 2 * np.pi / count
    radii = np.arange(extent * 0.5, extent * 2.2, 1.0)
    xs = (cx + np.outer(np.cos(angles), radii)).round().astype(int)
    ys = (cy + np.outer(np.sin(angles), radii)).round().astype(int)
    h, w = gray.shape
    inside = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
    values = gray[ys.clip(0, h - 1), xs.clip(0, w - 1)].astype(np.int16)
    body = float(np.percentile(values[inside], 25)) if inside.any() else 255.0
    if body > 90:
        return None
    dark = (values < body + 35) & inside
    ends = []
    for k in range(count):
        row = dark[k]
        first = int(row.argmax()) if row.any() else -1  # past the symbol's strokes
        if first < 0:
            continue
        rest = ~row[first:]
        if not rest.any():
            continue  # the dark goes on: no edge on this ray
        stop = first + int(rest.argmax())
        ends.append((xs[k, stop], ys[k, stop]))
    if len(ends) < count * 0.6:
        return None
    (fx, fy), (rw, rh), angle = cv2.minAreaRect(np.array(ends, np.float32))
    if min(rw, rh) < 1 or max(rw, rh) > 1.35 * min(rw, rh):
        return None
    return (fx, fy), (rw + rh) / 2 + 2, angle, body


def find_treehouse(frame: np.ndarray, gray: np.ndarray, templates: TreehouseTemplates,
                   taken: list[tuple[int, int, int, int]]) -> list:
    """Treehouse dice in a frame, skipping regions already read as pip dice (boxes in `taken`)."""
    from vision.dice import Die

    dice = []
    for crop, box in face_crops(gray, frame=frame):
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        if any(x1 <= cx <= x2 and y1 <= cy <= y2 for x1, y1, x2, y2 in taken):
            continue
        face, score, margin = templates.match(crop)
        conf = float(np.clip((score - 0.45) / 0.3, 0, 1) * np.clip(margin / 0.12, 0, 1))
        if conf >= 0.05:
            dice.append(Die(face, "treehouse", "black", box, conf))
    return dice


def load_treehouse_faces(data_dir: Path | str | None) -> TreehouseTemplates:
    """The faces captured by `companion calibrate treehouse` in DATA/treehouse/, else the defaults
    drawn from the renderer's symbols (right for the synthetic camera, a guess for a real die)."""
    if data_dir is not None:
        folder = Path(data_dir) / "treehouse"
        if all((folder / f"{face}.png").is_file() for face in TREEHOUSE_FACES):
            return TreehouseTemplates.load(folder)
    return TreehouseTemplates.default()
