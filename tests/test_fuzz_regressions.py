"""The inputs the fuzzing found, each pinned as a regression test, the limits, and the reader's linear cost.

Cost is measured as the number of Python lines executed (``sys.settrace``), not as time: a count does not depend on
the load of the machine, and a quadratic loop shows as a ratio of 16 where a linear one gives 4.
"""

from __future__ import annotations

import io
import re
import sys

import pytest

from fuzz_inputs import EXAMPLE_TEXTS, assert_located
from solver.api import iter_positions, parse_positions
from solver.errors import ParseError
from solver.formats.tbn import (MAX_RECORD_LENGTH, MAX_TAG_VALUE_LENGTH, parse_records, read_records)

VALAT = EXAMPLE_TEXTS["valat.tbn"]
DEAL_VALUE = re.search(r'\[Deal "([^"]*)"\]', VALAT).group(1)  # type: ignore[union-attr]


def _with_tag(tag: str) -> str:
    """The Valat example with ``tag`` in place of its tag of that name, or before its [Deal] if it has none."""
    name = tag[1:].split()[0]
    text = re.sub(r'\[%s "[^"]*"\]\n' % name, "", VALAT)
    return text.replace("[Deal ", tag + "\n[Deal ", 1)


def _error_of(text: str) -> ParseError:
    with pytest.raises(ParseError) as caught:
        parse_positions(text, name="fuzz.tbn")
    assert_located(caught.value, "fuzz.tbn", text)
    return caught.value


# --- bugs found by the fuzzing --------------------------------------------------------------------------------------

@pytest.mark.parametrize("tag, name", [
    ('[Declarer "\u00b2"]', "Declarer"),  # superscript two: str.isdigit() says yes, int() says no
    ('[Leader "1\u00b2"]', "Leader"),
    ('[Partner "\u00b2"]', "Partner"),
])
def test_superscript_seat_is_a_located_error_not_a_value_error(tag, name):
    """Not a ValueError "invalid literal for int()" escaping position_from_record (a traceback on the CLI)."""
    error = _error_of(_with_tag(tag))
    assert f"[{name}] is not a seat" in error.message
    assert error.token is not None and "\u00b2" in error.token


def test_superscript_play_leader_is_a_located_error():
    text = re.sub(r'\[Play "[^"]*"\]', '[Play "\u00b2"]', VALAT)
    error = _error_of(text)
    assert error.message == "[Play] does not name a seat" and error.token == "\u00b2"


def test_superscript_announcement_seat_is_a_located_error():
    error = _error_of(_with_tag('[Announcements "\u00b2: Kontra"]'))
    assert "does not start with a seat" in error.message


@pytest.mark.parametrize("prefix", ["9" * 5000 + ": ", "9" * 5000 + " : "])
def test_deal_seat_prefix_of_5000_digits_is_not_a_seat(prefix):
    """Not a ValueError "Exceeds the limit (4300 digits) for integer string conversion"."""
    text = VALAT.replace(DEAL_VALUE, prefix + DEAL_VALUE.split(":", 1)[1])
    error = _error_of(text)
    assert "is not a seat" in error.message
    assert len(str(error)) < 400  # the 5,000 digits are cut in the message


def test_announcement_seat_of_5000_digits_is_a_located_error():
    error = _error_of(_with_tag('[Announcements "' + "9" * 5000 + ': Kontra"]'))
    assert "does not start with a seat" in error.message
    assert len(str(error)) < 500


def test_pot_in_superscript_digits_is_a_located_error():
    """Not a ValueError from int() in read_pot (``stich score`` on a Kratzen record with [Pot "²"])."""
    from solver.games.outcome import read_pot

    text = EXAMPLE_TEXTS["kratzen.tbn"]
    first = text[text.index("[Game"):].split("\n\n")[0] + "\n"
    first = re.sub(r'\[Pot "[^"]*"\]\n', "", first).replace("[Deal ", '[Pot "\u00b2"]\n[Deal ', 1)
    (position,) = parse_positions(first, name="pot.tbn")
    with pytest.raises(ParseError) as caught:
        read_pot(position.record, None)
    assert caught.value.message == "[Pot] is not a number of chips"
    assert_located(caught.value, "pot.tbn", first)


def test_deal_of_20000_words_is_read_in_linear_time():
    """The offsets are computed once per value: recomputing them for every word's column is quadratic, minutes for
    20,000 words (see also the line counts below)."""
    text = VALAT.replace(DEAL_VALUE, "x " * 4000)
    error = _error_of(text)
    assert "hands separated by '/'" in error.message


# --- limits ---------------------------------------------------------------------------------------------------------

def test_tag_value_limit():
    value = "v" * (MAX_TAG_VALUE_LENGTH + 1)
    text = f'[Game "Kratzen"]\n[Event "{value}"]\n'
    with pytest.raises(ParseError) as caught:
        parse_records(text, name="long.tbn")
    error = caught.value
    assert error.message == f"value of tag Event longer than {MAX_TAG_VALUE_LENGTH} characters"
    assert (error.line, error.column) == (2, len('[Event "') + MAX_TAG_VALUE_LENGTH + 1)
    assert parse_records(f'[Game "Kratzen"]\n[Event "{value[1:]}"]\n')[0].get("Event") == value[1:]


