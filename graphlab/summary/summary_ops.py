"""Summary ops: ScalarSummary, HistogramSummary, ImageSummary, AudioSummaryV2 and MergeSummary each yield a serialized ``Summary`` proto as a
scalar string tensor, as TF's do; ``tf.summary.scalar/histogram/merge/merge_all`` build them with TF1's names
(op named after the unique scope, tag = that scoped name, e.g. ``loss_1`` when ``loss`` is taken).
"""
import contextlib
import re

import numpy as np

from graphlab.formats.errors import InvalidArgumentError
from graphlab.framework import dtypes, tensor_shape
from graphlab.framework import graph as graph_mod
from graphlab.framework.graph import GraphKeys
from graphlab.formats.protos import summary_pb2
from graphlab.ops import audio_ops
from graphlab.framework.registry import NOT_DIFFERENTIABLE, build_op, convert_to_tensor, register_op


def _string_scalar(op):
    return [(dtypes.string, tensor_shape.TensorShape([]))]


def _as_str(value):
    value = value.item() if isinstance(value, np.ndarray) else value
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


def _bytes(summary):
    out = np.empty((), dtype=object)
    out[()] = summary.SerializeToString()
    return out


# --------------------------------------------------------------------------------------- ScalarSummary
def _scalar_kernel(ctx, tags, values):
    tags, values = np.asarray(tags, dtype=object), np.asarray(values)
    if tags.shape != values.shape:
        raise InvalidArgumentError(None, ctx.op, "tags and values are not the same shape: %s != %s"
                                   % (list(tags.shape), list(values.shape)))
    summary = summary_pb2.Summary()
    for tag, value in zip(tags.ravel(), values.ravel()):
        summary.value.add(tag=_as_str(tag), simple_value=float(value))
    return _bytes(summary)


register_op("ScalarSummary", inputs=["tags: string", "values: T"], outputs=_string_scalar, kernel=_scalar_kernel,
            grad=NOT_DIFFERENTIABLE, doc="A Summary with one simple_value per tag.")


# ------------------------------------------------------------------------------------ HistogramSummary
def _default_limits():
    """TF's default bucket limits: +-1e-12 * 1.1**k up to 1e20, DBL_MAX at both ends, and 0."""
    pos, v = [], 1.0e-12
    while v < 1.0e20:
        pos.append(v)
        v *= 1.1
    pos.append(np.finfo(np.float64).max)
    return np.array([-p for p in reversed(pos)] + [0.0] + pos)


_LIMITS = _default_limits()


def histogram_proto(values):
    """HistogramProto of ``values`` as TF encodes it: runs of empty buckets collapse into one entry."""
    values = np.asarray(values, dtype=np.float64).ravel()
    counts = np.bincount(np.searchsorted(_LIMITS, values, side="right"), minlength=len(_LIMITS))[:len(_LIMITS)]
    proto = summary_pb2.HistogramProto(
        min=values.min() if values.size else _LIMITS[-1], max=values.max() if values.size else _LIMITS[0],
        num=float(values.size), sum=float(values.sum()), sum_squares=float(np.dot(values, values)))
    i, n = 0, len(counts)
    while i < n:
        end, count = _LIMITS[i], counts[i]
        i += 1
        if count <= 0:
            while i < n and counts[i] <= 0:
                end, count = _LIMITS[i], counts[i]
                i += 1
        proto.bucket_limit.append(end)
        proto.bucket.append(float(count))
    return proto


def _histogram_kernel(ctx, tag, values):
    values = np.asarray(values, dtype=np.float64)
    if not np.all(np.isfinite(values)):
        raise InvalidArgumentError(None, ctx.op, "Nan in summary histogram for: %s" % ctx.op.name)
    summary = summary_pb2.Summary()
    summary.value.add(tag=_as_str(tag), histo=histogram_proto(values))
    return _bytes(summary)


register_op("HistogramSummary", inputs=["tag: string", "values: T"], outputs=_string_scalar,
            kernel=_histogram_kernel, grad=NOT_DIFFERENTIABLE, doc="A Summary with a histogram of values.")


