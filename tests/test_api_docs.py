"""docs/api.md against the code. docs/api.md shows each function as a signature (``solve(position, objective=
"points", *, seat=None, ...)``) rather than as an example to run, so a newcomer writes the call from it: every name
it shows must exist, with the parameters shown, and a whole signature (one without ``...``) must show every
parameter the function takes. Once six of them left out parameters (``analyse_hand``'s ``announcements`` and
``pot``, ``SamplingBot``'s ``plays_for`` and ``workers``, ``strategy_tree``'s ``max_nodes``, ...)."""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path
from typing import Any, Iterator

import pytest

import solver

ROOT = Path(__file__).resolve().parent.parent
API = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
#: Parameters a signature leaves to its prose: ``make_position``'s ``**state_tags`` are listed by name there.
PROSE = {"state_tags"}


def top_level_split(text: str) -> list[str]:
    """``text`` split at the commas outside brackets and quotes (``play=(), driver="mtdf"``)."""
    parts, depth, quote, start = [], 0, "", 0
    for i, char in enumerate(text):
        if quote:
            quote = "" if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [part.strip() for part in parts if part.strip()]


def module_of(path: str) -> Any:
    """The module a dotted name is in: its longest prefix that imports (``solver.batch`` of
    ``solver.batch.solve_batch``, ``solver`` of ``solver.dd_settlement``)."""
    parts = path.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            return importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
    raise ImportError(path)


def shown_signatures() -> Iterator[tuple[str, str, Any]]:
    """(name, parameters as shown, module the name is read from) of each signature in the first column of a table
    row; a name without ``solver.`` is read from the module of the signature before it in the row, else ``solver``
    (``solver.bots.SamplingBot(...)``, ``RandomBot(seed=0)``)."""
    for row in re.findall(r"^\| (`[^|]*?) \|", API, flags=re.M):
        module: Any = solver
        for span in re.findall(r"`([^`]+)`", row):
            match = re.fullmatch(r"([\w.]+)\((.*)\)", span, flags=re.S)
            if match is None:
                continue
            name, parameters = match.groups()
            if name.startswith("solver."):
                module = module_of(name)
                name = name.removeprefix(module.__name__ + ".")
            yield name, parameters, module


def resolved(name: str, module: Any) -> Any:
    value = module
    for part in name.split("."):
        value = getattr(value, part)
    return value


SIGNATURES = list(shown_signatures())


def test_the_signatures_are_found() -> None:
    names = {name for name, _, _ in SIGNATURES}
    assert {"solve", "make_position", "EngineSolver", "SamplingBot", "analyse_hand", "strategy_tree"} <= names


@pytest.mark.parametrize("name, parameters, module", [pytest.param(*s, id=s[0]) for s in SIGNATURES])
def test_every_signature_shown_is_the_functions(name: str, parameters: str, module: Any) -> None:
    function = resolved(name, module)
    real = [p for p in inspect.signature(function).parameters if p != "self"]
    shown = [part.split("=", 1)[0].strip().lstrip("*") for part in top_level_split(parameters)]
    shown = [p for p in shown if p and p != "..."]
    assert [p for p in shown if p not in real] == []  # no parameter the function does not take
    if "..." not in parameters:
        assert [p for p in real if p not in shown and p not in PROSE] == []  # every parameter, when shown whole


def field_rows() -> Iterator[tuple[str, str]]:
    """(type name, the rest of its row) of each row of the "type | fields" tables that names one type."""
    for name, row in re.findall(r"^\| `(\w+)`(?: \([^|]*\))? \| (.*) \|$", API, flags=re.M):
        yield name, row


def documented_type(name: str) -> Any:
    """The dataclass ``name`` of api.md's tables: a public name of ``solver``, else the module that defines it."""
    if name in solver.__all__:
        return getattr(solver, name)
    for module in ("solver.batch", "solver.state"):
        value = getattr(importlib.import_module(module), name, None)
        if value is not None:
            return value
    return None