def test_record_length_limit_and_the_next_record_is_still_read():
    """A record of more than MAX_RECORD_LENGTH characters is an error at the line and column where it passed the
    limit; in a batch the next record after a blank line is read as usual."""
    line = "% " + "c" * 9_998  # 10,001 characters with its line break
    lines = MAX_RECORD_LENGTH // 10_001 + 1
    text = '[Game "Kratzen"]\n' + (line + "\n") * lines + '\n[Game "Schafkopf"]\n'
    items = list(read_records_recovering(text))
    error, record = items
    assert isinstance(error, ParseError) and error.message == f"record longer than {MAX_RECORD_LENGTH} characters"
    before = len('[Game "Kratzen"]\n') + (error.line - 2) * 10_001
    assert error.line == lines + 1 and error.column == MAX_RECORD_LENGTH - before + 1
    assert record.get("Game") == "Schafkopf"


def read_records_recovering(text: str):
    from solver.formats.tbn import iter_records

    return iter_records(io.StringIO(text, newline="\n"), name="big.tbn")


def test_record_count_is_unlimited_and_streamed():
    """Records are handed out one by one: 20,000 of them are read without holding the file (a generator that
    never ends would also do; here the count is checked)."""

    def lines():
        for board in range(20_000):
            yield f'[Game "Kratzen"]\n[Board "{board}"]\n\n'

    class Stream(io.RawIOBase):
        def __init__(self):
            self.chunks = (line.encode() for line in lines())
            self.buffer = b""

        def readable(self):
            return True

        def readinto(self, target):
            while not self.buffer:
                self.buffer = next(self.chunks, b"")
                if not self.buffer:
                    return 0
            size = min(len(target), len(self.buffer))
            target[:size], self.buffer = self.buffer[:size], self.buffer[size:]
            return size

    count = sum(1 for _ in read_records(io.BufferedReader(Stream(), 4096), name="many.tbn"))
    assert count == 20_000


def test_braces_nested_deep_are_not_nested_comments():
    """Brace comments do not nest (FORMAT.md): the first '}' closes, the next is a stray '}', at its column."""
    depth = 5_000
    text = '[Game "Kratzen"] ' + "{" * depth + "}" * depth + "\n"
    with pytest.raises(ParseError) as caught:
        parse_records(text, name="deep.tbn")
    assert caught.value.message == "'}' without a '{'"
    assert caught.value.column == len('[Game "Kratzen"] ') + depth + 2


# --- linear cost ----------------------------------------------------------------------------------------------------

def _lines_executed(function) -> int:
    count = 0

    def tracer(frame, event, arg):
        nonlocal count
        if event == "line":
            count += 1
        return tracer

    sys.settrace(tracer)
    try:
        function()
    finally:
        sys.settrace(None)
    return count


def _read_positions(text: str) -> None:
    for _ in iter_positions(io.StringIO(text, newline="\n"), name="cost.tbn"):
        pass


ADVERSARIAL = {
    "deal words": lambda n: VALAT.replace(DEAL_VALUE, "x " * n),
    "deal slashes": lambda n: VALAT.replace(DEAL_VALUE, "/ " * n),
    "deal escapes": lambda n: VALAT.replace(DEAL_VALUE, '\\" ' * n),
    "cards on one line": lambda n: re.sub(r'(\[Play "[^"]*"\]\n)', lambda m: m.group(1) + "T1 " * n + "\n", VALAT),
    "card lines": lambda n: re.sub(r'(\[Play "[^"]*"\]\n)', lambda m: m.group(1) + "T1 T2\n" * min(n, 199), VALAT),
    "comment lines": lambda n: "% c\n" * n + VALAT,
    "brace comment lines": lambda n: '[Game "Kratzen"] {' + "\nc" * n + "}\n",
    "open braces": lambda n: '[Game "Kratzen"] ' + "{" * n + "\n",
    "announcements": lambda n: _with_tag('[Announcements "' + "1: Kontra; " * (n // 4) + '"]'),
    "variant pairs": lambda n: _with_tag('[Variant "' + "a=b, " * (n // 4) + '"]'),
    "tags": lambda n: '[Game "Kratzen"]\n' + "".join(f'[T{i} "v"]\n' for i in range(min(n, 999))),
}


@pytest.mark.parametrize("name", sorted(ADVERSARIAL))
def test_reading_cost_grows_linearly(name):
    """Four times the input costs about four times the work (ratio under 6; a quadratic loop gives about 16)."""
    make = ADVERSARIAL[name]
    small, large = (_lines_executed(lambda: _read_positions(make(n))) for n in (500, 2000))
    if name in ("card lines", "tags"):
        small, large = (_lines_executed(lambda: _read_positions(make(n))) for n in (50, 200))
    assert large < 6 * small, (name, small, large)
