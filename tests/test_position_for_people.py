"""The API for people: the hand diagram (``str(position)``, ``_repr_html_``), ``Position.play`` keeping the
record, ``to_tbn``, illegal cards named with the rule they break, a Play section's reading order, ``Card`` compared
with names, 1-based seats, numpy seats, and ``random_position``."""

from __future__ import annotations

import dataclasses

import io
from pathlib import Path

import numpy as np
import pytest

import solver
from solver.diagram import PLACES, diagram, diagram_html
from solver.formats.tbn import write_records

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
VALAT_ENDING = "1: T17 T16 SK CK HK / T1 SQ SG CN DK / SN CQ CG HQ DQ / SJ CJ HN HJ DN"
DEALT_SCHAFKOPF = ("1: E9 GA GU HO HU H9 S9 S8 / EA EZ EK E7 H8 H7 SU S7 / EO GO G8 G7 HA HK SZ SK / "
                   "EU E8 GZ GK G9 HZ SA SO")
RUFER = next(r for r in (EXAMPLES / "schafkopf.tbn").read_text(encoding="utf-8").split("\n\n") if "Rufer G" in r)


def valat() -> solver.Position:
    return next(solver.read_positions(EXAMPLES / "valat.tbn"))


def ending(play: str = "") -> solver.Position:
    return solver.make_position("zwanzigerrufen", VALAT_ENDING, "Solo", declarer=1, leader=1, play=play)


# --- the diagram ----------------------------------------------------------------------------------------------------


def test_the_diagram_shows_every_hand_by_suit_with_signs_and_who_is_to_play():
    text = str(ending("HK"))
    lines = text.splitlines()
    assert lines[0] == "Zwanzigerrufen Solo, declarer 1"
    # seat 1 at the bottom, seat 2 left, seat 3 on top, seat 4 right; the trick in the centre
    top = next(i for i, line in enumerate(lines) if "Seat 3" in line)
    middle = next(i for i, line in enumerate(lines) if line.startswith("Seat 2"))
    bottom = next(i for i, line in enumerate(lines) if "Seat 1" in line)
    assert top < middle < bottom and "Seat 4" in lines[middle]
    assert "Seat 2 (to play)" in text and "Seat 1 (declarer, led)" in text
    assert "| 1: ♥K led" in text and "| seat 2 to play" in text and "| trick 1 of 5" in text
    assert "T 1" in lines[middle + 1] and "♥ -" in text  # seat 2: the Pagat, void in hearts
    assert "won 0 tricks, 0 points" in text
    # one trick of one card point (T4 and three Glatzen) is said in the singular, not '1 points'
    one = solver.make_position("zwanzigerrufen", "1: T4 T5 / SG SJ / CG CJ / HG HJ", "Solo", play="T4 SG CG HG")
    assert "won 1 trick, 1 point" in str(one) and "1 points" not in str(one)
    last = solver.make_position("zwanzigerrufen", "1: T4 / SG / CG / HG", "Solo", play="T4 SG CG HG")
    assert "| after 1 trick;" in str(last)  # an ending of one trick, over, not 'after 1 tricks;'
    # without suit signs (an ASCII terminal) the letters stand in
    assert "H -" in diagram(ending("HK"), signs=False) and "♥" not in diagram(ending("HK"), signs=False)


def test_a_German_pack_keeps_its_letters_and_shows_the_partner():
    position = solver.parse_positions(RUFER)[0]
    text = str(position)
    assert "Seat 3 (partner, to play)" in text and "(declarers 1+3)" in text
    assert "won 2 tricks, 20 points" in text and "♣" not in text
    # the contract's trumps on a line of their own, strongest first, by name, as players sort them; the trump
    # suit (hearts in a Rufer) has no line of its own, the other suits keep theirs
    lines = [line.strip() for line in text.splitlines()]
    assert lines[lines.index("Seat 3 (partner, to play)") + 1:][:4] == ["T GO SO", "E -", "G A", "S A"]
    assert "H -" not in text and "T HA" in text and "T -" in text


