"""Hand-worked endings for the reference solver, and invariants on seeded random endings.

Every ending below is small enough to be solved by hand. The comment above each assertion derives the value trick by
trick from RULES.md; the test then checks the solver's value, its yes/no answer and the value of every legal card at
the root (``SolveResult.card_names()``), which the RULES.md minimax fixes as exactly as the root value.

Conventions used in the derivations:

* Seats are 1..4 in playing order; "D" is the declaring side (RULES.md 1.6 / 2.4).
* In an ending (a Deal shorter than a whole deal) the values are "what is still to be won" (FORMAT.md), so targets
  such as Game (45), Absolut (56), Schneider (91) or Valat (every trick) are measured on the ending's own cards and
  tricks; the ending's last trick is the deal's last trick (Pagat Ultimo).
* Zwanzigerrufen tarock order: TS > T21 > T20 > ... > T4 > T1 (the Pagat is the LOWEST tarock).
* Card values at the root are what the maximising side can force after that card (for a yes/no objective: the
  objective's reward, e.g. tricks for Valat, 0/1 for Pagat Ultimo and Mondfang).
"""

from __future__ import annotations

import random

import pytest

import solver
from solver import Kratzen, Position, Schafkopf, Zwanzigerrufen
from solver.errors import InvalidContractError
from solver.search import reference

ZR, SK, KR = "Zwanzigerrufen", "Schafkopf", "Kratzen"


def ref(position: Position, objective: str = "points", *, seat: int | None = None, cards: bool = False,
        line: bool = False) -> solver.SolveResult:
    """Solve with the pure-Python reference solver (``solver.solve`` may answer with the compiled engine)."""
    return reference.solve(position.state, position.objective(objective, seat), cards=cards, line=line)


def check(position: Position, objective: str, value: int, success: bool | None, cards: dict[str, int],
          seat: int | None = None) -> solver.SolveResult:
    """Solve an ending: nothing is won yet, the value of the rest is ``value``, every legal card as given."""
    result = ref(position, objective, seat=seat, cards=True, line=True)
    assert result.achieved == 0
    assert result.future == value
    assert result.total == value
    assert result.success is success
    assert result.card_names() == cards
    # the principal variation plays out the whole ending, and its first card keeps the value
    cards_left = sum(hand.bit_count() for hand in position.state.hands)
    assert len(result.line) == cards_left
    assert cards[result.line_names()[0]] == value
    return result


def zr(deal: str, contract: str = "Normal T19", **kwargs) -> Position:
    return solver.make_position(ZR, deal, contract, **kwargs)


def sk(deal: str, contract: str, **kwargs) -> Position:
    return solver.make_position(SK, deal, contract, **kwargs)


def kr(deal: str, contract: str = "Trump H", **kwargs) -> Position:
    return solver.make_position(KR, deal, contract, **kwargs)


# =====================================================================================================================
# Zwanzigerrufen (RULES.md 1.6). Normal T19: D = seat 1 + the holder of T19 (or the seat named by partner=).


def test_zr_points_high_lead_the_skus_first():
    p = zr("1: TS SK / T19 SQ / T5 HK / T4 DK")
    # 27 points in play (TS 5, SK 5, T19 1, SQ 4, T5 1, HK 5, T4 1, DK 5). D = seats 1 and 2 (T19).
    # TS: every hand holds a tarock and must play it: TS T19 T5 T4, TS wins (8). Seat 1 leads SK: SQ follows,
    #     seats 3 and 4 have neither spades nor tarocks left and throw HK, DK; SK wins (19). D: 27, everything.
    # SK: SQ follows; seats 3 and 4 are void in spades and must tarock: T5, T4; T5 wins (11 to the defenders).
    #     Seat 3 leads HK: DK (no hearts, no tarock), TS (void, must tarock), T19 (must tarock); TS wins 16.
    #     D: 16.
    check(p, "points", 27, None, {"TS": 27, "SK": 16})


def test_zr_points_low_and_valat_against_and_mondfang():
    p = zr("1: T4 SG / T19 SJ / TS HK / T21 DK")
    # 24 points in play. D = seats 1 and 2; the defenders hold TS and T21.
    # T4: all must tarock: T4 T19 TS T21, TS wins (12 to the defenders). Seat 3 leads HK; DK, SG, SJ are thrown
    #     (nobody has hearts or tarocks); HK wins (12). D: 0.
    # SG: SJ follows; seat 3 (void) must tarock TS, seat 4 T21; TS wins (12). Seat 3 leads HK: DK (no heart, no
    #     tarock), T4 and T19 (void, must tarock); T19 wins HK + DK + T4 + T19 = 12. D: 12.
    check(p, "points", 12, None, {"T4": 0, "SG": 12})
    # Valat against: the defenders take both tricks after T4 (2) but only the first after SG (1); seat 1 is a
    # declarer and minimises: 1 of 2 tricks, so no Valat against.
    check(p, "valat_against", 1, False, {"T4": 2, "SG": 1})
    # Mondfang: T21 is a defender's (seat 4), so D is the side that profits. After either lead TS and T21 fall in
    # trick 1 and TS wins it, even though TS and T21 are on the same side: a Mondfang whatever seat 1 leads.
    check(p, "mondfang", 1, True, {"T4": 1, "SG": 1})


def test_zr_points_mid_trick_partner_keeps_his_king():
    # T19 is not in the ending: partner=2 names the declarer's partner. Seat 1 has led SG; seat 2 is to move.
    p = zr("1: SG T20 / HK DG / SJ HG / SN DK", partner=2, play=["SG"])
    # 16 points in play. Seat 2 has no spade and no tarock: any card. Seats 3 and 4 must follow with SJ and SN,
    # and SN wins trick 1 for the defenders; seat 4 then leads DK to trick 2, which seat 1's T20 (void in
    # diamonds, must tarock) wins.
    # HK: trick 1 = SG HK SJ SN = 10 to the defenders; trick 2 = DK T20 DG (seat 2 must follow diamonds) HG = 6.
    # DG: trick 1 = SG DG SJ SN = 5 to the defenders; trick 2 = DK T20 HK (no diamond left, any card) HG = 11.
    check(p, "points", 11, None, {"HK": 6, "DG": 11})


