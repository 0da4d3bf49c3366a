"""Records that break the rules are rejected with file, line, column, token and what was expected."""

from __future__ import annotations

import io
import re

import pytest

import solver
from solver.errors import ContractFormError, ParseError

GOOD = """[Game "Schafkopf"]
[Deal "1: EO GO HO SO EU GU HU HA / SU EA EZ EK E9 E8 E7 GA / GZ GK G9 G8 G7 HZ HK H9 / H8 H7 SA SZ SK S9 S8 S7"]
[Contract "Solo H"]
[Declarer "1"]
"""


def error_of(text: str) -> ParseError:
    with pytest.raises(ParseError) as info:
        solver.parse_positions(text, name="bad.tbn")
    return info.value


def test_a_good_record_reads():
    position = solver.parse_positions(GOOD)[0]
    assert position.game.name == "Schafkopf"
    assert position.rules.declaring_side == frozenset({0})


#: A record of each game with the contract a bad one replaces (examples/), and what that game expects.
CONTRACT_RECORDS = {"zwanzigerrufen.tbn": ("Normal [T20..T16] | Solo | SuitSolo"),
                    "schafkopf.tbn": ("Rufer E|G|S, Wenz, Solo E|G|H|S, WenzTout, SoloTout E|G|H|S, Sie"),
                    "kratzen.tbn": ("Trump E|G|H|S [Muss|SevenMuss]")}


def with_contract(name: str, contract: str) -> str:
    """The first record of the example ``name`` with its [Contract] tag's value ``contract``."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "examples" / name).read_text(encoding="utf-8")
    first = re.search(r"^\[Game .*?(?=\n\n|\Z)", text, re.S | re.M)
    assert first is not None
    return re.sub(r'\[Contract "[^"]*"\]', f'[Contract "{contract}"]', first.group(0), count=1)


@pytest.mark.parametrize("name", CONTRACT_RECORDS)
def test_a_bad_contract_is_said_once_with_what_was_expected(name):
    """'unknown Zwanzigerrufen contract 'Valat' (expected ...) (got 'Valat')' said the contract twice: a game's
    message that quotes the tag's value is not followed by the token again."""
    expected = CONTRACT_RECORDS[name]
    for contract, said in (("Valat", f"unknown {name[:-4].capitalize()} contract 'Valat' (expected {expected})"),
                           ("Trump X Y Z W", None)):
        error = error_of(with_contract(name, contract))
        assert error.token is None
        text = str(error).split(": ", 1)[1]
        assert text.count(repr(contract)) == 1 and text.endswith(f"(expected {expected})"), text
        assert said is None or text == said


@pytest.mark.parametrize("name, contract, said", [
    ("kratzen.tbn", "Trump Blau",
     "contract 'Trump Blau': 'Blau' is not a suit (E, G, H or S) (expected Trump E|G|H|S [Muss|SevenMuss])"),
    ("kratzen.tbn", "Trump H Seven Muss X", "contract 'Trump H Seven Muss X': expected Trump E|G|H|S [Muss|SevenMuss]"),
    ("zwanzigerrufen.tbn", "Normal T20 T19", "contract 'Normal T20 T19': expected Normal or Normal T20..T16"),
    ("schafkopf.tbn", "Herz Trump", "unknown Schafkopf contract 'Herz Trump' "
                                    "(expected Rufer E|G|S, Wenz, Solo E|G|H|S, WenzTout, SoloTout E|G|H|S, Sie)"),
    ("schafkopf.tbn", "Rufer H", "hearts cannot be called in a Rufer (got 'Rufer H', "
                                 "expected Rufer E|G|S, Wenz, Solo E|G|H|S, WenzTout, SoloTout E|G|H|S, Sie)"),
])
def test_the_contracts_form_is_added_to_a_refusal_not_saying_it(name, contract, said):
    """A refusal that says the form expected is a ContractFormError, and the tag's message does not add the form
    again; any other refusal of the contract is followed by the form."""
    assert str(error_of(with_contract(name, contract))).split(": ", 1)[1] == said
    with pytest.raises(ContractFormError):
        solver.get_game(name[:-4]).parse_contract("Bogus")


@pytest.mark.parametrize("name", CONTRACT_RECORDS)
def test_an_empty_contract_is_said_to_be_empty_not_shown_as_got_nothing(name):
    """[Contract ""] (or only spaces) is said as empty, with what each game expects (its contract help, as every
    other contract message says it), not followed by "(got '')"."""
    for contract in ("", "  "):
        error = error_of(with_contract(name, contract))
        assert error.token is None
        assert str(error).split(": ", 1)[1] == f"empty contract (expected {CONTRACT_RECORDS[name]})"


