"""The dataset ops of tf.data in graph mode, with TF's op types and attrs. A dataset op's output is a
``variant`` whose run-time value is a small Python object that can start an iteration; iterator ops keep
their position in the session; ``IteratorGetNext`` raises OutOfRangeError("End of sequence") at the end.
Functions (map, filter, flat_map, interleave) run through graphlab/data/functions.py.
"""
import threading

import numpy as np

from graphlab.formats import tfrecord
from graphlab.framework import dtypes, tensor_shape
from graphlab.formats.errors import FailedPreconditionError, InvalidArgumentError, OutOfRangeError
from graphlab.framework.registry import NOT_DIFFERENTIABLE, register_op
from graphlab.ops import philox
from graphlab.runtime import numpy_errors

_VARIANT = [(dtypes.variant, tensor_shape.SCALAR)]
_RESOURCE = [(dtypes.resource, tensor_shape.SCALAR)]


class _Source:
    """A dataset's run-time value: ``elements(session)`` yields tuples of numpy arrays (or _Failed)."""

    def __init__(self, elements):
        self.elements = elements


class _Failed:
    """An element whose making failed (a map function's error, a filter predicate's ...). As in TF, the error
    travels in the element's place: IteratorGetNext raises it for that element, and the next call goes on
    with the elements after it. Each transformation passes it on as TF's does (batch drops its partial batch,
    take and skip do not count it)."""
    __slots__ = ("error",)

    def __init__(self, error):
        self.error = error


def _run_or_fail(fn, session, args):
    """The function's outputs for one element, or _Failed holding its error. numpy's floating-point
    warnings are off here as in Session.run (a pool thread has numpy's default state of its own)."""
    quiet = numpy_errors.silence()
    try:
        return tuple(fn.run(session, args))
    except Exception as e:  # noqa: BLE001 (any error of the element's computation belongs to that element)
        return _Failed(e)
    finally:
        numpy_errors.restore(quiet)


def _next_quietly(elements):
    """``next(elements)`` on a helper thread, with numpy's warnings off as in the run that asked for it."""
    quiet = numpy_errors.silence()
    try:
        return next(elements)
    finally:
        numpy_errors.restore(quiet)


def _scalar(v):
    return np.asarray(v).item()


def _strings_of(value):
    return [v.decode("utf-8") if isinstance(v, bytes) else str(v) for v in np.asarray(value, dtype=object).ravel()]


def _register(op_type, kernel, doc, inputs=("input_dataset: variant",)):
    register_op(op_type, inputs=list(inputs), outputs=lambda op: _VARIANT, kernel=kernel, grad=NOT_DIFFERENTIABLE,
                doc=doc)


# ------------------------------------------------------------------------------------------- sources
def _slices(ctx, *components):
    n = len(components[0]) if components and np.ndim(components[0]) else 0
    if any(np.ndim(c) == 0 or len(c) != n for c in components):
        raise InvalidArgumentError(None, ctx.op, "All components must have the same size in the 0th dimension")
    return _Source(lambda session: (tuple(c[i] for c in components) for i in range(n)))


register_op("TensorSliceDataset", inputs=["components: list"], outputs=lambda op: _VARIANT, kernel=_slices,
            grad=NOT_DIFFERENTIABLE, doc="One element per row of the components.")
register_op("TensorDataset", inputs=["components: list"], outputs=lambda op: _VARIANT,
            kernel=lambda ctx, *c: _Source(lambda session: iter([tuple(c)])), grad=NOT_DIFFERENTIABLE,
            doc="One element: the components themselves.")
register_op("RangeDataset", inputs=["start: int64", "stop: int64", "step: int64"], outputs=lambda op: _VARIANT,
            kernel=lambda ctx, a, b, c: _Source(lambda session: ((np.int64(v),) for v in range(
                _scalar(a), _scalar(b), _scalar(c)))), grad=NOT_DIFFERENTIABLE, doc="start, start+step, ... < stop.")


