"""Cards and packs: tokens, aliases, points, pack sizes and rank orders exactly as RULES.md 1.1, 2.1 and 3.1 give them,
unknown tokens, and the CardSet wrapper."""

from __future__ import annotations

import dataclasses
import unicodedata
from pathlib import Path

import pytest

from solver.cards import Card, CardSet, Pack, bits, union
from solver.errors import StichError, UnknownCardError
from solver.games import Kratzen, Schafkopf, Zwanzigerrufen

ZR = Zwanzigerrufen.pack
SK = Schafkopf.pack
KR = Kratzen.pack


def name(pack, token: str) -> str:
    return pack.parse(token).name


# --- pack sizes and point totals --------------------------------------------------------------------------------


@pytest.mark.parametrize("pack, size, total", [(ZR, 40, 88), (SK, 32, 120), (KR, 33, 0)])
def test_pack_size_and_point_total(pack, size, total):
    assert len(pack) == size
    assert len(list(pack)) == size
    assert len({card.name for card in pack}) == size
    assert sum(card.points for card in pack) == total
    assert pack.points(pack.full_mask) == total
    assert pack.full_mask.bit_count() == size


def test_zwanzigerrufen_pack_holds_exactly_the_rule_book_cards():
    tarocks = {c.name for c in ZR if c.suit == "T"}
    assert tarocks == {"TS", "T21", "T1"} | {f"T{n}" for n in range(4, 21)}
    assert len(tarocks) == 20
    for suit in "SCHD":
        assert {c.name for c in ZR if c.suit == suit} == {suit + r for r in "KQNJG"}
    # II and III are not in the pack
    for token in ("T2", "T3", "II", "III"):
        with pytest.raises(UnknownCardError):
            ZR.parse(token)


def test_schafkopf_pack_holds_exactly_the_rule_book_cards():
    assert {c.name for c in SK} == {s + r for s in "EGHS" for r in "AZKOU987"}


def test_kratzen_pack_holds_exactly_the_rule_book_cards():
    assert {c.name for c in KR} == {s + r for s in "EGHS" for r in "AKOUZ987"} | {"S6"}


# --- per-card points ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("token, points", [
    ("TS", 5), ("T21", 5), ("T1", 5), ("T20", 1), ("T12", 1), ("T4", 1),
    ("SK", 5), ("CQ", 4), ("HN", 3), ("DJ", 2), ("SG", 0), ("HG", 0),
])
def test_zwanzigerrufen_card_points(token, points):
    assert ZR.parse(token).points == points


def test_zwanzigerrufen_points_per_group():
    for n in range(4, 21):
        assert ZR.parse(f"T{n}").points == 1
    for suit in "SCHD":
        assert [ZR.parse(suit + r).points for r in "KQNJG"] == [5, 4, 3, 2, 0]
    # simply added, no counting in threes
    assert ZR.card_set("TS T21 T1 T20 SK").points == 21


@pytest.mark.parametrize("rank, points", [("A", 11), ("Z", 10), ("K", 4), ("O", 3), ("U", 2), ("9", 0), ("8", 0),
                                          ("7", 0)])
def test_schafkopf_card_points(rank, points):
    for suit in "EGHS":
        assert SK.parse(suit + rank).points == points


def test_kratzen_has_no_card_points():
    assert all(card.points == 0 for card in KR)
    assert KR.parse("S6").points == 0


# --- Zwanzigerrufen tokens and aliases (RULES.md 1.1) ------------------------------------------------------------


@pytest.mark.parametrize("alias", ["TS", "SKUS", "SKÜS", "SKYS", "T22", "ts", "skus", "sküs", "Skys", "t22"])
def test_skus_aliases(alias):
    assert name(ZR, alias) == "TS"


def test_skus_alias_in_decomposed_unicode():
    decomposed = unicodedata.normalize("NFD", "SKÜS")
    assert decomposed != "SKÜS"
    assert name(ZR, decomposed) == "TS"


