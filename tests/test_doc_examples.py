"""The Python examples of the docs run as shown and give what their comments promise.

Each example (README's Python API, the ``solver`` package docstring, ``docs/cli.md``, ``docs/scoring.md``) is run
statement by statement from the repository's root, as a user would paste it. A statement whose comment starts with
a value promises it: ``settlement.payments  # (-2, 2, -2, 2): one entry per seat`` must give ``(-2, 2, -2, 2)``, and
``print(...)  # 27 61 88: already won, ...`` must print ``27 61 88``. A comment that starts with words (``# the
optimal line to the end``) promises nothing checkable.
"""

from __future__ import annotations

import ast
import contextlib
import io
import re
from pathlib import Path

import pytest

import solver

ROOT = Path(__file__).resolve().parent.parent


def python_blocks(path: Path) -> list[str]:
    """The ```python blocks of a Markdown file that are code to run (not a signature, as docs/format.md shows)."""
    blocks = re.findall(r"^```python\n(.*?)^```", path.read_text(encoding="utf-8"), flags=re.S | re.M)
    return [block for block in blocks if "import solver" in block]


def package_docstring_example() -> str:
    """The example under "The public API::" in ``solver/__init__.py``'s docstring, dedented."""
    doc = solver.__doc__ or ""
    lines = doc.split("The public API::", 1)[1].splitlines()
    code = []
    for line in lines[1:]:
        if line and not line.startswith("    "):
            break
        code.append(line[4:])
    return "\n".join(code).strip() + "\n"


EXAMPLES = [pytest.param(block, id=f"{path}-{number}")
            for path in ("README.md", "docs/cli.md", "docs/scoring.md")
            for number, block in enumerate(python_blocks(ROOT / path), 1)]
EXAMPLES.append(pytest.param(package_docstring_example(), id="solver/__init__.py"))


def promised(comment: str) -> tuple[str, object] | None:
    """What a comment promises: ("value", a Python literal) or ("printed", text), else None (words only)."""
    text = comment.strip()
    cuts = [len(text)] + [i for i in range(len(text) - 1, 0, -1) if text[i] == ":"]
    for cut in cuts:
        head = text[:cut].strip()
        try:
            return "value", ast.literal_eval(head)
        except (ValueError, SyntaxError):
            pass
    head = text.split(":", 1)[0].strip()
    if re.fullmatch(r"-?\d+(\s+-?\d+)+", head):  # several numbers as print() writes them
        return "printed", head
    return None


def comments_by_line(code: str) -> dict[int, str]:
    import tokenize
    return {token.start[0]: token.string[1:] for token in tokenize.generate_tokens(io.StringIO(code).readline)
            if token.type == tokenize.COMMENT}


def run_example(code: str) -> list[tuple[str, object, object]]:
    """Run ``code`` statement by statement; every (statement, promise, what it gave) whose comment promised."""
    tree = ast.parse(code)
    comments = comments_by_line(code)
    namespace: dict[str, object] = {}
    checked = []
    for statement in tree.body:
        promise = promised(comments.get(statement.end_lineno or statement.lineno, ""))
        source = ast.get_source_segment(code, statement) or ""
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            if isinstance(statement, ast.Expr):
                value = eval(compile(ast.Expression(statement.value), "<example>", "eval"), namespace)
            else:
                exec(compile(ast.Module([statement], []), "<example>", "exec"), namespace)
                value = None
        if promise is None:
            continue
        kind, expected = promise
        if kind == "printed":
            checked.append((source, expected, out.getvalue().strip()))
        elif isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call) and \
                getattr(statement.value.func, "id", None) == "print":
            checked.append((source, expected, ast.literal_eval(out.getvalue().strip())))
        else:
            checked.append((source, expected, value))
    return checked


@pytest.mark.parametrize("code", EXAMPLES)
def test_a_doc_example_runs_and_gives_what_it_says(code, monkeypatch):
    monkeypatch.chdir(ROOT)  # the examples read examples/*.tbn as a user in the repository would
    checked = run_example(code)
    for source, expected, got in checked:
        assert got == expected, f"{source}: the docs say {expected!r}, it gives {got!r}"


def test_the_examples_are_found_and_promise_values():
    """The finder finds the examples, and most promise something (a change of the docs' comment style would make
    these tests pass by checking nothing)."""
    assert len(EXAMPLES) == 5
    promises = sum(1 for param in EXAMPLES for line in comments_by_line(param.values[0]).values() if promised(line))
    assert promises >= 10
    assert promised("27 61 88: already won") == ("printed", "27 61 88")
    assert promised("(-2, 2, -2, 2): one entry per seat") == ("value", (-2, 2, -2, 2))
    assert promised("{'T17': 61}") == ("value", {"T17": 61})
    assert promised("the optimal line to the end") is None


