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
from typing import Sequence

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
    """A contract table too wide with its boxes at 80 columns (a Zwanzigerrufen one whose `not biddable` reason names
    `suit_solo_min_suit_cards`: 182 columns; Kratzen's of five seats: 99) drops them (the header's rule and two spaces
    between the columns remain) and fits."""
    lines = _on_terminal("table", str(EXAMPLES / name))
    assert not _too_wide(lines), _too_wide(lines)
    assert any("contract" in line and "settlement" in line for line in lines)
    if name == "valat.tbn":  # the reasons below the table, numbered (in their cells they wrapped to 5 lines)
        text = "\n".join(lines)
        assert "suit_solo_min_suit_cards" in text and "│ Normal    │        1 │ -      │     - │     - │ [1]" in text
        assert "[1] not biddable: forehand holds T20, T19, T18, T17 and T16: she must play Solo" in lines


@pytest.mark.parametrize("width", [124, 125])
def test_a_reason_that_rich_would_wrap_to_three_lines_goes_below_the_table(width):
    """rich wraps at word breaks and keeps ``suit_solo_min_suit_cards`` whole, so a reason of at most twice the column's
    room can still take three lines in its cell (each Suit Solo reason at 124 and 125 columns): the lines are counted as
    rich wraps them, so the reasons are numbered notes; the table has room for the cell to say why the contract has no
    result (``not biddable [2]``), the note holding the rest."""
    lines = _on_terminal("table", str(EXAMPLES / "valat.tbn"), width=width)
    assert not _too_wide(lines, width), _too_wide(lines, width)
    rows = [line for line in lines if line.startswith("│")]
    assert len(rows) == 9 and [row.split("│")[6].strip() for row in rows if "Suit Solo" in row] == [
        "not biddable [2]", "not biddable [3]", "lost", "lost"]
    assert ("[2] a Suit Solo declarer needs at least 5 suit cards, seat 1 holds 3 (variant flag "
            "suit_solo_min_suit_cards)") in lines


def test_a_contract_table_at_60_columns_puts_its_long_reasons_below_it_as_numbered_notes():
    """At 60 columns a "not biddable" reason folded into a column of 11 would take fifteen lines for one contract, a
    table as tall as the terminal: the reasons are numbered notes under the table, whose rows are one line each; piped
    without COLUMNS the table keeps them in their cells."""
    lines = _on_terminal("table", str(EXAMPLES / "valat.tbn"), width=60)
    assert not _too_wide(lines, 60), _too_wide(lines, 60)
    rule = next(index for index, line in enumerate(lines) if line.startswith("─"))
    body = lines[rule + 1:next(index for index, line in enumerate(lines) if line.startswith("[1]"))]
    assert body[0].split() == ["Normal", "1", "-", "-", "-", "[1]", "-"]
    # 9 contracts, one line each ("Suit Solo" too, not wrapped to two where two spaces part the columns)
    assert len(body) == 9 and not any("biddable" in line for line in body)
    assert body[5].split() == ["Suit", "Solo", "1", "-", "-", "-", "[2]", "-"]
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
    """The post-mortem's narrow card tables fit 80 columns, its bonus column holding `schneider_against (handed over)`
    (84 columns wide unfitted for examples/zwanzigerrufen.tbn, 86 for examples/schafkopf.tbn)."""
    for name in ("schafkopf.tbn", "zwanzigerrufen.tbn"):
        lines = _on_terminal("postmortem", str(EXAMPLES / name))
        assert not _too_wide(lines), (name, _too_wide(lines))
        assert any("Schneider" in line or "Mondfang" in line for line in lines)


def test_the_contract_advice_fits_80_columns():
    """The contract advice's table kept its figures on one line each: 127 columns at 80. There they wrap too, and
    its notes (up to 150 characters) wrap at the terminal's width."""
    lines = _on_terminal("analyse", *HAND, "--contract", "all", "-n", "3", "--seed", "1", "-j", "1")
    assert not _too_wide(lines), _too_wide(lines)
    assert any("Rufer G" in line for line in lines) and any("bonuses" in line for line in lines)


def test_the_match_report_fits_80_columns():
    """The match's setup line (133 characters) and its difference line are wrapped to a terminal of 80 columns."""
    lines = _on_terminal("match", "--game", "schafkopf", "--bots", "sampling:2,random,random,random", "-n", "2",
                         "-j", "1", "--seed", "3")
    assert not _too_wide(lines), _too_wide(lines)
    assert any(line.startswith("seats 1-4: sampling:2") for line in lines)


def test_the_benchmark_fits_80_columns():
    """The benchmark's table fits 80 columns, not 124 with a `line` column at least 24 wide and its figures unwrapped.
    """
    lines = _on_terminal("bench", "--game", "schafkopf", "-n", "1")
    assert not _too_wide(lines), _too_wide(lines)
    assert any("median" in line for line in lines)