#: Each tag given empty in GOOD (added where GOOD lacks it), and what its error then says after the place.
EMPTY_TAGS = {"Game": "[Game] is empty (expected one of Zwanzigerrufen, Schafkopf, Kratzen)",
              "Deal": "[Deal] is empty (expected the cards of every hand)",
              "Seats": "[Seats] is empty (expected 4)",
              "Declarer": "[Declarer] is empty (expected a seat number from 1 to 4)",
              "Leader": "[Leader] is empty (expected a seat number from 1 to 4)",
              "Partner": "[Partner] is empty (expected a seat number from 1 to 4)",
              "CalledSuitLed": "[CalledSuitLed] is empty (expected yes or no)",
              "Play": "[Play] is empty (expected a seat number from 1 to 4)",
              "Announcements": "[Announcements] belongs to Zwanzigerrufen's scoring; Schafkopf has none "
                               "(expected no [Announcements] tag in a Schafkopf record)"}


@pytest.mark.parametrize("name", EMPTY_TAGS)
def test_an_empty_tag_is_said_to_be_empty_not_shown_as_got_nothing(name):
    """[Declarer ""] ended "(got '', expected a seat number from 1 to 4)": an empty tag (or only spaces) is said as
    empty, with what was expected, as an empty contract is."""
    for value in ("", "  "):
        tag = f'[{name} "{value}"]'
        text = re.sub(rf'\[{name} "[^"]*"\]', tag, GOOD) if f"[{name} " in GOOD else GOOD + tag + "\n"
        error = error_of(text)
        assert error.token is None
        assert str(error).split(": ", 1)[1] == EMPTY_TAGS[name]
        assert error.line == text.splitlines().index(tag) + 1


def test_an_empty_pot_is_said_to_be_empty():
    kratzen = '[Game "Kratzen"]\n[Deal "1: EO E9 / GA HA / EK G8"]\n[Contract "Trump S"]\n[Pot ""]\n'
    from solver.games.outcome import read_pot

    record = solver.parse_positions(kratzen, name="bad.tbn")[0].record
    with pytest.raises(ParseError) as info:
        read_pot(record, None)
    assert str(info.value) == "bad.tbn:4:7: [Pot] is empty (expected a whole number from 0 to 999,999,999)"


def test_duplicate_card_points_at_the_second_one():
    error = error_of(GOOD.replace("SK S9", "SK EO"))
    assert (error.source, error.line, error.token) == ("bad.tbn", 2, "EO")
    assert error.column == GOOD.splitlines()[1].index("SK S9") + 4
    assert "duplicate card EO" in str(error)


def test_foreign_card_is_named_with_what_was_expected():
    error = error_of(GOOD.replace("S7\"]", "T21\"]"))
    assert error.token == "T21" and error.line == 2
    assert "a Schafkopf card" in str(error)
    assert str(error).startswith("bad.tbn:2:")


def test_unequal_hands():
    error = error_of(GOOD.replace(" S7\"]", "\"]"))
    assert "unequal length" in str(error) and error.line == 2


def test_unknown_game_and_missing_deal():
    assert "unknown game" in str(error_of(GOOD.replace("Schafkopf", "Bridge")))
    error = error_of('[Game "Kratzen"]\n[Contract "Trump H"]\n')
    assert "no [Deal] tag" in str(error) and error.line == 1


def test_bad_contract_and_flag_point_at_their_tags():
    error = error_of(GOOD.replace("Solo H", "Solo X"))
    assert error.line == 3 and "not a suit" in str(error)
    error = error_of(GOOD + '[Variant "no_such_flag=1"]\n')
    assert error.line == 5 and "unknown variant flag" in str(error)
    error = error_of(GOOD + '[Variant "runaway_count_at=never"]\n')
    assert "lead | deal" in str(error)


def test_bid_checks_apply_to_whole_deals():
    # seat 1 holds no plain heart: a hearts Solo cannot be bid
    text = GOOD.replace("Solo H", "Solo E")
    assert "plain E card" in str(error_of(text))


def test_illegal_card_in_the_play_section_names_the_legal_ones():
    error = error_of(GOOD + '[Play "1"]\nEO EA\n')  # a trump led: seat 2 must follow with its only trump, SU
    assert (error.line, error.column, error.token) == (6, 4, "EA")
    assert "seat 2 may not play" in str(error) and "one of SU" in str(error)


