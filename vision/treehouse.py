"""Read the Treehouse die: a dark square face with a light symbol, matched to calibrated templates.

Templates are grey images named after the faces (AIM.png, TIP.png, ...) in a folder written by
`companion calibrate treehouse`; `TreehouseTemplates.default()` draws them from `vision.symbols`.

A face is found from its symbol (`face_crops`): a light mark in the middle of a dark square. Its
upright crop is compared with each template at the four quarter turns and at small shifts (normalised
correlation); a reading is sure when its face matches well and far better than the next (`confidence`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.symbols import TREEHOUSE_FACES, draw_symbol

PATCH_PX = 32  # templates and face crops are compared at this size
INNER = 0.76  # the middle part of a face compared (the symbol, not the rim), in face sides
SHIFT_PX = 2  # a crop is matched at shifts of up to this many patch px each way (face found off by a bit)
BLUR_PX = 1.0  # softening of templates and crops (patch px), so a blurred photo still matches

JOIN = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))  # strokes up to 6 px apart are one symbol
COARSE_SIDE_PX = 70  # faces this large are also looked for on a halved copy (their strokes lie further apart)
CENTRED = 0.12  # the symbol's centre lies within this many face sides of the face's centre, each way
RAYS = 24  # rays cast from a symbol's centre to find its face
_RAY_COS, _RAY_SIN = np.cos(np.arange(RAYS) * 2 * np.pi / RAYS), np.sin(np.arange(RAYS) * 2 * np.pi / RAYS)


def _patch(face: np.ndarray, margin_px: int = 0) -> np.ndarray:
    """The middle INNER of a square grey face and margin_px patch px more all round, resized so the
    middle is PATCH_PX square, softened: float32 of side PATCH_PX + 2 margin_px."""
    side = PATCH_PX + 2 * margin_px
    part = INNER * side / PATCH_PX  # of the face side
    h, w = face.shape[:2]
    y1, y2 = round(h * (1 - part) / 2), round(h * (1 + part) / 2)  # part stays under 1 for small margins
    x1, x2 = round(w * (1 - part) / 2), round(w * (1 + part) / 2)
    p = cv2.resize(face[y1:y2, x1:x2], (side, side), interpolation=cv2.INTER_AREA).astype(np.float32)
    return cv2.GaussianBlur(p, (0, 0), BLUR_PX)


def _unit_rows(rows: np.ndarray) -> np.ndarray:
    """Each row less its mean, over its norm (a flat row stays zero)."""
    rows = rows - rows.mean(axis=1, keepdims=True)
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    return rows / np.maximum(norms, 1e-6)


class TreehouseTemplates:
    """Each Treehouse face as normalised patches, at each of the four quarter turns."""

    def __init__(self, images: dict[str, np.ndarray]):
        missing = [f for f in TREEHOUSE_FACES if f not in images]
        if missing:
            raise ValueError(f"Treehouse templates missing for {', '.join(missing)}")
        self.faces = list(images)
        rows, owners = [], []
        for i, img in enumerate(images.values()):
            for k in range(4):
                rows.append(_patch(np.rot90(img, k)).ravel())
                owners.append(i)
        self.bank = _unit_rows(np.array(rows, np.float32))  # (faces x 4 turns, PATCH_PX ** 2)
        self.owner = np.array(owners)  # the face index of each row of bank

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

    def scores(self, crop: np.ndarray) -> dict[str, float]:
        """Best normalised correlation (-1..1) of each face with a square grey crop, over turns and
        small shifts."""
        if crop.ndim != 2 or min(crop.shape) < 4:
            return {face: 0.0 for face in self.faces}
        big = _patch(crop, SHIFT_PX)
        windows = np.lib.stride_tricks.sliding_window_view(big, (PATCH_PX, PATCH_PX))
        windows = _unit_rows(windows.reshape(-1, PATCH_PX * PATCH_PX))
        best = (windows @ self.bank.T).max(axis=0)
        return {face: float(best[self.owner == i].max()) for i, face in enumerate(self.faces)}


@dataclass(frozen=True)
class _Face:
    """A dark square face found around a light symbol: centre px, side px, angle degrees."""

    x: float
    y: float
    side: float
    angle: float


def face_crops(gray: np.ndarray, min_side_px: float = 16, max_side_px: float = 160,
               frame: np.ndarray | None = None) -> list[tuple[np.ndarray, tuple[int, int, int, int]]]:
    """Light symbols on a dark face: (upright square crop of the face, box px) per candidate; of
    candidates on one spot (a target's ring and its dot) only the largest face.

    See `_faces`. frame (BGR), when given, rules out faces that are not black.
    """
    faces = sorted(_faces(gray, min_side_px, max_side_px, frame), key=lambda f: -f.side)
    return [(_upright(gray, faces[i]), _box(faces[i], gray.shape))
            for i in _apart([_box(f, gray.shape) for f in faces])]


def _faces(gray: np.ndarray, min_side_px: float = 16, max_side_px: float = 160,
           frame: np.ndarray | None = None) -> list[_Face]:
    """Dark square faces of min_side_px..max_side_px with a light symbol in the middle, px of gray.

    Large faces are looked for on a halved copy as well, where strokes far apart (the bars of SWAP on
    a die near the camera) join into one symbol. frame (BGR), when given, rules out faces that are
    not black. Two finds of one face may both be listed.
    """
    if gray is None or gray.ndim != 2 or min(gray.shape) < 8:
        return []
    faces = _faces_at(gray, min_side_px, max_side_px)
    if max_side_px >= COARSE_SIDE_PX and min(gray.shape) >= 32:
        half = cv2.resize(gray, (gray.shape[1] // 2, gray.shape[0] // 2), interpolation=cv2.INTER_AREA)
        big = _faces_at(half, max(min_side_px, COARSE_SIDE_PX) / 2, max_side_px / 2)
        faces += [_Face(f.x * 2 + 0.5, f.y * 2 + 0.5, f.side * 2, f.angle) for f in big]
    if frame is not None and frame.ndim == 3:
        faces = [f for f in faces if _black(frame, f)]
    return faces


def _faces_at(gray: np.ndarray, min_side_px: float, max_side_px: float) -> list[_Face]:
    """The faces of `_faces` at one scale.

    Found symbol first (a light mark, its strokes joined, with dark body all round), then the face by
    rays from the symbol's centre to where the dark body ends (the rim, or the table); so a black
    table or a touching die does not hide the face, as a dark-region search would. The symbol must
    sit in the middle of the face (a letter on a key sits off-centre).
    """
    light = _light_marks(gray)
    joined = cv2.morphologyEx(light, cv2.MORPH_CLOSE, JOIN)
    contours, tree = cv2.findContours(joined, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    faces = []
    for i, c in enumerate(contours):
        if tree[0][i][3] >= 0:
            continue  # a hole; a mark inside a hole (a symbol inside a light rim) is listed on its own
        face = _face_of_symbol(gray, light, c, min_side_px, max_side_px)
        if face is not None:
            faces.append(face)
    return faces


def _apart(boxes: list[tuple[int, int, int, int]]) -> list[int]:
    """Indices of the boxes kept when, in the order given, a box is dropped if its centre lies in a
    kept one or a kept one's centre lies in it (two finds of one die)."""
    def holds(box: tuple[int, int, int, int], other: tuple[int, int, int, int]) -> bool:
        cx, cy = (other[0] + other[2]) / 2, (other[1] + other[3]) / 2
        return box[0] <= cx <= box[2] and box[1] <= cy <= box[3]

    kept: list[int] = []
    for i, box in enumerate(boxes):
        if not any(holds(boxes[k], box) or holds(box, boxes[k]) for k in kept):
            kept.append(i)
    return kept


def _light_marks(gray: np.ndarray) -> np.ndarray:
    """1 where a pixel is light and well above its neighbourhood (uint8 mask)."""
    contrast = gray.astype(np.int16) - cv2.blur(gray, (41, 41)).astype(np.int16)
    return ((contrast > 40) & (gray > 110)).astype(np.uint8)


def _face_of_symbol(gray: np.ndarray, light: np.ndarray, contour: np.ndarray, min_side_px: float,
                    max_side_px: float) -> _Face | None:
    """The dark face around a joined light mark, if the mark is a symbol in the middle of one."""
    x, y, bw, bh = cv2.boundingRect(contour)
    extent = max(bw, bh)
    if not 0.3 * min_side_px <= extent <= 0.85 * max_side_px or cv2.contourArea(contour) < 20:
        return None
    cx, cy = x + bw / 2, y + bh / 2
    rect = _rect_from_rays(gray, cx, cy, extent)
    if rect is None:
        return None
    face = _square(rect, cx, cy)
    if not (min_side_px <= face.side <= max_side_px and 1.1 * extent <= face.side <= 3.2 * extent):
        return None
    if extent < 0.4 * face.side and _solid_round(contour, light[y:y + bh, x:x + bw], x, y):
        return None  # a plain round pip: the 1 of a black d6, not a symbol
    return face if _centred(face, cx, cy) else None


def _solid_round(contour: np.ndarray, light: np.ndarray, x: int, y: int) -> bool:
    """A solid, round light blob. (The AIM target is round too, but hollow.)"""
    area = cv2.contourArea(contour)
    (_, _), radius = cv2.minEnclosingCircle(contour)
    if area < 0.65 * np.pi * radius ** 2:
        return False
    inside = np.zeros(light.shape, np.uint8)
    cv2.drawContours(inside, [contour], 0, 1, -1, offset=(-x, -y))
    return float(light[inside > 0].mean()) > 0.85


def _centred(face: _Face, cx: float, cy: float) -> bool:
    """True when (cx, cy) px is near the face centre along both of the face's axes."""
    a = np.radians(face.angle)
    dx, dy = cx - face.x, cy - face.y
    along, across = dx * np.cos(a) + dy * np.sin(a), -dx * np.sin(a) + dy * np.cos(a)
    return max(abs(along), abs(across)) <= CENTRED * face.side


def _ring(image: np.ndarray, x: float, y: float, r: float, count: int = 16) -> np.ndarray:
    """Pixels on a circle of radius r px around (x, y), those inside the image."""
    a = np.arange(count) * 2 * np.pi / count
    xs, ys = (x + r * np.cos(a)).round().astype(int), (y + r * np.sin(a)).round().astype(int)
    ok = (xs >= 0) & (xs < image.shape[1]) & (ys >= 0) & (ys < image.shape[0])
    return image[ys[ok], xs[ok]]


def _black(frame: np.ndarray, face: _Face) -> bool:
    """The Treehouse die is black: a dark red or blue die is not one (median BGR near the rim)."""
    ring = _ring(frame, face.x, face.y, face.side * 0.42)
    if len(ring) == 0:
        return False
    b, g, r = np.median(ring, axis=0)
    return max(b, g, r) - min(b, g, r) <= 25 and max(b, g, r) <= 110


def _rect_from_rays(gray: np.ndarray, cx: float, cy: float, extent: float):
    """The rotated rectangle ((x, y), (w, h), angle) px, degrees where the dark body around a symbol
    ends (rim or table), seen along rays from the symbol's centre; or None."""
    radii = np.arange(extent * 0.5, extent * 2.2, 1.0)
    xs = (cx + np.outer(_RAY_COS, radii)).round().astype(np.intp)
    ys = (cy + np.outer(_RAY_SIN, radii)).round().astype(np.intp)
    h, w = gray.shape
    inside = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
    values = gray[ys.clip(0, h - 1), xs.clip(0, w - 1)].astype(np.int16)
    close = radii <= extent * 1.2  # mostly face: the body's level, not the table's
    near = values[:, close][inside[:, close]]
    if len(near) == 0:
        return None
    body = float(np.partition(near, len(near) // 4)[len(near) // 4])  # the lower quartile
    if body > 90:
        return None
    dark = (values < body + 35) & inside
    edge = (np.cumsum(dark, axis=1) > 0) & ~dark  # light again after the dark (past the symbol)
    found = edge.any(axis=1)  # a ray without an edge: the dark goes on
    if found.sum() < RAYS * 0.6:
        return None
    stop = edge.argmax(axis=1)[found]
    ends = np.stack([xs[found, stop], ys[found, stop]], axis=1)
    rect = cv2.minAreaRect(ends.astype(np.float32))
    (rw, rh) = rect[1]
    if min(rw, rh) < 1 or max(rw, rh) > 1.35 * min(rw, rh):
        return None
    return rect


def _square(rect, cx: float, cy: float) -> _Face:
    """The square face in a found rectangle: a longish one holds a side face too (a dark band along
    one edge), so the face is the square at the end nearer the symbol at (cx, cy) px."""
    (fx, fy), (rw, rh), angle = rect
    short, long_ = min(rw, rh), max(rw, rh)
    if long_ > 1.05 * short:
        a = np.radians(angle if rw >= rh else angle + 90)  # along the long side
        ux, uy = np.cos(a), np.sin(a)
        shift = (long_ - short) / 2 * (1 if (cx - fx) * ux + (cy - fy) * uy >= 0 else -1)
        fx, fy = fx + shift * ux, fy + shift * uy
    return _Face(float(fx), float(fy), short + 2, float(angle))


def _upright(gray: np.ndarray, face: _Face) -> np.ndarray:
    """The face cut out square and turned to its sides (one of four quarter turns)."""
    rot = cv2.getRotationMatrix2D((face.x, face.y), face.angle, 1.0)
    rot[:, 2] += (face.side / 2 - face.x, face.side / 2 - face.y)
    size = int(round(face.side))
    return cv2.warpAffine(gray, rot, (size, size))


def _box(face: _Face, shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """(x1, y1, x2, y2) px of the face's upright square, inside an image of this shape."""
    h, w = shape[:2]
    half = face.side / 2
    return (int(max(0, face.x - half)), int(max(0, face.y - half)), int(min(w - 1, face.x + half)),
            int(min(h - 1, face.y + half)))


def find_treehouse(frame: np.ndarray, gray: np.ndarray, templates: TreehouseTemplates,
                   taken: list[tuple[int, int, int, int]]) -> list:
    """Treehouse dice in a frame, skipping regions already read as pip dice (boxes in `taken`); of
    candidates on one spot only the most confident."""
    from vision.die import Die

    found = []
    for face in _faces(gray, frame=frame):
        box = _box(face, gray.shape)
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        if any(x1 <= cx <= x2 and y1 <= cy <= y2 for x1, y1, x2, y2 in taken):
            continue
        scores = templates.scores(_upright(gray, face))
        best = max(scores, key=scores.__getitem__)
        conf = confidence(scores)
        if conf >= 0.05:
            found.append(Die(best, "treehouse", "black", box, conf))
    found.sort(key=lambda d: -d.confidence)
    return [found[i] for i in _apart([d.box for d in found])]


def confidence(scores: dict[str, float]) -> float:
    """How sure a reading is, 0..1, from each face's correlation: the best face must match well and
    be much nearer than the next one (1 - correlation is as a squared distance between patches)."""
    best, second = sorted(scores.values(), reverse=True)[:2]
    nearer = (1 - second) / max(1 - best, 1e-3)  # how many times nearer the best face is
    return float(np.clip((best - 0.5) / 0.3, 0, 1) * np.clip((nearer - 1.3) / 0.8, 0, 1))


def load_treehouse_faces(data_dir: Path | str | None) -> TreehouseTemplates:
    """The faces captured by `companion calibrate treehouse` in DATA/treehouse/, else the defaults
    drawn from the renderer's symbols (right for the synthetic camera, a guess for a real die)."""
    if data_dir is not None:
        folder = Path(data_dir) / "treehouse"
        if all((folder / f"{face}.png").is_file() for face in TREEHOUSE_FACES):
            return TreehouseTemplates.load(folder)
    return TreehouseTemplates.default()
