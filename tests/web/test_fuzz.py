"""Fuzz the API: whatever the request, a JSON answer, never a 500 nor a traceback."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("starlette")

UNITS = ["inf", "art", "arm", "ftr", "bmb", "sub", "dd", "bb", "cruiser", "carrier", "transport",
         "aa", "zeppelin", "mech", "tac"]
FIELDS = {
    "battle": ["rules", "ruleset_toml", "unit_values", "rule", "attacker", "defender", "sea", "ool_attacker",
               "ool_defender",
               "keep_land", "attacker_tech", "defender_tech", "dice", "retreat", "attacker_submerge",
               "defender_submerge", "landed", "bombard", "method", "runs", "seed"],
    "amphibious": ["rules", "fleet", "cargo", "defender", "sea_defender", "overland", "air", "sea_air",
                   "bombard", "retreat", "dice", "method", "runs", "seed"],
    "raid": ["rules", "bombers", "tactical_bombers", "escorts", "interceptors", "territory_value",
             "facility", "attacker_tech", "defender_tech", "method", "runs", "seed"],
    "trench": ["attacker", "defender", "attacker_support", "defender_support", "year", "points", "sea",
               "information", "dice_fronts", "destroy_margin", "hidden_support_values",
               "tied_front", "support_fleet",
               "policy", "defender_policy", "roll_order", "method", "runs", "seed"],
    "rules": ["ruleset_toml", "rules", "unit_values", "rule"],
    "jobs/purchase": ["rules", "unit_values", "rule", "budget", "units", "against", "goal", "existing",
                      "max_counts", "sea",
                      "keep_land", "method", "runs", "seed", "top"],
    "jobs/plan": ["rules", "unit_values", "rule", "pool", "targets", "threats", "defend", "stands", "values",
                  "reach", "goal",
                  "counter_attack", "keep_home", "alternatives", "retreat", "sea", "ool_attacker", "dice"],
}

small_int = st.integers(min_value=-3, max_value=12)
army = st.lists(st.tuples(st.integers(min_value=-1, max_value=6), st.sampled_from(UNITS)), max_size=4).map(
    lambda parts: ", ".join(f"{n} {u}" for n, u in parts))
json_leaf = st.one_of(st.none(), st.booleans(), small_int, st.integers(), st.floats(allow_nan=True),
                      st.text(max_size=12), army, st.sampled_from(
                          ["1942-2e", "revised", "exact", "mc", "auto", "lowluck", "always", "alone",
                           "none", "5,4,3", "1917", "jets", "radar", "take", "hold", "../x.toml", "ftr=14",
                           "units.infantry.cost=2", "combat.repair=end_of_turn"]))
json_value = st.recursive(json_leaf, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=8), inner, max_size=3)), max_leaves=6)


@st.composite
def requests(draw):
    endpoint = draw(st.sampled_from(sorted(FIELDS)))
    names = draw(st.lists(st.sampled_from(FIELDS[endpoint] + ["bogus"]), max_size=7, unique=True))
    body = {name: draw(json_value) for name in names}
    if endpoint == "battle" and draw(st.booleans()):
        body.update(attacker=draw(army), defender=draw(army))
    raw = draw(st.one_of(st.just(None), st.binary(max_size=20), st.sampled_from([b"[]", b"1", b"null"])))
    return endpoint, body, raw


@pytest.fixture
def quick(monkeypatch):
    """Monte Carlo stops after a fraction of a second and exact work is capped low, so a fuzzed
    request stays quick (the caps' own behaviour is tested in test_api)."""
    from oddsim.web import battle_requests, work

    monkeypatch.setattr(work, "MC_SECONDS", 0.05)
    monkeypatch.setattr(battle_requests, "MAX_EXACT_SECONDS", 0.05)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(request=requests())
def test_no_request_gets_a_500(client, quick, request):
    endpoint, body, raw = request
    content = raw if raw is not None else json.dumps(body).encode()
    response = client.post(f"/api/{endpoint}", content=content, headers={
        "content-type": "application/json", "x-oddsim-client": "fuzz"})
    assert response.status_code < 500, response.text
    data = response.json()
    if response.status_code >= 400:
        assert set(data) == {"error"} and isinstance(data["error"], str)
        assert "\n" not in data["error"] and "Traceback" not in data["error"]
    if endpoint.startswith("jobs/") and response.status_code == 202:
        client.delete(f"/api/jobs/{data['id']}")
