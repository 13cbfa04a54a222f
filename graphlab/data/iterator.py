"""``tf.data.Iterator`` (TF1): ``get_next`` gives the next element's tensors; ``from_structure`` makes an
iterator that ``make_initializer(dataset)`` points at any dataset of that structure."""
from graphlab.data.functions import flatten, pack
from graphlab.framework import dtypes, tensor_shape
from graphlab.framework.registry import build_op


class Iterator:
    def __init__(self, handle, initializer, structure):
        self._iterator_resource = handle
        self._initializer = initializer
        self._structure = structure
        self._string_handle = None

    @property
    def initializer(self):
        if self._initializer is None:
            raise ValueError("Iterator does not have an initializer.")
        return self._initializer

    @property
    def output_types(self):
        return pack(self._structure, [s.dtype for s in flatten(self._structure)])

    @property
    def output_classes(self):
        from graphlab.framework.tensor import Tensor
        return pack(self._structure, [Tensor for _ in flatten(self._structure)])

    @property
    def output_shapes(self):
        return pack(self._structure, [s.shape for s in flatten(self._structure)])

    @staticmethod
    def from_structure(output_types, output_shapes=None, shared_name=None, output_classes=None):
        from graphlab.data.dataset import _Spec
        types = [dtypes.as_dtype(t) for t in flatten(output_types)]
        shapes = flatten_like(output_types, output_shapes) if output_shapes is not None else [None] * len(types)
        specs = [_Spec(t, tensor_shape.as_shape(s) if s is not None else tensor_shape.UNKNOWN)
                 for t, s in zip(types, shapes)]
        op = build_op("IteratorV2", (), attrs={"shared_name": shared_name or "", "container": "",
                                               "output_types": types, "output_shapes": [s.shape for s in specs]})
        it = Iterator(op.outputs[0], None, pack(output_types, specs))
        it._string_handle = build_op("IteratorToStringHandle", [op.outputs[0]]).outputs[0]
        return it

    @staticmethod
    def from_string_handle(string_handle, output_types, output_shapes=None, output_classes=None):
        """A feedable iterator: each run uses the iterator whose ``string_handle()`` value is fed."""
        from graphlab.data.dataset import _Spec
        from graphlab.framework.registry import convert_to_tensor
        types = [dtypes.as_dtype(t) for t in flatten(output_types)]
        shapes = flatten_like(output_types, output_shapes) if output_shapes is not None else [None] * len(types)
        specs = [_Spec(t, tensor_shape.as_shape(s) if s is not None else tensor_shape.UNKNOWN)
                 for t, s in zip(types, shapes)]
        handle = convert_to_tensor(string_handle, dtype=dtypes.string)
        op = build_op("IteratorFromStringHandleV2", [handle], attrs={
            "output_types": types, "output_shapes": [s.shape for s in specs]})
        it = Iterator(op.outputs[0], None, pack(output_types, specs))
        it._string_handle = build_op("IteratorToStringHandle", [op.outputs[0]]).outputs[0]
        return it

    def make_initializer(self, dataset, name=None):
        return build_op("MakeIterator", [dataset._variant_tensor, self._iterator_resource], name=name,
                        default_name="make_initializer")

    def get_next(self, name=None):
        specs = flatten(self._structure)
        op = build_op("IteratorGetNext", [self._iterator_resource], name=name, default_name="IteratorGetNext",
                      attrs={"output_types": [s.dtype for s in specs], "output_shapes": [s.shape for s in specs]})
        return pack(self._structure, op.outputs)

    def string_handle(self, name=None):
        if self._string_handle is None:
            self._string_handle = build_op("IteratorToStringHandle", [self._iterator_resource], name=name).outputs[0]
        return self._string_handle


def flatten_like(structure, values):
    """Shapes given in the structure of ``output_types`` in flat order (a shape itself is one leaf)."""
    if isinstance(structure, dict):
        return [v for k in sorted(structure) for v in flatten_like(structure[k], values[k])]
    if isinstance(structure, tuple):
        return [v for s, x in zip(structure, values) for v in flatten_like(s, x)]
    return [values]
