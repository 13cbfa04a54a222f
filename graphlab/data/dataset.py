"""``tf.data.Dataset`` in graph mode (TF1's ``tf.compat.v1.data``): each method adds the dataset op TF adds,
with TF's names (``TensorSliceDataset``, ``MapDataset``, ``batch_size``, ``BatchDatasetV2`` ...)."""
from graphlab.data import dataset_ops  # noqa: F401  (registers the ops)
from graphlab.data.functions import DatasetFactory, TracedFunction, flatten, pack
from graphlab.framework import dtypes, graph as graph_mod, random_seed, tensor_shape
from graphlab.framework.tensor import Tensor
from graphlab.ops import array_ops, math_ops
from graphlab.framework.registry import build_op, constant, convert_to_tensor


class _Spec:
    __slots__ = ("dtype", "shape")

    def __init__(self, dtype, shape):
        self.dtype, self.shape = dtype, shape

    def __repr__(self):
        # what TF prints for one component of a dataset's element_spec
        return "TensorSpec(shape=%s, dtype=%r, name=None)" % (self.shape, self.dtype)


# The Python class TF's compat.v1 Dataset methods return, by the op they add: ``print(dataset)`` names it.
# Methods that wrap a TF2 dataset for TF1 (apply, from_generator) show TF's ``DatasetV1Adapter``.
_CLASS_OF_OP = {"BatchDatasetV2": "_BatchDataset", "PaddedBatchDatasetV2": "_PaddedBatchDataset",
                "ParallelMapDatasetV2": "_ParallelMapDataset", "CacheDataset": "CacheDataset"}


def _specs_like(structure, tensors):
    return pack(structure, [_Spec(t.dtype.base_dtype, t.shape) for t in tensors])


def _attrs(specs, types_key="output_types"):
    return {types_key: [s.dtype for s in specs], "output_shapes": [s.shape for s in specs], "metadata": ""}


def _targs(fn):
    return [t.dtype.base_dtype for t in fn.captured]


def _int64(value, name):
    return convert_to_tensor(value, dtype=dtypes.int64, name=name)