def test_a_pipe_keeps_its_tables_whole_and_its_lines_unwrapped():
    """Piped at the pipe width (no COLUMNS), a file keeps its layout: the contract table keeps its boxes (110
    columns) and the match's setup stays one line, for grep."""
    table = "\n".join(_piped("table", str(EXAMPLES / "valat.tbn")))
    assert "┃ contract  ┃" in table and max(len(line) for line in table.splitlines()) == 110  # "Suit Solo" is wider
    match = _piped("match", "--game", "schafkopf", "--bots", "sampling:2,random,random,random", "-n", "2", "-j",
                   "1", "--seed", "3")
    setup = next(line for line in match if line.startswith("seats 1-"))
    assert setup.endswith("variant: the game's defaults")


def _words(text: str) -> Counter:
    """The words of a diagram, its box lines and empty suits' dashes aside: what a layout must not lose."""
    return Counter(word for word in text.split() if set(word) - set("+-|"))


@pytest.mark.parametrize("width", [40, 60])
def test_the_hand_diagram_keeps_to_a_narrow_width_and_loses_no_card(width):
    """The diagram keeps to the width asked (``COLUMNS=40 stich show``), not 74 to 80 columns whatever it is, which
    breaks every line of the table in two on a 40-column terminal: where the table does not fit, the trick and the hands
    are stacked, and every word of the 80-column diagram is still there. (The heading and the lines of what the score
    reads are text, left to the terminal to wrap.)"""
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


#: The figures of a pty's tables as the command line writes them (a figure with its interval, a gap with its ``~``,
#: a mean with the words that stand for its interval): read back here only to count them.
_PRINTED_FIGURE = re.compile(r"[+-]?\d[\d,]*\.\d+ (?:±|\+/-) \d[\d,]*\.\d+(?: ~)?|\d+% \(\d+-\d+%\)"
                             r"|[+-]?\d[\d,]*\.\d+ \(all (?:[\d,]+ boards )?alike(?:: no interval)?\)")


def _figures(cells: str) -> Counter:
    """The figures with their intervals in table cells written by the library (``+1.00 ± 0.52``, ``+0.27 ± 1.13 ~``,
    ``80% (63-90%)``, ``-30.00 (all alike)``): the pieces it joins with no-break spaces, as printed."""
    from solver.games.outcome import FIGURE_SPACE

    return Counter(word.replace(FIGURE_SPACE, " ") for word in re.split(r"[ \n]+", cells) if FIGURE_SPACE in word)


def _whole(wanted: Counter, lines: Sequence[str]) -> dict[str, int]:
    """How often each of the ``wanted`` figures stands whole on one of ``lines`` (one split over two is not counted)."""
    return {figure: sum(line.count(figure) for line in lines) for figure in wanted}


def _rendered(render, document: dict, width: int) -> list[str]:
    """``render``'s report of ``document`` on the command's console narrowed to ``width`` columns."""
    from cli.render import stdout_console

    console = stdout_console()
    console.width, console.narrows, console.record = width, True, True
    render(document, console)
    return console.export_text().splitlines()


@pytest.fixture(scope="module")
def advice_documents() -> dict:
    """Contract advice of the README's hand (its Tout rows all alike), card advice mid-play and what each
    announcement adds to a Zwanzigerrufen contract: every advice table with figures and intervals."""
    from solver import read_positions
    from solver.advice import card_advice, contract_advice

    position = list(read_positions(EXAMPLES / "schafkopf.tbn"))[1]  # board 2, a Wenz: seat 1 to move
    return {"contracts": contract_advice("schafkopf", HAND[3], 1, "all", samples=30, seed=1, workers=1).as_dict(),
            "cards": card_advice(position, samples=10, seed=1, workers=1).as_dict(),
            "announcements": contract_advice("zwanzigerrufen", "T21 T20 T19 T15 T1 HK HQ SK SQ CK", 1,
                                             "Solo, Normal T18", samples=10, seed=1, workers=1,
                                             each_announcement=True).as_dict()}


@pytest.mark.parametrize("width", [60, 80, 100, 120])
@pytest.mark.parametrize("kind", ["contracts", "cards", "announcements"])
def test_no_figure_of_the_advice_is_split_from_its_interval(advice_documents, kind, width):
    """At 80 columns the contract advice wrapped ``+1.00 ±`` on one line and ``0.52`` on the next, ``80%`` and
    ``(63-90%)`` likewise. Every figure of the report's cells stands whole on one line at 60 to 120 columns, and
    the report's tables keep to the width: at 60 the bonus columns follow the table as a table of their own, each
    row named by its rank and contract."""
    from cli.analyse import render_advice, render_cards
    from solver.advice import AdviceTable, card_advice_report, contract_advice_report

    document = advice_documents[kind]
    report = (card_advice_report if kind == "cards" else contract_advice_report)(document)
    cells = "\n".join(cell for part in report if isinstance(part, AdviceTable) for row in part.rows for cell in row)
    wanted = _figures(cells)
    assert wanted["-30.00 (all alike)" if kind == "contracts" else "100% (72-100%)" if kind == "cards"
                  else "-12.00 (all alike)"]  # the forms the cells hold
    lines = _rendered(render_cards if kind == "cards" else render_advice, document, width)
    table = [line for line in lines if line.startswith((" ", "│", "┃", "┏", "┡", "└", "─", "┗"))]
    assert not _too_wide(table, width), _too_wide(table, width)
    assert _whole(wanted, lines) == dict(wanted), "\n".join(lines)
    if kind == "contracts" and width == 60:
        # the bonus columns follow as a table of their own; the win stays in the first, beside whole names (the four
        # Touts share rank 7, so the rank column is one digit wide)
        second = lines.index("contracts by seat 1's mean payment: bonuses made and against")
        table = next(part for part in report if isinstance(part, AdviceTable))
        named = [re.match(r" ?(\d+) (.+?) +[-+]?\d+\.\d\d .* (\d+% \(\d+-\d+%\))$", line.rstrip())
                 for line in lines[:second]]
        assert [found.groups() for found in named if found] == [
            (row[0], row[1], row[4].replace("\u00a0", " ")) for row in table.rows]
        assert "3% (1-17%) Laufende" in "\n".join(lines[second:])  # Rufer G's