def test_card_not_in_hand_and_wrong_leader():
    error = error_of(GOOD + '[Play "1"]\nEA\n')
    assert "does not hold" in str(error) and (error.line, error.column, error.token) == (6, 1, "EA")
    error = error_of(GOOD + '[Play "2"]\nEA\n')
    assert "led by seat 1" in str(error) and error.token == "2"


def test_short_trick_line_only_at_the_end():
    error = error_of(GOOD + '[Play "1"]\nEO SU H9\nSO E9 G9 H8\n*\n')
    assert "4 cards" in str(error) and error.line == 6


def test_a_valid_play_section_reaches_the_position():
    position = solver.parse_positions(GOOD + '[Play "1"]\nEO SU H9 H8\nGO\n*\n')[0]
    assert position.state.trick == (position.pack.parse("GO").index,)
    assert position.state.points[0] == 3 + 2 + 0 + 0
    assert position.state.tricks == (1, 0, 0, 0)


def test_iter_positions_reports_a_bad_record_and_goes_on():
    text = GOOD + "\n" + GOOD.replace("Solo H", "Solo X") + "\n" + GOOD
    items = list(solver.iter_positions(__import__("io").StringIO(text), name="batch.tbn"))
    assert [type(i).__name__ for i in items] == ["Position", "ParseError", "Position"]
    assert items[1].line == 8


def test_ending_needs_called_card_and_partner_when_absent():
    text = ('[Game "Zwanzigerrufen"]\n[Deal "TS SK / T21 SQ / T20 SN / T4 SJ"]\n[Contract "Normal"]\n')
    assert "must name its called card" in str(error_of(text))
    text = text.replace("Normal", "Normal T19")
    assert "Partner" in str(error_of(text))
    position = solver.parse_positions(text + '[Partner "3"]\n')[0]
    assert position.rules.declaring_side == frozenset({0, 2})


# Seats, hands, state tags and contracts that point at the token at fault --------------------------------------------

RUFER = GOOD.replace('[Contract "Solo H"]', '[Contract "Rufer G"]').replace('[Declarer "1"]', '[Declarer "3"]')


def test_first_seat_may_be_glued_to_the_first_card():
    """PBN writes "N:card"; "1:EO" reads as "1: EO", here and in make_position alike."""
    glued = solver.parse_positions(GOOD.replace('"1: EO', '"2:EO'))[0]
    spaced = solver.parse_positions(GOOD.replace('"1: EO', '"2: EO'))[0]
    assert glued.rules.deal == spaced.rules.deal
    assert glued.rules.deal.hands[1] >> glued.rules.pack.lookup("EO") & 1
    error = error_of(GOOD.replace('"1: EO', '"7:EO'))
    assert (error.line, error.column, error.token) == (2, 8, "7:") and "expected 1..4" in str(error)


def test_unequal_hands_point_at_the_odd_hand():
    error = error_of(GOOD.replace(" HZ HK H9 /", " HZ HK /"))
    line = GOOD.splitlines()[1]
    assert (error.line, error.token) == (2, "GZ") and error.column == line.index("GZ") + 1
    assert "seat 3 has 7" in str(error) and "expected 8 cards in every hand" in str(error)


def test_seats_tag_is_read_as_a_number():
    assert solver.parse_positions(GOOD + '[Seats "04"]\n')[0].rules.seats == 4
    assert "disagrees with the deal's 4 hands" in str(error_of(GOOD + '[Seats "3"]\n'))
    # a word is not a count, so it cannot disagree with the hands: the message says it is no number
    error = error_of(GOOD + '[Seats "vier"]\n')
    assert "[Seats] is not a number of players for the deal's 4 hands" in str(error) and error.token == "vier"


def test_called_suit_led_is_for_endings_only():
    """On a whole deal the Play section says whether the called suit was led; the tag would change the rules."""
    error = error_of(RUFER + '[CalledSuitLed "yes"]\n')
    assert (error.line, error.token) == (5, "yes")
    assert "[CalledSuitLed] is for endings" in str(error) and "expected no [CalledSuitLed] tag here" in str(error)


@pytest.mark.parametrize("extra, line, token, words", [
    ('[Partner "4"]\n', 5, "4", "the partner is the holder of GA, seat 2 (got '4', expected the called card's holder)"),
    ('[Announcements "1: Pagat"]\n', 5, "1: Pagat", "[Announcements] belongs to Zwanzigerrufen's scoring"),
])
def test_state_tag_errors_point_at_their_tag(extra, line, token, words):
    error = error_of(RUFER + extra)
    assert (error.line, error.token) == (line, token) and words in str(error)


