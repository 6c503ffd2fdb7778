"""Generated bad input, as a hostile user would type it: the command line exits 2 with one line
("oddsim: error: ...") and no traceback; the Python API raises a specific OddsimError subclass
with a one-line message. Inputs that happen to be valid may succeed (issue 11)."""

import math

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import oddsim
from oddsim.api import run_battle
from oddsim.cli import cli
from oddsim.limits import MAX_RUNS, MAX_SEED
from oddsim.model.forces import MAX_UNITS_PER_SIDE
from oddsim.model.options import battle_of
from oddsim.model.rules import load_ruleset
from oddsim.purchase import SweepSpec
from oddsim.raid import Raid
from oddsim.trench import TrenchBattle

FUZZ = settings(max_examples=60, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

UNITS = st.sampled_from(["inf", "art", "arm", "ftr", "bmb", "infantry", "tank", "xyz", "damaged bb",
                         "dmg inf", "aa", "sub", "transport", "", "-", "none"])
BAD_COUNTS = st.one_of(
    st.integers(max_value=-1).map(str),
    st.integers(min_value=MAX_UNITS_PER_SIDE + 1, max_value=10**500).map(str),
    st.floats(allow_nan=True, allow_infinity=True).filter(
        lambda x: not math.isfinite(x) or x != int(x)).map(repr),
    st.sampled_from(["1e400", "1e309", "-1e400", "2.5", "1e2", "nan", "inf", "-inf", "0x10",
                     "1_0", "--3", "3..0", ".5"]),
)
BAD_ARMY = st.tuples(BAD_COUNTS, UNITS, st.sampled_from(["", ", 1 inf", "2 arm, "])).map(
    lambda parts: f"{parts[2]}{parts[0]} {parts[1] or 'inf'}")
ANY_TEXT = st.text(max_size=40)
BAD_RUNS = st.one_of(st.integers(max_value=0), st.integers(min_value=MAX_RUNS + 1, max_value=10**30))
BAD_SEEDS = st.one_of(st.integers(max_value=-1), st.integers(min_value=MAX_SEED + 1, max_value=10**40))


def invoke(args):
    return CliRunner().invoke(cli, args)


def assert_clean(result, allow_success=False):
    """Exit 2 and one error line (or, where allowed, success); never an uncaught exception."""
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"uncaught {type(result.exception).__name__}: {result.exception}")
    assert "Traceback" not in result.output
    if allow_success and result.exit_code == 0:
        return
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("oddsim: error: "), result.stderr


COMMANDS_WITH_A_BAD_ARMY = [
    lambda army: ["battle", "-a", army, "-d", "1 inf"],
    lambda army: ["battle", "-a", "1 inf", "-d", army],
    lambda army: ["battle", "-a", "1 inf", "-d", "1 inf", "--wave", army],
    lambda army: ["battle", "-a", "1 inf", "-d", "1 inf", "--landed", army],
    lambda army: ["amphibious", "--fleet", "1 transport", "--cargo", army, "-d", "1 inf"],
    lambda army: ["amphibious", "--fleet", "1 transport", "--cargo", "1 inf", "-d", "1 inf",
                  "--overland", army],
    lambda army: ["purchase", "--budget", "6", "--units", "inf", "--against", army],
    lambda army: ["purchase", "--budget", "6", "--units", "inf", "--against", "1 inf",
                  "--existing", army],
    lambda army: ["chart", "curve", "-a", army, "-d", "1 inf", "--vary", "inf=0..1", "--out",
                  "never.png"],
]


@FUZZ
@given(command=st.sampled_from(COMMANDS_WITH_A_BAD_ARMY), army=BAD_ARMY)
def test_cli_bad_counts_are_one_line(command, army):
    assert_clean(invoke(command(army)))


@FUZZ
@given(text=ANY_TEXT)
def test_cli_any_army_text_is_a_battle_or_one_line(text):
    assume(not text.startswith("-"))  # click would read it as an option
    assert_clean(invoke(["battle", "-a", text, "-d", "1 inf", "--method", "mc", "--runs", "20",
                         "--seed", "1", "--quiet"]), allow_success=True)


@FUZZ
@given(runs=BAD_RUNS, seed=BAD_SEEDS, which=st.sampled_from(["runs", "seed"]),
       command=st.sampled_from([
           ["battle", "-a", "2 inf", "-d", "1 inf"],
           ["battle", "-a", "2 inf", "-d", "1 inf", "--method", "mc"],
           ["battle", "-a", "2 inf", "-d", "1 inf", "--wave", "1 arm"],
           ["amphibious", "--fleet", "1 transport", "--cargo", "1 inf", "-d", "1 inf"],
           ["raid", "--bombers", "1", "--territory-value", "3", "--method", "mc"],
           ["trench", "--attacker", "5,4,3", "--defender", "4,4,4", "--year", "1917", "--method",
            "mc"],
           ["purchase", "--budget", "6", "--units", "inf", "--against", "1 inf"],
           ["chart", "curve", "-a", "1 arm", "-d", "1 inf", "--vary", "inf=0..1", "--out", "n.png"],
       ]))
def test_cli_runs_and_seeds_out_of_range_are_one_line(runs, seed, which, command):
    value = runs if which == "runs" else seed
    assert_clean(invoke([*command, f"--{which}", str(value)]))


