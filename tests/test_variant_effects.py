"""Each play flag of RULES.md changes what the command line answers, checked from outside the solver: a small ending
where the flag flips the value, brute-forced here by a minimax written straight from RULES.md (1.3-1.5, 3.2; not the
game modules' rules), then `stich solve` with and without `--variant`, and the record `show --tbn` writes under the
flag solved again (it must keep the flag). Schafkopf's runaway_count_at and the Pagat-by-Sagotrick objective are
hand-worked positions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from solver.cli.main import app

runner = CliRunner()

# --- RULES.md, written out again -----------------------------------------------------------------------------------

TAROCKS = ["TS", "T21"] + [f"T{i}" for i in range(20, 3, -1)] + ["T1"]
TAROCK_POINTS = {"K": 5, "Q": 4, "N": 3, "J": 2, "G": 0}


def tarock_points(card: str) -> int:
    if card[0] == "T":
        return 5 if card in ("TS", "T21", "T1") else 1
    return TAROCK_POINTS[card[1]]


def tarock_rank(card: str) -> int:
    return 100 - TAROCKS.index(card) if card[0] == "T" else 10 - "KQNJG".index(card[1])


def tarock_legal(hand: list[str], trick: list[str], flags: dict, suit_solo: bool, reserved: bool) -> list[str]:
    """1.3 / 1.4; ``reserved``: the hand is the Pagat announcer's under hard_pagat_reservation."""
    if not trick:
        suits = [c for c in hand if c[0] != "T"]
        legal = suits if suit_solo and suits else list(hand)
    elif trick[0][0] == "T":
        legal = [c for c in hand if c[0] == "T"] or list(hand)
    else:
        legal = [c for c in hand if c[0] == trick[0][0]]
        if not legal:
            void = (lambda c: c[0] != "T") if suit_solo and flags.get("suit_solo_follow") == "strict" \
                else (lambda c: c[0] == "T")
            legal = [c for c in hand if void(c)] or list(hand)
    if reserved and "T1" in legal and len(hand) > 1 and len(legal) > 1:
        legal.remove("T1")
    return legal


def tarock_winner(trick: list[str], flags: dict, suit_solo: bool) -> int:
    """1.5: the index of the winning card."""
    led = trick[0][0]
    if suit_solo and led != "T":
        return max(range(len(trick)), key=lambda i: tarock_rank(trick[i]) if trick[i][0] == led else -1)
    mode = flags.get("sagotrick", "any_order")
    if mode != "off" and {"TS", "T21", "T1"} <= set(trick):
        if mode == "any_order" or trick.index("T21") < trick.index("TS") < trick.index("T1"):
            return trick.index("T1")
    led = "T" if any(c[0] == "T" for c in trick) else led
    return max(range(len(trick)), key=lambda i: tarock_rank(trick[i]) if trick[i][0] == led else -1)


def kratzen_power(card: str, led: str, trump: str) -> int:
    order = "AKOUZ987"
    if card == "S6":
        return 119
    if card[0] == trump:
        return 120 if card[1] == "A" else 110 - order.index(card[1])
    return 50 - order.index(card[1]) if card[0] == led else 0


def kratzen_suit(card: str, trump: str) -> str:
    return "T" if card == "S6" or card[0] == trump else card[0]


def kratzen_legal(hand: list[str], trick: list[str], flags: dict, trump: str) -> list[str]:
    """3.2: follow and beat, else trump and overtrump (else undertrump, by must_undertrump)."""
    if not trick:
        return list(hand)
    led = kratzen_suit(trick[0], trump)
    best = max(kratzen_power(c, led, trump) for c in trick)
    follow = [c for c in hand if kratzen_suit(c, trump) == led
              or (c == "S6" and led == "S" and flags.get("weli_also_bells") in ("true", True))]
    if follow:
        return [c for c in follow if kratzen_power(c, led, trump) > best] or follow
    trumps = [c for c in hand if kratzen_suit(c, trump) == "T"]
    if trumps:
        beating = [c for c in trumps if kratzen_power(c, led, trump) > best]
        return beating or (list(hand) if flags.get("must_undertrump") in ("false", False) else trumps)
    return list(hand)