@pytest.mark.parametrize("alias", ["T21", "XXI", "MOND", "t21", "xxi", "mond", "Mond"])
def test_mond_aliases(alias):
    assert name(ZR, alias) == "T21"


@pytest.mark.parametrize("alias", ["T1", "I", "PAGAT", "t1", "i", "pagat", "Pagat"])
def test_pagat_aliases(alias):
    assert name(ZR, alias) == "T1"


ROMAN = {20: "XX", 19: "XIX", 18: "XVIII", 17: "XVII", 16: "XVI", 15: "XV", 14: "XIV", 13: "XIII", 12: "XII",
         11: "XI", 10: "X", 9: "IX", 8: "VIII", 7: "VII", 6: "VI", 5: "V", 4: "IV"}


@pytest.mark.parametrize("number", sorted(ROMAN))
def test_roman_numerals(number):
    assert name(ZR, ROMAN[number]) == f"T{number}"
    assert name(ZR, ROMAN[number].lower()) == f"T{number}"
    assert name(ZR, f"t{number}") == f"T{number}"


def test_four_is_iiii_or_iv():
    assert name(ZR, "IIII") == "T4"
    assert name(ZR, "IV") == "T4"
    assert name(ZR, "iiii") == "T4"


def test_sk_is_the_spade_king_never_the_skus():
    card = ZR.parse("SK")
    assert card.name == "SK"
    assert card.suit == "S" and card.rank == "K"
    assert card.points == 5
    assert card != ZR.parse("TS")
    assert name(ZR, "sk") == "SK"
    assert name(ZR, "Sk") == "SK"


@pytest.mark.parametrize("suit", "SCHD")
def test_knight_aliases_c_and_r(suit):
    assert name(ZR, suit + "N") == suit + "N"
    assert name(ZR, suit + "C") == suit + "N"
    assert name(ZR, suit + "R") == suit + "N"
    assert name(ZR, (suit + "r").lower()) == suit + "N"


def test_glatze_is_10_in_spades_and_clubs_a_in_hearts_and_diamonds():
    assert name(ZR, "S10") == "SG"
    assert name(ZR, "C10") == "CG"
    assert name(ZR, "HA") == "HG"
    assert name(ZR, "DA") == "DG"
    assert name(ZR, "ha") == "HG"
    for token in ("SG", "CG", "HG", "DG"):
        assert name(ZR, token) == token
    # the other spelling is not an alias in the other suits
    for token in ("SA", "CA", "H10", "D10"):
        with pytest.raises(UnknownCardError):
            ZR.parse(token)


@pytest.mark.parametrize("token, expected", [
    ("♠K", "SK"), ("K♠", "SK"), ("♣Q", "CQ"), ("Q♣", "CQ"), ("♥N", "HN"), ("N♥", "HN"), ("♦J", "DJ"), ("J♦", "DJ"),
    ("♤K", "SK"), ("K♤", "SK"), ("♧J", "CJ"), ("♡Q", "HQ"), ("♢K", "DK"), ("Q♡", "HQ"),
    ("♠10", "SG"), ("10♠", "SG"), ("♣10", "CG"), ("♥A", "HG"), ("A♥", "HG"), ("♦A", "DG"), ("A♦", "DG"),
    ("♠C", "SN"), ("R♥", "HN"), ("♠k", "SK"), ("a♦", "DG"), ("♠G", "SG"), ("G♦", "DG"),
])
def test_unicode_suit_signs_before_and_after_the_rank(token, expected):
    assert name(ZR, token) == expected


def test_tokens_are_stripped():
    assert name(ZR, "  T21 ") == "T21"


# --- Schafkopf tokens (RULES.md 2.1) ----------------------------------------------------------------------------


@pytest.mark.parametrize("suit", "EGHS")
def test_schafkopf_ten_aliases(suit):
    for rank in ("Z", "10", "T", "z", "t"):
        assert name(SK, suit + rank) == suit + "Z"