class Dataset:
    """A dataset: a ``variant`` tensor made by its op, and the structure of its elements."""

    def __init__(self, variant, structure, class_name=None):
        self._variant_tensor = variant
        self._structure = structure
        self._class_name = class_name

    def __repr__(self):
        """TF's ``<_TensorSliceDataset element_spec=(TensorSpec(...), ...)>``."""
        name = self._class_name
        if name is None:
            op_type = self._variant_tensor.op.type
            name = _CLASS_OF_OP.get(op_type, "_" + op_type)
        return "<%s element_spec=%r>" % (name, self._structure)

    def _named(self, class_name):
        return Dataset(self._variant_tensor, self._structure, class_name)

    # --- structure ---------------------------------------------------------------------------------
    @property
    def _specs(self):
        return flatten(self._structure)

    @property
    def output_types(self):
        return pack(self._structure, [s.dtype for s in self._specs])

    @property
    def output_shapes(self):
        return pack(self._structure, [s.shape for s in self._specs])

    def _new(self, op_type, inputs, specs_structure, extra=None, types_key="output_types"):
        attrs = _attrs(flatten(specs_structure), types_key)
        attrs.update(extra or {})
        return Dataset(build_op(op_type, inputs, attrs=attrs).outputs[0], specs_structure)

    # --- sources -----------------------------------------------------------------------------------
    @staticmethod
    def from_tensor_slices(tensors):
        flat = _normalize_element(tensors)
        specs = [_Spec(t.dtype.base_dtype, t.shape[1:]) for t in flat]
        attrs = _attrs(specs, "Toutput_types")
        attrs.update({"is_files": False, "replicate_on_split": False})
        return Dataset(build_op("TensorSliceDataset", [flat], attrs=attrs).outputs[0], pack(tensors, specs))

    @staticmethod
    def from_tensors(tensors):
        flat = _normalize_element(tensors)
        specs = [_Spec(t.dtype.base_dtype, t.shape) for t in flat]
        return Dataset(build_op("TensorDataset", [flat], attrs=_attrs(specs, "Toutput_types")).outputs[0],
                       pack(tensors, specs))

    @staticmethod
    def from_generator(generator, output_types, output_shapes=None, args=None, output_signature=None):
        """``Dataset.from_generator``: the elements a Python generator yields, as TF builds it (a
        ``TensorDataset`` of a dummy 0, ``flat_map`` to a ``GeneratorDataset`` whose init, next and finalize
        functions call Python through ``PyFunc``; like any py_func the graph runs only in this process)."""
        from graphlab.data import generator as generator_mod
        return generator_mod.from_generator(Dataset, _Spec, generator, output_types, output_shapes,
                                            args)._named("DatasetV1Adapter")

    @staticmethod
    def range(*args):
        start, stop, step = (0, args[0], 1) if len(args) == 1 else (tuple(args) + (1,))[:3]
        inputs = [_int64(start, "start"), _int64(stop, "stop"), _int64(step, "step")]
        spec = _Spec(dtypes.int64, tensor_shape.SCALAR)
        attrs = _attrs([spec])
        attrs["replicate_on_split"] = False
        return Dataset(build_op("RangeDataset", inputs, attrs=attrs).outputs[0], spec)

    # --- functions ---------------------------------------------------------------------------------
    def _trace(self, fn, kind):
        structure = self._structure
        specs = self._specs

        def call(f, args):
            packed = pack(structure, args)
            return f(*packed) if isinstance(structure, tuple) else f(packed)
        return TracedFunction(graph_mod.get_default_graph(), fn, kind, [s.dtype for s in specs],
                              [s.shape for s in specs], call)

    def map(self, map_func, num_parallel_calls=None):
        fn = self._trace(map_func, "map")
        structure = _specs_like(fn.structure, fn.outputs)
        extra = {"f": fn, "Targuments": _targs(fn), "use_inter_op_parallelism": True, "preserve_cardinality": False}
        if num_parallel_calls is None:
            extra["force_synchronous"] = False
            return self._new("MapDataset", [self._variant_tensor, fn.captured], structure, extra)
        n = _int64(num_parallel_calls, "num_parallel_calls")
        extra.update({"deterministic": "default", "use_unbounded_threadpool": False})
        return self._new("ParallelMapDatasetV2", [self._variant_tensor, fn.captured, n], structure, extra)

    def filter(self, predicate):
        fn = self._trace(predicate, "filter")
        if len(fn.outputs) != 1 or fn.outputs[0].dtype.base_dtype != dtypes.bool or fn.outputs[0].shape.ndims not in (0, None):
            raise ValueError("Invalid `predicate`. `predicate` must return a `tf.bool` scalar tensor.")
        return self._new("FilterDataset", [self._variant_tensor, fn.captured], self._structure,
                         {"predicate": fn, "Targuments": _targs(fn)})

    def flat_map(self, map_func):
        fn = self._trace(map_func, "flat_map")
        return self._new("FlatMapDataset", [self._variant_tensor, fn.captured], fn.structure._structure,
                         {"f": fn, "Targuments": _targs(fn)})

    def interleave(self, map_func, cycle_length=None, block_length=None, num_parallel_calls=None):
        fn = self._trace(map_func, "interleave")
        inputs = [self._variant_tensor, fn.captured, _int64(cycle_length if cycle_length is not None else 1, "cycle_length"),
                  _int64(block_length if block_length is not None else 1, "block_length")]
        return self._new("InterleaveDataset", inputs, fn.structure._structure, {"f": fn, "Targuments": _targs(fn)})

    # --- reshaping the stream ----------------------------------------------------------------------
    def batch(self, batch_size, drop_remainder=False):
        inputs = [self._variant_tensor, _int64(batch_size, "batch_size"),
                  convert_to_tensor(drop_remainder, dtype=dtypes.bool, name="drop_remainder")]
        lead = tensor_shape.TensorShape([int(batch_size) if drop_remainder and isinstance(batch_size, int) else None])
        structure = pack(self._structure, [_Spec(s.dtype, lead.concatenate(s.shape)) for s in self._specs])
        return self._new("BatchDatasetV2", inputs, structure, {"parallel_copy": False})

    def padded_batch(self, batch_size, padded_shapes=None, padding_values=None, drop_remainder=False):
        """Batches whose components are padded to ``padded_shapes`` (-1/None: the longest in the batch)."""
        specs = self._specs
        batch_size = _int64(batch_size, "batch_size")
        shapes = flatten_shapes(self._structure, padded_shapes) if padded_shapes is not None else \
            [s.shape for s in specs]
        shapes = [p if isinstance(p, (Tensor, tensor_shape.TensorShape)) else
                  tensor_shape.TensorShape([None if d is None or d == -1 else d for d in p]) for p in shapes]
        shape_ts = []
        for spec, p in zip(specs, shapes):
            if isinstance(p, Tensor):
                shape_ts.append(p)
            else:
                if p.ndims is None:
                    raise ValueError("padded_batch needs a known rank for every component (%s)" % spec.dtype.name)
                shape_ts.append(convert_to_tensor([-1 if d is None else d for d in p.as_list()], dtype=dtypes.int64))
        values = flatten_shapes(self._structure, padding_values) if padding_values is not None else [None] * len(specs)
        value_ts = []
        for spec, v in zip(specs, values):
            if isinstance(v, Tensor):
                value_ts.append(v)
            else:
                default = b"" if spec.dtype == dtypes.string else (False if spec.dtype == dtypes.bool else 0)
                value_ts.append(convert_to_tensor(default if v is None else v, dtype=spec.dtype, name="padding_value"))
        drop = convert_to_tensor(drop_remainder, dtype=dtypes.bool, name="drop_remainder")
        lead = tensor_shape.TensorShape([int(const_of(batch_size)) if drop_remainder is True else None])
        out = [_Spec(s.dtype, lead.concatenate(p if not isinstance(p, Tensor) else tensor_shape.UNKNOWN))
               for s, p in zip(specs, shapes)]
        attrs = _attrs(out, "Toutput_types")
        attrs.update({"N": len(specs), "parallel_copy": False})
        op = build_op("PaddedBatchDatasetV2", [self._variant_tensor, batch_size, shape_ts, value_ts, drop],
                      attrs=attrs)
        return Dataset(op.outputs[0], pack(self._structure, out))

    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=None):
        buffer_size = _int64(buffer_size, "buffer_size")
        seed1, seed2 = random_seed.get_seed(seed)
        seed_t = _int64(seed1 or 0, "seed")
        if seed2 is None:                  # no graph or op seed: TF's plain constants
            seed2_t = constant(0, dtype=dtypes.int64, name="seed2")
        else:
            with graph_mod.name_scope(None, "seed2") as scope:      # TF: both 0 would mean "fresh randomness"
                s2 = constant(seed2, dtype=dtypes.int64)
                both_zero = math_ops.logical_and(math_ops.equal(seed_t, 0), math_ops.equal(s2, 0))
                seed2_t = array_ops.where_v2(both_zero, constant(2 ** 31 - 1, dtype=dtypes.int64), s2, name=scope)
        return self._new("ShuffleDataset", [self._variant_tensor, buffer_size, seed_t, seed2_t], self._structure,
                         {"reshuffle_each_iteration": True if reshuffle_each_iteration is None
                          else bool(reshuffle_each_iteration)})

    def repeat(self, count=None):
        return self._new("RepeatDataset", [self._variant_tensor, _int64(-1 if count is None else count, "count")],
                         self._structure)

    def prefetch(self, buffer_size):
        return self._new("PrefetchDataset", [self._variant_tensor, _int64(buffer_size, "buffer_size")],
                         self._structure, {"slack_period": 0, "legacy_autotune": True, "buffer_size_min": 0})

    def cache(self, filename=""):
        """Elements kept in memory after the first pass (CacheDataset; a file cache is not supported)."""
        if filename:
            raise NotImplementedError("graphlab caches datasets in memory only (filename='')")
        return self._new("CacheDataset", [self._variant_tensor, convert_to_tensor(filename, dtypes.string,
                                                                                   name="filename")],
                         self._structure)

    def shard(self, num_shards, index):
        """Every ``num_shards``-th element, starting at ``index`` (ShardDataset)."""
        return self._new("ShardDataset", [self._variant_tensor, _int64(num_shards, "num_shards"),
                                          _int64(index, "index")], self._structure, {"require_non_empty": False})

    def unbatch(self):
        """Each row of each element (UnbatchDataset); components must agree on their first dimension."""
        if any(s.shape.ndims == 0 for s in self._specs):
            raise ValueError("Cannot unbatch an input with scalar components.")

        def normalize(*args):            # TF's normalize_to_dense: a map before the unbatch
            return args if len(args) > 1 else args[0]
        normalized = self.map(normalize) if isinstance(self._structure, tuple) else self.map(lambda x: normalize(x))
        structure = pack(self._structure, [_Spec(s.dtype, s.shape[1:] if s.shape.ndims else tensor_shape.UNKNOWN)
                                           for s in normalized._specs])
        return normalized._new("UnbatchDataset", [normalized._variant_tensor], structure)

    def apply(self, transformation_func):
        """``transformation_func(self)``, which must return a Dataset."""
        dataset = transformation_func(self)
        if not isinstance(dataset, Dataset):
            raise TypeError("`transformation_func` must return a Dataset. Got %r." % (dataset,))
        return dataset._named("DatasetV1Adapter")

    @property
    def output_classes(self):
        return pack(self._structure, [Tensor for _ in self._specs])

    def take(self, count):
        return self._new("TakeDataset", [self._variant_tensor, _int64(count, "count")], self._structure)

    def skip(self, count):
        return self._new("SkipDataset", [self._variant_tensor, _int64(count, "count")], self._structure)

    @staticmethod
    def zip(datasets):
        parts = flatten_datasets(datasets)
        structure = pack_datasets(datasets)
        attrs = _attrs(flatten(structure))
        attrs["N"] = len(parts)
        return Dataset(build_op("ZipDataset", [[d._variant_tensor for d in parts]], attrs=attrs).outputs[0],
                       structure)

    def concatenate(self, dataset):
        return self._new("ConcatenateDataset", [self._variant_tensor, dataset._variant_tensor], self._structure)

    # --- iterators ---------------------------------------------------------------------------------
    def make_one_shot_iterator(self):
        from graphlab.data.iterator import Iterator
        graph = self._variant_tensor.graph
        factory = DatasetFactory(graph, self._variant_tensor)
        attrs = _attrs(self._specs)
        del attrs["metadata"]
        attrs.update({"dataset_factory": factory, "container": "", "shared_name": ""})
        op = build_op("OneShotIterator", (), attrs=attrs)
        iterator = Iterator(op.outputs[0], None, self._structure)
        iterator.string_handle()          # TF's Iterator makes its string handle at once
        return iterator

    def make_initializable_iterator(self, shared_name=None):
        from graphlab.data.iterator import Iterator
        attrs = _attrs(self._specs)
        del attrs["metadata"]
        attrs.update({"shared_name": shared_name or "", "container": ""})
        handle = build_op("IteratorV2", (), attrs=attrs).outputs[0]
        iterator = Iterator(handle, None, self._structure)
        iterator._initializer = iterator.make_initializer(self, name="MakeIterator")
        iterator.string_handle()
        return iterator


