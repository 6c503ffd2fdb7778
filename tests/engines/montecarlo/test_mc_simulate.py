"""The Monte Carlo wrapper: reproducibility, standard errors, chunking, interruption, validation.

Expected values come from hand-derived fractions (``tests/oracle.py`` or arithmetic here) or
the exact engine, never from what the simulation printed.
"""

import importlib
import io
import math
import signal

import numba
import numpy as np
import pytest
from oracle import duel

import oddsim
from oddsim._runtime.progress import ProgressBar
from oddsim.engines.montecarlo import _model, simulate
from oddsim.engines.montecarlo._layout import STATS
from oddsim.errors import BattleError
from oddsim.model.rules import with_changes

sim = importlib.import_module("oddsim.engines.montecarlo.simulate")  # the module, not the function
Z = 4.5

LAND = oddsim.Battle("anniversary", "10 inf, 5 arm, 2 ftr", "12 inf, 3 arm, 1 ftr")
SEA = oddsim.Battle("anniversary", "2 sub, 1 dd, 2 ftr", "1 bb, 1 dd, 2 sub", sea=True)


KINDS = [
    LAND, SEA,
    oddsim.Battle("1942-2e",
                  attacker=oddsim.Side("3 inf, 1 art, 2 arm", landed="2 inf", bombard="1 bb, 1 cru"),
                  defender="4 inf, 1 arm", retreat={"after_round": 2}),
    oddsim.Battle("anniversary", attacker=oddsim.Side("2 sub, 1 dd, 1 ftr", submerge="alone"),
                  defender=oddsim.Side("2 sub, 1 cru, 1 trn", submerge="always"), sea=True,
                  retreat={"units_left": 1}),
]
"""Battles of each kind the kernel branches on: land, sea, landed units with bombardment and a
retreat, submerging subs."""
KIND_NAMES = ["land", "sea", "landed and bombardment", "submerging subs"]


@pytest.fixture
def threads():
    """Set Numba's thread count for a test, and restore it after."""
    before = numba.get_num_threads()
    yield numba.set_num_threads
    numba.set_num_threads(before)


@pytest.mark.parametrize("battle", KINDS, ids=KIND_NAMES)
def test_same_seed_same_result_on_one_and_two_threads(battle, threads):
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("needs two threads")
    threads(1)
    one = simulate(battle, runs=60_000, seed=7)
    threads(2)
    two = simulate(battle, runs=60_000, seed=7)
    assert one == two


def test_chunk_sizes_do_not_change_the_result(monkeypatch):
    whole = simulate(LAND, runs=50_000, seed=11)
    monkeypatch.setattr(sim, "FIRST_CHUNK", 1000)
    monkeypatch.setattr(sim, "LARGEST_CHUNK", 3000)
    assert simulate(LAND, runs=50_000, seed=11) == whole


def test_different_seeds_give_different_samples():
    a = simulate(LAND, runs=20_000, seed=1)
    b = simulate(LAND, runs=20_000, seed=2)
    assert (a.attacker_win, a.attacker_survivors) != (b.attacker_win, b.attacker_survivors)
    assert simulate(LAND, runs=20_000, seed=1) == a


def test_no_seed_draws_a_random_one():
    a = simulate(LAND, runs=20_000)
    b = simulate(LAND, runs=20_000)
    assert a.attacker_survivors != b.attacker_survivors


def test_matches_hand_derived_duels():
    n = 200_000
    # 1942-2e: a tank attacks at 3, an infantry defends at 2
    r = simulate(oddsim.Battle("1942-2e", "1 arm", "1 inf"), runs=n, seed=3)
    for got, p in zip((r.attacker_win, r.defender_win, r.draw), duel(3, 2), strict=True):
        assert abs(got - float(p)) <= Z * math.sqrt(float(p * (1 - p)) / n)
    # europe-1999: an attacking sub strikes first against a transport that defends at 1
    chart = with_changes("europe-1999", {"units.transport.defense": 1})  # its unit chart's reading
    r = simulate(oddsim.Battle(chart, "1 sub", "1 trn", sea=True), runs=n, seed=4)
    for got, p in zip((r.attacker_win, r.defender_win, r.draw), duel(2, 1, first="attacker"),
                      strict=True):
        assert abs(got - float(p)) <= Z * math.sqrt(float(p * (1 - p)) / n)