def best_value(hands, leader, legal, winner, value, maximisers, trick=(), to_move=None) -> int:
    """Plain minimax over every legal play: what ``maximisers`` can force of ``value`` (per trick)."""
    to_move = leader if to_move is None else to_move
    if not any(hands):
        return 0
    results = []
    for card in legal(to_move, hands[to_move], list(trick)):
        rest = [[c for c in hand if c != card] for hand in hands]
        played = trick + (card,)
        if len(played) == len(hands):
            won_by = (leader + winner(list(played))) % len(hands)
            results.append(value(won_by, played) + best_value(rest, won_by, legal, winner, value, maximisers))
        else:
            results.append(best_value(rest, leader, legal, winner, value, maximisers, played,
                                      (to_move + 1) % len(hands)))
    return max(results) if to_move in maximisers else min(results)


def tarock_value(hands, contract: str, declarer: int, flags: dict, announcer: int | None) -> int:
    suit_solo = contract == "SuitSolo"
    return best_value(
        hands, 0,
        lambda seat, hand, trick: tarock_legal(hand, trick, flags, suit_solo,
                                               flags.get("hard_pagat_reservation") == "true" and seat == announcer),
        lambda trick: tarock_winner(trick, flags, suit_solo),
        lambda seat, trick: sum(map(tarock_points, trick)) if seat == declarer else 0, {declarer})


def kratzen_value(hands, trump: str, seat: int, flags: dict, leader: int = 0) -> int:
    return best_value(hands, leader, lambda s, hand, trick: kratzen_legal(hand, trick, flags, trump),
                      lambda trick: max(range(len(trick)), key=lambda i: kratzen_power(trick[i], kratzen_suit(
                          trick[0], trump), trump)),
                      lambda won_by, trick: int(won_by == seat), {seat})


# --- the command line ------------------------------------------------------------------------------------------------


def total(path: Path, *options: str, seat: int | None = None) -> int:
    """The declarers' points (Kratzen: ``seat``'s guaranteed tricks) as `stich solve --json` gives them."""
    result = runner.invoke(app, ["solve", str(path), "--json", *options])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    wanted = "tricks" if seat is not None else "points"
    return next(r["total"] for r in document["results"] if r["objective"] == wanted and r["seat"] in (None, seat))


def written(path: Path, *options: str) -> Path:
    """The record `stich show --tbn` writes under ``options``, as a file."""
    result = runner.invoke(app, ["show", str(path), "--tbn", *options])
    assert result.exit_code == 0, result.output
    out = path.with_name("written.tbn")
    out.write_text(result.stdout, encoding="utf-8")
    return out


TAROCK_CASES = [
    # seat 3's Solo: with the Sagotrick T1 takes TS, T21 and T11 for seat 2; without it seat 3's TS takes them
    ("sagotrick=off", "Solo", 3, [["T17", "SK"], ["T1", "T19"], ["TS", "DQ"], ["T21", "T11"]], None, 0, 8),
    # seat 1 leads TS, T21 falls after it: the Sagotrick in that order only is T1's
    ("sagotrick=mond_skus_pagat", "Solo", 1, [["SG", "TS"], ["T13", "T21"], ["T6", "T9"], ["SJ", "T1"]], None,
     0, 12),
    # the Suit Solo's void seat 2 must tarock, or with strict play its CK
    ("suit_solo_follow=strict", "SuitSolo", 3, [["SG", "T13"], ["T5", "CK"], ["T16", "T4"], ["T15", "T7"]], None,
     8, 4),
    # seat 2 announced the Pagat: void in the led suit, it must keep T1 back and tarock with T20
    ("hard_pagat_reservation=true", "Solo", 2, [["DQ", "CK"], ["T20", "T1"], ["T15", "CQ"], ["T10", "T14"]], 2,
     11, 7),
]