def test_a_Kratzen_hand_puts_the_trump_suit_and_the_Weli_on_the_trumps_line():
    position = solver.make_position("kratzen", "1: SA S6 SU E9 / EA EZ GK G7 / HA HZ HK H9", "Trump E")
    lines = [line.strip() for line in str(position).splitlines()]
    seat_1 = lines.index("Seat 1 (attacker, to play)")  # Kratzen's declarer is the attacker (RULES.md 3)
    assert lines[seat_1 + 1:seat_1 + 5] == ["T S6 E9", "S A U", "G -", "H -"]  # the Weli second only to EA


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_three_to_six_seats_sit_around_the_table(seats):
    position = solver.random_position("kratzen", 5, 1, seats=seats)
    text = str(position)
    for seat in range(1, seats + 1):
        assert f"Seat {seat}" in text
    assert text.count("won 0 tricks") == seats and len(PLACES[seats]) == seats
    assert "points" not in text  # Kratzen counts tricks only


def test_a_finished_deal_shows_the_hands_as_dealt():
    position = next(p for p in solver.read_positions(EXAMPLES / "schafkopf.tbn") if p.record.get("Board") == "7")
    assert position.state.is_over
    text = str(position)
    assert "the deal is over" in text and "the hands as dealt" in text and "won 5 tricks, 79 points" in text
    assert "T EO HO HA HK" in text and "E K 7" in text  # seat 2's trumps and acorns as dealt


def test_a_diagram_with_long_hands_wraps_its_card_lines_to_fit_80_columns():
    """Ten tarocks in a hand would draw an 82-column diagram (a 30-column trumps line in the middle column beside a
    24-column one on the left), which an 80-column terminal breaks across lines: the longest card lines wrap, under
    their first card, and every card is still there."""
    deal = ("1: TS T21 T20 T19 T18 T17 T16 T15 T14 T13 / T12 T11 T10 T9 T8 T7 T6 T5 T4 T1 / "
            "SK SQ SN SJ SG CK CQ CN CJ CG / HK HQ HN HJ HG DK DQ DN DJ DG")
    lines = str(solver.make_position("zwanzigerrufen", deal, "Solo", declarer=1)).splitlines()
    assert max(len(line) for line in lines) <= 80
    seat_1 = next(i for i, line in enumerate(lines) if "Seat 1 (declarer, to play)" in line)
    column = lines[seat_1].index("Seat 1")
    assert [line[column:] for line in lines[seat_1 + 1:seat_1 + 3]] == ["T S 21 20 19 18 17 16 15", "  14 13"]
    assert "T 12 11 10 9 8 7 6 5 4 1" in "\n".join(lines)  # 24 columns: not wrapped
    # a diagram that fits keeps one line a suit
    assert "T 17 16" in str(ending()) and all(len(line) <= 80 for line in str(ending()).splitlines())


def test_jupyter_renders_the_same_diagram_as_html():
    html = ending("HK")._repr_html_()
    assert html == diagram_html(ending("HK")) and html.startswith("<div>") and "<table" in html
    assert "Seat 2 (to play)" in html and '<span style="color:#c00">♥</span>' in html and "1: ♥K led" in html


# --- play, records, to_tbn ------------------------------------------------------------------------------------------


def test_play_keeps_the_record_in_step_and_to_tbn_saves_it():
    position = valat()
    played = position.play("T17").play("T1")
    assert position.record.play is not played.record.play  # the original record is not changed
    assert [t.text for t in played.record.play.tricks[-1]] == ["T17", "T1"]
    again = solver.parse_positions(played.to_tbn())[0]
    assert again.state == played.state and again.played == played.played
    assert again.record.get("Event") == position.record.get("Event")  # tags and comments kept
    stream = io.StringIO()
    write_records([played, position.to_record()], stream)  # a position stands for its record
    both = solver.parse_positions(stream.getvalue())
    assert [p.state for p in both] == [played.state, position.state]


def test_at_start_is_the_deal_as_dealt_its_record_kept_without_the_play():
    played = valat().play("T17").play("T1")
    start = played.at_start()
    assert start.played == () and start.state == played.rules.start()
    assert start.record.play is None and start.record.get("Event") == played.record.get("Event")
    assert played.record.play is not None  # the played position's record is not changed
    assert solver.parse_positions(start.to_tbn())[0].state == start.state
    made = solver.make_position("schafkopf", "1: EA EO E9 GZ G8 HZ HK H9 / EZ E8 G9 G7 H7 SZ S9 S7 / "
                                "EU E7 GA GO GU HU SA SO / EK GK HA HO H8 SK SU S8", "Rufer G", play="EO H7")
    assert made.at_start().record is None and made.at_start().played == ()


