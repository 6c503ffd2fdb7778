"""Best casualties through the web API and the page's files (issue 33)."""


def test_the_api_answers_best_casualties_with_the_advice(client):
    body = {"attacker": "2 inf, 1 arm, 1 ftr", "defender": "2 inf, 1 arm", "ool_attacker": "best"}
    data = client.post("/api/battle", json=body).json()
    policy = data["casualty_policy"]
    assert round(100 * policy["value"], 1) == 76.3 and round(100 * policy["fixed_order_value"], 1) == 57.8
    assert policy["attacker_best"] and not policy["defender_best"]
    assert [row["hits"] for row in policy["attacker"]] == [1, 2, 3]
    assert abs(data["takes_territory"] - policy["value"]) < 1e-12


def test_submerging_subs_are_refused_in_one_line(client):
    body = {"attacker": "2 sub", "defender": "1 dd", "sea": True, "ool_attacker": "best",
            "attacker_submerge": "always"}
    answer = client.post("/api/battle", json=body)
    assert answer.status_code == 400 and "do not cover submerging subs" in answer.json()["error"]


def test_submarines_are_answered(client):
    body = {"attacker": "2 sub, 1 ftr", "defender": "1 sub, 1 dd", "sea": True, "ool_defender": "best"}
    data = client.post("/api/battle", json=body).json()
    assert data["casualty_policy"]["value"] < data["casualty_policy"]["fixed_order_value"]


def test_the_page_loads_the_advice_script(client):
    assert '<script src="/static/casualty_advice.js"' in client.get("/").text
    script = client.get("/static/casualty_advice.js")
    assert script.status_code == 200 and "function casualtyAdvice" in script.text
