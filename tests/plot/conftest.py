"""Shared results and file checks for the chart tests (no display is ever needed)."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

import oddsim

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="session")
def land_result():
    """A small land battle, solved exactly: every outcome but stalemate is possible."""
    return oddsim.solve(oddsim.Battle(rules="1942-2e", attacker="3 inf, 1 art, 2 arm",
                                      defender="4 inf, 1 arm"))


@pytest.fixture(scope="session")
def sea_stalemate_result():
    """A sea battle that can end in a stalemate (aircraft and a sub against a sub and a
    destroyer: once the destroyer is gone, neither side can hit the other)."""
    return oddsim.solve(oddsim.Battle(rules="1942-2e", attacker="2 ftr, 1 sub",
                                      defender="1 sub, 1 dd", sea=True))


def read_png_size(path: Path) -> tuple[int, int]:
    """(width, height) of a PNG file, after checking its signature and header chunk."""
    data = Path(path).read_bytes()
    assert data[:8] == PNG_SIGNATURE, "not a PNG file"
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


@pytest.fixture
def png_size():
    return read_png_size