def test_zr_game_true_and_mondfang_true():
    p = zr("1: TS SK CK / T19 SQ CQ / T21 HK HQ / T4 DK DQ")
    # 48 points in play (15 + 9 + 14 + 10); the ending's Game target is 45.
    # TS: T19, T21, T4 must all follow (each is the hand's only tarock); TS wins 12 and catches the Mond. Nobody
    #     else holds a tarock now: SK (SQ, a heart, a diamond) and CK (CQ, the other heart and diamond) both win.
    #     D: all 48.
    # SK: SQ follows; seat 3 must tarock (T21), seat 4 too (T4); T21 wins 15 for the defenders. Seat 3 leads a
    #     heart: seat 4 throws a diamond, seats 1 and 2 must tarock (TS, T19); TS wins. CK then wins the last
    #     trick. D: 48 - 15 = 33.  CK first: the same with clubs, T21 wins CK CQ T21 T4 = 15. D: 33.
    check(p, "game", 48, True, {"TS": 48, "SK": 33, "CK": 33})
    check(p, "points", 48, None, {"TS": 48, "SK": 33, "CK": 33})
    # Mondfang: T21 is seat 3's (a defender), so D profits; only the TS lead puts TS and T21 in one trick (after SK
    # or CK, T21 wins trick 1 and TS later falls on a heart lead without T21). Seat 1 chooses TS: 1.
    check(p, "mondfang", 1, True, {"TS": 1, "SK": 0, "CK": 0})


def test_zr_game_false_and_mondfang_avoided():
    p = zr("1: T21 SK CK / T19 SQ CQ / TS HK HQ / T4 DK DQ")
    # The same cards with TS and T21 exchanged: TS is now a defender's (seat 3). 48 points in play.
    # T21: T19, TS, T4 must follow; TS wins 12 (a Mondfang). Seat 3 then leads both hearts; seats 1, 2 and 4 hold
    #      neither hearts nor tarocks and throw their kings and queens under them. D: 0.
    # SK: SQ follows, seat 3 must play TS, seat 4 T4; TS wins 5+4+5+1 = 15. Seat 3 leads a heart: seat 4 throws a
    #     diamond, seat 1 must play T21, seat 2 T19; T21 wins. Seat 1 leads CK: CQ, a heart, a diamond: CK wins. The
    #     defenders' choice of heart and diamond only moves points between D's two tricks: D = 48 - 15 = 33.
    # CK: symmetric (CK CQ TS T4 = 15 to the defenders): D = 33.
    check(p, "game", 33, False, {"T21": 0, "SK": 33, "CK": 33})
    # Mondfang: T21 is D's, so the defenders profit and seat 1 minimises. Leading T21 into TS is a Mondfang (1);
    # after SK or CK, TS falls in trick 1 without T21, and T21 later wins a heart trick: no Mondfang (0).
    check(p, "mondfang", 0, False, {"T21": 1, "SK": 0, "CK": 0})


ABSOLUT_TRUE = "1: TS T21 SK CK / T19 SQ CQ DN / T1 HK HQ HN / T4 DK DQ SN"


def test_zr_absolut_true_and_valat_true():
    p = zr(ABSOLUT_TRUE)
    # 62 points in play (20 + 12 + 17 + 13); the ending's Absolut target is 56.
    # TS: T19, T1, T4 must follow (no T21 in the trick: no Sagotrick); TS wins. Now only seat 1 has tarocks: T21
    #     wins (everyone throws), SK wins (SQ, a heart, SN follow), CK wins. D: all 62, all 4 tricks.
    # T21: the same with T21 first (TS is then a winner for the second trick). D: 62, 4 tricks.
    # SK: SQ and SN follow, seat 3 is void and must play T1, the only tarock in the trick: T1 wins 17 for the
    #     defenders. Seat 3 leads a heart: seat 4 must play T4, seat 1 TS or T21, seat 2 T19; seat 1 wins, and his
    #     other top tarock and CK win the last two tricks. D: 62 - 17 = 45, 3 tricks.
    # CK: CQ follows, seat 3 must play T1 and seat 4 (void in clubs) T4 - and T4 beats the Pagat: seat 4 wins
    #     5+4+5+1 = 15. Whatever seat 4 leads (SN: SK SQ follow; a diamond: seat 1 tarocks, DN follows), seat 1
    #     wins it and the rest. D: 62 - 15 = 47, 3 tricks.
    check(p, "absolut", 62, True, {"TS": 62, "T21": 62, "SK": 45, "CK": 47})
    check(p, "valat", 4, True, {"TS": 4, "T21": 4, "SK": 3, "CK": 3})
    # The reverse questions on the same ending are the defenders' view of the same trees (zero-sum): seat 1 now
    # minimises what the defenders can force. 62 - (62, 62, 45, 47) points and 4 - (4, 4, 3, 3) tricks.
    check(p, "absolut_against", 0, False, {"TS": 0, "T21": 0, "SK": 17, "CK": 15})
    check(p, "valat_against", 0, False, {"TS": 0, "T21": 0, "SK": 1, "CK": 1})


