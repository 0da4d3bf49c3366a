"""Scoring finished deals (solver.scoring, ``stich score``): RULES.md 1.7, 2.5 and 3.4.

The check cases of RULES.md are played out card by card; every item and flag is tried on hand-built or seeded random
deals; and every settlement of seeded random complete playouts of every game must sum to zero.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from pathlib import Path
from typing import Callable

import pytest
from typer.testing import CliRunner

import solver
from solver import Position
from solver.announcements import Announcement, parse_announcements
from solver.errors import StichError
from solver.games import get_game
from solver.games.outcome import ScoreItem, pot_after_said, signed_mean, total_payments
from solver.games.schafkopf import laufende, score_items
from solver.games.zwanzigerrufen import (Claims, TarockFacts, TarockOutcome, apply_valat_mode, tarock_bonus_items,
                                        tarock_game_item)
from solver.scoring import Settlement, score_deal, scoring_inputs
from solver.settlement import dd_settlement

runner = CliRunner()


from solver.cli.main import app as APP  # noqa: E402

# --- building deals ----------------------------------------------------------------------------------------------

#: RULES.md 1.7 check case: P1 calls T19 (holds T20), P3 holds T19; D ends with 40, P4 wins trick 10 with T1.
KONTRA_DEAL = ("1: T20 T14 T8 CK HK HQ HN HJ DQ DG / T16 T11 T10 T7 SK SN CQ HG DK DJ / "
               "T21 T19 T18 T13 T6 T4 SJ SG CJ CG / TS T17 T15 T12 T9 T5 T1 SQ CN DN")
KONTRA_PLAY = ("DG DK T21 DN / SG SQ T20 SN / DQ DJ T19 T17 / SJ T15 T14 SK / T9 T8 T7 T13 / T4 T5 CK T11 / "
               "T16 T6 TS HK / T12 HQ T10 T18 / CG CN HN CQ / HG CJ T1 HJ")
KONTRA_ANNOUNCEMENTS = "2: Kontra, Absolut dagegen; 3: Kontra Absolut; 4: Pagat dagegen; 1: Kontra Pagat"

#: A Solo by seat 1 with the ten highest tarocks: Valat and Absolut; seat 2 was dealt the four kings.
VALAT_DEAL = ("1: TS T21 T20 T19 T18 T17 T16 T15 T14 T13 / SK CK HK DK SQ CQ HQ DQ T12 T11 / "
              "SN CN HN DN SJ CJ HJ DJ T10 T9 / SG CG HG DG T8 T7 T6 T5 T4 T1")

#: RULES.md 2.5 check cases (seeded random deals chosen to match them).
WENZ_DEAL = "1: EK EU GK GU HK SA SO SU / E8 GA GZ G9 G7 HZ HO H9 / EA EZ EO E9 E7 G8 S9 S7 / GO HA HU H8 H7 SZ SK S8"
WENZ_PLAY = "SU G7 G8 HU H7 HK H9 S9 SO GZ S7 SK H8 GU HO EZ SA G9 E9 SZ GK GA EA GO HZ E7 HA EU EK E8 EO S8"
SOLO_DEAL = "1: EK EU E9 GK G7 HZ HK H8 / EA E7 HA HO SZ SK SU S9 / EO GA GZ GO G9 H9 SA S7 / EZ E8 GU G8 HU H7 SO S8"
SOLO_PLAY = "GK SU GA G8 S9 SA S8 HK EO EZ E9 EA GZ SO G7 HA HU EU E7 GO S7 E8 EK SK HZ SZ H9 H7 H8 HO G9 GU"


def record_text(game: str, deal: str, contract: str, play: str, **tags: str) -> str:
    """A .tbn record; ``play`` lists the cards in playing order (tricks may be split with '/')."""
    cards = play.replace("/", " ").split()
    seats = len(deal.split("/"))
    lines = [f'[Game "{game}"]', f'[Deal "{deal}"]', f'[Contract "{contract}"]']
    lines += [f'[{name} "{value}"]' for name, value in tags.items()]
    if cards:
        lines.append(f'[Play "{tags.get("Declarer", "1") if game == "Kratzen" else "1"}"]')  # the attacker leads
        lines += [" ".join(cards[i:i + seats]) for i in range(0, len(cards), seats)]
        lines.append("*")
    return "\n".join(lines) + "\n"


def position_of(game: str, deal: str, contract: str, play: str, **tags: str) -> Position:
    return solver.parse_positions(record_text(game, deal, contract, play, **tags))[0]


def first_legal_play(game: str, deal: str, contract: str, **keywords) -> str:
    """The play where every seat plays its first legal card (a fixed, reproducible playout)."""
    position = solver.make_position(game, deal, contract, **keywords)
    state, cards = position.state, []
    while not state.is_over:
        card = state.legal_list()[0]
        cards.append(position.pack[card].name)
        state = state.advance(card)
    return " ".join(cards)


def random_playout(rng: random.Random, game: str, contract: str, seats: int | None = None, declarer: int = 1,
                   **keywords) -> Position | None:
    """A random whole deal under ``contract`` (None when the deal does not allow it), played out with random legal
    cards through ``PlayState.advance``."""
    cls = get_game(game)
    deal = cls.deal_random(rng, seats)
    try:
        position = solver.make_position(cls, deal, contract, declarer=declarer, **keywords)
    except StichError:
        return None
    state = position.state
    played = []
    while not state.is_over:
        card = rng.choice(state.legal_list())
        played.append(card)
        state = state.advance(card)
    return Position(position.game, position.rules, state, tuple(played))


def find_playout(game: str, contract: str, condition: Callable[[Position], bool], *, seed: int = 0,
                 tries: int = 4000, **keywords) -> Position:
    rng = random.Random(seed)
    for _ in range(tries):
        position = random_playout(rng, game, contract, **keywords)
        if position is not None and condition(position):
            return position
    raise AssertionError("no playout found")


def items(settlement: Settlement) -> dict[str, list]:
    result: dict[str, list] = {}
    for item in settlement.items:
        result.setdefault(item.name, []).append(item)
    return result


def zero_sum(settlement: Settlement) -> bool:
    return sum(settlement.payments) + settlement.pot_change == 0


def card_of(position: Position, name: str) -> int:
    return position.pack.parse(name).index


# --- RULES.md check cases -----------------------------------------------------------------------------------------


def test_kontra_check_case():
    position = position_of("Zwanzigerrufen", KONTRA_DEAL, "Normal", KONTRA_PLAY, Announcements=KONTRA_ANNOUNCEMENTS)
    # the case's deal: P1 holds T20 and calls T19, P3 holds it; the sides are P1+P3 against P2+P4
    deal = position.rules.deal
    assert (deal.holder(card_of(position, "T20")), deal.holder(card_of(position, "T19"))) == (0, 2)
    assert str(position.rules.contract) == "Normal T19"
    assert position.rules.declaring_side == frozenset({0, 2})
    # D ends with 40 points, P4 wins trick 10 with T1
    assert position.state.side_points(position.rules.declaring_side) == 40
    last = position.state.history[-1]
    assert len(position.state.history) == 10 and last.winner == 3
    assert position.pack[last.cards[(last.winner - last.leader) % 4]].name == "T1"
    settlement = score_deal(position)
    found = items(settlement)
    game, = found["game"]
    assert (game.winners, game.multiplier, game.value) == ((2, 4), 2, 2)
    absolut, = found["absolut"]
    assert (absolut.winners, absolut.base, absolut.multiplier, absolut.value) == ((1, 3), 2, 2, 4)
    pagat, = found["pagat_ultimo"]
    assert (pagat.winners, pagat.announced, pagat.value) == ((2, 4), True, 4)
    assert settlement.payments == (-2, 2, -2, 2)


def test_a_soloists_announcement_is_the_declarers_not_the_declarers_seat():
    """A one-seat side's announcement is the declarer's (a soloist is the declarer), not "the declarers seat 1"."""
    text = (Path(__file__).parent.parent / "examples" / "valat.tbn").read_text(encoding="utf-8")
    text = text.replace('[Contract "Solo"]', '[Contract "Solo"]\n[Announcements "1: Valat"]')
    settlement = solver.dd_settlement(solver.parse_positions(text, name="valat.tbn")[0])  # the rest played out
    valat, = (item for item in settlement.items if item.name == "valat")
    assert valat.reason == "Valat announced by the declarer, seat 1: made"


def test_a_settlement_prints_and_renders_for_people():
    """``print(settlement)`` and Jupyter show the items and payments as ``stich score`` does, not a dataclass dump."""
    position = position_of("Zwanzigerrufen", KONTRA_DEAL, "Normal", KONTRA_PLAY, Announcements=KONTRA_ANNOUNCEMENTS)
    settlement = score_deal(position)
    lines = str(settlement).splitlines()
    assert lines[0] == "Zwanzigerrufen Normal T19"
    assert lines[1].split() == ["item", "to", "from", "base", "x", "value", "why"]
    # the items by the rule book's names (docs/scoring.md), as stich score prints them; the JSON keeps pagat_ultimo
    assert lines[2].split()[:6] == ["Game", "2+4", "1+3", "1", "2", "2"]
    # the defenders' Absolut is named as check names it, though its failure pays the declarers
    assert lines[3].split()[:8] == ["Absolut", "against", "(announced)", "1+3", "2+4", "2", "2", "4"]
    assert lines[3].endswith("Absolut announced by the defenders 2+4: failed")
    assert lines[4].split()[:8] == ["Pagat", "Ultimo", "(announced)", "2+4", "1+3", "2", "2", "4"]
    assert lines[5] == "payments: seat 1 -2, seat 2 +2, seat 3 -2, seat 4 +2"
    html = settlement._repr_html_()
    assert html.startswith("<div>") and "Zwanzigerrufen Normal T19" in html and html.count("<tr>") == 4 + 2
    assert ">Pagat Ultimo (announced)</td>" in html and ">+2</td>" in html and ">-2</td>" in html
    # a single seat, the pot's side of an item and the notes
    kratzen = score_deal(find_playout("Kratzen", "Trump H", lambda p: True, seed=3), pot=12)
    text = str(kratzen)
    payments, after = text.splitlines()[-2:]
    assert "  pot  " in text and "seat " in text and payments.endswith(f"pot {kratzen.pot_change:+d}"
                                                                       if kratzen.pot_change else "pot 0")
    assert after == pot_after_said(12, kratzen.pot_change, "chips")  # its sign as the change's: + or -
    assert f"<p>{after}</p>" in kratzen._repr_html_()  # what the pot holds for the next deal
    ending = solver.make_position("Zwanzigerrufen", "1: TS / T21 / T1 / T4", "Normal T19", partner=3,
                                  play="TS T21 T1 T4")
    assert str(score_deal(ending)).splitlines()[-1].startswith("note: an ending")
    assert "<small>note: an ending" in score_deal(ending)._repr_html_()


def test_a_score_item_renders_its_row_of_the_settlement_in_jupyter():
    """A ScoreItem in a notebook renders its row under the settlement's columns, as the settlement's table writes it,
    not its dataclass, the item named as its game names it (not its key, ``absolut``: its settlement tells it its game's
    name for it); print() gives the same row, each cell after its column's name."""
    position = position_of("Zwanzigerrufen", KONTRA_DEAL, "Normal", KONTRA_PLAY, Announcements=KONTRA_ANNOUNCEMENTS)
    absolut = next(item for item in score_deal(position).items if item.announced)
    html = absolut._repr_html_()
    assert html.startswith('<table style="border-collapse:collapse">') and html.count("<tr>") == 2
    assert re.findall(r"<th [^>]*>([^<]*)</th>", html) == ["item", "to", "from", "base", "x", "value", "why"]
    assert re.findall(r"<td [^>]*>([^<]*)</td>", html) == [
        "Absolut against (announced)", "1+3", "2+4", "2", "2", "4", "Absolut announced by the defenders 2+4: failed"]
    assert 'text-align:right">4</td>' in html and 'text-align:left">1+3</td>' in html
    assert str(absolut) == ("Absolut against (announced)  to 1+3  from 2+4  base 2  x 2  value 4  why Absolut "
                            "announced by the defenders 2+4: failed")
    assert absolut == dataclasses.replace(absolut, game="") and "game" not in absolut.as_dict()
    assert absolut.against and absolut.as_dict()["against"] is True
    # made by hand, without a settlement: its key, and an empty side "-" (it does not know whether there is a pot)
    alone = ScoreItem("absolut", (1, 3), 2, 2, True, 4, "failed")
    assert alone.cells() == ("absolut (announced)", "1+3", "-", "2", "2", "4", "failed")
    # in a game paid from a pot, an item alone names the pot's side as its settlement's table does
    kratzen_tbn = Path(__file__).parent.parent / "examples" / "kratzen.tbn"
    kratzen = solver.dd_settlement(next(solver.read_positions(kratzen_tbn)), pot=4)
    assert str(kratzen.items[0]) == ("trick 1  to seat 2  from pot  base 1  x 1  value 1  why seat 2 won trick 1: P/4 "
                                     "from the pot")
    # the item's name is worked out when shown, so a copy renamed by replace() is named by its new key
    assert dataclasses.replace(absolut, name="pagat_ultimo").cells()[0] == "Pagat Ultimo (announced)"


