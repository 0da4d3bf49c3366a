"""Fuzzing the reader and the position layer: hostile files end in success or a located ParseError, nothing else.

Every property feeds one input to one entry point and accepts exactly two outcomes: records (positions), or a
:class:`~solver.errors.ParseError` that names the input and a line and column inside it (``assert_located``). Any
other exception, a StichError without a place, or a place outside the input fails the property.
"""

from __future__ import annotations

import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fuzz_inputs import (fuzz_report,  # noqa: F401 (the module's report fixture)
                         assert_located, edited_values, encoded, file_bytes, fuzz_settings, mutated_text, outcomes,
                         random_text)
from solver.api import iter_positions, parse_positions, read_positions
from solver.errors import ParseError, StichError
from solver.formats.tbn import format_record, iter_records, parse_records, read_records

SOURCE = "fuzz.tbn"
pytestmark = pytest.mark.usefixtures("fuzz_report")


def _read_all(data: bytes | str) -> list:
    """Read every record of ``data`` with the streaming reader (bytes: a binary stream, str: a text stream)."""
    stream = io.BytesIO(data) if isinstance(data, bytes) else io.StringIO(data, newline="\n")
    return list(read_records(stream, name=SOURCE))


def _check_reader(name: str, data: bytes | str) -> None:
    seen = outcomes(name)
    seen.inputs += 1
    try:
        records = _read_all(data)
    except ParseError as error:
        assert_located(error, SOURCE, data)
        seen.error(error)
        return
    seen.successes += 1
    for record in records:
        assert record.source == SOURCE and record.tags


def _check_positions(name: str, data: bytes | str) -> None:
    """``read_positions`` stops at the first error; ``iter_positions`` reports each bad record and goes on. Both
    must keep the contract, and they must agree on the first error."""
    seen = outcomes(name)
    seen.inputs += 1
    stream = io.BytesIO(data) if isinstance(data, bytes) else io.StringIO(data, newline="\n")
    first_error = None
    try:
        positions = list(read_positions(stream, name=SOURCE))
    except StichError as error:
        assert_located(error, SOURCE, data)
        seen.error(error)
        first_error = error
    else:
        seen.successes += 1
        assert all(position.record is not None for position in positions)
    stream = io.BytesIO(data) if isinstance(data, bytes) else io.StringIO(data, newline="\n")
    items = list(iter_positions(stream, name=SOURCE))
    errors = [item for item in items if isinstance(item, StichError)]
    for error in errors:
        assert_located(error, SOURCE, data)
    assert (first_error is None) == (not errors)
    if first_error is not None:
        assert str(errors[0]) == str(first_error)


@fuzz_settings(300, share=0.2)
@given(mutated_text())
def test_reader_on_mutated_records(text):
    """Cut, edited, mixed-up and Unicode-mangled example records, as a text stream."""
    _check_reader("reader: mutated records (text)", text)


@fuzz_settings(300, share=0.2)
@given(file_bytes())
def test_reader_on_hostile_bytes(data):
    """Mutated records and random text in every encoding a file turns up in, and raw random bytes."""
    _check_reader("reader: hostile bytes", data)


@fuzz_settings(200, share=0.1)
@given(random_text)
def test_reader_on_random_text(text):
    """Random text, weighted towards the format's own characters; also through ``parse_records``."""
    _check_reader("reader: random text", text)
    try:
        parse_records(text, name=SOURCE)
    except ParseError as error:
        assert_located(error, SOURCE, text)


@fuzz_settings(30, share=0.01)
@given(mutated_text(big=True).flatmap(encoded))
def test_reader_on_huge_and_deep_inputs(data):
    """Lines of up to 250,000 characters, braces nested 250,000 deep, a 1,500-tag record, long tag values."""
    _check_reader("reader: huge and deep", data)


@fuzz_settings(250, share=0.15)
@given(mutated_text())
def test_positions_from_mutated_records(text):
    """The game layer's errors (a foreign card in [Deal], a bad seat, an illegal card) are located too."""
    _check_positions("api: mutated records (text)", text)


@fuzz_settings(300, share=0.15)
@given(edited_values())
def test_positions_from_edited_tag_values(text):
    """Valid records with a tag value replaced or made huge: seats in superscript digits or 5,000 digits long,
    a [Deal] of thousands of words, foreign cards and contracts."""
    _check_positions("api: edited tag values", text)


@fuzz_settings(150, share=0.1)
@given(file_bytes())
def test_positions_from_hostile_bytes(data):
    _check_positions("api: hostile bytes", data)