def test_zr_absolut_false_game_true_valat_false():
    p = zr("1: T21 T20 SK CK / T19 SQ CQ DN / TS HK HQ HN / T4 DK DQ SN")
    # 58 points in play. Seat 3 holds TS as his only tarock and hearts that nobody else holds: whatever seat 1 leads,
    # seat 3 must play TS to trick 1 (a tarock lead, or a spade/club lead he cannot follow) and wins it. After that
    # D wins every trick (seat 1 keeps a tarock for the heart lead, then cashes the rest). So D = 58 - trick 1:
    # T21: T21 T19 TS T4 = 12 -> 46.   T20: T20 T19 TS T4 = 8 -> 50.
    # SK: SK SQ TS SN = 17 -> 41.      CK: CK CQ TS T4 (seat 4 void in clubs) = 15 -> 43.
    check(p, "absolut", 50, False, {"T21": 46, "T20": 50, "SK": 41, "CK": 43})
    check(p, "game", 50, True, {"T21": 46, "T20": 50, "SK": 41, "CK": 43})
    # Valat: D loses trick 1 and wins the other three after every lead.
    check(p, "valat", 3, False, {"T21": 3, "T20": 3, "SK": 3, "CK": 3})


def test_zr_absolut_against_true_solo_of_seat_3():
    # The cards of test_zr_absolut_true, now a Solo of seat 3 (T1 HK HQ HN): seats 1, 2 and 4 defend.
    p = zr(ABSOLUT_TRUE, "Solo", declarer=3)
    # absolut_against: the defenders reach 56 of the 62 points (the declarer held to 6 or less of this ending).
    # TS or T21: seat 1 wins all four tricks as before: 62.
    # SK: SK SQ T1 SN, the declarer's Pagat wins 17; he must lead a heart, seat 4 plays T4, seat 1 a top tarock and
    #     wins, and keeps winning: 45.
    # CK: CK CQ T1 T4: seat 4 (now a defender) wins with T4 over the Pagat, and the declarer's hearts never win a
    #     trick (nobody else holds a heart to lead): 62.
    check(p, "absolut_against", 62, True, {"TS": 62, "T21": 62, "SK": 45, "CK": 62})
    check(p, "points", 0, None, {"TS": 0, "T21": 0, "SK": 17, "CK": 0})


def test_zr_valat_against_true():
    p = zr("1: T4 HJ / T19 HN / TS HK / T21 HQ")
    # Everyone holds one tarock and one heart.
    # T4: T4 T19 TS T21: TS wins; seat 3 leads HK: HQ, HJ, HN follow, HK wins. Defenders: 2 tricks.
    # HJ: HN, HK, HQ follow; HK wins; seat 3 leads TS: T21, T4, T19 follow; TS wins. Defenders: 2 tricks.
    check(p, "valat_against", 2, True, {"T4": 2, "HJ": 2})
    check(p, "valat", 0, False, {"T4": 0, "HJ": 0})


def test_zr_pagat_ultimo_true():
    p = zr("1: T20 T1 / T19 SG / T6 HK / T7 DK")
    # D (seats 1, 2) holds the Pagat, so D is the Pagat side.
    # T20: T19, T6, T7 must follow; T20 wins. Seat 1 leads T1 into SG, HK, DK (no tarocks left): T1 wins the last
    #      trick: Pagat Ultimo (1).
    # T1: T19 T6 T7 follow, T19 wins: the Pagat fell in trick 1 of 2, not in the last trick (0).
    check(p, "pagat_ultimo", 1, True, {"T20": 1, "T1": 0})
    # The silent loss needs T1 in the last trick and beaten: after T20 it wins, after T1 it is gone: never.
    check(p, "pagat_beaten", 0, False, {"T20": 0, "T1": 0})


def test_zr_pagat_ultimo_false_and_silent_loss_avoided():
    p = zr("1: T20 T1 / T19 SG / T6 T8 / T7 DK")
    # Seat 3 now holds two tarocks.
    # T20: T19, T6 or T8, T7 follow; T20 wins. Seat 1 must lead T1 and seat 3's remaining tarock beats it (0; the
    #      Pagat was played in the last trick and beaten: the silent loss, 1 for the defenders' pagat_beaten).
    # T1: the Pagat falls in trick 1 (0 for both questions).
    check(p, "pagat_ultimo", 0, False, {"T20": 0, "T1": 0})
    # pagat_beaten is the defenders' question; seat 1 minimises it by giving the Pagat up early.
    check(p, "pagat_beaten", 0, False, {"T20": 1, "T1": 0})


def test_zr_pagat_beaten_true():
    p = zr("1: HJ T20 / T19 HG / HQ SK / HK T1")
    # The Pagat is seat 4's (a defender); D asks whether it can force the silent loss.
    # HJ: HG, HQ, HK must follow hearts; HK wins and seat 4, holding only T1, leads it: T20 and T19 beat it.
    #     The Pagat was played in the last trick and beaten (1).
    # T20: seat 2 must play T19, seat 3 throws, seat 4 must tarock with T1 in trick 1 (0).
    check(p, "pagat_beaten", 1, True, {"HJ": 1, "T20": 0})
    # The defenders' own Pagat Ultimo: never (beaten in the last trick, or played in trick 1).
    check(p, "pagat_ultimo", 0, False, {"HJ": 0, "T20": 0})


PAGAT_SAGOTRICK = "1: HK TS / HQ T21 / T1 T6 / HN T5"