@pytest.mark.parametrize("leaf", ["L", "B", "l", "b"])
def test_schafkopf_leaves_aliases(leaf):
    for rank in "AZKOU987":
        assert name(SK, leaf + rank) == "G" + rank
    assert name(SK, leaf + "10") == "GZ"


def test_schafkopf_examples_and_case():
    assert name(SK, "EO") == "EO"
    assert SK.parse("EO").suit == "E" and SK.parse("EO").rank == "O"
    assert name(SK, "hz") == "HZ"
    assert name(SK, "h10") == "HZ"
    assert name(SK, "ht") == "HZ"


def test_schafkopf_unicode_hearts_sign():
    assert name(SK, "♥A") == "HA"
    assert name(SK, "A♥") == "HA"
    assert name(SK, "♥10") == "HZ"


# --- Kratzen tokens (RULES.md 3.1) --------------------------------------------------------------------------------


@pytest.mark.parametrize("alias", ["S6", "W", "WELI", "s6", "w", "weli", "Weli"])
def test_weli_aliases(alias):
    assert name(KR, alias) == "S6"


def test_kratzen_tokens():
    assert name(KR, "EA") == "EA"
    assert name(KR, "gz") == "GZ"
    assert name(KR, "HU") == "HU"
    # the Weli is the only six
    for token in ("E6", "G6", "H6"):
        with pytest.raises(UnknownCardError):
            KR.parse(token)


@pytest.mark.parametrize("pack", [SK, KR], ids=["Schafkopf", "Kratzen"])
def test_german_suited_packs_read_suits_alike(pack):
    """Schafkopf and Kratzen build their packs with one German-suited helper: the same suit letters, leaves
    aliases and Unicode signs, each pack with its own ranks and points."""
    for token, expected in (("LA", "GA"), ("BA", "GA"), ("♣A", "EA"), ("♠A", "GA"), ("♥A", "HA"), ("♦A", "SA")):
        assert name(pack, token) == expected
    assert pack.sign_letters == {"clubs": "E", "spades": "G", "hearts": "H", "diamonds": "S"}
    ranks = "AZKOU987" if pack is SK else "AKOUZ987"
    suited = [suit + rank for suit in "EGHS" for rank in ranks]
    assert [card.name for card in pack] == (suited if pack is SK else ["S6", *suited])
    assert pack.points(pack.full_mask) == (120 if pack is SK else 0)


# --- rank orders ---------------------------------------------------------------------------------------------------


def test_tarock_rank_order():
    order = ["TS", "T21"] + [f"T{n}" for n in range(20, 3, -1)] + ["T1"]
    values = [ZR.parse(t).order for t in order]
    assert values == sorted(values, reverse=True)
    assert len(set(values)) == len(values)


@pytest.mark.parametrize("suit", "SCHD")
def test_zwanzigerrufen_suit_rank_order(suit):
    values = [ZR.parse(suit + r).order for r in "KQNJG"]
    assert values == sorted(values, reverse=True) and len(set(values)) == 5


@pytest.mark.parametrize("suit", "EGHS")
def test_schafkopf_plain_rank_order(suit):
    values = [SK.parse(suit + r).order for r in "AZKOU987"]
    assert values == sorted(values, reverse=True) and len(set(values)) == 8


@pytest.mark.parametrize("suit", "EGHS")
def test_kratzen_rank_order_ten_below_unter(suit):
    values = [KR.parse(suit + r).order for r in "AKOUZ987"]
    assert values == sorted(values, reverse=True) and len(set(values)) == 8
    assert KR.parse(suit + "U").order > KR.parse(suit + "Z").order > KR.parse(suit + "9").order


def test_packs_sort_strongest_first():
    # sorting a hand by index shows it the way players sort it
    assert ZR.card_set("T1 TS SK T21 HG").names() == ["TS", "T21", "T1", "SK", "HG"]
    assert [c.name for c in ZR][:3] == ["TS", "T21", "T20"]