def _file_records(kind):
    def kernel(ctx, filenames, compression, buffer_size, *rest):
        names = _strings_of(filenames)
        compression = _strings_of(compression)[0].upper()

        def elements(session):
            for path in names:
                if kind == "tfrecord":
                    try:
                        for _, data in tfrecord.records(path, compression):
                            yield (_obj(data),)
                    except Exception as e:      # DataLossError, NotFoundError: report against this op
                        if hasattr(e, "error_code"):
                            raise type(e)(None, ctx.op, e.message) from None
                        raise
                else:
                    blob = tfrecord.read_file_bytes(path, compression)
                    for line in blob.split(b"\n")[:-1] if blob.endswith(b"\n") else blob.split(b"\n"):
                        yield (_obj(line[:-1] if line.endswith(b"\r") else line),)
        return _Source(elements)
    return kernel


def _obj(data):
    a = np.empty((), dtype=object)
    a[()] = data
    return a


register_op("TFRecordDatasetV2", inputs=["filenames: string", "compression_type: string", "buffer_size: int64",
                                         "byte_offsets: int64"],
            outputs=lambda op: _VARIANT, kernel=_file_records("tfrecord"), grad=NOT_DIFFERENTIABLE,
            doc="The records of TFRecord files.")
register_op("TextLineDataset", inputs=["filenames: string", "compression_type: string", "buffer_size: int64"],
            outputs=lambda op: _VARIANT, kernel=_file_records("text"), grad=NOT_DIFFERENTIABLE,
            doc="The lines of text files, without their newlines.")


# ------------------------------------------------------------------------------------ transformations
def _captured(ctx, rest):
    """The values of a function's captured tensors (``other_arguments``), from a kernel's extra inputs."""
    return tuple(rest[:len(ctx.attrs.get("Targuments") or ())])


_POOL = []
_POOL_LOCK = threading.Lock()
POOL_THREADS = 4      # the most elements a parallel map computes ahead of the consumer


def _pool():
    with _POOL_LOCK:
        if not _POOL:
            import concurrent.futures
            _POOL.append(concurrent.futures.ThreadPoolExecutor(POOL_THREADS, thread_name_prefix="graphlab-data-map"))
    return _POOL[0]


def _is_stateless(fn):
    """Whether a dataset function's ops are all stateless (no random draws, queues, variables, py_func):
    then computing elements ahead on other threads cannot change any result."""
    known = getattr(fn, "_stateless", None)
    if known is None:
        from graphlab.framework.registry import _REGISTRY
        graph = getattr(fn, "graph", None)
        known = graph is not None and all(
            not _REGISTRY[op.type].stateful and op.outputs and op.outputs[0].dtype.base_dtype != dtypes.variant
            if op.outputs else not _REGISTRY[op.type].stateful for op in graph.get_operations())
        fn._stateless = known
    return known


def _map_kernel(ctx, source, *rest, parallel=1):
    """``map``: each element through the function. One at a time in the consumer's thread, as TF's
    MapDataset (handing elements to a pool thread and back costs more than a small image's decoding);
    ParallelMapDatasetV2 with num_parallel_calls > 1 (or AUTOTUNE, -1) and a stateless function computes
    up to that many elements ahead on a pool of threads, which pays off when the function's work releases
    the GIL for long (large images, big numpy arrays)."""
    fn, extra = ctx.attrs["f"], _captured(ctx, rest)

    def elements(session):
        if parallel in (0, 1) or not _is_stateless(fn):
            for element in source.elements(session):
                yield element if type(element) is _Failed else _run_or_fail(fn, session, element + extra)
            return
        yield from _ahead(session, fn, source.elements(session), extra,
                          POOL_THREADS if parallel < 0 else min(parallel, POOL_THREADS))
    return _Source(elements)


def _parallel_map_kernel(ctx, source, *rest):
    return _map_kernel(ctx, source, *rest[:-1], parallel=int(_scalar(rest[-1])))