@pytest.mark.parametrize("variant, ultimo, beaten", [
    # default (sagotrick=any_order, pagat_via_sagotrick=true): T6 keeps the Pagat for a Sagotrick in trick 2.
    (None, (1, {"T6": 1, "T1": 0}), (0, {"T6": 0, "T1": 0})),
    # the Sagotrick still happens (T1 wins the trick) but does not count for the Pagat: no Ultimo, and no
    # silent loss either, since T1 was not beaten
    ("pagat_via_sagotrick=false", (0, {"T6": 0, "T1": 0}), (0, {"T6": 0, "T1": 0})),
    # without the Sagotrick rule TS wins trick 2: after T6 the Pagat is beaten in the last trick
    ("sagotrick=off", (0, {"T6": 0, "T1": 0}), (0, {"T6": 1, "T1": 0})),
    # trick 2 is played T1, T5, TS, T21: not the order T21, TS, T1, so not a Sagotrick either
    ("sagotrick=mond_skus_pagat", (0, {"T6": 0, "T1": 0}), (0, {"T6": 1, "T1": 0})),
])
def test_zr_pagat_via_sagotrick_mid_trick(variant, ultimo, beaten):
    # D = seat 1 + seat 2 (partner=2; T19 is not in the ending). Seat 1 led HK, seat 2 followed HQ; seat 3, void in
    # hearts, must tarock: T1 or T6. Seat 4 then follows HN.
    # T6: seat 3 wins trick 1 with the only tarock and leads T1; seat 4 T5, seat 1 TS, seat 2 T21: TS, T21 and T1 in
    #     one trick, a Sagotrick, and T1 wins the last trick: Pagat Ultimo for the defenders (default flags).
    # T1: T1 (the only tarock) wins trick 1, so the Pagat is gone before the last trick: 0.
    p = zr(PAGAT_SAGOTRICK, partner=2, play=["HK", "HQ"], variant=variant)
    value, cards = ultimo
    check(p, "pagat_ultimo", value, bool(value), cards)
    value, cards = beaten
    # pagat_beaten is D's question; seat 3 (a defender) is to move and minimises it.
    check(p, "pagat_beaten", value, bool(value), cards)


def test_zr_mondfang_by_own_partner_and_after_sagotrick():
    # T21 is in D's hands (seat 2), so the defenders profit from a Mondfang.
    p = zr(PAGAT_SAGOTRICK, partner=2, play=["HK", "HQ"])
    # T6: trick 2 holds TS and T21 but is a Sagotrick, won by T1: no Mondfang (0).
    # T1: seat 3 wins trick 1 and leads T6: T5, TS, T21 follow and TS catches the Mond (1).
    check(p, "mondfang", 1, True, {"T6": 0, "T1": 1})
    # Seat 3 leads to an ending where D's own TS must fall on D's own T21 (RULES.md 1.6: charged to the side of the
    # player who played T21, even if the partner played TS).
    q = zr("1: TS HK / T21 HQ / T6 HJ / T5 HN", partner=2, leader=3)
    # T6: T5, TS (seat 1's only tarock), T21 (seat 2's only tarock): TS wins with T21 in the trick (1).
    # HJ: HN, HK, HQ follow; HK wins and seat 1 must lead TS to the last trick, where seat 2 must add T21 (1).
    check(q, "mondfang", 1, True, {"T6": 1, "HJ": 1})


def test_zr_suit_solo_tarocks_never_win_a_suit_lead():
    deal = "1: SK SQ / TS HG / T21 HK / SJ SG"
    # Suit Solo of seat 1, 26 points in play. SK: seats 2 and 3 are void in spades and must tarock (TS, T21),
    # seat 4 follows; a tarock never wins a suit lead, SK wins. SQ then wins too (HG, HK thrown, the last spade
    # follows). SQ first: the same. The declarer takes all 26 points and both tricks.
    p = zr(deal, "SuitSolo")
    check(p, "points", 26, None, {"SK": 26, "SQ": 26})
    check(p, "valat", 2, True, {"SK": 2, "SQ": 2})
    # The same cards as a Solo: TS wins trick 1 (tarocks are trump), seat 2 leads HG, HK wins: the declarer gets
    # nothing after either lead.
    q = zr(deal, "Solo")
    check(q, "points", 0, None, {"SK": 0, "SQ": 0})
    check(q, "valat_against", 2, True, {"SK": 2, "SQ": 2})
    # Pagat Ultimo and Mondfang are not questions of a Suit Solo (RULES.md 1.6).
    for objective in ("pagat_ultimo", "pagat_beaten", "mondfang"):
        with pytest.raises(InvalidContractError):
            ref(p, objective)


def rule_book_objectives(position: Position, flags: dict) -> dict:
    """RULES.md 1.6 written again from the rule book: each objective's side and what a finished line is worth to it
    (points, or 1 when it succeeds)."""
    rules, pack = position.rules, position.pack
    skus, mond, pagat = (pack.parse(name).index for name in ("TS", "T21", "T1"))
    declarers = rules.declaring_side
    defenders = frozenset(range(4)) - declarers
    holder = lambda card: next((s for s in range(4) if position.state.hands[s] >> card & 1), None)  # noqa: E731
    side_of = lambda seat: declarers if seat in declarers else defenders  # noqa: E731
    tricks = rules.tricks_in_deal
    found = {"points": (declarers, lambda state: state.side_points(declarers)),
             "valat": (declarers, lambda state: int(state.side_tricks(declarers) == tricks)),
             "valat_against": (defenders, lambda state: int(state.side_tricks(declarers) == 0))}
    if rules.contract.kind == "suitsolo":
        return found  # no Pagat Ultimo, no Mondfang
    if holder(pagat) is not None:
        h = holder(pagat)

        def ultimo(state) -> int:  # h plays T1 in the last trick and it wins (by a Sagotrick only with the flag)
            last = state.history[-1]
            return int(pagat in last.cards and last.winner == h
                       and (skus not in last.cards or flags.get("pagat_via_sagotrick") != "false"))

        found["pagat_ultimo"] = (side_of(h), ultimo)
        found["pagat_beaten"] = (frozenset(range(4)) - side_of(h),
                                 lambda state: int(pagat in state.history[-1].cards and state.history[-1].winner != h))
    if holder(mond) is not None:
        found["mondfang"] = (frozenset(range(4)) - side_of(holder(mond)), lambda state: int(any(
            {skus, mond} <= set(trick.cards) and trick.winner == trick.seat_of(trick.cards.index(skus), 4)
            for trick in state.history)))
    return found


