"""``tf.image``'s codecs and resizing kernels: DecodePng, DecodeJpeg, DecodeGif, DecodeImage, EncodePng,
EncodeJpeg, ResizeBilinear, ResizeNearestNeighbor, AdjustContrastv2. Images are decoded and encoded by
Pillow and (JPEG) simplejpeg, well-kept codec libraries (never by our own code): PNG and JPEG pixels equal
TF's. A corrupt image is an InvalidArgumentError naming the op and, when the bytes came
from a reader or ReadFile in the same run, the file. The functions built from these ops live in graphlab/image/.
"""
import io
import struct
import threading
import zlib

import numpy as np

from graphlab.framework import dtypes, tensor_shape
from graphlab.formats.errors import InvalidArgumentError
from graphlab.framework.registry import NOT_DIFFERENTIABLE, build_op, register_op
from graphlab.ops import gif_frames

last_file = threading.local()     # set by the readers and ReadFile: where the bytes being decoded came from


_PIL = []


def _pil():
    if not _PIL:
        try:
            from PIL import Image, JpegImagePlugin, PngImagePlugin
        except ImportError:   # pragma: no cover
            raise ImportError("tf.image's decoders need Pillow: pip install pillow") from None
        _PIL.append((Image, {b"\x89PNG\r\n\x1a\n": PngImagePlugin.PngImageFile,
                             b"\xff\xd8\xff": JpegImagePlugin.JpegImageFile}))
    return _PIL[0][0]


_PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _opener(data):
    """Pillow's class for PNG and JPEG bytes (skipping Image.open's trial of every format), else Image.open."""
    _pil()
    for magic, cls in _PIL[0][1].items():
        if data.startswith(magic):
            return cls
    return _PIL[0][0].open


def _bytes_of(value):
    return bytes(value[()] if isinstance(value, np.ndarray) else value)


def _bad_image(ctx, what, data):
    source = getattr(last_file, "path", None)
    where = " (read from file '%s')" % source if source else ""
    return InvalidArgumentError(None, ctx.op, "%s%s: the bytes are not a valid image (size %d, starting with %r). "
                                "Check the file, or skip it in the pipeline." % (what, where, len(data), data[:8]))


def _open(ctx, data, what):
    opener = _opener(data)
    try:
        img = opener(io.BytesIO(data))
        img.load()
        return img
    except Exception:   # noqa: BLE001  (Pillow's many decode errors)
        raise _bad_image(ctx, what, data) from None


_BANDS = {"L": 1, "LA": 2, "RGB": 3, "RGBA": 4}


def _to_channels(ctx, img, channels, dtype=np.uint8):
    mode = img.mode
    if mode == "P":
        img = img.convert("RGBA" if "transparency" in img.info else "RGB")
    elif mode in ("1", "CMYK", "YCbCr", "LA", "I", "F") and not mode.startswith("I;16"):
        img = img.convert({"1": "L", "LA": "LA", "CMYK": "RGB", "YCbCr": "RGB", "I": "I", "F": "F"}[mode])
    bands = _BANDS.get(img.mode)
    if bands:      # the raw bytes straight into numpy: many times quicker than np.asarray(img) on small images
        w, h = img.size
        arr = np.frombuffer(img.tobytes(), np.uint8).reshape(h, w, bands)
    else:
        arr = np.asarray(img)
    return _channels_of(ctx, arr, channels, dtype)


def _channels_of(ctx, arr, channels, dtype=np.uint8):
    """Decoded pixels ([h, w] or [h, w, bands]) as ``channels`` channels of ``dtype``, as TF converts them."""
    if arr.ndim == 2:
        arr = arr[:, :, None]
    if channels == 1 and arr.shape[2] >= 3 and arr.dtype == np.uint8:
        arr = _libpng_gray(arr)         # 8-bit colour to gray first, widened after (as TF's pixels are)
    if arr.dtype != dtype:
        if dtype == np.uint16 and arr.dtype == np.uint8:
            arr = arr.astype(np.uint16) * 257      # TF scales 8-bit PNGs to 16 bits this way
        elif dtype == np.uint8 and arr.dtype.itemsize == 2 or arr.dtype == np.int32:
            arr = (arr.astype(np.uint32) >> 8).astype(np.uint8)     # libpng's strip_16: the high byte
        else:
            arr = arr.astype(dtype)
    have = arr.shape[2]
    if channels in (0, None) or channels == have:
        return np.ascontiguousarray(arr)
    if channels == 1:
        if have >= 3:     # libpng/libjpeg's luma weights, rounded as integers
            rgb = arr[:, :, :3].astype(np.float64)
            gray = rgb @ np.array([0.2989, 0.587, 0.114])
            return np.round(gray).astype(arr.dtype)[:, :, None]
        return arr[:, :, :1]
    if channels == 3:
        return np.repeat(arr[:, :, :1], 3, axis=2) if have <= 2 else arr[:, :, :3]
    if channels == 4:
        opaque = np.iinfo(arr.dtype).max
        rgb = np.repeat(arr[:, :, :1], 3, axis=2) if have <= 2 else arr[:, :, :3]
        alpha = arr[:, :, 3:4] if have == 4 else (arr[:, :, 1:2] if have == 2 else np.full(rgb.shape[:2] + (1,), opaque, arr.dtype))
        return np.concatenate([rgb, alpha], axis=2)
    raise InvalidArgumentError(None, ctx.op, "channels must be 0, 1, 3, or 4, got %d" % channels)