@fuzz_settings(100, share=0.05)
@given(mutated_text())
def test_parse_positions_and_recovery_agree(text):
    """``parse_positions`` keeps the contract; ``iter_records`` after an error still yields located errors or
    records, and every record it yields formats to text that reads back to the same tags."""
    seen = outcomes("api: parse_positions and recovery")
    seen.inputs += 1
    try:
        parse_positions(text, name=SOURCE)
        seen.successes += 1
    except StichError as error:
        assert_located(error, SOURCE, text)
        seen.error(error)
    for item in iter_records(io.StringIO(text, newline="\n"), name=SOURCE):
        if isinstance(item, ParseError):
            assert_located(item, SOURCE, text)
            continue
        try:
            written = format_record(item)
        except ValueError:
            continue  # documented: a record that cannot be written so that it reads back the same
        (again,) = parse_records(written)
        assert [(t.name, t.value) for t in again.tags] == [(t.name, t.value) for t in item.tags]


@fuzz_settings(60, share=0.01)
@given(st.binary(min_size=1, max_size=64), st.sampled_from(["utf-16", "utf-16-le", "utf-16-be", "latin-1"]))
def test_wrong_encodings_of_a_valid_file(prefix, encoding):
    """A whole example file in a wrong encoding is rejected at a place, never read as garbage records."""
    from fuzz_inputs import EXAMPLE_TEXTS

    text = "% K\u00f6nige\n" + EXAMPLE_TEXTS["zwanzigerrufen.tbn"]
    data = text.encode(encoding)
    try:
        _read_all(data)
    except ParseError as error:
        assert_located(error, SOURCE, data)
        assert error.line == 1 and ("UTF-8" in error.message or "NUL" in error.message)
    else:
        raise AssertionError(f"{encoding} read as UTF-8")
    _check_reader("reader: wrong encodings", prefix + data)


#: Deals of the three games with the cards each Play section below starts with, in playing order.
_PLAYED_DEALS = [
    ('[Game "Zwanzigerrufen"]\n[Deal "4: T19 T14 T1 SK SN HQ HN HJ DJ DG / TS T20 T18 T16 T13 T12 T11 T5 SQ DN / '
     'T21 T17 T9 T8 T4 SG CQ CN HK DQ / T15 T10 T7 T6 SJ CK CJ CG HG DK"]\n[Contract "Normal"]\n[Result "r"]\n',
     "T16 T21 T15 T19 T17 T10 T14", 4),
    ('[Game "Schafkopf"]\n[Deal "1: EZ EK EU GZ GK HA H8 H7 / EA G8 G7 H9 SZ SO SU S7 / '
     'EO E9 GA GO GU G9 HK SK / E8 E7 HZ HO HU SA S9 S8"]\n[Contract "Rufer E"]\n', "EK EA E9 E8 G8 G9", 4),
    ('[Game "Kratzen"]\n[Seats "3"]\n[Deal "2: GA GK G9 HZ / EU G7 H9 SU / S6 EK H8 S8"]\n[Contract "Trump S"]\n'
     '[Declarer "2"]\n', "GA G7 S6 EK", 3),
]


@st.composite
def _annotated_play(draw):
    """A record whose Play section has comments where a person writes them: '{...}' between cards, '; ...' at a
    line's end, comment lines between lines; and a number of further cards to play."""
    head, cards, seats = draw(st.sampled_from(_PLAYED_DEALS))
    cards = cards.split()[: draw(st.integers(0, len(cards.split())))]
    lines = [cards[i:i + seats] for i in range(0, len(cards), seats)]
    text = [head + ('[Play "2"]' if "Declarer" in head else '[Play "1"]')]  # the Kratzen attacker, seat 2, leads
    for number, line in enumerate(lines):
        if draw(st.booleans()):
            text.append(f"% before line {number}")
        words = []
        for card in line:
            words.append(card)
            if draw(st.integers(0, 3)) == 0:
                words.append(f"{{after {card}}}")
        if draw(st.booleans()):
            words.append(f"; end of line {number}")
        text.append(" ".join(words))
    if draw(st.booleans()):
        text.append("*")
    return "\n".join(text) + "\n", draw(st.integers(0, 6)), draw(st.randoms(use_true_random=False))


@fuzz_settings(80, share=0)
@given(_annotated_play())
def test_a_commented_record_played_on_is_written_and_read_back(case):
    """A record played on (``stich show --play``, the board's Save .tbn) is written with every comment and reads back to
    the same position, a '; comment' at the end of the trick in progress too."""
    from solver.position import position_from_record

    text, further, chooser = case
    position = position_from_record(parse_records(text, name=SOURCE)[0])
    comments = [comment.text for comment in position.record.comments]
    for _ in range(further):
        legal = list(position.legal_cards())
        if not legal:
            break
        position = position.play(chooser.choice(legal))
    again = position_from_record(parse_records(position.to_tbn(), name=SOURCE)[0])
    assert (again.state, again.played) == (position.state, position.played)
    assert sorted(comment.text for comment in again.record.comments) == sorted(comments)