def rule_book_value(state, side: frozenset, worth) -> int:
    """Minimax over every line of a small ending: ``side`` maximises ``worth`` of the finished line."""
    if state.is_over:
        return worth(state)
    values = [rule_book_value(state.advance(card), side, worth) for card in state.legal_list()]
    return max(values) if state.to_move in side else min(values)


@pytest.mark.parametrize("contract", ["Normal T20", "Solo", "SuitSolo"])
def test_zr_objectives_agree_with_a_second_reading_of_the_rule_book(contract):
    """RULES.md 1.6 written again (:func:`rule_book_objectives`) and searched by plain minimax over every line, against
    the solver on seeded 2- and 3-trick endings that hold TS, T21 and T1: each objective's side and its value
    (points) or yes/no, under the flags that change them (sagotrick, pagat_via_sagotrick, suit_solo_follow)."""
    rng = random.Random(f"rule book objectives {contract}")
    pack = Zwanzigerrufen.pack
    trulls = [pack.parse(name).index for name in ("TS", "T21", "T1")]
    rest = [card.index for card in pack if card.index not in trulls and card.name != "T20"]  # Normal T20: not dealt
    variants = [{}, {"pagat_via_sagotrick": "false"}, {"sagotrick": "mond_skus_pagat"}, {"sagotrick": "off"},
                {"suit_solo_follow": "strict"}]
    compared = 0
    for number in range(60):
        flags = variants[number % len(variants)]
        size = 2 + number % 3 // 2  # 2, 2, 3: a Sagotrick in the last trick is likelier in the shorter
        cards = trulls + rng.sample(rest, 4 * size - 3)
        rng.shuffle(cards)
        deal = "1: " + " / ".join(" ".join(pack[c].name for c in cards[s * size:(s + 1) * size]) for s in range(4))
        seats = {"partner": rng.randint(2, 4)} if contract.startswith("Normal") else {"declarer": rng.randint(1, 4)}
        position = zr(deal, contract, variant=flags, **seats)
        for name, (side, worth) in rule_book_objectives(position, flags).items():
            assert position.objective(name).maximiser == side, (deal, name)
            result = solver.solve(position, name)
            value = rule_book_value(position.state, side, worth)
            assert (result.total if name == "points" else int(result.success)) == value, (deal, flags, name)
            compared += 1
    assert compared >= 180


# =====================================================================================================================
# Schafkopf (RULES.md 2.4). Rufer trumps: EO GO HO SO EU GU HU SU HA HZ HK H9 H8 H7.


def test_sk_points_high_called_ace_rules():
    # Rufer E: EA is seat 3's, so D = seats 1 and 3. 41 points in play.
    p = sk("1: GA E7 / GK EZ / EA HO / SU E8", "Rufer E")
    # E7: acorns led, so seat 3 must play EA (rule 1); EZ and E8 follow; EA wins 21. Seat 3 leads HO: SU must
    #     follow trumps, GA and GK are thrown; HO wins 20. D: 41.
    # GA: GK follows. Seat 3 is void in leaves but may not throw EA before acorns were led (rule 2): HO, which wins
    #     the trick. Seat 4 (void) throws E8 rather than SU: D gets GA GK HO E8 = 18. Seat 3 must lead EA; seat 4,
    #     now holding only SU, trumps and wins EA SU E7 EZ = 23. D: 18.
    #     (Had seat 4 thrown SU to trick 1, he would follow EA with E8 and D would take all 41.)
    check(p, "points", 41, None, {"GA": 18, "E7": 41})


def test_sk_points_low_and_schwarz_against():
    # Rufer S: SA is seat 3's, D = seats 1 and 3. 38 points in play.
    p = sk("1: S9 G7 / EO GA / SA G9 / GO GZ", "Rufer S")
    # S9: seat 3 must play SA (rule 1); seat 2 trumps with EO (or seat 4 with GO): a defender wins SA's trick. The
    #     defenders then take the other trick too (GA with GZ following, or GO / EO trumping). D: 0.
    # G7: GA, G9, GZ follow leaves (GO is a trump, not a leaf); GA wins. Seat 2 leads EO: SA (seat 3's last card,
    #     so allowed), GO, S9: EO wins. D: 0.
    check(p, "points", 0, None, {"S9": 0, "G7": 0})
    check(p, "schwarz", 0, False, {"S9": 0, "G7": 0})
    check(p, "schwarz_against", 2, True, {"S9": 2, "G7": 2})


def test_sk_game_true_solo():
    # Acorn Solo (trumps: Obers, Unters, EA EZ EK E9 E8 E7) of seat 1. 76 points in play; Game target 61.
    p = sk("1: EO GA SA / GZ SZ HA / GK SU HZ / G9 S9 HK", "Solo E")
    # EO: seat 3 must follow trumps with SU, his only trump; EO wins. Nobody else holds a trump: GA and SA are then
    #     the best cards of their suits and win. The declarer takes all 76.
    # GA: GZ, GK, G9 follow, GA wins 25. Seat 1 then leads EO (drawing SU) and SA: all 76.
    # SA: SZ follows, seat 3 (void in bells) trumps with SU and wins 23. Seat 3 leads GK (GA wins it and EO then wins
    #     the last trick) or HZ (EO trumps it, GA wins the last trick): the declarer gets 76 - 23 = 53.
    check(p, "game", 76, True, {"EO": 76, "GA": 76, "SA": 53})