def _ahead(session, fn, upstream, extra, ahead):
    """A pure function's elements computed on pool threads, up to ``ahead`` before the consumer and handed
    out in order (as TF's runtime); an error surfaces at its element's turn."""
    import collections
    pool, pending = _pool(), collections.deque()
    exhausted, failure = False, None
    while True:
        while not exhausted and len(pending) < ahead:
            try:
                element = next(upstream)
            except StopIteration:
                exhausted = True
                break
            except Exception as e:      # the input's error comes after the elements before it
                exhausted, failure = True, e
                break
            pending.append(element if type(element) is _Failed else
                           pool.submit(_run_or_fail, fn, session, element + extra))
        if not pending:
            if failure is not None:
                raise failure
            return
        head = pending.popleft()
        yield head if type(head) is _Failed else head.result()


def _filter_kernel(ctx, source, *rest):
    fn, extra = ctx.attrs["predicate"], _captured(ctx, rest)

    def elements(session):
        for element in source.elements(session):
            if type(element) is _Failed:
                yield element
                continue
            keep = _run_or_fail(fn, session, element + extra)
            if type(keep) is _Failed:
                yield keep
            elif bool(keep[0]):
                yield element
    return _Source(elements)


def _batch_kernel(ctx, source, batch_size, drop_remainder):
    size, drop = _scalar(batch_size), bool(drop_remainder)
    if size <= 0:
        raise InvalidArgumentError(None, ctx.op, "Batch size must be greater than zero.")

    def elements(session):
        batch = []
        for element in source.elements(session):
            if type(element) is _Failed:  # TF's batch returns the error and drops the elements it had
                batch = []
                yield element
                continue
            batch.append(element)
            if len(batch) == size:
                yield tuple(np.stack(parts) for parts in zip(*batch))
                batch = []
        if batch and not drop:
            yield tuple(np.stack(parts) for parts in zip(*batch))
    return _Source(elements)


def _padded_batch_kernel(ctx, source, batch_size, *rest):
    n = ctx.attrs["N"]
    shapes, values, drop = rest[:n], rest[n:2 * n], bool(rest[2 * n])
    size = _scalar(batch_size)
    if size <= 0:
        raise InvalidArgumentError(None, ctx.op, "Batch size must be greater than zero.")

    def pad(parts, shape, value):
        arrays = [np.asarray(p) for p in parts]
        rank = arrays[0].ndim
        if len(shape) != rank:
            raise InvalidArgumentError(None, ctx.op, "The padded shape %s is not compatible with the shape %s of "
                                       "a component." % (list(shape), list(arrays[0].shape)))
        longest = [max(a.shape[d] for a in arrays) for d in range(rank)]
        target = [longest[d] if shape[d] < 0 else int(shape[d]) for d in range(rank)]
        for a in arrays:
            if any(a.shape[d] > target[d] for d in range(rank)):
                raise InvalidArgumentError(None, ctx.op, "Attempted to pad to a smaller size than the input "
                                           "element.")
        out = np.empty([len(arrays)] + target, dtype=arrays[0].dtype)
        out[...] = np.asarray(value)
        for i, a in enumerate(arrays):
            out[(i,) + tuple(slice(0, k) for k in a.shape)] = a
        return out

    def elements(session):
        batch = []
        for element in source.elements(session):
            if type(element) is _Failed:
                batch = []
                yield element
                continue
            batch.append(element)
            if len(batch) == size:
                yield tuple(pad(p, s, v) for p, s, v in zip(zip(*batch), shapes, values))
                batch = []
        if batch and not drop:
            yield tuple(pad(p, s, v) for p, s, v in zip(zip(*batch), shapes, values))
    return _Source(elements)


def _generator_kernel(ctx, *args):
    init, nxt, fin = ctx.attrs["init_func"], ctx.attrs["next_func"], ctx.attrs["finalize_func"]
    n_init, n_next = len(ctx.attrs["Tinit_func_args"]), len(ctx.attrs["Tnext_func_args"])
    init_args, next_args, fin_args = args[:n_init], args[n_init:n_init + n_next], args[n_init + n_next:]

    def elements(session):
        (key,) = init.run(session, init_args)
        try:
            while True:
                try:
                    values = nxt.run(session, (key,) + tuple(next_args))
                except OutOfRangeError:
                    return
                yield tuple(values)
        finally:
            fin.run(session, (key,) + tuple(fin_args))
    return _Source(elements)