def test_contract_refusals_say_what_was_expected():
    error = error_of(GOOD.replace('[Contract "Solo H"]', '[Contract "Rufer E"]').replace('"1"]', '"2"]'))
    assert error.token == "Rufer E" and "expected a contract seat 2 can play with these hands" in str(error)


@pytest.mark.parametrize("tag", ['[Announcements "2: Kontra"]', '[Pot "12"]'])
def test_scoring_tags_of_another_game_are_refused(tag):
    """A Schafkopf record has no announcements and no pot: solving ignored such a tag and scoring refused it."""
    error = error_of(GOOD + tag + "\n")
    assert error.line == 5 and "Schafkopf has none" in str(error) and "expected no [" in str(error)


def test_a_wrong_partner_names_the_called_aces_real_holder_even_seat_one():
    # the partner's seat is 1-based: seat 1 (index 0) holding the ace is "seat 1", never "seat 0"
    text = ('[Game "Schafkopf"]\n[Deal "1: EA HK / EZ HZ / E9 H8 / SA H7"]\n[Contract "Rufer E"]\n[Declarer "2"]\n'
            '[Partner "3"]\n')
    with pytest.raises(ParseError, match="the partner is the holder of EA, seat 1"):
        solver.parse_positions(text)
    caller = text.replace('[Declarer "2"]\n[Partner "3"]\n', '[Partner "2"]\n')
    with pytest.raises(ParseError, match="the caller holds the called ace EA"):
        solver.parse_positions(caller)


def test_a_misspelt_required_tag_is_named_with_the_tag_it_was_meant_to_be():
    """[Gmae "Schafkopf"] is pointed at, and the name it was meant to be is said, not only 'the record has no [Game]
    tag' at the record's first line."""
    error = error_of(GOOD.replace("[Game ", "[Gmae "))
    assert (error.line, error.column, error.token) == (1, 1, "Gmae")
    assert "the record has no [Game] tag; [Gmae] on line 1; did you mean 'Game'?" in str(error)
    far = error_of(GOOD.replace('[Game "Schafkopf"]', '[Note "Schafkopf"]'))  # nothing like it: said as before
    assert str(far).startswith("bad.tbn:1:1: the record has no [Game] tag (expected")
    # a tag of its own ([Dealer], FORMAT.md's) is no misspelt [Deal]: the closest other one is named
    dealer = GOOD.replace("[Deal ", '[Dealer "4"]\n[Deals ')
    assert "; [Deals] on line 3; did you mean 'Deal'?" in str(error_of(dealer))
    alone = error_of(GOOD.replace("[Deal ", '[Dealer "4"]\n[Note '))
    assert "the record has no [Deal] tag (expected" in str(alone) and "Dealer" not in str(alone)


def test_a_bridge_pbn_record_is_named_as_one_where_its_game_tag_is_missing():
    """A bridge PBN file (a first try with a file another program wrote) is not told only that it has no [Game] tag, as
    if one line were missing: its [Deal "N:AKQ.J9..."] is said to be a bridge deal, at the deal, so the user knows the
    file is of another game, not a record short of a tag. A record of stich's own without [Game] is said to lack the
    tag."""
    bridge = ('[Event "club night"]\n[Board "1"]\n[Dealer "N"]\n'
              '[Deal "N:AKQ.AKQ.AKQ.AKQJ 2345.2345.2345.2 6789.6789.6789.3 JT.JT.JT.T9876"]\n[Contract "4S"]\n')
    error = error_of(bridge)
    assert (error.line, error.column) == (4, 8)
    assert str(error) == ("bad.tbn:4:8: the record has no [Game] tag, and its deal is a bridge deal (PBN: hands by "
                          "suit, separated by dots), a game stich does not play "
                          "(got 'N:AKQ.AKQ.AKQ.AKQJ 2345.2345.2345.2 6789...', expected a [Game \"...\"] tag naming "
                          "one of stich's games (`stich deal --help` names them) and a deal of that game's cards)")
    lower = error_of(bridge.replace("N:AKQ", "w:AKQ").replace(" 2345.", "  2345."))
    assert "is a bridge deal (PBN" in str(lower)
    own = error_of(GOOD.replace('[Game "Schafkopf"]\n', ""))
    assert str(own).startswith("bad.tbn:1:1: the record has no [Game] tag (expected") and "bridge" not in str(own)