def test_a_position_made_in_python_writes_a_record_that_reads_back():
    position = solver.make_position("schafkopf", "1: EA EO E9 GZ G8 HZ HK H9 / EZ E8 G9 G7 H7 SZ S9 S7 / "
                                    "EU E7 GA GO GU HU SA SO / EK GK HA HO H8 SK SU S8", "Rufer G", declarer=1,
                                    variant="runaway_count_at=deal", play="EO H7 HU H8 HZ")
    assert position.record is None
    text = position.to_tbn()
    assert '[Variant "runaway_count_at=deal"]' in text and '[Play "1"]' in text
    assert solver.parse_positions(text)[0].state == position.state
    ending_text = ending("HK T1").to_tbn()
    assert '[Leader "1"]' in ending_text and solver.parse_positions(ending_text)[0].state == ending("HK T1").state


def test_an_illegal_card_names_the_rule_it_breaks():
    with pytest.raises(solver.IllegalPlayError, match="seat 2 may not play SQ here: cannot follow suit to the lead "
                                                      "HK and must trump: with one of T1"):
        ending().play_cards("HK SQ")
    with pytest.raises(solver.IllegalPlayError, match=r"card 2 of the play \(SQ\)"):
        ending().play_cards(["HK", "SQ"])
    # Suit Solo (RULES.md 1.4, check cases of section 4): the tarock a void player must play is no trump there, and
    # under suit_solo_follow=strict he must play another suit card: neither is "must trump"
    suit_solo = solver.make_position("zwanzigerrufen", "1: SQ CK / T20 HG / SN CQ / SJ CN", "SuitSolo", declarer=3,
                                     leader=1, play="SQ")
    with pytest.raises(solver.IllegalPlayError, match="seat 2 may not play HG here: cannot follow suit to the lead "
                                                      "SQ and must play one of T20 instead"):
        suit_solo.play("HG")
    strict = solver.make_position("zwanzigerrufen", "1: SQ CK / T20 HG / SN CQ / SJ CN", "SuitSolo", declarer=3,
                                  leader=1, play="SQ", variant="suit_solo_follow=strict")
    with pytest.raises(solver.IllegalPlayError, match="seat 2 may not play T20 here: cannot follow suit to the lead "
                                                      "SQ and must play one of HG instead"):
        strict.play("T20")
    # hard_pagat_reservation (RULES.md 1.3): the refusal names the card as players do, the Pagat
    reserved = solver.make_position("zwanzigerrufen", "1: SQ CK / T20 T1 / SN CQ / SJ CN", "Normal T19", leader=2,
                                    partner=2, pagat_announcer=2, variant="hard_pagat_reservation=true")
    with pytest.raises(solver.IllegalPlayError, match=r"seat 2 may not play T1 here: the announced Pagat \(T1\) is "
                                                      "kept for the last trick unless it is the only legal card"):
        reserved.play("T1")
    # Schafkopf (RULES.md 2.3): follow suit; the called ace to the first trick of its suit; no discarding it
    deal = ("1: EA EO E9 GZ G8 HZ HK H9 / EZ E8 G9 G7 H7 SZ S9 S7 / EU E7 GA GO GU HU SA SO / "
            "EK GK HA HO H8 SK SU S8")
    rufer = solver.make_position("schafkopf", deal, "Rufer G", variant="runaway_count_at=deal")
    with pytest.raises(solver.IllegalPlayError, match="must follow suit to the lead E9: with one of EZ E8"):
        rufer.play_cards("E9 G7")
    with pytest.raises(solver.IllegalPlayError, match="the called ace GA must be played to the first trick"):
        rufer.play_cards("GZ G9 GO")
    with pytest.raises(solver.IllegalPlayError, match="the called ace GA may not be discarded"):
        rufer.play_cards("EA E8 E7 EK E9 EZ GA")  # seat 3, void in acorns, keeps the called ace
    # holding trumps, seat 3 breaks the duty to follow the trump lead first: not a discard of the called ace
    with pytest.raises(solver.IllegalPlayError, match="must follow suit to the lead HZ: with one of EU GO GU HU SO"):
        rufer.play_cards("HZ H7 GA")
    # running away (rule 3) counts the plain cards of the suit: GO is a trump, not a fourth leaf
    holder = solver.make_position("schafkopf", ["EO EA SA HK", "GA G9 G8 GO", "EZ E9 SZ S9", "HA HZ GZ GK"],
                                  "Rufer G", leader=2)
    with pytest.raises(solver.IllegalPlayError, match="the holder of the called ace GA leads its suit with it, unless "
                                                      r"he holds 4 or more plain cards of the suit \(running away\)"):
        holder.play("G9")


