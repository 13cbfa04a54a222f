"""Regenerate tf_op_attrs.json (the attr names TensorFlow's OpDef declares for each op graphlab may export)
and tf_op_outputs.json (each op's output arguments, which a FunctionDef names: ``mul:z:0``).

Run with a Python that has TensorFlow (not graphlab's venv):
    .tfvenv/bin/python graphlab/framework/make_tf_op_attrs.py
Only ops of TF's array/math/nn/state/io/control-flow/random/logging/string/script/data-flow/dataset/image/
parsing families are kept.
"""
import json
import os
import re


def main():
    from tensorflow.core.framework import op_def_pb2
    from tensorflow.python.client import pywrap_tf_session as c_api
    from tensorflow.python.ops import (gen_array_ops, gen_control_flow_ops, gen_io_ops, gen_logging_ops,
                                       gen_math_ops, gen_nn_ops, gen_random_ops, gen_resource_variable_ops,
                                       gen_script_ops, gen_state_ops, gen_string_ops,
                                       gen_data_flow_ops, gen_dataset_ops, gen_experimental_dataset_ops,
                                       gen_image_ops, gen_parsing_ops)
    mods = [gen_array_ops, gen_math_ops, gen_nn_ops, gen_state_ops, gen_io_ops, gen_control_flow_ops,
            gen_random_ops, gen_logging_ops, gen_string_ops, gen_script_ops, gen_resource_variable_ops,
            gen_data_flow_ops, gen_dataset_ops, gen_experimental_dataset_ops, gen_image_ops, gen_parsing_ops]
    ops = op_def_pb2.OpList()
    ops.ParseFromString(c_api.TF_GetBuffer(c_api.TF_GetAllOpList()))
    forced = {"Max", "Min", "Sum", "Prod", "Mean", "All", "Any", "Range", "Slice", "Pow", "Abs",
              "FusedBatchNorm", "FusedBatchNormV3"}

    def snake(n):
        s = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", n)
        return re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", s).lower()
    keep, outputs = {}, {}
    for op in ops.op:
        if op.name.startswith("_"):
            continue
        sn = snake(op.name)
        known = any(hasattr(m, sn) or hasattr(m, "_" + sn) or hasattr(m, sn + "_") for m in mods)
        if op.name in forced or known:
            keep[op.name] = [a.name for a in op.attr]
            # [name, how many]: 1, the name of a number attr (N), or of a type-list attr (Toutput_types)
            outputs[op.name] = [[a.name, a.number_attr or a.type_list_attr or 1] for a in op.output_arg]
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tf_op_attrs.json")
    with open(path, "w") as f:
        f.write(json.dumps(keep, separators=(",", ":"), sort_keys=True))
    with open(os.path.join(os.path.dirname(path), "tf_op_outputs.json"), "w") as f:
        f.write(json.dumps(outputs, separators=(",", ":"), sort_keys=True))


if __name__ == "__main__":
    main()
