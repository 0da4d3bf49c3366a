"""The API's results print for people: a card in a result shows its name, not the engine's pack index."""

from __future__ import annotations

import copy
import dataclasses
import enum
import json
import pickle
from html.parser import HTMLParser
from pathlib import Path

import pytest

import solver
from solver.bots import RandomBot
from solver.search.results import CardIndex, CardValue

VALAT = Path(__file__).resolve().parents[1] / "examples" / "valat.tbn"


@pytest.fixture(scope="module")
def valat():
    return next(solver.read_positions(VALAT))


@pytest.mark.parametrize("how", [{"objective": "valat"}, {"objective": "valat", "reference_solver": True},
                                 {"objective": "score"}])
def test_card_values_print_by_name_and_stay_pack_indices(valat, how):
    """``print(result.card_values)`` names each card (a CardIndex), not ``CardValue(card=5, value=5)``, a number the
    reader would look up in the pack; it stays the int a script keys, plays and writes."""
    result = solver.solve(valat, how.pop("objective"), cards=True, **how)
    first = result.card_values[0]
    assert repr(first).startswith("CardValue(card=T17, value=")
    assert "card=5" not in repr(result.card_values)
    assert first.card == 5 and isinstance(first.card, int) and first.card.card == "T17"
    assert str(first.card) == f"{first.card}" == "5"  # str and f-strings keep the digits, as an IntEnum's do
    assert dict(result.card_values)[5] == first.value  # keyed by pack indices, as docs/api.md says
    assert json.loads(json.dumps(result.card_values))[0] == [5, first.value]
    assert valat.play(first.card).played[-1] == 5
    copy = pickle.loads(pickle.dumps(result))
    assert copy == result and repr(copy.card_values) == repr(result.card_values)


def test_a_solve_result_prints_under_the_heading_of_what_was_solved_as_jupyter_shows_it():
    """``print(solve(...))`` and Jupyter's view both begin with the position's diagram heading, saying which deal and
    contract, then the objective, not with a bare value."""
    position = next(solver.read_positions(VALAT.parent / "schafkopf.tbn"))
    result = solver.solve(position, "game", cards=True)
    lines = str(result).splitlines()
    assert lines[0] == result.heading == "board 1: Schafkopf Rufer G, declarer 1 (declarers 1+3); rules: " \
        "runaway_count_at=deal"
    assert lines[1] == "Game for 1+3: 105 (28 won already + 77 from the rest); needs 61: yes"  # as stich solve names it
    assert f'<p style="font-weight:bold">{result.heading}</p><p>{lines[1]}</p>' in result._repr_html_()
    untitled = dataclasses.replace(result, heading="")  # a result made by hand: its answer alone
    assert str(untitled).splitlines()[0] == lines[1]


def test_a_result_made_without_a_pack_keeps_plain_indices():
    made = solver.SolveResult(objective=solver.Objective("points", frozenset({0}), "points"), achieved=0, future=3,
                              card_values=(CardValue(4, 3),))
    assert repr(made.card_values) == "(CardValue(card=4, value=3),)"
    assert not isinstance(made.card_values[0].card, CardIndex)


def test_a_table_entry_prints_its_row_as_stich_table_does():
    """README loops ``print(entry)`` over a contract table: each prints the row ``stich table`` prints, each cell after
    its column (one function builds both: solver.analysis.table_cells), not the dataclass dump
    ``TableEntry(contract='Normal T20', declarer=1, ...)``."""
    position = next(solver.read_positions(VALAT.parent / "zwanzigerrufen.tbn"))
    first = solver.contract_table(position, settlement=True)[0]
    assert str(first) == "Normal T20  declarer 1  side 1+2  value 67  needs 45  won  settlement +4"
    assert repr(first).startswith("TableEntry(contract='Normal T20', declarer=1,")
    kratzen = next(solver.read_positions(VALAT.parent / "kratzen.tbn"))
    assert str(solver.contract_table(kratzen)[0]) == (
        "Trump E  attacker 1  seat 1 2/2 ✓  seat 2 0/1 ✗  seat 3 2/1 ✓  won")
    schafkopf = next(solver.read_positions(VALAT.parent / "schafkopf.tbn"))
    assert "Wenz Tout  declarer 1  side seat 1  value 1 trick  needs 8  lost" in map(str,
                                                                                    solver.contract_table(schafkopf))
    refused = solver.analysis.TableEntry("Solo", 2, biddable=False, reason="seat 2 holds T20..T16: she must play Solo")
    assert str(refused) == "Solo  declarer 2  not biddable: seat 2 holds T20..T16: she must play Solo"


def test_an_analysis_of_another_seats_contract_names_the_declarer():
    """``--seat 1 --declarer 2`` is not headed ``Schafkopf Solo E, seat 1: ...``, which reads as seat 1's Solo (its
    figures are the defence's): the declaring seat is said where it is not the hand's, in print and the command."""
    from typer.testing import CliRunner

    from cli.main import app

    analysis = solver.analyse_hand("kratzen", "EO E9 SU SZ", 1, "Trump E", declarer=2, seats=3, samples=2, workers=1)
    assert str(analysis).splitlines()[0] == "Kratzen Trump E (attacker seat 2), seat 1: EO E9 SU SZ"
    command = ["analyse", "--game", "schafkopf", "--hand", "EO GO HU SU HA HZ EA E9", "--seat", "1", "--contract",
               "Solo E", "--declarer", "2", "-n", "1", "-j", "1"]
    assert CliRunner().invoke(app, command).stdout.splitlines()[0] == \
        "Schafkopf Solo E (declarer seat 2), seat 1: EA EO E9 GO HA HZ HU SU"
    assert CliRunner().invoke(app, [*command, "--cards"]).stdout.splitlines()[0] == \
        "Schafkopf, Solo E (declarer seat 2): seat 1 to move after 0 cards played, holding EA EO E9 GO HA HZ HU SU"


def test_a_hand_analysis_prints_its_report_as_stich_analyse_does():
    """``print(analyse_hand(...))`` prints the report ``stich analyse`` prints (its lines and tables are built by one
    set of functions in solver.sampling), without the colours, not the dataclass dump of every field."""
    from typer.testing import CliRunner

    from cli.main import app

    analysis = solver.analyse_hand("kratzen", "EO E9 SU SZ", 1, "Trump E", samples=4, workers=1, pot=4)
    text = str(analysis)
    assert text.splitlines()[:3] == ["Kratzen Trump E, seat 1: EO E9 SU SZ", "4 samples (seed 1); scored with pot 4",
                                     "mean payment +2.25 chips (95%: +1.45 to +3.05), the attacker's own, "
                                     "from and into the pot"]
    assert ("targets forced (brackets: 95% intervals)\ntarget           whose     forced\n"
            "Tricks (seat 1)  the hand  100%") in text
    assert "opening cards (brackets: 95% intervals)\ncard  mean payment  win" in text
    # its repr says what it is and its two headline figures, the mean tricks left to the report
    assert repr(analysis) == "<HandAnalysis Kratzen Trump E, seat 1, 4 samples: win 100.0%, mean payment +2.25>"
    shown = CliRunner().invoke(app, ["analyse", "--game", "kratzen", "--hand", "EO E9 SU SZ", "--seat", "1",
                                     "--contract", "Trump E", "-n", "4", "-j", "1", "--pot", "4"]).stdout
    for line in text.splitlines()[:5]:  # the lines above the tables, word for word
        assert line in shown


def test_the_reports_say_targets_where_each_bonus_is_a_seat_s_own_not_where_there_is_a_pot(monkeypatch):
    """Every report (analyse's table, a printed DD settlement, ``stich check``, ``stich score --dd``, the post-mortem
    and the notebook) says "targets" and "attacker" where each bonus is a seat's own target (RULES.md 3.3), not where
    the game has a pot (``has_pot``): one game has both, so the two agree only by chance."""
    from solver.games.kratzen import Kratzen
    from solver.sampling import bonus_table

    document = solver.analyse_hand("kratzen", "EO E9 SU SZ", 1, "Trump E", samples=2, workers=1, pot=4).as_dict()
    monkeypatch.setattr(Kratzen, "has_pot", False)  # a Kratzen paid without a pot still has each seat's target
    title, columns, _ = bonus_table(document)
    assert (title, columns[0]) == ("targets forced (brackets: 95% intervals)", "target")
    monkeypatch.setattr(Kratzen, "has_pot", True)
    by_side = document | {"bonuses": [bonus | {"seat": None} for bonus in document["bonuses"]]}
    title, columns, _ = bonus_table(by_side)  # a side's bonuses, pot or not
    assert (title, columns[0]) == ("bonuses forced (brackets: 95% intervals)", "item")
    # print(dd_settlement(...)) names the attacker alone where every seat plays for itself, as stich score --dd
    # does, not wherever there is a pot (pot is not None)
    settled = solver.dd_settlement(next(solver.read_positions(VALAT.parent / "kratzen.tbn")))
    assert settled.every_seat_for_itself and "double dummy: attacker seat 1 " in str(settled)
    assert "double dummy: attacker seat 1 " in str(dataclasses.replace(settled, pot=None))
    assert "every seat playing for tricks" in str(dataclasses.replace(settled, pot=None))
    side = dataclasses.replace(settled, every_seat_for_itself=False, pot=4)
    assert "double dummy: declarer seat " in str(side) and "both sides playing for tricks" in str(side)


def test_a_settlement_line_and_an_engine_s_card_values_print_by_name(valat):
    """``dd_settlement(...)``'s line and ``EngineSolver.card_values`` name their cards as ``solve(..., cards=True)``
    does (CardIndex, not ``(3, 32, 2, ...)`` or ``CardValue(card=5, value=61)``), still the ints a script keys and
    writes (the JSON the same)."""
    kratzen = next(solver.read_positions(VALAT.parent / "kratzen.tbn"))
    settled = solver.dd_settlement(kratzen)
    assert repr(settled.line).startswith("(EO, S7, EK, GA, ") and repr(settled.points_line).startswith("(EO, S7, ")
    assert [repr(card) for card in settled.line] == list(settled.line_names)
    assert json.loads(json.dumps(list(settled.line)))[:3] == [3, 32, 2] == [int(card) for card in settled.line[:3]]
    assert settled.as_dict()["line"][:3] == ["EO", "S7", "EK"] and pickle.loads(pickle.dumps(settled)) == settled
    values = solver.EngineSolver(16).card_values(valat.state, valat.objective("points"))
    assert repr(values[0]) == "CardValue(card=T17, value=61)" and values[0].card == 5
    assert values == list(solver.solve(valat, "points", cards=True).card_values)