# ------------------------------------------------------------------------------ ImageSummary, AudioSummary
def _image_to_uint8(image, bad_color):
    """One float image as TF's ImageSummary turns it into bytes: scaled by 255/max when nothing is negative,
    else centred on 128 with 127/max|x|; non-finite pixels painted bad_color; values truncated."""
    image = np.asarray(image, dtype=np.float32)
    depth = image.shape[-1]
    finite = np.all(np.isfinite(image), axis=-1)
    values = image[finite]
    lo = float(values.min()) if values.size else np.inf
    hi = float(values.max()) if values.size else -np.inf
    if lo < 0:
        max_val = max(abs(lo), abs(hi))
        scale, offset = (0.0 if max_val < 1e-6 else 127.0 / max_val), 128.0
    else:
        scale, offset = (0.0 if hi < 1e-6 else 255.0 / hi), 0.0
    with np.errstate(invalid="ignore", over="ignore"):
        out = (image * np.float32(scale) + np.float32(offset)).astype(np.float32)
    out = np.where(finite[..., None], out, 0).astype(np.uint8)
    out[~finite] = np.asarray(bad_color, dtype=np.uint8)[:depth]
    return out


def _image_kernel(ctx, tag, tensor):
    from graphlab.ops import image_ops
    tensor = np.asarray(tensor)
    if tensor.ndim != 4 or tensor.shape[-1] not in (1, 3, 4):
        raise InvalidArgumentError(None, ctx.op, "Tensor must be 4-D with last dim 1, 3, or 4, not %s"
                                   % list(tensor.shape))
    tag = _as_str(tag)
    most = ctx.attrs.get("max_images", 3)
    limit = min(most, tensor.shape[0])
    bad_color = ctx.attrs.get("bad_color")
    bad_color = [255, 0, 0, 255] if bad_color is None else np.asarray(bad_color).ravel().tolist()
    summary = summary_pb2.Summary()
    for i in range(limit):
        image = tensor[i] if tensor.dtype == np.uint8 else _image_to_uint8(tensor[i], bad_color)
        png = image_ops.encode_png_bytes(image)
        value = summary.value.add(tag="%s/image" % tag if most == 1 else "%s/image/%d" % (tag, i))
        value.image.height, value.image.width, value.image.colorspace = image.shape[0], image.shape[1], image.shape[2]
        value.image.encoded_image_string = png
    return _bytes(summary)


def _audio_kernel(ctx, tag, tensor, sample_rate):
    tensor = np.asarray(tensor, dtype=np.float32)
    if tensor.ndim not in (2, 3):
        raise InvalidArgumentError(None, ctx.op, "sample must be 2-D or 3-D [batch, frames(, channels)], got %s"
                                   % list(tensor.shape))
    rate = float(np.asarray(sample_rate))
    if rate <= 0:
        raise InvalidArgumentError(None, ctx.op, "sample_rate must be > 0")
    if tensor.ndim == 2:
        tensor = tensor[:, :, None]
    tag = _as_str(tag)
    most = ctx.attrs.get("max_outputs", 3)
    limit = min(most, tensor.shape[0])
    summary = summary_pb2.Summary()
    for i in range(limit):
        value = summary.value.add(tag="%s/audio" % tag if most == 1 else "%s/audio/%d" % (tag, i))
        value.audio.sample_rate = rate
        value.audio.num_channels = tensor.shape[2]
        value.audio.length_frames = tensor.shape[1]
        value.audio.encoded_audio_string = audio_ops.wav_bytes(tensor[i], rate)
        value.audio.content_type = "audio/wav"
    return _bytes(summary)


register_op("ImageSummary", inputs=["tag: string", "tensor: T"], outputs=_string_scalar, kernel=_image_kernel,
            grad=NOT_DIFFERENTIABLE, doc="A Summary with up to max_images PNG images of a [batch, h, w, c] tensor.")
register_op("AudioSummaryV2", inputs=["tag: string", "tensor: float32", "sample_rate: float32"],
            outputs=_string_scalar, kernel=_audio_kernel, grad=NOT_DIFFERENTIABLE,
            doc="A Summary with up to max_outputs WAV clips of a [batch, frames(, channels)] tensor.")


# ---------------------------------------------------------------------------------------- MergeSummary
def _merge_kernel(ctx, *serialized):
    merged, seen = summary_pb2.Summary(), set()
    for blob in serialized:
        for value in summary_pb2.Summary.FromString(np.asarray(blob, dtype=object).item()).value:
            if value.tag in seen:
                raise InvalidArgumentError(None, ctx.op, "Duplicate tag %s found in summary inputs " % value.tag)
            seen.add(value.tag)
            merged.value.add().CopyFrom(value)
    return _bytes(merged)


