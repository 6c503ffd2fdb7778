"""Input files a user names (a ruleset, a wave plan, a sweep's rows to resume) are read by one
function: only a regular file, only up to its cap. Before: a wave plan or a resumed ``--out``
linked to /dev/zero read until the memory was gone, and a FIFO as a wave plan hung forever."""

import dataclasses
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_lines import refused

from oddsim._runtime.files import InputFile, size_text
from oddsim.errors import BattleError
from oddsim.purchase import output

PLAN = InputFile("wave plan", 64, "a plan is short", "give a .toml file", BattleError)
BATTLE = ["battle", "-a", "1 inf", "-d", "1 inf", "--wave-plan"]
RESUME = ["purchase", "--budget", "10", "--units", "inf", "--against", "2 inf", "--resume", "--out"]
needs_dev_zero = pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")


def test_a_regular_file_is_read_whole(tmp_path):
    path = tmp_path / "plan.toml"
    path.write_bytes(b"x" * 64)
    assert PLAN.read(path) == b"x" * 64
    assert PLAN.read_text(path) == "x" * 64


def test_a_file_over_the_cap_is_refused(tmp_path):
    path = tmp_path / "plan.toml"
    path.write_bytes(b"x" * 65)
    with pytest.raises(BattleError, match=rf"^wave plan {path} is over 64 bytes: a plan is short$"):
        PLAN.read(path)


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path):
    """Run in a child with a timeout: before, reading the FIFO waited forever."""
    fifo = tmp_path / "plan.toml"
    os.mkfifo(fifo)
    code = ("import sys; from oddsim.cli import main; sys.argv = ['oddsim', 'battle', '-a', '1 inf', "
            f"'-d', '1 inf', '--wave-plan', {str(fifo)!r}]; main()")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          cwd=Path(__file__).parents[2])
    assert done.returncode == 2
    assert done.stderr == (f"oddsim: error: wave plan {fifo} is not a regular file: write the plan in "
                           f"a .toml or .json file\n")
    assert done.stdout == ""


@needs_dev_zero
def test_a_wave_plan_linked_to_a_device_is_refused_unread(tmp_path):
    plan = tmp_path / "zero.toml"
    plan.symlink_to("/dev/zero")
    refused([*BATTLE, str(plan)],
            f"wave plan {plan} is not a regular file: write the plan in a .toml or .json file")


def test_a_huge_wave_plan_is_refused(tmp_path):
    plan = tmp_path / "plan.toml"
    plan.write_bytes(b"#" * (1 << 20) + b"\n#")
    refused([*BATTLE, str(plan)], f"wave plan {plan} is over 1 MiB: a plan is a short TOML or JSON file")


def test_a_missing_wave_plan_is_one_line(tmp_path):
    plan = tmp_path / "missing.toml"
    refused([*BATTLE, str(plan)], f"cannot read wave plan {plan}: No such file or directory")


@needs_dev_zero
@pytest.mark.parametrize("device", ["/dev/zero", "/dev/full"])
def test_resuming_an_out_file_linked_to_a_device_is_refused_unread(tmp_path, device):
    """Before: a MemoryError traceback from ``readline`` (/dev/zero), or killed for memory (/dev/full)."""
    if not os.path.exists(device):
        pytest.skip(f"needs {device}")
    out = tmp_path / "rows.csv"
    out.symlink_to(device)
    refused([*RESUME, str(out)], f"--out {out} is not a regular file: choose a .csv or .json file")


def test_resuming_an_out_file_over_its_cap_is_refused_untouched(tmp_path, monkeypatch):
    monkeypatch.setattr(output, "ROWS_FILE", dataclasses.replace(output.ROWS_FILE, cap=1024))
    out = tmp_path / "rows.csv"
    content = b"index," + b"x" * 2000
    out.write_bytes(content)
    refused([*RESUME, str(out)],
            f"--out file {out} is over 1 KiB: a sweep's rows are smaller: choose another --out")
    assert out.read_bytes() == content


def test_a_nul_in_the_path_is_named():
    """Before: a bare ValueError from os.stat."""
    with pytest.raises(BattleError, match=r"^wave plan 'a\\x00b.toml': a file name has no NUL character$"):
        PLAN.read("a\0b.toml")


def test_sizes_are_written_in_their_unit():
    assert (size_text(1 << 20), size_text(256 << 20), size_text(2048), size_text(100)) == \
        ("1 MiB", "256 MiB", "2 KiB", "100 bytes")