def test_every_card_play_refuses_is_an_illegal_play_and_one_not_in_the_pack_an_unknown_card_too():
    """An app catches IllegalPlayError for "not a card you can play here": a misspelt token or another game's card name
    is an IllegalPlayError too, not UnknownCardError only, and another game's Card an UnknownCardError too, not
    IllegalPlayError only."""
    from solver import UnknownCardPlayError

    position = ending()
    for card in ["ZZ", "EA", solver.Schafkopf.pack.parse("EA"), 40]:
        with pytest.raises(UnknownCardPlayError, match="not (a card )?of the Zwanzigerrufen pack") as caught:
            position.play(card)
        assert isinstance(caught.value, solver.IllegalPlayError) and isinstance(caught.value, solver.UnknownCardError)
    with pytest.raises(solver.IllegalPlayError, match=r"card 2 of the play \(T2l\): 'T2l' is not a card of the "
                                                      r"Zwanzigerrufen pack; did you mean 'T21'"):
        position.play_cards("HK T2l")
    with pytest.raises(solver.IllegalPlayError, match="seat 1 does not hold T1") as caught:
        position.play("T1")
    assert not isinstance(caught.value, solver.UnknownCardError)  # a card of the pack, but not this seat's
    # what the seat may play instead is said by the library, as for a card against the rules (the CLI adds nothing)
    legal = " ".join(card.name for card in position.legal_cards())
    assert str(caught.value) == f"seat 1 does not hold T1: seat 2 holds it (legal: {legal})" and legal


def test_kratzen_must_beat_and_the_message_says_so():
    position = solver.make_position("kratzen", "1: EO E9 SU SZ / GA HA HU S7 / EK G8 HO SK", "Trump S", declarer=1)
    with pytest.raises(solver.IllegalPlayError,
                       match="must follow suit to the lead SU and beat SU if he can: with one of SK"):
        position.play_cards("SU S7 EK")


# --- a Play section's reading order ---------------------------------------------------------------------------------


def test_a_trick_written_in_seat_order_is_explained_and_put_in_playing_order():
    # trick 3 was led by seat 4 (EK EA E8 E7 in playing order); written in seat order it reads EA E8 E7 EK
    with pytest.raises(solver.ParseError) as caught:
        solver.parse_positions(RUFER.replace("EK EA E8 E7", "EA E8 E7 EK"))
    text = str(caught.value)
    assert "seat 4 does not hold this card" in text
    assert "seat 4 led this trick, so its cards are read as seats 4, 1, 2, 3 (playing order)" in text
    assert "In playing order it is legal: EK EA E8 E7" in text


def test_a_wrong_card_that_no_order_explains_gets_no_suggestion():
    with pytest.raises(solver.ParseError) as caught:
        solver.parse_positions(RUFER.replace("EO H7 HU H8", "EO EZ HU H8"))
    text = str(caught.value)
    assert "seat 2 may not play this card here: must follow suit to the lead EO: with one of H7" in text
    assert "seat 1 led this trick" in text and "In playing order" not in text


# --- cards, seats, random positions ---------------------------------------------------------------------------------


def test_cards_print_as_and_compare_with_their_names():
    card = solver.Schafkopf.pack.parse("eo")
    assert str(card) == "EO" and card == "EO" and "EO" == card and card != "GO" and card != "eo"
    assert {card: 1}["EO"] == 1 and "EO" in {card} and card == solver.Schafkopf.pack[card.index]
    position = ending()
    assert position.hand(2) == solver.Zwanzigerrufen.pack.card_set("T1 SQ SG CN DK")
    assert list(position.hand(1))[:2] == ["T17", "T16"] and position.legal_cards().names() == position.hand(1).names()
    assert ending("HK T1").trick == ("HK", "T1")


