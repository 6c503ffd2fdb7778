"""A web page the user opens elsewhere cannot drive the local server: Host, Origin, content type."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("starlette")

BATTLE = {"attacker": "1 inf", "defender": "1 inf"}


def _line(response, status):
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert "\n" not in error
    return error


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.1:8765", "localhost", "LOCALHOST:80",
                                  "[::1]", "[::1]:8765", "localhost."])
def test_a_host_naming_the_server_is_answered(client, host):
    assert client.get("/api/rules", headers={"host": host}).status_code == 200


@pytest.mark.parametrize("host", ["evil.example.com", "evil.example.com:8765", "127.0.0.1.evil.example",
                                  "localhost:80x", "[::1]x", "", "127.0.0.2"])
def test_another_host_is_refused(client, host):
    """Before: answered, so DNS rebinding gave any page the user opened full read access."""
    error = _line(client.get("/api/rules", headers={"host": host}), 421)
    assert "127.0.0.1" in error
    _line(client.post("/api/battle", json=BATTLE, headers={"host": host}), 421)


def test_the_port_must_be_the_servers_when_it_is_known():
    from starlette.testclient import TestClient

    from oddsim.web import create_app

    with TestClient(create_app(host="127.0.0.1", port=8765), base_url="http://127.0.0.1:8765") as c:
        assert c.get("/api/rules").status_code == 200
        assert c.get("/api/rules", headers={"host": "localhost"}).status_code == 200
        _line(c.get("/api/rules", headers={"host": "127.0.0.1:9999"}), 421)


def test_the_host_given_to_serve_is_answered():
    from oddsim.web.guard import Allowed

    allowed = Allowed("192.168.1.5", 8765)
    assert "192.168.1.5:8765" in allowed and "127.0.0.1" in allowed
    assert "192.168.1.6:8765" not in allowed
    assert "[fe80::1]:8765" in Allowed("fe80::1", 8765)


@pytest.mark.parametrize("origin", ["http://evil.example.com", "null", "https://127.0.0.1",
                                    "http://127.0.0.1.evil.example"])
def test_a_post_from_another_site_is_refused(client, origin):
    """Before: a cross-site POST was processed (eight of them filled the job board)."""
    _line(client.post("/api/purchase", json={"budget": 10, "units": "inf", "against": "2 inf"},
                      headers={"origin": origin}), 403)
    _line(client.delete("/api/jobs/whatever", headers={"origin": origin}), 403)


def test_the_servers_own_origin_and_none_are_served(client):
    for headers in ({"origin": "http://127.0.0.1"}, {"origin": "http://localhost:8765"}, {}):
        assert client.post("/api/battle", json=BATTLE, headers=headers).status_code == 200
    assert client.get("/api/rules", headers={"origin": "http://evil.example.com"}).status_code == 200


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded",
                                          "multipart/form-data; boundary=x", None])
def test_a_post_body_that_is_not_json_typed_is_refused(client, content_type):
    """Before: a text/plain body (which a browser sends cross-site without asking) was read."""
    headers = {} if content_type is None else {"content-type": content_type}
    error = _line(client.post("/api/battle", content=json.dumps(BATTLE).encode(), headers=headers), 415)
    assert "application/json" in error


def test_json_with_a_charset_is_json(client):
    response = client.post("/api/battle", content=json.dumps(BATTLE).encode(),
                           headers={"content-type": "application/json; charset=utf-8"})
    assert response.status_code == 200