# --- unknown tokens ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("pack, token", [
    (ZR, "EO"), (ZR, "XYZ"), (ZR, "T2"), (ZR, "T23"), (ZR, "SA"), (ZR, "II"), (ZR, ""), (ZR, "S6"), (ZR, "♠Z"),
    (SK, "S6"), (SK, "TS"), (SK, "EN"), (SK, "E6"), (SK, "W"), (SK, "HG"),
    (KR, "E6"), (KR, "TS"), (KR, "EN"), (KR, "X"),
])
def test_unknown_tokens_raise_unknown_card_error(pack, token):
    with pytest.raises(UnknownCardError) as info:
        pack.parse(token)
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, StichError)
    assert repr(token) in str(info.value)
    assert pack.game in str(info.value)
    assert pack.lookup(token) is None


def test_unknown_card_error_is_a_value_error():
    assert issubclass(UnknownCardError, ValueError)
    with pytest.raises(ValueError):
        ZR.parse("nonsense")


def test_card_set_with_unknown_token_raises():
    with pytest.raises(UnknownCardError):
        ZR.card_set("TS EO")


# --- Card ---------------------------------------------------------------------------------------------------------


def test_card_str_repr_mask_and_immutability():
    card = ZR.parse("MOND")
    assert str(card) == "T21"
    assert repr(card) == "Card.of('Zwanzigerrufen', 'T21')"
    assert card.mask == 1 << card.index
    assert ZR[card.index] is card
    with pytest.raises(dataclasses.FrozenInstanceError):
        card.points = 7  # type: ignore[misc]
    assert isinstance(card, Card)


def test_bits():
    mask = ZR.card_set("TS T1 DG").mask
    assert [ZR[i].name for i in bits(mask)] == ["TS", "T1", "DG"]


def test_union_of_hands_is_the_deal_and_the_cards_left():
    """``Deal.cards`` and ``PlayState.cards_left`` are one union of the hands; the trick on the table is not in it."""
    from solver.position import make_position

    hands = [ZR.card_set(text).mask for text in ("TS T1", "T21 SK", "DG", "")]
    assert union(hands) == ZR.card_set("TS T1 T21 SK DG").mask and union([]) == 0
    position = make_position("Schafkopf", "1: EU EA / GU GK / EZ G7 / EK H9", "Wenz", play=["EU"])
    assert position.rules.deal.cards == SK.card_set("EU EA GU GK EZ G7 EK H9").mask
    assert position.state.cards_left == SK.card_set("EA GU GK EZ G7 EK H9").mask


# --- CardSet ------------------------------------------------------------------------------------------------------


def test_card_set_from_string_and_from_list():
    a = ZR.card_set("TS mond pagat SK")
    b = ZR.card_set(["SKÜS", "XXI", "I", "♠K"])
    assert a == b
    assert a.names() == ["TS", "T21", "T1", "SK"]
    assert len(a) == 4
    assert str(a) == "TS T21 T1 SK"
    assert repr(a) == "CardSet.of('Zwanzigerrufen', 'TS T21 T1 SK')"


def test_card_set_duplicates_collapse():
    assert len(ZR.card_set("TS SKUS T22")) == 1


def test_card_set_membership():
    hand = ZR.card_set("TS T21 SK HG")
    assert "TS" in hand
    assert "skus" in hand
    assert "SK" in hand
    assert "HA" in hand  # alias of HG
    assert "T1" not in hand
    assert "EO" not in hand  # not a card of this pack: simply not a member
    assert ZR.parse("T21") in hand
    assert ZR.parse("T20") not in hand
    assert 5 not in hand  # only cards and tokens are members


def test_card_set_operations():
    a = ZR.card_set("TS T21 SK")
    b = ZR.card_set("T21 T1 HG")
    assert (a | b).names() == ["TS", "T21", "T1", "SK", "HG"]
    assert (a & b).names() == ["T21"]
    assert (a - b).names() == ["TS", "SK"]
    assert (b - a).names() == ["T1", "HG"]
    # operations return new sets and leave the operands alone
    assert a.names() == ["TS", "T21", "SK"]