def _shuffle_kernel(ctx, source, buffer_size, seed, seed2):
    """TF's shuffle, pick for pick: each iterator (each epoch of a repeat) takes two 32-bit words from a
    Philox stream keyed by the dataset's (seed, seed2) as its own seeds (the same two every time with
    reshuffle_each_iteration=False), and each element it gives is ``word % n`` places into the n buffered
    ones, counted from the oldest; the oldest then takes the freed place, and the buffer is refilled to
    buffer_size before each pick. Both seeds 0 means fresh randomness, as in TF."""
    size = _scalar(buffer_size)
    seeds = philox.Stream(_scalar(seed), _scalar(seed2))
    seed_words = philox.WordReader(seeds.key, seeds.next_counter)
    reshuffle = ctx.attrs.get("reshuffle_each_iteration", True)
    fixed = (seeds.key, seeds.next_counter >> 64)
    lock = threading.Lock()

    def elements(session):
        if reshuffle:
            with lock:
                own = (seed_words.word(), seed_words.word())
        else:
            own = fixed
        words = philox.WordReader(own[0], own[1] << 64)
        ring, start, end = [], 0, 0        # the buffer as TF keeps it: a ring, oldest at ``start``

        def pick():
            nonlocal start
            index = (start + words.word() % (end - start)) % size
            oldest = start % size
            out, ring[index] = ring[index], ring[oldest]
            ring[oldest] = None
            start += 1
            return out

        for element in source.elements(session):
            if type(element) is _Failed:  # returned at once while the buffer fills, as TF's shuffle
                yield element
                continue
            place = end % size
            if place == len(ring):
                ring.append(element)
            else:
                ring[place] = element
            end += 1
            if end - start == size:
                yield pick()
        while end > start:
            yield pick()
    return _Source(elements)


def _repeat_kernel(ctx, source, count):
    count = _scalar(count)

    def elements(session):
        done = 0
        while count < 0 or done < count:
            produced = False
            for element in source.elements(session):
                produced = True
                yield element
            done += 1
            if not produced:
                return
    return _Source(elements)


def _take_kernel(ctx, source, count):
    count = _scalar(count)

    def elements(session):
        if count == 0:
            return
        taken = 0
        for element in source.elements(session):
            yield element
            if type(element) is not _Failed:  # an error is not one of the count (TF's take)
                taken += 1
                if 0 <= count <= taken:
                    return
    return _Source(elements)


def _skip_kernel(ctx, source, count):
    count = _scalar(count)

    def elements(session):
        skipped = 0
        for element in source.elements(session):
            if type(element) is _Failed or count < 0 or skipped >= count:
                yield element           # an error while skipping is returned, and not counted (TF's skip)
            else:
                skipped += 1
    return _Source(elements)


def _zip_kernel(ctx, *sources):
    def elements(session):
        for parts in zip(*[s.elements(session) for s in sources]):
            failed = next((p for p in parts if type(p) is _Failed), None)
            yield failed if failed is not None else tuple(v for part in parts for v in part)
    return _Source(elements)


def _concatenate_kernel(ctx, first, second):
    def elements(session):
        yield from first.elements(session)
        yield from second.elements(session)
    return _Source(elements)


def _flat_map_kernel(ctx, source, *rest):
    fn, extra = ctx.attrs["f"], _captured(ctx, rest)

    def elements(session):
        for element in source.elements(session):
            made = element if type(element) is _Failed else _run_or_fail(fn, session, element + extra)
            if type(made) is _Failed:
                yield made
                continue
            yield from made[0].elements(session)
    return _Source(elements)