def test_sk_game_false_rufer():
    # Rufer E; EA is not in the ending, partner=3. 70 points in play.
    p = sk("1: GA SA / GZ SZ / GK SK / EZ HZ", "Rufer E", partner=3)
    # GA: GZ and GK follow, seat 4 (void) trumps with HZ: 35 to the defenders. Seat 4 leads EZ, nobody holds an
    #     acorn or a trump, EZ wins 35. D: 0. (If seat 4 threw EZ instead, SA would be trumped in trick 2: D 35.)
    # SA: the same with bells. D: 0.
    check(p, "game", 0, False, {"GA": 0, "SA": 0})


def test_sk_schneider_true_wenz():
    # Wenz of seat 1: only the four Unters are trumps. 96 points in play; Schneider target 91.
    p = sk("1: EU EA GA / EZ GZ HA / EK GK HZ / SA SZ GU", "Wenz")
    # EU: seat 4 must follow with GU, his only trump; EU wins. No defender holds a trump now: EA and GA win.
    #     The declarer takes all 96.
    # EA: EZ, EK follow; seat 4 trumps with GU: 11+10+4+2 = 27 to the defenders. He leads a bell; the declarer
    #     trumps with EU and GA wins the last trick: 96 - 27 = 69. (Throwing a bell instead lets EU draw GU: 96.)
    # GA: the same with leaves (GA GZ GK GU = 27): 69.
    check(p, "schneider", 96, True, {"EU": 96, "EA": 69, "GA": 69})


def test_sk_schneider_false_and_schneider_against_false_wenz():
    # The same Wenz with EU and GU exchanged: seat 4 holds the top trump.
    p = sk("1: GU EA GA / EZ GZ HA / EK GK HZ / SA SZ EU", "Wenz")
    # GU: seat 4 must follow with EU and wins; he then cashes SA and SZ (nobody else holds a bell or a trump):
    #     the declarer takes nothing.
    # EA: EZ, EK follow. Seat 4 either trumps with EU now (EA EZ EK EU = 27) and the declarer's GU trumps his bell
    #     lead and GA wins; or he throws a bell now and trumps GA (GA GZ GK EU = 27) in trick 2, after which GU
    #     trumps his last bell. Either way the EU trick holds an ace, a ten, a king and EU: 96 - 27 = 69.
    # GA: symmetric: 69.
    check(p, "schneider", 69, False, {"GU": 0, "EA": 69, "GA": 69})
    # The reverse (the defenders take 90 of this ending) is the same tree from the defenders' side: 96 - D.
    check(p, "schneider_against", 27, False, {"GU": 96, "EA": 27, "GA": 27})


def test_sk_schneider_against_true_and_schwarz_against():
    # Hearts Solo of seat 1, who holds three plain kings; 96 points in play.
    p = sk("1: EK GK SK / EA GA SA / EZ GZ SZ / HA HZ H9", "Solo H")
    # Seat 2 holds the ace of each of the declarer's suits and must play it on the king; seat 4 holds the only
    # trumps. Whatever is led, a defender's ace, ten or trump beats the declarer's king: the defenders take every
    # trick and all 96 points (the 90 of schneider_against and more), whichever king seat 1 leads.
    check(p, "schneider_against", 96, True, {"EK": 96, "GK": 96, "SK": 96})
    check(p, "schwarz_against", 3, True, {"EK": 3, "GK": 3, "SK": 3})
    check(p, "schwarz", 0, False, {"EK": 0, "GK": 0, "SK": 0})


def test_sk_schwarz_true_called_ace_may_not_be_thrown():
    # Rufer S: SA is seat 3's, D = seats 1 and 3. 42 points in play.
    p = sk("1: EO SK / HA SZ / SA G7 / HO G8", "Rufer S")
    # EO: HA (a trump) and HO must follow trumps; seat 3 may not throw SA before bells were led (rule 2): G7.
    #     EO wins. SK: SZ, SA (rule 1), G8: SA wins. D: both tricks, all 42 points.
    # SK: SZ follows, SA must be played (rule 1), seat 4 (void in bells) trumps with HO and wins 28. Seat 4 leads
    #     G8: EO wins it. D: 1 trick, 14 points. (Seat 4 throwing G8 instead would give D both tricks.)
    check(p, "schwarz", 2, True, {"EO": 2, "SK": 1})
    check(p, "schwarz_against", 0, False, {"EO": 0, "SK": 1})
    check(p, "points", 42, None, {"EO": 42, "SK": 14})


def test_sk_tout_true_wenz_tout():
    p = sk("1: EU EA / GU GK / EZ G7 / EK H9", "WenzTout")
    # EU: seat 2 must follow with GU; EU wins, and EA then wins (no trump left among the defenders): 2 tricks.
    # EA: seat 2 (void in acorns) trumps with GU and wins: the Tout is lost (1 trick: EU wins the last trick).
    check(p, "tout", 2, True, {"EU": 2, "EA": 1})


def test_sk_tout_false_solo_tout():
    # Bells SoloTout (trumps: Obers, Unters, SA SZ SK S9 S8 S7).
    p = sk("1: EO SA / GO S9 / EZ G7 / EK H9", "SoloTout S")
    # EO: seat 2 must follow trumps and keeps GO by playing S9; GO then beats SA: 1 trick.
    # SA: seat 2 must follow trumps and beats it with GO; EO wins the last trick: 1 trick.
    check(p, "tout", 1, False, {"EO": 1, "SA": 1})


def test_sk_mid_trick_called_suit_led_frees_the_ace():
    # Rufer G: GA is seat 2's. Seat 1 has led EO; seat 2 is void in trumps. 33 points in play.
    deal = "1: EO S7 / GA SZ / HO S9 / SU SK"
    p = sk(deal, "Rufer G", play=["EO"])
    # Leaves have not been led: seat 2 may not throw GA (rule 2), only SZ. Trick 1: EO SZ HO SU (HO and SU must
    # follow trumps) = 18 to D. Seat 1 leads S7: seat 2 (void in bells) throws GA, S9 and SK follow: SK wins 15.
    check(p, "points", 18, None, {"SZ": 18})
    # With [CalledSuitLed "yes"] leaves were led earlier (GA's holder ran away): GA is an ordinary card.
    # GA: trick 1 = EO GA HO SU = 19 to D; S7 SZ S9 SK: SZ wins 14. D: 33.  SZ: as above, 18.
    q = sk(deal, "Rufer G", play=["EO"], called_suit_led=True)
    check(q, "points", 33, None, {"GA": 33, "SZ": 18})


