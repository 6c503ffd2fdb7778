"""The safe reader of TripleA game files: bombs, external entities, size and root refused."""

from __future__ import annotations

import pytest

from oddsim.triplea import document
from oddsim.triplea.document import GameFileError, looks_like_game_file, read_game_root

GAME = b'<?xml version="1.0"?>\n<!DOCTYPE game SYSTEM "game.dtd">\n<game><info name="t" version="1"/></game>'


def test_a_game_file_reads_to_its_root(tmp_path):
    path = tmp_path / "g.xml"
    path.write_bytes(GAME)
    assert read_game_root(path).find("info").get("name") == "t"
    assert looks_like_game_file(path)


def test_an_entity_bomb_is_refused_at_once():
    bomb = (b'<?xml version="1.0"?><!DOCTYPE game [<!ENTITY a "aaaaaaaaaa">'
            b'<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><game>&b;</game>')
    with pytest.raises(GameFileError, match="entities"):
        read_game_root(bomb)


def test_an_external_entity_is_refused():
    external = (b'<?xml version="1.0"?><!DOCTYPE game [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
                b'<game>&x;</game>')
    with pytest.raises(GameFileError, match="entit"):
        read_game_root(external)


def test_not_xml_and_not_a_game_are_named(tmp_path):
    with pytest.raises(GameFileError, match="is not XML"):
        read_game_root(b"name = 'x'\n")
    with pytest.raises(GameFileError, match="root is <map>"):
        read_game_root(b"<map/>")
    toml = tmp_path / "r.toml"
    toml.write_text("name = 'x'\n")
    assert not looks_like_game_file(toml)


def test_a_file_over_the_cap_is_refused_before_reading(tmp_path, monkeypatch):
    monkeypatch.setattr(document, "MAX_GAME_FILE_BYTES", 100)
    path = tmp_path / "big.xml"
    path.write_bytes(GAME + b" " * 200)
    with pytest.raises(GameFileError, match="over the"):
        read_game_root(path)


def test_a_missing_file_is_named(tmp_path):
    with pytest.raises(GameFileError, match="check the path"):
        read_game_root(tmp_path / "none.xml")
