"""``oddsim plan``: the JSON answer (hand-derived figures), the defence, the chart, and one clear
line with exit status 2 for each kind of bad input."""

import json

import pytest
from click.testing import CliRunner

from oddsim.cli import cli
from tests.cli_lines import refused

# 1 inf against 1 inf takes 1/4 (tests/engines/exact/test_lattice.py); 2 inf against 1 inf take
# it 157/232 (tests/cli/test_purchase_cli.py)
ONE_ON_ONE, TWO_ON_ONE = 1 / 4, 157 / 232


def _plan(*args):
    result = CliRunner().invoke(cli, ["plan", *args])
    assert result.exit_code == 0, result.output
    return result


def test_json_has_the_goal_the_objective_the_split_and_the_runners_up():
    data = json.loads(_plan("--pool", "2 inf", "--target", "A=1 inf", "--target", "B=1 inf",
                            "--goal", "take-at-least:1", "--json").stdout)
    assert data["goal"] == "take-at-least:1"
    # both on one target beats one on each (1 - (3/4)^2 = 7/16)
    assert data["objective"] == pytest.approx(TWO_ON_ONE, abs=1e-12)
    sent = sorted(t["counts"].get("infantry", 0) for t in data["split"].values())
    assert sent == [0, 2]
    taken = max(data["split"].values(), key=lambda t: t["takes_territory"])
    assert set(taken) >= {"counts", "attacker_win", "defender_win", "draw", "takes_territory",
                          "attacker_ipc_lost", "defender_ipc_lost", "tuv_swing", "expected_rounds"}
    assert taken["takes_territory"] == pytest.approx(TWO_ON_ONE, abs=1e-12)
    objectives = [a["objective"] for a in data["alternatives"]]
    # the same on the other target, then one on each
    assert objectives[:2] == pytest.approx([TWO_ON_ONE, 7 / 16], abs=1e-12)
    assert set(data["marginal"]) == {"infantry"}


def test_take_all_splits_the_pool():
    data = json.loads(_plan("--pool", "2 inf", "--target", "A=1 inf", "--target", "B=1 inf",
                            "--goal", "take-all", "--json").stdout)
    assert data["objective"] == pytest.approx(ONE_ON_ONE ** 2, abs=1e-12)
    assert [t["counts"] for t in data["split"].values()] == [{"infantry": 1}, {"infantry": 1}]


def test_reach_keeps_a_unit_off_a_target():
    data = json.loads(_plan("--pool", "1 inf", "--target", "A=1 inf", "--target", "B=1 inf",
                            "--reach", "inf=B", "--goal", "take-at-least:1", "--json").stdout)
    assert data["split"]["A"]["counts"] == {} and data["split"]["B"]["counts"] == {"infantry": 1}


def test_defend_places_the_pool_where_it_holds():
    # the infantry holds where it stands with 1 - 1/4; the other territory falls for sure
    data = json.loads(_plan("--defend", "--pool", "1 inf", "--threat", "A=1 inf", "--threat", "B=1 inf",
                            "--goal", "hold-at-least:1", "--json").stdout)
    assert data["objective"] == pytest.approx(1 - ONE_ON_ONE, abs=1e-12)
    assert data["defend"] is True


def test_stands_count_with_the_units_placed():
    data = json.loads(_plan("--defend", "--pool", "1 inf", "--threat", "A=1 inf", "--threat", "B=1 inf",
                            "--stands", "B=1 inf", "--goal", "hold-all", "--json").stdout)
    # 1 inf placed on A, the one standing on B: both hold with 3/4
    assert data["objective"] == pytest.approx((1 - ONE_ON_ONE) ** 2, abs=1e-12)
    assert data["split"]["A"]["counts"] == {"infantry": 1}


def test_the_table_and_the_chart(tmp_path):
    path = tmp_path / "plan.png"
    result = _plan("--pool", "2 inf", "--target", "A=1 inf", "--target", "B=1 inf", "--plot", str(path))
    assert "best attack split" in result.stdout and "runners-up:" in result.stdout
    assert path.stat().st_size > 0