def test_the_library_says_where_its_figures_are_and_plain_text_prints_plain_spaces(advice_documents):
    """The layout kept a figure whole by reading the cells' wording back with a pattern, which a new wording (the
    match's ``(all 2 boards alike: no interval)``) escaped: the cells' writers join a figure's words themselves, with
    a no-break space, and text that nothing wraps (``print(advice)``) writes plain spaces."""
    from solver.advice import AdviceTable, advice_text, contract_advice_report
    from solver.games.outcome import FIGURE_SPACE, in_table_cell, mean_in_words
    from solver.match import Mean, mean_text

    assert in_table_cell(1.0, 0.48, 1.52) == "+1.00\u00a0±\u00a00.52" and FIGURE_SPACE == "\u00a0"
    assert in_table_cell(1.0, 0.40, 1.52) == "+1.00\u00a0(+0.40\u00a0to\u00a0+1.52)"
    assert in_table_cell(0.8, 0.63, 0.9, percent=True) == "80%\u00a0(63-90%)"
    assert mean_in_words(-30.0, None, None, all_alike="all alike", compact=True) == "-30.00\u00a0(all\u00a0alike)"
    assert mean_in_words(-30.0, None, None, all_alike="all alike") == "-30.00 (all alike)"  # a line's, for grep
    assert mean_text(Mean.of([0.5, 0.5]), compact=True).split(FIGURE_SPACE) == [
        "+0.50", "(all", "2", "boards", "alike:", "no", "interval)"]
    report = contract_advice_report(advice_documents["contracts"])
    table = next(part for part in report if isinstance(part, AdviceTable))
    assert table.name == "contracts by seat 1's mean payment" and table.title.startswith(table.name + " (")
    assert "+0.27\u00a0±\u00a01.13\u00a0~" in [row[3] for row in table.rows]
    text = advice_text(report)
    assert FIGURE_SPACE not in text and "+0.27 ± 1.13 ~" in text and "-30.00 (all alike)" in text


@pytest.mark.parametrize("width", [60, 70, 85, 90, 100])
def test_contract_names_and_the_tilde_stay_whole_where_the_table_has_room(advice_documents, width):
    """From 60 to 100 columns the contract advice's names stay whole where the table fits with them so (at 60, its bonus
    columns moved to a table of their own), not ``Solo Tout`` with its ``E`` on the next line (two contracts to the
    reader), and the ``~`` stays with the gap it marks, not on a line of its own below ``+0.27 ± 1.13``."""
    from cli.analyse import render_advice
    from solver.advice import AdviceTable, contract_advice_report

    document = advice_documents["contracts"]
    table = next(part for part in contract_advice_report(document) if isinstance(part, AdviceTable))
    named = [(row[0], row[1]) for row in table.rows]
    assert ("7", "Solo Tout E") in named and any(row[3].endswith("~") for row in table.rows)
    lines = _rendered(render_advice, document, width)
    first = lines[:lines.index("~ : not told apart from the best at this sample size (its interval behind the best "
                                "holds 0)")]
    for rank, name in named:  # the row's rank, then its whole name, then the next cell (or the line's end)
        assert any(re.match(rf"[│ ]*{rank}[│ ]+{re.escape(name)}(?=[ │]|$)", line) for line in first), (
            name, "\n".join(lines))
    tilded = _figures("\n".join(row[3] for row in table.rows if row[3].endswith("~")))
    assert tilded and _whole(tilded, first) == dict(tilded), "\n".join(lines)


@pytest.mark.parametrize("width", [44, 52])
def test_the_win_column_moves_to_the_bonuses_table_where_that_keeps_the_report_narrowest(advice_documents, width):
    """Below the least width of the advice's first table (58 columns here) its names split whatever moves. Moving its
    win column to the bonuses' table whenever the first table's names would wrap would make the report 67 wide at 44
    columns (58 kept in the first); keeping it in the first wherever the second would split a name would leave it 58
    wide at 52, where the report fits with it moved. The column moves where the second table then fits, or is no wider
    than the first as it stands: at 52 the report fits, at 44 it is 50 wide (its least)."""
    from cli.analyse import render_advice

    lines = _rendered(render_advice, advice_documents["contracts"], width)
    notes = next(at for at, line in enumerate(lines) if line.startswith("~ : "))
    assert max(len(line.rstrip()) for line in lines[:notes]) <= 52, "\n".join(lines)
    second = next(at for at, line in enumerate(lines) if line.startswith("contracts by seat 1's mean payment:"))
    assert " ".join(lines[second:second + 2]).split()[6] == "win,", "\n".join(lines)