@FUZZ
@given(fronts=ANY_TEXT, supports=st.one_of(st.none(), ANY_TEXT), year=ANY_TEXT)
def test_cli_trench_text_is_a_battle_or_one_line(fronts, supports, year):
    assume(not any(v.startswith("-") for v in (fronts, supports or "", year) if v))
    args = ["trench", "--attacker", fronts, "--defender", "4,4,4", "--year", year]
    assert_clean(invoke(args + (["--attacker-support", supports] if supports is not None else [])),
                 allow_success=True)


@FUZZ
@given(caps=ANY_TEXT, units=ANY_TEXT, budget=st.integers(-10**20, 40).map(str) | ANY_TEXT)
def test_cli_purchase_options_are_a_sweep_or_one_line(caps, units, budget, tmp_path_factory):
    assume(not any(v.startswith("-") for v in (caps, units, budget) if v))
    args = ["purchase", "--budget", budget, "--units", units, "--against", "1 inf", "--max", caps,
            "--quiet", "--method", "mc", "--runs", "10"]
    assert_clean(invoke(args), allow_success=True)


ANYTHING = st.one_of(
    st.none(), st.booleans(), st.integers(-10**30, 10**30), st.floats(), st.text(max_size=12),
    st.binary(max_size=6), st.lists(st.one_of(st.integers(), st.text(max_size=5)), max_size=3),
    st.dictionaries(st.one_of(st.text(max_size=6), st.integers()),
                    st.one_of(st.integers(-10**20, 10**20), st.floats(), st.text(max_size=4),
                              st.none()), max_size=3),
    st.builds(oddsim.Force,
              counts=st.lists(st.tuples(st.sampled_from(["inf", "infantry", "arm", "bb", "xyz"]),
                                        st.one_of(st.integers(-5, 2000), st.floats())),
                              max_size=3).map(tuple),
              damaged=st.lists(st.tuples(st.sampled_from(["bb", "inf"]), st.integers(-2, 5)),
                               max_size=2).map(tuple)),
)


def assert_oddsim_error(call):
    """``call()`` succeeds or raises a specific OddsimError with a one-line message."""
    try:
        return call()
    except oddsim.OddsimError as exc:
        assert type(exc) is not oddsim.OddsimError
        assert str(exc) and "\n" not in str(exc)
        return None


@FUZZ
@given(attacker=ANYTHING, defender=ANYTHING, field=st.sampled_from(
    ["ool_attacker", "attacker_tech", "keep_land", "sea", "dice", "retreat", "landed", "bombard",
     "attacker_submerge", "rules"]), value=ANYTHING)
def test_api_battle_is_built_or_an_oddsim_error(attacker, defender, field, value):
    assert_oddsim_error(lambda: battle_of({"rules": "1942-2e", "attacker": attacker,
                                           "defender": defender, field: value}))


@FUZZ
@given(field=st.sampled_from(["fleet", "cargo", "defender", "sea_defender", "overland", "air",
                              "sea_air", "bombard", "retreat", "dice", "attacker_tech"]),
       value=ANYTHING)
def test_api_amphibious_is_built_or_an_oddsim_error(field, value):
    spec = {"rules": "1942-2e", "fleet": "1 transport", "cargo": "1 inf", "defender": "1 inf",
            field: value}
    assert_oddsim_error(lambda: oddsim.Amphibious(**spec))


BATTLE = oddsim.Battle(rules="1942-2e", attacker="2 inf", defender="1 inf")


@FUZZ
@given(method=st.one_of(st.sampled_from(["auto", "exact", "mc"]), ANYTHING),
       runs=st.one_of(st.integers(max_value=2_000), ANYTHING.filter(
           lambda v: not isinstance(v, int) or isinstance(v, bool) or v > MAX_RUNS)),
       seed=ANYTHING)
def test_api_run_battle_is_a_result_or_an_oddsim_error(method, runs, seed):
    assume(not (method == "mc" and runs is None))  # a million runs: valid, and slow for a fuzz
    assert_oddsim_error(lambda: run_battle(BATTLE, method=method, runs=runs, seed=seed))


@FUZZ
@given(attacker=ANYTHING, support=ANYTHING, year=ANYTHING, sea=ANYTHING, points=ANYTHING)
def test_api_trench_battle_is_built_or_an_oddsim_error(attacker, support, year, sea, points):
    assert_oddsim_error(lambda: TrenchBattle(attacker=attacker, defender="4,4,4", year=year,
                                             attacker_support=support, sea=sea, points=points))


@FUZZ
@given(budget=ANYTHING, units=ANYTHING, caps=ANYTHING, runs=ANYTHING, seed=ANYTHING)
def test_api_sweep_spec_is_built_or_an_oddsim_error(budget, units, caps, runs, seed):
    rules = load_ruleset("1942-2e")
    assert_oddsim_error(lambda: SweepSpec.build(rules, budget, units, "1 inf", max_counts=caps,
                                                runs=runs, seed=seed))


@FUZZ
@given(bombers=ANYTHING, value=ANYTHING, tech=ANYTHING)
def test_api_raid_is_built_or_an_oddsim_error(bombers, value, tech):
    assert_oddsim_error(lambda: Raid(rules="1942-2e", bombers=bombers, territory_value=value,
                                     attacker_tech=tech))


@pytest.fixture(autouse=True)
def _in_a_scratch_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a chart that is wrongly drawn lands here, not in the repo