def test_standard_errors_match_the_exact_variances():
    # 1942-2e: one fighter against a lone AA gun. AA hits with 1/6: the fighter (10 IPCs) dies;
    # otherwise the lone AA gun (5 IPCs) is destroyed. No combat round is fought.
    n = 100_000
    r = simulate(oddsim.Battle("1942-2e", "1 ftr", "1 aa"), runs=n, seed=5)
    q = 1 / 6
    assert set(r.std_error) == {"attacker_win", "defender_win", "draw", "stalemate",
                                "takes_territory", "attacker_ipc_lost", "defender_ipc_lost",
                                "expected_rounds", "tuv_swing"}
    assert r.std_error["attacker_win"] == pytest.approx(math.sqrt(q * (1 - q) / n), rel=0.05)
    assert r.std_error["attacker_ipc_lost"] == pytest.approx(
        math.sqrt(100 * q * (1 - q) / n), rel=0.05)
    assert r.std_error["defender_ipc_lost"] == pytest.approx(
        math.sqrt(25 * q * (1 - q) / n), rel=0.05)
    assert r.std_error["expected_rounds"] == 0 and r.expected_rounds == 0
    assert r.std_error["draw"] == 0 and r.std_error["stalemate"] == 0
    assert r.std_error["takes_territory"] == 0 and r.takes_territory == 0


def test_standard_error_of_ipc_lost_matches_the_exact_survivor_distribution():
    n = 100_000
    r = simulate(LAND, runs=n, seed=6)
    exact = oddsim.solve(LAND)
    total = int(exact.attacker_ipc_lost + sum(s.probability * s.ipc
                                              for s in exact.attacker_survivors) + 0.5)
    mean = sum(s.probability * (total - s.ipc) for s in exact.attacker_survivors)
    variance = sum(s.probability * (total - s.ipc - mean) ** 2 for s in exact.attacker_survivors)
    assert r.std_error["attacker_ipc_lost"] == pytest.approx(math.sqrt(variance / n), rel=0.05)


def test_undefended_territory_is_taken_without_a_round():
    r = simulate(oddsim.Battle("revised", "1 inf, 1 ftr", "none"), runs=1000, seed=8)
    assert (r.attacker_win, r.takes_territory, r.expected_rounds) == (1.0, 1.0, 0.0)
    assert r.attacker_ipc_lost == 0 and r.defender_ipc_lost == 0
    assert all(value == 0 for value in r.std_error.values())
    assert [(s.units, s.probability) for s in r.attacker_survivors] == [
        ("1 infantry, 1 fighter", 1.0)]
    assert [(s.units, s.probability) for s in r.defender_survivors] == [("none", 1.0)]


def test_sea_battle_has_no_territory():
    r = simulate(SEA, runs=1000, seed=9)
    assert r.takes_territory is None and r.std_error["takes_territory"] == 0


def test_damaged_two_hit_units_are_shown_damaged():
    r = simulate(oddsim.Battle("anniversary", "1 bb", "1 dd", sea=True), runs=20_000, seed=10)
    units = {s.units for s in r.attacker_survivors}
    assert units == {"1 battleship", "1 damaged battleship", "none"}
    hurt = next(s for s in r.attacker_survivors if s.units == "1 damaged battleship")
    assert hurt.count == 1 and hurt.ipc == 20


def test_battles_with_too_many_end_states_keep_them_one_by_one(monkeypatch):
    # past MAX_EXACT_KEYS each side keeps the end states its pilot saw, one by one, and counts
    # the rest as "other": every row kept has its units, and matches the exact engine
    monkeypatch.setattr(_model, "MAX_EXACT_KEYS", 1)
    n = 100_000
    r = simulate(LAND, runs=n, seed=12)
    exact = {s.units: s.probability for s in oddsim.solve(LAND).attacker_survivors}
    assert sum(s.probability for s in r.attacker_survivors) == pytest.approx(1.0)
    kept = [s for s in r.attacker_survivors if not s.other]
    assert sum(s.probability for s in kept) > 0.999  # the pilot saw all but the rarest
    for s in kept:
        p = exact[s.units]
        assert abs(s.probability - p) <= Z * math.sqrt(p * (1 - p) / n) + 1e-12, s.units
    assert r.swing_distribution.total == pytest.approx(1.0, abs=1e-12)  # (tallied apart from the keys)
    # the same seed gives the same rows on any number of threads
    numba.set_num_threads(1)
    try:
        assert simulate(LAND, runs=n, seed=12).attacker_survivors == r.attacker_survivors
    finally:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)