def _interleave_kernel(ctx, source, *rest):
    fn, extra = ctx.attrs["f"], _captured(ctx, rest)
    cycle_length, block_length = rest[len(extra):len(extra) + 2]
    cycle, block = max(1, _scalar(cycle_length)), max(1, _scalar(block_length))

    def elements(session):
        outer = source.elements(session)
        active, exhausted = [], False
        while True:
            while not exhausted and len(active) < cycle:
                try:
                    element = next(outer)
                except StopIteration:
                    exhausted = True
                    break
                made = element if type(element) is _Failed else _run_or_fail(fn, session, element + extra)
                if type(made) is _Failed:  # that input element is used up; the cycle goes on without it
                    yield made
                    continue
                active.append(made[0].elements(session))
            if not active:
                return
            for it in list(active):
                given = 0
                while given < block:
                    try:
                        element = next(it)
                    except StopIteration:
                        active.remove(it)
                        break
                    yield element
                    if type(element) is not _Failed:  # an error keeps the cycle's position (TF's interleave)
                        given += 1
    return _Source(elements)


_register("MapDataset", _map_kernel, "Applies a function to each element.",
          ("input_dataset: variant", "other_arguments: list"))
_register("ParallelMapDatasetV2", _parallel_map_kernel,
          "Applies a function to each element, num_parallel_calls of them at a time on a pool of threads.",
          ("input_dataset: variant", "other_arguments: list", "num_parallel_calls: int64"))
_register("FilterDataset", _filter_kernel, "Keeps elements the predicate accepts.",
          ("input_dataset: variant", "other_arguments: list"))
_register("BatchDatasetV2", _batch_kernel, "Stacks consecutive elements.",
          ("input_dataset: variant", "batch_size: int64", "drop_remainder: bool"))
def _cache_kernel(ctx, source, filename):
    kept = {}

    def elements(session):
        done = kept.get(id(session))
        if done is not None:
            yield from done
            return
        seen = []
        for element in source.elements(session):
            if type(element) is not _Failed:
                seen.append(element)
            yield element
        kept[id(session)] = seen          # only a complete first pass is kept, as TF's memory cache
    return _Source(elements)


def _shard_kernel(ctx, source, num_shards, index):
    n, i = _scalar(num_shards), _scalar(index)
    if n <= 0:
        raise InvalidArgumentError(None, ctx.op, "Number of shards must be greater than zero (currently num_shards "
                                   "= %d)." % n)
    if not 0 <= i < n:
        raise InvalidArgumentError(None, ctx.op, "Index must be between 0 and %d (currently index = %d)."
                                   % (n - 1, i))

    def elements(session):
        k = 0
        for element in source.elements(session):
            if type(element) is _Failed:  # passed on and not counted, as TF's shard
                yield element
                continue
            if k % n == i:
                yield element
            k += 1
    return _Source(elements)


def _unbatch_kernel(ctx, source):
    def elements(session):
        for element in source.elements(session):
            if type(element) is _Failed:
                yield element
                continue
            parts = [np.asarray(c) for c in element]
            sizes = {p.shape[0] if p.ndim else None for p in parts}
            if None in sizes or len(sizes) != 1:
                raise InvalidArgumentError(None, ctx.op, "Input element must have a non-scalar value in each "
                                           "component, all with the same first dimension.")
            for row in range(sizes.pop()):
                yield tuple(p[row] for p in parts)
    return _Source(elements)


def _fixed_length_kernel(ctx, filenames, header, record, footer, buffer_size, compression):
    names = _strings_of(filenames)
    header, record, footer = _scalar(header), _scalar(record), _scalar(footer)
    compression = _strings_of(compression)[0].upper()
    if record <= 0:
        raise InvalidArgumentError(None, ctx.op, "record_bytes must be greater than 0 not %d" % record)

    def elements(session):
        for path in names:
            blob = tfrecord.read_file_bytes(path, compression)
            body = blob[header:len(blob) - footer if footer else len(blob)]
            for start in range(0, len(body) - record + 1, record):
                yield (_obj(body[start:start + record]),)
    return _Source(elements)


