"""A GIF's frames as TF's DecodeGif composes them (its gif_io): the canvas is as large as the largest frame
(the logical screen size is ignored), each frame starts as a copy of the one before, a frame's pixels land at
its offset clipped to the canvas, a transparent pixel keeps the pixel below (black on the first frame).

The file's block structure is walked here, so sizes are known before any pixel buffer exists: a frame whose
declared size its compressed data cannot fill ends in giflib's "Image EOF detected before image complete"
without decoding anything, and a 4000x4000 screen with 400 one-pixel frames is [400, 1, 1, 3]. Each frame's
LZW data is decoded by Pillow (as a one-frame GIF of the frame's own size): no codec of our own."""
import io
import struct

import numpy as np

# LZW codes are at least 3 bits and one code stands for at most 4096 pixels (the size of the code table)
_PIXELS_PER_BIT = 4096 / 3


class GifError(ValueError):
    """giflib's words for what is wrong ("Failed to read from given file", ...), after TF's prefix."""


class _Frame:
    __slots__ = ("left", "top", "width", "height", "interlaced", "colours", "lzw", "transparent")


def _read(data, pos, n):
    if pos + n > len(data):
        raise GifError("failed to slurp gif file: Failed to read from given file")
    return data[pos:pos + n]


def _sub_blocks(data, pos):
    """The bytes of the sub-blocks starting at pos (each a length byte then that many bytes, 0 ends them)."""
    parts = []
    while True:
        n = _read(data, pos, 1)[0]
        pos += 1
        if n == 0:
            return b"".join(parts), pos
        parts.append(_read(data, pos, n))
        pos += n


def parse(data):
    """The frames of a GIF (position, size, colour table, LZW bytes, transparent index), as giflib's
    DGifSlurp reads them; GifError with TF's message text on malformed data."""
    if len(data) < 6 or data[:6] not in (b"GIF87a", b"GIF89a"):
        raise GifError("failed to open gif file: %s" % (
            "Failed to read from given file" if len(data) < 6 else "Data is not in GIF format"))
    if len(data) < 13:
        raise GifError("failed to open gif file: No screen descriptor detected")
    flags = data[10]
    pos = 13
    global_colours = None
    if flags & 0x80:
        n = 3 << ((flags & 7) + 1)
        if pos + n > len(data):
            raise GifError("failed to open gif file: Failed to read from given file")
        global_colours = data[pos:pos + n]
        pos += n
    frames, transparent = [], -1
    while True:
        kind = _read(data, pos, 1)[0]
        pos += 1
        if kind == 0x3B:
            break
        if kind == 0x21:
            label = _read(data, pos, 1)[0]
            body, pos = _sub_blocks(data, pos + 1)
            if label == 0xF9 and len(body) >= 4:
                transparent = body[3] if body[0] & 1 else -1
            continue
        if kind != 0x2C:
            raise GifError("failed to slurp gif file: Wrong record type detected")
        f = _Frame()
        f.left, f.top, f.width, f.height, fl = struct.unpack("<HHHHB", _read(data, pos, 9))
        pos += 9
        f.interlaced = bool(fl & 0x40)
        f.colours = global_colours
        if fl & 0x80:
            n = 3 << ((fl & 7) + 1)
            f.colours = _read(data, pos, n)
            pos += n
        code_size = _read(data, pos, 1)[0]
        f.lzw, pos = _sub_blocks(data, pos + 1)
        f.lzw = bytes([code_size]) + f.lzw
        f.transparent, transparent = transparent, -1
        if f.width * f.height > len(f.lzw) * 8 * _PIXELS_PER_BIT:
            raise GifError("failed to slurp gif file: Image EOF detected before image complete")
        frames.append(f)
        if pos >= len(data):
            break  # giflib accepts a file that ends after its last image without a trailer
    if not frames:
        raise GifError("gif file does not contain any image")
    return frames


def _indices(frame):
    """The frame's colour indices [height, width], decoded by Pillow from a one-frame GIF of its own size."""
    from PIL import Image
    palette = bytes(v for i in range(256) for v in (i, 255 - i, 7))  # not gray: Pillow keeps mode "P"
    mini = (b"GIF89a" + struct.pack("<HHBBB", frame.width, frame.height, 0xF7, 0, 0) + palette +
            b"\x2c" + struct.pack("<HHHHB", 0, 0, frame.width, frame.height, 0x40 if frame.interlaced else 0) +
            frame.lzw[:1])
    blocks = bytearray()
    body = frame.lzw[1:]
    for i in range(0, len(body), 255):
        blocks += bytes([len(body[i:i + 255])]) + body[i:i + 255]
    mini += bytes(blocks) + b"\x00\x3b"
    try:
        img = Image.open(io.BytesIO(mini))
        img.load()
    except Exception:  # noqa: BLE001 (Pillow's truncated-data and LZW errors)
        raise GifError("failed to slurp gif file: Image EOF detected before image complete") from None
    if img.mode != "P":
        raise GifError("failed to slurp gif file: Image EOF detected before image complete")
    return np.asarray(img)


def compose(data, first_only=False):
    """[frames, height, width, 3] uint8 as TF's DecodeGif builds it."""
    frames = parse(data)
    if first_only:
        frames = frames[:1]
    height = max(f.height for f in frames)
    width = max(f.width for f in frames)
    out = np.zeros((len(frames), height, width, 3), np.uint8)
    for k, f in enumerate(frames):
        if k:
            out[k] = out[k - 1]
        if f.colours is None:
            raise GifError("missing color map")
        index = _indices(f)
        top, left = min(f.top, height), min(f.left, width)
        bottom, right = min(f.top + f.height, height), min(f.left + f.width, width)
        if bottom <= top or right <= left:
            continue
        idx = index[:bottom - top, :right - left]
        colours = np.frombuffer(f.colours, np.uint8).reshape(-1, 3)
        keep = idx == f.transparent if f.transparent >= 0 else None
        beyond = idx >= len(colours)
        if keep is not None:
            beyond &= ~keep
        if beyond.any():
            raise GifError("found color index %d outside of color map range %d" % (
                int(idx[beyond][0]), len(colours)))
        pixels = colours[np.minimum(idx, len(colours) - 1)]
        region = out[k, top:bottom, left:right]
        if keep is not None:
            if k == 0:
                pixels[keep] = 0
            else:
                pixels[keep] = region[keep]
        region[...] = pixels
    return out
