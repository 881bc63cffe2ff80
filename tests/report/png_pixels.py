"""Just enough PNG decoding to ask "is this colour on screen?" of a small screenshot.

Handles what Chromium writes (8-bit RGB or RGBA, not interlaced). Pure Python, so
keep the images small: clip the screenshot to the element being checked.

Example::

    >>> colours(png_bytes)[(255, 217, 217)]     # how many pixels of that colour
    412
"""

from __future__ import annotations

import struct
import zlib
from collections import Counter


def decode(data: bytes) -> tuple[int, int, list[list[tuple[int, ...]]]]:
    """(width, height, rows of RGB tuples)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, ctype, _, _, interlace = header
    if depth != 8 or ctype not in (2, 6) or interlace:
        raise ValueError(f"unsupported PNG: depth {depth}, colour type {ctype}")
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    prev = bytearray(stride)
    rows = []
    for y in range(height):
        start = y * (stride + 1)
        ftype, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if ftype == 1:
                line[i] = (line[i] + a) & 255
            elif ftype == 2:
                line[i] = (line[i] + b) & 255
            elif ftype == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(width)])
        prev = line
    return width, height, rows


def colours(data: bytes) -> Counter:
    """How many pixels of each RGB colour the image holds."""
    _, _, rows = decode(data)
    return Counter(px for row in rows for px in row)


def has_colour(counts: Counter, rgb: tuple[int, int, int], tol: int = 6,
               at_least: int = 20) -> bool:
    n = sum(k for c, k in counts.items() if all(abs(a - b) <= tol for a, b in zip(c, rgb)))
    return n >= at_least