# =====================================================================================================================
# Kratzen (RULES.md 3.3): "tricks" per seat, the seat against everyone; targets: attacker 2, others 1.
# Hearts trump: HA > S6 (Weli) > HK > HO > HU > HZ > H9 > H8 > H7.


def test_kr_attacker_makes_two_tricks():
    p = kr("1: HA EA / HK E7 / H7 G9")
    # Seat 1 (attacker).  HA: HK and H7 must follow trumps; HA wins. EA: E7 follows, seat 3 throws G9 (no trump
    #     left): EA wins. 2 tricks.
    # EA: E7 follows; seat 3, void in acorns, must trump and beat: H7 wins. Seat 3 leads G9: seat 1 must trump (HA),
    #     seat 2 too (HK): HA wins. 1 trick.
    check(p, "tricks", 2, True, {"HA": 2, "EA": 1}, seat=1)
    # Seat 2 never wins a trick (HK always meets HA; E7 is beaten).
    check(p, "tricks", 0, False, {"HA": 0, "EA": 0}, seat=2)
    # Seat 3 wins with H7 only after EA; seat 1 (now minimising seat 3's tricks) leads HA.
    check(p, "tricks", 0, False, {"HA": 0, "EA": 1}, seat=3)


def test_kr_attacker_fails_weli_forces_the_ace():
    p = kr("1: S6 EK / HA E7 / H7 EA")
    # S6 (the Weli, a trump): seat 2 must follow trumps and beat: HA. Seat 3 follows H7. HA wins; seat 2 leads E7,
    #     seat 3 must follow and beat with EA, EK follows: EA wins. Seat 1: 0 tricks; seats 2 and 3: 1 each.
    # EK: E7 follows (cannot beat), seat 3 must beat with EA and wins; seat 3 leads H7: seat 1 must follow trumps and
    #     beat (S6), seat 2 must beat the Weli (HA) and wins. Again 0, 1, 1.
    check(p, "tricks", 0, False, {"S6": 0, "EK": 0}, seat=1)
    check(p, "tricks", 1, True, {"S6": 1, "EK": 1}, seat=2)
    check(p, "tricks", 1, True, {"S6": 1, "EK": 1}, seat=3)


def test_kr_four_seats_mid_trick_overtrump_and_undertrump():
    # Seat 1 has led E9; seat 2 is to move, void in acorns, with two trumps that both beat E9.
    p = kr("1: E9 HK / HZ S6 / EK H7 / G7 HO", play=["E9"])
    # HZ: seat 3 must follow acorns (EK), seat 4 (void) must trump and beat HZ: HO wins trick 1. Seat 4 leads G7:
    #     seat 1 must trump (HK), seat 2 must beat HK: the Weli wins trick 2. Tricks: seat 2 1, seat 4 1.
    # S6: EK follows; seat 4 cannot beat the Weli but must still trump (must_undertrump): HO; S6 wins. Seat 2 leads
    #     HZ: H7 follows, seat 4 throws G7, seat 1 must follow trumps and beat: HK wins. Tricks: seat 2 1, seat 1 1.
    check(p, "tricks", 1, True, {"HZ": 1, "S6": 1}, seat=2)
    # For the other seats seat 2 is an opponent and picks the card that hurts them.
    check(p, "tricks", 0, False, {"HZ": 0, "S6": 1}, seat=1)
    check(p, "tricks", 0, False, {"HZ": 0, "S6": 0}, seat=3)
    check(p, "tricks", 0, False, {"HZ": 1, "S6": 0}, seat=4)


@pytest.mark.parametrize("contract, success", [("Trump H", False), ("Trump H Muss", False),
                                               ("Trump H SevenMuss", True)])
def test_kr_targets_by_contract(contract, success):
    p = kr("1: HA E7 / HK EA / H7 G9", contract)
    # HA: HK, H7 follow; HA wins. E7: EA beats it, seat 3 throws G9 (no trump left). Seat 1: 1 trick.
    # E7: EA beats it, seat 3 must trump and beat EA: H7 wins; seat 3 leads G9, seat 1 trumps with HA (seat 2 must
    #     trump too, with HK): HA wins. Seat 1: 1 trick.
    # The attacker needs 2 tricks in a normal game and a Muss, 1 in a Seven-Muss.
    check(p, "tricks", 1, success, {"HA": 1, "E7": 1}, seat=1)


def test_kr_bells_trump_ace_over_weli():
    # Bells trump: SA > S6 > SK. Seat 1 leads SK; seat 2 must follow trumps and beat (S6); seat 3 must beat the
    # Weli: SA wins (RULES.md 4 check case [SK, S6, SA] -> SA).
    p = kr("1: SK / S6 / SA", "Trump S")
    check(p, "tricks", 1, True, {"SK": 1}, seat=3)
    check(p, "tricks", 0, False, {"SK": 0}, seat=2)


# =====================================================================================================================
# Invariants on seeded random endings: deal with Game.deal_random, play random legal cards down to a few tricks.