def test_an_item_told_its_game_keeps_every_other_field():
    """``ScoreItem.of_game`` copied the fields one by one, by place: a field added later would have been dropped. The
    item here sets every field (a new one makes this list fail until it is given), and the copy keeps them all."""
    values = {"name": "penalty", "winners": (), "base": 4, "multiplier": 2, "announced": True, "value": 8,
              "reason": "seat 1 took 1 trick (2 needed; the attacker pays 2P)", "losers": (1,), "against": True,
              "game": "Schafkopf"}
    assert [field.name for field in dataclasses.fields(ScoreItem)] == list(values)
    told = ScoreItem(**values).of_game("Kratzen")
    assert {field.name: getattr(told, field.name) for field in dataclasses.fields(ScoreItem)} == {
        **values, "game": "Kratzen"}
    assert told.cells()[1:3] == ("pot", "seat 1")  # shown as Kratzen shows it


def test_kontra_check_case_with_make_position_and_keyword():
    position = solver.make_position("Zwanzigerrufen", KONTRA_DEAL, "Normal", play=KONTRA_PLAY.replace("/", " "))
    assert score_deal(position, announcements=KONTRA_ANNOUNCEMENTS).payments == (-2, 2, -2, 2)
    assert score_deal(position).payments == (-2, 2, -2, 2)  # silently: the lost game and a silent Pagat, 1 each


def test_wenz_check_case():
    position = position_of("Schafkopf", WENZ_DEAL, "Wenz", WENZ_PLAY)
    # Wenz won with 70 points, the declarer holds EU GU, a defender HU (the top trumps EU GU: L = 2)
    deal = position.rules.deal
    assert [deal.holder(card_of(position, name)) for name in ("EU", "GU", "HU")] == [0, 0, 3]
    assert position.state.points[0] == 70
    settlement = score_deal(position)
    found = items(settlement)
    assert found["laufende"][0].value == 2
    assert sum(i.value for i in settlement.items) == 7
    assert settlement.payments == (21, -7, -7, -7)
    assert (found["game"][0].value, found["game"][0].winners) == (5, (1,))  # v = 5 + S + L, S = 0
    assert "schneider" not in found and "schwarz" not in found
    assert found["game"][0].reason == "the declarer took 70 points (61 needed)"  # one declarer in a Wenz
    assert found["laufende"][0].reason == "2 Laufende held by seat 1"


def test_solo_check_case():
    position = position_of("Schafkopf", SOLO_DEAL, "Solo E", SOLO_PLAY)
    # Solo lost with D = 28; the defenders held all Obers, the declarer EU: L = 4 (EO GO HO SO, for the defenders)
    deal = position.rules.deal
    assert [deal.holder(card_of(position, name)) for name in ("EO", "GO", "HO", "SO")] == [2, 2, 1, 3]
    assert deal.holder(card_of(position, "EU")) == 0
    assert position.state.points[0] == 28
    settlement = score_deal(position)
    found = items(settlement)
    assert found["laufende"][0].value == 4 and found["schneider"][0].value == 1
    assert sum(item.value for item in settlement.items) == 10  # v = 5 + S + L
    assert all(item.winners == (2, 3, 4) for item in settlement.items)  # the game is lost: every item to them
    assert settlement.payments == (-30, 10, 10, 10)
    assert found["schneider"][0].reason == "the declarer took 28 points (30 or less)"


#: The scoring check cases of RULES.md 1.7 and 2.5 in the rule book's words, with the test that asserts each.
SCORING_CHECK_CASE_TESTS = {
    "P1 calls T19 (holds T20), P3 holds T19. P2: \"Kontra, Absolut dagegen\"; P3: Kontra on the Absolut; P4: "
    "\"Pagat dagegen\"; P1: Kontra on the Pagat. D ends with 40 points, P4 wins trick 10 with T1. Game lost x2 = 2 "
    "to P2/P4; Absolut dagegen failed, 2 x 2 = 4 to P1/P3; Pagat dagegen made, 2 x 2 = 4 to P2/P4. Net: P2 and P4 +2 "
    "each, P1 and P3 -2 each.": test_kontra_check_case,
    "Wenz won 70 pts, declarer holds EU GU, a defender HU: L = 2, v = 7, declarer +21.": test_wenz_check_case,
    "Solo lost with D = 28, defenders held all Obers, declarer EU: L = 4, S = 1, v = 10, declarer -30, each defender "
    "+10.": test_solo_check_case,
}


def test_every_scoring_check_case_of_the_rule_book_has_its_test():
    """Each check-case paragraph of RULES.md sections 1-3 must be made of the cases above and nothing else: a case
    added to the rule book, or one reworded, fails here until a test asserts it (section 4: test_rules.py)."""
    text = (Path(__file__).parent.parent / "docs" / "rulebook" / "RULES.md").read_text(encoding="utf-8")
    before_section_4 = text.split("## 4. Check cases", 1)[0]
    paragraphs = re.findall(r"(?:\*\*Check case[^*]*\*\*|Check cases:)(.*?)(?=\n- |\n#)", before_section_4, re.DOTALL)
    assert len(paragraphs) == 2  # RULES.md 1.7 and 2.5
    left = " ".join(" ".join(paragraph.split()) for paragraph in paragraphs)
    for case in SCORING_CHECK_CASE_TESTS:
        assert case in left, case
        left = left.replace(case, "")
    assert left.strip() == ""


def test_a_soloist_is_the_declarer_in_the_reasons_a_side_of_two_the_declarers():
    solo = score_deal(position_of("Schafkopf", SOLO_DEAL, "Solo E", SOLO_PLAY))
    assert items(solo)["game"][0].reason == "the declarer took 28 points (61 needed)"
    assert items(solo)["schneider"][0].reason == "the declarer took 28 points (30 or less)"
    tarock_solo = find_playout("Zwanzigerrufen", "Solo", lambda p: True, seed=5, declarer=2)
    points = tarock_solo.state.points[1]
    assert items(score_deal(tarock_solo))["game"][0].reason == f"the declarer took {points} points (45 needed)"
    normal = position_of("Zwanzigerrufen", KONTRA_DEAL, "Normal", KONTRA_PLAY)
    assert items(score_deal(normal))["game"][0].reason == "the declarers took 40 points (45 needed)"


def test_one_card_point_is_said_in_the_singular():
    """A Zwanzigerrufen tarock from XX to IV counts 1 point, so a side can end with exactly 1; its game item read
    'took 1 points'. Here the soloist takes the first trick with IV and three Glatzen and loses the second."""
    ending = solver.make_position("Zwanzigerrufen", "1: T4 SJ / SG SK / CG CJ / HG HJ", "Solo",
                                  play="T4 SG CG HG SJ SK CJ HJ")
    assert ending.state.points[0] == 1
    assert items(score_deal(ending))["game"][0].reason == "the declarer took 1 point (45 needed)"


def test_schwarz_in_an_ending_goes_to_the_side_that_took_every_trick():
    """examples/schafkopf.tbn board 6: a 33-point ending, so the declarers lose the game (61 needed) whatever they
    take; taking both tricks earns them the Schwarz all the same, so throwing GA (both tricks) beats keeping it."""
    position = solver.parse_positions(record_text("Schafkopf", "1: EO S7 / GA SZ / HO S9 / SU SK", "Rufer G",
                                                  "EO GA HO SU / S7 SZ S9 SK", Declarer="1", Partner="2",
                                                  CalledSuitLed="yes"))[0]
    found = items(score_deal(position))
    assert found["game"][0].winners == (3, 4) and found["schwarz"][0].winners == (1, 2)
    assert score_deal(position).payments == (1, 1, -1, -1)
    ending = next(p for p in solver.read_positions(Path(__file__).parent.parent / "examples" / "schafkopf.tbn")
                  if p.record.tag("Board").value == "6")
    result = solver.solve(ending, "score", cards=True)
    assert result.total == 2 and [str(c) for c in result.best_cards()] == ["GA"]