_register("CacheDataset", _cache_kernel, "The input's elements, kept in memory after a complete first pass.",
          ("input_dataset: variant", "filename: string"))
_register("ShardDataset", _shard_kernel, "Every num_shards-th element from index on.",
          ("input_dataset: variant", "num_shards: int64", "index: int64"))
_register("UnbatchDataset", _unbatch_kernel, "The rows of each element.", ("input_dataset: variant",))
register_op("FixedLengthRecordDatasetV2", inputs=["filenames: string", "header_bytes: int64", "record_bytes: int64",
                                                  "footer_bytes: int64", "buffer_size: int64",
                                                  "compression_type: string"],
            outputs=lambda op: _VARIANT, kernel=_fixed_length_kernel, grad=NOT_DIFFERENTIABLE,
            doc="Fixed-length records of files, after a header and before a footer.")
_register("PaddedBatchDatasetV2", _padded_batch_kernel, "Stacks consecutive elements, padded to one shape.",
          ("input_dataset: variant", "batch_size: int64", "padded_shapes: N*int64", "padding_values: list",
           "drop_remainder: bool"))
_register("GeneratorDataset", _generator_kernel, "The elements a Python generator yields (through PyFunc).",
          ("other_args: list",))     # TF's three lists (init, next, finalize), split by their type attrs
_register("ShuffleDataset", _shuffle_kernel, "Draws at random from a buffer of buffer_size elements.",
          ("input_dataset: variant", "buffer_size: int64", "seed: int64", "seed2: int64"))
_register("RepeatDataset", _repeat_kernel, "The input count times (-1: for ever).",
          ("input_dataset: variant", "count: int64"))
_register("PrefetchDataset", lambda ctx, s, n: s, "The input (graphlab computes elements when asked).",
          ("input_dataset: variant", "buffer_size: int64"))
_register("TakeDataset", _take_kernel, "The first count elements.", ("input_dataset: variant", "count: int64"))
_register("SkipDataset", _skip_kernel, "All but the first count elements.",
          ("input_dataset: variant", "count: int64"))
_register("ZipDataset", _zip_kernel, "Elements of several datasets side by side.", ("input_datasets: N*variant",))
_register("ConcatenateDataset", _concatenate_kernel, "One dataset, then another.",
          ("input_dataset: variant", "another_dataset: variant"))
_register("FlatMapDataset", _flat_map_kernel, "The elements of the dataset the function makes of each element.",
          ("input_dataset: variant", "other_arguments: list"))
_register("InterleaveDataset", _interleave_kernel,
          "Like flat_map, taking block_length elements in turn from cycle_length inner datasets.",
          ("input_dataset: variant", "other_arguments: list", "cycle_length: int64", "block_length: int64"))


# ----------------------------------------------------------------------------------------- iterators
class _IteratorState:
    def __init__(self, name):
        self.name = name
        self.lock = threading.Lock()
        self.elements = None
        self.pending = None          # an element being made when a wait for it was interrupted


def _iterator_state(ctx):
    key = ("__iterator__", ctx.attrs.get("shared_name") or ctx.op.name)
    state = ctx.state.get(key)
    if state is None:
        with ctx.session._lock:
            state = ctx.state.setdefault(key, _IteratorState(key[1]))
    return state


def _one_shot_kernel(ctx):
    state = _iterator_state(ctx)
    with state.lock:
        if state.elements is None:
            factory = ctx.attrs["dataset_factory"]
            (source,) = factory.run(ctx.session, [])
            state.elements = source.elements(ctx.session)
    return state


def _make_iterator_kernel(ctx, source, state):
    with state.lock:
        state.elements = source.elements(ctx.session)
        state.pending = None


_GETTERS = []
# None: hand get_next to a helper thread when IPython is loaded (a notebook, where Ctrl-C interrupts a cell and
# the work goes on); True/False: always/never. A script's Ctrl-C ends the program, so it saves the thread hop.
INTERRUPT_SAFE_GET_NEXT = None