def _normalize_element(tensors):
    """The element's components as tensors, Python values converted under ``normalize_element`` as in TF."""
    with graph_mod.name_scope(None, "normalize_element"):
        return [t if isinstance(t, Tensor) else convert_to_tensor(t, name="component_%d" % i)
                for i, t in enumerate(flatten(tensors))]


def flatten_shapes(structure, values):
    """``values`` (one per component, given in the element's structure) in flat order; a shape given as a
    list or TensorShape is one leaf."""
    if isinstance(structure, dict):
        return [v for k in sorted(structure) for v in flatten_shapes(structure[k], values[k])]
    if isinstance(structure, tuple):
        return [v for s, x in zip(structure, values) for v in flatten_shapes(s, x)]
    return [values]


def const_of(tensor):
    from graphlab.framework.registry import const_value
    return const_value(tensor)


def flatten_datasets(structure):
    if isinstance(structure, Dataset):
        return [structure]
    if isinstance(structure, dict):
        return [d for k in sorted(structure) for d in flatten_datasets(structure[k])]
    return [d for s in structure for d in flatten_datasets(s)]


def pack_datasets(structure):
    if isinstance(structure, Dataset):
        return structure._structure
    if isinstance(structure, dict):
        return {k: pack_datasets(structure[k]) for k in structure}
    return tuple(pack_datasets(s) for s in structure)