def test_score_takes_play_to_finish_a_record_as_the_other_commands_do():
    """``stich score --play``: the example's ending played out, scored as the record's own Play section would be."""
    ending = Path(__file__).parent.parent / "examples" / "schafkopf.tbn"
    result = runner.invoke(APP, ["score", str(ending), "-b", "6", "--play", "GA HO SU S7 SZ S9 SK", "--json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["payments"] == [1, 1, -1, -1]
    assert {item["name"]: item["winners"] for item in document["items"]} == {"game": [3, 4], "schwarz": [1, 2]}


def test_score_of_a_play_left_short_by_play_points_at_the_file_not_at_line_0():
    """``stich score FILE --play CARDS`` that does not finish the deal: the error is located in the file, at its last
    card of the play (examples/schafkopf.tbn board 6: EO, line 97), else at the [Play] tag or the record; not at
    ``schafkopf.tbn:0:0``, the place of a card that --play added."""
    examples = Path(__file__).parent.parent / "examples"
    result = runner.invoke(APP, ["score", str(examples / "schafkopf.tbn"), "-b", "6", "--play", "GA"])
    assert result.exit_code == 1
    assert result.stderr.startswith(f"stich: {examples / 'schafkopf.tbn'}:97:1: scoring needs a complete Play section")
    # a record without a Play section: the --play cards are all there is, so the record's first line
    result = runner.invoke(APP, ["score", str(examples / "kratzen.tbn"), "-b", "1", "--play", "EO"])
    assert result.exit_code == 1
    assert result.stderr.startswith(f"stich: {examples / 'kratzen.tbn'}:10:1: scoring needs a complete Play section")


def test_score_of_a_play_left_short_by_play_counts_the_files_tricks_apart_from_plays_cards():
    """The count pointed at the file's Play section is the section's own: board 2's section plays 4 tricks, said as ``4
    of 8 tricks played in it``, and --play's 7 cards after it apart (``5 of 8 tricks and 3 cards``), not the position's
    ``5 of 8 tricks played`` at the section."""
    examples = Path(__file__).parent.parent / "examples"
    result = runner.invoke(APP, ["score", str(examples / "schafkopf.tbn"), "-b", "2", "--play", "EZ SZ HK GK EK SO H9"])
    assert result.exit_code == 1
    assert result.stderr == (
        f"stich: {examples / 'schafkopf.tbn'}:36:10: scoring needs a complete Play section, every card of the deal "
        "played (4 of 8 tricks played in it; with the 7 cards played after it (--play), 5 of 8 tricks and 3 cards); "
        "the double-dummy settlement plays the rest: stich score --dd, dd_settlement\n")
    alone = runner.invoke(APP, ["score", str(examples / "schafkopf.tbn"), "-b", "2"])
    # one sentence saying what was expected, not a second bracket after the first
    assert alone.stderr == (f"stich: {examples / 'schafkopf.tbn'}:36:10: scoring needs a complete Play section, every "
                            "card of the deal played (4 of 8 tricks played); the double-dummy settlement plays the "
                            "rest: stich score --dd, dd_settlement\n")
    # a record without a Play section: every card is --play's
    result = runner.invoke(APP, ["score", str(examples / "kratzen.tbn"), "-b", "1", "--play", "EO"])
    assert "(0 of 4 tricks played in it; with the 1 card played after it (--play), 0 of 4 tricks and 1 card);" \
        in result.stderr


def test_laufende_only_if_holder_wins():
    position = position_of("Schafkopf", SOLO_DEAL, "Solo E", SOLO_PLAY)
    assert score_deal(position).payments[0] == -30  # the defenders' 4 Laufende count for them
    position = position_of("Schafkopf", WENZ_DEAL, "Wenz", WENZ_PLAY, Variant="laufende_mode=only_if_holder_wins")
    assert score_deal(position).payments == (21, -7, -7, -7)  # the holder (the declarer) won

    def lost_with_run(position: Position) -> bool:
        holders = [position.rules.deal.holder(card_of(position, n)) for n in ("EU", "GU", "HU")]
        return holders == [0, 0, 0] and 30 < position.state.points[0] < 61

    lost = find_playout("Schafkopf", "Wenz", lost_with_run, seed=3,
                        variant={"laufende_mode": "only_if_holder_wins"})
    settlement = score_deal(lost)
    assert "laufende" not in items(settlement)  # the declarer's Laufende do not count when he loses
    assert settlement.payments[0] == -15
    standard = solver.make_position("Schafkopf", lost.rules.deal, "Wenz",
                                    play=[lost.pack[c].name for c in lost.played])
    assert items(score_deal(standard))["laufende"][0].value >= 3  # they raise the loss under the standard rule


#: A Rufer G of seat 1 with seat 3 (GA): EO and HO with the caller, GO with the partner, so the run of three from the
#: top belongs to the two of them together; SO (seat 2) ends it.
RUFER_RUN_DEAL = ("1: EO HO G7 EA EZ SA SZ H7 / SO E9 E8 E7 G8 S9 S8 H8 / GO GA EU GU HA HZ HK H9 / "
                  "HU SU GZ GK G9 EK SK S7")
#: A Rufer G without Laufende (EO GO seat 1, HO seat 2: two from the top do not count in a Rufer).
RUFER_DEAL = "1: EO GO HU G7 EA EZ SA SZ / HO SO E9 E8 E7 G8 S9 S8 / EU GU GA GZ HA HZ HK H9 / SU H8 H7 GK G9 EK SK S7"
#: A Wenz Tout of seat 1 with the four Unters and the four best acorns: every trick in any order, 4 Laufende.
WENZ_TOUT_DEAL = ("1: EU GU HU SU EA EZ EK EO / E9 E8 E7 GA GZ GK GO G9 / G8 G7 HA HZ HK HO H9 H8 / "
                  "H7 SA SZ SK SO S9 S8 S7")


def test_rufer_value_and_laufende_of_the_two_partners():
    """RULES.md 2.5 (lines 142-145): the Laufende are the trumps one side, "partners together", was dealt from the
    top (EO seat 1, GO seat 3, HO seat 1: L = 3); "Rufer v = 1 + S + L, each winner +v, each loser -v": the
    declarers' Schwarz makes v = 1 + 2 + 3 = 6."""
    position = position_of("Schafkopf", RUFER_RUN_DEAL, "Rufer G", first_legal_play("Schafkopf", RUFER_RUN_DEAL,
                                                                                    "Rufer G"))
    assert position.state.side_tricks(position.rules.declaring_side) == 8
    settlement = score_deal(position)
    assert {name: (found[0].winners, found[0].value) for name, found in items(settlement).items()} == {
        "game": ((1, 3), 1), "schwarz": ((1, 3), 2), "laufende": ((1, 3), 3)}
    assert settlement.payments == (6, -6, 6, -6)


@pytest.mark.parametrize("points, tricks, winners, expected", [
    (61, 4, (1, 3), {"game": 1}),  # 2.4: D reaches 61
    (60, 4, (2, 4), {"game": 1}),  # 2.4: "60:60 goes to the defenders"
    (91, 6, (1, 3), {"game": 1, "schneider": 1}),  # 2.4: Schneider at 91
    (90, 6, (1, 3), {"game": 1}),
    (31, 1, (2, 4), {"game": 1}),
    (30, 1, (2, 4), {"game": 1, "schneider": 1}),  # 2.4: "reverse: D held to 30 or less"
    (0, 1, (2, 4), {"game": 1, "schneider": 1}),  # a trick without points is no Schwarz
    (120, 8, (1, 3), {"game": 1, "schwarz": 2}),  # 2.5: "2 Schwarz (instead)" of the Schneider
    (0, 0, (2, 4), {"game": 1, "schwarz": 2}),  # 2.4: "reverse: defenders take all 8"
])
def test_rufer_game_schneider_and_schwarz_thresholds(points, tricks, winners, expected):
    """RULES.md 2.4 (lines 136-138) and 2.5 (lines 144-145): the thresholds of the game (61), the Schneider (91, or
    30 or less) and the Schwarz (every trick, paid instead of the Schneider), each paid to the side that won the
    game; a Rufer without Laufende (two from the top do not count), so v = 1 + S."""
    rules = solver.make_position("Schafkopf", RUFER_DEAL, "Rufer G").rules
    assert laufende(rules) == (0, frozenset({0, 2}))
    found, notes = score_items(rules, (points, tricks))
    assert {item.name: item.value for item in found} == expected and notes == []
    assert {item.winners for item in found} == {winners}
    value = sum(expected.values())
    assert total_payments(found, 4) == tuple(value if seat in winners else -value for seat in range(1, 5))


#: A Rufer G of seat 1 (GA seat 3) played to the end, the declarers held to 26 points in 3 tricks: no Laufende (EO seat
#: 1, GO seat 4), so the defenders win v = 1 + 1 (their Schneider).
RUFER_LOST_SCHNEIDER_DEAL = ("1: EO HU HA G9 EA S9 E8 G8 / GU SU HK H8 E9 EK GZ SA / HO SO EU GA GK H9 EZ SZ / "
                             "GO H7 HZ E7 G7 SK S8 S7")
RUFER_LOST_SCHNEIDER_PLAY = ("HU GU SO H7 / SZ S8 S9 SA / HK HO GO HA / SK EA GZ EZ / S7 E8 EK H9 / EU HZ EO H8 / "
                             "G8 SU GA G7 / E9 GK E7 G9")


def test_defenders_schneider_is_named_as_check_names_it(tmp_path):
    """RULES.md 2.5: a Rufer lost with 26 points (30 or less) pays the defenders Game 1 + Schneider 1, each seat 2;
    ``stich score`` names their Schneider ``Schneider against``, as ``stich check``'s row and the post-mortem do,
    while the JSON keeps the item's name ``schneider`` and says ``against``."""
    path = tmp_path / "lost.tbn"
    path.write_text(record_text("Schafkopf", RUFER_LOST_SCHNEIDER_DEAL, "Rufer G", RUFER_LOST_SCHNEIDER_PLAY))
    settlement = score_deal(next(solver.read_positions(str(path))))
    assert [(item.name, item.winners, item.value, item.against) for item in settlement.items] == [
        ("game", (2, 4), 1, False), ("schneider", (2, 4), 1, True)]
    assert settlement.payments == (-2, 2, -2, 2)
    assert str(settlement.items[1]).startswith("Schneider against  to 2+4  from 1+3  base 1")
    text = runner.invoke(APP, ["score", str(path)])
    assert text.exit_code == 0 and "│ Schneider against │ 2+4 │ 1+3  │" in text.stdout
    document = json.loads(runner.invoke(APP, ["score", str(path), "--json"]).stdout)
    assert [(item["name"], item["against"]) for item in document["items"]] == [("game", False), ("schneider", True)]


#: Schafkopf records played to the end (and one ending), each settled by hand from RULES.md 2.5.
MONEY_RECORDS = Path(__file__).parent / "data" / "schafkopf_money.tbn"


@pytest.mark.parametrize("board, items, payments", [
    # Rufer G, 108 points in 7 tricks; EO GO (seat 1) HO SO EU (seat 3), GU seat 2: L = 5; v = 1 + 1 + 5
    ("1", {"game": 1, "schneider": 1, "laufende": 5}, (7, -7, 7, -7)),
    # Rufer G, 60:60 goes to the defenders; EO seat 1, GO seat 4: no Laufende; v = 1
    ("2", {"game": 1}, (-1, 1, -1, 1)),
    # Wenz with EU GU HU SU, 92 points: L = 4; v = 5 + 1 + 4, the declarer 3v
    ("3", {"game": 5, "schneider": 1, "laufende": 4}, (30, -10, -10, -10)),
    # Solo Tout E, every trick; EO GO HO SO EU GU with seat 1, HU seat 2: L = 6; v = 10 + 2 x 6, no S
    ("4", {"game": 10, "laufende": 12}, (66, -22, -22, -22)),
    # Rufer E, seat 2 runs away with EA (E9 led from EA EZ EK E9); 67 points; HO with seat 3 ends the run at 2
    ("5", {"game": 1}, (1, 1, -1, -1)),
    # Rufer G, the declarers held to 26 points: the defenders' Game and Schneider; v = 1 + 1
    ("6", {"game": 1, "schneider": 1}, (-2, 2, -2, 2)),
])
def test_club_records_settle_as_worked_by_hand(board, items, payments):
    """A club player's records (Rufer won Schneider, lost 60:60, Wenz with 4 Laufende, Solo Tout, a called ace run
    away with, a Rufer lost Schneider): each item's value and every seat's payment as RULES.md 2.5 gives them."""
    position = next(p for p in solver.read_positions(str(MONEY_RECORDS)) if p.record.get("Board") == board)
    settlement = score_deal(position)
    assert {item.name: item.value for item in settlement.items} == items
    assert settlement.payments == payments


def test_club_ending_settles_double_dummy_as_worked_by_hand():
    """Board 7, a Wenz with the four Unters stopped after four tricks: double dummy the declarer ends with 99
    points, so v = 5 + 1 (Schneider) + 4 (Laufende) = 10, the declarer +30 and each defender -10."""
    position = next(p for p in solver.read_positions(str(MONEY_RECORDS)) if p.record.get("Board") == "7")
    settled = dd_settlement(position)
    assert {item.name: item.value for item in settled.items} == {"game": 5, "schneider": 1, "laufende": 4}
    assert settled.payments == (30, -10, -10, -10)


@pytest.mark.parametrize("points, tricks, against", [
    (120, 8, False), (95, 7, False), (30, 1, True), (0, 0, True)])
def test_schneider_and_schwarz_of_the_defenders_are_against(points, tricks, against):
    """The Schneider or Schwarz paid to the defenders is theirs (``against``, named ``Schneider against`` /
    ``Schwarz against``); the declarers' is not."""
    rules = solver.make_position("Schafkopf", RUFER_DEAL, "Rufer G").rules
    bonus = score_items(rules, (points, tricks))[0][1]
    assert bonus.against is against
    title = get_game("Schafkopf").sided_item_title(bonus.name, bonus.against)
    assert title == bonus.name.capitalize() + (" against" if against else "")


@pytest.mark.parametrize("deal, contract, expected", [
    (RUFER_RUN_DEAL, "Rufer G", (3, {0, 2})),  # across both partners
    (RUFER_DEAL, "Rufer G", (0, {0, 2})),  # EO GO: two are not Laufende in a Rufer
    (RUFER_DEAL, "Solo E", (0, {0})),  # nor in a Solo
    (RUFER_DEAL, "SoloTout E", (0, {0})),  # nor in a Solo Tout
    ("1: EO GO HO SO EU HU EA EZ / GU SU E9 E8 E7 G8 S9 S8 / EK GA GZ HA HZ HK H9 G7 / H8 H7 GK G9 SA SZ SK S7",
     "Solo E", (5, {0})),  # Obers and Unters in one order: EO GO HO SO EU, ended by GU
    ("1: EU HO G7 EA EZ SA SZ H7 / GU SO E9 E8 E7 G8 S9 S8 / GO GA EO HU HA HZ HK H9 / H8 SU GZ GK G9 EK SK S7",
     "Wenz", (0, {0})),  # EU alone: one is not enough even in a Wenz
    ("1: EO HO G7 EA EZ SA SZ H7 / GU SO E9 E8 E7 G8 S9 S8 / GO GA EU HU HA HZ HK H9 / H8 SU GZ GK G9 EK SK S7",
     "Wenz", (4, {1, 2, 3})),  # the defenders' four Unters
    (WENZ_TOUT_DEAL, "WenzTout", (4, {0})),
    ("1: EU GU SA SZ SK S9 S8 S7 / HO SO E9 E8 E7 G8 EA EZ / EO GO GA HU HA HZ HK H9 / H8 SU GZ GK G9 EK G7 H7",
     "WenzTout", (2, {0})),  # two count in a Wenz Tout
])
def test_laufende_count_from_the_top_for_one_side(deal, contract, expected):
    """RULES.md 2.5 (lines 142-143): "from the top trump down, count the consecutive trumps that one side (partners
    together) was dealt; L counts only when >= 3 (Rufer, Solo, Solo Tout) or >= 2 (Wenz, Wenz Tout)"."""
    count, side = laufende(solver.make_position("Schafkopf", deal, contract).rules)
    assert (count, set(side)) == expected


def test_defenders_laufende_raise_the_declarers_win():
    """RULES.md 2.5 (line 143): Laufende "raise the value whichever side held them": the defenders' four Unters
    make a won Wenz worth 5 + 4 = 9, the declarer +27."""
    deal = "1: EO HO G7 EA EZ SA SZ H7 / GU SO E9 E8 E7 G8 S9 S8 / GO GA EU HU HA HZ HK H9 / H8 SU GZ GK G9 EK SK S7"
    found, _ = score_items(solver.make_position("Schafkopf", deal, "Wenz").rules, (70, 5))
    assert [(item.name, item.winners, item.value) for item in found] == [("game", (1,), 5), ("laufende", (1,), 4)]
    assert total_payments(found, 4) == (27, -9, -9, -9)


def test_a_won_tout_is_worth_10_plus_2l_without_schwarz():
    """RULES.md 2.5 (line 145): "Tout v = 10 + 2L (no S)", the declarer +-3v: a Wenz Tout with the four Unters that
    takes every trick is worth 10 + 2 x 4 = 18 (no Schwarz item), the declarer +54; the same play as a Wenz is
    5 + 2 (Schwarz) + 4 = 11."""
    play = first_legal_play("Schafkopf", WENZ_TOUT_DEAL, "WenzTout")
    settlement = score_deal(position_of("Schafkopf", WENZ_TOUT_DEAL, "WenzTout", play))
    assert [(item.name, item.winners, item.value) for item in settlement.items] == [("game", (1,), 10),
                                                                                    ("laufende", (1,), 8)]
    assert settlement.payments == (54, -18, -18, -18)
    assert settlement.items[0].reason == "the declarer took all 8 tricks (Tout)"
    wenz = score_deal(position_of("Schafkopf", WENZ_TOUT_DEAL, "Wenz", play))
    assert [(item.name, item.value) for item in wenz.items] == [("game", 5), ("schwarz", 2), ("laufende", 4)]
    assert wenz.payments == (33, -11, -11, -11)


def test_kratzen_pot_example():
    position = find_playout("Kratzen", "Trump H", lambda p: True, seed=1, seats=4)
    settlement = score_deal(position, pot=10)
    share = 10 // 4
    misses = [seat for seat in range(4) if position.state.tricks[seat] < position.rules.target(seat)]
    expected = [position.state.tricks[s] * share - (10 * (2 if s == 0 else 1) if s in misses else 0)
                for s in range(4)]
    assert settlement.payments == tuple(expected)
    assert settlement.pot_change == -4 * share + sum(10 * (2 if s == 0 else 1) for s in misses)
    assert zero_sum(settlement)


def test_kratzen_a_pot_that_does_not_divide_by_four_says_what_stays_in_it():
    """RULES.md 3.4: "each trick pays its winner P/4 (the remainder stays in the pot)". With 13 chips a trick pays 3,
    and a note says what the items' "P/4" came to and that 1 chip stays in the pot; 12 chips divide."""
    deal = "1: HA GK SO E8 / HZ S7 GO GZ / EA HK SU SZ"
    play = "HK HA HZ E8 S7 EA SZ SO GZ GK GO SU"  # the attacker (seat 3) leads; seat 1 wins tricks 1, 3 and 4
    position = position_of("Kratzen", deal, "Trump H", play, Declarer="3", Seats="3")
    settlement = score_deal(position, pot=13)
    assert [(item.name, item.winners, item.value) for item in settlement.items if item.name.startswith("trick")] == [
        ("trick 1", (1,), 3), ("trick 2", (3,), 3), ("trick 3", (1,), 3), ("trick 4", (1,), 3)]
    assert settlement.payments == (9, -13, -23) and settlement.pot_change == 27
    assert "pot 13 does not divide by 4: each trick pays 3, and 1 chip stays in the pot" in settlement.notes
    assert "note: pot 13 does not divide by 4" in str(settlement)
    assert not [note for note in score_deal(position, pot=12).notes if "divide" in note]


def test_kratzen_explicit_pot_case():
    # seat 1 attacks with hearts trump and takes every trick: 4 x 3 from a pot of 12; the others each pay 12
    deal = "1: HA S6 HK HO / E7 E8 E9 EZ / G7 G8 G9 GZ / S7 S8 S9 SZ"
    play = first_legal_play("Kratzen", deal, "Trump H")
    position = position_of("Kratzen", deal, "Trump H", play, Pot="12")
    settlement = score_deal(position)
    assert settlement.pot == 12
    assert settlement.payments == (12, -12, -12, -12)
    assert settlement.pot_change == 24
    muss = score_deal(position_of("Kratzen", deal, "Trump H Muss", play, Pot="12"))
    assert muss.payments == (0, -12, -12, -12) and muss.pot_change == 36
    empty = score_deal(position_of("Kratzen", deal, "Trump H", play))
    assert empty.payments == (0, 0, 0, 0) and empty.pot == 0


def test_kratzen_attacker_pays_double():
    deal = "1: E7 E8 E9 G7 / HA S6 HK HO / G8 G9 GZ GK / S7 S8 S9 SZ"
    play = first_legal_play("Kratzen", deal, "Trump H")
    settlement = score_deal(position_of("Kratzen", deal, "Trump H", play), pot=8)
    assert settlement.payments[0] == -16  # the attacker took nothing: 2P
    assert zero_sum(settlement)


def test_kratzen_penalty_says_the_tricks_taken_and_needed():
    """A penalty's reason reads as the other games' ("took 45 points (61 needed)"): the tricks the seat took and needed
    ("took 0 tricks (2 needed)"), not "took 0 of 1 tricks"."""
    deal = "1: E7 E8 E9 G7 / HA S6 HK HO / G8 G9 GZ GK / S7 S8 S9 SZ"
    play = first_legal_play("Kratzen", deal, "Trump H")
    penalties = items(score_deal(position_of("Kratzen", deal, "Trump H", play), pot=8))["penalty"]
    assert [item.reason for item in penalties] == ["seat 1 took 0 tricks (2 needed; the attacker pays 2P)",
                                                   "seat 3 took 0 tricks (1 needed)", "seat 4 took 0 tricks (1 needed)"]
    muss = items(score_deal(position_of("Kratzen", deal, "Trump H Muss", play), pot=8))["penalty"]
    assert muss[0].reason == "seat 1 took 0 tricks (2 needed; the attacker pays 2P)"
    from solver.games.kratzen import score_items

    rules = solver.make_position("Kratzen", deal, "Trump H").rules
    one, _ = score_items(rules, 8, [0, 1, 1, 1])  # type: ignore[arg-type]
    assert [item.reason for item in one if item.name == "penalty"][0] == \
        "seat 1 took 1 trick (2 needed; the attacker pays 2P)"


@pytest.mark.parametrize("contract, attacker_target", [("Trump H", 2), ("Trump H Muss", 2), ("Trump H SevenMuss", 1)])
def test_kratzen_targets(contract, attacker_target):
    """RULES.md 3.3 (line 171): "the attacker needs 2 tricks, every other active player 1 (a Seven-Muss: everyone
    1)"; a plain Muss keeps the attacker's 2 (the attacker is seat 3 here, not seat 1)."""
    deal = "1: HA S6 HK HO / E7 E8 E9 EZ / G7 G8 G9 GZ / S7 S8 S9 SZ"
    rules = solver.make_position("Kratzen", deal, contract, declarer=3).rules
    assert [rules.target(seat) for seat in range(4)] == [1, 1, attacker_target, 1]


def test_kratzen_seven_muss_attacker_without_a_trick_pays_twice_the_pot():
    """docs/rules.md reading 8: RULES.md 3.4's "the attacker 2P" holds in a Seven-Muss too; only the target (3.3)
    is 1 there, so seat 1 pays 2P for no trick and nothing for one, and the other seats P each."""
    from solver.games.kratzen import score_items

    deal = "1: E7 E8 E9 G7 / HA S6 HK HO / G8 G9 GZ GK / S7 S8 S9 SZ"
    rules = solver.make_position("Kratzen", deal, "Trump H SevenMuss").rules
    none, _ = score_items(rules, 8, [1, 1, 1, 1])  # type: ignore[arg-type]
    assert [(item.losers, item.multiplier, item.value) for item in none if item.name == "penalty"] == \
        [((1,), 2, 16), ((3,), 1, 8), ((4,), 1, 8)]
    one, _ = score_items(rules, 8, [0, 1, 1, 1])  # type: ignore[arg-type]
    assert [item.losers for item in one if item.name == "penalty"] == [(3,), (4,)]


#: Kratzen, hearts trump: the attacker's HA takes trick 1, and his three sevens no other trick (every suit is held
#: higher by a player who must follow and beat).
KRATZEN_ONE_TRICK_DEAL = "1: HA E7 G7 S7 / EA GA SA E8 / EK GK SK G8 / EO GO SO S8"


@pytest.mark.parametrize("contract, value, payments", [
    ("Trump H", -21, (-21, 9, -12, -12)),  # one trick's P/4 = 3, and 2P = 24 for the missed target
    ("Trump H Muss", -24, (-24, 0, -12, -12)),  # no trick payouts in a Muss, the penalty all the same
    ("Trump H SevenMuss", 0, (0, 0, -12, -12)),  # one trick is the attacker's target in a Seven-Muss
])
def test_kratzen_muss_and_seven_muss_settle_by_penalties_only(contract, value, payments):
    """RULES.md 3.4 (lines 176-177): each trick pays its winner P/4, "a player who misses his target pays P into the
    pot, the attacker 2P. Muss deals: no trick payouts, penalties only", with 3.3's targets (a Seven-Muss: 1 for
    everyone). The double-dummy settlement (docs/scoring.md): the attacker can force one trick, not two."""
    position = solver.make_position("Kratzen", KRATZEN_ONE_TRICK_DEAL, contract)
    result = dd_settlement(position, pot=12)
    assert (result.value, result.payments, result.points_optimum) == (value, payments, 1)


# --- Zwanzigerrufen items and flags -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def valat_play() -> str:
    return first_legal_play("Zwanzigerrufen", VALAT_DEAL, "Solo")


def valat_settlement(play: str, variant: str = "", announcements: str | None = None) -> Settlement:
    tags = {"Variant": variant} if variant else {}
    if announcements:
        tags["Announcements"] = announcements
    return score_deal(position_of("Zwanzigerrufen", VALAT_DEAL, "Solo", play, **tags))


def test_solo_valat_items(valat_play):
    found = items(valat_settlement(valat_play))
    assert found["game"][0].value == 4
    assert found["absolut"][0].value == 2  # doubled in a Solo
    assert found["valat"][0].value == 24  # 6 x game value, not doubled
    kings, = found["four_kings"]
    assert kings.winners == (2, 3, 4) and kings.value == 4  # 2, doubled in a Solo
    assert valat_settlement(valat_play).payments == (78, -26, -26, -26)


def test_solo_value_and_double_valat(valat_play):
    found = items(valat_settlement(valat_play, "solo_value=5"))
    assert found["game"][0].value == 5 and found["valat"][0].value == 30
    assert items(valat_settlement(valat_play, "double_valat_in_solo=true"))["valat"][0].value == 48


@pytest.mark.parametrize("mode, names, total", [
    ("separate", {"game", "absolut", "valat", "four_kings"}, 26),
    ("replaces_game", {"absolut", "valat", "four_kings"}, 22),
    ("cancels_other_bonuses", {"game", "valat"}, 28),
    ("multiplies_total", {"game", "absolut", "valat", "four_kings"}, (4 + 2 - 4) * 6),
])
def test_valat_modes(valat_play, mode, names, total):
    settlement = valat_settlement(valat_play, f"valat_mode={mode}")
    assert set(items(settlement)) == names
    assert settlement.payments[0] == 3 * total
    assert zero_sum(settlement)


def test_a_multiplying_valat_shows_its_own_value_and_kontra_and_says_the_factor(valat_play):
    """valat_mode=multiplies_total with "Valat; Kontra Valat": the factor is 12 x 2 = 24; the Valat's row shows 12 in
    the base column and its Kontra in the x column, as every other row does (not a base of 24 with x1), and its
    reason says how the 24 is made. Game 4 + Absolut 2 - 4 Kings 4 (the defenders'), x24: the soloist +3 x 48."""
    settlement = valat_settlement(valat_play, "valat_mode=multiplies_total", "1: Valat; 2: Kontra Valat")
    valat, = items(settlement)["valat"]
    assert (valat.base, valat.multiplier, valat.value) == (12, 2, 0)
    assert valat.reason.endswith("; multiplies every other item by 24 (12 x2 Kontra)")
    assert [(i.name, i.value) for i in settlement.items if i.name != "valat"] == [
        ("game", 96), ("absolut", 48), ("four_kings", 96)]
    assert settlement.payments == (144, -48, -48, -48)
    # a Retour'd Valat is named by its level, as the Kontra levels are everywhere: 12 x4 = 48
    retour, = items(valat_settlement(valat_play, "valat_mode=multiplies_total",
                                     "1: Valat; 2: Kontra Valat; 1: Retour Valat"))["valat"]
    assert (retour.base, retour.multiplier) == (12, 4)
    assert retour.reason.endswith("; multiplies every other item by 48 (12 x4 Retour)")
    silent, = items(valat_settlement(valat_play, "valat_mode=multiplies_total"))["valat"]
    assert (silent.base, silent.multiplier, silent.reason) == (6, 1, "Valat made silently; multiplies every other "
                                                                        "item by 6")


def test_a_valat_mode_acts_on_the_valat_its_side_achieved_whatever_its_reason_says(valat_play):
    """valat_mode decides from the items' fields and the play, not their wording: the soloist's silent Valat
    replaces the game with its reason reworded; "Valat dagegen" failed because the soloist took every trick is paid
    to him as an ordinary item, which neither replaces the game nor multiplies the others (RULES.md 1.6-1.7)."""
    position = position_of("Zwanzigerrufen", VALAT_DEAL, "Solo", valat_play, Variant="valat_mode=replaces_game")
    rules = position.rules
    outcome = TarockOutcome(rules, TarockFacts.from_state(rules, position.state))
    valat, = tarock_bonus_items(rules, outcome, Claims(), "valat")
    reworded = [dataclasses.replace(tarock_game_item(rules, outcome, Claims()), reason="won"),
                dataclasses.replace(valat, reason="ten tricks")]
    assert apply_valat_mode(rules, outcome, reworded) == (
        [reworded[1]], ["the Valat replaces the game (valat_mode=replaces_game)"])
    for mode in ("replaces_game", "cancels_other_bonuses", "multiplies_total"):
        settlement = valat_settlement(valat_play, f"valat_mode={mode}", "3: Valat dagegen")
        failed, = items(settlement)["valat"]
        assert (failed.winners, failed.against, failed.value) == ((1,), True, 48)
        assert [(i.name, i.value) for i in settlement.items] == [
            ("game", 8), ("absolut", 2), ("valat", 48), ("four_kings", 4)]  # "Valat dagegen" Kontras the game
        assert settlement.notes == ()


def test_announced_valat_with_kontra(valat_play):
    found = items(valat_settlement(valat_play, announcements="1: Valat; 2: Kontra Valat; 1: Retour Valat"))
    valat, = found["valat"]
    assert (valat.announced, valat.base, valat.multiplier, valat.value) == (True, 48, 4, 192)


def test_kontra_levels_on_the_game(valat_play):
    for text, level in [("2: Kontra", 2), ("2: Kontra; 1: Retour", 4), ("2: Kontra; 1: Rekontra; 3: Supra", 8),
                        ("2: Kontra; 1: Retour; 3: Supra; 1: Resupra", 16)]:
        game, = items(valat_settlement(valat_play, announcements=text))["game"]
        assert (game.multiplier, game.value) == (level, 4 * level)


def test_an_announcement_said_twice_is_refused(valat_play):
    with pytest.raises(StichError, match="Kontra on Game was already said"):
        valat_settlement(valat_play, announcements="2: Kontra; 2: Kontra")
    with pytest.raises(StichError, match="Valat was already announced by this side"):
        valat_settlement(valat_play, announcements="1: Valat; 1: Valat")


def test_failed_announced_absolut_goes_to_the_other_side(valat_play):
    absolut, = items(valat_settlement(valat_play, announcements="3: Absolut dagegen"))["absolut"]
    assert absolut.winners == (1,) and absolut.value == 4  # announced 2, doubled in a Solo
    game, = items(valat_settlement(valat_play, announcements="3: Absolut dagegen"))["game"]
    assert game.multiplier == 2  # "Absolut dagegen" includes a Kontra on the game


def test_card_bonus_basis_captured(valat_play):
    kings, = items(valat_settlement(valat_play, "card_bonus_basis=captured"))["four_kings"]
    assert kings.winners == (1,)  # the soloist took every trick, every king with them


def test_trull_dealt_and_announced():
    position = find_playout("Zwanzigerrufen", "Normal",
                            lambda p: any(all(h >> card_of(p, n) & 1 for n in ("TS", "T21", "T1"))
                                          for h in p.rules.deal.hands), seed=5)
    holder = position.rules.deal.holder(card_of(position, "TS"))
    trull, = items(score_deal(position))["trull"]
    assert holder + 1 in trull.winners and trull.value == 1
    announced, = items(score_deal(position, announcements=f"{holder + 1}: Trull"))["trull"]
    assert announced.value == 2 and holder + 1 in announced.winners


def test_a_silent_trull_or_four_kings_says_whose_cards_they_were():
    """The cards decide the Trull and the 4 Kings (RULES.md 1.6), not the play, so the reason names the seat dealt them
    (or, captured, the side that took them), as a Mondfang's names whose Mond was caught: "Trull made silently" would
    tell a player nothing he could check."""
    deal = "1: TS T21 T20 T1 HK / T19 HQ HN HJ HG / SK SQ SN SJ SG / CK CQ CN CJ CG"
    play = "TS T19 SG CG T21 HG SJ CJ T20 HJ SN CN HK HQ SQ CQ T1 HN SK CK"
    position = solver.make_position("Zwanzigerrufen", deal, "Solo", play=play)
    trull, = items(score_deal(position))["trull"]
    assert trull.winners == (1,) and trull.value == 2  # doubled in a Solo
    assert trull.reason == "Trull made silently: seat 1 was dealt TS T21 T1"
    captured = solver.make_position("Zwanzigerrufen", deal, "Solo", play=play, variant="card_bonus_basis=captured")
    trull, = items(score_deal(captured))["trull"]
    assert trull.reason == "Trull made silently: seat 1 took all three in the tricks"
    kings_deal = "1: TS T21 T20 T1 SN / T19 HQ HN HJ HG / SK CK HK DK SG / CQ CN CJ CG SQ"
    kings_play = "TS T19 SG CG T21 HG DK CJ T20 HJ CK CN SN HN SK SQ HK CQ T1 HQ"
    kings, = items(score_deal(solver.make_position("Zwanzigerrufen", kings_deal, "Normal T19",
                                                   play=kings_play)))["four_kings"]
    assert kings.reason == "4 Kings made silently: seat 3 was dealt the four Kings" and kings.winners == (3, 4)


def test_silent_pagat_made_and_beaten():
    def pagat_last(won: bool) -> Callable[[Position], bool]:
        def condition(position: Position) -> bool:
            last = position.state.history[-1]
            pagat = card_of(position, "T1")
            if pagat not in last.cards or card_of(position, "TS") in last.cards:
                return False
            seat = last.seat_of(last.cards.index(pagat), 4)
            return (last.winner == seat) == won
        return condition

    made = find_playout("Zwanzigerrufen", "Normal", pagat_last(True), seed=7)
    seat = made.rules.deal.holder(card_of(made, "T1"))
    pagat, = items(score_deal(made))["pagat_ultimo"]
    assert seat + 1 in pagat.winners and pagat.value == 1 and not pagat.announced
    beaten = find_playout("Zwanzigerrufen", "Normal", pagat_last(False), seed=7)
    seat = beaten.rules.deal.holder(card_of(beaten, "T1"))
    pagat, = items(score_deal(beaten))["pagat_ultimo"]
    assert seat + 1 in pagat.losers and pagat.value == 1


def test_pagat_played_early_scores_nothing_silently():
    position = find_playout("Zwanzigerrufen", "Normal",
                            lambda p: card_of(p, "T1") not in p.state.history[-1].cards, seed=2)
    assert "pagat_ultimo" not in items(score_deal(position))
    holder = position.rules.deal.holder(card_of(position, "T1")) + 1
    side = position.rules.side_of(holder - 1)
    text = f"{holder}: Pagat" if side == position.rules.declaring_side else f"2: Kontra; {holder}: Pagat dagegen"
    if holder == 2 and side != position.rules.declaring_side:
        text = f"{holder}: Kontra, Pagat dagegen"
    pagat, = items(score_deal(position, announcements=text))["pagat_ultimo"]
    assert holder in pagat.losers and pagat.value == 2  # an announced Pagat played early fails


def mondfang_condition(position: Position) -> bool:
    skus, mond = card_of(position, "TS"), card_of(position, "T21")
    for trick in position.state.history:
        if skus in trick.cards and mond in trick.cards:
            return trick.winner == trick.seat_of(trick.cards.index(skus), 4)
    return False


def test_mondfang_team_and_player():
    position = find_playout("Zwanzigerrufen", "Normal", mondfang_condition, seed=11)
    trick = next(t for t in position.state.history if card_of(position, "T21") in t.cards)
    loser = trick.seat_of(trick.cards.index(card_of(position, "T21")), 4)
    mondfang, = items(score_deal(position))["mondfang"]
    assert set(mondfang.losers) == {s + 1 for s in position.rules.side_of(loser)} and mondfang.value == 1
    as_player = solver.make_position("Zwanzigerrufen", position.rules.deal, "Normal",
                                     variant={"mondfang": "player"},
                                     play=[position.pack[c].name for c in position.played])
    settlement = score_deal(as_player)
    mondfang, = items(settlement)["mondfang"]
    assert mondfang.losers == (loser + 1,) and len(mondfang.winners) == 3
    assert zero_sum(settlement)


#: A Normal game (seat 1 calls T20, seat 4's) in which seat 4's Skus catches the Mond of his own partner, seat 1.
OWN_MONDFANG_DEAL = ("1: CK CQ T5 CG SN T17 T21 T14 DG T13 / T19 DN CN T12 HK T10 DK T7 DJ HQ / "
                     "T8 HJ SJ T11 T1 DQ T15 SK HG T16 / T20 HN T18 SG T4 SQ TS T6 CJ T9")
OWN_MONDFANG_PLAY = ("CQ CN T8 CJ / T15 TS T21 T10 / T6 T5 T12 T11 / DJ DQ T9 DG / HN T17 HK HJ / CK T19 T1 T20 / "
                     "T4 T14 T7 T16 / SJ SG SN HQ / T13 DK HG T18 / SQ CG DN SK")


def test_a_mondfang_by_the_own_partner_goes_to_the_other_side_and_says_whose_mond_it_was():
    """RULES.md 1.6/1.7: charged to the side that lost the Mond, even to its own Skus; the reason names the seat,
    since the side paid did nothing to earn it."""
    position = position_of("Zwanzigerrufen", OWN_MONDFANG_DEAL, "Normal", OWN_MONDFANG_PLAY)
    assert position.rules.declaring_side == frozenset({0, 3})
    mondfang, = items(score_deal(position))["mondfang"]
    assert (mondfang.winners, mondfang.losers, mondfang.value) == ((2, 3), (1, 4), 1)
    assert mondfang.reason == "Mondfang made silently: the Sküs caught the Mond of seat 1"


def test_tie_44():
    position = find_playout("Zwanzigerrufen", "Normal",
                            lambda p: p.state.side_points(p.rules.declaring_side) == 44, seed=13)
    game, = items(score_deal(position))["game"]
    assert game.winners == tuple(s + 1 for s in sorted(position.rules.defending_side))
    again = solver.make_position("Zwanzigerrufen", position.rules.deal, "Normal", variant={"tie_44": "no_score"},
                                 play=[position.pack[c].name for c in position.played])
    game, = items(score_deal(again))["game"]
    assert game.value == 0 and game.winners == ()


def test_suit_solo_counts_only_valat_absolut_kings():
    position = find_playout("Zwanzigerrufen", "SuitSolo", lambda p: True, seed=17, declarer=1,
                            variant={"suit_solo_min_suit_cards": 0})
    names = set(items(score_deal(position)))
    assert names <= {"game", "valat", "absolut", "four_kings"}
    assert items(score_deal(position))["game"][0].base == 4
    with pytest.raises(StichError, match="Suit Solo"):
        score_deal(position, announcements="1: Pagat")


#: Seat 1 holds ten suit cards with the four kings, seat 2 the Trull and seven tarocks, seat 3 ten tarocks, seat 4 the
#: other suit cards: in a Suit Solo of seat 1 every tarock is thrown to a suit lead and seat 1 takes all ten tricks.
SUIT_SOLO_DEAL = ("1: SK CK HK DK SQ CQ HQ DQ SN CN / TS T21 T1 T20 T19 T18 T17 T16 T15 T14 / "
                  "T13 T12 T11 T10 T9 T8 T7 T6 T5 T4 / SJ SG CJ CG HN HJ HG DN DJ DG")
#: A Solo of seat 1 with TS, T1 and T20..T13; seat 2 holds the Mond alone and the four kings. Seat 1 leads TS (seat 2
#: must give the Mond: a Mondfang), then T20..T13, and the Pagat last: Pagat Ultimo and Valat.
SOLO_BONUS_DEAL = ("1: TS T1 T20 T19 T18 T17 T16 T15 T14 T13 / T21 SK CK HK DK SQ CQ HQ DQ SN / "
                   "T12 T11 T10 T9 T8 T7 T6 T5 T4 CN / HN DN SJ CJ HJ DJ SG CG HG DG")
SOLO_BONUS_PLAY = ("TS T21 T12 SJ / T20 SK T11 SG / T19 SQ T10 CJ / T18 SN T9 CG / T17 CK T8 HN / T16 CQ T7 HJ / "
                   "T15 HK T6 HG / T14 HQ T5 DN / T13 DK T4 DJ / T1 DQ CN DG")


def test_suit_solo_scores_no_trull_pagat_or_mondfang_and_does_not_double():
    """RULES.md 1.7: "Suit Solo: only Valat, Absolut and 4 Kings count" (game 4, Valat 6 x 4) and nothing is
    doubled; seat 2 was dealt the Trull and plays the Pagat to the last trick, where it is beaten: neither scores."""
    play = first_legal_play("Zwanzigerrufen", SUIT_SOLO_DEAL, "SuitSolo", declarer=1)
    position = solver.make_position("Zwanzigerrufen", SUIT_SOLO_DEAL, "SuitSolo", declarer=1, play=play)
    last = position.state.history[-1]
    assert card_of(position, "T1") in last.cards and last.winner == 0  # the Pagat beaten in the last trick
    settlement = score_deal(position)
    assert [(i.name, i.winners, i.value) for i in settlement.items] == [
        ("game", (1,), 4), ("absolut", (1,), 1), ("valat", (1,), 24), ("four_kings", (1,), 2)]
    assert settlement.payments == (93, -31, -31, -31)  # the soloist +-3v


def test_a_solo_doubles_pagat_mondfang_and_kings_but_not_the_valat():
    """RULES.md 1.7: "Solo: every bonus counts double, Valat excepted": Absolut, Pagat Ultimo, Mondfang 2, 4 Kings
    4 (against the soloist: seat 2 was dealt them), Valat 6 x 4 = 24; the Mondfang is against seat 2's side, the side
    that lost the Mond."""
    position = position_of("Zwanzigerrufen", SOLO_BONUS_DEAL, "Solo", SOLO_BONUS_PLAY)
    settlement = score_deal(position)
    assert [(i.name, i.winners, i.value) for i in settlement.items] == [
        ("game", (1,), 4), ("absolut", (1,), 2), ("pagat_ultimo", (1,), 2), ("valat", (1,), 24),
        ("four_kings", (2, 3, 4), 4), ("mondfang", (1,), 2)]
    assert settlement.payments == (90, -30, -30, -30)


def test_a_solo_doubles_the_trull_and_a_silent_pagat_beaten():
    """RULES.md 1.7: a defender's Trull in a Solo is 2; the silent Pagat played to trick 10 and beaten scores for the
    opponents of its player's side (here the soloist, seat 3), at 1 doubled."""
    play = first_legal_play("Zwanzigerrufen", SUIT_SOLO_DEAL, "Solo", declarer=3)
    found = items(score_deal(solver.make_position("Zwanzigerrufen", SUIT_SOLO_DEAL, "Solo", declarer=3, play=play)))
    trull, = found["trull"]
    assert (trull.winners, trull.value) == ((1, 2, 4), 2)
    pagat, = found["pagat_ultimo"]
    assert (pagat.winners, pagat.value, pagat.announced) == ((3,), 2, False)


def test_valat_dagegen_includes_a_kontra_and_may_stand_for_pagat_dagegens():
    """RULES.md 1.7: "'Absolut/Valat dagegen' include one" (a Kontra on the game), so a Pagat dagegen may follow it;
    the failed Valat dagegen pays the declarers 12 x game value."""
    position = position_of("Zwanzigerrufen", KONTRA_DEAL, "Normal", KONTRA_PLAY)
    found = items(score_deal(position, announcements="2: Valat dagegen; 4: Pagat dagegen"))
    game, = found["game"]
    assert (game.winners, game.multiplier, game.value) == ((2, 4), 2, 2)
    valat, = found["valat"]
    assert (valat.winners, valat.announced, valat.value) == ((1, 3), True, 12)
    pagat, = found["pagat_ultimo"]
    assert (pagat.winners, pagat.announced, pagat.value) == ((2, 4), True, 2)


def test_a_failed_announced_valat_goes_to_the_other_side_with_its_kontra():
    """RULES.md 1.7: an announced item that fails goes to the other side at its announced value (12 x 1), times its
    own Kontra level; the game keeps its own (none)."""
    position = position_of("Zwanzigerrufen", KONTRA_DEAL, "Normal", KONTRA_PLAY)
    found = items(score_deal(position, announcements="1: Valat; 2: Kontra Valat"))
    valat, = found["valat"]
    assert (valat.winners, valat.base, valat.multiplier, valat.value) == ((2, 4), 12, 2, 24)
    assert found["game"][0].multiplier == 1


@pytest.mark.parametrize("text, message", [
    ("1: Absolut dagegen", "dagegen"),
    ("2: Kontra Pagat", "did not announce"),
    ("1: Kontra", "on the game"),
    ("4: Pagat dagegen", "needs a Kontra"),
    ("2: Kontra; 4: Supra", "needs a Retour"),
    ("3: Supra", "said by the defenders only"),
])
def test_bad_announcements(text, message):
    position = solver.make_position("Zwanzigerrufen", KONTRA_DEAL, "Normal", play=KONTRA_PLAY.replace("/", " "))
    with pytest.raises(StichError, match=message):
        score_deal(position, announcements=text)


@pytest.mark.parametrize("text, said", [
    ("2: Kontra; 3: Kontra", "seat 3: Kontra on the game is said by the defenders only; this seat declares: its side "
                             "answers a Kontra with Retour and a Supra with Resupra"),
    ("2: Kontra; 4: Retour", "seat 4: Retour on the game is said by the declarers only; this seat defends: its side "
                             "says Kontra, and answers a Retour with Supra"),
    ("1: Trull; 2: Kontra Trull; 1: Kontra Trull", "seat 1: Kontra on Trull is said by the other side only; this "
                                                   "seat's side announced it, and answers a Kontra with Retour and a "
                                                   "Supra with Resupra"),
    ("1: Trull; 2: Kontra Trull; 4: Retour Trull", "seat 4: Retour on Trull is said by the side that announced it "
                                                   "only; the other side announced it: this seat's side says Kontra, "
                                                   "and answers a Retour with Supra"),
    ("4: Pagat dagegen; 2: Kontra; 4: Kontra Pagat", "seat 4: Kontra on Pagat Ultimo is said by the other side only; "
                                                     "this seat's side announced it, and answers a Kontra with Retour"),
])
def test_a_kontra_level_of_the_other_side_names_the_word_of_the_seat_s_own(text, said):
    """A Kontra level on the game or a bonus said by the wrong side (the declarers' partner answering a Kontra with
    a second "Kontra", meaning the Retour) is refused with whose word it is and what the seat's side says instead."""
    position = solver.make_position("Zwanzigerrufen", KONTRA_DEAL, "Normal", play=KONTRA_PLAY.replace("/", " "))
    with pytest.raises(StichError) as raised:
        score_deal(position, announcements=text)
    assert said in str(raised.value)


def test_an_item_that_is_no_bonus_is_told_every_kontra_level_it_could_be():
    """The message for an item that is neither a bonus nor a Kontra level lists the levels: it left out Rekontra,
    which RULES.md 1.7 names beside Retour (x4) and the parser takes."""
    from solver.announcements import LEVELS, parse_announcements

    with pytest.raises(StichError) as raised:
        parse_announcements("1: Foo")
    assert str(raised.value).endswith("or Kontra/Retour/Rekontra/Supra/Resupra")
    assert all(level.capitalize() in str(raised.value) for level in LEVELS)


BONUS_LIST = "(Absolut, Pagat, Valat, Trull, 4 Kings, Mondfang)"
AFTER_A_LEVEL = "(Absolut, Pagat, Valat, Trull, 4 Kings, Mondfang, or none for the game)"


@pytest.mark.parametrize("text, said", [
    ("2: Contra", f"announcement 'Contra': expected a bonus {BONUS_LIST} optionally followed by 'dagegen' or 'dazu', "
                  "or Kontra/Retour/Rekontra/Supra/Resupra; did you mean 'Kontra' or 'Rekontra'?"),
    ("2: Pagatt", f"announcement 'Pagatt': expected a bonus {BONUS_LIST} optionally followed by 'dagegen' or 'dazu', "
                  "or Kontra/Retour/Rekontra/Supra/Resupra; did you mean 'Pagat'?"),
    ("2: Kontra Pagatt", f"announcement 'Kontra Pagatt': expected one bonus after 'Kontra' {AFTER_A_LEVEL}; did you "
                         "mean 'Pagat'?"),
    ("3: Kontra Valatt", f"announcement 'Kontra Valatt': expected one bonus after 'Kontra' {AFTER_A_LEVEL}; did you "
                         "mean 'Valat'?"),
    ("1: Absolut dagegn", f"announcement 'Absolut dagegn': expected a bonus {BONUS_LIST} optionally followed by "
                          "'dagegen' or 'dazu', or Kontra/Retour/Rekontra/Supra/Resupra; did you mean 'dagegen'?"),
    ("1: Kontra Spil", f"announcement 'Kontra Spil': expected one bonus after 'Kontra' {AFTER_A_LEVEL}; did you mean "
                       "'Spiel'?"),
    ("1: Kontra Koenge", f"announcement 'Kontra Koenge': expected one bonus after 'Kontra' {AFTER_A_LEVEL}; did you "
                         "mean 'Koenige' or 'Könige'?"),
])
def test_a_misspelt_announcement_word_is_offered_the_words_it_is_spelt_like(text, said):
    """A misspelt word of an item ("Contra", the Italian spelling a player may write) is offered the words of the
    parser's own vocabulary it is spelt like, after the reason as a contract's hint is; after a Kontra level that
    reads, the bonus is what is said to be expected."""
    from solver.announcements import parse_announcements

    with pytest.raises(StichError) as raised:
        parse_announcements(text)
    assert str(raised.value) == said


def test_a_misspelt_announcement_in_a_record_quotes_the_item_once():
    """A record's reader points at the item and does not add "(got 'Pagatt')" to a message that quotes it."""
    import io

    from solver.api import read_positions

    record = ('[Game "Zwanzigerrufen"]\n[Announcements "2: Pagatt"]\n[Deal "1: T19 T14 T1 SK SN HQ HN HJ DJ DG / TS '
              'T20 T18 T16 T13 T12 T11 T5 SQ DN / T21 T17 T9 T8 T4 SG CQ CN HK DQ / T15 T10 T7 T6 SJ CK CJ CG HG DK"]\n'
              '[Contract "Normal"]\n[Declarer "1"]\n')
    with pytest.raises(StichError) as raised:
        list(read_positions(io.StringIO(record), name="a.tbn"))
    message = str(raised.value)
    assert message.startswith("a.tbn:2:20: announcement 'Pagatt': expected a bonus")
    assert message.endswith("did you mean 'Pagat'?") and message.count("Pagatt") == 1


def test_dazu_is_the_declarers_own_announcement_said_explicitly():
    """Seed 000: a bonus is announced "dazu" (with forehand) or "dagegen": "1: Absolut dazu" parses and scores as the
    bare announcement, and a defender's "dazu" is refused at its item."""
    dazu = parse_announcements("1: Absolut dazu, Pagat Ultimo Dazu")
    assert dazu == [Announcement(1, "absolut"), Announcement(1, "pagat_ultimo")] and all(item.dazu for item in dazu)
    position = position_of("Zwanzigerrufen", KONTRA_DEAL, "Normal", KONTRA_PLAY, Announcements="3: Absolut dazu")
    assert score_deal(position).items == score_deal(position, announcements="3: Absolut").items
    # the same claims, so the same settlement tables (they are keyed by them): 'dazu' adds nothing to compare
    claims, bare = (scoring_inputs(position, announcements=text) for text in ("3: Absolut dazu", "3: Absolut"))
    assert claims == bare and hash(claims) == hash(bare)
    absolut, = items(score_deal(position))["absolut"]
    assert (absolut.winners, absolut.announced, absolut.value) == ((2, 4), True, 2)  # D took 40: it failed
    with pytest.raises(StichError, match=r"seat 2: 'dazu' is said by a declarer; this seat defends "
                                         r"\(say 'Absolut dagegen'\)"):
        score_deal(position, announcements="2: Absolut dazu")


def test_a_defenders_pagat_dazu_is_told_the_kontra_its_dagegen_needs():
    """A defender's "Pagat dazu" is told that "Pagat Ultimo dagegen" needs a Kontra on the game (RULES.md 1.7), not only
    to say the dagegen, which is refused in turn without one: the hint names the Kontra, and the two together score."""
    position = position_of("Zwanzigerrufen", KONTRA_DEAL, "Normal", KONTRA_PLAY)
    with pytest.raises(StichError, match=r"seat 4: 'dazu' is said by a declarer; this seat defends "
                                         r"\(say 'Pagat Ultimo dagegen' with a Kontra on the game\)"):
        score_deal(position, announcements="4: Pagat dazu")
    with pytest.raises(StichError, match="Pagat dagegen needs a Kontra on the game"):
        score_deal(position, announcements="4: Pagat Ultimo dagegen")
    pagat, = items(score_deal(position, announcements="2: Kontra; 4: Pagat Ultimo dagegen"))["pagat_ultimo"]
    assert (pagat.winners, pagat.announced) == ((2, 4), True)


def test_pagat_ultimo_is_announced_by_the_pagat_holder():
    """RULES.md 1.6: Pagat Ultimo is the T1 holder's (seed 000: who announces it "commits to take the last trick with
    the Pagat"), and a hand analysis puts the Pagat in its announcer's hand: seat 1 announcing it while seat 4 holds T1
    is refused, at its item, not scored as a failed Pagat (2 to 2+4) dropping seat 4's own Pagat Ultimo."""
    position = solver.make_position("Zwanzigerrufen", KONTRA_DEAL, "Normal", play=KONTRA_PLAY.replace("/", " "))
    with pytest.raises(StichError, match=r"seat 1: Pagat Ultimo is announced by the Pagat's holder, seat 4"):
        score_deal(position, announcements="1: Pagat")
    with pytest.raises(StichError, match=r"seat 2: Pagat Ultimo is announced by the Pagat's holder, seat 4"):
        score_deal(position, announcements="2: Kontra, Pagat dagegen")
    pagat, = items(score_deal(position, announcements="2: Kontra; 4: Pagat dagegen"))["pagat_ultimo"]
    assert (pagat.winners, pagat.announced, pagat.value) == ((2, 4), True, 2)
    ending = solver.make_position("Zwanzigerrufen", "1: TS / T21 / T4 / T5", "Normal T19", partner=3,
                                  play="TS T21 T4 T5")
    pagat, = items(score_deal(ending, announcements="1: Pagat"))["pagat_ultimo"]  # an ending without the Pagat
    assert pagat.reason.endswith("failed")


def test_incomplete_play_is_rejected():
    position = solver.make_position("Zwanzigerrufen", KONTRA_DEAL, "Normal", play="DG DK T21 DN")
    with pytest.raises(StichError, match="scoring needs every card of the deal played"):
        score_deal(position)


def test_sie_needs_no_play():
    deal = "1: EO GO HO SO EU GU HU SU / EA EZ EK E9 E8 E7 GA GZ / GK G9 G8 G7 HA HZ HK H9 / H8 H7 SA SZ SK S9 S8 S7"
    settlement = score_deal(solver.make_position("Schafkopf", deal, "Sie"))
    assert settlement.payments == (156, -52, -52, -52)


#: A Wenz Tout of seat 4 (EU GU: 2 Laufende, x2 in a Tout) that seat 1's EA beats in trick 1 (EO is an acorn in a
#: Wenz).
TOUT_DEAL = "1: EA EZ EK E9 GA GZ GK G9 / E8 E7 G8 G7 SA SZ SK S9 / HU SU S8 S7 H7 HK H9 H8 / EO GO HO SO EU GU HA HZ"


def test_a_tout_ends_at_its_first_lost_trick():
    """CARDAVIA (seeds/001): losing a trick ends a Tout in defeat, so a record of it stops there and is scored:
    v = 10 + 2 x 2 Laufende = 14, the declarer pays 3v."""
    lost = position_of("Schafkopf", TOUT_DEAL, "WenzTout", "EA E8 H7 EO", Declarer="4")
    settlement = score_deal(lost)
    assert {name: found[0].value for name, found in items(settlement).items()} == {"game": 10, "laufende": 4}
    assert settlement.payments == (14, 14, 14, -42)
    assert any("trick 1" in note for note in settlement.notes)
    # the deal ended at trick 1: not "took 0 of 8 tricks", of which seven were never played
    assert items(settlement)["game"][0].reason == "the declarer lost a trick (a Tout needs all 8)"
    # a Tout the declarer has not lost yet still needs its play
    unbroken = position_of("Schafkopf", TOUT_DEAL, "WenzTout", "EA E8 H7 EO", Declarer="1")
    with pytest.raises(StichError, match="complete Play section"):
        score_deal(unbroken)


def test_cli_scores_a_tout_stopped_at_its_lost_trick(tmp_path):
    text = record_text("Schafkopf", TOUT_DEAL, "WenzTout", "EA E8 H7 EO", Declarer="4")
    result = runner.invoke(APP, ["score", str(write(tmp_path, text)), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["payments"] == [14, 14, 14, -42]


# --- zero sum on random playouts ----------------------------------------------------------------------------------

ZERO_SUM_CASES = [
    ("Zwanzigerrufen", "Normal", None, "sides"),
    ("Zwanzigerrufen", "Solo", None, "2: Kontra; 1: Retour; 1: Valat"),
    ("Zwanzigerrufen", "SuitSolo", None, "1: Absolut; 4: Kontra Absolut"),
    ("Schafkopf", "Rufer E", None, None), ("Schafkopf", "Rufer G", None, None), ("Schafkopf", "Wenz", None, None),
    ("Schafkopf", "Solo H", None, None), ("Schafkopf", "WenzTout", None, None),
    ("Schafkopf", "SoloTout S", None, None),
    ("Kratzen", "Trump E", 3, None), ("Kratzen", "Trump G", 4, None), ("Kratzen", "Trump H Muss", 5, None),
    ("Kratzen", "Trump S SevenMuss", 6, None),
]


def side_announcements(position: Position) -> str:
    """Announcements that fit the deal's sides: forehand's Absolut, the Pagat holder's Pagat, a defender's Kontra and
    Valat dagegen, the partner's Kontra on that Valat and forehand's Retour on the Absolut."""
    rules = position.rules
    partner = max(rules.declaring_side) + 1
    defender = min(rules.defending_side) + 1
    holder = rules.deal.holder(card_of(position, "T1"))
    pagat = f"{holder + 1}: Pagat" + ("" if holder in rules.declaring_side else " dagegen")  # the holder says it
    return (f"1: Absolut; {pagat}; {defender}: Kontra, Valat dagegen, Kontra Absolut; {partner}: Kontra Valat; "
            "1: Retour Absolut")


@pytest.mark.parametrize("game, contract, seats, announcements", ZERO_SUM_CASES)
def test_zero_sum_on_random_playouts(game, contract, seats, announcements):
    rng = random.Random(f"{game} {contract}")
    flags = {"suit_solo_min_suit_cards": 0} if contract == "SuitSolo" else {}
    scored = 0
    for number in range(40):
        variant = dict(flags)
        if game == "Zwanzigerrufen":
            variant["valat_mode"] = ("separate", "replaces_game", "cancels_other_bonuses",
                                     "multiplies_total")[number % 4]
            variant["mondfang"] = ("team", "player")[number % 2]
        position = random_playout(rng, game, contract, seats=seats, variant=variant)
        if position is None:
            continue
        if announcements == "sides":
            announcements_now = side_announcements(position)
        else:
            announcements_now = announcements
        pot = rng.randrange(0, 40)  # drawn for every game, so that the seeded playouts stay the same
        settlement = score_deal(position, pot=pot if position.game.has_pot else None, announcements=announcements_now)
        assert zero_sum(settlement), settlement
        # each seat's payment is its side's net shared out (what advice compares between contracts), but for a
        # Mondfang charged to one player; a pot game's attacker is paid the net
        rules, game = position.rules, position.game
        net = sum(settlement.payments[seat] for seat in rules.declaring_side)
        shares = [game.seat_share(rules, seat, net) for seat in range(rules.seats)]
        if game.has_pot:
            assert shares[rules.declarer] == net
        elif variant.get("mondfang") == "player" and "mondfang" in items(settlement):
            assert sum(shares[seat] for seat in rules.declaring_side) == net and sum(shares) == 0
        else:
            assert shares == list(settlement.payments), settlement
        scored += 1
    assert scored >= 5


# --- RULES.md 1.7 read a second time --------------------------------------------------------------------------------


#: The announcement words of the bonuses, and their silent values (Valat: 6 x game value).
RULE_BOOK_WORDS = {"absolut": "Absolut", "pagat_ultimo": "Pagat", "valat": "Valat", "trull": "Trull",
                   "four_kings": "Koenige", "mondfang": "Mondfang"}
RULE_BOOK_SILENT = {"absolut": 1, "pagat_ultimo": 1, "trull": 1, "four_kings": 2, "mondfang": 1}
RULE_BOOK_LEVELS = ("Kontra", "Retour", "Supra", "Resupra")


def rule_book_announcements(rng: random.Random, position: Position) -> tuple[str, dict]:
    """Up to two bonuses announced by a random side (the Pagat by its holder; a defender's Absolut, Valat or Pagat
    said 'dagegen'), each with 0 to 3 Kontra levels said by the right sides, and 0 to 3 on the game; with the level
    each item ends at."""
    rules = position.rules
    sides = {"D": sorted(rules.declaring_side), "O": sorted(rules.defending_side)}
    pool = ["absolut", "valat", "four_kings"] if rules.contract.kind == "suitsolo" else list(RULE_BOOK_WORDS)
    said, levels = [], {}
    pagat_holder = rules.deal.holder(card_of(position, "T1"))
    for bonus in rng.sample(pool, rng.randint(0, 2)):
        owner = rng.choice("DO")
        seat = rng.choice(sides[owner])
        if bonus == "pagat_ultimo":  # the seat dealt the Pagat announces it
            seat, owner = pagat_holder, "D" if pagat_holder in sides["D"] else "O"
        other = "O" if owner == "D" else "D"
        dagegen = owner == "O" and bonus in ("absolut", "valat", "pagat_ultimo")
        said.append(f"{seat + 1}: {RULE_BOOK_WORDS[bonus]}" + (" dagegen" if dagegen else ""))
        levels[(bonus, owner)] = 1
        if owner == "O" and bonus in ("absolut", "valat"):
            levels["game"] = 2  # 'Absolut/Valat dagegen' include a Kontra on the game
        for step in range(rng.randint(0, 3)):
            seat = rng.choice(sides[other if step % 2 == 0 else owner]) + 1
            said.append(f"{seat}: {RULE_BOOK_LEVELS[step]} {RULE_BOOK_WORDS[bonus]}")
            levels[(bonus, owner)] = 2 ** (step + 1)
    for step in range(rng.randint(0, 3)):
        said.append(f"{rng.choice(sides['O' if step % 2 == 0 else 'D']) + 1}: {RULE_BOOK_LEVELS[step]}")
        levels["game"] = max(levels.get("game", 1), 2 ** (step + 1))
    return "; ".join(said), levels


def rule_book_payments(position: Position, levels: dict, variant: dict) -> tuple[int, ...]:
    """Every seat's payment as RULES.md 1.7 says, written from the rule book alone (valat_mode=separate)."""
    rules, state = position.rules, position.state
    everyone = frozenset(range(4))
    sides = {"D": rules.declaring_side, "O": everyone - rules.declaring_side}
    side_of = lambda seat: sides["D"] if seat in sides["D"] else sides["O"]  # noqa: E731
    kind = rules.contract.kind
    value = {"normal": 1, "suitsolo": 4, "solo": int(variant.get("solo_value", 4))}[kind]
    double = 2 if kind == "solo" else 1
    valat_double = 2 if kind == "solo" and variant.get("double_valat_in_solo") == "true" else 1
    points, tricks = state.side_points(sides["D"]), state.side_tricks(sides["D"])
    skus, mond, pagat = (card_of(position, name) for name in ("TS", "T21", "T1"))
    last = state.history[-1]
    pagat_seat = last.seat_of(last.cards.index(pagat), 4) if pagat in last.cards else None
    pagat_won = pagat_seat is not None and last.winner == pagat_seat and (
        variant.get("pagat_via_sagotrick", "true") == "true" or skus not in last.cards)
    caught = [trick.seat_of(trick.cards.index(mond), 4) for trick in state.history
              if {skus, mond} <= set(trick.cards) and trick.winner == trick.seat_of(trick.cards.index(skus), 4)]

    def achieved(bonus: str, side: frozenset) -> bool:
        hands = [rules.deal.hands[seat] for seat in side]
        return {"absolut": points >= 56 if side == sides["D"] else points <= 32,
                "valat": tricks == (10 if side == sides["D"] else 0),
                "pagat_ultimo": pagat_won and pagat_seat in side,
                "trull": any(all(h >> card_of(position, n) & 1 for n in ("TS", "T21", "T1")) for h in hands),
                "four_kings": any(all(h >> card_of(position, s + "K") & 1 for s in "SCHD") for h in hands),
                "mondfang": any(seat not in side for seat in caught)}[bonus]

    paid = []  # (winning seats, value)
    if not (points == 44 and variant.get("tie_44") == "no_score"):
        paid.append((sides["D"] if points >= 45 else sides["O"], value * levels.get("game", 1)))
    counted = ["absolut", "valat", "four_kings"] if kind == "suitsolo" else list(RULE_BOOK_WORDS)
    for bonus in counted:
        owners = [name for name in "DO" if (bonus, name) in levels]
        for name in owners:  # an announced item: made, or failed to the other side, at its announced value
            base = 12 * value * valat_double if bonus == "valat" else 2 * RULE_BOOK_SILENT[bonus] * double
            made = achieved(bonus, sides[name])
            paid.append((sides[name] if made else everyone - sides[name], base * levels[(bonus, name)]))
        if owners:
            continue
        base = 6 * value * valat_double if bonus == "valat" else RULE_BOOK_SILENT[bonus] * double
        if bonus == "mondfang" and variant.get("mondfang") == "player":
            paid += [(everyone - {seat}, base) for seat in caught]
            continue
        paid += [(side, base) for side in sides.values() if achieved(bonus, side)]
        if bonus == "pagat_ultimo" and pagat_seat is not None and last.winner != pagat_seat:
            paid.append((everyone - side_of(pagat_seat), base))  # the silent Pagat beaten in trick 10
    payments = [0] * 4
    for winners, amount in paid:  # 2 against 2: +-v each; one seat against three: +-3v and -+v
        losers = everyone - winners
        for seat in winners:
            payments[seat] += amount * max(1, len(losers) // len(winners))
        for seat in losers:
            payments[seat] -= amount * max(1, len(winners) // len(losers))
    return tuple(payments)


@pytest.mark.parametrize("contract", ["Normal", "Solo", "SuitSolo"])
def test_scores_agree_with_a_second_reading_of_the_rule_book(contract):
    """RULES.md 1.7 item by item, written again from the rule book alone (:func:`rule_book_payments`) and compared
    with the scorer on seeded random playouts: game values (1, 4, solo_value), every bonus silent and announced,
    the Solo doubling (Valat only under double_valat_in_solo), the Suit Solo's three bonuses, failed announcements
    to the other side, silent failures scoring nothing but the Pagat beaten in trick 10, the Mondfang against the
    side (or player) that lost the Mond, the Kontra levels on the game and on each announced bonus, tie_44 and the
    payments of 2 against 2 and of a soloist."""
    rng = random.Random(f"rule book {contract}")
    variants = [{}, {"solo_value": "5", "double_valat_in_solo": "true"}, {"tie_44": "no_score"},
                {"mondfang": "player"}, {"pagat_via_sagotrick": "false"}]
    compared = 0
    for number in range(150):
        variant = variants[number % len(variants)]
        flags = dict(variant, suit_solo_min_suit_cards="0") if contract == "SuitSolo" else variant
        declarer = 1 if contract == "Normal" else rng.randint(1, 4)
        position = random_playout(rng, "Zwanzigerrufen", contract, declarer=declarer, variant=flags)
        if position is None:
            continue
        text, levels = rule_book_announcements(rng, position)
        if ("pagat_ultimo", "O") in levels and levels.get("game", 1) < 2:
            with pytest.raises(StichError, match="Pagat dagegen needs a Kontra on the game"):
                score_deal(position, announcements=text)
            continue
        assert score_deal(position, announcements=text).payments == rule_book_payments(position, levels, variant), \
            (text, variant)
        compared += 1
    assert compared >= 100


# --- the command --------------------------------------------------------------------------------------------------


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "deals.tbn"
    path.write_text(text, encoding="utf-8")
    return path


def test_cli_score_json(tmp_path):
    text = (record_text("Zwanzigerrufen", KONTRA_DEAL, "Normal", KONTRA_PLAY, Board="1",
                        Announcements=KONTRA_ANNOUNCEMENTS) + "\n"
            + record_text("Schafkopf", WENZ_DEAL, "Wenz", WENZ_PLAY, Board="2"))
    result = runner.invoke(APP, ["score", str(write(tmp_path, text)), "--json"])
    assert result.exit_code == 0, result.output
    documents = [json.loads(line) for line in result.stdout.splitlines()]
    assert [d["payments"] for d in documents] == [[-2, 2, -2, 2], [21, -7, -7, -7]]
    assert documents[0]["items"][0]["multiplier"] == 2
    board = runner.invoke(APP, ["score", str(write(tmp_path, text)), "--json", "--board", "2"])
    assert [json.loads(line)["game"] for line in board.stdout.splitlines()] == ["Schafkopf"]


def test_cli_score_the_solo_check_case(tmp_path):
    """RULES.md 2.5's second check case through ``stich score``: Solo lost with 28, L = 4, S = 1, v = 10."""
    result = runner.invoke(APP, ["score", str(write(tmp_path, record_text("Schafkopf", SOLO_DEAL, "Solo E",
                                                                          SOLO_PLAY))), "--json"])
    assert result.exit_code == 0, result.output
    document, = (json.loads(line) for line in result.stdout.splitlines())
    assert document["payments"] == [-30, 10, 10, 10]
    assert {item["name"]: item["value"] for item in document["items"]} == {"game": 5, "schneider": 1, "laufende": 4}


@pytest.mark.parametrize("said", ["4 Kings", "Vier Könige", "four kings", "Vier Koenige", "4 Könige", "Koenige"])
def test_four_kings_announced_as_the_rules_and_the_score_name_them(said):
    """RULES.md 1.7 and the score's own item title say "4 Kings" (players: "Vier Könige"), so the tag takes that name as
    it takes the one-word "Koenige"/"4Kings": a name copied from `stich score` parses."""
    assert parse_announcements(f"1: {said}; 2: Kontra {said}") == [Announcement(1, "four_kings"),
                                                                   Announcement(2, "four_kings", level=2)]
    position = solver.make_position("Zwanzigerrufen", KONTRA_DEAL, "Normal", play=KONTRA_PLAY.replace("/", " "))
    kings, = items(score_deal(position, announcements=f"1: {said}; 2: Kontra {said}"))["four_kings"]
    assert kings.announced and kings.winners == (2, 4) and kings.value == 8  # nobody was dealt them: 2 x 2, Kontra


def test_cli_score_table_and_variant(tmp_path):
    play = first_legal_play("Zwanzigerrufen", VALAT_DEAL, "Solo")
    path = write(tmp_path, record_text("Zwanzigerrufen", VALAT_DEAL, "Solo", play))
    result = runner.invoke(APP, ["score", str(path), "--variant", "solo_value=5"])
    assert result.exit_code == 0, result.output
    assert "Items" in result.stdout and "Payments" in result.stdout and "+99" in result.stdout  # 5 + 2 + 30 - 4, x3


def test_cli_score_kratzen_pot(tmp_path):
    deal = "1: HA S6 HK HO / E7 E8 E9 EZ / G7 G8 G9 GZ / S7 S8 S9 SZ"
    path = write(tmp_path, record_text("Kratzen", deal, "Trump H", first_legal_play("Kratzen", deal, "Trump H")))
    result = runner.invoke(APP, ["score", str(path), "--json", "--pot", "12"])
    document = json.loads(result.stdout)
    assert document["payments"] == [12, -12, -12, -12] and document["pot_change"] == 24
    assert document["value"] == 12  # the attacker's net


def test_cli_score_value_is_the_declaring_sides_net_as_check_and_dd_name_it():
    """``score --json`` names the declaring side's net ``value``, as its ``dd`` and ``check``'s ``score`` do: a
    reader of the three finds the one number under one name (a deal played to the end, so all three agree)."""
    example = str(Path(__file__).resolve().parent.parent / "examples" / "schafkopf.tbn")
    scored = json.loads(runner.invoke(APP, ["score", example, "-b", "7", "--dd", "--json"]).stdout)
    checked = json.loads(runner.invoke(APP, ["check", example, "-b", "7", "--json"]).stdout)
    assert scored["payments"] == [-2, 2, -2, 2] and scored["declaring_side"] == [1, 3]
    assert (scored["value"], scored["dd"]["value"], checked["score"]["value"]) == (-4, -4, -4)


@pytest.mark.parametrize("announcements, column_of", [
    ("2: Kontra, Absolut dagegen; 3: Retour Pagat", "Retour Pagat"),
    ("1: Absolut dagegen", "Absolut dagegen"),
    ("2: Kontra, Bogus", "Bogus"),  # text that does not parse: at its item, not at the tag's start
    ("2: Kontra; Retour", "Retour"),  # an entry without its seat
    ("2: Kontra; 3: Kontra Vier Koenig", "Kontra Vier Koenig"),
    ("2: Kontra; 5: Valat", "5: Valat"),  # no such seat: at its entry too
])
def test_cli_rejects_bad_announcements_with_line_and_column(tmp_path, announcements, column_of):
    text = record_text("Zwanzigerrufen", KONTRA_DEAL, "Normal", KONTRA_PLAY, Announcements=announcements)
    path = write(tmp_path, text)
    result = runner.invoke(APP, ["score", str(path)])
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    line_number = next(n for n, line in enumerate(text.splitlines(), 1) if line.startswith("[Announcements"))
    line = text.splitlines()[line_number - 1]
    assert f"{path}:{line_number}:{line.index(column_of) + 1}:" in result.stderr
    if column_of == "5: Valat":  # the entry has the shape expected: only its seat is wrong
        assert "expected seat: announcement" not in result.stderr


def test_cli_rejects_bad_pot(tmp_path):
    deal = "1: HA S6 HK HO / E7 E8 E9 EZ / G7 G8 G9 GZ / S7 S8 S9 SZ"
    text = record_text("Kratzen", deal, "Trump H", first_legal_play("Kratzen", deal, "Trump H"), Pot="lots")
    result = runner.invoke(APP, ["score", str(write(tmp_path, text))])
    assert result.exit_code == 1 and ":4:7: [Pot] is not a number of chips" in result.stderr


def test_cli_rejects_incomplete_play(tmp_path):
    text = record_text("Zwanzigerrufen", KONTRA_DEAL, "Normal", "DG DK T21 DN")
    result = runner.invoke(APP, ["score", str(write(tmp_path, text))])
    assert result.exit_code == 1 and "complete Play section" in result.stderr


def test_scoring_a_made_position_before_its_end_says_every_card_is_needed_not_a_play_section():
    """A position from make_position has no Play section: score_deal of one before its end raises an
    InvalidPositionError in the API's words, not 'a complete Play section' and 'stich score --dd', a command that never
    saw it."""
    position = solver.make_position("Kratzen", "1: EO E9 SU SZ / GA HA HU S7 / EK G8 HO SK", "Trump S", play="EO S7")
    with pytest.raises(solver.InvalidPositionError) as caught:
        solver.score_deal(position)
    assert str(caught.value) == ("scoring needs every card of the deal played (0 of 4 tricks and 2 cards "
                                 "played; dd_settlement settles the rest double dummy)")


def test_scoring_an_unfinished_record_from_a_file_is_the_position_error_an_app_catches():
    """score_deal of a record whose play stops early raises the InvalidPositionError a made position raises (an app
    catches one class for a deal not finished), also a ParseError at the file's place where the play stops (the
    command's message)."""
    examples = Path(__file__).parent.parent / "examples"
    position = list(solver.read_positions(examples / "schafkopf.tbn"))[1]
    with pytest.raises(solver.InvalidPositionError) as caught:
        solver.score_deal(position)
    assert isinstance(caught.value, solver.ParseError)
    assert (caught.value.line, caught.value.column) == (36, 10)
    assert caught.value.message == ("scoring needs a complete Play section, every card of the deal played (4 of 8 "
                                    "tricks played); the double-dummy settlement plays the rest: stich score --dd, "
                                    "dd_settlement")


def test_a_mean_that_rounds_to_zero_is_written_unsigned_in_every_report():
    """analyse, match and advice write a mean that rounds to zero as ``0.00``, not ``+0.00`` or ``-0.00`` (``:+.2f`` of
    a tiny negative), a gain or a loss that is neither: one helper writes them all, as ``signed`` writes a settlement's
    0."""
    from solver.advice import mean_with_interval
    from solver.match import Mean, mean_text
    assert [signed_mean(v) for v in (0.0, -0.0, -0.004, 0.004, 0.005001, -1.25, 12.5)] == [
        "0.00", "0.00", "0.00", "0.00", "+0.01", "-1.25", "+12.50"]
    assert mean_with_interval(-0.001, [None, None]) == "0.00"
    assert mean_text(Mean.of([-0.001])) == "0.00"


#: Whole Zwanzigerrufen deals played to the end, each settlement checked by hand against RULES.md 1.7 (the values
#: in the comments; v is what each loser pays per winner, a soloist moves 3v).
AUDITED_DEALS = [
    # Normal T20 (seat 2), "3: Kontra; 1: Retour": D took 15. Game 1 x 4 + Absolut against (silent) 1: v = 5.
    ("1: T8 T4 SK SQ SN SJ SG CQ CG DQ / T20 T19 T14 T11 T10 T9 T7 CK CN CJ / T21 T6 T1 HK HQ HN HG DK DN DG / "
     "TS T18 T17 T16 T15 T13 T12 T5 HJ DJ", "Normal", "1", "3: Kontra; 1: Retour",
     "T8 T20 T21 T18 / T6 TS T4 T19 / T17 SK T11 T1 / T16 SQ T10 HK / T15 SN T9 HQ / T13 SJ T14 HN / T7 HG T12 SG / "
     "T5 CQ CK DK / HJ CG CN DN / DJ DQ CJ DG", (-5, -5, 5, 5)),
    # Solo of seat 2 (dealt the Trull), "2: Pagat; 3: Kontra Pagat": D took 29, T1 spent in trick 6. Game 4 +
    # Absolut against 1 x 2 + Pagat failed 2 x 2 (Solo) x 2 (Kontra) - Trull 1 x 2: v = 4 + 2 + 8 - 2 = 12.
    ("1: T20 T18 T16 T15 T11 T7 T4 HN DK DN / TS T21 T14 T13 T12 T1 SK SJ HK HG / T19 T17 T10 T9 T6 T5 SG CJ HQ HJ / "
     "T8 SQ SN CK CQ CN CG DQ DJ DG", "Solo", "2", "2: Pagat; 3: Kontra Pagat",
     "T20 TS T19 T8 / T21 T17 CG T11 / T14 T10 SQ T18 / T16 T13 T9 SN / T15 T12 T6 CK / T7 T1 T5 CQ / T4 SK SG CN / "
     "DK SJ CJ DQ / HN HK HQ DJ / HG HJ DG DN", (12, -36, 12, 12)),
    # Solo of seat 1, "1: Valat; 2: Kontra Valat", all ten tricks: Game 4 + Absolut 1 x 2 + Valat 12 x 4 x 2 (not
    # doubled in a Solo): v = 4 + 2 + 96 = 102, the soloist +306.
    ("1: TS T21 T20 T19 T18 T17 T16 SK CK HK / T15 T12 T9 T6 T4 T1 SQ SG CN DK / "
     "T14 T11 T8 T5 SN CQ CG HQ HG DQ / T13 T10 T7 SJ CJ HN HJ DN DJ DG", "Solo", "1", "1: Valat; 2: Kontra Valat",
     "TS T15 T14 T13 / T21 T12 T11 T10 / T20 T9 T8 T7 / T19 T6 T5 SJ / T18 T4 SN CJ / T17 T1 CQ HN / T16 SQ CG HJ / "
     "SK SG HQ DN / CK CN HG DJ / HK DK DQ DG", (306, -102, -102, -102)),
    # Normal T16 (seat 2), nothing announced, all ten tricks with the Pagat last: Game 1 + Absolut 1 + Pagat 1 +
    # Valat 6 + Trull 1 (seat 1 dealt TS T21 T1): v = 10.
    ("1: TS T21 T20 T19 T18 T17 T1 SK CK HK / T16 SQ SN CQ CN HQ HN DK DQ DN / T15 T13 T11 T9 T7 T5 SJ CJ HJ DG / "
     "T14 T12 T10 T8 T6 T4 SG CG HG DJ", "Normal", "1", "",
     "TS T16 T15 T14 / T21 SQ T13 T12 / T20 SN T11 T10 / T19 CQ T9 T8 / T18 CN T7 T6 / T17 HQ T5 T4 / SK HN SJ SG / "
     "CK DK CJ CG / HK DQ HJ HG / T1 DN DG DJ", (10, 10, -10, -10)),
    # The same with seat 3's DG and seat 4's T14 swapped: T15 beats the silent Pagat in trick 10, D took 88 - 11 =
    # 77. Game 1 + Absolut 1 - Pagat beaten 1 + Trull 1: v = 2.
    ("1: TS T21 T20 T19 T18 T17 T1 SK CK HK / T16 SQ SN CQ CN HQ HN DK DQ DN / T15 T14 T13 T11 T9 T7 T5 SJ CJ HJ / "
     "T12 T10 T8 T6 T4 SG CG HG DJ DG", "Normal", "1", "",
     "TS T16 T5 T4 / T21 DN T7 T6 / T20 DQ T9 T8 / T19 DK T11 T10 / T18 CN T13 T12 / T17 CQ T14 DG / SK SQ SJ SG / "
     "CK SN CJ CG / HK HQ HJ HG / T1 HN T15 DJ", (2, 2, -2, -2)),
]


@pytest.mark.parametrize("deal, contract, declarer, announcements, play, payments", AUDITED_DEALS)
def test_whole_zwanzigerrufen_deals_pay_what_the_rule_book_says(deal, contract, declarer, announcements, play,
                                                                   payments):
    """Kontra and Retour on the game, a Solo's doubled bonuses beside its undoubled Valat, a failed Kontra'd Pagat,
    the Trull, a silent Pagat made and one beaten: each deal's payments are the hand-computed ones."""
    tags = {"Declarer": declarer} | ({"Announcements": announcements} if announcements else {})
    settlement = score_deal(position_of("Zwanzigerrufen", deal, contract, play, **tags))
    assert settlement.payments == payments
