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


class _WavReader:
    """Reads a WAV header field by field as TF's wav_io does, with its errors for data that ends early."""

    def __init__(self, ctx, data):
        self.ctx, self.data, self.pos = ctx, data, 0

    def fail(self, *parts):
        return InvalidArgumentError(None, self.ctx.op, "".join(str(p) for p in parts))

    def skip(self, n):
        end = self.pos + n
        if end > len(self.data):
            raise self.fail("Data too short when trying to read string")
        self.pos = end
        return end

    def text(self, n=4):
        start = self.pos
        self.skip(n)
        return self.data[start:self.pos]

    def value(self, fmt):
        start = self.pos
        self.skip(struct.calcsize(fmt))
        return struct.unpack_from(fmt, self.data, start)[0]

    def expect(self, word):
        found = self.text(len(word))
        if found != word:
            raise self.fail("Header mismatch: Expected ", word.decode(), " but found ",
                            found.decode("latin-1"))


def _decode_wav_kernel(ctx, contents):
    """16-bit PCM only, header fields checked as TF checks them (block align and byte rate must agree with the
    channels and rate), and a data chunk's size checked against the bytes present before any samples are made:
    a header claiming 4 GiB over 8 bytes is refused, as is one with more channels than its block align holds."""
    r = _WavReader(ctx, bytes(np.asarray(contents, dtype=object).item()))
    r.expect(b"RIFF")
    r.value("<I")
    r.expect(b"WAVE")
    r.expect(b"fmt ")
    fmt_size = r.value("<I")
    if fmt_size not in (16, 18):
        raise r.fail("Bad format chunk size for WAV: Expected 16 or 18, but got", fmt_size)
    audio_format = r.value("<H")
    if audio_format != 1:
        raise r.fail("Bad audio format for WAV: Expected 1 (PCM), but got", audio_format)
    channels = r.value("<H")
    if channels < 1:
        raise r.fail("Bad number of channels for WAV: Expected at least 1, but got ", channels)
    rate = r.value("<I")
    bytes_per_second = r.value("<I")
    block = r.value("<H")
    bits = r.value("<H")
    if bits != 16:
        raise r.fail("Can only read 16-bit WAV files, but received ", bits)
    expected_block = (bits * channels + 7) // 8
    if block != expected_block:
        raise r.fail("Bad bytes per sample in WAV header: Expected ", expected_block, " but got ", block)
    if bytes_per_second != block * rate:
        raise r.fail("Bad bytes per second in WAV header: Expected ", block * rate, " but got ", bytes_per_second,
                     " (sample_rate=", rate, ", bytes_per_sample=", block, ")")
    if fmt_size == 18:
        r.pos += 2
    samples = None
    while r.pos < len(r.data):
        chunk = r.text(4)
        size = r.value("<I")
        if size > 0x7FFFFFFF:
            raise r.fail("WAV data chunk '", chunk.decode("latin-1"), "' is too large: ", size,
                         " bytes, but the limit is ", 0x7FFFFFFF)
        if chunk == b"data":
            if samples is not None:
                raise r.fail("More than one data chunk found in WAV")
            frames = size // block
            start = r.pos
            r.skip(2 * frames * channels)  # the bytes must be there before any buffer is made
            samples = np.frombuffer(r.data, "<i2", frames * channels, start).reshape(frames, channels)
        else:
            r.pos += size
    if samples is None:
        raise r.fail("No data chunk found in WAV")
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