DatasetV1 = Dataset


def _files_dataset(filenames, name):
    if name:
        with graph_mod.name_scope(None, name):
            pass
    names = convert_to_tensor(filenames, dtype=dtypes.string)
    flat = array_ops.reshape(names, [-1], name="flat_filenames")
    spec = _Spec(dtypes.string, tensor_shape.SCALAR)
    attrs = _attrs([spec], "Toutput_types")
    attrs.update({"is_files": True, "replicate_on_split": False})
    return Dataset(build_op("TensorSliceDataset", [[flat]], attrs=attrs).outputs[0], spec)


def TFRecordDataset(filenames, compression_type=None, buffer_size=None, num_parallel_reads=None):  # noqa: N802
    """``tf.data.TFRecordDataset``: the records of each file, file after file."""
    files = _files_dataset(filenames, "TFRecordDataset")

    def read_one_file(filename):
        op = build_op("TFRecordDatasetV2", [filename, convert_to_tensor(compression_type or "", dtypes.string,
                                                                        name="compression_type"),
                                            _int64(buffer_size if buffer_size is not None else 262144, "buffer_size"),
                                            _int64(-1, "byte_offsets")], attrs={"metadata": ""})
        return Dataset(op.outputs[0], _Spec(dtypes.string, tensor_shape.SCALAR))
    return files.flat_map(read_one_file)._named("TFRecordDatasetV2")


