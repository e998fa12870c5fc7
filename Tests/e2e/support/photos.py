"""Photos written for a test: no image library is needed (PNG and GIF are written by hand)."""

import random
import struct
import zlib


def _chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def write_noise_png(path, width, height, seed=1):
    """An RGB PNG of random pixels: every pixel differs from its neighbours, so any pixel doubling
    shows (a photo drawn at half resolution has identical 2×2 blocks; this one has none)."""
    rows = random.Random(seed).randbytes(width * 3 * height)
    stride = width * 3
    raw = b"".join(b"\x00" + rows[y * stride:(y + 1) * stride] for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header)
                     + _chunk(b"IDAT", zlib.compress(raw, 1)) + _chunk(b"IEND", b""))


def _lzw(indices, min_code_size):
    """GIF's LZW, the plainest way: a clear code before every few codes keeps the table small."""
    clear, end = 1 << min_code_size, (1 << min_code_size) + 1
    size = min_code_size + 1
    bits, count, out = 0, 0, bytearray()

    def emit(code):
        nonlocal bits, count
        bits |= code << count
        count += size
        while count >= 8:
            out.append(bits & 0xFF)
            bits >>= 8
            count -= 8

    # Each index is its own code; a clear code before the table would need a wider code.
    for i, index in enumerate(indices):
        if i % ((1 << size) - end - 2) == 0:
            emit(clear)
        emit(index)
    emit(end)
    if count:
        out.append(bits & 0xFF)
    return bytes(out)


def write_animated_gif(path, width, height, colours, delay_cs=20):
    """A looping GIF of one frame per colour ((r, g, b) each), each a flat picture with a bar
    whose place moves, shown `delay_cs` hundredths of a second."""
    palette = list(colours) + [(255, 255, 255)]
    table_bits = max(1, (len(palette) - 1).bit_length())
    palette += [(0, 0, 0)] * ((1 << table_bits) - len(palette))
    gif = bytearray(b"GIF89a" + struct.pack("<HHBBB", width, height, 0x80 | (table_bits - 1), 0, 0))
    gif += bytes(channel for colour in palette for channel in colour)
    gif += b"\x21\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"
    white = len(colours)
    for frame in range(len(colours)):
        bar = range(frame * width // len(colours), (frame + 1) * width // len(colours))
        indices = [white if x in bar else frame for _ in range(height) for x in range(width)]
        data = _lzw(indices, max(2, table_bits))
        gif += b"\x21\xf9\x04\x04" + struct.pack("<H", delay_cs) + b"\x00\x00"
        gif += b"\x2c" + struct.pack("<HHHHB", 0, 0, width, height, 0) + bytes([max(2, table_bits)])
        for start in range(0, len(data), 255):
            block = data[start:start + 255]
            gif += bytes([len(block)]) + block
        gif += b"\x00"
    gif += b"\x3b"
    path.write_bytes(bytes(gif))