#: A bridge PBN file as scoring programs export it: its header comments, an [Auction] section and a [Play] section,
#: then a board whose deal gives one hand and ``-`` for the others.
BRIDGE_PBN = """% PBN 2.1
% EXPORT
[Event "Club pairs"]
[Site "Vienna"]
[Board "1"]
[West "Huber"]
[North "Gruber"]
[East "Bauer"]
[South "Wagner"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "N:AKQ.AKQ.AKQ.AKQJ 2345.2345.2345.2 6789.6789.6789.3 JT.JT.JT.T9876"]
[Declarer "N"]
[Contract "7NT"]
[Result "13"]
[Auction "N"]
2C Pass 2D Pass
7NT Pass Pass Pass
[Play "E"]
S2 SJ SA S6
H6 HJ HA H2
*

[Board "2"]
[Dealer "E"]
[Deal "E:- AKQ.AKQ.AKQ.AKQJ - -"]
[Contract "3NT"]
"""


def test_a_real_bridge_pbn_file_is_named_as_one_at_each_record():
    """A bridge PBN file gets the bridge message at each record, at its [Deal] tag's value: a record with an [Auction]
    section too, not stopped first at its bids (``Play section without a [Play] tag (got '2C')``), and a deal with ``-``
    for hands not given, not told only "no [Game] tag"."""
    errors = list(solver.iter_positions(io.StringIO(BRIDGE_PBN), name="club.pbn"))
    assert all(isinstance(error, ParseError) for error in errors), errors
    said = "the record has no [Game] tag, and its deal is a bridge deal (PBN: hands by suit, separated by dots)"
    assert [(error.line, error.column) for error in errors] == [(12, 8), (26, 8)]
    assert all(str(error).startswith(f"club.pbn:{error.line}:8: {said}") for error in errors), errors
    assert "(got 'E:- AKQ.AKQ.AKQ.AKQJ - -', expected a [Game" in str(errors[1])
    # a record of stich's own with an extra section before its [Play] tag is said as before
    stray = error_of(GOOD + '[Note "x"]\nEO EK\n')
    assert str(stray).startswith("bad.tbn:") and "Play section without a [Play] tag" in str(stray)


def test_a_long_name_is_quoted_cut_short_and_the_message_keeps_its_end():
    """A 9,000-character game or contract is cut to 60 characters and its length said, so that the message keeps what
    follows the name (the known games, the contracts expected) rather than losing it to a cut at 300 characters."""
    game = str(error_of(GOOD.replace("Schafkopf", "q" * 9000)))
    assert f"unknown game '{'q' * 60}...' (9,000 characters) (known games: Zwanzigerrufen, Schafkopf, Kratzen)" in game
    contract = str(error_of(GOOD.replace("Solo H", "Solo " + "q" * 9000)))
    assert f"contract 'Solo {'q' * 55}...' (9,005 characters): '{'q' * 60}...' (9,000 characters) is not a suit" in \
        contract
    assert len(game) < 400 and len(contract) < 400
    short = str(error_of(GOOD.replace("Solo H", "Solo Q")))
    assert "contract 'Solo Q': 'Q' is not a suit" in short  # a short one is quoted whole, as before


def test_an_endings_play_led_by_another_seat_than_its_leader_says_why():
    """An ending's first trick is led as its [Leader] tag says (FORMAT.md: seat 1 without one), not as the rules lead
    a whole deal: the error names that leader and where it comes from, not the variant flags, which do not set it."""
    ending = '[Game "Zwanzigerrufen"]\n[Deal "1: T1 SK / T20 SQ / T21 HK / T15 DK"]\n[Contract "Normal T20"]\n'
    untagged = error_of(ending + '[Play "3"]\nT21\n')
    assert str(untagged) == ("bad.tbn:4:8: the first trick is led by seat 1 in an ending without a [Leader] tag "
                             "(got '3', expected 1)")
    tagged = error_of(ending + '[Leader "3"]\n[Play "1"]\nT1\n')
    assert str(tagged) == "bad.tbn:5:8: the first trick is led by seat 3 as [Leader] says (got '1', expected 3)"