def test_what_the_api_hands_out_it_takes_back():
    """Cards, card sets and generators of cards are accepted wherever cards are (a bot author's natural code failed:
    ``pack.parse(card)``, ``card_set(list_of_cards)``, ``play_cards(a_card_set)``), and cards sort in pack order."""
    pack = solver.Zwanzigerrufen.pack
    position = ending()
    hand = position.hand(1)
    assert sorted(hand, reverse=True) == sorted(hand.names(), key=pack.parse, reverse=True)
    assert sorted(reversed(list(hand))) == list(hand) and pack[3] < pack[4] and pack[4] >= pack[3]
    assert pack.parse(pack[3]) is pack[3] and pack.card_set(list(hand)) == hand
    with pytest.raises(solver.UnknownCardError, match="EA is a card of the Schafkopf pack, not of the Zwanzigerrufen"):
        pack.parse(solver.Schafkopf.pack[0])
    first = next(iter(position.legal_cards()))
    assert position.play_cards(card for card in [first]) == position.play(first)
    assert position.play_cards(position.legal_cards().__class__(pack, first.mask)) == position.play(first.name)
    start = solver.make_position("schafkopf", DEALT_SCHAFKOPF, "Solo E")
    lead = min(start.legal_cards())
    assert solver.make_position("schafkopf", DEALT_SCHAFKOPF, "Solo E", play=[lead]).played == (lead.index,)
    hand_cards = start.hand(1)
    report = solver.analyse_hand("schafkopf", hand_cards, np.int64(1), "Solo E", samples=2, seed=1, workers=1)
    assert report.seat == 1 and type(report.seat) is int and report.hand == tuple(hand_cards.names())
    result = solver.solve(start, "points", cards=True)
    assert dict(result.card_values) == {cv.card: cv.value for cv in result.card_values}  # pairs of index, value
    assert max(result.card_values, key=lambda cv: cv.value).value == result.future


def test_reprs_say_what_things_are_in_a_line():
    """A position, a deal, a result and an engine each print as one readable line, not hundreds of characters of masks
    and pack, nor an object address."""
    position = next(solver.read_positions(EXAMPLES / "valat.tbn"))
    assert repr(position) == "<Position board 1: Zwanzigerrufen Solo, declarer 1; trick 6 of 10, seat 1 to play>"
    assert str(position.rules.deal) == position.rules.deal.text()
    assert repr(position.rules.deal) == f"Deal(Zwanzigerrufen: {position.rules.deal.text()})"
    result = solver.solve(position, "valat", cards=True, line=True)
    assert repr(result).startswith("<SolveResult valat; total 10 (achieved 5 + future 5); target 10: yes; "
                                   "cards {T17: 5, T16: 5, SK: 5, CK: 5, HK: 4}; line T17 ")
    assert repr(solver.EngineSolver(16, threads=1)) == "<EngineSolver 1 thread, table 16 MB>"
    from solver.search.settle import SettlementEngine

    assert repr(SettlementEngine(8, threads=2)) == "<SettlementEngine 2 threads, table 8 MB>"


