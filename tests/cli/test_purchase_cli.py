"""``oddsim purchase``: a ranked table with the frontier marked, and one clear line with exit
status 2 for every kind of bad input."""

import sys

import click
import pytest
from click.testing import CliRunner

from oddsim.cli import cli
from oddsim.cli.purchase import purchase
from oddsim.purchase import PROCESS_CACHE


def main(args):
    """``oddsim purchase ARGS`` through the group's errors and exit statuses (raises SystemExit)."""
    cli.main(args=["purchase", *args], prog_name="oddsim")


def run_main(capsys, *args):
    """Run through oddsim's own error handling, as ``oddsim purchase ...`` does."""
    with pytest.raises(SystemExit) as done:
        main(list(args))
    captured = capsys.readouterr()
    return done.value.code, captured.out, captured.err


def test_ranks_purchases_and_marks_the_frontier():
    group = click.Group()
    group.add_command(purchase)
    result = CliRunner().invoke(group, ["purchase", "--budget", "6", "--units", "inf,arm",
                                        "--against", "1 inf", "--quiet"])
    assert result.exit_code == 0, result.output
    lines = [" ".join(line.split()) for line in result.output.splitlines()]
    # 2 inf take 157/232 = 67.67%, 1 arm 1/2, 1 inf 1/4 (worked out in test_purchase_sweep)
    # and buying nothing attacks with nothing: no battle, takes 0, first on the frontier
    ranking = lines[lines.index("rank take cost left method purchase") + 1:][:4]
    assert ranking == ["1 67.67% * 6 0 exact 2 infantry", "2 50.00% 6 0 exact 1 armor",
                       "3 25.00% * 3 3 exact 1 infantry", "4 0.00% * 0 6 exact nothing"]
    assert "4 purchases: 4 exact, 0 Monte Carlo" in result.output
    assert lines[-3:] == ["0 IPCs 0.00% nothing", "3 IPCs 25.00% 1 infantry", "6 IPCs 67.67% 2 infantry"]


BAD_INPUT = [
    (["--budget", "-5", "--units", "inf", "--against", "1 inf"], "budget -5 is negative"),
    (["--budget", "10", "--units", "inf,xyz", "--against", "1 inf"], "unknown unit 'xyz'"),
    (["--budget", "10", "--units", "mech", "--against", "1 inf"], "1942-2e cannot buy 'mech'"),
    (["--budget", "10", "--units", "aa", "--against", "1 inf"], "AA gun cannot attack"),
    (["--budget", "10", "--units", "dd", "--against", "1 sub", "--sea"],
     "goal 'take' makes no sense for a sea battle"),
    # before: accepted, and the territory value silently left out at sea
    (["--budget", "10", "--units", "dd", "--against", "1 sub", "--sea", "--goal", "value",
      "--territory-value", "3"], "goal 'value' makes no sense for a sea battle"),
    (["--budget", "10", "--units", "inf,dd", "--against", "1 sub", "--sea", "--goal", "clear"],
     "infantry cannot fight in a sea battle"),
    (["--budget", "10000", "--units", "inf,art,arm,ftr,bmb", "--against", "1 inf"],
     "more than 100,000 purchases"),
    (["--budget", "10", "--units", "inf", "--max", "arm=2", "--against", "1 inf"],
     "'arm' is not one of the units bought"),
    (["--budget", "10", "--units", "inf", "--max", "inf=-1", "--against", "1 inf"],
     "cap of infantry must be a whole number, 0 or more"),
    (["--budget", "2", "--units", "inf,arm", "--against", "1 inf"], "budget 2 buys no infantry or armor"),
    (["--budget", "10", "--units", "inf", "--against", "1 bb"], "against: battleship cannot fight"),
    (["--budget", "10", "--units", "inf", "--against", "none", "--goal", "hold"],
     "the attacking army is empty"),
    (["--budget", "10", "--units", "inf", "--against", "1 inf", "--goal", "win"],
     "Invalid value for '--goal'"),
    (["--budget", "10", "--units", "inf", "--against", "1 inf", "--resume"], "--resume needs --out"),
    (["--budget", "10", "--units", "inf", "--against", "1 inf", "--out", "x.txt"],
     "use a .csv or .json file"),
    (["--budget", "10", "--units", "inf", "--against", "1 inf", "--method", "exact", "--runs", "9"],
     "--runs applies to Monte Carlo"),
    (["--budget", "10", "--units", "inf", "--against", "1 inf", "--workers", "0"],
     "--workers must be a whole number from 1 to"),
]


@pytest.mark.parametrize("args, message", BAD_INPUT)
def test_bad_input_exits_2_with_one_line(capsys, args, message):
    code, out, err = run_main(capsys, *args, "--quiet")
    assert code == 2
    assert out == ""
    assert len(err.splitlines()) == 1 and err.startswith("oddsim: error: ")
    assert message in err


def test_dask_flags_without_dask_give_the_install_hint(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    for flag, value in (("--workers", "2"), ("--scheduler", "tcp://127.0.0.1:8786")):
        code, _, err = run_main(capsys, "--budget", "6", "--units", "inf", "--against", "1 inf",
                                flag, value)
        assert code == 2
        assert err.strip() == ("oddsim: error: --workers and --scheduler need Dask, which is not "
                               "installed: pip install 'oddsim[dask]'")


def test_out_file_and_resume_summary(tmp_path, capsys):
    PROCESS_CACHE.clear()
    out = tmp_path / "r.json"
    args = ["--budget", "6", "--units", "inf,arm", "--against", "1 inf", "--quiet", "--out", str(out)]
    code, first, _ = run_main(capsys, *args)
    assert code == 0 and f"rows written to {out}" in first
    code, again, _ = run_main(capsys, *args, "--resume")
    assert code == 0 and f"0 solved, 0 from the cache, 4 resumed from {out}" in again