def TextLineDataset(filenames, compression_type=None, buffer_size=None, num_parallel_reads=None):  # noqa: N802
    """``tf.data.TextLineDataset``: the lines of each file, without newlines."""
    files = _files_dataset(filenames, "TextLineDataset")

    def read_one_file(filename):
        op = build_op("TextLineDataset", [filename, convert_to_tensor(compression_type or "", dtypes.string,
                                                                      name="compression_type"),
                                          _int64(buffer_size if buffer_size is not None else 262144, "buffer_size")],
                      attrs={"metadata": ""})
        return Dataset(op.outputs[0], _Spec(dtypes.string, tensor_shape.SCALAR))
    return files.flat_map(read_one_file)._named("TextLineDatasetV2")


def FixedLengthRecordDataset(filenames, record_bytes, header_bytes=None, footer_bytes=None,  # noqa: N802
                             buffer_size=None, compression_type=None, num_parallel_reads=None):
    """``tf.data.FixedLengthRecordDataset``: records of ``record_bytes`` bytes of each file, after a header and
    before a footer (a trailing partial record is dropped, as TF does)."""
    files = _files_dataset(filenames, None)

    def read_one_file(filename):
        op = build_op("FixedLengthRecordDatasetV2", [
            filename, _int64(header_bytes or 0, "header_bytes"), _int64(record_bytes, "record_bytes"),
            _int64(footer_bytes or 0, "footer_bytes"),
            _int64(buffer_size if buffer_size is not None else 262144, "buffer_size"),
            convert_to_tensor(compression_type or "", dtypes.string, name="compression_type")],
            attrs={"metadata": ""})
        return Dataset(op.outputs[0], _Spec(dtypes.string, tensor_shape.SCALAR))
    return files.flat_map(read_one_file)._named("FixedLengthRecordDatasetV2")
