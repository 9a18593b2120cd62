"""Card art is bounded and stays in the game folder (issue 14): a decompression bomb, art over the
pixel budget (engine.limits.MAX_ART_PIXELS, 40 Mpx) and a symlink out of the folder are PR003 at the
card's ``image:`` line with exit 1 and nothing from Pillow on stderr; an absolute path or ``..``
is DA003 at the same line; a changed art file changes the build key."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from engine import limits
from pipeline.build.manifest import build_key

DECKPRESS = Path(sys.executable).with_name("deckpress")


def _png(path: Path, width: int, height: int) -> None:
    """A valid 8-bit greyscale PNG of ``width`` × ``height`` black pixels, written by hand
    (zlib compresses the zero rows to a few kB, so a 400 Mpx image costs no memory to make)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    compressor = zlib.compressobj(9)
    rows = b"\x00" * (width + 1) * 500  # 500 rows: a filter byte 0, then the row's zeros
    body = b"".join(compressor.compress(rows[: (width + 1) * min(500, height - n)]) for n in range(0, height, 500)) + compressor.flush()
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
                     + chunk(b"IDAT", body) + chunk(b"IEND", b""))


def _with_image(folder: Path, image: str) -> int:
    """Give the first card ``image: <image>``; returns its line (the key at column 5)."""
    path = folder / "cards.yaml"
    lines = path.read_text().splitlines()
    at = lines.index("    copies: 2") + 1
    lines.insert(at, f"    image: {json.dumps(image)}")
    path.write_text("\n".join(lines) + "\n")
    return at + 1


def _check(folder: Path) -> tuple[int, list[dict], str]:
    proc = subprocess.run([str(DECKPRESS), "check", str(folder), "--format", "json"], capture_output=True, text=True, timeout=120)
    return proc.returncode, json.loads(proc.stdout)["findings"], proc.stderr


def _one(findings: list[dict], code: str) -> dict:
    [f] = [f for f in findings if f["code"] == code]
    return f


@pytest.mark.parametrize("size, words", [
    ((20_000, 20_000), "is too large to decode"),  # 400 Mpx: past Pillow's DecompressionBombError (179 Mpx)
    ((10_000, 10_000), "card art may have at most 40 Mpx"),  # 100 Mpx: Pillow would only warn, on stderr
    ((7_000, 6_000), "is 7000x6000 px (42.0 Mpx); card art may have at most 40 Mpx"),
])
def test_art_past_the_pixel_budget_is_pr003_with_nothing_on_stderr(game_copy, size, words):
    folder = game_copy("mini")
    (folder / "art").mkdir()
    _png(folder / "art" / "big.png", *size)
    line = _with_image(folder, "art/big.png")
    code, findings, stderr = _check(folder)
    f = _one(findings, "PR003")
    assert code == 1 and stderr == ""
    assert (f["location"]["line"], f["location"]["column"], f["location"]["card"]) == (line, 12, "ember-apprentice")
    assert words in f["message"]


def test_art_within_the_budget_prints(game_copy):
    folder = game_copy("mini")
    (folder / "art").mkdir()
    _png(folder / "art" / "ok.png", 900, 1500)
    _with_image(folder, "art/ok.png")
    code, findings, stderr = _check(folder)
    assert [f for f in findings if f["code"] == "PR003"] == [] and stderr == ""
    assert limits.MAX_ART_PIXELS == 40_000_000


def test_a_symlink_out_of_the_game_folder_is_pr003(game_copy, tmp_path):
    folder = game_copy("mini")
    outside = tmp_path / "secret.png"
    _png(outside, 90, 150)
    os.symlink(outside, folder / "art.png")
    line = _with_image(folder, "art.png")
    code, findings, _ = _check(folder)
    f = _one(findings, "PR003")
    assert (code, f["location"]["line"]) == (1, line)
    assert "lies outside the game folder" in f["message"]


@pytest.mark.parametrize("image", ["/etc/passwd", "../other/art.png", "art/../../x.png", "C:/art.png", "~/art.png"])
def test_an_absolute_or_climbing_image_path_is_da003(game_copy, image):
    folder = game_copy("mini")
    line = _with_image(folder, image)
    code, findings, _ = _check(folder)
    f = _one(findings, "DA003")
    assert (code, f["location"]["line"], f["location"]["column"]) == (1, line, 5)
    assert "no absolute path, no '..'" in f["message"]


def test_a_changed_art_file_changes_the_build_key(game_copy):
    folder = game_copy("mini")
    (folder / "art").mkdir()
    _png(folder / "art" / "a.png", 90, 150)
    _with_image(folder, "art/a.png")
    before = build_key(folder, {})
    _png(folder / "art" / "a.png", 91, 150)
    assert build_key(folder, {}) != before