def random_position(game, contract: str, seed: int, tricks_left: int, *, seats: int | None = None,
                    declarer: int = 1, in_trick: int = 0) -> Position:
    """A random whole deal played at random down to ``tricks_left`` tricks, ``in_trick`` cards into that trick."""
    rng = random.Random(seed)
    for _ in range(100):
        deal = game.deal_random(rng, seats)
        try:
            rules = game.rules(deal, contract, declarer=declarer)
        except InvalidContractError:
            continue  # e.g. forehand holds T20..T16, or a Rufer caller without a card of the suit
        break
    else:  # pragma: no cover
        raise AssertionError("no deal for this contract")
    state = rules.start()
    while not (state.tricks_left == tricks_left and len(state.trick) == in_trick):
        state = state.play(rng.choice(state.legal_list()))
    return Position(game, rules, state)


def points_in_play(position: Position) -> int:
    points = position.rules.points
    cards = list(position.state.trick)
    for hand in position.state.hands:
        cards += [c for c in range(len(points)) if hand >> c & 1]
    return sum(points[c] for c in cards)


def assert_root_is_extreme(position: Position, result: solver.SolveResult) -> None:
    """The root value is the max (maximiser to move) or min (otherwise) of the per-card values."""
    values = [cv.value for cv in result.card_values]
    assert values and len(values) == position.state.legal_cards().bit_count()
    if position.state.to_move in result.objective.maximiser:
        assert result.future == max(values)
    else:
        assert result.future == min(values)


def _case(*values, slow: bool = False):
    """One parameter set, marked slow when ``slow``: the fast tier keeps one seed of the 4-trick endings."""
    return pytest.param(*values, marks=pytest.mark.slow) if slow else values


CASES = [_case(seed, tricks, cards, slow=tricks == 4 and seed > 0)
         for seed in range(5) for tricks, cards in ((3, 0), (4, 0), (3, 2))]


@pytest.mark.parametrize("contract, declarer", [("Normal", 1), ("Solo", 3), ("SuitSolo", 2)])
@pytest.mark.parametrize("seed, tricks, in_trick", CASES)
def test_zr_invariants(contract, declarer, seed, tricks, in_trick):
    p = random_position(Zwanzigerrufen, contract, 1000 + seed, tricks, declarer=declarer, in_trick=in_trick)
    in_play = points_in_play(p)
    d = ref(p, "points", cards=True)
    o = ref(p, "absolut_against", cards=True)  # the defenders' points, maximised by the defenders
    # zero-sum: what D can force and what the defenders can force add up to the points still in play, card by card
    assert d.future + o.future == in_play
    assert d.total + o.total == 88
    assert all(a.card == b.card and a.value + b.value == in_play for a, b in zip(d.card_values, o.card_values))
    assert_root_is_extreme(p, d)
    assert_root_is_extreme(p, o)
    # the yes/no questions agree with the points
    assert ref(p, "game").success == (d.total >= 45)
    assert ref(p, "absolut").success == (d.total >= 56)
    assert o.success == (d.total <= 32)
    # relabelling: Valat and Valat against never both hold; the tricks each side can force add up to the tricks left
    v = ref(p, "valat", cards=True)
    va = ref(p, "valat_against", cards=True)
    assert not (v.success and va.success)
    assert v.future + va.future == p.state.tricks_left
    assert_root_is_extreme(p, v)
    # the Pagat either wins the last trick or is beaten in it, never both (while it is still in a hand)
    if contract != "SuitSolo" and p.state.cards_left >> p.pack.parse("T1").index & 1:
        ultimo = ref(p, "pagat_ultimo", cards=True)
        beaten = ref(p, "pagat_beaten")
        assert not (ultimo.success and beaten.success)
        assert_root_is_extreme(p, ultimo)


@pytest.mark.parametrize("contract, declarer", [("Rufer E", 1), ("Rufer S", 2), ("Wenz", 4), ("Solo H", 1)])
@pytest.mark.parametrize("seed, tricks, in_trick", CASES)
def test_sk_invariants(contract, declarer, seed, tricks, in_trick):
    p = random_position(Schafkopf, contract, 2000 + seed, tricks, declarer=declarer, in_trick=in_trick)
    in_play = points_in_play(p)
    d = ref(p, "points", cards=True)
    o = ref(p, "schneider_against", cards=True)
    assert d.future + o.future == in_play
    assert d.total + o.total == 120
    assert all(a.value + b.value == in_play for a, b in zip(d.card_values, o.card_values))
    assert_root_is_extreme(p, d)
    assert_root_is_extreme(p, o)
    assert ref(p, "game").success == (d.total >= 61)
    assert ref(p, "schneider").success == (d.total >= 91)
    assert o.success == (d.total <= 30)
    s = ref(p, "schwarz", cards=True)
    sa = ref(p, "schwarz_against")
    assert not (s.success and sa.success)
    assert s.future + sa.future == p.state.tricks_left
    assert_root_is_extreme(p, s)


KR_CASES = [_case(seats, seed, tricks, in_trick, slow=tricks == 4 and (seed > 0 or seats == 6))
            for seats in (3, 4, 5, 6) for seed in range(4)
            for tricks, in_trick in ((4, 0), (3, 0), (2, 1))
            if not (tricks == 4 and seats == 6 and seed)]  # a whole 6-seat deal takes seconds: one is enough


@pytest.mark.parametrize("seats, seed, tricks, in_trick", KR_CASES)
def test_kr_invariants(seats, seed, tricks, in_trick):
    p = random_position(Kratzen, "Trump " + "EGHS"[seed % 4], 3000 + seed, tricks, seats=seats, in_trick=in_trick)
    guaranteed = []
    for seat in range(1, seats + 1):
        result = ref(p, "tricks", seat=seat, cards=True)
        assert 0 <= result.future <= p.state.tricks_left
        assert_root_is_extreme(p, result)
        assert result.success == (result.total >= (2 if seat == 1 else 1))
        guaranteed.append(result.future)
    # paranoid values: every seat against all the others; they cannot add up to more tricks than are left
    assert sum(guaranteed) <= p.state.tricks_left
