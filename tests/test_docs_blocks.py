"""The README and the docs cannot go stale: every block marked runnable is run and must print
what it shows.

The marker is the fence's info string:

- ```` ```console ````: lines starting ``$ oddsim ...`` are commands, the lines after each (up to
  the next ``$``) are exactly what it prints on stdout. They run in-process through click's
  ``CliRunner``. Exact answers and seeded Monte Carlo only: a seed gives the same answer on any
  number of threads.
- ```` ```pycon ````: a doctest (``>>>`` lines and their output), run with ``doctest``.

Blocks with any other info string (``sh``, ``python``, ``toml``, none) are illustrations and are
not run. The same file checks that the CLI reference hook covers every command and option, and
that every function the engines page names exists.
"""

from __future__ import annotations

import doctest
import importlib.util
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
FENCE = re.compile(r"^(?P<indent> *)```(?P<info>[^`\n]*)\n(?P<body>.*?)^(?P=indent)```[ \t]*$",
                   re.MULTILINE | re.DOTALL)
RUNNABLE = ("console", "pycon")


def _blocks() -> list[tuple[str, str, str]]:
    """(where, info, body) of every runnable block, ``where`` as ``path:line``."""
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            info = m["info"].strip()
            if info in RUNNABLE:
                line = text.count("\n", 0, m.start()) + 1
                found.append((f"{page.relative_to(ROOT)}:{line}", info, m["body"]))
    return found


BLOCKS = _blocks()


def _commands(body: str) -> list[tuple[str, str]]:
    """(command, expected stdout) pairs of a console block."""
    pairs: list[tuple[str, list[str]]] = []
    for line in body.splitlines():
        if line.startswith("$ "):
            pairs.append((line[2:], []))
        else:
            assert pairs, f"output before any command: {line!r}"
            pairs[-1][1].append(line)
    return [(cmd, "".join(out + "\n" for out in lines)) for cmd, lines in pairs]


def test_blocks_are_found():
    """The marker is in use: the README and the guides hold runnable blocks of both kinds."""
    assert sum(info == "console" for _, info, _ in BLOCKS) >= 8
    assert any(info == "pycon" for _, info, _ in BLOCKS)
    assert any(where.startswith("README.md") for where, _, _ in BLOCKS)


@pytest.mark.parametrize(("where", "info", "body"), BLOCKS, ids=[b[0] for b in BLOCKS])
def test_block(where: str, info: str, body: str):
    if info == "console":
        _run_console(where, body)
    else:
        _run_pycon(where, body)


def _run_console(where: str, body: str) -> None:
    from oddsim.cli import cli
    from oddsim.purchase import PROCESS_CACHE

    for command, expected in _commands(body):
        PROCESS_CACHE.clear()  # as a fresh process has it: "N solved, 0 from the cache"
        words = shlex.split(command)
        assert words[0] == "oddsim", f"{where}: a console block runs oddsim only: {command}"
        result = CliRunner().invoke(cli, words[1:], prog_name="oddsim")
        assert result.exit_code == 0, f"{where}: {command}\n{result.output}"
        assert result.stdout == expected, f"{where}: {command} printed\n{result.stdout}"


def _run_pycon(where: str, body: str) -> None:
    test = doctest.DocTestParser().get_doctest(body, {}, where, where, 0)
    out: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test, out=out.append)
    assert runner.failures == 0, "".join(out)


def _cli_reference():
    hook = ROOT / "docs" / "hooks" / "cli_reference.py"
    spec = importlib.util.spec_from_file_location("cli_reference", hook)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_cli_reference_covers_every_command_and_option():
    """The CLI reference page is generated from click's help text: every command has its heading
    and every option its name, and the page holds the marker the hook replaces."""
    reference = _cli_reference()
    text = reference.render()
    assert reference.MARKER in (ROOT / "docs" / "reference" / "cli.md").read_text(encoding="utf-8")
    n = 0
    for path, command, _ctx in reference.commands():
        assert f"`{' '.join(path)}`" in text
        for param in command.params:
            if getattr(param, "hidden", False):
                continue  # not in --help either
            for name in param.opts:
                assert name in text, f"{' '.join(path)}: {name}"
                n += 1
    assert n > 150


TABLE_NAME = re.compile(r"`((?:[a-z_]+\.)+)([A-Za-z_][A-Za-z0-9_]*)`")


def test_engines_page_names_real_functions():
    """Every ``module.function`` the rule table names is defined in a module of that name,
    wherever the module's folder is (modules move, functions keep their names)."""
    page = (ROOT / "docs" / "engines" / "engines.md").read_text(encoding="utf-8")
    table = "\n".join(line for line in page.splitlines() if line.startswith("| ") and "---" not in line)
    sources = {}
    for path in (ROOT / "oddsim").rglob("*.py"):
        sources.setdefault(path.stem, []).append(path.read_text(encoding="utf-8"))
    names = TABLE_NAME.findall(table)
    assert len(names) > 50
    for module_path, name in names:
        module = module_path.rstrip(".").split(".")[-1]
        assert module in sources, f"no module {module}.py for {module}.{name}"
        assert any(re.search(rf"^\s*(def|class) {name}\b|^{name}\s*=", text, re.MULTILINE)
                   for text in sources[module]), f"{module}.{name} is not defined in {module}.py"