DAMAGED = oddsim.Battle("anniversary", "1 damaged bb, 2 dd", "1 bb, 1 sub", sea=True)


@pytest.mark.parametrize("battle", [*KINDS, DAMAGED], ids=[*KIND_NAMES, "damaged battleship"])
def test_every_run_lands_in_the_swing_histogram_within_its_bounds(battle):
    # the kernel counts each run's swing at (attacker's total IPC + swing): every run counted
    # once, every swing between -(attacker's total) and the defender's total, the mean the
    # swing of the two sides' summed losses (integers: exact to the last bit but for rounding)
    n = 20_000
    r = simulate(battle, runs=n, seed=13)
    d = r.swing_distribution
    assert sum(round(p * n) for p in d.probabilities) == n
    assert -r.attacker_ipc_total <= d.swings[0] and d.swings[-1] <= r.defender_ipc_total
    assert d.mean == pytest.approx(r.tuv_swing, abs=1e-9)


def test_the_other_row_gathers_end_states_the_pilot_missed(monkeypatch):
    monkeypatch.setattr(_model, "MAX_EXACT_KEYS", 1)
    monkeypatch.setattr(sim, "PILOT_RUNS", 1)  # one end state kept per side
    r = simulate(LAND, runs=20_000, seed=3)
    other = [s for s in r.attacker_survivors if s.other]
    assert len(r.attacker_survivors) == 2 and len(other) == 1
    assert other[0].other == round(other[0].probability * 20_000)
    assert other[0].units == "other end states"
    with pytest.raises(oddsim.TooLargeError):
        other[0].force(LAND.rules)


def _fake_kernel(calls, raise_on=None, real=None):
    """A stand-in for the kernel: records (first battle, battles) and counts every battle as an
    attacker win, or runs the real kernel; raises KeyboardInterrupt on call ``raise_on``."""
    def fake(seed, first, n_battles, stats, hist_a, hist_d, ipc_a, ipc_d, hist_s, model):
        calls.append((first, n_battles))
        if len(calls) == raise_on:
            raise KeyboardInterrupt
        if real is not None:
            return real(seed, first, n_battles, stats, hist_a, hist_d, ipc_a, ipc_d, hist_s, model)
        stats[0, STATS.battles] += n_battles
        stats[0, STATS.attacker_wins] += n_battles
        hist_a[0, 0] += n_battles
        hist_d[0, 0] += n_battles
        hist_s[0, 0] += n_battles
    return fake


def test_a_billion_runs_are_fought_in_bounded_chunks(monkeypatch):
    calls = []
    monkeypatch.setattr(sim, "_fight_chunk", _fake_kernel(calls))
    r = simulate(LAND, runs=10**9, seed=1)
    assert r.runs == 10**9 and r.attacker_win == 1.0
    assert max(n for _, n in calls) == sim.LARGEST_CHUNK
    assert [first for first, _ in calls] == list(np.cumsum([0] + [n for _, n in calls[:-1]]))
    assert sum(n for _, n in calls) == 10**9


def test_chunk_plan_covers_every_run_once():
    chunks = list(sim.iter_chunks(10**9, 2**14, 2**20))
    assert chunks[0] == (0, 2**14) and chunks[1] == (2**14, 2**15)
    assert all(n <= 2**20 for _, n in chunks)
    assert all(a + n == b for (a, n), (b, _) in zip(chunks, chunks[1:], strict=False))
    assert chunks[-1][0] + chunks[-1][1] == 10**9
    assert list(sim.iter_chunks(5, 2**14, 2**20)) == [(0, 5)]


def test_ctrl_c_returns_the_chunks_finished_so_far(monkeypatch):
    calls = []
    monkeypatch.setattr(sim, "_fight_chunk",
                        _fake_kernel(calls, raise_on=2, real=sim._fight_chunk))
    r = simulate(LAND, runs=10**6, seed=1)
    assert r.interrupted and r.runs == sim.FIRST_CHUNK == calls[0][1]
    assert sum(s.probability for s in r.attacker_survivors) == pytest.approx(1.0)
    assert r.attacker_win + r.defender_win + r.draw + r.stalemate == pytest.approx(1.0)