def _interrupt_safe():
    if INTERRUPT_SAFE_GET_NEXT is not None:
        return INTERRUPT_SAFE_GET_NEXT
    import sys
    return "IPython" in sys.modules


def _next_element(state):
    """The iterator's next element. From the main thread of a notebook (where Ctrl-C lands) the pipeline
    advances on a helper thread: an interrupt stops only the wait, the element being made is kept for the next
    call, and the pipeline's generators never see the KeyboardInterrupt (which would end them and lose the
    rest)."""
    if state.pending is None and (threading.current_thread() is not threading.main_thread()
                                  or not _interrupt_safe()):
        return next(state.elements)
    if state.pending is None:
        with _POOL_LOCK:
            if not _GETTERS:
                import concurrent.futures
                _GETTERS.append(concurrent.futures.ThreadPoolExecutor(4, thread_name_prefix="graphlab-data-next"))
        state.pending = _GETTERS[0].submit(_next_quietly, state.elements)
    result = state.pending.result()      # an interrupt here leaves state.pending for the next call
    state.pending = None
    return result


def _get_next_kernel(ctx, state):
    with state.lock:
        if state.elements is None:
            raise FailedPreconditionError(None, ctx.op, "GetNext() failed because the iterator has not been "
                                          "initialized. Ensure that you have run the initializer operation for "
                                          "this iterator before getting the next element.")
        try:
            element = _next_element(state)
        except StopIteration:
            state.pending = None
            raise OutOfRangeError(None, ctx.op, "End of sequence") from None
        except BaseException as e:
            if not isinstance(e, KeyboardInterrupt):
                state.pending = None
            raise
    if type(element) is _Failed:  # this element's error; the iterator goes on with the next one
        raise element.error
    return element[0] if len(element) == 1 else tuple(element)


register_op("OneShotIterator", outputs=lambda op: _RESOURCE, kernel=_one_shot_kernel, grad=NOT_DIFFERENTIABLE,
            stateful=True, doc="An iterator that builds its dataset the first time it runs.")
register_op("IteratorV2", outputs=lambda op: _RESOURCE, kernel=_iterator_state, grad=NOT_DIFFERENTIABLE,
            stateful=True, doc="An iterator that MakeIterator (the initializer) points at a dataset.")
register_op("MakeIterator", inputs=["dataset: variant", "iterator: resource"], outputs=lambda op: [],
            kernel=_make_iterator_kernel, grad=NOT_DIFFERENTIABLE, stateful=True,
            doc="(Re)starts the iterator at the beginning of the dataset.")
register_op("IteratorGetNext", inputs=["iterator: resource"],
            outputs=lambda op: list(zip(op._attrs["output_types"], op._attrs["output_shapes"])),
            kernel=_get_next_kernel, grad=NOT_DIFFERENTIABLE, stateful=True,
            doc="The next element; OutOfRangeError at the end of the dataset.")


def _from_string_handle_kernel(ctx, handle):
    text = _strings_of(handle)[0]
    state = ctx.state.get(("__iterator__", text[len("iterator:"):])) if text.startswith("iterator:") else None
    if state is None:
        raise InvalidArgumentError(None, ctx.op, "%r is not the string handle of an iterator of this session: feed "
                                   "the value of iterator.string_handle() run in the same session." % text)
    return state


register_op("IteratorToStringHandle", inputs=["resource_handle: resource"],
            outputs=lambda op: [(dtypes.string, tensor_shape.SCALAR)],
            kernel=lambda ctx, state: _obj(("iterator:%s" % state.name).encode()),
            grad=NOT_DIFFERENTIABLE, stateful=True, doc="A string naming the iterator.")
register_op("IteratorFromStringHandleV2", inputs=["string_handle: string"], outputs=lambda op: _RESOURCE,
            kernel=_from_string_handle_kernel, grad=NOT_DIFFERENTIABLE, stateful=True,
            doc="The iterator a string handle names (feedable iterators).")