def test_every_public_name_and_its_public_methods_have_a_docstring():
    """``help(solver.X)`` is a library user's manual: every public class and function says what it is for, and so
    does every public method and property of the classes (``SolveResult.total`` and ``Position.pack`` among them);
    an override may inherit its base's."""
    import inspect

    missing = []
    for name in solver.__all__:
        value = getattr(solver, name)
        if not (inspect.isclass(value) or inspect.isfunction(value)):
            continue
        if not (value.__doc__ or "").strip():
            missing.append(name)
        if not inspect.isclass(value):
            continue
        for member in dir(value):
            if member.startswith("_"):
                continue
            static = inspect.getattr_static(value, member)
            function = static.fget if isinstance(static, property) else getattr(static, "__func__", static)
            if inspect.isfunction(function) and not inspect.getdoc(
                    static if isinstance(static, property) else getattr(value, member)):
                missing.append(f"{name}.{member}")
    assert not missing, f"no docstring: {', '.join(missing)}"


def test_the_json_md_example_reads_the_documents_as_it_says(tmp_path, monkeypatch):
    """docs/json.md's script (the one Python example that runs ``stich`` rather than importing solver) finds the Valat
    check of examples/valat.tbn; ``stich`` is this tree's CLI, whatever the PATH holds. Among records that fail (too
    broken to read, a contract the game does not know) it finds it all the same: their ``failed`` lines have no
    ``checks``, which the script does not read (else a KeyError)."""
    import sys

    (block,) = [code for code in re.findall(r"^```python\n(.*?)^```", (ROOT / "docs" / "json.md").read_text(
        encoding="utf-8"), flags=re.S | re.M)]
    assert '["stich", ' in block and '"examples/valat.tbn"' in block
    code = block.replace('["stich", ', f'[{sys.executable!r}, "-c", "from cli.main import main; main()", ')
    valat = (ROOT / "examples" / "valat.tbn").read_text(encoding="utf-8")
    bogus = valat[valat.index("[Game"):].replace('[Board "1"]', '[Board "7"]', 1)
    bogus = re.sub(r'\[Contract "[^"]*"\]', '[Contract "Bogus"]', bogus, count=1)
    mixed = tmp_path / "mixed.tbn"
    mixed.write_text('[Game "Zwanzigerrufen"\n\n' + bogus + "\n" + valat, encoding="utf-8")
    monkeypatch.chdir(ROOT)
    for script in (code, code.replace('"examples/valat.tbn"', repr(str(mixed)))):
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            exec(compile(script, "docs/json.md", "exec"), {})
        assert out.getvalue() == "1 True [1]\n"  # board 1: the declarer, seat 1, can force Valat


def test_the_batch_md_example_reads_a_batch_output_as_it_says(tmp_path, monkeypatch):
    """docs/batch.md's script, the docs' way to read a batch's output (a researcher must keep the error lines apart,
    restore the input's order and find an objective among the results), prints each error line and, per game, the deals
    solved and the declarers' mean score, the figures ``solver.solve`` gives record by record."""
    from solver.formats.tbn import format_record

    blocks = [code for code in re.findall(r"^```python\n(.*?)^```", (ROOT / "docs" / "batch.md").read_text(
        encoding="utf-8"), flags=re.S | re.M) if "results.jsonl" in code]
    assert len(blocks) == 1
    records = [*solver.random_records("Schafkopf", 4, 4), *solver.random_records("Kratzen", 5, 3, seats=3)]
    texts = [format_record(record) for record in records]
    broken = texts[1].replace('[Deal "1: ', '[Deal "1: XX ', 1)
    (tmp_path / "deals.tbn").write_text("\n".join([texts[0], broken, *texts[2:]]), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    summary = solver.solve_batch("deals.tbn", "results.jsonl", workers=1)
    assert (summary.solved, summary.errors) == (6, 1)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(blocks[0], "docs/batch.md", "exec"), {})
    scores = {"Kratzen": [], "Schafkopf": []}
    for text in [texts[0], *texts[2:]]:
        (position,) = solver.parse_positions(text)
        scores[position.game.name].append(solver.solve(position, "score").total)
    expected = [f"{game}: {len(values)} deals, the declarers' mean score {sum(values) / len(values):+.2f}, won "
                f"{sum(value > 0 for value in values) / len(values):.0%}" for game, values in sorted(scores.items())]
    printed = out.getvalue().splitlines()
    assert printed[0].startswith("not solved: deals.tbn:") and "'XX'" in printed[0]
    assert printed[1:] == expected