def test_unit_values_count_in_the_ipc_figures():
    battle = json.loads(CliRunner().invoke(cli, ["battle", "-a", "1 ftr", "-d", "1 inf", "--json",
                                                 "--unit-values", "ftr=14,inf=30"]).stdout)
    plain = json.loads(CliRunner().invoke(cli, ["battle", "-a", "1 ftr", "-d", "1 inf", "--json"]).stdout)
    assert battle["attacker_ipc_total"] == 14 and plain["attacker_ipc_total"] == 10
    assert battle["defender_ipc_total"] == 30 and plain["defender_ipc_total"] == 3
    # each side's units are lost as often; each loss counts the new value
    assert battle["attacker_ipc_lost"] == pytest.approx(plain["attacker_ipc_lost"] * 14 / 10, abs=1e-12)
    assert battle["defender_ipc_lost"] == pytest.approx(plain["defender_ipc_lost"] * 30 / 3, abs=1e-12)
    # with the infantry worth 30 the fighter attacks for the TUV swing; at cost it stays home
    valued = json.loads(_plan("--pool", "1 ftr", "--target", "A=1 inf", "--unit-values", "ftr=14,inf=30",
                              "--goal", "tuv", "--json").stdout)
    assert valued["split"]["A"]["counts"] == {"fighter": 1}
    assert valued["objective"] == pytest.approx(battle["tuv_swing"], abs=1e-12)
    at_cost = json.loads(_plan("--pool", "1 ftr", "--target", "A=1 inf", "--goal", "tuv", "--json").stdout)
    assert at_cost["objective"] == pytest.approx(max(0.0, plain["tuv_swing"]), abs=1e-12)


@pytest.mark.parametrize(("args", "line"), [
    (["--pool", "2 inf", "--target", "A=1 inf", "--value", "B=3"],
     "value: unknown target 'B' (targets: A): name one of them as --target/--threat writes it"),
    (["--pool", "2 inf", "--target", "A=1 inf", "--reach", "ftr=A"],
     "reach: the pool has no fighter: drop --reach ftr=... or add it to the pool"),
    (["--pool", "2 inf", "--target", "A=1 inf", "--reach", "inf=Z"],
     "reach: unknown target 'Z' (targets: A): name one of them as --target/--threat writes it"),
    (["--pool", "2 inf", "--target", "A=1 inf", "--goal", "take-at-least:2"],
     "goal take-at-least:2: K must be from 1 to the 1 targets named"),
    (["--pool", "2 inf", "--target", "A=1 inf", "--goal", "hold-all"],
     "unknown attack goal 'hold-all': use value | tuv | take-all | take-at-least:K | hold-after"),
    (["--pool", "2 inf", "--target", "A=1 inf", "--keep-home", "3 inf"],
     "keep home: 3 infantry but the pool has 2: keep at most what the pool has"),
    (["--pool", "2 inf", "--threat", "A=1 inf"],
     "--threat belongs to a defence: add --defend, or name attacks with --target"),
    (["--pool", "2 inf", "--target", "A"], "target 'A': write NAME=..., e.g. 'Ukraine=6 inf, 2 arm'"),
    (["--pool", "2 inf", "--target", "A=1 inf", "--unit-values", "ftr=lots"],
     "unit values: ftr=lots: a value is a whole number of IPCs from 0 to 10000"),
    (["--pool", "2 inf", "--target", "A=1 inf", "--territory-value", "3", "--retreat-best", "value"],
     "a plan gives each target its own value: use --value NAME=V, not --territory-value"),
])
def test_bad_input_is_one_line_and_status_2(args, line):
    refused(["plan", *args], line)


def test_bad_dask_options_are_refused_before_any_battle():
    from oddsim._runtime.dask_cluster import max_local_workers

    most = max_local_workers()
    refused(["plan", "--pool", "2 inf", "--target", "A=1 inf", "--workers", "0"],
            f"--workers must be a whole number from 1 to {most} (twice this machine's cores), not 0")