def test_a_match_mean_without_interval_stays_whole_in_a_narrow_column():
    """A match's mean whose boards were all alike is written ``+0.50 (all 2 boards alike: no interval)``, which must not
    wrap mid-phrase in a narrow column: its words stand for the interval and stay with the mean."""
    from rich.table import Table

    from cli.render import stdout_console
    from solver.match import Mean, mean_text

    alike = mean_text(Mean.of([0.5, 0.5]), compact=True)
    console = stdout_console()
    console.width, console.narrows, console.record = 44, True, True
    table = Table(title="mean payment per seat and deal")
    for column in ("bot", "seats played", "mean payment (game units)"):
        table.add_column(column)
    table.add_row("sampling:2", "2", alike)
    console.print(table)
    lines = console.export_text().splitlines()
    assert sum("+0.50 (all 2 boards alike: no interval)" in line for line in lines) == 1, "\n".join(lines)


@pytest.mark.parametrize("width", [60, 80])
def test_no_figure_of_a_match_or_a_hands_analysis_is_split_from_its_interval(width):
    """The match's table and a hand's single-dummy tables (bonuses forced, opening cards) on a pty of 60 and 80
    columns: each figure with its interval on one line, the lines within the width."""
    match = _on_terminal("match", "--game", "schafkopf", "--bots", "sampling:2,random,random,random", "-n", "2",
                         "-j", "1", "--seed", "3", width=width)
    rows = [line for line in match if line.startswith("│")]
    assert len(rows) == 2 and all(len(_PRINTED_FIGURE.findall(row)) == 1 for row in rows), "\n".join(match)
    hand = _on_terminal("analyse", *HAND, "--contract", "Rufer G", "-n", "30", "--seed", "1", "-j", "1", width=width)
    rows = [line for line in hand if line.startswith("│")]
    assert len(_PRINTED_FIGURE.findall("\n".join(rows))) == 13, "\n".join(hand)  # 5 bonuses forced, 8 opening cards
    assert not _too_wide(rows, width), _too_wide(rows, width)


class _CountedMeasurement:
    """``cli.render``'s Measurement, counting how often it measures a whole table (rich's own measures, inside the
    rendering, are not counted: they take rich's name)."""

    def __init__(self, real) -> None:
        self.real = real
        self.tables = 0

    def get(self, console, options, renderable):
        from rich.table import Table

        self.tables += isinstance(renderable, Table)
        return self.real.get(console, options, renderable)


def _printed(width: int, narrows: bool, monkeypatch) -> tuple[list[str], int]:
    """A report-like table of twelve columns printed by the data console ``width`` columns wide: its lines and the
    times cli.render measured the whole table."""
    import io

    from rich.table import Table

    from cli import render

    counted = _CountedMeasurement(render.Measurement)
    monkeypatch.setattr(render, "Measurement", counted)
    table = Table(*(f"column {n}" for n in range(1, 13)), title="Per card")
    for row in range(6):
        table.add_row(*(f"{row * n} (handed over)" if n % 5 == 0 else str(row * n) for n in range(1, 13)))
    console = render._DataConsole(file=io.StringIO(), width=width, highlight=False, markup=False, color_system=None)
    console.narrows = narrows
    console.print(table)
    return console.file.getvalue().splitlines(), counted.tables


@pytest.mark.parametrize("width, narrows", [(200, False), (80, True), (60, True)])
def test_the_data_console_measures_a_table_once_before_rendering(width, narrows, monkeypatch):
    """Measuring a whole table measures every cell (rich's measuring is the dearest part of printing a report's
    tables), and the data console needs one measure for the table's least width and its columns' room: it measures
    the table once, and again only after its boxes were dropped (:func:`cli.render._compact`, which measures what
    it tries), before rich's rendering measures it. The table printed keeps every value, at its least width where
    even folded it is too wide."""
    lines, measured = _printed(width, narrows, monkeypatch)
    assert max(map(len, lines)) == (151 if width == 200 else 85), lines  # natural and boxed; least, wrapped
    text = " ".join(lines)
    for row in range(6):
        assert f"{row * 11}" in text and f"{row * 10}" in text
    assert "handed" in text and "Per card" in text
    # the boxes are dropped only where the boxed table does not fit: _compact measures its least width once (here
    # even that is too wide: no spaces), and print measures the compacted table once more
    assert measured == (1 if width == 200 else 3)