@pytest.mark.parametrize("flag, contract, declarer, hands, announcer, plain, flagged", TAROCK_CASES)
def test_a_zwanzigerrufen_play_flag_changes_the_solution(tmp_path, flag, contract, declarer, hands, announcer,
                                                         plain, flagged):
    name, value = flag.split("=")
    assert tarock_value(hands, contract, declarer - 1, {}, None if announcer is None else announcer - 1) == plain
    assert tarock_value(hands, contract, declarer - 1, {name: value},
                        None if announcer is None else announcer - 1) == flagged
    path = tmp_path / "ending.tbn"
    path.write_text(f'[Game "Zwanzigerrufen"]\n[Deal "1: {" / ".join(" ".join(h) for h in hands)}"]\n'
                    f'[Contract "{contract}"]\n[Declarer "{declarer}"]\n'
                    + (f'[Announcements "{announcer}: Pagat"]\n' if announcer else ""), encoding="utf-8")
    assert total(path) == plain
    assert total(path, "--variant", flag) == flagged
    assert f'[Variant "{flag}"]' in written(path, "--variant", flag).read_text()
    assert total(written(path, "--variant", flag)) == flagged


KRATZEN_CASES = [
    # leaves trump: SK led, seat 3 follows with SO, or under weli_also_bells must beat it with the Weli (S6)
    ("weli_also_bells=true", "G", 2, [["E9", "SK"], ["EZ", "GZ"], ["SO", "S6"]], 1, 0),
    # seat 3, void in the led suit and unable to overtrump seat 2's EU, keeps or spends its trump
    ("must_undertrump=false", "E", 3, [["G8", "HO"], ["HZ", "EU"], ["S9", "EZ"]], 0, 1),
]


@pytest.mark.parametrize("flag, trump, seat, hands, plain, flagged", KRATZEN_CASES)
def test_a_kratzen_play_flag_changes_the_solution(tmp_path, flag, trump, seat, hands, plain, flagged):
    name, value = flag.split("=")
    assert kratzen_value(hands, trump, seat - 1, {}) == plain
    assert kratzen_value(hands, trump, seat - 1, {name: value}) == flagged
    path = tmp_path / "ending.tbn"
    path.write_text(f'[Game "Kratzen"]\n[Deal "1: {" / ".join(" ".join(h) for h in hands)}"]\n'
                    f'[Contract "Trump {trump}"]\n', encoding="utf-8")
    assert total(path, seat=seat) == plain
    assert total(path, "--variant", flag, seat=seat) == flagged
    assert total(written(path, "--variant", flag), seat=seat) == flagged


def test_first_leader_decides_who_leads_a_whole_deal(tmp_path):
    """Attacker seat 2 leads the deal's first trick and guarantees 3 tricks; led by forehand (seat 1), only 1."""
    hands = [["GK", "E7", "E9", "EO"], ["S6", "HA", "H8", "SK"], ["GZ", "S7", "SZ", "GO"]]
    assert (kratzen_value(hands, "G", 1, {}, leader=1), kratzen_value(hands, "G", 1, {}, leader=0)) == (3, 1)
    path = tmp_path / "deal.tbn"
    path.write_text(f'[Game "Kratzen"]\n[Deal "1: {" / ".join(" ".join(h) for h in hands)}"]\n'
                    '[Contract "Trump G"]\n[Declarer "2"]\n', encoding="utf-8")
    assert total(path, seat=2) == 3
    assert total(path, "--variant", "first_leader=forehand", seat=2) == 1
    assert total(written(path, "--variant", "first_leader=forehand"), seat=2) == 1