def test_results_print_for_people_and_render_in_a_notebook():
    """A solve, a double-dummy settlement and a bonus check print as the commands show them, not as one long line of
    indices and fields, and Jupyter renders them as tables; a solve's repr is a short one-line summary
    (``<SolveResult valat; ...>``), a settlement's and a bonus check's their dataclass's."""
    position = next(solver.read_positions(EXAMPLES / "valat.tbn"))
    result = solver.solve(position, "valat", cards=True, line=True)
    lines = str(result).splitlines()
    assert lines[0] == "board 1: Zwanzigerrufen Solo, declarer 1"  # what was solved, as the notebook heads it
    assert lines[1] == "Valat for seat 1: 10 (5 won already + 5 from the rest); needs 10: yes"  # the players' name
    assert lines[2] == "the declarer takes every trick"  # the name said once
    assert lines[3] == "seat 1's cards (value of the rest): T17 5, T16 5, SK 5, CK 5, HK 4"
    assert lines[4].startswith("line: T17 ") and len(lines) == 5
    html = result._repr_html_()
    assert html.startswith("<div>") and html.count("<tr>") == 1 + 5 and ">HK</td>" in html
    assert repr(result).startswith("<SolveResult valat; total 10")
    made_by_hand = dataclasses.replace(result, objective=dataclasses.replace(result.objective, game=""))
    assert str(made_by_hand).splitlines()[1].startswith("valat for seat 1: 10")  # no game to name it: its name
    settled = solver.dd_settlement(next(solver.read_positions(EXAMPLES / "settlement.tbn")))
    text = str(settled).splitlines()
    assert text[0] == "Zwanzigerrufen Normal T20, double dummy: declarers 1+4 net +12 game units"
    assert text[1].split() == ["item", "to", "from", "base", "x", "value", "why"]
    assert text[4].startswith("Pagat Ultimo (announced)  1+4  2+3")
    assert "payments: seat 1 +6, seat 2 -6, seat 3 -6, seat 4 +6" in text
    assert text[-4:] == ["the line takes 75 points; the most the declarers can force is 88",  # as score --dd says
                         "both sides playing for points (one such line), the deal settles +8",
                         "the best settlement while the declarers force their 88 points: +8",
                         "the settlement-optimal play gives up points to score more"]
    html = settled._repr_html_()
    assert "double dummy: declarers 1+4 net +12 game units" in html and ">Pagat Ultimo (announced)</td>" in html
    assert ">+6</td>" in html
    assert repr(settled) == ("<DDSettlement Zwanzigerrufen Normal T20, double dummy: declarers 1+4 net +12 game units; "
                             "payments: seat 1 +6, seat 2 -6, seat 3 -6, seat 4 +6>")
    checks = {check.bonus: check for check in solver.check_bonuses(position)}
    assert str(checks["valat"]) == "Valat for seat 1: the declarer takes every trick: yes - seat 1 can force it"
    assert str(checks["valat_against"]).endswith(": no - missed")
    assert str(checks["pagat_ultimo"]).endswith(": no - seat 1 can stop it")
    assert repr(checks["valat"]).startswith("BonusCheck(bonus='valat'")
    trull = solver.dealt_bonuses(position)[0]
    assert str(trull) == "Trull: one player was dealt TS T21 T1: no - nobody was dealt all three; decided by the " \
        "deal, no search"
    kratzen = next(p for p in solver.read_positions(EXAMPLES / "kratzen.tbn") if p.record.get("Board") == "3")
    assert str(solver.check_bonuses(kratzen)[0]) == "Tricks for seat 1: tricks seat 1 can guarantee against " \
        "everyone: no - guarantees 0 tricks, needs 2"


def test_a_game_prints_as_its_name_and_is_still_its_class():
    """A game prints as the name it is found and exported by, not as ``<class
    'solver.games.zwanzigerrufen.Zwanzigerrufen'>`` (``print(position.game)``, ``solver.GAMES``), and stays the class
    that pickles, registers and checks."""
    import pickle

    assert repr(solver.GAMES) == "[Zwanzigerrufen, Schafkopf, Kratzen]"
    position = valat()
    assert str(position.game) == repr(position.game) == "Zwanzigerrufen" and f"{solver.Kratzen}" == "Kratzen"
    assert pickle.loads(pickle.dumps(position.game)) is solver.Zwanzigerrufen
    assert pickle.loads(pickle.dumps(position)) == position
    assert solver.get_game("sk") is solver.Schafkopf and solver.get_game(solver.Schafkopf) is solver.Schafkopf
    assert isinstance(solver.Schafkopf, type) and issubclass(solver.Kratzen, solver.Game)
    assert isinstance(position.rules, solver.Rules)
    assert repr(solver.Game) == "<class 'solver.games.base.Game'>"  # no game: a class as any other
    other = type("MyTarock", (solver.Zwanzigerrufen,), {})  # not registered: its own class, not Zwanzigerrufen
    assert repr(other).startswith("<class ") and "MyTarock" in repr(other)


def test_seats_are_one_based_everywhere():
    position = ending("HK T1 HQ HJ")
    assert position.to_move == 2  # seat 2 won the heart king with the Pagat
    (trick,) = position.history
    assert (trick.number, trick.leader, trick.winner, trick.cards) == (1, 1, 2, ("HK", "T1", "HQ", "HJ"))
    assert solver.solve(position, "points").to_move == 2
    assert solver.solve(position, "points", reference_solver=True).to_move == 2
    assert ending().to_move == 1 and solver.solve(ending(), "points").to_move == 1