def test_a_misspelt_optional_tag_is_refused_with_the_tag_it_was_meant_to_be():
    """A tag stich does not read that is a near spelling of an optional tag the record lacks and would read is an
    error: kept as an unknown tag, [Declaerer "2"] would leave the Solo to seat 1 without a word."""
    text = GOOD.replace('[Declarer "1"]', '[Declaerer "2"]')
    error = error_of(text)
    assert (error.line, error.column, error.token) == (4, 1, "Declaerer")
    assert str(error) == ("bad.tbn:4:1: [Declaerer] is no tag stich reads; did you mean 'Declarer'? (got 'Declaerer', "
                          "expected [Declarer \"2\"] if that is what it means; another program's tag can be renamed)")
    called = GOOD.replace("Solo H", "Sauspiel E")
    assert "did you mean 'Partner'?" in str(error_of(called + '[Partners "2"]\n'))
    ending = ('[Game "Schafkopf"]\n[Deal "1: EO GO / SU EA / GZ GK / H8 H7"]\n[Contract "Sauspiel E"]\n'
              '[Partner "2"]\n[CalledSuit "yes"]\n')
    assert "did you mean 'CalledSuitLed'?" in str(error_of(ending))


def test_a_tag_near_one_that_would_not_be_read_is_kept():
    """Only tags this record would read are named: other programs' tags, a near spelling of a tag the record has,
    and near spellings of tags refused here (a whole deal's leader, a Solo's partner, a pot Schafkopf has not,
    [Seats], which only cross-checks) are kept as unknown tags."""
    for tag in ('[Lead "HK"]', '[Variation "x"]', '[Auction "N"]', '[Declarers "1"]', '[Leaders "2"]',
                '[Partners "2"]', '[CalledSuit "yes"]', '[Plot "x"]', '[Post "x"]', '[Seat "1"]'):
        assert solver.parse_positions(GOOD + tag + "\n")[0].record.get(tag[1:].split()[0]) is not None


KRATZEN = ('[Game "Kratzen"]\n[Seats "3"]\n[Deal "1: EO E9 SU SZ / GA HA HU S7 / EK G8 HO SK"]\n'
           '[Contract "Trump S"]\n[Declarer "1"]\n')


def test_a_near_tag_whose_value_the_meant_tag_could_not_have_is_kept():
    """A user's own tag near one stich reads ([Plot "x"] near Kratzen's [Pot]) is no misspelling where its value
    could not be the near tag's: it is kept. The same name with a value the near tag reads, or a name with two
    letters swapped whatever its value, is refused."""
    for name in ("Plot", "Post", "Port"):
        assert solver.parse_positions(KRATZEN + f'[{name} "x"]\n')[0].record.get(name) == "x"
        assert str(error_of(KRATZEN + f'[{name} "5"]\n')) == (
            f"bad.tbn:6:1: [{name}] is no tag stich reads; did you mean 'Pot'? (got '{name}', expected [Pot \"5\"] "
            "if that is what it means; another program's tag can be renamed)")
    called = '[Game "Schafkopf"]\n[Deal "1: EO GO / SU EA / GZ GK / H8 H7"]\n[Contract "Sauspiel E"]\n'  # an ending
    for tag in ('[Declarers "Anna"]', '[Partners "Anna and Ben"]', '[Leaders "x"]', '[Variants "classic"]',
                '[Leaders "12"]', '[Declarers "0"]', '[Partners "5"]'):  # no seat of a 4-seat game
        assert solver.parse_positions(called + tag + "\n")[0].record.get(tag[1:].split()[0]) is not None
    assert "did you mean 'Declarer'?" in str(error_of(GOOD.replace('[Declarer "1"]', '[Delcarer "Anna"]')))
    assert "did you mean 'Leader'?" in str(error_of(called + '[Leaders "4"]\n'))
    assert "did you mean 'CalledSuitLed'?" in str(error_of(called + '[CalledSuitLeds " True "]\n'))
    assert solver.parse_positions(called + '[CalledSuitLeds "maybe"]\n')[0].record.get("CalledSuitLeds") == "maybe"
    assert "did you mean 'Variant'?" in str(error_of(GOOD + '[Varaint "x"]\n'))
    assert "did you mean 'Variant'?" in str(error_of(GOOD + '[Variants "schneider_at=31"]\n'))


