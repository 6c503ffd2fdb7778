"""Text a user gives in files and options (issue 23): deeply nested plans and rulesets are bad
input, not a RecursionError; a UTF-8 byte-order mark is read; counts are ASCII digits everywhere."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

import oddsim
from oddsim.cli import cli
from oddsim.errors import BattleError, ForceError, RulesetError
from oddsim.model.forces import parse_force
from oddsim.model.rules import load_ruleset, ruleset_from_text
from oddsim.stages.wave_plan import load_wave_plan
from oddsim.trench.model import TrenchError, parse_belief, parse_fronts

DEEP = 100_000
"""Far deeper than Python's recursion limit (1,000): what broke the parsers."""
PLAN = '[[wave]]\nattacker = "1 arm"\n'


def _one_line_refusal(args: list[str]) -> str:
    out = CliRunner().invoke(cli, args)
    assert out.exit_code == 2, out.output
    assert out.stderr.count("\n") == 1 and out.stderr.startswith("oddsim: error: "), out.stderr
    assert "Traceback" not in out.output
    return out.stderr


def _deep_toml() -> str:
    return "x = " + "[" * DEEP + "]" * DEEP + "\n"


def _deep_json() -> str:
    return '{"wave": ' + "[" * DEEP + "]" * DEEP + "}"


@pytest.mark.parametrize(("name", "text"), [("plan.toml", _deep_toml()), ("plan.json", _deep_json())])
def test_a_deeply_nested_wave_plan_is_one_line(tmp_path, name, text):
    plan = tmp_path / name
    plan.write_text(text)
    line = _one_line_refusal(["battle", "-a", "1 inf", "-d", "1 inf", "--wave-plan", str(plan)])
    assert "nested" in line and str(plan) in line


@pytest.mark.parametrize(("name", "text"), [("plan.toml", _deep_toml()), ("plan.json", _deep_json())])
def test_a_deeply_nested_wave_plan_is_a_battle_error(tmp_path, name, text):
    plan = tmp_path / name
    plan.write_text(text)
    with pytest.raises(BattleError, match="nested"):
        load_wave_plan(plan)


def test_nesting_just_under_the_limit_still_parses_to_its_own_error(tmp_path):
    plan = tmp_path / "plan.json"
    plan.write_text('{"wave": [[[[1]]]]}')  # shallow: the usual "a wave is a table" answer
    with pytest.raises(BattleError, match="a wave is a table"):
        load_wave_plan(plan)


def test_a_deeply_nested_ruleset_is_one_line(tmp_path):
    rules = tmp_path / "deep.toml"
    rules.write_text(_deep_toml())
    line = _one_line_refusal(["battle", "--rules", str(rules), "-a", "1 inf", "-d", "1 inf"])
    assert "nested" in line


def test_a_deeply_nested_ruleset_is_a_ruleset_error(tmp_path):
    rules = tmp_path / "deep.toml"
    rules.write_text(_deep_toml())
    with pytest.raises(RulesetError, match="nested"):
        load_ruleset(str(rules))
    with pytest.raises(RulesetError, match="nested"):
        ruleset_from_text(_deep_toml())
    # a deep inline table as well as a deep array
    with pytest.raises(RulesetError, match="nested"):
        ruleset_from_text("x = " + "{a = " * 5_000 + "1" + "}" * 5_000 + "\n")


def test_a_wave_plan_with_a_byte_order_mark_is_read(tmp_path):
    plan = tmp_path / "plan.toml"
    plan.write_bytes(b"\xef\xbb\xbf" + PLAN.encode())
    assert [wave.attacker for wave in load_wave_plan(plan)] == [wave.attacker for wave in _plain(tmp_path)]
    json_plan = tmp_path / "plan.json"
    json_plan.write_bytes(b"\xef\xbb\xbf" + b'{"wave": [{"attacker": "1 arm"}]}')
    assert len(load_wave_plan(json_plan)) == 1


def _plain(tmp_path):
    plain = tmp_path / "plain.toml"
    plain.write_text(PLAN)
    return load_wave_plan(plain)


def test_a_ruleset_file_with_a_byte_order_mark_is_read(tmp_path):
    from importlib import resources

    text = resources.files("oddsim.rulesets").joinpath("1942-2e.toml").read_text(encoding="utf-8")
    rules = tmp_path / "mine.toml"
    rules.write_bytes(b"\xef\xbb\xbf" + text.encode())
    assert load_ruleset(str(rules)).units == load_ruleset("1942-2e").units
    # and the same text given as text (the server's way), the mark decoded as U+FEFF
    assert ruleset_from_text("\ufeff" + text).units == load_ruleset("1942-2e").units


ARABIC_THREE = "\u0663"  # ٣
FULLWIDTH_THREE = "\uff13"  # ３


@pytest.mark.parametrize("digit", [ARABIC_THREE, FULLWIDTH_THREE])
def test_the_trench_parser_takes_only_ascii_digits_like_the_army_parser(digit):
    with pytest.raises(ForceError, match="digits 0 to 9"):
        parse_force(f"{digit} inf", oddsim.load_ruleset("1942-2e"))
    with pytest.raises(TrenchError, match="digits 0 to 9"):
        parse_fronts(f"5,{digit},3", "attacker")
    with pytest.raises(TrenchError, match="digits 0 to 9"):
        parse_belief(f"1:{digit}")


def test_the_trench_parser_refuses_underscores_and_inner_spaces():
    for text in ("1_0", "+ 3"):
        with pytest.raises(TrenchError):
            parse_fronts(f"5,{text},3", "attacker")
    assert parse_fronts(" 5 , 4 ,3", "attacker") == parse_fronts("5,4,3", "attacker")


def test_a_non_ascii_trench_digit_is_one_line_on_the_command_line():
    line = _one_line_refusal(["trench", "--attacker", f"5,{ARABIC_THREE},3", "--defender", "4,4,4",
                              "--year", "1917"])
    assert "digits 0 to 9" in line
