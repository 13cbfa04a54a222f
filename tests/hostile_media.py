"""Small hostile media files made byte by byte, for the tests that compare graphlab's decoders with TF's:
each declares far more than it holds (a decompression bomb) or a header TF refuses."""
import io
import struct
import zlib


def _png_chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def png_declaring(width, height, colour=2):
    """A PNG whose IHDR says width x height 8-bit pixels, with one tiny compressed IDAT (a bomb if decoded)."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, colour, 0, 0, 0)
    idat = zlib.compress(b"\x00" * 64)
    return b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", ihdr) + _png_chunk(b"IDAT", idat) + _png_chunk(b"IEND", b"")


def _gif_lzw_one_pixel():
    # LZW minimum code size 2; codes (3 bits): clear(4), index 0, end(5) -> bits packed LSB first
    bits = 4 | (0 << 3) | (5 << 6)
    data = struct.pack("<H", bits)[:2]
    return b"\x02" + bytes([len(data)]) + data + b"\x00"


def gif_screen(screen_w, screen_h, frames, frame_w=1, frame_h=1):
    """A GIF89a with a screen_w x screen_h logical screen and `frames` images of frame_w x frame_h at (0, 0)."""
    out = bytearray(b"GIF89a" + struct.pack("<HHBBB", screen_w, screen_h, 0x80 | 0x01, 0, 0))
    out += b"\x00\x00\x00\xff\xff\xff\x10\x20\x30\x40\x50\x60"[:12]  # 4-entry colour table (3 bytes each)
    pixel = _gif_lzw_one_pixel()
    for _ in range(frames):
        out += b"\x21\xf9\x04\x00\x00\x00\x00\x00"  # graphic control: no disposal, no delay
        out += b"\x2c" + struct.pack("<HHHHB", 0, 0, frame_w, frame_h, 0)
        out += pixel if (frame_w, frame_h) == (1, 1) else _gif_lzw_zeros(frame_w * frame_h)
    out += b"\x3b"
    return bytes(out)


def _gif_lzw_zeros(n):
    """LZW data for n pixels of index 0 (a clear code before each 3-bit code run keeps the table small)."""
    codes = []
    for _ in range(n):
        codes += [4, 0]
    codes.append(5)
    acc, nbits, data = 0, 0, bytearray()
    for c in codes:
        acc |= c << nbits
        nbits += 3
        while nbits >= 8:
            data.append(acc & 0xFF)
            acc >>= 8
            nbits -= 8
    if nbits:
        data.append(acc)
    blocks = bytearray(b"\x02")
    for i in range(0, len(data), 255):
        piece = data[i:i + 255]
        blocks += bytes([len(piece)]) + piece
    return bytes(blocks) + b"\x00"


def jpeg_claiming(width, height):
    """An 8x8 gray JPEG whose SOF header is rewritten to claim width x height (the data covers 8x8)."""
    from PIL import Image
    buf = io.BytesIO()
    Image.new("L", (8, 8), 128).save(buf, "JPEG")
    data = bytearray(buf.getvalue())
    pos = 2
    while pos < len(data):
        marker = data[pos + 1]
        length = struct.unpack(">H", data[pos + 2:pos + 4])[0]
        if marker in (0xC0, 0xC1, 0xC2):
            struct.pack_into(">HH", data, pos + 5, height, width)
            return bytes(data)
        pos += 2 + length
    raise AssertionError("no SOF marker")


def wav(channels=1, bits=16, rate=8000, frames=b"\x01\x00\x02\x00\x03\x00\x04\x00", data_size=None, fmt_tag=1):
    """A RIFF/WAVE file; data_size overrides the data chunk's declared size (a lie when it differs)."""
    block = channels * bits // 8
    fmt = struct.pack("<HHIIHH", fmt_tag, channels, rate, (rate * block) & 0xFFFFFFFF, block & 0xFFFF, bits)
    size = len(frames) if data_size is None else data_size
    body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt + b"data" + struct.pack("<I", size) + frames
    return b"RIFF" + struct.pack("<I", len(body)) + body