def test_a_mean_of_tricks_and_a_share_round_half_up_as_a_mean_payment_does():
    """Four samples of 3, 3, 2 and 1 tricks make a mean of exactly 2.25, which the report writes 2.3, rounded half up as
    its mean payment of +2.25 is (not 2.2, half to even beside half up); a share of 1 in 16 reads 6.3%. Every figure
    with fixed decimals rounds half up (solver.games.outcome.decimal_text)."""
    from solver.advice import behind_note
    from solver.games.outcome import decimal_text, percent_text
    from solver.sampling import share

    analysis = solver.analyse_hand("kratzen", "EO E9 SU SZ", 1, "Trump E", samples=4, workers=1, pot=4)
    assert analysis.mean == 2.25
    text = str(analysis).splitlines()
    assert ("win (attacker seat 1 makes its own trick target): 100.0% (95%: 51.0% to 100.0%), mean tricks 2.3 (95%: "
            "1.5 to 3.0), each sample played double dummy") in text
    assert text[4].endswith("SU, mean payment +2.25, win 100.0% (95%: 51.0% to 100.0%), mean tricks 2.3")
    assert "SU    +2.25         100% (51-100%)  2.3" in text
    assert (share(1 / 16, None), share(0.5, (1 / 16, 0.9375)), share(1 / 16, (0, 0.125), compact=True)) == (
        "6.3%", "50.0% (95%: 6.3% to 93.8%)", "6%\u00a0(0-13%)")
    assert [decimal_text(value, 1) for value in (2.25, -2.25, 0.04, -0.04)] == ["2.3", "-2.3", "0.0", "0.0"]
    assert percent_text(0.99375, 2) == "99.38" and percent_text(0.5) == "50"
    assert "(Bonferroni: each interval 99.38%)" in behind_note({"behind_comparisons": 8, "behind_confidence": 0.99375},
                                                               "contracts")


def test_a_zwanzigerrufen_analysis_prints_its_cards_as_the_command_does():
    """``print(analysis)`` writes ``♠K ♥K``, as ``stich analyse`` and the hand diagram do, not the French cards ``SK
    HK``."""
    analysis = solver.analyse_hand("zwanzigerrufen", "T21 T20 T19 T18 T15 T14 T13 T12 HK SK", 1, "Normal",
                                   samples=2, workers=1)
    text = str(analysis)
    assert text.splitlines()[0] == "Zwanzigerrufen Normal, seat 1: T21 T20 T19 T18 T15 T14 T13 T12 ♠K ♥K"
    # on 2 samples nine cards tie with the first in pack order, T20, which says so (tests/test_sampling.py)
    assert ("best single opening card over all samples, tied on the exact figures with 8 others (the table below): "
            "T20, " in text)
    table = text.split("opening cards")[1]
    assert "\nT20 " in table and "\n♠K " in table and "\n♥K " in table