def test_every_field_of_a_result_type_is_in_its_row() -> None:
    """A type's row lists its fields, so a newcomer reads what a result holds without the source: every field of each
    result type (``BatchSummary``'s ``duplicates``, ``stale`` and ``stale_ids``, ``HandAnalysis``'s ``announcements``
    and ``pot``) is in its row, so a field added later is not left out."""
    import dataclasses

    checked, missing = set(), []
    for name, row in field_rows():
        value = documented_type(name)
        if value is None or not dataclasses.is_dataclass(value):
            continue
        checked.add(name)
        missing += [f"{name}.{field.name}" for field in dataclasses.fields(value)
                    if not field.name.startswith("_") and f"`{field.name}`" not in row]
    assert {"SolveResult", "HandAnalysis", "PlayAnalysis", "BatchSummary", "Settlement", "PlayState"} <= checked
    assert missing == []


def block_signatures() -> Iterator[tuple[str, str, str, Any]]:
    """(page, name, parameters, module) of each signature a page shows in a ```python block rather than in a table
    (``solve_batch(source, out_path, *, ...) -> BatchSummary`` in batch.md, the reader's functions in format.md): a
    line, with the lines its brackets run over, of a name, its parameters and ``->``. A bare name is read from the
    module the heading above the block names in backticks (``## The Python API (`solver.formats.tbn`)``), else
    ``solver``. A code span of the prose that shows a ``solver.`` name with ``->`` is a whole signature too."""
    for page in sorted((ROOT / "docs").glob("*.md")):
        text = page.read_text(encoding="utf-8")
        for match in re.finditer(r"^```python\n(.*?)^```", text, flags=re.S | re.M):
            heading = re.findall(r"^#+ .*$", text[:match.start()], flags=re.M)[-1]
            named = re.search(r"`(solver\.[\w.]+)`", heading)
            home = module_of(named.group(1)) if named else solver
            code = re.sub(r"#[^\n]*", "", match.group(1))
            for name, parameters in re.findall(r"^([\w.]+)\(((?:[^()]|\([^()]*\))*)\) ->", code, flags=re.M):
                module: Any = home
                if name.startswith("solver."):
                    module = module_of(name)
                    name = name.removeprefix(module.__name__ + ".")
                yield page.name, name, " ".join(parameters.split()), module
        # and a signature in the prose, which names its module: `solver.scoring.score_deal(position, *, ...) -> X`
        prose = " ".join(re.sub(r"^```.*?^```", "", text, flags=re.S | re.M).split())
        for name, parameters in re.findall(r"`(solver\.[\w.]+)\(([^`]*)\) -> [^`]*`", prose):
            module = module_of(name)
            yield page.name, name.removeprefix(module.__name__ + "."), parameters, module


BLOCK_SIGNATURES = list(block_signatures())


def test_the_block_signatures_are_found() -> None:
    found = {(page, name) for page, name, _, _ in BLOCK_SIGNATURES}
    assert {("batch.md", "solve_batch"), ("format.md", "read_records"), ("format.md", "write_records"),
            ("scoring.md", "score_deal"), ("postmortem.md", "strategy_tree")} <= found


@pytest.mark.parametrize("page, name, parameters, module",
                         [pytest.param(*s, id=f"{s[0]}-{s[1]}") for s in BLOCK_SIGNATURES])
def test_every_signature_a_code_block_shows_is_the_functions_with_its_defaults(
        page: str, name: str, parameters: str, module: Any) -> None:
    """A signature in a code block is shown whole: every parameter in the function's order, each default shown as the
    function's, in every page (batch.md's ``solve_batch`` and format.md's reader too)."""
    import ast

    real = {p.name: p for p in inspect.signature(resolved(name, module)).parameters.values() if p.name != "self"}
    shown = [part for part in top_level_split(parameters) if part not in ("*", "/")]
    assert [part.split("=", 1)[0].strip().lstrip("*") for part in shown] == list(real)
    for part in shown:
        if "=" in part:
            parameter, default = (side.strip() for side in part.split("=", 1))
            assert ast.literal_eval(default) == real[parameter].default, f"{page}: {name}'s {parameter}"
        else:
            assert real[part.lstrip("*")].default is inspect.Parameter.empty, f"{page}: {name}'s {part} has a default"
