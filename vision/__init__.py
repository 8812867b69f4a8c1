"""`vision`: frames in, observations out. Imports numpy, cv2 and the standard library only.

    from vision import CameraThread, SettleDetector, annotate, open_source, read_dice
    camera = CameraThread(open_source("auto")).start()
    settle = SettleDetector(settle_ms=700)
    frame = camera.latest_frame()
    if frame is not None and settle.update(frame, time_ms):
        dice = read_dice(frame, treehouse=load_treehouse_faces(data_dir))
        photo = annotate(frame, dice)

Names are loaded lazily, so `import vision` stays cheap and never opens a camera. (No exported
name may also be a submodule's name: importing the submodule would rebind it.)
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "CameraThread": "vision.camera",
    "Frame": "vision.camera",
    "SettleDetector": "vision.settle",
    "Die": "vision.die",
    "read_dice": "vision.dice",
    "annotate": "vision.drawing",
    "open_source": "vision.sources",
    "FrameSource": "vision.sources",
    "SyntheticSource": "vision.sources",
    "ReplaySource": "vision.sources",
    "OpenCVSource": "vision.sources",
    "Picamera2Source": "vision.sources",
    "DieSpec": "vision.render",
    "render_scene": "vision.render",
    "TreehouseTemplates": "vision.treehouse",
    "load_treehouse_faces": "vision.treehouse",
    "VisionError": "vision.errors",
    "CameraError": "vision.errors",
    "ImageReadError": "vision.errors",
    "SourceSpecError": "vision.errors",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'vision' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
