"""The detector's graph folded (`vision.onnxfold`): its three heads one convolution, the same outputs."""

from pathlib import Path

import numpy as np
import pytest

from vision.learned import DETECTOR

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from vision.onnxfold import fold_detector  # noqa: E402


def detector_like(path: Path, seed: int = 0, stride: int = 2) -> None:
    """A small graph laid out as PyTorch exports the detector: the frame normalised, a padded strided 3x3
    convolution, then heat (sigmoid), size and offset (sigmoid) as 1x1 convolutions of one tensor."""
    rng = np.random.default_rng(seed)

    def weights(name: str, *shape: int) -> onnx.TensorProto:
        return numpy_helper.from_array(rng.normal(0, 0.5, shape).astype(np.float32), name)

    nodes = [
        helper.make_node("Constant", [], ["mean"], value=numpy_helper.from_array(np.array(0.45, np.float32))),
        helper.make_node("Sub", ["image", "mean"], ["centred"]),
        helper.make_node("Constant", [], ["std"], value=numpy_helper.from_array(np.array(0.25, np.float32))),
        helper.make_node("Div", ["centred", "std"], ["normalised"]),
        helper.make_node("Conv", ["normalised", "stem.w", "stem.b"], ["stem"], kernel_shape=[3, 3],
                         pads=[1, 1, 1, 1], strides=[stride, stride]),
        helper.make_node("Relu", ["stem"], ["features"]),
        helper.make_node("Conv", ["features", "heat.w", "heat.b"], ["heat_logit"], kernel_shape=[1, 1]),
        helper.make_node("Sigmoid", ["heat_logit"], ["heat"]),
        helper.make_node("Conv", ["features", "size.w", "size.b"], ["size"], kernel_shape=[1, 1]),
        helper.make_node("Conv", ["features", "offset.w", "offset.b"], ["offset_logit"], kernel_shape=[1, 1]),
        helper.make_node("Sigmoid", ["offset_logit"], ["offset"]),
    ]
    initializers = [weights("stem.w", 8, 3, 3, 3), weights("stem.b", 8), weights("heat.w", 1, 8, 1, 1),
                    weights("heat.b", 1), weights("size.w", 2, 8, 1, 1), weights("size.b", 2),
                    weights("offset.w", 2, 8, 1, 1), weights("offset.b", 2)]
    image = helper.make_tensor_value_info("image", TensorProto.FLOAT, [1, 3, "h", "w"])
    outputs = [helper.make_tensor_value_info(name, TensorProto.FLOAT, [1, channels, "h2", "w2"])
               for name, channels in (("heat", 1), ("size", 2), ("offset", 2))]
    graph = helper.make_graph(nodes, "detector", [image], outputs, initializers)
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(path))


def run(path: Path, image: np.ndarray) -> list[np.ndarray]:
    return ort.InferenceSession(str(path), providers=["CPUExecutionProvider"]).run(None, {"image": image})


@pytest.mark.parametrize("height, width", [(24, 32), (17, 9)])
def test_the_folded_graph_gives_the_same_heat_size_and_offset(tmp_path, height, width):
    path = tmp_path / "detector.onnx"
    detector_like(path)
    frame = np.random.default_rng(1).random((1, 3, height, width), dtype=np.float32)
    want = run(path, frame)
    fold_detector(path)
    ops = [node.op_type for node in onnx.load(str(path)).graph.node]
    assert ops.count("Conv") == 2 and ops.count("Split") == 1  # the stem, and one convolution for the heads
    got = run(path, frame)
    for g, w in zip(got, want, strict=True):
        assert g.shape == w.shape
        assert np.abs(g - w).max() < 1e-6  # the same sums (bit for bit on this machine; another may round)


def test_folding_twice_changes_nothing_more(tmp_path):
    path = tmp_path / "detector.onnx"
    detector_like(path)
    fold_detector(path)
    once = path.read_bytes()
    fold_detector(path)
    assert path.read_bytes() == once


def test_a_graph_that_is_not_laid_out_as_the_detector_is_left_alone(tmp_path):
    path = tmp_path / "other.onnx"
    node = helper.make_node("Relu", ["image"], ["heat"])
    image, heat = (helper.make_tensor_value_info(name, TensorProto.FLOAT, [1, 3])
                   for name in ("image", "heat"))
    graph = helper.make_graph([node], "other", [image], [heat])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(path))
    before = path.read_bytes()
    fold_detector(path)
    assert path.read_bytes() == before


def test_the_committed_detector_is_folded():
    # as `companion train dice` exports it: the heads are one convolution split three ways
    graph = onnx.load(str(DETECTOR)).graph
    assert [node.op_type for node in graph.node].count("Split") == 1
    assert not {"heat.weight", "size.weight", "offset.weight"} & {i.name for i in graph.initializer}
