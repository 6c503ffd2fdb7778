"""Best casualties' advice through the web API (issue 33): the grid, a battle in progress."""


def test_a_battle_in_progress_gets_the_advice_for_its_state(client):
    """1 inf, 1 ftr against 1 inf in progress: one hit costs the fighter (1/4 against 0, by hand)."""
    body = {"attacker": "1 inf, 1 ftr", "defender": "1 inf", "ool_attacker": "best", "in_progress": True}
    policy = client.post("/api/battle", json=body).json()["casualty_policy"]
    assert policy["in_progress"] is True
    rows = [(r["hits"], r["lose"]) for r in policy["attacker"]]
    assert rows == [(1, "1 fighter")]  # (one die: one hit at most)
    (start,) = policy["grid"]
    assert [s["defender_left"] for s in start["scored"]] == ["1 infantry", "none"]