def test_card_set_truth_and_points():
    assert not ZR.card_set("")
    assert not ZR.card_set([])
    assert ZR.card_set("T4")
    assert ZR.card_set("TS T21 T1").points == 15
    assert ZR.card_set("SK SQ SN SJ SG").points == 14
    assert SK.card_set("EA EZ EK EO EU E9 E8 E7").points == 30
    assert KR.card_set("EA S6").points == 0


def test_card_set_iterates_cards_in_pack_order():
    hand = SK.card_set("S7 EO HA E7")
    cards = list(hand)
    assert all(isinstance(c, Card) for c in cards)
    assert [c.name for c in cards] == ["EO", "E7", "HA", "S7"]


def test_card_set_is_immutable():
    hand = ZR.card_set("TS")
    with pytest.raises(dataclasses.FrozenInstanceError):
        hand.mask = 0  # type: ignore[misc]
    assert isinstance(hand, CardSet)
    assert hand == ZR.card_set("SKUS")


def test_pack_names_and_points_of_a_mask():
    mask = ZR.card_set("T21 HK").mask
    assert ZR.names(mask) == ["T21", "HK"]
    assert ZR.points(mask) == 10
    assert ZR.names(0) == [] and ZR.points(0) == 0


def test_a_games_pack_unpickles_as_that_games_pack() -> None:
    """Packs compare by identity, so a Deal sent to another process (a pool of bots) must come back with the very
    pack of its game, or it equals nothing here and make_position refuses it."""
    import pickle

    import solver

    position = next(iter(solver.read_positions(Path(__file__).parent.parent / "examples" / "valat.tbn")))
    copy = pickle.loads(pickle.dumps(position))
    assert copy.game.pack is position.game.pack
    assert copy.rules.deal == position.rules.deal
    again = solver.make_position(copy.game, copy.rules.deal, str(copy.rules.contract),
                                 declarer=copy.rules.declarer + 1)
    assert solver.solve(again, "points").total == solver.solve(position, "points").total


def test_every_games_pack_is_read_back_through_the_registrys_one_loader() -> None:
    """The cards module keeps the registry's one loader, which every game's pack pickles as, not the loader of whichever
    game registered first, which is right only while every game registers the same one."""
    import pickle

    from solver.cards import CardSet, game_pack_named
    from solver.games import GAMES, game_pack

    for game in GAMES:
        assert game.pack.__reduce__() == (game_pack, (game.name,))
        assert pickle.loads(pickle.dumps(game.pack)) is game.pack is game_pack_named(game.name.upper())
        assert eval(repr(CardSet.of(game.name, game.pack.names(0b101))), {"CardSet": CardSet}).pack is game.pack