def test_a_misspelt_announcements_tag_is_refused_even_with_a_misspelt_value():
    """A tag near [Announcements] whose value starts as announcements do (a seat and a colon) is refused even where
    a word of it is misspelt too, and a name cut short ([Announce]) is refused whatever its value: kept, either
    would score the deal without its Kontra."""
    zwanzigerrufen = ('[Game "Zwanzigerrufen"]\n[Deal "1: T21 SK / T20 SQ / T19 HK / T15 DK"]\n'
                      '[Contract "Normal T19"]\n[Declarer "1"]\n')
    for tag, value in (("Announcement", "2: Contra"), ("Announce", "2: Contra"), ("Announce", "2: Kontra"),
                       ("Announce", "x")):
        assert str(error_of(zwanzigerrufen + f'[{tag} "{value}"]\n')) == (
            f"bad.tbn:5:1: [{tag}] is no tag stich reads; did you mean 'Announcements'? (got '{tag}', expected "
            f"[Announcements \"{value}\"] if that is what it means; another program's tag can be renamed)")
    assert "did you mean 'Declarer'?" in str(error_of(GOOD.replace('[Declarer "1"]', '[Declare "1"]')))
    assert solver.parse_positions(zwanzigerrufen + '[Annou "x"]\n')[0].record.get("Annou") == "x"  # too short


def test_a_name_cut_where_a_word_of_the_meant_tag_ends_is_kept_unless_its_value_reads_as_that_tag(tmp_path):
    """[Called "GA"], another program's tag in a Rufer ending, is [CalledSuitLed] cut where "Called" ends: it could
    as well be that program's word, so it is kept and the ending solves; with a yes or no it is refused."""
    from typer.testing import CliRunner

    from solver.cli.main import app

    ending = ('[Game "Schafkopf"]\n[Deal "1: EO S7 / GA SZ / HO S9 / SU SK"]\n[Contract "Rufer G"]\n[Declarer "1"]\n'
              '[Leader "1"]\n')
    position = solver.parse_positions(ending + '[Called "GA"]\n')[0]
    assert position.record.get("Called") == "GA"
    assert solver.parse_positions(ending)[0].state == position.state  # the called suit is still unled
    (tmp_path / "called.tbn").write_text(ending + '[Called "GA"]\n', encoding="utf-8")
    result = CliRunner().invoke(app, ["solve", str(tmp_path / "called.tbn")])
    assert result.exit_code == 0, result.output
    assert str(error_of(ending + '[Called "yes"]\n')) == (
        "bad.tbn:6:1: [Called] is no tag stich reads; did you mean 'CalledSuitLed'? (got 'Called', expected "
        "[CalledSuitLed \"yes\"] if that is what it means; another program's tag can be renamed)")


def test_a_card_written_twice_or_left_out_names_the_card_no_hand_holds():
    assert "duplicate card EO (also in seat 1); no hand holds S9 (got" in str(error_of(GOOD.replace("SK S9",
                                                                                                     "SK EO")))
    short = error_of(GOOD.replace(" S7\"]", "\"]"))
    assert "seat 4 has 7; no hand holds S7 (got" in str(short)
    ending = '[Game "Schafkopf"]\n[Deal "1: EO GO / SU EA / GZ GK / H8"]\n[Contract "Solo H"]\n'
    assert "no hand holds" not in str(error_of(ending))  # an ending's other cards were played: none is missing


def test_a_card_the_seat_does_not_hold_is_said_where_it_is():
    played = error_of(GOOD + '[Play "1"]\nEO SU H9 H8\nEO\n')
    assert (played.line, played.token) == (7, "EO")
    assert "seat 1 does not hold this card: played already, by seat 1 on line 6; seat 1 led" in str(played)
    by_another = error_of(GOOD + '[Play "1"]\nEO SU H9 H8\nH8\n')  # the trick's last card, read again as seat 1's
    assert "seat 1 does not hold this card: played already, by seat 4 on line 6" in str(by_another)
    elsewhere = error_of(GOOD + '[Play "1"]\nEA\n')
    assert "seat 1 does not hold this card: seat 2 holds it; seat 1 led" in str(elsewhere)


def test_a_play_section_cut_from_its_tags_by_a_blank_line_is_said_so():
    """PGN puts a blank line between the tags and the moves; here a blank line ends a record, so the Play section is a
    record of its own, without a [Game] tag: the message says the likely cause, not only the missing tag."""
    cut = error_of(GOOD + '\n[Play "1"]\nEO SU H9 H8\n')
    assert (cut.line, cut.column) == (6, 1)
    assert str(cut) == ('bad.tbn:6:1: the record has no [Game] tag (a blank line ends a record: one between the tags '
                        'above and this [Play] section?) (expected a [Game "..."] tag)')
    alone = error_of('[Event "x"]\n[Deal "1: EO GO / SU EA / GZ GK / H8 H7"]\n')  # no Play section: no such hint
    assert str(alone) == 'bad.tbn:1:1: the record has no [Game] tag (expected a [Game "..."] tag)'


