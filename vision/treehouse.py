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
    p = cv2.resize(patch, (PATCH_PX, PATCH_PX), interpolation=cv2.INTER_AREA).astype(np.float32)
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
    """Dark, square regions that hold some light marking: (upright square crop, box) per candidate."""
    dark = float(np.percentile(gray, 5))
    level = max(40.0, min(90.0, dark + 45.0))
    mask = (gray < level).astype(np.uint8)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = []
    for c in contours:
        area = cv2.contourArea(c)
        if area < min_side_px ** 2 * 0.7 or area > max_side_px ** 2:
            continue
        (cx, cy), (w, h), angle = cv2.minAreaRect(c)
        if min(w, h) < min_side_px or max(w, h) > 1.3 * min(w, h) or area < 0.8 * w * h:
            continue
        side = (w + h) / 2
        rot = cv2.getRotationMatrix2D((cx, cy), angle, 1.0)
        rot[:, 2] += (side / 2 - cx, side / 2 - cy)
        crop = cv2.warpAffine(gray, rot, (int(round(side)), int(round(side))))
        inner = crop[int(side * 0.1):int(side * 0.9), int(side * 0.1):int(side * 0.9)]
        light = float((inner > level + 60).mean()) if inner.size else 0.0
        if not 0.04 <= light <= 0.6:
            continue
        x, y, bw, bh = cv2.boundingRect(c)
        if frame is not None:  # the Treehouse die is black: a dark red or blue die is not one
            mask = np.zeros((bh, bw), np.uint8)
            cv2.drawContours(mask, [c], 0, 1, -1, offset=(-x, -y))
            roi = frame[y:y + bh, x:x + bw][(mask > 0) & (gray[y:y + bh, x:x + bw] < level)]
            b, g, r = np.median(roi, axis=0) if len(roi) else (0, 0, 0)
            if max(b, g, r) - min(b, g, r) > 25:
                continue
        out.append((crop, (x, y, x + bw - 1, y + bh - 1)))
    return out


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