@pytest.mark.parametrize("integer", [np.int64, np.int32, np.uint8, np.int16])
def test_numpy_integers_are_seats(integer):
    deal = "1: EO E9 SU SZ / GA HA HU S7 / EK G8 HO SK"
    position = solver.make_position("kratzen", deal, "Trump S", declarer=integer(2))
    assert position.rules.declarer == 1
    assert solver.solve(position, "tricks", seat=integer(2)).total == solver.solve(position, "tricks", seat=2).total
    assert position.hand(integer(3)) == position.hand(3)
    record = solver.random_record("kratzen", integer(3), integer(2), declarer=integer(1))
    assert record.get("Deal") == solver.random_record("kratzen", 3, 2).get("Deal")


def test_bools_and_floats_are_still_no_seats():
    with pytest.raises(solver.InvalidContractError):
        solver.make_position("kratzen", "1: EO E9 SU SZ / GA HA HU S7 / EK G8 HO SK", "Trump S", declarer=True)
    with pytest.raises(solver.InvalidPositionError):
        ending().hand(1.0)


def test_random_position_is_random_records_board_read():
    position = solver.random_position("schafkopf", 7, 3, contract="Solo H", declarer=2)
    record = solver.random_record("schafkopf", 7, 3, contract="Solo H", declarer=2)
    assert position.state == solver.position_from_record(record).state
    assert position.record.get("Deal") == record.get("Deal") and position.rules.declarer == 1
    assert solver.parse_positions(position.play(position.legal_cards().names()[0]).to_tbn())[0].played != ()


def test_settlement_and_solve_result_names_mean_one_thing_each():
    position = next(solver.read_positions(EXAMPLES / "settlement.tbn"))
    settlement = solver.dd_settlement(position)
    assert not hasattr(settlement, "card_names")
    assert len(settlement.line_names) == len(settlement.line)
    result = solver.solve(valat(), "valat", cards=True)
    assert result.card_names() == {"T17": 5, "T16": 5, "SK": 5, "CK": 5, "HK": 4}  # each card's value by name
    assert result.best_cards() == ["T17", "T16", "SK", "CK"] and result.best_cards()[0].index == 5


def test_a_result_gives_its_card_values_and_line_as_cards():
    """``card_values`` and ``line`` hold pack indices (``CardValue(card=5, value=5)``), which an app would look up in
    the pack itself; ``values_by_card()`` and ``line_cards()`` give Cards, which print as their names."""
    result = solver.solve(valat(), "valat", cards=True, line=True)
    by_card = result.values_by_card()
    assert [str(card) for card in by_card] == ["T17", "T16", "SK", "CK", "HK"]
    assert repr(next(iter(by_card))) == "Card.of('Zwanzigerrufen', 'T17')"
    assert list(by_card.values()) == [5, 5, 5, 5, 4] and by_card["HK"] == 4  # a Card is found by its name too
    assert {card.index: value for card, value in by_card.items()} == dict(result.card_values)  # indices as before
    assert result.line_cards() == result.line_names() and [card.index for card in result.line_cards()] == list(
        result.line)
    assert all(isinstance(card, solver.Card) for card in result.line_cards())
    bare = solver.SolveResult(result.objective, 0, 0, (solver.CardValue(0, 0),))
    with pytest.raises(solver.StichError, match="no pack"):
        bare.values_by_card()


def test_a_kratzen_position_names_its_attacker_in_its_repr():
    """A Kratzen position's repr names the attacker (RULES.md 3.2), as its diagram, its post-mortem's repr and every
    command do, not "declarer 1", a word Kratzen does not have."""
    position = solver.make_position("Kratzen", "1: EO E9 SU SZ / GA HA HU S7 / EK G8 HO SK", "Trump S", declarer=2)
    assert repr(position) == "<Position Kratzen Trump S, attacker 2; trick 1 of 4, seat 2 to play>"
    assert repr(position.rules) == "<KratzenRules Kratzen Trump S, attacker 2, 3 seats>"  # and so do its rules


