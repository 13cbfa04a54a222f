"""WAV audio: EncodeWav / DecodeWav (``tf.audio``) and AudioSummaryV2 (``tf.summary.audio``). Samples are
float32 in [-1, 1], stored as 16-bit PCM with TF's rounding (round(x * 32768), clamped); the 44-byte RIFF
header is the one TF writes."""
import struct

import numpy as np

from graphlab.framework import dtypes, tensor_shape
from graphlab.formats.errors import InvalidArgumentError
from graphlab.framework.registry import NOT_DIFFERENTIABLE, build_op, convert_to_tensor, register_op


def wav_bytes(audio, sample_rate):
    """16-bit PCM WAV bytes of [frames, channels] float samples."""
    audio = np.asarray(audio, np.float32)
    frames, channels = audio.shape
    samples = np.clip(np.round(audio * np.float32(32768.0)), -32768, 32767).astype("<i2")
    data = samples.tobytes()
    header = struct.pack("<4sI4s4sIHHIIHH4sI", b"RIFF", 36 + len(data), b"WAVE", b"fmt ", 16, 1, channels,
                         int(sample_rate), int(sample_rate) * channels * 2, channels * 2, 16, b"data", len(data))
    return header + data


def _encode_wav_kernel(ctx, audio, sample_rate):
    audio = np.asarray(audio)
    if audio.ndim != 2:
        raise InvalidArgumentError(None, ctx.op, "audio must be 2-dimensional %s" % tensor_shape.TensorShape(
            audio.shape).bracket_str())
    return np.array(wav_bytes(audio, int(sample_rate)), dtype=object)


register_op("EncodeWav", inputs=["audio: float", "sample_rate: int32"],
            outputs=lambda op: [(dtypes.string, tensor_shape.SCALAR)], kernel=_encode_wav_kernel,
            grad=NOT_DIFFERENTIABLE, doc="16-bit PCM WAV bytes of [frames, channels] float samples.")


def _decode_wav_kernel(ctx, contents):
    data = bytes(np.asarray(contents, dtype=object).item())
    if len(data) < 12 or data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        raise InvalidArgumentError(None, ctx.op, "Header mismatch: Expected RIFF but found %r" % data[:4])
    pos, channels, rate, samples = 12, None, None, None
    while pos + 8 <= len(data):
        chunk, size = struct.unpack("<4sI", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + size]
        if chunk == b"fmt ":
            fmt, channels, rate, _, _, bits = struct.unpack("<HHIIHH", body[:16])
            if fmt != 1 or bits != 16:
                raise InvalidArgumentError(None, ctx.op, "Can only read 16-bit PCM WAV files (format %d, %d bits)"
                                           % (fmt, bits))
        elif chunk == b"data":
            if channels is None:
                raise InvalidArgumentError(None, ctx.op, "The fmt chunk must come before the data chunk")
            samples = np.frombuffer(body[:len(body) // (2 * channels) * 2 * channels], "<i2").reshape(-1, channels)
        pos += 8 + size + (size & 1)
    if samples is None:
        raise InvalidArgumentError(None, ctx.op, "No data chunk found in WAV")
    audio = samples.astype(np.float32) * np.float32(1.0 / 32768)
    want_channels, want_samples = ctx.attrs["desired_channels"], ctx.attrs["desired_samples"]
    if want_channels > 0 and want_channels != channels:
        audio = audio[:, [min(c, channels - 1) for c in range(want_channels)]]
    if want_samples > 0 and want_samples != audio.shape[0]:
        audio = audio[:want_samples] if want_samples < audio.shape[0] else np.concatenate(
            [audio, np.zeros((want_samples - audio.shape[0], audio.shape[1]), np.float32)])
    return audio, np.int32(rate)


def _decode_wav_outputs(op):
    frames = op._attrs["desired_samples"] if op._attrs["desired_samples"] > 0 else None
    channels = op._attrs["desired_channels"] if op._attrs["desired_channels"] > 0 else None
    return [(dtypes.float32, tensor_shape.TensorShape([frames, channels])), (dtypes.int32, tensor_shape.SCALAR)]


register_op("DecodeWav", inputs=["contents: string"], outputs=_decode_wav_outputs, kernel=_decode_wav_kernel,
            grad=NOT_DIFFERENTIABLE, doc="(audio [frames, channels] float32 in [-1, 1), sample_rate) of 16-bit WAV.")


def encode_wav(audio, sample_rate, name=None):
    """``tf.audio.encode_wav``."""
    return build_op("EncodeWav", [audio, convert_to_tensor(sample_rate, dtype=dtypes.int32)], name=name).outputs[0]


def decode_wav(contents, desired_channels=-1, desired_samples=-1, name=None):
    """``tf.audio.decode_wav``: a namedtuple (audio, sample_rate)."""
    import collections
    op = build_op("DecodeWav", [contents], attrs={"desired_channels": int(desired_channels),
                                                  "desired_samples": int(desired_samples)}, name=name)
    return collections.namedtuple("DecodeWav", ["audio", "sample_rate"])(*op.outputs)


# ------------------------------------------------------------------------------------- AudioSummaryV2