@pytest.mark.parametrize("example", ["zwanzigerrufen.tbn", "schafkopf.tbn", "kratzen.tbn"])
def test_a_hand_deal_and_pack_unpickle_in_a_fresh_process(example: str) -> None:
    """A spawned worker (the default on macOS and Windows) unpickles what it is sent before anything imported the games:
    a hand, a deal or a pack loads there all the same (a KeyError there would hang a spawn pool)."""
    import pickle
    import subprocess
    import sys

    import solver

    position = next(iter(solver.read_positions(Path(__file__).parent.parent / "examples" / example)))
    sent = pickle.dumps((position.hand(1), position.rules.deal, position.pack))
    read = "import pickle, sys; hand, deal, pack = pickle.loads(sys.stdin.buffer.read()); print(hand, len(pack))"
    done = subprocess.run([sys.executable, "-c", read], input=sent, capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout.decode().split() == [*(card.name for card in position.hand(1)), str(len(position.pack))]


@pytest.mark.parametrize("example", ["zwanzigerrufen.tbn", "schafkopf.tbn", "kratzen.tbn"])
def test_a_position_sent_to_another_process_equals_the_original(example: str) -> None:
    """Rules compare by value, so a pickled state or position comes back equal (and hashes alike), and two readings
    of the same record give equal positions; rules of another deal or contract stay unequal."""
    import pickle

    import solver

    path = Path(__file__).parent.parent / "examples" / example
    first, second = list(solver.read_positions(path))[:2]
    copy = pickle.loads(pickle.dumps(first))
    assert copy.state == first.state and hash(copy.state) == hash(first.state)
    assert copy == first
    assert next(iter(solver.read_positions(path))).state == first.state
    assert first.state.rules != second.state.rules
    seat = 1 if example == "kratzen.tbn" else None
    solver.solve(first, first.rules.objective_names()[0], seat=seat)  # the compiled tables are caches: not compared
    assert copy.state.rules == first.state.rules


def test_card_sets_are_sets_and_a_pack_is_read_by_token():
    """What Python's sets offer, a card set offers (^, <= and isdisjoint among them), and pack["T17"] reads a token as
    parse does, not a bare TypeError."""
    pack = Zwanzigerrufen.pack
    three, two = pack.card_set("T1 T4 T5"), pack.card_set("T1 T4")
    assert two <= three and two < three and three >= two and three > two and not three <= two
    assert not two >= three and not two > three and not three < two
    assert three ^ two == pack.card_set("T5") and three.isdisjoint(pack.card_set("T6"))
    assert not three.isdisjoint(two) and three <= three and not three < three
    assert three.isdisjoint(["T6", pack["T7"]]) and not three.isdisjoint("T5 T6")
    assert pack["t17"] is pack.parse("T17") and pack[pack.parse("T17").index] is pack["T17"]
    with pytest.raises(UnknownCardError):
        pack["T2"]
    with pytest.raises(UnknownCardError, match="does not combine"):
        three <= Schafkopf.pack.card_set("EO")


def test_a_pack_prints_its_cards_on_one_line_and_its_tokens_cannot_be_changed():
    """``repr(pack)`` prints its cards on one line, not the dataclass's every card and every alias (3 KB for
    Zwanzigerrufen), and ``pack.aliases["X"] = 0`` is refused: it would teach the game's one shared pack, every deal of
    it, a new token."""
    import pickle
    from copy import deepcopy

    pack = Kratzen.pack
    assert repr(pack) == ("<Pack Kratzen: 33 cards S6 EA EK EO EU EZ E9 E8 E7 GA GK GO GU GZ G9 G8 G7 HA HK HO HU HZ "
                          "H9 H8 H7 SA SK SO SU SZ S9 S8 S7>")
    for mapping in (pack.aliases, pack.sign_letters, pack.absent):
        with pytest.raises(TypeError):
            mapping["X"] = 0  # type: ignore[index]
    assert pack.parse("weli") == "S6" and pickle.loads(pickle.dumps(pack)) is pack and deepcopy(pack) is pack
    aliases = {"S6": 0, "EA": 1}
    own = Pack("mine", pack.cards[:2], aliases)
    aliases["EK"] = 1  # the caller's dict, changed afterwards, is not the pack's
    assert own.lookup("EK") is None and repr(pickle.loads(pickle.dumps(own))) == "<Pack mine: 2 cards S6 EA>"
    # still a dict to dataclasses.asdict of what holds a pack (a MappingProxyType could not be copied there)
    import dataclasses
    assert dataclasses.asdict(pack.card_set("S6 EA"))["pack"]["aliases"]["S6"] == 0


def test_a_card_s_repr_evaluates_back_in_a_fresh_interpreter_that_imported_only_the_cards():
    """``Card.of`` and ``CardSet.of`` find the game through the games' registry, which the cards module does not
    import (the games are built on it): the registry is loaded by name on first use."""
    import subprocess
    import sys

    code = ("from solver.cards import Card, CardSet; "
            "print(repr(Card.of('schafkopf', 'ga')), repr(CardSet.of('Kratzen', 'EA EK')))")
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert shown.split() == ["Card.of('Schafkopf',", "'GA')", "CardSet.of('Kratzen',", "'EA", "EK')"]
