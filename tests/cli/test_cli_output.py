"""Output that cannot be written: stdout on a full disk is one line and status 2 for every
command. Before: a 35-line traceback ending in ``OSError: [Errno 28] No space left on device``."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
FULL = "oddsim: error: cannot write the output: No space left on device\n"


def oddsim_into(stdout, *args, stderr=subprocess.PIPE):
    """Run the ``oddsim`` command (its real entry point) with ``stdout`` as its standard output."""
    code = "import sys; from oddsim._entry import main; sys.argv[0] = 'oddsim'; main()"
    return subprocess.run([sys.executable, "-c", code, *args], stdout=stdout, stderr=stderr,
                          text=True, timeout=300, cwd=ROOT, check=False)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("args", [
    ("battle", "-a", "1 inf", "-d", "1 inf"),
    ("battle", "-a", "1 inf", "-d", "1 inf", "--json"),
    ("rules", "list"),
    ("rules", "show", "1942-2e"),
    ("raid", "--bombers", "2", "--territory-value", "3"),
    ("trench", "--attacker", "5,4,3", "--defender", "4,4,4", "--year", "1917", "--json"),
    ("purchase", "--budget", "6", "--units", "inf", "--against", "1 inf", "--quiet"),
    ("--help",),
])
def test_a_full_disk_under_stdout_is_one_line_and_status_2(args):
    with open("/dev/full", "w") as full:
        done = oddsim_into(full, *args)
    assert done.returncode == 2
    lines = [line for line in done.stderr.splitlines(keepends=True) if "first run only" not in line]
    assert lines == [FULL]


def test_a_broken_pipe_is_still_left_to_click(tmp_path):
    """A reader that stops early (``| head``) is no error of ours: no line, no traceback."""
    read, write = os.pipe()
    os.close(read)
    with os.fdopen(write, "w") as pipe:
        done = oddsim_into(pipe, "rules", "list")
    assert "Traceback" not in done.stderr and "cannot write" not in done.stderr


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_bad_input_with_stderr_on_a_full_disk_still_exits_2():
    """The error line cannot be written either: the status still says bad input (before: 1, from
    the traceback of the failed error line)."""
    with open("/dev/full", "w") as full:
        done = oddsim_into(subprocess.PIPE, "battle", "-a", "1 knight", "-d", "1 inf", stderr=full)
    assert done.returncode == 2 and done.stdout == ""
