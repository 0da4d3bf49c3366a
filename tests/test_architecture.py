"""The import graph of ``solver`` and ``cli``, read from the source: no circles, and no upward arrows.

Every import counts, at module level and inside functions alike (an import inside a function that dodges a circle
is still a circle). Only an import under ``if TYPE_CHECKING:`` is left out: it never runs, and names a type for the
checker only (``PlayState.rules`` is annotated as the games' ``Rules``, which the play state merely holds and asks
its rule questions of). ``from package import name`` is an arrow to the module ``package.name`` when that is a
module, else to the package itself.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("solver", "cli")
#: The ground floor: cards and deals, the play state, variants, errors and the file formats (with the small file
#: helpers the formats write with, the [Announcements] tag's parser, and the HTML tables results render as in Jupyter).
#: They import nothing above them.
GROUND_FLOOR = ("solver.cards", "solver.deal", "solver.state", "solver.variant", "solver.errors", "solver.formats",
                "solver.files", "solver.announcements", "solver.html_tables")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def source_modules() -> dict[str, Path]:
    return {module_name(path): path for package in PACKAGES for path in (ROOT / package).rglob("*.py")}


def compiled_modules() -> set[str]:
    """The compiled engine (``solver._engine``, from src_ext/): a leaf, importing nothing of ours."""
    return {f"solver.{path.name.split('.')[0]}" for path in (ROOT / "solver").glob("_*.so")} | {"solver._engine"}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def import_graph() -> nx.DiGraph:
    modules = source_modules()
    leaves = compiled_modules()
    graph = nx.DiGraph()
    graph.add_nodes_from(modules)
    graph.add_nodes_from(leaves)
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        checker_only = {id(inner) for node in ast.walk(tree)
                        if isinstance(node, ast.If) and _is_type_checking(node.test)
                        for statement in node.body for inner in ast.walk(statement)}
        for node in ast.walk(tree):
            if id(node) in checker_only:
                continue
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")
                    anchor = anchor[:len(anchor) - (node.level - 1)]
                    base = ".".join(anchor + ([base] if base else []))
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules.keys() | leaves else base
                           for alias in node.names]
            for target in targets:
                while target and target not in modules and target not in leaves:  # a name inside a module: the module
                    target = target.rpartition(".")[0]
                if target and target != name:
                    graph.add_edge(name, target)
    return graph


def test_the_graph_is_read():
    graph = import_graph()
    assert graph.has_edge("solver.settlement", "solver.scoring")
    assert graph.has_edge("solver.games", "solver.games.kratzen")
    assert graph.number_of_edges() > 100


def test_no_import_circles():
    cycles = list(nx.simple_cycles(import_graph()))
    assert cycles == []


@pytest.mark.parametrize("floor", GROUND_FLOOR)
def test_the_ground_floor_imports_nothing_above_it(floor):
    graph = import_graph()
    below = [m for m in graph if any(m == g or m.startswith(g + ".") for g in GROUND_FLOOR)]
    own = [m for m in below if m == floor or m.startswith(floor + ".")]
    upward = sorted((m, t) for m in own for t in graph.successors(m) if t not in below)
    assert upward == []


def test_scoring_and_the_games_do_not_import_the_analyses():
    graph = import_graph()
    above = {"solver.analysis", "solver.postmortem", "solver.sampling", "solver.batch"}
    for module in ("solver.scoring", "solver.settlement", "solver.games"):
        assert not above & nx.descendants(graph, module), module
    games = [m for m in graph if m.startswith("solver.games")]
    for module in games:  # a game module sees only the ground floor and its fellows
        for target in graph.successors(module):
            assert target.startswith("solver.games") or any(
                target == g or target.startswith(g + ".") for g in GROUND_FLOOR), \
                (module, target)


def test_the_cards_of_a_report_are_named_by_one_function():
    """card_names is one function, in solver.diagram beside the SuitStyle it writes with, imported by every report
    (postmortem, sampling), so that the reports cannot name cards apart."""
    from solver import advice, diagram, postmortem, sampling

    defined = sorted(module for module, path in source_modules().items()
                     if any(isinstance(node, ast.FunctionDef) and node.name == "card_names"
                            for node in ast.parse(path.read_text(encoding="utf-8")).body))
    assert defined == ["solver.diagram"]
    assert postmortem.card_names is sampling.card_names is advice.card_names is diagram.card_names
    assert diagram.card_names("Zwanzigerrufen", ["SK", "T21", "HK"]) == "♠K T21 ♥K"
    assert diagram.card_names("Schafkopf", ["EU", "HA"], "/") == "EU/HA"
    assert diagram.card_names("", ["SK", "HK"], "/") == "SK/HK"


def test_the_pot_flag_is_written_once():
    """Every note that asks for a pot names the flag by ``games.outcome.POT_BY_FLAG`` (below the analyses, which the
    games may not import), so that a renamed flag cannot leave one note asking for the old one."""
    from solver import analysis
    from solver.games import outcome

    written = sorted(module for module, path in source_modules().items()
                     if "--pot CHIPS" in path.read_text(encoding="utf-8"))
    assert written == ["solver.games.outcome"]
    assert analysis.POT_BY_FLAG is outcome.POT_BY_FLAG == "--pot CHIPS"
    assert outcome.POT_ZERO_LINES_NOTE == "pot 0: every line settles at 0 (give the record a [Pot] tag, or --pot CHIPS)"
    assert outcome.POT_ZERO_CONTRACTS_NOTE == (
        "pot 0: every contract settles at 0 (give the record a [Pot] tag, or --pot CHIPS)")
    assert outcome.POT_ZERO_SCORE_NOTE == "pot 0: every deal settles at 0 (give the record a [Pot] tag, or --pot CHIPS)"
    # every pot-0 note is one sentence, the one stderr says without its unit (solve's line, table's contract and
    # score's deal alike), given or not: score's once said "tricks and targets only" where stderr said "every deal"
    assert sorted(outcome.POT_ZERO_NOTES) == sorted(outcome.pot_zero_note(what, given) for what in
                                                    ("line", "contract", "deal") for given in (False, True))
    assert outcome.pot_zero_said("deal", "chips", True) == outcome.POT_ZERO_SCORE_GIVEN_NOTE + " chips"