@pytest.mark.parametrize("text", ['[Play "1"]\nEZ EA E9 E8\n*\n', '[Board "1"]\n[Play "1"]\nEZ EA E9 E8\n*\n',
                                  GOOD + '\n[Board "2"]\n[Play "1"]\nEO SU H9 H8\n'])
def test_a_play_section_with_no_record_above_it_gets_no_blank_line_hint(text):
    """Only a record that starts with its [Play] tag after another record can have been cut from its tags by a blank
    line: the file's first record, or one with a tag before [Play], has no tags above to be cut from."""
    cut = error_of(text)
    assert str(cut).endswith('the record has no [Game] tag (expected a [Game "..."] tag)')
    assert "blank line" not in str(cut)


#: A whole Kratzen deal of three hands: 12 of the pack's 33 cards are dealt, the rest stay out of play.
THREE_KRATZEN = ('[Game "Kratzen"]\n[Seats "3"]\n[Deal "1: EA EK GA GK / E9 E8 G9 G8 / HA HK H9 H8"]\n'
                 '[Contract "Trump S"]\n')


def test_a_kratzen_card_nobody_was_dealt_is_said_not_dealt():
    """A whole Kratzen deal leaves most of the pack undealt: a card in no hand and no trick was never dealt, not
    played before an ending's start; an ending of a game that deals part of its pack may be either."""
    undealt = error_of(THREE_KRATZEN + '[Play "1"]\nEA E7\n')
    assert (undealt.line, undealt.token) == (6, "E7")
    assert "seat 2 does not hold this card: not dealt; seat 1 led" in str(undealt)
    with pytest.raises(solver.StichError, match=r"^seat 2 does not hold SU: not dealt \(legal: E9 E8\)$"):
        solver.parse_positions(THREE_KRATZEN)[0].play("EA").play("SU")
    ending = solver.parse_positions('[Game "Kratzen"]\n[Deal "1: EA EK / GA GK / HA HK"]\n[Contract "Trump S"]\n')[0]
    with pytest.raises(solver.StichError, match=r"^seat 1 does not hold EZ: played before this ending's start, or not "
                                                r"dealt \(legal: EA EK\)$"):
        ending.play("EZ")


def test_a_hand_grouped_by_suit_or_a_numbered_trick_is_said_as_what_it_is():
    """A hand copied from the diagram (``T 21 17 ♠ K Q``) and a trick's number ``1.`` in the Play section are said as
    what the user wrote, not with the closest cards' names (TS, T1), which would mislead."""
    grouped = error_of(GOOD.replace('"1: EO GO', '"1: E O GO'))
    assert (grouped.token, grouped.column) == ("E", 11)
    assert str(grouped) == ("bad.tbn:2:11: seat 1: not a card of the Schafkopf pack; a suit alone: each card is "
                            "written whole, suit and rank together (E9 SA), not grouped by suit as the hand diagram "
                            "prints them (got 'E', expected a Schafkopf card)")
    zwanzigerrufen = ('[Game "zr"]\n[Deal "1: ♠ K / T1 SQ / T4 SN / T5 SJ"]\n[Contract "Normal T19"]\n')
    assert "; a suit alone: each card is written whole" in str(error_of(zwanzigerrufen))
    numbered = error_of(GOOD + '[Play "1"]\n1. EO SU H9 H8\n')
    assert numbered.token == "1." and "did you mean" not in str(numbered)
    assert ("not a card of the Schafkopf pack; a trick's number? A line of the Play section holds the trick's cards "
            "alone, in playing order (got '1.'") in str(numbered)
    number_alone = error_of(zwanzigerrufen.replace("♠ K", "21 SK"))  # a number alone: a card misspelt
    assert "did you mean 'T21' or 'T1'?" in str(number_alone)


def test_a_seat_number_inside_the_deal_is_said_as_one_and_no_trick_number_outside_the_play_section():
    """``N:`` stands only before a Deal's first hand; a trick's number is a Play section's mistake only, not the
    Deal's or a card played through the API."""
    inside = error_of(GOOD.replace("/ SU EA", "/ 2: SU EA"))
    assert inside.token == "2:"
    assert "a seat number N: stands only before the first hand" in str(inside) and "trick" not in str(inside)
    with pytest.raises(solver.StichError) as info:
        solver.parse_positions(GOOD)[0].play("1.")
    assert str(info.value) == "'1.' is not a card of the Schafkopf pack"
