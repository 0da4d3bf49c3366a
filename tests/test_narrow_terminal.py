"""What a player sees on an 80-column terminal: every line of a command's report fits it.

The commands run from this checkout on a pty 80 columns wide (stdout a terminal, as a player's; stderr a pipe, so
no spinner), and the report's lines are measured with the colour codes taken out. Piped without ``COLUMNS`` the
tables keep their boxes and their natural width (a file keeps its layout) and a text line stays one line.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from stopping_helpers import read_pty

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
HAND = ("--game", "schafkopf", "--hand", "EU E8 E7 GK GO HA H9 SU", "--seat", "1")

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="a pty is POSIX")


def _on_terminal(*args: str, width: int = 80) -> list[str]:
    """``stich ARGS``' stdout on a pty ``width`` columns wide, line by line, without its colour codes."""
    import fcntl
    import pty
    import struct
    import termios

    main_end, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 50, width, 0, 0))
    process = subprocess.Popen([sys.executable, "-c", "from cli.main import main; main()", *args], cwd=ROOT,
                               stdin=subprocess.DEVNULL, stdout=terminal, stderr=subprocess.PIPE,
                               env={**os.environ, "COLUMNS": str(width), "TERM": "xterm"})
    os.close(terminal)
    shown = read_pty(main_end, 240)
    os.close(main_end)
    assert process.wait(60) == 0, process.stderr.read() if process.stderr else ""
    text = re.sub(r"\x1b\[[0-9;?]*[a-zA-Z]", "", shown.decode("utf-8"))
    return text.replace("\r\n", "\n").split("\n")


def _too_wide(lines: list[str], width: int = 80) -> list[str]:
    return [f"{len(line)}: {line}" for line in lines if len(line) > width]


@pytest.mark.parametrize("name", ["valat.tbn", "pagat_ultimo.tbn", "settlement.tbn", "kratzen.tbn"])
def test_the_contract_table_fits_80_columns(name):
    """A Zwanzigerrufen contract table (a `not biddable` reason naming `suit_solo_min_suit_cards`) was printed 182
    columns wide at 80, Kratzen's of five seats 99: too wide with its boxes, a table drops them (the header's rule
    and two spaces between the columns remain) and fits."""
    lines = _on_terminal("table", str(EXAMPLES / name))
    assert not _too_wide(lines), _too_wide(lines)
    assert any("contract" in line and "settlement" in line for line in lines)
    if name == "valat.tbn":  # the reasons below the table, numbered (in their cells they wrapped to 5 lines)
        text = "\n".join(lines)
        assert "suit_solo_min_suit_cards" in text and "│ Normal    │        1 │ -      │     - │     - │ [1]" in text
        assert "[1] not biddable: forehand holds T20, T19, T18, T17 and T16: she must play Solo" in lines


def test_a_contract_table_at_60_columns_puts_its_long_reasons_below_it_as_numbered_notes():
    """At 60 columns a "not biddable" reason folded into a column of 11: fifteen lines for one contract, a table as
    tall as the terminal. The reasons are numbered notes under the table, whose rows are one line each again; piped
    without COLUMNS the table keeps them in their cells."""
    lines = _on_terminal("table", str(EXAMPLES / "valat.tbn"), width=60)
    assert not _too_wide(lines, 60), _too_wide(lines, 60)
    rule = next(index for index, line in enumerate(lines) if line.startswith("─"))
    body = lines[rule + 1:next(index for index, line in enumerate(lines) if line.startswith("[1]"))]
    assert body[0].split() == ["Normal", "1", "-", "-", "-", "[1]", "-"]
    assert len(body) < 2 * 9 and not any("biddable" in line for line in body)  # 9 contracts (was 45 lines)
    assert ([line.split(" ", 1)[0] for line in lines if line.startswith("[")] == ["[1]", "[2]", "[3]"])
    notes = " ".join(" ".join(lines).split())
    assert ("[2] not biddable: a Suit Solo declarer needs at least 5 suit cards, seat 1 holds 3 (variant flag "
            "suit_solo_min_suit_cards)") in notes
    environment = {key: value for key, value in os.environ.items() if key != "COLUMNS"}
    piped = subprocess.run([sys.executable, "-c", "from cli.main import main; main()", "table",
                            str(EXAMPLES / "valat.tbn")], cwd=ROOT, capture_output=True, text=True, timeout=240,
                           env=environment).stdout
    assert "not biddable: forehand holds" in piped and "[1]" not in piped


def test_score_dd_at_80_columns_puts_the_items_reasons_below_the_items_table():
    """``score --dd``'s boxed Items table wrapped its reasons at 80 columns (``Pagat Ultimo announced by the`` /
    ``declarers 1+4: made`` over three lines): they are numbered notes under it, each row one line."""
    lines = _on_terminal("score", str(EXAMPLES / "settlement.tbn"), "--dd")
    assert not _too_wide(lines), _too_wide(lines)
    rows = [line for line in lines if line.startswith("│")]
    assert [row.split("│")[-2].strip() for row in rows[:3]] == ["[1]", "[2]", "[3]"]
    assert "│ Pagat Ultimo (announced) │ 1+4 │ 2+3  │    2 │ 2 │     4 │ [3] │" in lines
    assert lines[lines.index(rows[2]) + 2:lines.index(rows[2]) + 5] == [
        "[1] the declarers took 75 points (45 needed)", "[2] Absolut made silently",
        "[3] Pagat Ultimo announced by the declarers 1+4: made"]


