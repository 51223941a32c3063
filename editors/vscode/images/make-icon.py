#!/usr/bin/env python3
"""Draws icon.png (128x128), the extension's marketplace icon, with the
standard library only: three capability nodes (untrusted input, private
data, outward action) on a dark tile, joined by the path acg warns about,
with the closing edge broken where an approval gate would cut it.

    python3 make-icon.py   # writes icon.png beside this file
"""
import math
import os
import struct
import zlib

N = 128
BG = (24, 28, 38)
EDGE = (200, 206, 220)
NODES = [  # centre, radius, colour: untrusted (red), private (amber), outward (blue)
    ((64, 26), 14, (232, 76, 61)),
    ((26, 96), 14, (241, 178, 52)),
    ((102, 96), 14, (66, 153, 225)),
]


def seg_dist(p, a, b):
    ax, ay = a
    bx, by = b
    px, py = p
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


def cover(d, r):
    """Anti-aliased coverage of a disc or stroke of half-width r at distance d."""
    return max(0.0, min(1.0, r - d + 0.5))


def pixel(x, y):
    p = (x + 0.5, y + 0.5)
    # Rounded tile: transparent outside a 20 px corner radius.
    cx, cy = min(max(p[0], 20), N - 20), min(max(p[1], 20), N - 20)
    alpha = cover(math.hypot(p[0] - cx, p[1] - cy), 20)
    c = list(BG)
    (a, _, _), (b, _, _), (d, _, _) = NODES
    edges = [(a, b), (a, d)]
    # The third edge, private -> outward, broken in the middle: the gate.
    edges += [(b, (52, 96)), ((76, 96), d)]
    k = max(cover(seg_dist(p, e0, e1), 3.5) for e0, e1 in edges)
    c = [ci + (ei - ci) * k for ci, ei in zip(c, EDGE)]
    gate = cover(max(abs(p[0] - 64), abs(p[1] - 96) / 3) , 2.5)
    c = [ci + (ei - ci) * gate for ci, ei in zip(c, (120, 220, 130))]
    for (nx, ny), r, col in NODES:
        k = cover(math.hypot(p[0] - nx, p[1] - ny), r)
        c = [ci + (ei - ci) * k for ci, ei in zip(c, col)]
    return bytes(int(round(v)) for v in c) + bytes([int(round(255 * alpha))])


def png(path):
    raw = b"".join(b"\0" + b"".join(pixel(x, y) for x in range(N)) for y in range(N))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", N, N, 8, 6, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(raw, 9)))
        f.write(chunk(b"IEND", b""))


if __name__ == "__main__":
    png(os.path.join(os.path.dirname(os.path.abspath(__file__)), "icon.png"))