def test_a_position_s_repr_names_its_record_and_a_made_one_says_no_placeholder():
    """A position made by make_position does not print as ``<Position position: Schafkopf ...>``, the placeholder its
    messages call it by standing where a record's ``board N`` or ``file:line`` stands."""
    made = solver.make_position("Schafkopf", "1: G7 E7 / G8 E8 / G9 E9 / GK EK", "Rufer E", partner=2)
    assert repr(made) == "<Position Schafkopf Rufer E, declarer 1; trick 1 of 2, seat 1 to play>"
    assert repr(made.play("G7")) == "<Position Schafkopf Rufer E, declarer 1; trick 1 of 2, seat 2 to play>"
    read = next(solver.read_positions(EXAMPLES / "kratzen.tbn"))
    assert repr(read) == "<Position board 1: Kratzen Trump S, attacker 1; trick 1 of 4, seat 1 to play>"
    unnamed = solver.parse_positions('[Game "Kratzen"]\n[Deal "1: EO E9 SU SZ / GA HA HU S7 / EK G8 HO SK"]\n'
                                     '[Contract "Trump S"]\n[Declarer "1"]\n')[0]
    assert repr(unnamed) == "<Position <string>:1: Kratzen Trump S, attacker 1; trick 1 of 4, seat 1 to play>"


def test_every_result_that_is_a_frozen_dataclass_hashes_as_it_compares():
    """HandAnalysis, PlayerSummary, ContractRow, ContractAdvice, CardAdvice and MatchResult are frozen dataclasses, so
    they say they are hashable: their dict fields (the known cards, the variant, the grades, the bonuses, the bots'
    means), on which hash() would raise 'unhashable type: dict', are left out of the hash: two equal results hash alike,
    and a result can be a set member or a cache key."""
    from solver.advice import card_advice, contract_advice
    from solver.bots import make_bot
    from solver.match import play_match

    kratzen = next(solver.read_positions(EXAMPLES / "kratzen.tbn"))
    analysis = solver.analyse_position(kratzen, 1, samples=2, workers=1)
    advice = contract_advice("kratzen", "EO E9 SU SZ", 1, ["Trump S"], samples=2, workers=1)
    cards = card_advice(kratzen, samples=2, workers=1)
    match = play_match("kratzen", [make_bot("random")] * 3, boards=1)
    post = solver.analyse_play(kratzen.play_cards("EO S7 EK"))
    results = [analysis, advice, advice.rows[0], cards, cards.rows[0], match, post.players[0]]
    again = [solver.analyse_position(kratzen, 1, samples=2, workers=1),
             contract_advice("kratzen", "EO E9 SU SZ", 1, ["Trump S"], samples=2, workers=1), None,
             card_advice(kratzen, samples=2, workers=1), None,
             play_match("kratzen", [make_bot("random")] * 3, boards=1),
             solver.analyse_play(kratzen.play_cards("EO S7 EK")).players[0]]
    for result, same in zip(results, again):
        assert isinstance(hash(result), int), type(result).__name__
        if same is not None:
            assert same == result and hash(same) == hash(result), type(result).__name__
    assert len({analysis, analysis}) == 1


def test_a_lone_declarer_is_named_alike_in_every_bonus_row():
    """A Solo's bonus rows said "the declaring side reaches 45" beside "the defenders hold the declarer to 32 or
    less": one seat is "the declarer" in every row, a side of two "the declaring side" (Schafkopf's Wenz and Solo
    alike, a Rufer's two seats not)."""
    checks = {check.bonus: check.description for check in solver.check_bonuses(
        next(solver.read_positions(EXAMPLES / "valat.tbn")))}
    assert checks["game"] == "the declarer reaches 45"
    assert checks["absolut"] == "the declarer reaches 56 (Absolut)"
    assert checks["absolut_against"] == "the defenders hold the declarer to 32 or less (Absolut against)"
    assert checks["valat"] == "the declarer takes every trick (Valat)"
    boards = {position.record.tag("Board").value: position
              for position in solver.read_positions(EXAMPLES / "schafkopf.tbn")}
    wenz, rufer = boards["2"], boards["6"]
    assert [wenz.rules.objective(name).description for name in ("points", "game", "schwarz")] == [
        "card points the declarer can force", "the declarer reaches 61", "the declarer takes every trick (Schwarz)"]
    assert [rufer.rules.objective(name).description for name in ("game", "schneider_against")] == [
        "the declaring side reaches 61", "the defenders hold the declarers to 30 or less (Schneider against)"]