def test_runaway_count_at_decides_the_called_ace_holders_lead(tmp_path):
    """Rufer E, seat 2 holds EA and was dealt four acorns (RULES.md 2.3 rule 3). Trick 1: GA led, seat 2 (void)
    throws E8; trick 2: S7 led, seat 2 trumps with HO and leads with EA EK E9 left. Counted when leading (3
    acorns) it must lead EA; counted at the deal (4) it may run away with EK or E9."""
    path = tmp_path / "ending.tbn"
    path.write_text('[Game "Schafkopf"]\n'
                    '[Deal "1: GA S7 G9 E7 H7 / EA EK E9 E8 HO / G8 SA SZ EZ H8 / G7 SK S9 GK H9"]\n'
                    '[Contract "Rufer E"]\n[Play "1"]\nGA E8 G8 G7\nS7 HO SA SK\n', encoding="utf-8")

    def cards(*options: str) -> set[str]:
        result = runner.invoke(app, ["solve", str(path), "--json", "--cards", *options])
        assert result.exit_code == 0, result.output
        document = json.loads(result.stdout)
        groups = next(r for r in document["results"] if r["objective"] == "points")["cards"]
        return {card for group in groups for card in group["cards"]}  # equal cards come as one group

    assert cards() == {"EA"}
    assert cards("--variant", "runaway_count_at=deal") == {"EA", "EK", "E9"}
    rewritten = written(path, "--variant", "runaway_count_at=deal")
    assert '[Variant "runaway_count_at=deal"]' in rewritten.read_text()
    path = rewritten
    assert cards() == {"EA", "EK", "E9"}


def test_pagat_via_sagotrick_decides_whether_the_last_trick_is_a_pagat_ultimo(tmp_path):
    """Last trick T21, TS, T1, T4: T1 wins it by the Sagotrick, a Pagat Ultimo unless pagat_via_sagotrick=false
    (then it is neither made nor beaten: docs/rules.md, Reading 3)."""
    path = tmp_path / "ending.tbn"
    path.write_text('[Game "Zwanzigerrufen"]\n[Deal "1: T21 / TS / T1 / T4"]\n[Contract "Solo"]\n[Declarer "3"]\n',
                    encoding="utf-8")

    def made(*options: str) -> tuple[dict[str, bool], int]:
        result = runner.invoke(app, ["check", str(path), "--json", *options])
        assert result.exit_code == 0, result.output
        document = json.loads(result.stdout)
        return ({c["bonus"]: c["can_force"] for c in document["checks"] if c["bonus"].startswith("pagat")},
                document["score"]["value"])

    # the settlement moves by the silent Pagat Ultimo: 1, doubled in a Solo, paid 3 times to the soloist
    assert made() == ({"pagat_ultimo": True, "pagat_beaten": False}, 60)
    assert made("--variant", "pagat_via_sagotrick=false") == ({"pagat_ultimo": False, "pagat_beaten": False}, 54)


def payments(path: Path, *options: str) -> tuple[list[int], list[str]]:
    """The seats' payments and the items' names that `stich score --json` gives."""
    result = runner.invoke(app, ["score", str(path), "--json", *options])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    return document["payments"], [item["name"] for item in document["items"]]


def test_captured_card_bonuses_count_only_cards_a_side_took(tmp_path):
    """card_bonus_basis=captured: the soloist took TS, T1 and T21, a Trull (1, x2 in a Solo, x3 to the soloist);
    no King is in this ending, so nobody made 4 Kings (the defenders were given it, from every card the
    declarer did not take, absent ones too). Items: game 4 and Absolut 2 lost, Valat 24 and Trull 2 made."""
    path = tmp_path / "ending.tbn"
    path.write_text('[Game "Zwanzigerrufen"]\n[Deal "1: TS T21 / T1 T4 / T5 T6 / T7 T8"]\n[Contract "Solo"]\n'
                    '[Play "1"]\nTS T1 T5 T7\nT21 T4 T6 T8\n', encoding="utf-8")
    assert payments(path) == ([54, -18, -18, -18], ["game", "absolut", "valat"])
    assert payments(path, "--variant", "card_bonus_basis=captured") == (
        [60, -20, -20, -20], ["game", "absolut", "valat", "trull"])
    assert payments(written(path, "--variant", "card_bonus_basis=captured"))[0] == [60, -20, -20, -20]


# The soloist, seat 1, loses both tricks: game 4 (solo_value), the defenders' silent Absolut 1 x2 in a Solo, and
# their Valat 6 x the game value (x2 in a Solo only under double_valat_in_solo); each defender gets the sum.
SOLO_LOST = ('[Game "Zwanzigerrufen"]\n[Deal "1: T4 SG / TS SK / T5 SJ / T6 SN"]\n[Contract "Solo"]\n'
             '[Play "1"]\nT4 TS T5 T6\nSK SJ SN SG\n')
