"""The trained networks written as the reader reads them: ONNX files beside their meta JSON (`export`,
`save_meta`), and the classifiers made int8 (`quantise`). Part of `companion train dice`
(`vision.dicetrain`); needs torch, onnx and onnxruntime's quantisation."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from vision.learned import CLASSIFIER, CROP, DETECTOR, META, LearnedReader, member_path
from vision.onnxfold import fold_detector

if TYPE_CHECKING:
    from vision.readerfit import Scenes  # the held-out scenes whose crops set the int8 ranges


def export(detector, classifier, meta: dict, out: Path, member: int = 0) -> None:
    """Both networks to ONNX (opset 17) and the calibration beside them, in `out` (detector None: the
    detector already in `out` stays; `member`: the classifier is that member of an ensemble). The
    detector's graph is folded to run faster with the same outputs (`vision.onnxfold`)."""
    import torch

    out.mkdir(parents=True, exist_ok=True)
    with torch.no_grad():
        if detector is not None:
            torch.onnx.export(detector, torch.zeros(1, 3, 224, 224), str(out / DETECTOR.name),
                              input_names=["image"], output_names=["heat", "size", "offset"],
                              opset_version=17,
                              dynamic_axes={"image": {2: "h", 3: "w"}, "heat": {2: "h4", 3: "w4"},
                                            "size": {2: "h4", 3: "w4"}, "offset": {2: "h4", 3: "w4"}},
                              dynamo=False)
            fold_detector(out / DETECTOR.name)
        path = member_path(out / CLASSIFIER.name, member)
        torch.onnx.export(classifier, torch.zeros(1, 3, CROP, CROP), str(path),
                          input_names=["crops"], output_names=["values", "colours", "side"], opset_version=17,
                          dynamic_axes={"crops": {0: "n"}, "values": {0: "n"}, "colours": {0: "n"},
                                        "side": {0: "n"}},
                          dynamo=False)
    save_meta(meta, out)


def drop_other_members(out: Path, members: int) -> None:
    """Remove classifiers of a larger ensemble trained into `out` before (dice_faces_3.onnx after a run of
    `members` 2): the meta would not read them, but beside the weights they would pass for part of them."""
    member = members
    while (path := member_path(out / CLASSIFIER.name, member)).is_file():
        path.unlink()
        member += 1


def save_meta(meta: dict, out: Path) -> None:
    (out / META.name).write_text(json.dumps(meta, indent=1) + "\n")


QUANTISE_CROPS = 1024  # crops whose activations set the int8 classifier's ranges (all held in memory)
QUANTISE_SCENES = 250  # the first calibration scenes, whose crops QUANTISE_CROPS are drawn from
QUANTISE_BATCH = 128  # crops run at a time while the ranges are measured (a min and max: any size gives them)


def calibration_views(reader: LearnedReader, scenes: Scenes) -> np.ndarray:
    """A seeded sample of QUANTISE_CROPS of the classifier's inputs as the reader cuts them from the first
    QUANTISE_SCENES of `scenes` (float (n, 3, CROP, CROP)), to set the int8 classifier's ranges."""
    views = np.concatenate([reader.views(image, found) for image, _ in scenes[:QUANTISE_SCENES]
                            if (found := reader.detect(image))])
    pick = np.random.default_rng(40).choice(len(views), min(len(views), QUANTISE_CROPS), replace=False)
    return views[np.sort(pick)]


def quantise(out: Path, views: np.ndarray, member: int = 0) -> None:
    """The classifier in `out` made int8 in place, as the reader runs it: ONNX Runtime's static quantisation
    (QDQ; per-channel int8 weights, uint8 activations), about 30 % less time a crop on one core of this
    machine (a 640x480 frame 19-23 ms against 24-30, read as well: phone 206, wood 228, casino 57 held-out
    dice against 205, 228, 57). The weights keep 7 bits (`reduce_range`): an x86 CPU without VNNI adds
    uint8 x int8 products into saturating 16-bit sums, and on such a CPU (AVX2 only, 2026-11-27) the same
    classifier with 8 bits read phone 191, wood 219, casino 50. On a CPU with AVX512-VNNI (this machine
    kind since 2026-11-29) the 7 bits cost no more than noise: a classifier that read 248 of 288 found
    phone dice in float read 248 with 7 bits and 250 with 8. The activations' ranges (min to max) are those
    of `views`, the classifier's inputs (`calibration_views`). `member`: that classifier of the ensemble.
    The detector stays in float: made int8 the same way (ranges from its 480 looks at 120 calibration
    renders, its merged heads left in float), a look took 17 % less time and a 640x480 frame about 9 % less,
    but it read 126 fewer of 11225 held-out rendered dice, 48 fewer of 3250 oblique ones and 7 fewer of 312
    phone dice (2026-12-02)."""
    from onnxruntime.quantization import (
        CalibrationDataReader,
        CalibrationMethod,
        QuantFormat,
        QuantType,
        quantize_static,
    )
    from onnxruntime.quantization.shape_inference import quant_pre_process

    batches = iter([{"crops": views[k:k + QUANTISE_BATCH]} for k in range(0, len(views), QUANTISE_BATCH)])

    class Crops(CalibrationDataReader):
        def get_next(self) -> dict | None:
            return next(batches, None)

    model = member_path(out / CLASSIFIER.name, member)
    prepared = out / f"{model.stem}.prepared.onnx"
    quant_pre_process(str(model), str(prepared), skip_symbolic_shape=True)
    try:
        quantize_static(str(prepared), str(model), Crops(), quant_format=QuantFormat.QDQ, per_channel=True,
                        reduce_range=True, activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
                        calibrate_method=CalibrationMethod.MinMax)
    finally:
        prepared.unlink(missing_ok=True)