def _libpng_gray(rgb):
    """8-bit colour pixels as gray the way TF has libpng do it: png_set_rgb_to_gray(0.299, 0.587) becomes
    15-bit integer weights 9797, 19234 and 32768 - both = 3737, and gray = weighted sum >> 15 (truncated)."""
    r, g, b = (rgb[:, :, i].astype(np.uint32) for i in range(3))
    return ((9797 * r + 19234 * g + 3737 * b) >> 15).astype(np.uint8)[:, :, None]


# 8-bit PNG colour types whose pixels are the decompressed rows as they are: gray, RGB, gray+alpha, RGBA
_PLAIN_PNG = {0: ("L", 1), 2: ("RGB", 3), 4: ("LA", 2), 6: ("RGBA", 4)}
_PLAIN_PNG_MAX_PIXELS = 1 << 24


def _plain_png_pixels(data):
    """The pixels of a plain PNG ([h, w, bands] uint8), unfiltered by Pillow's own C zip decoder, or None.

    Image.open costs ~20 us of Python per image (format probing, chunk objects, tile lists) on top of a few
    microseconds of decoding: this reads the chunk layout itself and hands the image data straight to the
    decoder Pillow's PngImagePlugin uses, so the pixels are the same bytes. Only the simplest layout is
    taken: IHDR (checksum verified) with 8 bits per sample, colour type 0/2/4/6, no interlacing, then IDAT
    chunks, then IEND. Anything else, or any decoding trouble, returns None and the bytes go through
    Image.open as before, which decides on errors (so corrupt input reports exactly as it did)."""
    if len(data) < 45 or data[12:16] != b"IHDR" or data[8:12] != b"\x00\x00\x00\x0d":
        return None
    width, height, depth, colour, compression, filtering, interlace = struct.unpack_from(">IIBBBBB", data, 16)
    plain = _PLAIN_PNG.get(colour)
    if (plain is None or depth != 8 or compression or filtering or interlace or not width or not height
            or width * height > _PLAIN_PNG_MAX_PIXELS
            or zlib.crc32(data[12:29]) != struct.unpack_from(">I", data, 29)[0]):
        return None
    parts, pos, end = [], 33, len(data)
    while pos + 12 <= end and data[pos + 4:pos + 8] == b"IDAT":
        (length,) = struct.unpack_from(">I", data, pos)
        parts.append(data[pos + 8:pos + 8 + length])
        pos += 12 + length
    if not parts or pos + 12 > end or data[pos + 4:pos + 8] != b"IEND":
        return None
    mode, bands = plain
    Image = _pil()
    core = Image.core
    image = core.new(mode, (width, height))
    decoder = core.zip_decoder(mode, mode, 0)
    try:
        decoder.setimage(image, (0, 0, width, height))
        consumed, error = decoder.decode(parts[0] if len(parts) == 1 else b"".join(parts))
    finally:
        decoder.cleanup()
    if consumed >= 0 or error:      # more data wanted (truncated) or a broken stream: Image.open reports it
        return None
    encoder = core.raw_encoder(mode, mode)
    encoder.setimage(image, (0, 0, width, height))
    pieces = []
    size = width * height * bands       # the buffer encode() fills (allocating 1 MB each time cost 12 us)
    while True:
        _, status, piece = encoder.encode(max(size, 4 * width * bands))
        pieces.append(piece)
        if status:
            break
    return np.frombuffer(pieces[0] if len(pieces) == 1 else b"".join(pieces), np.uint8).reshape(height, width, bands)