# Normal game, seat 3 the partner: seat 1's TS catches seat 2's T21, a Mondfang (1) against 2+4; the declarers
# also take the Valat (6) and, in this small ending, lose the game (1) and the Absolut (1).
MONDFANG = ('[Game "Zwanzigerrufen"]\n[Deal "1: TS SK / T21 SG / T4 SJ / T5 SN"]\n[Contract "Normal T20"]\n'
            '[Partner "3"]\n[Play "1"]\nTS T21 T4 T5\nSK SG SJ SN\n')
# Wenz: the declarer holds EU GU (2 Laufende) and takes both tricks (Schwarz 2) but only 37 points: the game (5)
# and, by default, the Laufende go to the defenders; only_if_holder_wins drops them.
WENZ = ('[Game "Schafkopf"]\n[Deal "1: EU GU / EA E9 / GA G9 / SA S9"]\n[Contract "Wenz"]\n'
        '[Play "1"]\nEU EA GA SA\nGU E9 G9 S9\n')


@pytest.mark.parametrize("record, flag, plain, flagged", [
    (SOLO_LOST, "solo_value=5", -3 * (4 + 2 + 24), -3 * (5 + 2 + 30)),
    (SOLO_LOST, "double_valat_in_solo=true", -3 * (4 + 2 + 24), -3 * (4 + 2 + 48)),
    (SOLO_LOST, "valat_mode=replaces_game", -3 * (4 + 2 + 24), -3 * (2 + 24)),
    (SOLO_LOST, "valat_mode=cancels_other_bonuses", -3 * (4 + 2 + 24), -3 * (4 + 24)),
    (SOLO_LOST, "valat_mode=multiplies_total", -3 * (4 + 2 + 24), -3 * (4 + 2) * 6),
    (MONDFANG, "mondfang=player", [-1 - 1 + 6 + 1, 1 + 1 - 6 - 1, -1 - 1 + 6 + 1, 1 + 1 - 6 - 1],
     [-1 - 1 + 6 + 1, 1 + 1 - 6 - 3, -1 - 1 + 6 + 1, 1 + 1 - 6 + 1]),
    (WENZ, "laufende_mode=only_if_holder_wins", -3 * (5 - 2 + 2), -3 * (5 - 2)),
])
def test_a_scoring_flag_changes_the_settlement(tmp_path, record, flag, plain, flagged):
    """Hand-worked settlements (docs/scoring.md) with and without the flag; the record show --tbn writes under the
    flag settles the same. An int is the declarer's payment in a solo (each defender pays a third of it)."""
    path = tmp_path / "deal.tbn"
    path.write_text(record, encoding="utf-8")

    def expected(value):
        return value if isinstance(value, list) else [value] + [-value // 3] * 3

    assert payments(path)[0] == expected(plain)
    assert payments(path, "--variant", flag)[0] == expected(flagged)
    assert payments(written(path, "--variant", flag))[0] == expected(flagged)


def test_check_says_a_captured_card_bonus_the_ending_cannot_hold_is_not_made(tmp_path):
    """`stich check` under card_bonus_basis=captured said of an ending without the four Kings, played out or not,
    that 'the tricks still to come decide' its 4 Kings: no trick can, as the score (nobody makes it) says."""
    path = tmp_path / "ending.tbn"
    path.write_text('[Game "Zwanzigerrufen"]\n[Deal "1: TS T21 / T1 T4 / T5 T6 / T7 T8"]\n[Contract "Solo"]\n',
                    encoding="utf-8")

    def dealt(*options: str) -> dict[str, object]:
        result = runner.invoke(app, ["check", str(path), "--json", "--variant", "card_bonus_basis=captured",
                                     *options])
        assert result.exit_code == 0, result.output
        return {bonus["bonus"]: bonus["made"] for bonus in json.loads(result.stdout)["dealt_bonuses"]}

    assert dealt() == {"trull": None, "four_kings": False}  # the Trull's cards are all here: the play decides
    assert dealt("--play", "TS T1 T5 T7 T21 T4 T6 T8") == {"trull": True, "four_kings": False}
