"""The folders are the layers: every import of every oddsim module, at the top or inside a function
(the ``if TYPE_CHECKING:`` ones, never run, aside), read with ``ast`` and checked against the
layout, so the shape cannot drift back.

- a module imports only from its own layer or the layers below it (``LAYERS``, bottom first);
- the engines import no stage, the web server no command-line module;
- no import cycle between modules;
- at most 12 modules directly in ``oddsim/``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "oddsim"

LAYERS = [
    ("oddsim._runtime", "oddsim.errors", "oddsim._version"),  # plumbing: no battle in sight
    ("oddsim.limits",),
    ("oddsim.model", "oddsim.triplea"),  # rules, forces, names, order of loss, the Battle value;
    # a TripleA game file read as a ruleset (load_ruleset reaches it) and as a board
    ("oddsim.results",),  # BattleResult, its text, estimates
    ("oddsim.engines",),  # one plain battle in, one BattleResult out
    ("oddsim.stages",),  # answers made of several battles
    ("oddsim.api",),
    ("oddsim.raid", "oddsim.trench", "oddsim.purchase", "oddsim.plan", "oddsim.sweeps",
     "oddsim.game"),  # features
    ("oddsim.plot",),  # charts: they read the features' results, fight no battle
    ("oddsim.cli", "oddsim.web"),  # front ends
    ("oddsim", "oddsim._entry"),  # the lazy public face and the command's entry point
]
"""The layers, bottom first; a module belongs to the layer of the longest prefix naming it."""


def _modules() -> dict[str, tuple[Path, bool]]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        found[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    return found


MODULES = _modules()


def _runtime_imports(tree: ast.AST):
    """Import nodes that run: everywhere but under ``if TYPE_CHECKING:``."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            yield from (n for child in node.orelse for n in _runtime_imports(ast.Module([child], [])))
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        yield from _runtime_imports(node)


def _imported(name: str, is_package: bool, node: ast.Import | ast.ImportFrom) -> set[str]:
    """The oddsim modules an import statement of module ``name`` loads (its own module aside)."""
    if isinstance(node, ast.Import):
        targets = [alias.name for alias in node.names]
    else:
        if node.level:
            base = name.split(".") if is_package else name.split(".")[:-1]
            base = base[:len(base) - node.level + 1]
            module = ".".join(base + ([node.module] if node.module else []))
        else:
            module = node.module or ""
        targets = [f"{module}.{alias.name}" if f"{module}.{alias.name}" in MODULES else module
                   for alias in node.names]
    found = set()
    for target in targets:
        while target not in MODULES and "." in target:
            target = target.rsplit(".", 1)[0]
        if target in MODULES and target != name:
            found.add(target)
    return found


def _graph(type_only: bool = False) -> dict[str, set[str]]:
    """Module -> the oddsim modules it imports (``type_only``: the ``if TYPE_CHECKING:`` ones too)."""
    graph = {}
    for name, (path, is_package) in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        nodes = ([n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]
                 if type_only else _runtime_imports(tree))
        graph[name] = set().union(*(_imported(name, is_package, n) for n in nodes))
    return graph


GRAPH = _graph()


def layer(module: str) -> int:
    """The index in ``LAYERS`` of the layer ``module`` belongs to."""
    best, found = -1, None
    for index, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best:
                best, found = len(prefix), index
    assert found is not None, f"{module} is in no layer: add it to LAYERS"
    return found


def _imports_of(prefix: str) -> list[tuple[str, str]]:
    return [(module, dep) for module, deps in GRAPH.items() for dep in sorted(deps)
            if module == prefix or module.startswith(prefix + ".")]


def test_the_import_reader_sees_imports_inside_functions():
    assert "oddsim.engines.montecarlo.simulate" in GRAPH["oddsim.stages.pipeline"]  # (in _simulate_plain)
    assert "oddsim.model.battle" in GRAPH["oddsim.stages.runner"]


def test_every_module_imports_only_its_layer_or_below():
    upward = [f"{module} imports {dep}" for module, deps in GRAPH.items() for dep in sorted(deps)
              if layer(dep) > layer(module)]
    assert not upward


def test_the_engines_import_no_stage_and_nothing_above():
    assert not [(m, d) for m, d in _imports_of("oddsim.engines") if layer(d) >= layer("oddsim.stages")]


def test_only_the_stages_reach_the_engines():
    """Every battle above the stages is fought through ``oddsim.stages.pipeline`` (``oddsim.solve``,
    ``oddsim.simulate``), which adds what one plain battle leaves out, the same for either engine."""
    above = [(m, d) for m, deps in GRAPH.items() for d in sorted(deps)
             if layer(m) > layer("oddsim.stages") and layer(d) == layer("oddsim.engines")]
    assert not above
    fighters = {m for m, deps in GRAPH.items() if not m.startswith("oddsim.engines")
                and deps & {"oddsim.engines.montecarlo.simulate", "oddsim.engines.exact"}}
    assert fighters == {"oddsim.stages.pipeline"}


def test_the_web_server_imports_no_command_line_module():
    assert not [(m, d) for m, d in _imports_of("oddsim.web") if layer(d) == layer("oddsim.cli")
                and not d.startswith("oddsim.web")]


def test_the_model_imports_no_numpy():
    for module, (path, _) in MODULES.items():
        if module == "oddsim.model" or module.startswith("oddsim.model."):
            nodes = list(_runtime_imports(ast.parse(path.read_text(encoding="utf-8"))))
            names = {(n.module or "") if isinstance(n, ast.ImportFrom) else a.name
                     for n in nodes for a in n.names}
            assert not {name.split(".")[0] for name in names} & {"numpy", "numba"}, module


def test_a_command_imports_common_never_the_group():
    # (not commands: ``python -m oddsim.cli`` and the background warm-up process, which run the group)
    commands = [m for m in MODULES if m.startswith("oddsim.cli.") and m not in (
        "oddsim.cli.__main__", "oddsim.cli.warm")]
    assert len(commands) >= 9
    assert not [(m, d) for m in commands for d in GRAPH[m] if d == "oddsim.cli"]


@pytest.mark.parametrize("graph", [GRAPH, _graph(type_only=True)], ids=["run", "with-type-only"])
def test_no_import_cycle(graph):
    """Not even through the imports only a type checker reads (a cycle there still ties the two
    modules together for a reader)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles = []

    def visit(module: str) -> None:  # Tarjan's strongly connected components
        index[module] = low[module] = len(index)
        stack.append(module)
        for dep in graph[module]:
            if dep not in index:
                visit(dep)
                low[module] = min(low[module], low[dep])
            elif dep in stack:
                low[module] = min(low[module], index[dep])
        if low[module] == index[module]:
            component = []
            while not component or component[-1] != module:
                component.append(stack.pop())
            if len(component) > 1:
                cycles.append(sorted(component))

    for module in graph:
        if module not in index:
            visit(module)
    assert not cycles


def test_at_most_twelve_modules_directly_in_the_package():
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(top) <= 12, top


@pytest.mark.parametrize("module", sorted(MODULES))
def test_every_module_is_in_a_layer(module):
    layer(module)