def _jpeg_as_tf(ctx, data, channels):
    """A JPEG's pixels as TF decodes them, or None where Pillow's decoding serves (not a JPEG; CMYK; four
    channels asked for). TF runs libjpeg-turbo with its fast integer IDCT (JDCT_IFAST) unless DecodeJpeg's
    dct_method asks for "INTEGER_ACCURATE"; Pillow always uses the accurate one, whose pixels differ by up to 8
    levels (about one on average), so the fast one comes from simplejpeg, the same libjpeg-turbo with its
    switches: fastdct, fastupsample (fancy_upscaling off) and a scale of 1/ratio (TF's scale_denom)."""
    if not data.startswith(b"\xff\xd8\xff") or channels not in (0, 1, 3):
        return None
    import simplejpeg
    try:
        height, width, colorspace, _ = simplejpeg.decode_jpeg_header(data)
    except ValueError:
        return None                          # Pillow's decoding reports the bad bytes
    if colorspace not in ("Gray", "YCbCr", "RGB"):
        return None
    gray = channels == 1 or (channels == 0 and colorspace == "Gray")
    ratio = int(ctx.attrs.get("ratio", 1) or 1)
    try:
        arr = simplejpeg.decode_jpeg(
            data, colorspace="GRAY" if gray else "RGB",
            fastdct=ctx.attrs.get("dct_method", "") != "INTEGER_ACCURATE",
            fastupsample=not ctx.attrs.get("fancy_upscaling", True), min_factor=ratio,
            min_height=-(-height // ratio), min_width=-(-width // ratio))
    except ValueError:
        return None
    return arr[:, :, None] if arr.ndim == 2 else arr


# TF's decode_image_op limits: each side below 2**27 and fewer than 2**29 pixels ("PNG size too large for
# int"); a JPEG's output bytes below 2**29 (jpeg_mem's "Invalid JPEG data or crop window").
_SIDE_LIMIT = 1 << 27
_PIXEL_LIMIT = 1 << 29
# deflate turns one byte into at most 1032 (RFC 1951's longest match per shortest code): a PNG whose image
# data is smaller than its rows / 1032 cannot hold them, and is refused before any row buffer exists
_DEFLATE_MAX_RATIO = 1032
_PNG_SAMPLES = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}


def _check_png_size(ctx, data):
    """TF's size limits on a PNG's IHDR, then the declared rows against the image data present."""
    if len(data) < 33 or data[12:16] != b"IHDR" or zlib.crc32(data[12:29]) != struct.unpack_from(">I", data, 29)[0]:
        return                  # a damaged header: the decoders report it (as libpng checks the CRC first)
    width, height, depth, colour = struct.unpack_from(">IIBB", data, 16)
    if (not 0 < width < _SIDE_LIMIT) or (not 0 < height < _SIDE_LIMIT) or width * height >= _PIXEL_LIMIT:
        raise InvalidArgumentError(None, ctx.op, "PNG size too large for int: %d by %d" % (width, height))
    compressed, pos = 0, 8
    while pos + 8 <= len(data):
        (length,) = struct.unpack_from(">I", data, pos)
        if data[pos + 4:pos + 8] == b"IDAT":
            compressed += min(length, len(data) - pos - 8)
        pos += 12 + length
    rows = height * (1 + -(-width * depth * _PNG_SAMPLES.get(colour, 4) // 8))
    if rows > compressed * _DEFLATE_MAX_RATIO + 1024:
        raise InvalidArgumentError(None, ctx.op, "Invalid PNG data, size %d" % len(data))


def _check_jpeg_size(ctx, data, channels):
    """jpeg_mem's limit on the output a JPEG header asks for, checked before any pixel buffer."""
    if not data.startswith(b"\xff\xd8\xff"):
        return
    import simplejpeg
    try:
        height, width, colorspace, _ = simplejpeg.decode_jpeg_header(data)
    except ValueError:
        return                               # the decoders report the bad bytes
    ratio = int(ctx.attrs.get("ratio", 1) or 1)
    components = channels or {"Gray": 1, "CMYK": 4}.get(colorspace, 3)
    if -(-width // ratio) * -(-height // ratio) * components >= _PIXEL_LIMIT:
        raise InvalidArgumentError(None, ctx.op, "jpeg::Uncompress failed. Invalid JPEG data or crop window.")


def _decode_gif(ctx, data, first_only=False):
    try:
        return gif_frames.compose(data, first_only)
    except gif_frames.GifError as e:
        raise InvalidArgumentError(None, ctx.op, "Invalid GIF data (size %d), %s" % (len(data), e)) from None


def _decode(kind):
    def kernel(ctx, contents):
        data = _bytes_of(contents)
        wanted = ctx.attrs.get("dtype")
        if data.startswith(_PNG_MAGIC) and kind != "gif":
            _check_png_size(ctx, data)
        elif kind != "gif":
            _check_jpeg_size(ctx, data, ctx.attrs.get("channels", 0))
        is_gif = data[:6] in (b"GIF87a", b"GIF89a")
        if kind == "gif" and not is_gif and not data.startswith((_PNG_MAGIC, b"\xff\xd8\xff", b"BM")):
            raise InvalidArgumentError(None, ctx.op, "Unknown image file format. One of JPEG, JPEG XL, PNG, GIF, "
                                       "BMP, WebP required.")
        if is_gif and kind in ("gif", "any"):
            frames = _decode_gif(ctx, data, first_only=not ctx.attrs.get("expand_animations", True))
            if kind == "gif":
                return frames
            out = frames if ctx.attrs.get("expand_animations", True) else _channels_of(
                ctx, frames[0], ctx.attrs.get("channels", 0))
        else:
            out = _jpeg_as_tf(ctx, data, ctx.attrs.get("channels", 0)) if kind in ("jpeg", "png", "any") else None
            if out is None:
                # TF turns a PNG into floats by way of its 16-bit pixels (an 8-bit value v becomes v * 257)
                wide = wanted == dtypes.uint16 or (wanted not in (None, dtypes.uint8) and data.startswith(_PNG_MAGIC))
                plain = _plain_png_pixels(data) if kind != "gif" and data.startswith(_PNG_MAGIC) else None
                if plain is not None:
                    out = _channels_of(ctx, plain, ctx.attrs.get("channels", 0), np.uint16 if wide else np.uint8)
                else:
                    out = _decode_with_pillow(ctx, kind, data, np.uint16 if wide else np.uint8)
                if out.ndim == 4:                # a GIF's frames
                    return out
            elif wanted == dtypes.uint16:
                out = out.astype(np.uint16) * np.uint16(256)     # TF widens a JPEG's 8 bits by 65536 / 256
        if ctx.op.type == "DecodeImage" and wanted not in (None, dtypes.uint8, dtypes.uint16):
            # TF multiplies by the float 1 / max (not a division: the last bit can differ)
            scale = np.float32(1.0 / np.iinfo(out.dtype).max)
            out = (out.astype(np.float32) * scale).astype(wanted.as_numpy_dtype)
        return out
    return kernel


def _decode_with_pillow(ctx, kind, data, dtype):
    """The decoded image (frames of a GIF: rank 4) by Pillow, as a numpy array of the op's channels in
    ``dtype`` (uint8 or uint16)."""
    img = _open(ctx, data, "%s of %s" % (ctx.op.type, ctx.op.name))
    fmt = (img.format or "").upper()
    if kind == "png" and fmt not in ("PNG",) and not ctx.op.type == "DecodeImage":
        if fmt not in ("JPEG", "GIF", "BMP"):
            raise _bad_image(ctx, "DecodePng of %s" % ctx.op.name, data)
    if kind == "gif" or (ctx.op.type == "DecodeImage" and fmt == "GIF" and ctx.attrs.get("expand_animations", True)):
        frames = []
        for i in range(getattr(img, "n_frames", 1)):
            img.seek(i)
            frames.append(np.asarray(img.convert("RGB")))
        return np.stack(frames)
    return _to_channels(ctx, img, ctx.attrs.get("channels", 0), dtype)


def _image_outputs(default_dtype=dtypes.uint8, rank=3):
    def outputs(op):
        channels = op._attrs.get("channels", 0) or None
        dtype = op._attrs.get("dtype", default_dtype)
        if rank == 4:
            return [(dtype, tensor_shape.TensorShape([None, None, None, 3]))]
        if op.type == "DecodeImage" and op._attrs.get("expand_animations", True):
            return [(dtype, tensor_shape.UNKNOWN)]
        return [(dtype, tensor_shape.TensorShape([None, None, channels]))]
    return outputs


register_op("DecodePng", inputs=["contents: string"], outputs=_image_outputs(), kernel=_decode("png"),
            grad=NOT_DIFFERENTIABLE, doc="A PNG's pixels, [height, width, channels] uint8 or uint16.")
register_op("DecodeJpeg", inputs=["contents: string"], outputs=_image_outputs(), kernel=_decode("jpeg"),
            grad=NOT_DIFFERENTIABLE, doc="A JPEG's pixels, [height, width, channels] uint8.")
register_op("DecodeGif", inputs=["contents: string"], outputs=_image_outputs(rank=4), kernel=_decode("gif"),
            grad=NOT_DIFFERENTIABLE, doc="A GIF's frames, [frames, height, width, 3] uint8.")
register_op("DecodeImage", inputs=["contents: string"], outputs=_image_outputs(), kernel=_decode("any"),
            grad=NOT_DIFFERENTIABLE, doc="PNG, JPEG, GIF or BMP, whichever the bytes are.")


def encode_png_bytes(image, level=6):
    """PNG bytes of a uint8 [height, width, 1..4] array (Pillow), for summaries."""
    Image = _pil()
    mode = {1: "L", 2: "LA", 3: "RGB", 4: "RGBA"}[image.shape[2]]
    buf = io.BytesIO()
    Image.fromarray(image[:, :, 0] if image.shape[2] == 1 else image, mode).save(buf, "PNG", compress_level=level)
    return buf.getvalue()


def _encode(fmt):
    def kernel(ctx, image):
        Image = _pil()
        image = np.asarray(image)
        if image.ndim != 3 or image.shape[2] not in (1, 2, 3, 4):
            raise InvalidArgumentError(None, ctx.op, "image must be 3-dimensional with 1 to 4 channels, got shape "
                                       "%s" % list(image.shape))
        mode = {1: "L", 2: "LA", 3: "RGB", 4: "RGBA"}[image.shape[2]]
        pixels = image[:, :, 0] if image.shape[2] == 1 else image
        if image.dtype == np.uint16:
            img = Image.fromarray(pixels.astype("<u2") if image.shape[2] == 1 else (pixels // 257).astype(np.uint8),
                                  "I;16" if image.shape[2] == 1 else mode)
        else:
            img = Image.fromarray(pixels, mode)
        buf = io.BytesIO()
        if fmt == "PNG":
            level = ctx.attrs.get("compression", -1)
            img.save(buf, "PNG", compress_level=6 if level < 0 else level)
        else:
            img.save(buf, "JPEG", quality=ctx.attrs.get("quality", 95))
        out = np.empty((), dtype=object)
        out[()] = buf.getvalue()
        return out
    return kernel


register_op("EncodePng", inputs=["image: T"], outputs=lambda op: [(dtypes.string, tensor_shape.SCALAR)],
            kernel=_encode("PNG"), grad=NOT_DIFFERENTIABLE, doc="PNG bytes of an image.")
register_op("EncodeJpeg", inputs=["image: uint8"], outputs=lambda op: [(dtypes.string, tensor_shape.SCALAR)],
            kernel=_encode("JPEG"), grad=NOT_DIFFERENTIABLE, doc="JPEG bytes of an image.")


# ------------------------------------------------------------------------------------------ resizing
def _source_index(out_size, in_size, align_corners, half_pixel):
    scale = ((in_size - 1) / (out_size - 1) if align_corners and out_size > 1 else in_size / out_size)
    x = np.arange(out_size, dtype=np.float64)
    return ((x + 0.5) * scale - 0.5) if half_pixel else x * scale, scale


def _resize_bilinear_kernel(ctx, images, size):
    images = np.asarray(images)
    h, w = int(size[0]), int(size[1])
    ac, hp = ctx.attrs.get("align_corners", False), ctx.attrs.get("half_pixel_centers", False)
    ys, _ = _source_index(h, images.shape[1], ac, hp)
    xs, _ = _source_index(w, images.shape[2], ac, hp)
    if hp:
        ys, xs = np.maximum(ys, 0), np.maximum(xs, 0)
    y0 = np.floor(ys).astype(int)
    x0 = np.floor(xs).astype(int)
    y1, x1 = np.minimum(y0 + 1, images.shape[1] - 1), np.minimum(x0 + 1, images.shape[2] - 1)
    y0, x0 = np.minimum(y0, images.shape[1] - 1), np.minimum(x0, images.shape[2] - 1)
    dy = (ys - np.floor(ys)).astype(np.float32)[None, :, None, None]
    dx = (xs - np.floor(xs)).astype(np.float32)[None, None, :, None]
    img = images.astype(np.float32)
    top = img[:, y0][:, :, x0] + (img[:, y0][:, :, x1] - img[:, y0][:, :, x0]) * dx
    bottom = img[:, y1][:, :, x0] + (img[:, y1][:, :, x1] - img[:, y1][:, :, x0]) * dx
    return (top + (bottom - top) * dy).astype(np.float32)


def _resize_nearest_kernel(ctx, images, size):
    images = np.asarray(images)
    h, w = int(size[0]), int(size[1])
    ac, hp = ctx.attrs.get("align_corners", False), ctx.attrs.get("half_pixel_centers", False)

    def index(out, n):
        scale = (n - 1) / (out - 1) if ac and out > 1 else n / out
        x = np.arange(out, dtype=np.float64)
        src = (x + 0.5) * scale if hp else x * scale
        src = np.round(src) if ac else np.floor(src)
        return np.minimum(src.astype(int), n - 1)
    return images[:, index(h, images.shape[1])][:, :, index(w, images.shape[2])]


def _resize_outputs(float_out):
    def outputs(op):
        from graphlab.framework.registry import const_value
        images = op._inputs[0]
        size = const_value(op._inputs[1])
        hw = [int(size[0]), int(size[1])] if size is not None else [None, None]
        batch = images.shape[0] if images.shape.ndims else None
        depth = images.shape[3] if images.shape.ndims else None
        dt = dtypes.float32 if float_out else images.dtype.base_dtype
        return [(dt, tensor_shape.TensorShape([batch] + hw + [depth]))]
    return outputs


register_op("ResizeBilinear", inputs=["images: T", "size: int32"], outputs=_resize_outputs(True),
            kernel=_resize_bilinear_kernel, grad=NOT_DIFFERENTIABLE,
            doc="Bilinear resizing as TF computes it (align_corners, half_pixel_centers); float32 out.")
register_op("ResizeNearestNeighbor", inputs=["images: T", "size: int32"], outputs=_resize_outputs(False),
            kernel=_resize_nearest_kernel, grad=NOT_DIFFERENTIABLE,
            doc="Nearest-neighbour resizing as TF computes it; the input's dtype out.")


def _adjust_contrast_kernel(ctx, images, factor):
    images = np.asarray(images, dtype=np.float32)
    mean = images.mean(axis=(-3, -2), keepdims=True, dtype=np.float32)
    return ((images - mean) * np.float32(factor) + mean).astype(np.float32)


register_op("AdjustContrastv2", inputs=["images: T", "contrast_factor: float32"],
            outputs=lambda op: [(op._inputs[0].dtype.base_dtype, op._inputs[0].shape)],
            kernel=_adjust_contrast_kernel, grad=NOT_DIFFERENTIABLE,
            doc="(x - mean) * factor + mean, the mean taken per image and channel.")


def decode_png(contents, channels=0, dtype=dtypes.uint8, name=None):
    return build_op("DecodePng", [contents], attrs={"channels": int(channels), "dtype": dtypes.as_dtype(dtype)},
                    name=name, default_name="DecodePng").outputs[0]


def decode_jpeg(contents, channels=0, ratio=1, fancy_upscaling=True, try_recover_truncated=False,
                acceptable_fraction=1, dct_method="", name=None):
    return build_op("DecodeJpeg", [contents], attrs={
        "channels": int(channels), "ratio": int(ratio), "fancy_upscaling": bool(fancy_upscaling),
        "try_recover_truncated": bool(try_recover_truncated), "acceptable_fraction": float(acceptable_fraction),
        "dct_method": dct_method}, name=name, default_name="DecodeJpeg").outputs[0]


def decode_gif(contents, name=None):
    return build_op("DecodeGif", [contents], name=name, default_name="DecodeGif").outputs[0]


def decode_image(contents, channels=None, dtype=dtypes.uint8, name=None, expand_animations=True):
    return build_op("DecodeImage", [contents], attrs={
        "channels": int(channels or 0), "dtype": dtypes.as_dtype(dtype), "expand_animations": bool(expand_animations)},
        name=name, default_name="decode_image").outputs[0]


def encode_png(image, compression=-1, name=None):
    return build_op("EncodePng", [image], attrs={"compression": int(compression)}, name=name,
                    default_name="EncodePng").outputs[0]


def encode_jpeg(image, format="", quality=95, progressive=False, optimize_size=False,  # noqa: A002
                chroma_downsampling=True, density_unit="in", x_density=300, y_density=300, xmp_metadata="",
                name=None):
    return build_op("EncodeJpeg", [image], attrs={
        "format": format, "quality": int(quality), "progressive": bool(progressive),
        "optimize_size": bool(optimize_size), "chroma_downsampling": bool(chroma_downsampling),
        "density_unit": density_unit, "x_density": int(x_density), "y_density": int(y_density),
        "xmp_metadata": xmp_metadata}, name=name, default_name="EncodeJpeg").outputs[0]


# ------------------------------------------------------------------------------- bicubic and area resizing
_CUBIC_TABLE_SIZE = 1024


def _cubic_table(a):
    x = np.arange(_CUBIC_TABLE_SIZE + 1, dtype=np.float64) / _CUBIC_TABLE_SIZE
    table = np.empty((_CUBIC_TABLE_SIZE + 1, 2), dtype=np.float32)
    table[:, 0] = ((a + 2) * x - (a + 3)) * x * x + 1
    x1 = x + 1
    table[:, 1] = ((a * x1 - 5 * a) * x1 + 8 * a) * x1 - 4 * a
    return table


_CUBIC = {-0.75: _cubic_table(-0.75), -0.5: _cubic_table(-0.5)}


def _cubic_weights(out_size, in_size, align_corners, half_pixel):
    """TF's ResizeBicubic weights and indices along one axis (its 1024-entry Keys table)."""
    scale = (in_size - 1) / (out_size - 1) if align_corners and out_size > 1 else in_size / out_size
    x = np.arange(out_size, dtype=np.float64)
    src = ((x + 0.5) * scale - 0.5) if half_pixel else x * scale
    base = np.floor(src)
    offset = np.rint((src - base) * _CUBIC_TABLE_SIZE).astype(np.int64)
    table = _CUBIC[-0.5 if half_pixel else -0.75]
    w = np.stack([table[offset, 1], table[offset, 0], table[_CUBIC_TABLE_SIZE - offset, 0],
                  table[_CUBIC_TABLE_SIZE - offset, 1]], axis=1).astype(np.float32)
    idx = base.astype(np.int64)[:, None] + np.arange(-1, 3)[None, :]
    if half_pixel:     # taps outside the image get no weight; the rest are renormalized
        inside = (idx >= 0) & (idx < in_size)
        w = np.where(inside, w, 0).astype(np.float32)
        w = (w / np.maximum(w.sum(axis=1, keepdims=True), np.float32(1e-6))).astype(np.float32)
    return w, np.clip(idx, 0, in_size - 1)


def _resize_bicubic_kernel(ctx, images, size):
    images = np.asarray(images, dtype=np.float32)
    h, w = int(size[0]), int(size[1])
    ac, hp = ctx.attrs.get("align_corners", False), ctx.attrs.get("half_pixel_centers", False)
    wy, iy = _cubic_weights(h, images.shape[1], ac, hp)
    wx, ix = _cubic_weights(w, images.shape[2], ac, hp)
    rows = images[:, iy]                                          # [b, h, 4, in_w, c]
    cols = rows[:, :, :, ix]                                      # [b, h, 4, w, 4, c]
    out = np.einsum("bhiwjc,wj->bhiwc", cols, wx, dtype=np.float32)
    return np.einsum("bhiwc,hi->bhwc", out, wy, dtype=np.float32).astype(np.float32)


def _area_matrix(out_size, in_size, align_corners):
    scale = (in_size - 1) / (out_size - 1) if align_corners and out_size > 1 else in_size / out_size
    m = np.zeros((out_size, in_size), dtype=np.float64)
    for y in range(out_size):
        start, end = y * scale, (y + 1) * scale
        for i in range(int(np.floor(start)), int(np.ceil(end))):
            m[y, min(i, in_size - 1)] += min(i + 1, end) - max(i, start)
    return m, scale


def _resize_area_kernel(ctx, images, size):
    images = np.asarray(images)
    h, w = int(size[0]), int(size[1])
    ac = ctx.attrs.get("align_corners", False)
    my, sy = _area_matrix(h, images.shape[1], ac)
    mx, sx = _area_matrix(w, images.shape[2], ac)
    out = np.einsum("yi,bijc,xj->byxc", my, images.astype(np.float64), mx) / (sy * sx)
    return out.astype(np.float32)


register_op("ResizeBicubic", inputs=["images: T", "size: int32"], outputs=_resize_outputs(True),
            kernel=_resize_bicubic_kernel, grad=NOT_DIFFERENTIABLE,
            doc="Bicubic resizing as TF computes it (Keys' kernel from a 1024-entry table); float32 out.")
register_op("ResizeArea", inputs=["images: T", "size: int32"], outputs=_resize_outputs(True),
            kernel=_resize_area_kernel, grad=NOT_DIFFERENTIABLE,
            doc="Area resizing: each output pixel the overlap-weighted mean of the input pixels it covers.")


# -------------------------------------------------------------------------------------- colour spaces
def rgb_to_hsv_array(rgb):
    """TF's RGBToHSV on the last axis (float math of the input's type)."""
    rgb = np.asarray(rgb)
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    v = rgb.max(axis=-1)
    rng = v - rgb.min(axis=-1)
    one = rgb.dtype.type(1)
    with np.errstate(divide="ignore", invalid="ignore"):
        s = np.where(v > 0, rng / v, 0).astype(rgb.dtype)
        norm = one / rng * (one / rgb.dtype.type(6))
        h = np.where(r == v, norm * (g - b),
                     np.where(g == v, norm * (b - r) + rgb.dtype.type(2) / 6, norm * (r - g) + rgb.dtype.type(4) / 6))
    h = np.where(rng > 0, h, 0).astype(rgb.dtype)
    h = np.where(h < 0, h + one, h).astype(rgb.dtype)
    return np.stack([h, s, v], axis=-1)


def hsv_to_rgb_array(hsv):
    """TF's HSVToRGB on the last axis."""
    hsv = np.asarray(hsv)
    t = hsv.dtype.type
    h, s, v = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    dh = h * t(6)
    dr = np.clip(np.abs(dh - t(3)) - t(1), 0, 1)
    dg = np.clip(-np.abs(dh - t(2)) + t(2), 0, 1)
    db = np.clip(-np.abs(dh - t(4)) + t(2), 0, 1)
    one_s = -s + t(1)
    return np.stack([(one_s + s * dr) * v, (one_s + s * dg) * v, (one_s + s * db) * v], axis=-1).astype(hsv.dtype)


def _hsv_pixelwise(rgb):
    """AdjustHue/AdjustSaturation's own per-pixel HSV (float32, as their CPU kernels)."""
    rgb = rgb.astype(np.float32)
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    v = np.maximum(r, np.maximum(g, b))
    rng = v - np.minimum(r, np.minimum(g, b))
    with np.errstate(divide="ignore", invalid="ignore"):
        s = np.where(v > 0, rng / v, np.float32(0)).astype(np.float32)
        norm = np.float32(1.0) / (np.float32(6.0) * rng)
        h = np.where(r == v, norm * (g - b), np.where(g == v, norm * (b - r) + np.float32(2.0 / 6.0),
                                                       norm * (r - g) + np.float32(4.0 / 6.0)))
    h = np.where(rng <= 0, np.float32(0), h).astype(np.float32)
    h = np.where(h < 0, h + np.float32(1), h).astype(np.float32)
    return h, s, v


def _rgb_pixelwise(h, s, v):
    c = (s * v).astype(np.float32)
    m = (v - c).astype(np.float32)
    dh = (h * np.float32(6)).astype(np.float32)
    category = dh.astype(np.int64)
    fmodu = np.mod(dh, np.float32(2)).astype(np.float32)
    x = (c * (np.float32(1) - np.abs(fmodu - np.float32(1)))).astype(np.float32)
    zero = np.zeros_like(c)
    table = {0: (c, x, zero), 1: (x, c, zero), 2: (zero, c, x), 3: (zero, x, c), 4: (x, zero, c), 5: (c, zero, x)}
    rr, gg, bb = zero.copy(), zero.copy(), zero.copy()
    for k, (a, b_, c_) in table.items():
        where = category == k
        rr[where], gg[where], bb[where] = a[where], b_[where], c_[where]
    return np.stack([rr + m, gg + m, bb + m], axis=-1).astype(np.float32)


def _adjust_hue_kernel(ctx, images, delta):
    images = np.asarray(images)
    h, s, v = _hsv_pixelwise(images)
    h = np.fmod(h + np.float32(delta), np.float32(1.0)).astype(np.float32)
    h = np.where(h < 0, h + np.float32(1.0), h).astype(np.float32)
    return _rgb_pixelwise(h, s, v).astype(images.dtype)


def _adjust_saturation_kernel(ctx, images, scale):
    images = np.asarray(images)
    h, s, v = _hsv_pixelwise(images)
    s = np.clip(s * np.float32(scale), np.float32(0), np.float32(1)).astype(np.float32)
    return _rgb_pixelwise(h, s, v).astype(images.dtype)


def _three_channels(op_type):
    def outputs(op):
        t = op._inputs[0]
        if t.shape.ndims is not None and t.shape.ndims >= 1 and t.shape[-1] not in (None, 3):
            raise ValueError("Dimension must be 3 but is %d" % t.shape[-1])
        return [(t.dtype.base_dtype, t.shape)]
    return outputs


def _checked_rgb(kernel):
    def run(ctx, images, *rest):
        images = np.asarray(images)
        if images.ndim < 1 or images.shape[-1] != 3:
            raise InvalidArgumentError(None, ctx.op, "input must have 3 channels but input only has %s channels."
                                       % (images.shape[-1] if images.ndim else 0))
        return kernel(ctx, images, *rest)
    return run


register_op("RGBToHSV", inputs=["images: T"], outputs=_three_channels("RGBToHSV"),
            kernel=_checked_rgb(lambda ctx, x: rgb_to_hsv_array(x)), grad=NOT_DIFFERENTIABLE,
            doc="RGB -> HSV on the last axis (hue in [0, 1)).")
register_op("HSVToRGB", inputs=["images: T"], outputs=_three_channels("HSVToRGB"),
            kernel=_checked_rgb(lambda ctx, x: hsv_to_rgb_array(x)), grad=NOT_DIFFERENTIABLE,
            doc="HSV -> RGB on the last axis.")
register_op("AdjustHue", inputs=["images: T", "delta: float32"], outputs=_three_channels("AdjustHue"),
            kernel=_checked_rgb(_adjust_hue_kernel), grad=NOT_DIFFERENTIABLE,
            doc="Rotates each pixel's hue by delta (in turns).")
register_op("AdjustSaturation", inputs=["images: T", "scale: float32"], outputs=_three_channels("AdjustSaturation"),
            kernel=_checked_rgb(_adjust_saturation_kernel), grad=NOT_DIFFERENTIABLE,
            doc="Scales each pixel's saturation, clipped to [0, 1].")


# ------------------------------------------------------------------------------------- ClipByValue
def _clip_grad(op, grad):
    """TF's rule: the gradient goes to t where it was inside [min, max], to min where t was below it and to
    max where above (summed back to each input's shape centrally)."""
    from graphlab.ops.broadcast_ops import reduce_broadcast
    from graphlab.ops import array_ops, math_ops
    x, lo, hi = op.inputs
    zeros = array_ops.zeros_like(grad)
    below, above = math_ops.less(x, lo), math_ops.greater(x, hi)
    _, g_lo = reduce_broadcast(x, lo, None, array_ops.where_v2(below, grad, zeros), "ClipByValue")
    _, g_hi = reduce_broadcast(x, hi, None, array_ops.where_v2(above, grad, zeros), "ClipByValue")
    return [array_ops.where_v2(math_ops.logical_or(below, above), zeros, grad), g_lo, g_hi]


register_op("ClipByValue", inputs=["t: T", "clip_value_min: T", "clip_value_max: T"],
            outputs=lambda op: [(op._inputs[0].dtype.base_dtype, op._inputs[0].shape)],
            kernel=lambda ctx, t, lo, hi: np.minimum(np.maximum(np.asarray(t), lo), hi).astype(np.asarray(t).dtype),
            grad=_clip_grad, doc="min(max(t, clip_value_min), clip_value_max) (saturate_cast's clamp).")


# ------------------------------------------------------------------ DecodeBmp, DecodeAndCropJpeg
register_op("DecodeBmp", inputs=["contents: string"], outputs=_image_outputs(), kernel=_decode("bmp"),
            grad=NOT_DIFFERENTIABLE, doc="A BMP's pixels, [height, width, channels] uint8.")


def decode_bmp(contents, channels=0, name=None):
    """``tf.io.decode_bmp``."""
    return build_op("DecodeBmp", [contents], attrs={"channels": int(channels)}, name=name).outputs[0]


def _decode_and_crop(ctx, contents, crop_window):
    full = _decode("jpeg")(ctx, contents)
    y, x, h, w = (int(v) for v in np.asarray(crop_window).reshape(-1))
    if y < 0 or x < 0 or h <= 0 or w <= 0 or y + h > full.shape[0] or x + w > full.shape[1]:
        raise InvalidArgumentError(None, ctx.op, "Invalid JPEG data or crop window, data size %d" % len(
            _bytes_of(contents)))
    return np.ascontiguousarray(full[y:y + h, x:x + w])


register_op("DecodeAndCropJpeg", inputs=["contents: string", "crop_window: int32"], outputs=_image_outputs(),
            kernel=_decode_and_crop, grad=NOT_DIFFERENTIABLE,
            doc="The window [y, x, height, width] of a JPEG's pixels. TF decodes only that part: with chroma "
                "subsampling its upsampler takes the window's right edge for the image's, so the last column can "
                "differ from graphlab's (the rest is the same).")


def decode_and_crop_jpeg(contents, crop_window, channels=0, ratio=1, fancy_upscaling=True,
                         try_recover_truncated=False, acceptable_fraction=1, dct_method="", name=None):
    """``tf.io.decode_and_crop_jpeg``."""
    return build_op("DecodeAndCropJpeg", [contents, crop_window], attrs={
        "channels": int(channels), "ratio": int(ratio), "fancy_upscaling": bool(fancy_upscaling),
        "try_recover_truncated": bool(try_recover_truncated), "acceptable_fraction": float(acceptable_fraction),
        "dct_method": dct_method}, name=name).outputs[0]