def _piped(*args: str, columns: int | None = None) -> list[str]:
    """``stich ARGS``' stdout piped without ``COLUMNS`` (a file's layout, PIPE_WIDTH wide), line by line; with
    ``columns``, piped with that ``COLUMNS``."""
    environment = {key: value for key, value in os.environ.items() if key != "COLUMNS"}
    if columns is not None:
        environment["COLUMNS"] = str(columns)
    done = subprocess.run([sys.executable, "-c", "from cli.main import main; main()", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=240, env=environment)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


@pytest.mark.parametrize("width", [40, 60])
def test_solve_fits_a_narrow_terminal_its_headers_shortened_only_where_it_needs(width):
    """``COLUMNS=40 stich solve examples/zwanzigerrufen.tbn --cards``'s value table fits, though its one-word headers
    (``objective for target already rest total result``) are the widest words of their columns (46 columns wide with
    them, 47 for a seat's objective): where a table does not fit even without its boxes it takes shorter headers, one by
    one until it fits; at 60 it fits with its own, and a pipe keeps its boxed table."""
    for name, args in (("zwanzigerrufen.tbn", ("--cards",)), ("valat.tbn", ("--cards", "--line")),
                       ("kratzen.tbn", ("--cards",))):
        lines = _on_terminal("solve", str(EXAMPLES / name), *args, width=width)
        assert not _too_wide(lines, width), (name, _too_wide(lines, width))
        headers = [lines[at + 1].split() for at, line in enumerate(lines) if line.startswith("Double-dummy value")]
        assert headers, name
        if width == 40:
            assert all(header[:5] == ["goal", "for", "needs", "taken", "rest"] for header in headers), (name, headers)
        else:
            assert all(header == ["objective", "for", "target", "already", "rest", "total", "result"]
                       for header in headers), (name, headers)
    piped = _piped("solve", str(EXAMPLES / "zwanzigerrufen.tbn"), "--cards")
    at = piped.index("Double-dummy value" + " " * 45)
    assert piped[at + 1:at + 7] == [
        "┏━━━━━━━━━━━┳━━━━━┳━━━━━━━━┳━━━━━━━━━┳━━━━━━┳━━━━━━━┳━━━━━━━━━┓",
        "┃ objective ┃ for ┃ target ┃ already ┃ rest ┃ total ┃ result  ┃",
        "┡━━━━━━━━━━━╇━━━━━╇━━━━━━━━╇━━━━━━━━━╇━━━━━━╇━━━━━━━╇━━━━━━━━━┩",
        "│ Score     │ 1+2 │        │         │      │    +4 │         │",
        "│ Points    │ 1+2 │        │      32 │   32 │    64 │ 3+4: 24 │",
        "└───────────┴─────┴────────┴─────────┴──────┴───────┴─────────┘"]


@pytest.mark.parametrize("width", [40, 60])
def test_the_contract_table_fits_a_narrow_terminal_with_shorter_headers(width):
    """At 40 columns the contract table's full headers (``contract declarer side value needs result settlement``) make
    it 52 wide, a Kratzen one of three seats 50, of four 43, and at 60 one of six seats 65: they take ``game``, ``by``,
    ``has``, a hyphened ``settle-``/``ment`` and ``s1`` for ``seat 1`` where they need them, and fit, at 40 but a
    Kratzen table of five seats and the one-word contract ``Seven-Muss`` (48, docs/cli.md). Piped, the boxed table keeps
    its headers."""
    for name in ("settlement.tbn", "valat.tbn", "kratzen.tbn"):
        lines = _on_terminal("table", str(EXAMPLES / name), width=width)
        tables = [at for at, line in enumerate(lines) if line.startswith("Double-dummy contract table")]
        for at in tables:
            end = next(index for index in range(at + 1, len(lines)) if not lines[index].strip()
                       or lines[index].startswith(("each seat:", "settlement:", "[1]")))
            if width == 60 or not any("Seven-Muss" in line for line in lines[at:end]):
                assert not _too_wide(lines[at:end], width), (name, _too_wide(lines[at:end], width))
            if name == "kratzen.tbn" and width == 40:
                rule = next(index for index in range(at, end) if lines[index].startswith("─"))
                header = lines[rule - 1].split()  # three seats fit with their own headers, four or more take s1
                assert header[2:5] == ["1", "2", "3"] and "4" not in header or "s4" in header, lines[at:rule]
        if name == "settlement.tbn":
            rule = next(index for index in range(tables[0], len(lines)) if lines[index].startswith("─"))
            header = lines[rule - 1].split()
            assert header == (["game", "by", "side", "has", "needs", "result", "ment"] if width == 40 else
                              ["contract", "declarer", "side", "value", "needs", "result", "settlement"]), header
    piped = _piped("table", str(EXAMPLES / "settlement.tbn"))
    assert piped[4] == ("┃ contract   ┃ declarer ┃ side   ┃ value ┃ needs ┃ result                                 "
                        "      ┃ settlement ┃")


def test_the_postmortem_fits_60_columns_with_shorter_headers():
    """At 60 columns the post-mortem's full headers (``before``, ``after``, ``cost (points)`` and a ``mistake`` beside
    ``schwarz``; per seat ``inaccuracies``) make its narrow card table 64 to 68 wide and its per-seat table 65: they
    take ``from``, ``to``, ``(pts)`` and ``inacc.`` where they need them. Piped, the boxed tables keep their headers."""
    for name in ("zwanzigerrufen.tbn", "schafkopf.tbn", "settlement.tbn", "kratzen.tbn"):
        lines = _on_terminal("postmortem", str(EXAMPLES / name), width=60)
        assert not _too_wide(lines, 60), (name, _too_wide(lines, 60))
    cards = next(line for line in lines if line.lstrip().startswith("# trick"))
    assert cards.split()[:6] == ["#", "trick", "seat", "card", "before", "after"]  # Kratzen's fits with its own
    lines = _on_terminal("postmortem", str(EXAMPLES / "schafkopf.tbn"), "-b", "1", width=60)
    assert next(line for line in lines if line.lstrip().startswith("# trick")).split() == [
        "#", "trick", "seat", "card", "from", "to", "cost", "(pts)", "grade", "better", "lost"]
    assert any(line.split()[:3] == ["seat", "cards", "inacc."] for line in lines)
    piped = _piped("postmortem", str(EXAMPLES / "schafkopf.tbn"), "-b", "1")
    assert ("┃  # ┃ trick ┃ seat ┃ card ┃ before ┃ best ┃ after ┃ cost ┃ (points) ┃ grade   ┃ better            ┃ "
            "lost    ┃") in piped
    assert ("┃ seat ┃ cards ┃ inaccuracies ┃ mistakes ┃ blunders ┃ cost (game units) ┃ cost (points) ┃ bonuses lost ┃"
            in piped)


def test_the_postmortem_shortens_before_and_after_together():
    """At 60 columns Schafkopf's board 3 would fit with ``from`` for ``before`` alone, its header then reading ``from
    after`` (another pair than ``before after``): the two are shortened together, or neither."""
    lines = _on_terminal("postmortem", str(EXAMPLES / "schafkopf.tbn"), "-b", "3", width=60)
    assert not _too_wide(lines, 60), _too_wide(lines, 60)
    header = next(line for line in lines if line.lstrip().startswith("# trick")).split()
    assert header[4:6] == ["from", "to"], header


def test_the_postmortem_puts_long_bonuses_lost_below_its_tables_as_numbered_notes():
    """At 60 columns the ``lost`` column does not fold its bonuses mid-word (``valat_a``/``gainst``,
    ``pagat_u``/``ltimo``): where one would not stay readable in its cell, the bonuses go below the table as numbered
    notes, whole; a pipe without ``COLUMNS`` keeps them in their boxed cells."""
    lost = "Valat against + Pagat Ultimo together (handed over)"
    lines = _on_terminal("postmortem", str(EXAMPLES / "zwanzigerrufen.tbn"), "-r", "6", width=60)
    assert not _too_wide(lines, 60), _too_wide(lines, 60)
    assert lines.count(f"[1] {lost}") == 2, lines  # under the card table and under the per-seat one
    cards = next(at for at, line in enumerate(lines) if line.lstrip().startswith("# trick"))
    assert lines[cards + 2].split()[-2:] == ["TS", "[1]"], lines[cards:cards + 4]
    assert not [line for line in lines if line.rstrip().endswith(("Vala", "Pagat U", "Ulti", "toge"))]
    piped = _piped("postmortem", str(EXAMPLES / "zwanzigerrufen.tbn"), "-r", "6")
    assert any(line.endswith("│ Valat against +     │") for line in piped), piped
    assert not any(line.startswith("[1]") for line in piped)


def _lost_cells(lines: list[str]) -> list[list[str]]:
    """The lines of each row's last column (``lost``, ``bonuses lost``) in the post-mortem's narrow tables: a row
    starts with its number in the first column, its wrapped cells go on in lines blank there."""
    cells = []
    for rule in [index for index, line in enumerate(lines) if line.startswith("─")]:
        header = lines[rule - 1].rstrip()
        first, last = len(header) - len(header.lstrip()) + len(header.split()[0]), header.rfind(" ") + 1
        for line in lines[rule + 1:]:
            if not line.strip() or (line[:first].strip() and not line[:first].strip().isdigit()):
                break  # the table's end: a blank line, a note, the text under it
            if line[:first].strip():
                cells.append([])
            if line[last:].strip():
                cells[-1].append(line[last:].strip())
    return cells


@pytest.mark.parametrize("width", [60, 80])
def test_no_bonuses_lost_cell_of_the_postmortem_takes_more_than_two_lines(width):
    """At 80 columns board 3's per-seat table does not print seat 4's ``valat (handed over)`` on three lines (``valat``,
    ``(handed``, ``over)``), nor board 7's seat 2: the room a column has is rich's own layout of the table (not all the
    slack assumed given to it, where rich shares it with the other wrapping columns), so such a text goes below the
    table as a note."""
    lines = _on_terminal("postmortem", str(EXAMPLES / "zwanzigerrufen.tbn"), width=width)
    assert not _too_wide(lines, width), _too_wide(lines, width)
    cells = _lost_cells(lines)
    assert len(cells) > 100 and any(cells) and not [cell for cell in cells if len(cell) > 2], [
        cell for cell in cells if len(cell) > 2]
    assert "[1] Valat (handed over)" in lines


@pytest.mark.parametrize("width", [40, 60, 80])
def test_a_bonuses_lost_text_met_again_takes_the_number_of_its_note(width):
    """Cells of the same text share one note: board 7's card table numbers its three bonuses lost with two notes, not
    ``[1] valat``, ``[2] valat (handed over)``, ``[3] valat``, the same text twice under the table."""
    lines = _on_terminal("postmortem", str(EXAMPLES / "zwanzigerrufen.tbn"), "-b", "7", width=width)
    notes = [line for line in lines if line.startswith("[")]
    assert notes == ["[1] Valat", "[2] Valat (handed over)"] * 2, notes  # the card table's, the per-seat table's
    rule = next(index for index, line in enumerate(lines) if line.startswith("─"))
    numbers = [line.split()[-1] for line in lines[rule + 1:lines.index(notes[0])] if line.rstrip().endswith("]")]
    assert numbers == ["[1]", "[2]", "[1]"], numbers


def test_cell_notes_give_a_text_met_again_the_number_it_has():
    """:class:`cli.render.CellNotes` numbers each text once: a contract's reason, kept words and all, takes the
    number of the same rest where it came before."""
    from cli.render import CellNotes

    notes = CellNotes(True)
    assert [notes.cell("valat", 9), notes.cell("valat (handed over)", 9), notes.cell("valat", 9)] == [
        "[1]", "[2]", "[1]"]
    assert notes.notes == ["valat", "valat (handed over)"]
    reasons = CellNotes(True)
    reason = "not biddable: forehand holds no trump"
    assert [reasons.cell(reason, 5, keep="not biddable"), reasons.cell(reason, 5, keep="not biddable")] == [
        "not biddable [1]", "not biddable [1]"]
    assert reasons.notes == ["forehand holds no trump"]
    assert CellNotes(False).cell(reason, 5) == reason


def test_a_short_header_is_taken_only_where_it_narrows_the_table_and_names_no_other_column():
    """:func:`cli.render.short_headers` on a made-up table too wide for 30 columns: ``from`` for ``beforehand`` is
    left out (another column is ``from``), ``before`` and ``after`` are shortened together (``post`` alone narrows
    nothing: its cells are wider), and ``w`` for ``wide header`` is left out, its cells as wide as the header. At 200
    the table keeps its headers and boxes."""
    import io

    from rich.table import Table

    from cli import render

    def header(width: int) -> list[str]:
        table = render.short_headers(Table("beforehand", "from", "before", "after", "wide header"), {
            "beforehand": "from", ("before", "after"): ("pre", "post"), "wide header": "w"})
        table.add_row("1", "2", "3", "123456", "abcdefghijkl")
        console = render._DataConsole(file=io.StringIO(), width=width, highlight=False, markup=False,
                                      color_system=None)
        console.print(table)
        return [column.header for column in table.columns]

    assert header(30) == ["beforehand", "from", "pre", "post", "wide header"]
    assert header(200) == ["beforehand", "from", "before", "after", "wide header"]


@pytest.mark.parametrize("width", [40, 60])
def test_titles_and_a_trees_summary_wrap_at_words_on_a_narrow_terminal(width):
    """``stich show``'s titles, the diagram's ``pot: ...`` line and the tree's first line wrap at words on a terminal,
    every word kept (as the same pipe with ``COLUMNS`` has them, a line of text unwrapped), not written whole and broken
    mid-word by the terminal (``show`` is 143 columns wide at 40, a Kratzen pot line 72); piped, each stays one line."""
    for args in (("show", "examples/zwanzigerrufen.tbn", "-b", "2"), ("show", "examples/kratzen.tbn"),
                 ("solve", "examples/kratzen.tbn", "-r", "1"),
                 ("tree", "examples/zwanzigerrufen.tbn", "-b", "1", "-d", "2")):
        lines = _on_terminal(*args, width=width)
        assert not _too_wide(lines, width), (args, _too_wide(lines, width))
        unwrapped = _piped(*args, columns=width)
        assert [line for line in unwrapped if len(line) > width], args  # a line the terminal would have broken
        assert _words("\n".join(lines)) == _words("\n".join(unwrapped)), args
    assert _piped("tree", "examples/zwanzigerrufen.tbn", "-b", "1", "-d", "2")[0] == (
        "Zwanzigerrufen Normal T20: strategy tree of 2 cards after 24 cards played, 11 nodes")
    assert "pot: 0 chips, tricks and targets only" in _piped(
        "show", "examples/kratzen.tbn", "-r", "1")


@pytest.mark.parametrize("width, measured", [(200, 1), (60, 2)])
def test_a_table_printed_where_it_fits_is_measured_once(width, measured, monkeypatch):
    """:func:`cli.render.print_fitting` (the post-mortem's boxed table where it fits, else its narrow one) measures
    the boxed table once, for the choice and for the print: 151 columns wide, it is printed whole at 200; at 60 the
    narrow table is printed instead, the boxed one measured once to refuse it and the narrow one once by print."""
    import io

    from rich.table import Table

    from cli import render

    counted = _CountedMeasurement(render.Measurement)
    monkeypatch.setattr(render, "Measurement", counted)
    boxed = Table(*(f"column {n}" for n in range(1, 13)), title="Per card")
    for row in range(6):
        boxed.add_row(*(f"{row * n} (handed over)" if n % 5 == 0 else str(row * n) for n in range(1, 13)))
    narrow = Table("card", "lost", title="Narrow", box=None)
    narrow.add_row("EA", "2")
    console = render._DataConsole(file=io.StringIO(), width=width, highlight=False, markup=False, color_system=None)
    render.print_fitting(console, lambda short, notes: narrow if short else boxed)
    lines = console.file.getvalue().splitlines()
    assert lines[0].strip() == ("Per card" if width == 200 else "Narrow")
    assert max(map(len, lines)) == (151 if width == 200 else 12), lines
    assert counted.tables == measured


def test_a_rich_without_the_layout_steps_the_notes_read_moves_the_long_texts_below(monkeypatch):
    """:func:`cli.render._rich_column_widths` reads rich's own column widths by private steps of its table layout;
    where a rich to come lacks them, it says so (None) and the long texts go below the table as notes rather than
    the command failing."""
    import io

    from rich.table import Table

    from cli import render

    def make(notes):
        table = Table("card", "lost", box=None)
        table.add_row("EA", notes.cell("valat_against + pagat_ultimo together (handed over)", 1))
        return table

    console = render._DataConsole(file=io.StringIO(), width=40, highlight=False, markup=False, color_system=None)
    table, notes = render.noted_table(console, make, wrapping=True)
    assert not notes.moved  # rich's layout leaves the text room for two lines at 40
    class WithoutTheSteps(Table):
        _calculate_column_widths = None

    console_of_40 = render._DataConsole(file=io.StringIO(), width=40)
    assert render._rich_column_widths(console_of_40, WithoutTheSteps("card", "lost")) is None
    assert render._rich_column_widths(console_of_40, Table("card", "lost")) is not None
    monkeypatch.setattr(render, "_rich_column_widths", lambda console, table: None)
    table, notes = render.noted_table(console, make, wrapping=True)
    assert notes.moved and notes.notes == ["valat_against + pagat_ultimo together (handed over)"]


def test_kratzen_by_the_score_fits_60_columns_with_no_figure_or_grade_folded(tmp_path):
    """Kratzen graded by the score has one more column, ``cost (tricks)``: at 60 columns its card table folded
    ``-14`` into ``-1``/``4`` and ``blunder`` into ``blund``/``er`` (its least width 63). The column takes ``(tr.)``
    where it needs it, as ``(pts)`` for card points. Board 1 of examples/kratzen.tbn, seat 1 leading trumps into
    seat 3's SK: the attacker's payment falls from 4 to -14 chips, and seat 3's EK lets it back up."""
    record = tmp_path / "kratzen.tbn"
    record.write_text('[Game "Kratzen"]\n[Seats "3"]\n[Pot "8"]\n[Deal "1: EO E9 SU SZ / GA HA HU S7 / EK G8 HO SK"]\n'
                      '[Contract "Trump S"]\n[Declarer "1"]\n[Play "1"]\nSU S7 SK\nEK EO HU\nHO SZ HA\nE9 GA G8\n*\n',
                      encoding="utf-8")
    lines = _on_terminal("postmortem", "--objective", "score", str(record), width=60)
    assert not _too_wide(lines, 60), _too_wide(lines, 60)
    header = next(line for line in lines if line.lstrip().startswith("# trick")).split()
    assert header[4:8] == ["from", "to", "cost", "(tr.)"], header
    rows = {line.split()[0]: line.split() for line in lines if line[:2].strip().isdigit() and len(line.split()) > 8}
    assert rows["1"][3:] == ["SU", "4", "-14", "18", "1", "blunder", "EO", "E9", "yes"]
    assert rows["4"][3:] == ["EK", "-14", "4", "18", "0", "blunder", "G8", "HO"]


def test_a_number_alone_in_a_cell_never_folds():
    """Folding a too-wide table's longest words to fit a narrow terminal keeps a number whole, as a figure with its
    interval is, a word beside it folding (``blunder``), or the table printed at its least width: not a payment ``+156``
    as ``+15`` over ``6``, nor a value ``-14`` as ``-1`` over ``4``, read as other numbers."""
    import io

    from rich.table import Table

    from cli import render

    for width in (20, 18, 17):
        table = Table("#", "to", "grade", "better")
        table.add_row("1", "-14", "blunder", "EO E9")
        table.add_row("2", "+156", "ok", "")
        console = render._DataConsole(file=io.StringIO(), width=width, highlight=False, markup=False,
                                      color_system=None)
        console.print(table)
        cells = [line.split() for line in console.file.getvalue().splitlines()]
        assert ["1", "-14"] == cells[2][:2] and ["2", "+156", "ok"] in cells, (width, cells)
