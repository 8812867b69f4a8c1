"""The exported detector's ONNX graph rewritten to run faster with the same outputs (`fold_detector`).

PyTorch exports the detector as it trains: it ends in three 1x1 convolutions (heat, size, offset) of the
same features, each a pass of its own over the quarter-size feature map. The exported graph computes them
as one 1x1 convolution split three ways: the same sums, so the same outputs bit for bit (on 100 inputs of
5 sizes, 2026-12-01), in about 6 % less time a look on one core of this machine (notes s47,
`detab_heads.txt`: 640x480 6.24 -> 5.84 ms at best). Folding the frame's normalisation ((x - 0.45) / 0.25)
into the first convolution as well saved about 2 % more, but changed outputs by about 1e-6, enough to
change what the classifiers learn from and so the committed weights (s47); it is not done. Needs the onnx
package (the training extras and the tests); the reader only runs the result.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np


def fold_detector(path: Path) -> None:
    """The detector's ONNX file at `path` rewritten in place (see the module's docstring). A graph whose
    outputs are not plain 1x1 convolutions of one tensor (already folded, or another network) is left as
    it is."""
    import onnx

    model = onnx.load(str(path))
    if _merge_heads(model.graph):
        onnx.checker.check_model(model)
        onnx.save(model, str(path))


def _merge_heads(graph) -> bool:
    """The graph's outputs, each a plain 1x1 Conv of one shared tensor or a Sigmoid of one, become one Conv
    whose output is split to them. False where the graph is not so (nothing is changed)."""
    from onnx import helper, numpy_helper

    initializers = {i.name: i for i in graph.initializer}
    made_by = {name: node for node in graph.node for name in node.output}
    heads = []
    for output in graph.output:
        node = made_by.get(output.name)
        if node is not None and node.op_type == "Sigmoid":
            node = made_by.get(node.input[0])
        if node is None or not _plain_1x1(node, initializers):
            return False
        heads.append(node)
    if len(heads) < 2 or len({conv.input[0] for conv in heads}) != 1:
        return False
    weights = [numpy_helper.to_array(initializers[conv.input[1]]) for conv in heads]
    biases = [numpy_helper.to_array(initializers[conv.input[2]]) for conv in heads]
    for name in {name for conv in heads for name in conv.input[1:]}:
        graph.initializer.remove(initializers[name])
    graph.initializer.extend([
        numpy_helper.from_array(np.concatenate(weights), "heads.weight"),
        numpy_helper.from_array(np.concatenate(biases), "heads.bias"),
        numpy_helper.from_array(np.array([len(w) for w in weights], np.int64), "heads.split")])
    merged = helper.make_node("Conv", [heads[0].input[0], "heads.weight", "heads.bias"], ["heads"],
                              kernel_shape=[1, 1])
    split = helper.make_node("Split", ["heads", "heads.split"], [conv.output[0] for conv in heads], axis=1)
    first = min(list(graph.node).index(conv) for conv in heads)
    kept = [node for node in graph.node if node not in heads]  # (messages compare by content)
    del graph.node[:]
    graph.node.extend([*kept[:first], merged, split, *kept[first:]])
    return True


def _plain_1x1(node, initializers: dict) -> bool:
    """Whether `node` is a 1x1 Conv with a weight and a bias of the graph's own, no stride, padding,
    dilation or groups: one output channel's sums, which one wider convolution makes the same way."""
    from onnx import helper

    if node.op_type != "Conv" or len(node.input) != 3 or not all(n in initializers for n in node.input[1:]):
        return False
    plain = {"kernel_shape": [1, 1], "strides": [1, 1], "pads": [0, 0, 0, 0], "dilations": [1, 1], "group": 1}
    return (list(initializers[node.input[1]].dims[2:]) == [1, 1]
            and all(helper.get_attribute_value(a) == plain.get(a.name) for a in node.attribute))
