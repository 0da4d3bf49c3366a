"""The sources' line length: at most 120 characters, the width the code is written to; and PEP 8's two blank lines
before a top-level function or class.

The Python sources of solver/, cli/, bench/, tests/ and examples/ and the engine's Cython sources (src_ext/) are
checked; src_ext/tt.pxd is left out: three of its comment lines are longer, and the engine is not changed for its
comments' sake.
"""

from __future__ import annotations

import ast
import io
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LONGEST = 120
CHECKED = {"solver": ("*.py",), "cli": ("*.py",), "bench": ("*.py",), "tests": ("*.py",), "examples": ("*.py",),
           "src_ext": ("*.pyx", "*.pxd")}
NOT_CHECKED = {"src_ext/tt.pxd"}


def long_lines(root: Path) -> list[str]:
    """``file:line: N characters`` for each line of the checked sources under ``root`` longer than LONGEST."""
    found = {path for folder, patterns in CHECKED.items() for pattern in patterns
             for path in (root / folder).rglob(pattern)}
    sources = sorted(path for path in found if path.relative_to(root).as_posix() not in NOT_CHECKED)
    return [f"{path.relative_to(root).as_posix()}:{number}: {len(line)} characters"
            for path in sources
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            if len(line) > LONGEST]


def test_no_source_line_is_longer_than_120_characters():
    too_long = long_lines(ROOT)
    assert not too_long, "lines longer than 120 characters:\n" + "\n".join(too_long)


def test_the_check_names_the_file_and_line_of_a_long_line(tmp_path):
    """A line of 121 characters is named by its file and line number; one of 120 (a suit sign one character) and
    tt.pxd's are not."""
    (tmp_path / "solver" / "games").mkdir(parents=True)
    (tmp_path / "src_ext").mkdir()
    (tmp_path / "solver" / "games" / "long.py").write_text("x = 1\n" + "#" * 121 + "\n" + "♠" * 120 + "\n",
                                                          encoding="utf-8")
    (tmp_path / "src_ext" / "tt.pxd").write_text("#" * 200 + "\n", encoding="utf-8")
    (tmp_path / "src_ext" / "search.pxd").write_text("#" * 130 + "\n", encoding="utf-8")
    assert long_lines(tmp_path) == ["solver/games/long.py:2: 121 characters", "src_ext/search.pxd:1: 130 characters"]


def python_sources(root: Path) -> list[Path]:
    """The checked Python sources under ``root``."""
    return sorted(path for folder, patterns in CHECKED.items() if "*.py" in patterns
                  for path in (root / folder).rglob("*.py"))


def few_blank_lines(root: Path) -> list[str]:
    """``file:line`` for each top-level function or class (at its first decorator) that follows a statement with
    fewer than two blank lines between them; comment lines between are not counted, as pycodestyle's E302."""
    found = []
    for path in python_sources(root):
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        body = ast.parse(text).body
        for before, node in zip(body, body[1:]):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            start = min([node.lineno] + [decorator.lineno for decorator in node.decorator_list])
            end = before.end_lineno or before.lineno
            if sum(1 for line in lines[end:start - 1] if not line.strip()) < 2:
                found.append(f"{path.relative_to(root).as_posix()}:{start}")
    return found


def test_a_top_level_function_or_class_has_two_blank_lines_before_it():
    too_close = few_blank_lines(ROOT)
    assert not too_close, "top-level functions or classes without two blank lines before them:\n" + "\n".join(
        too_close)


def many_blank_lines(root: Path) -> list[str]:
    """``file:line`` of the third blank line in a row, counted on every line but those inside a string (a token
    over several lines: a string, or an f-string's parts on Python 3.12+), brackets included: two set top-level
    definitions apart, more only spread a file out."""
    found = []
    for path in python_sources(root):
        text = path.read_text(encoding="utf-8")
        in_strings = set()
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type not in (tokenize.NL, tokenize.NEWLINE) and token.start[0] != token.end[0]:
                in_strings.update(range(token.start[0], token.end[0] + 1))
        run = 0
        for number, line in enumerate(text.split("\n"), 1):  # as tokenize numbers lines (no form feed breaks)
            run = run + 1 if not line.strip() and number not in in_strings else 0
            if run == 3:
                found.append(f"{path.relative_to(root).as_posix()}:{number}")
    return found


def test_no_more_than_two_blank_lines_in_a_row():
    too_far = many_blank_lines(ROOT)
    assert not too_far, "three or more blank lines in a row:\n" + "\n".join(too_far)


def test_the_many_blank_lines_check_skips_strings_and_names_the_third_line(tmp_path):
    (tmp_path / "cli").mkdir()
    (tmp_path / "cli" / "far.py").write_text('X = """a\n\n\n\nb"""\n\n\n\ndef far():\n    pass\n', encoding="utf-8")
    (tmp_path / "cli" / "fstring.py").write_text('name = 1\nX = f"""a {name}\n\n\n\nb"""\n', encoding="utf-8")
    assert many_blank_lines(tmp_path) == ["cli/far.py:8"]


def test_the_blank_line_check_names_the_file_and_line_and_counts_blank_lines_around_comments(tmp_path):
    """One blank line before a def (or a decorated one) is named; two, or two around a section comment, are not."""
    (tmp_path / "cli").mkdir()
    (tmp_path / "cli" / "near.py").write_text(
        "X = 1\n\ndef near():\n    pass\n\n\n# --- a section\n\n@staticmethod\ndef far():\n    pass\n"
        "\n@property\nclass Near:\n    pass\n", encoding="utf-8")
    assert few_blank_lines(tmp_path) == ["cli/near.py:3", "cli/near.py:13"]


def placeholder_free_fstrings(root: Path) -> list[str]:
    """``file:line`` of each f-string part without a placeholder (ruff's F541, which passes over the parts of an
    implicit concatenation): its ``f`` says a value is put in where none is. Read from the tokens, as the parts are
    written: one STRING token each before Python 3.12, FSTRING_START to FSTRING_END after."""
    found = []
    for path in python_sources(root):
        opened: list[list] = []  # per f-string open (3.12+): [line, whether a placeholder was seen]
        for token in tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline):
            name = tokenize.tok_name[token.type]
            if name == "STRING":
                prefix = token.string[:len(token.string) - len(token.string.lstrip("rRbBuUfF"))]
                body = token.string[len(prefix):].replace("{{", "").replace("}}", "")
                if "f" in prefix.lower() and "{" not in body:
                    found.append(f"{path.relative_to(root).as_posix()}:{token.start[0]}")
            elif name == "FSTRING_START":
                opened.append([token.start[0], False])
            elif name == "OP" and token.string == "{" and opened:
                opened[-1][1] = True
            elif name == "FSTRING_END":
                line, placeholder = opened.pop()
                if not placeholder:
                    found.append(f"{path.relative_to(root).as_posix()}:{line}")
    return found


def test_no_f_string_part_lacks_a_placeholder():
    plain = placeholder_free_fstrings(ROOT)
    assert not plain, "f-string parts without a placeholder (drop the f):\n" + "\n".join(plain)


def test_the_f_string_check_names_a_plain_part_of_a_concatenation_but_not_escaped_braces(tmp_path):
    (tmp_path / "cli").mkdir()
    (tmp_path / "cli" / "plain.py").write_text(
        'x = 1\nA = (f"{x} and "\n     f"no value")\nB = f"{{x}} braces"\nC = f"{x:{x}}" "plain"\nD = rf"\\d{x}"\n',
        encoding="utf-8")
    assert placeholder_free_fstrings(tmp_path) == ["cli/plain.py:3", "cli/plain.py:4"]