register_op("MergeSummary", inputs=["inputs: N*string"], outputs=_string_scalar, kernel=_merge_kernel,
            grad=NOT_DIFFERENTIABLE, doc="Concatenates Summary protos (tags must be unique).")


# ------------------------------------------------------------------------------------------ public API
_INVALID = re.compile(r"[^-/\w\.]")


def _clean(name):
    """TF's _clean_tag: characters a tag may not hold become '_' (and a leading '/' is dropped)."""
    cleaned = _INVALID.sub("_", name)
    return cleaned.lstrip("/")


def _collect(op_out, collections):
    graph = op_out.graph
    for key in (collections if collections is not None else [GraphKeys.SUMMARIES]):
        graph.add_to_collection(key, op_out)
    return op_out


def _tag(scope, family):
    """The tag of a summary made in ``scope`` (already "family/name"): the family once more in front, so
    TensorBoard shows it in the family's tab."""
    return scope.rstrip("/") if family is None else "%s/%s" % (_clean(family), scope.rstrip("/"))


@contextlib.contextmanager
def _summary_scope(name, family, values):
    """TF's summary_scope: the scope ``[family/]name`` and the tag (the scope, with the family once more in
    front so TensorBoard shows it in the family's tab)."""
    name = _clean(name)
    family = _clean(family) if family is not None else None
    with graph_mod.name_scope(name if family is None else "%s/%s" % (family, name), values=values) as scope:
        yield _tag(scope, family), scope


def _summary(op_type, tag_arg, name, tensor, collections, family):
    with _summary_scope(name, family, [tensor]) as (tag, scope):
        tags = convert_to_tensor(tag, dtype=dtypes.string, name=tag_arg)
        out = build_op(op_type, [tags, tensor], name=scope).outputs[0]
    return _collect(out, collections)


def scalar(name, tensor, collections=None, family=None):
    """``tf.summary.scalar``: a ScalarSummary op; its tag is the op's full name."""
    return _summary("ScalarSummary", "tags", name, tensor, collections, family)


def histogram(name, values, collections=None, family=None):
    """``tf.summary.histogram``: a HistogramSummary op over all elements of values."""
    return _summary("HistogramSummary", "tag", name, values, collections, family)


def image(name, tensor, max_outputs=3, collections=None, family=None):
    """``tf.summary.image``: an ImageSummary of up to ``max_outputs`` images of a 4-D batch (uint8 as
    they are, floats scaled to [0, 255] per image as TF scales them), tags ``<name>/image/<i>``."""
    with _summary_scope(name, family, [tensor]) as (tag, scope):
        out = build_op("ImageSummary", [tag, tensor], name=scope, attrs={
            "max_images": int(max_outputs), "bad_color": np.array([255, 0, 0, 255], dtype=np.uint8)}).outputs[0]
    return _collect(out, collections)


def audio(name, tensor, sample_rate, max_outputs=3, collections=None, family=None):
    """``tf.summary.audio``: an AudioSummaryV2 of up to ``max_outputs`` clips ([batch, frames] or
    [batch, frames, channels] floats in [-1, 1]), written as 16-bit WAV, tags ``<name>/audio/<i>``."""
    with _summary_scope(name, family, [tensor]) as (tag, scope):
        rate = convert_to_tensor(sample_rate, dtype=dtypes.float32, name="sample_rate")
        out = build_op("AudioSummaryV2", [tag, tensor, rate], name=scope,
                       attrs={"max_outputs": int(max_outputs)}).outputs[0]
    return _collect(out, collections)


def merge(inputs, collections=None, name=None):
    """``tf.summary.merge``: one MergeSummary of the given summary tensors (op ``Merge/MergeSummary``)."""
    with graph_mod.name_scope(name, "Merge", inputs):
        out = build_op("MergeSummary", [list(inputs)], name=name).outputs[0]
    if collections:
        _collect(out, collections)
    return out


def merge_all(key=GraphKeys.SUMMARIES, scope=None, name=None):
    """``tf.summary.merge_all``: merge every summary in the collection, or None when there is none."""
    ops = graph_mod.get_default_graph().get_collection(key, scope)
    return merge(ops, name=name) if ops else None