class _Cells(HTMLParser):
    """The text of every cell of an HTML rendering, row by row (and that it parses)."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.paragraphs: list[str] = []
        self._text: list[str] | None = None
        self._in_p = False
        self.feed(html)
        self.close()

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self._text = []
        elif tag == "p":
            self._in_p, self._text = True, []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._text is not None:  # a figure's no-break spaces (whole in a notebook) as read
            self.rows[-1].append("".join(self._text).replace("\u00a0", " "))
            self._text = None
        elif tag == "p" and self._in_p:
            self.paragraphs.append("".join(self._text or []))
            self._in_p, self._text = False, None

    def handle_data(self, data):
        if self._text is not None:
            self._text.append(data)


def cells(html: str) -> list[list[str]]:
    return _Cells(html).rows


def test_a_contract_table_renders_in_jupyter_as_stich_table_prints_it():
    """``contract_table`` gives a ContractTable (a list of its entries) that prints under the command's title a row an
    entry and renders in a notebook as the command's table under that title, not as the list's repr, a dataclass dump
    a row."""
    position = next(solver.read_positions(VALAT.parent / "zwanzigerrufen.tbn"))
    table = solver.contract_table(position, settlement=True)
    assert isinstance(table, list) and table == list(table)
    assert str(table).splitlines()[:2] == ["Double-dummy contract table", str(table[0])]
    assert _Cells(table._repr_html_()).paragraphs[0] == "Double-dummy contract table"
    rows = cells(table._repr_html_())
    assert rows[0] == ["contract", "declarer", "side", "value", "needs", "result", "settlement"]
    assert rows[1] == ["Normal T20", "1", "1+2", "67", "45", "won", "+4"] == cells(table[0]._repr_html_())[1]
    assert len(rows) == 1 + len(table)
    kratzen = solver.contract_table(next(solver.read_positions(VALAT.parent / "kratzen.tbn")))
    shown = _Cells(kratzen._repr_html_())
    assert shown.rows[:2] == [["contract", "attacker", "seat 1", "seat 2", "seat 3", "result"],
                              ["Trump E", "1", "2/2 ✓", "0/1 ✗", "2/1 ✓", "won"]]
    assert shown.paragraphs[-1] == "each seat: tricks it can guarantee against everyone / tricks it needs"
    refused = solver.analysis.TableEntry("Solo & <b>", 2, biddable=False, reason="seat 2 holds T20..T16")
    html = refused._repr_html_()
    assert "<b>" not in html
    assert cells(html)[1] == ["Solo & <b>", "2", "-", "-", "-", "not biddable: seat 2 holds T20..T16"]


def test_a_contract_table_and_the_check_lists_repr_as_one_line():
    """A contract table, bonus checks and dealt bonuses repr as one line that says what each is (the game and its rows
    counted by result, each bonus's answer), not as the list's repr, a dataclass dump a row (pages in a REPL)."""
    position = next(solver.read_positions(VALAT.parent / "zwanzigerrufen.tbn"))
    table = solver.contract_table(position)
    refused = [entry.contract for entry in table if not entry.biddable]
    assert len(table) == 9 and len(refused) == 1 and sum(entry.won is True for entry in table) == 1
    assert repr(table) == "<ContractTable Zwanzigerrufen, 9 rows: 1 won, 7 lost, 1 not biddable>"
    assert repr(table[:1]) == "<ContractTable Zwanzigerrufen, 1 row: 1 won>" and table[0].won
    assert repr(table[:0]) == "<ContractTable Zwanzigerrufen, 0 rows>"  # the game kept without a row to carry it
    by_hand = solver.analysis.ContractTable([solver.analysis.TableEntry("Solo", 2, biddable=False, reason="T20")])
    assert repr(by_hand) == "<ContractTable 1 row: 1 not biddable>"
    assert repr(solver.check_bonuses(position)) == (  # by the names stich check's rows give them
        "<BonusChecks Game yes, Absolut yes, Absolut against no, Valat no, Valat against no, Pagat Ultimo no, "
        "Pagat Ultimo beaten no, Mondfang no>")
    kratzen = next(solver.read_positions(VALAT.parent / "kratzen.tbn"))
    assert repr(solver.check_bonuses(kratzen)) == \
        "<BonusChecks Tricks seat 1 yes, Tricks seat 2 no, Tricks seat 3 yes; 1 note>"
    assert repr(solver.dealt_bonuses(position)) == "<DealtBonuses Trull no, 4 Kings no>"
    assert repr(solver.dealt_bonuses(kratzen)) == "<DealtBonuses none>"
    # a Suit Solo has no Pagat bonuses: the repr says what stich check says of them, not a bare "-"
    suit_solo = list(solver.read_positions(VALAT.parent / "zwanzigerrufen.tbn"))[3]
    assert repr(solver.check_bonuses(suit_solo)).endswith(
        "Valat against no, Pagat Ultimo does not arise, Pagat Ultimo beaten does not arise, Mondfang does not arise>")
    assert "Pagat Ultimo for -: does not arise: not in a Suit Solo (RULES.md 1.6)" in str(
        solver.check_bonuses(suit_solo)).splitlines()


def test_bonus_checks_and_dealt_bonuses_render_their_check_rows(valat):
    """Each BonusCheck and DealtBonus renders in Jupyter as its ``stich check`` row: the bonus, for whom, what,
    and the answer its ``str`` gives; check_bonuses' list (a BonusChecks) as the table of them all."""
    checks = solver.check_bonuses(valat)
    assert isinstance(checks, list) and str(checks).splitlines() == ["Bonuses"] + [str(check) for check in checks]
    table = cells(checks._repr_html_())
    assert table[0] == ["bonus", "for", "what", "forced alone?"] and len(table) == 1 + len(checks)
    assert table[1:] == [list(check.cells()) for check in checks]
    valat_check = next(check for check in checks if check.bonus == "valat")
    rows = cells(valat_check._repr_html_())
    assert rows == [["bonus", "for", "what", "forced alone?"],
                    ["Valat", "seat 1", "the declarer takes every trick", "yes - seat 1 can force it"]]
    assert str(valat_check).endswith(rows[1][3])
    trull = next(bonus for bonus in solver.dealt_bonuses(valat) if bonus.bonus == "trull")
    assert cells(trull._repr_html_())[1] == ["Trull", "-", "one player was dealt TS T21 T1",
                                             "no - nobody was dealt all three; decided by the deal, no search"]
    assert str(trull).endswith(trull.answer())
    kratzen = next(solver.read_positions(VALAT.parent / "kratzen.tbn"))
    first = solver.check_bonuses(kratzen)[0]
    assert cells(first._repr_html_()) == [["target", "for", "what", "forced alone?"],
                                          ["Tricks", "seat 1", "tricks seat 1 can guarantee against everyone",
                                           "yes - guarantees 2 tricks, needs 2"]]


def test_a_contract_table_s_settlement_column_is_explained_under_it_with_its_unit():
    """A notebook's contract table has the legend ``stich table`` prints under its settlement column, so that a reader
    can tell what ``-30`` is, with the unit: game units, or the Kratzen attacker's chips from the pot the column was
    paid from (``ContractTable.pot``)."""
    from typer.testing import CliRunner

    from cli.main import app

    schafkopf, kratzen = VALAT.parent / "schafkopf.tbn", VALAT.parent / "kratzen.tbn"
    table = solver.contract_table(next(solver.read_positions(schafkopf)), settlement=True)
    legend = "settlement: the declaring side's double-dummy net score in game units, without announcements"
    title = "Double-dummy contract table; rules: runaway_count_at=deal"  # board 1's [Variant]
    assert table.pot is None and _Cells(table._repr_html_()).paragraphs == [title, legend]
    assert table.title() == title and str(table).splitlines()[0] == title  # one title for the print and the view
    assert legend in CliRunner().invoke(app, ["table", str(schafkopf), "-b", "1"]).stdout.splitlines()
    assert _Cells(solver.contract_table(next(solver.read_positions(schafkopf)))._repr_html_()).paragraphs == [
        title]  # no column, no legend
    paid = solver.contract_table(next(solver.read_positions(kratzen)), settlement=True, pot=40)
    legend = "settlement: the attacker's double-dummy payment, with a pot of 40 chips"
    assert paid.pot == 40 and paid[1:].pot == 40 and _Cells(paid._repr_html_()).paragraphs[-1] == legend
    assert legend in CliRunner().invoke(app, ["table", str(kratzen), "-b", "1", "--pot", "40"]).stdout.splitlines()
    assert _Cells(paid[0]._repr_html_()).paragraphs[-1] == legend  # a row alone says its table's pot
    by_hand = dataclasses.replace(paid[0], pot=None)  # a row that does not know the pot says the unit alone
    assert _Cells(by_hand._repr_html_()).paragraphs[-1] == "settlement: the attacker's double-dummy payment in chips"
    assert solver.contract_table(next(solver.read_positions(kratzen)), settlement=True).pot == 0  # no [Pot] tag


def test_a_contract_table_at_pot_0_carries_stich_table_s_note_in_a_notebook():
    """At pot 0 (a Kratzen record without a [Pot] tag) every contract settles at 0: ``stich table`` says so once on
    stderr (a message about the run), and the notebook's table says it in a note after the same legend as the
    command's, with how the API gives a pot: its argument, not the command's flag (it told API users to use --pot)."""
    from typer.testing import CliRunner

    from cli.main import app

    kratzen = VALAT.parent / "kratzen.tbn"
    shown = _Cells(solver.contract_table(next(solver.read_positions(kratzen)), settlement=True)._repr_html_())
    result = CliRunner().invoke(app, ["table", str(kratzen), "-b", "1"])
    note = "note: pot 0: every contract settles at 0 (give the record a [Pot] tag, or --pot CHIPS)"
    legend = "settlement: the attacker's double-dummy payment, with a pot of 0 chips"
    assert result.stdout.splitlines()[-1] == legend
    assert result.stderr.startswith("stich: pot 0: every contract settles at 0 chips: give the record a [Pot] tag")
    assert shown.paragraphs[-2:] == [legend, note.replace("--pot CHIPS", "the argument pot=CHIPS")]
    paid = solver.contract_table(next(solver.read_positions(kratzen)), settlement=True, pot=40)
    assert not any(line.startswith("note: pot") for line in _Cells(paid._repr_html_()).paragraphs)


def test_dealt_bonuses_print_and_render_as_stich_check_s_rows():
    """``dealt_bonuses`` gives a DealtBonuses (a list of them), not a dump of dataclasses in a notebook or ``print``:
    it prints a line a bonus and renders the rows ``stich check`` adds for them under its columns; with none, a line
    that says so rather than an empty table."""
    from typer.testing import CliRunner

    from cli.main import app

    zwanzigerrufen = VALAT.parent / "zwanzigerrufen.tbn"
    bonuses = solver.dealt_bonuses(next(solver.read_positions(zwanzigerrufen)))
    assert isinstance(bonuses, list) and bonuses == list(bonuses) and [b.bonus for b in bonuses] == ["trull",
                                                                                                     "four_kings"]
    assert str(bonuses).splitlines() == ["Bonuses the cards decide (no search)"] + [str(bonus) for bonus in bonuses]
    shown = _Cells(bonuses._repr_html_())
    assert shown.paragraphs == ["Bonuses the cards decide (no search)"]
    assert shown.rows == [["bonus", "for", "what", "forced alone?"],
                          ["Trull", "-", "one player was dealt TS T21 T1",
                           "no - nobody was dealt all three; decided by the deal, no search"],
                          ["4 Kings", "-", "one player was dealt the four Kings",
                           "no - nobody was dealt all four; decided by the deal, no search"]]
    document = json.loads(CliRunner().invoke(app, ["check", str(zwanzigerrufen), "-b", "1", "--json"]).stdout)
    # what the command's rows are made from: the JSON keeps the identifiers, the rows name them as players do
    assert [bonus["bonus"] for bonus in document["dealt_bonuses"]] == ["trull", "four_kings"]
    assert [[title, "-", bonus["description"], f"no - {bonus['reason']}"]  # the name said once, in the first cell
            for title, bonus in zip(("Trull", "4 Kings"), document["dealt_bonuses"])] == \
        [[title, side, f"{what} ({title})", answer] for title, side, what, answer in shown.rows[1:]]
    assert type(bonuses[:1]) is type(bonuses) and str(bonuses[:1]).splitlines()[1:] == [str(bonuses[0])]
    none = solver.dealt_bonuses(next(solver.read_positions(VALAT.parent / "kratzen.tbn")))
    assert none == [] and str(none) == "no bonus of this contract is decided by the cards alone"
    assert _Cells(none._repr_html_()).paragraphs == [str(none)] and "<table" not in none._repr_html_()


def test_the_post_mortem_figure_shows_in_a_notebook_and_leaves_the_backend_alone():
    """``plot_figure`` leaves the matplotlib backend as it is (no ``matplotlib.use("Agg")``, which in Jupyter switches
    the inline backend off, so that after a post-mortem, whose ``_repr_html_`` draws the plot, the notebook's own
    ``plt.show()`` would show nothing), and the Figure, made without pyplot, gives Jupyter its picture as PNG, not
    ``<Figure size 880x572 with 1 Axes>``."""
    import matplotlib
    from matplotlib.figure import Figure

    import solver.figure
    from solver.figure import PlotFigure
    from solver.plot import plot_figure

    analysis = solver.analyse_play(next(solver.read_positions(VALAT.parent / "schafkopf.tbn")))
    # a backend of the program's own choosing, set back afterwards (rc_context does not restore "backend"); read and
    # written with dict's own methods, as rcParams["backend"] would pick a backend when none is chosen yet
    backend_before = dict.__getitem__(matplotlib.rcParams, "backend")
    matplotlib.rcParams["backend"] = "template"
    try:
        figure = plot_figure(analysis)
        assert "<svg" in analysis._repr_html_()
        assert matplotlib.rcParams["backend"] == "template"
    finally:
        dict.__setitem__(matplotlib.rcParams, "backend", backend_before)
    assert isinstance(figure, Figure) and isinstance(figure, PlotFigure) and len(figure.axes) == 1
    assert "PlotFigure" in dir(solver.figure) and PlotFigure.__module__ == "solver.figure"
    assert type(copy.deepcopy(figure)) is PlotFigure and len(copy.deepcopy(figure).axes) == 1
    assert type(pickle.loads(pickle.dumps(PlotFigure()))) is PlotFigure  # found again by its module's name
    png = figure._repr_png_()
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")  # the IHDR chunk
    assert (width, height) == (round(figure.get_figwidth() * figure.dpi), round(figure.get_figheight() * figure.dpi))


def test_a_hand_analysis_renders_its_report_in_jupyter():
    """A HandAnalysis renders the report ``print(analysis)`` gives (solver.sampling.report_parts builds both): its
    lines as paragraphs, its bonus and opening-card tables as HTML tables, the cards written as the diagram does."""
    analysis = solver.analyse_hand("kratzen", "EO E9 SU SZ", 1, "Trump E", samples=4, workers=1, pot=4)
    shown, text = _Cells(analysis._repr_html_()), str(analysis).splitlines()
    assert shown.paragraphs[:5] == text[:5]
    assert shown.paragraphs[1] == "4 samples (seed 1); scored with pot 4" and "+2.25 chips" in shown.paragraphs[2]
    assert shown.rows[:2] == [["target", "whose", "forced"], ["Tricks (seat 1)", "the hand", "100% (51-100%)"]]
    assert ["card", "mean payment", "win", "mean tricks"] in shown.rows
    assert ["SU", "+2.25", "100% (51-100%)", "2.3"] in shown.rows
    french = solver.analyse_hand("zwanzigerrufen", "T21 T20 T19 T18 T15 T14 T13 T12 HK SK", 1, "Normal", samples=2,
                                 workers=1)
    assert _Cells(french._repr_html_()).paragraphs[0] == str(french).splitlines()[0]
    assert any(row[0] == "♥K" for row in _Cells(french._repr_html_()).rows)


def test_a_played_deal_and_a_mean_of_a_match_print_and_render_for_people():
    """A match's PlayedDeal prints as a line, not its dataclass's every card, and in Jupyter as its seats, bots and
    payments, then its tricks, as tables; a Mean prints as the match report writes it, not its fields with their 15
    digits."""
    from solver.bots import CheaterBot
    from solver.match import Mean, play_match

    result = play_match("kratzen", [RandomBot(), RandomBot(), CheaterBot()], boards=3, pot=4)
    deal = result.deals[0]
    payments = " ".join(f"{paid:+d}" if paid else "0" for paid in deal.payments)
    # Kratzen's declarer is the attacker, as the match report says (not "declarer 1, side seat 1")
    assert repr(deal) == f"<PlayedDeal board 1, rotation 0: {deal.contract}, attacker seat 1; payments {payments}>"
    shown = _Cells(deal._repr_html_())
    assert shown.paragraphs == [f"board 1, rotation 0: {deal.contract}, attacker seat 1"]
    assert shown.rows[:4] == [["seat", "bot", "payment"],
                              *([str(seat), bot, f"{paid:+d}" if paid else "0"]
                                for seat, (bot, paid) in enumerate(zip(deal.bots, deal.payments), 1))]
    assert shown.rows[4] == ["trick", "cards in playing order"]
    assert shown.rows[5:] == [[str(number), " ".join(deal.play[3 * number - 3:3 * number])]
                              for number in range(1, len(deal.play) // 3 + 1)]
    # a French pack's cards as the hand diagram writes them, a side's seats after the declarer (not "DJ DN")
    french = play_match("zwanzigerrufen", [RandomBot()] * 4, boards=1).deals[0]
    assert repr(french).startswith("<PlayedDeal board 1, rotation 0: Normal T20, declarer seat 1, side 1+2; ")
    tricks = _Cells(french._repr_html_()).rows[6:]
    assert tricks[8] == ["9", "T20 T8 ♣G ♥N"] and french.play[32:36] == ("T20", "T8", "CG", "HN")
    random = result.bots["random"]
    assert str(random) == "-1.89 (95%: -5.60 to +1.82)"
    assert repr(random) == "<Mean -1.89 (95%: -5.60 to +1.82) over 3 boards>"
    assert str(Mean.of([2.0, 2.0])) == "+2.00 (all 2 boards alike: no interval)"
    assert repr(Mean.of([1.0])) == "<Mean +1.00 (one board: no interval)>" and str(Mean.of([])) == "no board"
    assert str(Mean.of([0.0, 0.0], interval=False)) == "0.00 (0 by construction)"
    # a mean taken without an interval that does not print as 0 says so, in its text and its document alike
    fixed = Mean.of([2.0, 3.0], interval=False)
    assert repr(fixed) == "<Mean +2.50 (fixed: no interval)>"
    assert fixed.note == fixed.as_dict()["interval_note"] == "fixed: no interval"
    assert Mean.of([0.0, 0.0], interval=False).as_dict()["interval_note"] == "0 by construction"
    assert str(Mean.of([1e-18, -1e-18, 1e-17], interval=False)) == "0.00 (0 by construction)"
    # read back without its game (a checkpoint's line alone), a deal keeps the contract's token and says "declarer"
    alone = solver.match.PlayedDeal.from_dict(deal.as_dict())
    assert repr(alone) == f"<PlayedDeal board 1, rotation 0: {deal.contract}, declarer seat 1; payments {payments}>"
    french_payments = " ".join(f"{paid:+d}" if paid else "0" for paid in french.payments)
    assert repr(solver.match.PlayedDeal.from_dict(french.as_dict())) == (
        f"<PlayedDeal board 1, rotation 0: Normal T20, declarer seat 1, side 1+2; payments {french_payments}>")


def test_a_match_prints_and_renders_its_report_as_stich_match_does():
    """``print(play_match(...))`` prints the report ``stich match`` prints (solver.match.match_report builds its lines
    and table for both), not the dataclass dump of every deal, and Jupyter renders the means as a table."""
    from typer.testing import CliRunner

    from cli.main import app
    from solver.bots import CheaterBot, RandomBot
    from solver.match import play_match

    result = play_match("kratzen", [RandomBot(), RandomBot(), CheaterBot()], boards=3, pot=4)
    text = str(result).splitlines()
    assert text[0] == "Kratzen: 3 boards (seed 1), each played 3 times with the bots rotated; pot 4"
    assert text[1] == ("seats 1-3: random, random, cheater (plays for the score as attacker, else its own tricks), "
                       "each rotation one seat on; each board's own contract, attacker 1; variant: the game's defaults")
    assert text[2:4] == ["mean payment per seat and deal (± 95% intervals)",
                         "bot      seats played  mean payment (chips)"]
    assert text[4] == "random   18            -1.89 ± 3.71"  # its random bots' seeds do not see the
    # cheater's cards as names (tests/test_bots.py: test_a_bot_s_choice_is_a_function_of_the_position_...)
    assert text[-3:] == ["attacker seat 1: -4.00 (95%: -11.45 to +3.45) chips per deal, his own payment",
                         "random - cheater: -1.67 (95%: -5.62 to +2.28) chips per deal, paired (the same cards)",
                         "95% intervals over 3 boards, one value a board (its mean over the rotations)"]
    shown = CliRunner().invoke(app, ["match", "--game", "kratzen", "--bots", "random,random,cheater", "-n", "3",
                                     "-j", "1", "--pot", "4"]).stdout.splitlines()
    for line in text[:2] + text[-3:]:  # the lines around the table, word for word
        assert line in shown
    html = _Cells(result._repr_html_())
    assert html.paragraphs[0] == text[0] and text[-1] in html.paragraphs
    assert html.rows == [["bot", "seats played", "mean payment (chips)"],
                         ["random", "18", "-1.89 ± 3.71"],
                         ["cheater", "9", "-0.22 ± 5.51"]]
    assert repr(result) == "<MatchResult Kratzen, 3 boards (9 deals played): random -1.89, cheater -0.22>"
    # one board: print() says under its means that they have no interval, as the command does
    single = str(play_match("kratzen", [RandomBot(), RandomBot(), CheaterBot()], boards=1, pot=4)).splitlines()
    shown = CliRunner().invoke(app, ["match", "--game", "kratzen", "--bots", "random,random,cheater", "-n", "1",
                                     "-j", "1", "--pot", "4"]).stdout.splitlines()
    assert single[-1] == shown[-1] == "one board played: no interval"


def test_contract_and_card_advice_print_and_render_as_stich_analyse_does():
    """``print(contract_advice(...))`` prints the advice ``stich analyse --contract all`` prints
    (solver.advice.contract_advice_report builds its lines and tables for both), not the dataclass dump of every row,
    and Jupyter renders the contracts (the cards) as a table."""
    from typer.testing import CliRunner

    from cli.main import app
    from solver.advice import card_advice, contract_advice

    advice = contract_advice("schafkopf", "EU E8 E7 GK GO HA H9 SU", 1, samples=8, workers=1)
    text = str(advice).splitlines()
    assert text[:3] == ["Schafkopf, seat 1: EU E8 E7 GK GO HA H9 SU", "8 samples (seed 1)",
                        "contracts by seat 1's mean payment (game units; ± and brackets: 95% intervals; paired "
                        "samples)"]
    assert "1  Rufer G      +1.63 ± 1.48        best                        100% (68-100%)  13% (2-47%) Laufende" \
        in text
    # 8 samples are below the 9 the sign test needs with ten comparisons: no gap has an interval
    assert "2  Rufer E      +0.63 ± 1.26        +1.00 (too few samples) ~   63% (31-86%)    25% (7-59%) Schneider" \
        in text
    assert max(map(len, text[3:14])) < 130  # each cell said '(95%: ...)': 190 columns
    assert "payment: the seat's share of its side's settlement (two seats share a Rufer's)" in text
    shown = CliRunner().invoke(app, ["analyse", "--game", "schafkopf", "--hand", "EU E8 E7 GK GO HA H9 SU", "--seat",
                                     "1", "--contract", "all", "--samples", "8", "-j", "1"]).stdout.splitlines()
    notes = text[text.index("payment: the seat's share of its side's settlement (two seats share a Rufer's)") - 3:]
    assert notes == shown[-len(notes):] and text[:2] == shown[:2]  # the lines around the table, word for word
    html = _Cells(advice._repr_html_())
    assert html.paragraphs[:2] == text[:2] and html.paragraphs[-1] == text[-1]
    assert html.rows[0] == ["", "contract", "mean payment", "behind the best", "win", "bonuses made", "against"]
    assert html.rows[1][:5] == ["1", "Rufer G", "+1.63 ± 1.48", "best", "100% (68-100%)"]
    # a figure is kept whole in a notebook too: its no-break spaces, and unwrapped, as a browser breaks at a hyphen
    assert len(html.rows) == 1 + len(advice.rows)
    assert '<br><span style="white-space:nowrap">13%\u00a0(2-47%)</span> Schneider' in advice._repr_html_()
    assert '<span style="white-space:nowrap">100%\u00a0(68-100%)</span></td>' in advice._repr_html_()
    assert repr(advice) == "<ContractAdvice Schafkopf, seat 1, 8 samples: best Rufer G +1.63>"

    position = next(solver.read_positions(VALAT.parent / "zwanzigerrufen.tbn"))
    cards = card_advice(position, 3, samples=3, workers=1)
    text = str(cards).splitlines()
    assert text[:3] == ["Zwanzigerrufen, Normal T20 (declarer seat 1): seat 3 to move after 24 cards played, holding "
                        "♠G ♣Q ♣N ♦Q",
                        "3 samples (seed 1)",
                        "cards by seat 3's mean payment (game units; ± and brackets: 95% intervals; paired)"]
    assert "1  ♠G    -2.00 (all alike)  best             0% (0-56%)  100% (44-100%) Absolut" in text
    assert "1  ♣Q    -2.00 (all alike)  best             0% (0-56%)  100% (44-100%) Absolut" in text  # a tie
    html = _Cells(cards._repr_html_())
    assert html.rows[:2] == [["", "card", "mean payment", "behind the best", "win", "bonuses made", "against"],
                             ["1", "♠G", "-2.00 (all alike)", "best", "0% (0-56%)", "100% (44-100%) Absolut", ""]]
    assert repr(cards) == ("<CardAdvice Zwanzigerrufen Normal T20, seat 3, 3 samples: best ♠G -2.00 (tied with 3 "
                           "more)>")  # four cards pay -2 on all 3 samples
    assert html.paragraphs[-2] == text[-2] == "payment: the seat's share of its side's settlement"
    assert html.paragraphs[-1] == text[-1] == ("never made in 3 samples, so each below 56% (the top of its 95% "
                                               "interval): Mondfang, Pagat Ultimo, Valat (every card)")


def test_a_batch_summary_prints_and_renders_what_stich_batch_says_at_its_end(tmp_path):
    """``print(solve_batch(...))`` prints the line ``stich batch`` ends with (solver.batch's summary_text, which names
    the output the summary keeps), not the dataclass, and Jupyter renders the counts as a table."""
    out = tmp_path / "out.jsonl"
    summary = solver.solve_batch(VALAT.parent / "kratzen.tbn", out, workers=1)
    assert str(summary).splitlines() == [  # the examples' Kratzen records name no pot: the lines' note, said once
        "note: pot 0: every line settles at 0 chips: give the record a [Pot] tag, or --pot CHIPS (5 records solved "
        f"now, the first at {VALAT.parent / 'kratzen.tbn'}:10)",
        f"5 written to {out} (5 solved, 0 errors), 0 already done, {summary.seconds:.1f} s"]
    html = _Cells(summary._repr_html_())
    assert html.paragraphs == str(summary).splitlines()[::-1]
    assert html.rows == [["records", "written", "solved", "errors", "duplicates", "already done", "repeated", "stale",
                          "seconds"], ["5", "5", "5", "0", "0", "0", "0", "0", f"{summary.seconds:.1f}"]]
    again = solver.solve_batch(VALAT.parent / "kratzen.tbn", out, workers=1)
    assert str(again).startswith(f"0 written to {out} (0 solved, 0 errors), 5 already done, ")
    stale = solver.BatchSummary(2, 0, 2, 0, 1.0, stale=3, stale_ids=("a.tbn:1#1", "a.tbn:9#2"), source="a.tbn",
                                out="o.jsonl")
    assert str(stale).splitlines() == [
        "o.jsonl: holds 3 lines answering records no longer in a.tbn, kept: a.tbn:1#1, a.tbn:9#2, ...; "
        "remove them or write to a new file", "2 written to o.jsonl (2 solved, 0 errors), 0 already done, 1.0 s"]
    assert _Cells(stale._repr_html_()).paragraphs == str(stale).splitlines()[::-1]
    repeated = solver.BatchSummary(2, 0, 2, 0, 1.0, repeated=3, source="a.tbn", out="o.jsonl")
    assert str(repeated).splitlines() == [  # said as the run starts too; the API's summary keeps it
        "o.jsonl: holds 3 lines repeating the key of a line above, kept (a reader of the file counts those records "
        "twice); keep the first line of each key, or write to a new file",
        "2 written to o.jsonl (2 solved, 0 errors), 0 already done, 1.0 s"]
    repeated_html = _Cells(repeated._repr_html_())
    assert repeated_html.paragraphs == str(repeated).splitlines()[::-1]
    assert dict(zip(*repeated_html.rows))["repeated"] == "3"
    streamed = solver.BatchSummary(2, 0, 2, 0, 1.0, duplicates=1, source="a.tbn", out="-")
    assert str(streamed) == ("2 written to stdout (2 solved, 0 errors), 1 duplicate of a record above (the same "
                             "text): answered once, 1.0 s")  # a stream holds nothing done before it
    assert _Cells(streamed._repr_html_()).rows[0] == ["records", "written", "solved", "errors", "duplicates", "seconds"]
    assert streamed.stream  # stdout's names are a stream whoever makes the summary


def test_a_batch_to_a_device_says_no_already_done_as_no_stream_has_one():
    """``stich batch FILE --out /dev/tty`` says no "0 already done", nor has Jupyter's table the column: a device (here
    /dev/null) is a stream as stdout is, never resumed, so neither the text nor the table counts what was done before
    it, nor lines left from before (stale)."""
    summary = solver.solve_batch(VALAT.parent / "kratzen.tbn", "/dev/null", workers=1)
    assert summary.stream and str(summary).splitlines()[-1] == (
        f"5 written to /dev/null (5 solved, 0 errors), {summary.seconds:.1f} s")
    html = _Cells(summary._repr_html_())
    assert html.paragraphs[0] == str(summary).splitlines()[-1]
    assert html.rows == [["records", "written", "solved", "errors", "duplicates", "seconds"],
                         ["5", "5", "5", "0", "0", f"{summary.seconds:.1f}"]]


def test_a_slice_or_copy_of_a_result_list_prints_as_the_whole_does():
    """A slice, a copy or a sum of ``contract_table(...)`` is still the kind of list that prints and renders as the
    command's table, not a plain list of reprs."""
    kratzen = next(solver.read_positions(VALAT.parent / "kratzen.tbn"))
    table = solver.contract_table(kratzen)
    for part in (table[:1], table.copy(), table[:1] + table[:1]):
        assert type(part) is type(table) and part._repr_html_()
        assert str(part).startswith("Double-dummy contract table\nTrump E  attacker 1")
    checks = solver.check_bonuses(next(solver.read_positions(VALAT)))
    assert type(checks[:1]) is type(checks) and str(checks[:1]) == f"Bonuses\n{checks[0]}"
    assert type(table[0]).__name__ == "TableEntry" and table[:1] == list(table)[:1]


def test_an_analysis_stopped_early_says_so_when_printed():
    """``print(analyse_hand(..., time_limit=...))`` of a stopped analysis says it was stopped and that its figures are
    of the samples solved, not "10 samples (seed 1)" as if 10 had been asked."""
    analysis = solver.analyse_hand("kratzen", "EO E9 SU SZ", 1, "Trump E", samples=400, workers=1, time_limit=1e-9)
    assert analysis.stopped == "time limit" and analysis.samples == 1  # the first sample only
    assert str(analysis).splitlines()[1] == "1 of 400 samples (seed 1), stopped by the time limit: the figures of these"
    assert repr(analysis).startswith("<HandAnalysis Kratzen Trump E, seat 1, 1 of 400 samples, stopped by the time "
                                     "limit: win ")
    assert analysis.as_dict()["requested"] == 400 and "requested" not in solver.analyse_hand(
        "kratzen", "EO E9 SU SZ", 1, "Trump E", samples=2, workers=1).as_dict()  # said only beside "stopped"


def test_advice_stopped_early_says_how_many_samples_of_how_many_as_the_analysis_does():
    """A stopped analysis and stopped advice say what they stopped in the same words, with the count asked: "N of
    400 samples (seed 1), stopped by the time limit"."""
    from solver.advice import card_advice, contract_advice

    advice = contract_advice("schafkopf", "EU E8 E7 GK GO HA H9 SU", 1, "Rufer E, Wenz", samples=400, workers=1,
                             time_limit=1e-9)
    assert advice.stopped == "time limit" and advice.requested == 400
    assert f"{advice.samples} of 400 samples (seed 1), stopped by the time limit: the best answer so far" in str(advice)
    assert repr(advice).startswith(f"<ContractAdvice Schafkopf, seat 1, {advice.samples} of 400 samples, stopped by "
                                   f"the time limit{': best ' if advice.samples else '>'}")  # no best of none
    position = next(solver.read_positions(VALAT.parent / "zwanzigerrufen.tbn"))  # seat 3 to move
    cards = card_advice(position, 3, samples=300, workers=1, time_limit=1e-9)
    assert cards.stopped == "time limit" and str(cards).splitlines()[1] == (
        f"{cards.samples} of 300 samples (seed 1), stopped by the time limit: the best answer so far")
    assert repr(cards).startswith(f"<CardAdvice Zwanzigerrufen Normal T20, seat 3, {cards.samples} of 300 samples, "
                                  f"stopped by the time limit{': best ' if cards.samples else '>'}")


def test_advice_stopped_before_its_first_sample_names_no_best_in_its_repr():
    """Stopped before a sample was solved, the repr names no best (not "best Rufer G refused on every sample" of rows
    never ranked), as print() says there is nothing to rank."""
    import threading

    from solver.advice import card_advice, contract_advice

    stop = threading.Event()
    stop.set()
    advice = contract_advice("schafkopf", "EA EO E9 GZ G8 HZ HK H9", 1, samples=4, workers=1, stop=stop)
    assert advice.samples == 0 and "nothing to rank" in str(advice)
    assert repr(advice) == "<ContractAdvice Schafkopf, seat 1, 0 of 4 samples, stopped by the interrupt>"
    position = next(solver.read_positions(VALAT.parent / "zwanzigerrufen.tbn"))  # seat 3 to move
    cards = card_advice(position, 3, samples=3, workers=1, stop=stop)
    assert cards.samples == 0 and "nothing to rank" in str(cards)
    assert repr(cards) == "<CardAdvice Zwanzigerrufen Normal T20, seat 3, 0 of 3 samples, stopped by the interrupt>"


def test_the_opening_cards_table_points_to_card_advice_for_its_intervals_and_ties():
    """The single analysis's opening-card table settles ties by its order without a word and gives its means no
    interval: a line under it says so and points to ``--cards``, which ranks the cards with paired intervals; a hand
    that does not lead has no table and no line."""
    from typer.testing import CliRunner

    from cli.main import app
    from solver.sampling import OPENING_NOTE

    assert OPENING_NOTE == ("the means have no intervals and ties are not marked: --cards ranks these cards with "
                            "paired intervals (card advice)")
    analysis = solver.analyse_hand("kratzen", "EO E9 SU SZ", 1, "Trump E", samples=4, workers=1)
    lines = str(analysis).splitlines()
    assert lines[-1] == OPENING_NOTE and lines[-7] == "opening cards (brackets: 95% intervals)"  # its header, 4 cards
    assert f"<small>{OPENING_NOTE}</small>" in analysis._repr_html_()
    shown = CliRunner().invoke(app, ["analyse", "--game", "kratzen", "--hand", "EO E9 SU SZ", "--seat", "1",
                                     "--contract", "Trump E", "-n", "4", "-j", "1"]).stdout.splitlines()
    assert shown[-1] == OPENING_NOTE and shown[-2].startswith("└")
    follower = solver.analyse_hand("kratzen", "EO E9 SU SZ", 2, "Trump E", samples=2, workers=1)
    assert not follower.openings and OPENING_NOTE not in str(follower)
    # a Kratzen seat other than the attacker, to play mid-deal: --cards refuses it (only the attacker's payment is
    # searched), so the line does not send the reader there
    played = solver.make_position("Kratzen", "1: EO E9 SU SZ / GA HA HU S7 / EK G8 HO SK", "Trump S",
                                  play="SU S7 SK")
    other = solver.analyse_position(played, 3, samples=2, workers=1)
    assert other.openings and other.score_mean is None
    assert str(other).splitlines()[-1] == "the means have no intervals and ties are not marked"
    from solver.advice import SeatNotAdvised, card_advice
    with pytest.raises(SeatNotAdvised, match="only the attacker's payment is searched"):
        card_advice(played, 3, samples=2, workers=1)


def test_a_table_row_made_by_hand_prints():
    """``print(TableEntry("Solo", 1))``, a row not searched (no value), prints dashes."""
    from solver.analysis import TableEntry

    row = TableEntry("Solo", 1)
    assert str(row) == "Solo  declarer 1  side -  value -  needs  -" and "<table" in row._repr_html_()


def test_bonus_checks_print_and_render_the_notes_stich_check_prints_under_its_table():
    """``check_bonuses(...)`` keeps the notes ``stich check`` adds under its table (a bonus that scores nothing here,
    a pot of 0; the ones that need no search): it prints them after its lines and renders them under the table, with
    the command's title; a slice keeps them."""
    from typer.testing import CliRunner

    from cli.main import app

    pagat = VALAT.parent / "pagat_ultimo.tbn"
    checks = solver.check_bonuses(next(solver.read_positions(pagat)))
    note = ("note: Pagat Ultimo beaten is scored as the announced Pagat Ultimo (RULES.md 1.7: an announcement "
            "settles its bonus)")
    assert str(checks).splitlines() == ["Bonuses"] + [str(check) for check in checks] + [note]
    shown = _Cells(checks._repr_html_())
    assert shown.paragraphs == ["Bonuses", note] and len(shown.rows) == 1 + len(checks)
    printed = CliRunner().invoke(app, ["check", str(pagat)]).stdout
    assert note in " ".join(printed.split())  # the command's words (rich may fold the line)
    assert checks[:1].notes == checks.notes and str(checks[:1]).splitlines()[-1] == note
    kratzen = solver.check_bonuses(next(solver.read_positions(VALAT.parent / "kratzen.tbn")))
    assert str(kratzen).splitlines()[0] == "Targets"  # a seat's own targets: the print's heading as the table's
    assert _Cells(kratzen._repr_html_()).paragraphs == [
        "Targets", "note: pot 0: every line settles at 0 (give the record a [Pot] tag, or --pot CHIPS)"]
    assert solver.check_bonuses(next(solver.read_positions(VALAT))).notes == ()


def test_an_analysis_s_opening_cards_and_bonus_chances_print_and_render_their_report_rows():
    """``analysis.openings[0]`` and ``analysis.bonuses[0]`` each print and render in a notebook their row of the
    report's table, each figure after its column's name and the card as the report writes it (``♥K``, not ``HK``), not a
    dataclass dump; the ``repr`` stays the dataclass's."""
    analysis = solver.analyse_hand("kratzen", "EO E9 SU SZ", 1, "Trump E", samples=4, workers=1, pot=4)
    first, target = analysis.openings[0], analysis.bonuses[0]
    assert str(first) == "SU  mean payment +2.25  win 100.0% (95%: 51.0% to 100.0%)  mean tricks 2.3"
    assert cells(first._repr_html_()) == [["card", "mean payment", "win", "mean tricks"],
                                          ["SU", "+2.25", "100% (51-100%)", "2.3"]]  # a table's cell: compact
    assert cells(first._repr_html_())[1] in _Cells(analysis._repr_html_()).rows  # the report's own row
    assert str(target) == "Tricks (seat 1): the hand, forced 100.0% (95%: 51.0% to 100.0%)"
    assert cells(target._repr_html_()) == [["target", "whose", "forced"],
                                           ["Tricks (seat 1)", "the hand", "100% (51-100%)"]]
    assert repr(first).startswith("OpeningCard(card='SU', mean=2.25,") and repr(target).startswith("BonusChance(")
    french = solver.analyse_hand("zwanzigerrufen", "T21 T20 T19 T18 T15 T14 T13 T12 HK SK", 1, "Normal", samples=2,
                                 workers=1)
    assert french.openings[0].card == "T20"  # nine tie: the pack's order, not the names' (HK)
    heart_king = str(next(opening for opening in french.openings if opening.card == "HK"))
    assert heart_king.startswith("♥K  mean payment ") and "  mean card points " in heart_king
    assert "Valat: the hand's side, forced 0.0% (95%: 0.0% to 65.8%)" in map(str, french.bonuses)
    made = solver.OpeningCard("HK", 3.0, 0.5)  # by hand, without its game: the names it was given
    assert str(made) == "HK  win 50.0%  mean 3.0" and cells(made._repr_html_())[1] == ["HK", "50%", "3.0"]
    made_bonus = solver.BonusChance("valat", None, "", 2, 1, 0, 2)
    assert str(made_bonus) == "valat: the hand's side, forced 50.0% (95%: 9.5% to 90.5%)"


def test_a_post_mortem_its_cards_and_players_print_and_render_stich_postmortem_s_tables():
    """A post-mortem in a notebook is the command's: Jupyter renders the plot and the command's two tables with its
    note, each card and player (``analysis.cards[0]``, ``analysis.players[0]``) prints its line and renders its row,
    not a dataclass dump, and ``print(analysis)`` writes the cards as the diagram does (``♥K``, not ``HK``)."""
    from typer.testing import CliRunner

    from cli.main import app

    schafkopf = next(solver.read_positions(VALAT.parent / "schafkopf.tbn"))
    analysis = solver.analyse_play(schafkopf)
    first = analysis.cards[0]
    assert str(first) == str(analysis).splitlines()[1] == (
        "  1  trick  1  seat 1  EO    120 ->  105 (best  120)  blunder (cost 15; better: EA/GZ/G8/HZ/HK/H9); lost: "
        "Schwarz")
    assert cells(first._repr_html_()) == [
        ["#", "trick", "seat", "card", "before", "best", "after", "cost", "grade", "better", "bonus lost"],
        ["1", "1", "1", "EO", "120", "120", "105", "15", "blunder", "EA/GZ/G8/HZ/HK/H9", "Schwarz"]]
    assert str(analysis.players[0]) == ("seat 1  cards 4  inaccuracies 0  mistakes 0  blunders 1  cost (points) 15  "
                                        "bonuses lost Schwarz")
    shown = _Cells(analysis._repr_html_())
    assert shown.paragraphs == [str(analysis).splitlines()[0], "Every card (totals: points of 1+3; cost to the "
                                "mover's side)", "grades in points: inaccuracy 1-5, mistake 6-14, blunder 15+ or a "
                                "bonus lost", "Game (double dummy): won for 1+3, from the start",
                                "  no card changed that", "Per seat"]
    assert shown.rows[1] == cells(first._repr_html_())[1] and len(shown.rows) == 2 + len(analysis.cards) + 4
    assert shown.rows[-5] == ["seat", "cards", "inaccuracies", "mistakes", "blunders", "cost (points)",
                              "bonuses lost"] and shown.rows[-4] == cells(analysis.players[0]._repr_html_())[1]
    assert "<svg" in analysis._repr_html_()  # the plot, above the tables
    assert repr(first).startswith("CardAnalysis(number=1, trick=1, seat=1, card='EO',")

    zwanzigerrufen = VALAT.parent / "zwanzigerrufen.tbn"
    scored = solver.analyse_play(next(solver.read_positions(zwanzigerrufen)), objective="score")
    assert str(scored).splitlines()[5] == "  5  trick  2  seat 3  ♥K      4 ->    4 (best    4)  ok"
    shown = _Cells(scored._repr_html_())
    printed = " ".join(CliRunner().invoke(app, ["postmortem", str(zwanzigerrufen), "-b", "1"]).stdout.split())
    for line in shown.paragraphs[1:]:  # the command's title, note and headers, word for word
        assert " ".join(line.split()) in printed
    assert shown.rows[5][3] == "♥K" and shown.rows[0][7:9] == ["cost", "cost (points)"] \
        and "cost (points)" in printed
    assert str(scored.players[3]).endswith("cost (game units) 0  cost (points) 5")
    unplayed = solver.analyse_play(next(solver.read_positions(VALAT.parent / "kratzen.tbn")))
    assert unplayed._repr_html_() == ('<div><p style="font-weight:bold">Kratzen Trump S, attacker 1: each '
                                      "mover&#x27;s own tricks</p><p>the record has no Play section: nothing to "
                                      "analyse</p></div>")  # the title as every post-mortem's view has it
    assert str(unplayed) == ("Kratzen Trump S, attacker 1: each mover's own tricks\n"  # print() says it too
                             "the record has no Play section: nothing to analyse")
    assert repr(unplayed) == "<PlayAnalysis Kratzen Trump S, attacker 1: no Play section, nothing to analyse>"
    at_start = solver.analyse_play(next(solver.read_positions(zwanzigerrufen)).at_start())
    assert str(at_start).splitlines() == ["Zwanzigerrufen Normal T20, declarer 1: points of 1+2",
                                          "the record has no Play section: nothing to analyse"]


def test_a_whole_deal_s_post_mortem_reprs_and_prints_its_players_as_docs_api_md_shows_them():
    """docs/api.md quotes the post-mortem of board 7 of ``examples/schafkopf.tbn`` (a Rufer played to its end, graded
    by points): its one-line repr with the grades counted, and seat 2's row, each bonus named as ``stich check`` names
    it. The quotes are that deal's, word for word."""
    api_md = (VALAT.parents[1] / "docs" / "api.md").read_text(encoding="utf-8")
    board_7 = list(solver.read_positions(VALAT.parent / "schafkopf.tbn"))[6]
    analysis = solver.analyse_play(board_7)
    shown = ("<PlayAnalysis Schafkopf Rufer G, declarer 1: 32 cards graded by points; inaccuracy 2, mistake 6, "
             "blunder 2>")
    assert repr(analysis) == shown and f"`{shown}`" in api_md
    row = "seat 2  cards 8  inaccuracies 0  mistakes 1  blunders 1  cost (points) 10  bonuses lost Schneider against"
    assert str(analysis.players[1]) == row and f"`{row}`" in api_md
    assert str(analysis.players[2]).endswith("bonuses lost Schneider against (handed over)")


def test_an_advice_row_and_a_seat_s_target_print_and_render_their_cells():
    """``advice.rows[0]`` (a ContractRow) and ``entry.seats[1]`` (a SeatTarget) each print and render in a notebook what
    the command's table shows of it, not a dataclass dump."""
    from solver.advice import card_advice, contract_advice

    advice = contract_advice("schafkopf", "EU E8 E7 GK GO HA H9 SU", 1, samples=8, workers=1)
    best, second = advice.rows[:2]
    # a row printed alone is a line, with no title to say what ± is: the long form, a table cell's the compact one
    assert str(best) == ("Rufer G  mean payment: +1.63 (95%: +0.15 to +3.10)  best  win: 100.0% (95%: 67.6% to "
                         "100.0%)  bonuses made: 12.5% (95%: 2.2% to 47.1%) Laufende, 12.5% (95%: 2.2% to 47.1%) "
                         "Schneider, 12.5% (95%: 2.2% to 47.1%) Schwarz")
    assert str(second).startswith("Rufer E  mean payment: +0.63 (95%: -0.63 to +1.88)  behind the best: +1.00 "
                                  "(too few samples) ~  win: 62.5%")
    rows = cells(best._repr_html_())
    assert rows[0] == ["contract", "mean payment", "behind the best", "win", "bonuses made", "against"]
    assert rows[1] == _Cells(advice._repr_html_()).rows[1][1:]  # the advice's own row, without the rank
    assert repr(best).startswith("ContractRow(contract='Rufer G', samples=8,")
    assert "game" not in best.as_dict() and best == dataclasses.replace(best, game="")  # not in the JSON, not compared
    position = next(solver.read_positions(VALAT.parent / "zwanzigerrufen.tbn"))
    cards = card_advice(position, 3, samples=3, workers=1)
    assert str(cards.rows[0]) == (  # the card as the advice's table and the hand diagram write it
        "♠G  mean payment: -2.00 (all alike)  best  win: 0.0% (95%: 0.0% to 56.2%)  bonuses made: 100.0% (95%: 43.9% "
        "to 100.0%) Absolut")
    assert cells(cards.rows[0]._repr_html_()) == [row[1:] for row in _Cells(cards._repr_html_()).rows[:2]]
    announced = contract_advice("zwanzigerrufen", "TS T21 T15 T14 T13 T12 T1 SK HK DG", 2, "Solo", samples=2,
                                workers=1, each_announcement=True)
    trull = next(row for row in announced.rows if row.announced == "2: Trull")
    assert str(trull).startswith("Solo + Trull  mean payment: ")  # as the table names it, not a second "Solo"
    assert str(trull).endswith("bonuses made: 100.0% (95%: 34.2% to 100.0%) Trull")  # not "trull"
    kratzen = solver.contract_table(next(solver.read_positions(VALAT.parent / "kratzen.tbn")))[0]
    assert [str(seat) for seat in kratzen.seats] == ["seat 1 2/2 ✓", "seat 2 0/1 ✗", "seat 3 2/1 ✓"]
    assert f"  {kratzen.seats[1]}  " in str(kratzen)
    shown = _Cells(kratzen.seats[1]._repr_html_())
    assert shown.rows == [["seat 2"], ["0/1 ✗"]] and shown.paragraphs == [
        "each seat: tricks it can guarantee against everyone / tricks it needs"]


def test_a_strategy_tree_prints_and_renders_what_it_is_of_and_its_root_s_cards():
    """``print(strategy_tree(...))`` says the tree's game, depth, root value and the root's cards with the totals they
    keep, and a notebook renders them as a table (not networkx's ``DiGraph with 9 nodes and 8 edges`` or
    ``<networkx.classes.digraph.DiGraph object at 0x...>``); the tree is still a DiGraph, written and pickled as one."""
    import networkx as nx

    kratzen = next(solver.read_positions(VALAT.parent / "kratzen.tbn"))
    tree = solver.strategy_tree(kratzen, 2)
    assert isinstance(tree, nx.DiGraph) and type(pickle.loads(pickle.dumps(tree))) is type(tree)
    assert str(tree).splitlines() == [
        "Kratzen Trump S: strategy tree of 2 cards from the deal's start, 9 nodes",
        "tricks of seat 1: 2 (needs 2) at the root", "cards at the root (card, seat, total kept):",
        "  EO    seat 1  2  best", "  E9    seat 1  2  best", "  SU    seat 1  1", "  SZ    seat 1  1"]
    shown = _Cells(tree._repr_html_())
    assert shown.paragraphs == str(tree).splitlines()[:2]
    assert shown.rows == [["card", "seat", "total kept", ""], ["EO", "1", "2", "best"], ["E9", "1", "2", "best"],
                          ["SU", "1", "1", ""], ["SZ", "1", "1", ""]]
    ending = next(solver.read_positions(VALAT.parent / "zwanzigerrufen.tbn"))
    assert str(solver.strategy_tree(ending, 0)).splitlines() == [
        "Zwanzigerrufen Normal T20: strategy tree of 0 cards after 24 cards played, 1 node",
        "points of 1+2: 64 at the root"]  # a side as the commands and the post-mortem write it
    assert str(type(tree)()) == "strategy tree of 0 cards from the deal's start, 0 nodes"  # one made by hand
    rufer = list(solver.read_positions(VALAT.parent / "schafkopf.tbn"))[5]  # board 6: one card played
    assert str(solver.strategy_tree(rufer, 2)).splitlines()[0] == \
        "Schafkopf Rufer G: strategy tree of 2 cards after 1 card played, 5 nodes"  # not '1 cards played'
    past = solver.strategy_tree(rufer, 10)  # 7 cards left: not "of 10 cards", nor a depth attribute of 10
    assert str(past).splitlines()[0] == \
        "Schafkopf Rufer G: strategy tree of the 7 cards left after 1 card played, 15 nodes"
    assert past.graph["depth"] == 7


def test_a_strategy_tree_s_repr_says_what_it_is_of():
    """``repr(tree)``, what a notebook's list or a debugger shows, is the first line the tree prints, not
    ``<solver.tree_graph.StrategyTree object at 0x7f...>`` (networkx gives a graph no repr of its own)."""
    kratzen = next(solver.read_positions(VALAT.parent / "kratzen.tbn"))
    tree = solver.strategy_tree(kratzen, 2)
    assert repr(tree) == "<StrategyTree Kratzen Trump S: strategy tree of 2 cards from the deal's start, 9 nodes>"
    assert repr([type(tree)()]) == "[<StrategyTree strategy tree of 0 cards from the deal's start, 0 nodes>]"


def test_the_reports_name_a_contract_as_the_rule_book_does_and_the_documents_keep_its_token():
    """The tables for people name a contract as RULES.md (1.2, 2.2, 3.3) does, "Suit Solo", "Wenz Tout", "Solo Tout E",
    "Seven-Muss", not by its token (``SuitSolo``, ``WenzTout``, ``SoloTout E``, ``SevenMuss``); ``--contract`` reads
    both, and ``--json`` keeps the token (json.md)."""
    from typer.testing import CliRunner

    from cli.main import app

    spoken = {solver.Zwanzigerrufen: {"SuitSolo": "Suit Solo", "Solo": "Solo", "Normal T17": "Normal T17"},
              solver.Schafkopf: {"WenzTout": "Wenz Tout", "SoloTout E": "Solo Tout E", "Rufer G": "Rufer G"},
              solver.Kratzen: {"Trump H SevenMuss": "Trump H Seven-Muss", "Trump E Muss": "Trump E Muss"}}
    for game, names in spoken.items():
        for token, words in names.items():
            assert game.contract_in_words(token) == words
            assert str(game.parse_contract(words)) == token  # --contract takes the rule book's name too
    advice = solver.advice.contract_advice("schafkopf", "EO GO HO SO EU GU HU EA", 1, "Wenz, WenzTout, SoloTout E",
                                            samples=1, workers=1)
    text = str(advice)
    assert "Wenz Tout" in text and "Solo Tout E" in text and "WenzTout" not in text and "SoloTout" not in text
    assert {row["contract"] for row in advice.as_dict()["contracts"]} == {"Wenz", "WenzTout", "SoloTout E"}
    # a notebook's narrow table keeps a contract's name whole, as it keeps a figure with its interval
    whole = '<span style="white-space:nowrap">Solo\u00a0Tout\u00a0E</span>'
    assert whole in advice._repr_html_() and whole in advice.rows[0]._repr_html_() + advice.rows[1]._repr_html_() + \
        advice.rows[2]._repr_html_()
    assert "Solo Tout E" in repr(advice) + str(advice) and "\u00a0" not in repr(advice)
    assert '<span style="white-space:nowrap">Wenz\u00a0Tout</span>' in solver.contract_table(
        next(solver.read_positions(VALAT.parent / "schafkopf.tbn")))._repr_html_()
    runner = CliRunner()
    hand = ["analyse", "--game", "kratzen", "--hand", "EO E9 SU SZ", "--seat", "1", "--contract",
            "Trump E Seven-Muss", "-n", "1", "-j", "1"]
    assert runner.invoke(app, hand).stdout.splitlines()[0] == "Kratzen Trump E Seven-Muss, seat 1: EO E9 SU SZ"
    assert json.loads(runner.invoke(app, hand + ["--json"]).stdout)["contract"] == "Trump E SevenMuss"
    table = runner.invoke(app, ["table", str(VALAT.parent / "schafkopf.tbn")]).stdout
    assert "│ Wenz Tout " in table and "│ Solo Tout E " in table
    assert "WenzTout" not in table and "SoloTout" not in table
    zwanzigerrufen = ["table", str(VALAT.parent / "zwanzigerrufen.tbn")]
    assert "│ Suit Solo " in runner.invoke(app, zwanzigerrufen).stdout
    entries = json.loads(runner.invoke(app, zwanzigerrufen + ["--json"]).stdout.splitlines()[0])["entries"]
    assert "SuitSolo" in {entry["contract"] for entry in entries}


def test_a_play_state_s_repr_names_its_cards_and_says_its_seats_count_from_0():
    """``repr(position.state)`` names every hand's cards and the trick's (not the engine's int masks,
    ``hands=(281324552192, ...)``, or pack indices), and marks its seats as the 0-based ones a state keeps."""
    ending = next(solver.read_positions(VALAT.parent / "zwanzigerrufen.tbn"))
    assert repr(ending.state) == (
        "<PlayState Zwanzigerrufen Normal T20, 0-based seats: hands [0] SN HQ HN DJ, [1] T13 T12 SQ DN, "
        "[2] SG CQ CN DQ, [3] SJ CK CJ DK; [2] to play, trick -; points 0 32 10 0, tricks 0 4 2 0 after 6 tricks; "
        "flags 0>")
    assert "[3] to play, trick SG;" in repr(ending.play("SG").state)
    broken = dataclasses.replace(ending.state, hands=("x",) * 4)  # what the engine boundary refuses still prints
    assert repr(broken).startswith("PlayState(rules=<ZwanzigerrufenRules Zwanzigerrufen Normal T20, declarer 1,")


def test_a_card_and_a_card_set_repr_as_the_expression_that_gives_them_back():
    """``repr(card)`` is the expression that gives the card back, naming its game, as python-chess's
    ``Move.from_uci('e2e4')`` (``Card(GA)`` would neither evaluate nor say whose GA: Schafkopf's and Kratzen's are
    different cards); a card or set of a pack no game registered keeps a readable ``<...>`` form. ``str()`` is the
    names."""
    from solver import Card, CardSet

    for game, token, tokens in (("Schafkopf", "GA", "GA GZ HU"), ("Kratzen", "GA", "S6 GA"),
                                ("Zwanzigerrufen", "mond", "TS T21 SK")):
        pack = solver.get_game(game).pack
        card, cards = pack.parse(token), pack.card_set(tokens)
        assert repr(card) == f"Card.of({game!r}, {card.name!r})" and str(card) == card.name
        assert repr(cards) == f"CardSet.of({game!r}, {' '.join(cards.names())!r})" and str(cards) == " ".join(
            cards.names())
        again, set_again = eval(repr(card), {"Card": Card}), eval(repr(cards), {"CardSet": CardSet})
        assert again is card and set_again == cards and set_again.pack is pack
    schafkopf, kratzen = (solver.get_game(game).pack["GA"] for game in ("Schafkopf", "Kratzen"))
    assert repr(schafkopf) != repr(kratzen) and schafkopf != kratzen
    empty = solver.get_game("Schafkopf").pack.card_set("")
    assert repr(empty) == "CardSet.of('Schafkopf', '')" and eval(repr(empty), {"CardSet": CardSet}) == empty
    toy = solver.Pack("Toy", (Card(0, "X1", "X", "1", 0, 0),), {"X1": 0})  # registered by no game
    assert repr(toy.cards[0]) == "<Card X1 of no game's pack>"
    assert repr(CardSet(toy, 1)) == "<CardSet X1 of the Toy pack>"


def test_a_position_s_played_tricks_print_their_cards_by_name():
    """A played trick's repr names its cards as a Play section does: a whole play written as Card.of(...) calls,
    four to a trick, ran to hundreds of characters a trick."""
    position = next(iter(solver.read_positions(Path(__file__).parent.parent / "examples" / "schafkopf.tbn")))
    assert [repr(trick) for trick in position.history[:2]] == [
        "<PlayedTrick 1: EO H7 HU H8, led by seat 1, won by seat 1>",
        "<PlayedTrick 2: HZ G7 GU HO, led by seat 1, won by seat 4>"]


@pytest.mark.parametrize("example", ["valat.tbn", "kratzen.tbn"])
def test_a_double_dummy_settlement_prints_its_net_and_settlements_as_stich_score_dd_does(example):
    """``print(dd_settlement(...))`` writes what ``stich score --dd`` writes, ``net +90 game units``, ``net 0 chips``
    and ``settles 0`` (not ``net +90`` without a unit, or ``+0``): one formatter writes both."""
    from typer.testing import CliRunner

    from cli.main import app

    path = VALAT.parent / example
    printed = str(solver.dd_settlement(next(solver.read_positions(path)))).splitlines()
    shown = CliRunner().invoke(app, ["score", "--dd", "--board", "1", str(path)], env={"COLUMNS": "200"}).stdout
    net = printed[0].split(" net ", 1)[1]
    assert f" net {net}\n" in shown and net == {"valat.tbn": "+90 game units", "kratzen.tbn": "0 chips"}[example]
    settles = next(line for line in printed if "the deal settles " in line)
    assert settles in shown.splitlines() and "+0" not in "\n".join(printed)


def test_a_card_and_a_card_set_take_a_format_spec_as_their_names_do():
    """A Card prints as its name, but ``f"{card:>4}"`` (a bot author's aligned table) raised ``TypeError:
    unsupported format string passed to Card.__format__``; a CardSet likewise. Both format as their text."""
    pack = solver.get_game("Schafkopf").pack
    card, cards = pack.parse("GA"), pack.card_set("GA GZ")
    assert f"{card:>4}|{card:<3}|{card}" == "  GA|GA |GA" and format(card, "^6") == "  GA  "
    assert f"{cards:>8}|{cards}" == "   GA GZ|GA GZ"


def test_a_position_made_of_wrong_parts_still_reprs():
    """``solver.Position(game, rules, "x")`` is refused by every function that takes it, but its ``repr`` (a debugger's,
    a traceback's local) shows the fields as given, as a broken PlayState does, not an ``AttributeError: 'str' object
    has no attribute 'is_over'``."""
    position = solver.random_position("schafkopf", 3, 1, contract="Solo E")
    broken = solver.Position(position.game, position.rules, "x")
    assert repr(broken) == f"Position(game=Schafkopf, rules={position.rules!r}, state='x', played=())"
    assert repr(solver.Position("Schafkopf", position.rules, position.state)).startswith(
        "Position(game='Schafkopf', rules=<SchafkopfRules Schafkopf Solo E, declarer 1, 4 seats>, state=<PlayState")
    with pytest.raises(solver.InvalidPositionError, match="position must hold Rules and a PlayState, not "
                                                          "SchafkopfRules and str"):
        solver.solve(broken)


def test_a_position_from_a_state_advanced_with_a_result_card_is_the_played_position_and_bots_choose_alike(valat):
    """A state advanced with a result's CardIndex keeps a plain int in its trick, so a position made from it prints
    ``played`` as ``valat.play(5)``'s does (``5)``, not ``E9)``): equal positions print alike, and the bots, which
    seed from the play's text, choose alike."""
    card = solver.solve(valat, "valat", cards=True).card_values[0].card
    from_state = solver.Position(valat.game, valat.rules, valat.state.advance(card))
    played = valat.play(int(card))
    assert from_state == played and hash(from_state) == hash(played)
    assert repr(from_state.played) == repr(played.played) and repr(from_state.played[-1]) == str(int(card))
    assert all(type(index) is int for index in from_state.played)
    assert valat.play(card).played == played.played and type(valat.play(card).played[-1]) is int
    for seed in range(40):
        assert RandomBot(seed=seed).choose(from_state) == RandomBot(seed=seed).choose(played)


def test_a_card_given_as_an_int_enum_member_is_played_and_kept_as_its_number(valat):
    """``position.play(SomeIntEnum.X)`` keeps a plain int in ``played`` and the state's trick, not the member, whose
    name would print."""
    legal = min(card.index for card in valat.legal_cards())
    Chosen = enum.IntEnum("Chosen", {"FIRST": legal})
    played = valat.play(Chosen.FIRST)
    assert type(played.played[-1]) is int and type(played.state.trick[-1]) is int
    assert repr(played.played) == repr(valat.played + (legal,)) and played == valat.play(legal)
    made = solver.Position(valat.game, valat.rules, played.state, played=valat.played + (Chosen.FIRST,))
    assert repr(made.played) == repr(played.played) and made == played
    import numpy  # a played tuple of numpy integers is kept as plain ints too (not np.int64(5))

    made = solver.Position(valat.game, valat.rules, played.state, played=tuple(map(numpy.int64, played.played)))
    assert repr(made.played) == repr(played.played) and made == played


def test_a_settlement_and_a_batch_summary_repr_as_one_line(tmp_path):
    """A settlement, a double-dummy settlement and a batch's summary repr as one line that says what each is (the
    contract, the net, every payment; what the run wrote), not as a dataclass dump: a DDSettlement's held the
    search's nodes and seconds and its line twice, a BatchSummary's every comment of its input."""
    schafkopf = list(solver.read_positions(VALAT.parent / "schafkopf.tbn"))
    assert repr(solver.dd_settlement(schafkopf[0])) == (
        "<DDSettlement Schafkopf Rufer G, double dummy: declarers 1+3 net +4 game units; "
        "payments: seat 1 +2, seat 2 -2, seat 3 +2, seat 4 -2; rules: runaway_count_at=deal>")
    assert repr(solver.score_deal(schafkopf[-1])) == (
        "<Settlement Schafkopf Rufer G, payments: seat 1 -2, seat 2 +2, seat 3 -2, seat 4 +2>")
    kratzen = next(solver.read_positions(VALAT.parent / "kratzen.tbn"))
    assert repr(solver.dd_settlement(kratzen, pot=4)) == (
        "<DDSettlement Kratzen Trump S, double dummy: attacker seat 1 net +2 chips; "
        "payments: seat 1 +2, seat 2 +1, seat 3 +1, pot -4>")
    out = tmp_path / "out.jsonl"
    first = solver.solve_batch(VALAT.parent / "schafkopf.tbn", out, workers=1)
    assert repr(first) == f"<BatchSummary 7 records: 7 written to {out} (7 solved, 0 errors), 0 already done>"
    again = solver.solve_batch(VALAT.parent / "schafkopf.tbn", out, workers=1)
    assert repr(again) == f"<BatchSummary 7 records: 0 written to {out} (0 solved, 0 errors), 7 already done>"
