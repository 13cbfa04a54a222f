"""``tf.TensorArray`` as TF1's graph mode builds it: the Python object over a TensorArrayV3 op's handle and
flow (graphlab/ops/tensor_array_ops.py holds the ops, their kernels and gradients).

``write``/``scatter``/``unstack``/``split`` return a new TensorArray object on the new flow (TF's
build_ta_with_new_flow); keep using the returned one, or the writes are cut off from what is fetched.
"""
import numpy as np

from graphlab.framework import dtypes, graph as graph_mod, tensor_shape
from graphlab.framework.tensor import Tensor
from graphlab.framework import registry
from graphlab.ops import tensor_array_ops  # noqa: F401  (registers the ops this class builds)
from graphlab.framework.registry import build_op

class TensorArray:
    """``tf.TensorArray`` (TF1's graph implementation): ``write``/``scatter``/``unstack``/``split`` return a
    new TensorArray on the new flow; ``read``/``gather``/``stack``/``concat`` return tensors."""

    def __init__(self, dtype, size=None, dynamic_size=None, clear_after_read=None, tensor_array_name=None,
                 handle=None, flow=None, infer_shape=True, element_shape=None,
                 colocate_with_first_write_call=True, name=None):
        if handle is not None and tensor_array_name:
            raise ValueError("Cannot provide both `handle` and `tensor_array_name` arguments at the same time.")
        if handle is not None and not isinstance(handle, Tensor):
            raise TypeError("Expected `handle` to be a Tensor, but got `%s` of type `%s` instead." % (
                handle, type(handle)))
        if handle is None and size is None:
            raise ValueError("Argument `size` must be provided if handle is not provided.")
        if handle is not None and size is not None:
            raise ValueError("Cannot provide both a `handle` and `size` arguments at the same time.")
        if handle is not None and element_shape is not None:
            raise ValueError("Cannot provide both `handle` and `element_shape` arguments at the same time.")
        if handle is not None and dynamic_size is not None:
            raise ValueError("Cannot provide both `handle` and `dynamic_size` arguments at the same time.")
        if handle is not None and clear_after_read is not None:
            raise ValueError("Cannot provide both `handle` and `clear_after_read` arguments at the same time.")
        if clear_after_read is None:
            clear_after_read = True
        self._dynamic_size = dynamic_size or False
        self._dtype = dtypes.as_dtype(dtype).base_dtype
        self._colocate_with_first_write_call = colocate_with_first_write_call
        self._element_shape = [tensor_shape.as_shape(element_shape)]   # shared by the arrays of one flow
        self._infer_shape = infer_shape
        self._size = size
        with graph_mod.name_scope(name, "TensorArray", [x for x in (handle, size, flow) if isinstance(x, Tensor)]) \
                as scope:
            if handle is not None:
                if flow is None:
                    raise ValueError("flow must not be None if handle is not None.")
                self._handle, self._flow = handle, flow
            else:
                op = build_op("TensorArrayV3", [size], attrs={
                    "dtype": self._dtype, "element_shape": tensor_shape.as_shape(element_shape),
                    "dynamic_size": self._dynamic_size, "clear_after_read": bool(clear_after_read),
                    "identical_element_shapes": bool(infer_shape), "tensor_array_name": tensor_array_name or ""},
                    name=scope)
                self._handle, self._flow = op.outputs

    # --- what loops and conds see ---------------------------------------------------------------------
    @property
    def flow(self):
        return self._flow

    @property
    def handle(self):
        return self._handle

    @property
    def dtype(self):
        return self._dtype

    @property
    def element_shape(self):
        return self._element_shape[0]

    @property
    def dynamic_size(self):
        return self._dynamic_size

    def _with_flow(self, flow):
        """The same array on another flow (TF's build_ta_with_new_flow): a write's result, or a loop's."""
        new = TensorArray(dtype=self._dtype, handle=self._handle, flow=flow, infer_shape=self._infer_shape,
                          colocate_with_first_write_call=self._colocate_with_first_write_call)
        new._dynamic_size, new._size = self._dynamic_size, self._size
        new._element_shape = self._element_shape
        return new

    def _check_element_shape(self, shape):
        if not shape.is_compatible_with(self.element_shape):
            raise ValueError("Inconsistent shapes: saw %s but expected %s " % (shape, self.element_shape))
        if self._infer_shape:
            self._element_shape[0] = self.element_shape.merge_with(shape)

    def identity(self):
        from graphlab.ops import array_ops
        return self._with_flow(array_ops.identity(self._flow))

    def grad(self, source, flow=None, name=None):
        from graphlab.ops import array_ops
        flow = self._flow if flow is None else flow
        with graph_mod.name_scope(name, "TensorArrayGrad", [self._handle]):
            g_handle, _ = build_op("TensorArrayGradV3", [self._handle, flow], attrs={"source": source},
                                   name=name).outputs
            with g_handle.graph.control_dependencies([g_handle]):
                flow = array_ops.identity(flow, name="gradient_flow")
            g = TensorArray(dtype=self._dtype, handle=g_handle, flow=flow, infer_shape=self._infer_shape,
                            colocate_with_first_write_call=False)
            g._element_shape = self._element_shape
            return g

    # --- reading ---------------------------------------------------------------------------------------
    def read(self, index, name=None):
        value = build_op("TensorArrayReadV3", [self._handle, index, self._flow], attrs={"dtype": self._dtype},
                         name=name).outputs[0]
        if self._element_shape:
            value.set_shape(self._element_shape[0])
        return value

    def gather(self, indices, name=None):
        element_shape = self._element_shape[0] if self._element_shape else tensor_shape.UNKNOWN
        value = build_op("TensorArrayGatherV3", [self._handle, indices, self._flow],
                         attrs={"dtype": self._dtype, "element_shape": element_shape}, name=name).outputs[0]
        if self.element_shape.ndims is not None:
            value.set_shape(tensor_shape.TensorShape([None]).concatenate(self.element_shape))
        return value

    def stack(self, name=None):
        from graphlab.ops import array_ops
        with graph_mod.name_scope(name, "TensorArrayStack", [self._handle]):
            value = self.gather(array_ops.range(0, self.size()), name=name)
            if self.element_shape.ndims is not None and not self._dynamic_size and self._size is not None:
                size = registry.const_value(registry.convert_to_tensor(self._size)) \
                    if isinstance(self._size, Tensor) else self._size
                value.set_shape(tensor_shape.TensorShape([None if size is None else int(size)]).concatenate(
                    self.element_shape))
            return value

    def concat(self, name=None):
        rest = self.element_shape[1:] if self.element_shape.ndims else tensor_shape.UNKNOWN
        value, _ = build_op("TensorArrayConcatV3", [self._handle, self._flow],
                            attrs={"dtype": self._dtype, "element_shape_except0": rest}, name=name).outputs
        if self.element_shape.ndims:
            dim0 = None
            if self._infer_shape:
                size = registry.const_value(self.size())
                first = self.element_shape.as_list()[0]
                if size is not None and first is not None:
                    dim0 = int(size) * first
            value.set_shape(tensor_shape.TensorShape([dim0]).concatenate(self.element_shape[1:]))
        return value

    def size(self, name=None):
        if not self._dynamic_size and self._size is not None:
            return registry.convert_to_tensor(self._size, dtype=dtypes.int32)
        return build_op("TensorArraySizeV3", [self._handle, self._flow], name=name).outputs[0]

    # --- writing ---------------------------------------------------------------------------------------
    def write(self, index, value, name=None):
        with graph_mod.name_scope(name, "TensorArrayWrite", [self._handle, index, value]):
            value = registry.convert_to_tensor(value, preferred_dtype=self._dtype, name="value")
            self._check_element_shape(value.shape)
            flow_out = build_op("TensorArrayWriteV3", [self._handle, index, value, self._flow],
                                name=name).outputs[0]
            return self._with_flow(flow_out)

    def scatter(self, indices, value, name=None):
        with graph_mod.name_scope(name, "TensorArrayScatter", [self._handle, value, indices]):
            value = registry.convert_to_tensor(value, preferred_dtype=self._dtype, name="value")
            if value.shape.ndims:
                self._check_element_shape(value.shape[1:])
            flow_out = build_op("TensorArrayScatterV3", [self._handle, indices, value, self._flow],
                                name=name).outputs[0]
            return self._with_flow(flow_out)

    def unstack(self, value, name=None):
        from graphlab.ops import array_ops
        with graph_mod.name_scope(name, "TensorArrayUnstack", [self._handle, value]):
            num_elements = array_ops.shape(value)[0]
            return self.scatter(indices=array_ops.range(0, num_elements), value=value, name=name)

    def split(self, value, lengths, name=None):
        from graphlab.ops import math_ops
        with graph_mod.name_scope(name, "TensorArraySplit", [self._handle, value, lengths]):
            value = registry.convert_to_tensor(value, dtype=self._dtype, name="value")
            lengths_64 = math_ops.cast(lengths, dtypes.int64)
            known = registry.const_value(lengths_64)
            if value.shape.ndims is not None and known is not None and np.size(known) and \
                    np.max(known) == np.min(known):
                self._check_element_shape(tensor_shape.TensorShape([int(np.reshape(known, [-1])[0])]).concatenate(
                    value.shape[1:]))
            flow_out = build_op("TensorArraySplitV3", [self._handle, value, lengths_64, self._flow],
                                name=name).outputs[0]
            return self._with_flow(flow_out)

    def close(self, name=None):
        return build_op("TensorArrayCloseV3", [self._handle], name=name)

    def __repr__(self):
        return "<TensorArray %s dtype=%s>" % (self._handle.op.name, self._dtype.name)


__all__ = ["TensorArray"]