def test_ctrl_c_before_any_chunk_finished_is_raised(monkeypatch):
    monkeypatch.setattr(sim, "_fight_chunk", _fake_kernel([], raise_on=1))
    with pytest.raises(KeyboardInterrupt):
        simulate(LAND, runs=10**6, seed=1)


def test_sigint_during_a_chunk_stops_after_it(monkeypatch):
    real = sim._fight_chunk
    calls = []

    def interrupted(*args):
        real(*args)
        calls.append(args[2])
        if len(calls) == 2:
            signal.raise_signal(signal.SIGINT)

    monkeypatch.setattr(sim, "_fight_chunk", interrupted)
    before = signal.getsignal(signal.SIGINT)
    r = simulate(LAND, runs=10**6, seed=1)
    assert r.interrupted and r.runs == sum(calls) == 3 * sim.FIRST_CHUNK
    assert signal.getsignal(signal.SIGINT) is before


@pytest.mark.parametrize("runs", [0, -5, 1.5, True, "10", 10**10 + 1, None])
def test_bad_runs_are_rejected(runs):
    with pytest.raises(BattleError, match="runs") as error:
        simulate(LAND, runs=runs)
    assert "\n" not in str(error.value)


@pytest.mark.parametrize("seed", [-1, 2**64, 1.0, True, "7"])
def test_bad_seeds_are_rejected(seed):
    with pytest.raises(BattleError, match="seed") as error:
        simulate(LAND, runs=10, seed=seed)
    assert "\n" not in str(error.value)


def test_large_valid_seed_and_numpy_integers_are_accepted():
    a = simulate(LAND, runs=np.int64(1000), seed=np.uint64(2**64 - 1))
    b = simulate(LAND, runs=1000, seed=2**64 - 1)
    assert a == b


def test_not_a_battle_is_rejected():
    with pytest.raises(BattleError, match="Battle"):
        simulate("3 inf vs 2 inf", runs=10)


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_bar_is_drawn_only_for_long_runs_on_a_terminal():
    now = [0.0]
    quick = ProgressBar(100, min_seconds=2.0, stream=_Terminal(), clock=lambda: now[0])
    now[0] = 0.5
    quick.update(50)  # on course for 1 s: no bar
    quick.close()
    assert quick.stream.getvalue() == ""
    stream = _Terminal()
    now[0] = 0.0
    slow = ProgressBar(100, min_seconds=2.0, stream=stream, clock=lambda: now[0])
    now[0] = 2.0
    slow.update(25)  # on course for 8 s
    slow.close()
    text = stream.getvalue()
    assert text.startswith("\r[") and "25.0%" in text and "25/100 runs" in text
    assert "6s left" in text and text.endswith("\n")
    piped = ProgressBar(100, min_seconds=2.0, stream=io.StringIO(), clock=lambda: now[0])
    now[0] = 100.0
    piped.update(1)
    assert piped.stream.getvalue() == ""


def test_progress_on_a_pipe_writes_nothing(capsys):
    simulate(LAND, runs=20_000, seed=1, progress=True)
    assert capsys.readouterr().err == ""


def test_rounds_before_a_retreat_have_a_standard_error():
    """2 inf attack 1 inf (1942-2e), retreating at 1 unit or fewer. Each round the attacker misses
    both dice (25/36) and the defender hits (1/3): a retreat; both miss (25/36 x 2/3 = 25/54): one
    more round. So the rounds before a retreat are geometric with s = 25/54: mean 1/(1-s) = 54/29,
    variance s/(1-s)^2 = 1350/841. Before: no standard error for ``retreat_round`` at all, then
    a bound from the squared rounds of all battles."""
    battle = oddsim.Battle("1942-2e", "2 inf", "1 inf", retreat=oddsim.RetreatPolicy(units_left=1))
    runs = 200_000
    r = simulate(battle, runs=runs, seed=11)
    se = r.std_error["retreat_round"]
    true_se = math.sqrt(1350 / 841 / (r.retreat * runs))
    assert se == pytest.approx(true_se, rel=0.05)  # the retreats' own squared rounds
    assert abs(r.retreat_round - 54 / 29) <= Z * se
    rounds = next(line for line in str(r).splitlines() if "a retreat comes after" in line)
    assert "at most" not in rounds
    assert oddsim.solve(battle).retreat_round == pytest.approx(54 / 29)
