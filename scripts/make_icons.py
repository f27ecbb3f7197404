#!/usr/bin/env python3
"""Remake the web app's icons (``src/paston/server/static/icon*.{svg,png}``), offline.

One drawing, the favicon's: a gold spade on the table's felt green (``--felt`` of
style.css), written as SVG (``icon.svg``) and rasterised here, without any image library,
to the PNGs that browsers want for installing (``icon-192.png``, ``icon-512.png``: a
rounded square; ``icon-maskable-512.png``: the felt to the edges, the spade inside the
maskable safe zone, a circle of 40 % of the size around the centre). The shapes are
convex polygons and circles, so each pixel's coverage is counted on a 4 × 4 grid of
samples (numpy, a dependency of Paston); the PNG is written with zlib.

    .venv/bin/python scripts/make_icons.py [--out src/paston/server/static]

tests/test_server_pwa.py renders the PNGs again with :func:`render` and compares pixels.
"""

from __future__ import annotations

import argparse
import struct
import zlib
from pathlib import Path

import numpy as np

FELT = (0x0F, 0x51, 0x32)  # style.css --felt
GOLD = (0xF5, 0xC5, 0x42)  # style.css --accent, the favicon's spade
UNIT = 512  # the drawing's coordinates: a 512 × 512 square
CORNER = 104  # the rounded square's corner radius (the favicon's 5 of 24)
#: the spade: a square on its corner, two round lobes on its lower sides, a flared stem
DIAMOND = [(256.0, 80.0), (386.0, 210.0), (256.0, 340.0), (126.0, 210.0)]
LOBE_R = 130 / 2**0.5
LOBES = [(191.0, 275.0), (321.0, 275.0)]
STEM = [(244.0, 300.0), (268.0, 300.0), (314.0, 430.0), (198.0, 430.0)]
SAMPLES = 4
OUT = Path(__file__).resolve().parent.parent / "src" / "paston" / "server" / "static"
PNGS = {"icon-192.png": (192, False), "icon-512.png": (512, False), "icon-maskable-512.png": (512, True)}


def svg() -> str:
    """The icon as SVG (the rounded square)."""

    def points(polygon: list[tuple[float, float]]) -> str:
        return " ".join(f"{x:g},{y:g}" for x, y in polygon)

    lobes = "".join(f'<circle cx="{x:g}" cy="{y:g}" r="{LOBE_R:.2f}"/>' for x, y in LOBES)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {UNIT} {UNIT}">'
        f'<rect width="{UNIT}" height="{UNIT}" rx="{CORNER}" fill="#{bytes(FELT).hex()}"/>'
        f'<g fill="#{bytes(GOLD).hex()}"><polygon points="{points(DIAMOND)}"/>{lobes}'
        f'<polygon points="{points(STEM)}"/></g></svg>\n'
    )


def _inside_convex(x: np.ndarray, y: np.ndarray, polygon: list[tuple[float, float]]) -> np.ndarray:
    """Which points lie inside a convex polygon given clockwise (in screen coordinates)."""
    inside = np.ones(x.shape, dtype=bool)
    for (x0, y0), (x1, y1) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        inside &= (x1 - x0) * (y - y0) - (y1 - y0) * (x - x0) >= 0
    return inside


def render(size: int, maskable: bool = False) -> np.ndarray:
    """The icon at ``size`` × ``size`` pixels: an RGBA array of uint8 (``size``, ``size``, 4)."""
    n = size * SAMPLES
    centres = (np.arange(n) + 0.5) * (UNIT / n)
    x, y = np.meshgrid(centres, centres)
    if maskable:
        square = np.ones(x.shape, dtype=bool)
    else:  # a rounded square: outside the corners' circles, the corners are cut
        cx = np.clip(x, CORNER, UNIT - CORNER)
        cy = np.clip(y, CORNER, UNIT - CORNER)
        square = (x - cx) ** 2 + (y - cy) ** 2 <= CORNER**2
    spade = _inside_convex(x, y, DIAMOND) | _inside_convex(x, y, STEM)
    for lx, ly in LOBES:
        spade |= (x - lx) ** 2 + (y - ly) ** 2 <= LOBE_R**2
    spade &= square

    def coverage(mask: np.ndarray) -> np.ndarray:
        return mask.reshape(size, SAMPLES, size, SAMPLES).mean(axis=(1, 3))

    alpha, gold = coverage(square), coverage(spade)
    share = np.divide(gold, alpha, out=np.zeros_like(gold), where=alpha > 0)  # of what is painted
    rgba = np.empty((size, size, 4), dtype=np.uint8)
    for channel, (felt, accent) in enumerate(zip(FELT, GOLD, strict=True)):
        rgba[..., channel] = np.rint(felt + (accent - felt) * share)
    rgba[..., 3] = np.rint(alpha * 255)
    return rgba


def png(rgba: np.ndarray) -> bytes:
    """An RGBA array as a PNG file (8 bits a channel, no filter)."""
    height, width, _ = rgba.shape
    rows = b"".join(b"\0" + rgba[row].tobytes() for row in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)  # 8 bits, RGBA
    data = chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")
    return b"\x89PNG\r\n\x1a\n" + data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT, help="the folder (default: the client's)")
    out = parser.parse_args().out
    out.mkdir(parents=True, exist_ok=True)
    (out / "icon.svg").write_text(svg(), encoding="utf-8")
    for name, (size, maskable) in PNGS.items():
        (out / name).write_bytes(png(render(size, maskable)))
    print(f"wrote icon.svg and {', '.join(PNGS)} to {out}")


if __name__ == "__main__":
    main()
