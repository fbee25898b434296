#!/usr/bin/python3
"""Checks exported ONNX models with Debian's python3-onnx: the full checker, strict shape
inference, IR 8 / opset 17, and a batch that stays symbolic: dimension 0 of every input,
output and inferred intermediate value is the dim_param "batch", never a number (a constant
Reshape would fix it). Exit 1 naming the model and the value at fault.
`check_model.py --metadata MODEL` prints the model's metadata_props as a JSON object."""
import json
import sys

import onnx
from onnx import shape_inference


def check(path):
    model = onnx.load(path)
    onnx.checker.check_model(model, full_check=True)
    if model.ir_version != 8 or [o.version for o in model.opset_import if o.domain in ("", "ai.onnx")] != [17]:
        raise ValueError(f"IR {model.ir_version}, opsets {[(o.domain, o.version) for o in model.opset_import]}")
    inferred = shape_inference.infer_shapes(model, check_type=True, strict_mode=True)
    values = list(inferred.graph.input) + list(inferred.graph.output) + list(inferred.graph.value_info)
    # Values computed from constants alone (initializers, dequantised weights) or from sizes (a
    # Shape node's output: positions 0..T-1, a causal triangle) have no batch.
    constant = {t.name for t in inferred.graph.initializer}
    for node in inferred.graph.node:
        if node.op_type == "Shape" or all(i in constant for i in node.input if i):
            constant.update(node.output)
    # ONNX Runtime runs LSTM and GRU time-major only (layout 0): their inputs, outputs and the
    # Transposes and Reshapes between them carry the batch in another dimension.
    time_major = set()
    for node in inferred.graph.node:
        if node.op_type in ("LSTM", "GRU", "RNN"):
            time_major.update([node.input[0], *node.output])
        elif node.op_type in ("Transpose", "Reshape") and node.input[0] in time_major:
            time_major.update(node.output)
    for v in values:
        if v.name in constant or not v.type.tensor_type.HasField("shape"):
            continue
        dims = v.type.tensor_type.shape.dim
        if not dims:
            continue  # a scalar or a shape vector: no batch dimension
        if len(dims) == 1 and v.type.tensor_type.elem_type == onnx.TensorProto.INT64 and dims[0].HasField("dim_value"):
            continue  # a Shape node's output ([rank]), not a batch
        if v.name in time_major:
            if not any(d.dim_param == "batch" for d in dims):
                raise ValueError(f"value '{v.name}' has no dimension that is the symbol 'batch'")
            continue
        if not dims[0].HasField("dim_param") or dims[0].dim_param != "batch":
            raise ValueError(f"value '{v.name}' has dimension 0 = {dims[0]}, not the symbol 'batch'")


if sys.argv[1:2] == ["--metadata"]:
    print(json.dumps({p.key: p.value for p in onnx.load(sys.argv[2]).metadata_props}))
    sys.exit(0)
failed = False
for path in sys.argv[1:]:
    try:
        check(path)
        print(f"{path}: ok")
    except Exception as e:  # report every model, then fail
        print(f"{path}: {type(e).__name__}: {e}")
        failed = True
sys.exit(1 if failed else 0)