def test_the_postmortem_fits_80_columns():
    """The post-mortem's narrow card tables were 84 (examples/zwanzigerrufen.tbn) and 86 columns wide
    (examples/schafkopf.tbn) at 80, its bonus column holding `schneider_against (handed over)`."""
    for name in ("schafkopf.tbn", "zwanzigerrufen.tbn"):
        lines = _on_terminal("postmortem", str(EXAMPLES / name))
        assert not _too_wide(lines), (name, _too_wide(lines))
        assert any("schneider_against" in line or "mondfang" in line for line in lines)


def test_the_contract_advice_fits_80_columns():
    """The contract advice's table kept its figures on one line each: 127 columns at 80. There they wrap too, and
    its notes (up to 150 characters) wrap at the terminal's width."""
    lines = _on_terminal("analyse", *HAND, "--contract", "all", "-n", "3", "--seed", "1", "-j", "1")
    assert not _too_wide(lines), _too_wide(lines)
    assert any("Rufer G" in line for line in lines) and any("bonuses" in line for line in lines)


def test_the_match_report_fits_80_columns():
    """The match's setup line (133 characters) and its difference line were printed unwrapped on a terminal."""
    lines = _on_terminal("match", "--game", "schafkopf", "--bots", "sampling:2,random,random,random", "-n", "2",
                         "-j", "1", "--seed", "3")
    assert not _too_wide(lines), _too_wide(lines)
    assert any(line.startswith("bots: sampling:2") for line in lines)


def test_the_benchmark_fits_80_columns():
    """The benchmark's table (a `line` column at least 24 wide, its figures unwrapped) was 124 columns at 80."""
    lines = _on_terminal("bench", "--game", "schafkopf", "-n", "1")
    assert not _too_wide(lines), _too_wide(lines)
    assert any("median" in line for line in lines)


def test_a_pipe_keeps_its_tables_whole_and_its_lines_unwrapped():
    """Piped at the pipe width (no COLUMNS), a file keeps its layout: the contract table keeps its boxes (110
    columns) and the match's setup stays one line, for grep."""
    environment = {key: value for key, value in os.environ.items() if key != "COLUMNS"}

    def piped(*args: str) -> str:
        done = subprocess.run([sys.executable, "-c", "from cli.main import main; main()", *args], cwd=ROOT,
                              capture_output=True, text=True, timeout=240, env=environment)
        assert done.returncode == 0, done.stderr
        return done.stdout

    table = piped("table", str(EXAMPLES / "valat.tbn"))
    assert "┃ contract  ┃" in table and max(len(line) for line in table.splitlines()) == 110  # "Suit Solo" is wider
    match = piped("match", "--game", "schafkopf", "--bots", "sampling:2,random,random,random", "-n", "2", "-j",
                  "1", "--seed", "3")
    setup = next(line for line in match.splitlines() if line.startswith("bots: "))
    assert setup.endswith("variant: the game's defaults")


def _words(text: str) -> Counter:
    """The words of a diagram, its box lines and empty suits' dashes aside: what a layout must not lose."""
    return Counter(word for word in text.split() if set(word) - set("+-|"))


@pytest.mark.parametrize("width", [40, 60])
def test_the_hand_diagram_keeps_to_a_narrow_width_and_loses_no_card(width):
    """The diagram was 74 to 80 columns whatever the width asked (``COLUMNS=40 stich show``): a 40-column terminal
    broke every line of the table in two. Where the table does not fit, the trick and the hands are stacked, and
    every word of the 80-column diagram is still there. (The heading and the lines of what the score reads are
    text, left to the terminal to wrap.)"""
    from solver import StichError, read_positions
    from solver.diagram import diagram

    for path in sorted(EXAMPLES.glob("*.tbn")):
        for position in read_positions(path):
            wide, narrow = diagram(position), diagram(position, width=width)
            assert wide == diagram(position, width=80)
            table = [line for line in diagram(position, width=width, heading=False).splitlines()
                     if not line.startswith(("announced: ", "pot: ", "targets: "))]
            assert not _too_wide(table, width), (path.name, _too_wide(table, width))
            assert _words(narrow) == _words(wide), path.name
    for wrong in (0, -40, True, 40.0, "40"):  # a width is a number of columns
        with pytest.raises(StichError, match="the diagram's width is a number of columns"):
            diagram(position, width=wrong)  # type: ignore[arg-type]


def test_show_and_solve_draw_the_diagram_for_a_40_column_terminal():
    """``stich show`` and the diagram above ``solve``'s tables keep to the terminal's 40 columns; piped without
    ``COLUMNS`` the diagram keeps its table, as a pipe keeps a table's layout."""
    shown = _on_terminal("show", str(EXAMPLES / "zwanzigerrufen.tbn"), "-b", "3", width=40)
    assert not _too_wide(shown[1:], 40), _too_wide(shown[1:], 40)  # [0]: the heading, which the terminal wraps
    assert "Seat 4" in shown and "+---------------+" in shown and "| trick 7 of 10 |" in shown
    solved = _on_terminal("solve", str(EXAMPLES / "valat.tbn"), "-o", "valat", width=40)
    diagram_lines = solved[:[line.startswith("whole deal, after 5 tricks") for line in solved].index(True)]
    assert not _too_wide(diagram_lines[1:], 40), _too_wide(diagram_lines[1:], 40)  # [0]: the title, which rich wraps
    assert "Seat 1 (declarer, to play)" in diagram_lines
    piped = subprocess.run([sys.executable, "-c", "from cli.main import main; main()", "show",
                            str(EXAMPLES / "valat.tbn")], cwd=ROOT, capture_output=True, text=True,
                           env={key: value for key, value in os.environ.items() if key != "COLUMNS"})
    assert "Seat 2                   +---------------+            Seat 4" in piped.stdout.splitlines()
