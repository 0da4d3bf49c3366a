"""Tests of the tbn syntax layer: reading, writing, positions, errors, limits and streaming."""

from __future__ import annotations

import _pyio
import contextlib
import gzip
import io
import json
import os
import queue
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import solver
from solver.errors import ParseError, StichError
from solver.formats.tbn import (
    MAX_BLANK_LINES_AHEAD,
    MAX_BRACE_COMMENT_LENGTH,
    MAX_LINE_LENGTH,
    MAX_PLAY_LINES,
    MAX_SKIPPED_LINE_LENGTH,
    MAX_TAGS,
    Comment,
    PlaySection,
    Record,
    Tag,
    Token,
    format_record,
    iter_records,
    json_comment_error,
    no_records_said,
    parse_records,
    read_records,
    write_records,
)

SAMPLE = r"""% A file with two records.
; Both comment styles.
[Game "Zwanzigerrufen"]
[Event "Club \"Zum Stich\", table 3 \\ back room"]
[Board "7"] [Site "Wien"] {two tags on one line}
[Deal "1: TS T21 T20 T12 / T19 SJ / T9 T10 / T7 SK"]
[MyOwnTag "kept as it is"]
[Play "1"]
% trick one
T9 {a remark} T19 T10 T7 ; the lead
SJ SG {a remark
over two lines} T5 SK
*
; after the play

% the second record: a trick in progress
[Game "Schafkopf"]
[Deal "EO GO / HO SO"]
[Play "2"]
EO GO
HO
"""


def summary(record: Record) -> dict:
    """What must survive a round trip: tags in order, play tokens, leader, termination and comments with places."""
    play = record.play
    return {
        "tags": [(tag.name, tag.value) for tag in record.tags],
        "leader": None if play is None else play.leader.text,
        "tricks": None if play is None else [[card.text for card in line] for line in play.tricks],
        "terminated": None if play is None else play.terminated,
        "comments": [(c.text, c.after_tags, c.play_line, c.play_token) for c in record.comments],
    }


def error_of(text: str, name: str = "game.tbn") -> ParseError:
    with pytest.raises(ParseError) as info:
        parse_records(text, name=name)
    return info.value


# ---------------------------------------------------------------------------------------------------------------------
# Reading


def test_sample_is_read_with_tags_play_and_comments():
    first, second = parse_records(SAMPLE, name="sample.tbn")
    assert first.source == "sample.tbn"
    assert first.line == 3
    assert [tag.name for tag in first.tags] == ["Game", "Event", "Board", "Site", "Deal", "MyOwnTag", "Play"]
    assert first.get("event") == 'Club "Zum Stich", table 3 \\ back room'
    assert first.get("SITE") == "Wien"
    assert first.play is not None
    assert first.play.leader == Token("1", 8, 8)
    assert [[c.text for c in line] for line in first.play.tricks] == [
        ["T9", "T19", "T10", "T7"],
        ["SJ", "SG", "T5", "SK"],  # the two-line remark does not split the trick
    ]
    assert first.play.tricks[0][1] == Token("T19", 10, 15)
    assert first.play.tricks[1][2] == Token("T5", 12, 17)
    assert first.play.terminated is True
    assert [c.text for c in first.comments] == [
        "% A file with two records.",
        "; Both comment styles.",
        "{two tags on one line}",
        "% trick one",
        "{a remark}",
        "; the lead",
        "{a remark\nover two lines}",
        "; after the play",
    ]
    assert summary(second)["tricks"] == [["EO", "GO"], ["HO"]]
    assert second.play is not None and second.play.terminated is False
    assert second.comments[0].text == "% the second record: a trick in progress"
    assert second.line == 17


def test_comment_places():
    first = parse_records(SAMPLE)[0]
    places = {c.text: (c.line, c.column, c.after_tags, c.play_line, c.play_token) for c in first.comments}
    assert places["{two tags on one line}"] == (5, 27, 4, None, 0)
    assert places["% trick one"] == (9, 1, 7, 0, 0)
    assert places["{a remark}"] == (10, 4, 7, 0, 1)
    assert places["; the lead"] == (10, 26, 7, 0, 4)
    assert places["{a remark\nover two lines}"] == (11, 7, 7, 1, 2)
    assert places["; after the play"] == (14, 1, 7, None, 0)


def test_round_trip_keeps_tags_tokens_and_comments():
    records = parse_records(SAMPLE)
    out = io.StringIO()
    write_records(records, out)
    again = parse_records(out.getvalue())
    assert [summary(r) for r in again] == [summary(r) for r in records]
    # Writing is stable: the second writing is the same text.
    out2 = io.StringIO()
    write_records(again, out2)
    assert out2.getvalue() == out.getvalue()


def test_format_record_text():
    text = '[Game "Kratzen"]\n[Result "a \\"b\\" c"]\n[Play "3"]\nEA {x} E7 ; y\n*\n'
    (record,) = parse_records(text)
    assert format_record(record) == text


def test_records_separated_by_one_blank_line_on_writing(tmp_path):
    records = parse_records('[A "1"]\n\n\n\n[B "2"]\n')
    path = tmp_path / "out.tbn"
    write_records(records, path)
    assert path.read_text(encoding="utf-8") == '[A "1"]\n\n[B "2"]\n\n'
    assert [summary(r) for r in read_records(path)] == [summary(r) for r in records]


def test_written_files_can_be_concatenated(tmp_path):
    """A blank line ends the last record too, so ``cat a.tbn b.tbn`` reads as the records of both."""
    first = parse_records('[Game "a"]\n[Play "1"]\nT1 T2\n*\n\n[Game "b"]\n[Play "2"]\nT3\n')
    second = parse_records('[Game "c"]\n[Board "3"]\n')
    stream = io.StringIO()
    write_records(first, stream)
    write_records(second, stream)
    assert [r.get("Game") for r in parse_records(stream.getvalue())] == ["a", "b", "c"]
    assert [r.get("Board") for r in parse_records(stream.getvalue())] == [None, None, "3"]


def test_play_section_ended_by_a_tag_and_tags_after_star():
    text = '[Game "x"]\n[Play "1"]\nT1 T2\n[Result "3"]\n\n[Game "y"]\n[Play "2"]\nT3\n*\n[Result "4"]\n'
    open_play, closed = parse_records(text)
    assert open_play.play is not None and open_play.play.terminated is False
    assert summary(open_play)["tricks"] == [["T1", "T2"]]
    assert open_play.get("Result") == "3"
    assert closed.play is not None and closed.play.terminated is True
    assert closed.get("Result") == "4"
    again = parse_records("\n".join(format_record(r) for r in (open_play, closed)))
    assert [summary(r) for r in again] == [summary(open_play), summary(closed)]


def test_star_may_close_the_last_card_line():
    (record,) = parse_records('[Play "4"]\nT1 T2 *\n')
    assert record.play is not None
    assert summary(record)["tricks"] == [["T1", "T2"]]
    assert record.play.terminated is True


def test_play_tag_with_no_cards():
    (record,) = parse_records('[Game "x"]\n[Play " 2 "]\n')
    assert record.play == PlaySection(Token("2", 2, 9), [], False)


def test_comment_block_before_a_record_belongs_to_it():
    (record,) = parse_records("% about board 2\n\n{and more}\n\n[Board \"2\"]\n")
    assert [(c.text, c.after_tags) for c in record.comments] == [("% about board 2", 0), ("{and more}", 0)]


def test_comments_after_the_last_record_are_kept():
    records = parse_records('[A "1"]\n\n% the end\n')
    assert [c.text for c in records[0].comments] == ["% the end"]
    text = format_record(records[0])
    assert text == '[A "1"]\n% the end\n'
    # ... also behind an open Play section, where they read back as part of it.
    (record,) = parse_records('[Play "1"]\nT1\n\n% the end\n')
    (again,) = parse_records(format_record(record))
    assert summary(again) == summary(record)


def test_empty_input_and_comments_only():
    assert parse_records("") == []
    assert parse_records("\n\n% nothing here\n") == []


def test_tag_spacing_variants():
    (record,) = parse_records('[ Game   "x" ]\t[Seats"5"]\n')
    assert [(t.name, t.value) for t in record.tags] == [("Game", "x"), ("Seats", "5")]
    assert record.tags[1].column == 16


def test_other_backslashes_are_kept():
    (record,) = parse_records(r'[Note "a\nb \x"]' + "\n")
    assert record.get("Note") == r"a\nb \x"
    (again,) = parse_records(format_record(record))
    assert again.get("Note") == r"a\nb \x"


# ---------------------------------------------------------------------------------------------------------------------
# Positions inside tag values


def test_value_token_at_column_one():
    (record,) = parse_records('[Game "x"]\n[Deal "1: TS T21 T20 / T19"]\n')
    assert record.value_token("Deal", 0) == Token("1:", 2, 8)
    assert record.value_token("deal", 3) == Token("T20", 2, 18)


def test_value_token_when_tag_is_indented_or_second_on_its_line():
    (record,) = parse_records('[Game "x"]\n   [Board "1"]  [Deal "1:  TS T21 T20"]\n')
    third_card = record.value_token("DEAL", 3)
    assert third_card == Token("T20", 2, 35)
    line = '   [Board "1"]  [Deal "1:  TS T21 T20"]'
    assert line[third_card.column - 1 : third_card.column - 1 + 3] == "T20"


def test_value_token_counts_escapes_as_written():
    line = r'[Deal "\"q\" \\ TS T21"]'
    (record,) = parse_records(line + "\n")
    assert record.get("Deal") == '"q" \\ TS T21'
    token = record.value_token("Deal", 3)
    assert token.text == "T21"
    assert line[token.column - 1 : token.column + 2] == "T21"
    assert record.tag("Deal").position(0) == (1, 8)  # type: ignore[union-attr]


def test_value_token_errors():
    (record,) = parse_records('[Deal "a b"]\n')
    with pytest.raises(KeyError):
        record.value_token("Contract", 0)
    with pytest.raises(IndexError):
        record.value_token("Deal", 2)


# ---------------------------------------------------------------------------------------------------------------------
# Errors: message, line, column, token, expected

#: What a file of JSON is said as: stich's own output, deals written as a JSON array, or another JSON object.
OURS = "the file holds JSON, not TBN records: stich's own output"
ARRAY = "the file holds JSON, not TBN records: an array"
OBJECT = "the file holds JSON, not TBN records: an object"
#: What each is expected to be instead.
OURS_EXPECTED = ("the TBN records it was made from (jq reads the JSON; batch reads its own --out on a rerun, "
                 "bench --compare a saved run)")
TBN_EXPECTED = 'TBN records such as [Game "Schafkopf"] [Deal "..."] (docs/format.md; stich deal writes some)'
JSON_EXPECTED = {OURS: OURS_EXPECTED, ARRAY: TBN_EXPECTED, OBJECT: TBN_EXPECTED}

ERRORS = [
    # text, line, column, message start, token
    ('[Game "x"]\n[Deal "TS T21\n', 2, 7, "unterminated tag value", '"TS T21'),
    ('[Game "x"]\n[Deal TS T21"]\n', 2, 7, "missing '\"'", "TS"),
    ('[Game "x"]\n[Deal\n', 2, 6, "missing '\"'", None),
    ('[Game "x"]\n[Deal "TS" T21\n', 2, 12, "missing ']'", "T21"),
    ('[Game "x"]\n  [Deal "TS"\n', 2, 13, "missing ']'", None),
    ('[Game "x"] junk\n', 1, 12, "unexpected text after a tag", "junk"),
    ('[Game "x"] {ok} junk\n', 1, 17, "unexpected text after a tag", "junk"),
    ('[Ga-me "x"]\n', 1, 2, "tag name is not a word", "Ga-me"),
    ('[ "x"]\n', 1, 3, "empty tag name", '"'),
    ('[Game "x"]\n[]\n', 2, 2, "empty tag name", "]"),  # after a tag; before any, a JSON array's (below)
    ('[Game "x"]\n[Board "1"]\n[game "y"]\n', 3, 1, "duplicate tag game, first at line 1", "game"),
    ('[Game "x"] [GAME "y"]\n', 1, 12, "duplicate tag GAME, first at line 1", "GAME"),
    ('[Game "x"]\nT9 T19\n', 2, 1, "Play section without a [Play] tag", "T9"),
    ('[Game "x"]\n*\n', 2, 1, "Play section without a [Play] tag", "*"),
    ("% c\nT9 T19\n[Game \"x\"]\n", 2, 1, "cards before any tag", "T9"),
    ('[Game "x"]\n[Play "1"]\nT9 * T19\n', 3, 6, "unexpected text after '*'", "T19"),
    ('[Game "x"]\n[Play "1"]\n*\nT9\n', 4, 1, "cards after the end of the Play section", "T9"),
    ('[Game "x"]\n[Play "1"]\nT9 [Result "1"]\n', 3, 4, "a tag after cards on the same line", "[Result"),
    ('[Game "x"] {never closed\n[Deal "x"]\n', 1, 12, "unclosed brace comment", "{never closed"),
    ('[Game "x"]\n{open\n\n[Game "y"]\n', 2, 1, "unclosed brace comment", "{open"),
    ('[Game "x"]\nT9 }\n', 2, 4, "'}' without a '{'", "}"),
    ('[Game "x"]\n[Play "1"]\nT9 ]\n', 3, 4, "unexpected ']' outside a tag", "]"),
    # stich's JSON given where records are expected: a --json line, an indented saved bench run
    ('{"schema": "stich-result/1", "record": {"line": 3}, "game": "Kratzen"}\n', 1, 1, OURS,
     '{"schema": "stich-result/1", ...'),
    ('{\n "schema": "stich-bench/1",\n "machine": {\n  "python": "3.12"\n },\n "lines": []\n}\n', 1, 1,
     OURS, "{"),
    ('{\n "schema": "stich-bench/1", "machine": {\n  "python": "3.12"\n },\n "lines": []\n}\n', 1, 1, OURS, "{"),
    # other JSON objects, on one line or indented: said as JSON, not as stich's
    ('{"deals": [{"game": "Kratzen"}]}\n', 1, 1, OBJECT, '{"deals": [{"game": "Kratzen"}]}'),
    ('{\n "deals": [\n  {"game": "Kratzen"}\n ]\n}\n', 1, 1, OBJECT, "{"),
    ('{\n "schema": "deals/1",\n "deals": {\n  "game": "Kratzen"\n }\n}\n', 1, 1, OBJECT, "{"),
    # deals written as a JSON array, on one line or indented, shown as written up to a whole item
    ('[{"game": "Schafkopf", "deal": "EO GO"}, {"game": "Kratzen"}]\n', 1, 1, ARRAY,
     '[{"game": "Schafkopf", "deal": "EO GO"}, ...'),
    ('[\n  {\n    "game": "Schafkopf"\n  }\n]\n', 1, 1, ARRAY, "["),
    ('  [ [ "EO", "GO" ] ]\n', 1, 3, ARRAY, '[ [ "EO", "GO" ] ]'),
    # a whole array on its line, empty or of numbers or strings: an array, not an empty or bad tag name
    ("[]\n", 1, 1, ARRAY, "[]"),
    ("[1, 2, 3]\n", 1, 1, ARRAY, "[1, 2, 3]"),
    ('["EO GO", "GA GK"]\n', 1, 1, ARRAY, '["EO GO", "GA GK"]'),
    # an array's first line going on past its first number or string: an array, not a bad or empty tag name
    ("[1,\n 2]\n", 1, 1, ARRAY, "[1,"),
    ('["EO GO",\n "GA GK"]\n', 1, 1, ARRAY, '["EO GO",'),
    ("[-1.5e3, true]\n", 1, 1, ARRAY, "[-1.5e3, true]"),
    # a '[' alone, the next line going on as an array does
    ('[\n  "EO GO"\n]\n', 1, 1, ARRAY, "["),
    ("[\n]\n", 1, 1, ARRAY, "["),
]


def test_json_is_said_as_json_and_a_brace_comment_stays_one():
    """A JSON file given for records is said as JSON, naming what reads it, not as ``unexpected '"' outside a tag``
    (its '{' read as a brace comment up to the first '}'). Brace comments, a '{' alone on line 1 among them, and
    ``{}``, are comments."""
    error = error_of('{"schema": "stich-result/1", "record": {"line": 3}, "command": "solve"}\n')
    assert (error.message, error.expected) == (OURS, OURS_EXPECTED)
    for text in ('{}\n[Game "x"]\n', '{\na comment\n}\n[Game "x"]\n', '{"quoted" comment}\n[Game "x"]\n'):
        records = parse_records(text, name="game.tbn")
        assert [record.get("Game") for record in records] == ["x"]


def test_a_brace_comment_that_is_json_stays_a_comment():
    """``{"note": 1}`` on a line of its own, and a ``{`` on line 1 closed by ``"Author": "me"}`` on line 2, are legal
    brace comments: JSON is said only where reading fails on it, so every legal comment stays a comment, a flat
    JSON document too."""
    for text, comment in [('{"note": 1}\n[Game "x"]\n', '{"note": 1}'),
                          ('{\n"Author": "me"}\n[Game "x"]\n', '{\n"Author": "me"}'),
                          ('[Game "x"]\n{"note": 1}\n', '{"note": 1}')]:
        (record,) = parse_records(text, name="game.tbn")
        assert (record.get("Game"), [c.text for c in record.comments]) == ("x", [comment])
    assert parse_records('{\n "schema": "stich-bench/1",\n "lines": []\n}\n', name="game.tbn") == []
    (record,) = parse_records('  {"schema": "stich-result/1"}\n{"schema": "stich-result/1"}\n[Game "x"]\n')
    assert [c.text for c in record.comments] == ['{"schema": "stich-result/1"}'] * 2


def test_a_json_array_is_said_with_what_to_write_and_a_tag_that_fails_is_not():
    """A JSON array (deals written as JSON, which stich does not read) is said at its '[' with the tags to write
    instead; a tag that fails as a tag, a record's own line and an array after a record are said as they were."""
    error = error_of('[{"game": "Schafkopf"}]\n')
    assert (error.message, error.expected) == (ARRAY, TBN_EXPECTED)
    assert error_of('[ "x"]\n').message == "empty tag name"
    assert error_of('["EO GO"]\n').message == "empty tag name"  # one string: a tag without its name
    assert error_of('[Game "x"]\n[\n').message == "empty tag name"
    # a '[' alone is an array's only where the next line goes on as one, not where a tag follows it (or nothing)
    for text in ('[\n[Game "Schafkopf"]\n', "[\n", '[\n\n{"a": 1}\n'):
        assert (error_of(text).line, error_of(text).message) == (1, "empty tag name")
    assert error_of('[[Game "x"]]\n').message == "tag name is not a word"  # a doubled bracket, not an array
    items = list(iter_records(io.StringIO('[Game "x"]\n\n[{"a": 1}]\n'), name="game.tbn"))
    assert isinstance(items[1], ParseError) and items[1].message == "tag name is not a word"


def test_an_input_of_comments_alone_keeps_them_for_what_no_records_says():
    """A file of flat JSON lines (or one flat indented object) is legal TBN, each object a brace comment, and holds
    no record: ``comments_alone`` keeps its comments and ``no_records_said`` says the first JSON among them as a
    failed reading says JSON (``json_comment_error``), at its line, for the "no records" of a command and of the
    board; where the input held a record or an error, ``comments_alone`` stays empty."""
    reading = iter_records(io.StringIO('% deals\n{"game": "Schafkopf"}\n\n{"game": "Kratzen"}\n'), name="d.jsonl")
    assert list(reading) == [] and [c.text for c in reading.comments_alone] == \
        ["% deals", '{"game": "Schafkopf"}', '{"game": "Kratzen"}']
    assert no_records_said("d.jsonl", reading.comments_alone) == (
        f"d.jsonl:2:1: {OBJECT} (got '{{\"game\": \"Schafkopf\"}}', expected {TBN_EXPECTED})")
    indented = iter_records(io.StringIO('{\n  "game": "Schafkopf",\n  "deal": "EO GO GA GK SA SK HA HK",\n'
                                        '  "contract": "Rufer"\n}\n'))
    assert list(indented) == []  # read to its end, which keeps the comments
    error = json_comment_error("d.json", indented.comments_alone)
    assert error is not None
    assert (error.line, error.column, error.message, error.token, error.expected) == (
        1, 1, OBJECT, "{", TBN_EXPECTED)  # by its first line, as a failed reading shows an indented object
    compact = iter_records(io.StringIO('{"game":"Schafkopf","deal":"EO GO GA GK SA SK HA HK","contract":"Rufer"}\n'))
    assert list(compact) == []
    error = json_comment_error("d.jsonl", compact.comments_alone)
    assert error is not None and error.token == '{"game":"Schafkopf",...'  # as written, after a whole key: value
    ours = iter_records(io.StringIO('  {"schema": "stich-result/1", "game": "Kratzen"}\n'))
    assert list(ours) == []
    error = json_comment_error("r.jsonl", ours.comments_alone)
    assert error is not None
    assert (error.line, error.column, error.message, error.expected) == (1, 3, OURS, OURS_EXPECTED)
    for text, where in (('% a note\n{not json}\n{}\n', "3:1"), ("", "1:1")):
        plain = iter_records(io.StringIO(text))
        assert list(plain) == [] and json_comment_error("x", plain.comments_alone) is None
        assert no_records_said("x.tbn", plain.comments_alone, plain.lines_read) == (
            f'x.tbn:{where}: no records (empty, or only comments; a record starts with tags such as [Game "Schafkopf"] '
            '[Deal "..."])')
    for text in ('{"a": 1}\n[Game "x"]\n', '[Game "x"]\n\n{"a": 1}\n', '[Game "x"\n\n{"a": 1}\n'):
        reading = iter_records(io.StringIO(text))
        assert list(reading) and reading.comments_alone == []


def test_an_indented_json_document_is_said_as_json_where_reading_fails():
    """A saved bench run (``json.dump(..., indent=1)``, nested objects) fails where its first inner '}' ends the brace
    comment, before any tag, on a line going on as JSON does, in a file opened by a '{' alone: said at that '{', and
    a record after a blank line is still read."""
    run = {"schema": "stich-bench/1", "command": "bench", "machine": {"python": "3.12"},
           "lines": [{"line": "kr", "boards": [1, 2], "machine": {"python": "3.12"}}]}
    text = "  " + json.dumps(run, indent=1) + "\n"
    error = error_of(text)
    assert (error.line, error.column, error.token, error.message, error.expected) == (1, 3, "{", OURS, OURS_EXPECTED)
    items = list(iter_records(io.StringIO(text + '\n[Game "y"]\n'), name="game.tbn"))
    assert isinstance(items[0], ParseError) and (items[0].message, items[0].expected) == (OURS, OURS_EXPECTED)
    assert [item.get("Game") for item in items[1:]] == ["y"]  # type: ignore[union-attr]
    # not JSON: a brace comment left open at a blank line is said as that
    assert error_of('{\n "a": 1,\n\n[Game "x"]\n').message == "unclosed brace comment"
    # nor a record's own stray brace, nor a stray token after a brace comment opened by a '{' alone: said where it is
    assert (error_of('[Game "x"]\n{"a": {"b": 1}}\n').message, error_of('[Game "x"]\n{"a": {"b": 1}}\n').line) \
        == ("'}' without a '{'", 2)
    for text, line in (('{\n}\n"x"\n', 3), ('{\n  x\n}\n]\n', 4), ('{\n comment\n}\n}\n', 4)):
        error = error_of(text)
        assert error.line == line and not error.message.startswith("the file holds JSON"), (text, error)


def test_a_nested_json_document_is_said_as_json_where_it_starts():
    """An object holding arrays spread over lines fails where an inner '}' ends the brace comment its '{' opened,
    on a line going on as JSON does: said at the document's '{', not at that line (nor as a stray ','), whether the
    '{' stands alone or holds the first key."""
    for text, shown in (('{\n  "deals": [\n    {"a": 1},\n    {"b": [1,\n 2]}\n  ]\n}\n', "{"),
                        ('{"deals": [\n  {"a": 1},\n  {"b": 2}\n]}\n', '{"deals": ['),
                        ('{ "deals":\n  [ { "a": [1, 2] },\n    { "b": 2 } ] }\n', '{ "deals":')):
        assert str(error_of(text)) == f"game.tbn:1:1: {OBJECT} (got '{shown}', expected {TBN_EXPECTED})", text
    # one with no inner '}' is one brace comment, read whole: its "no records" says it at its '{' too
    reading = iter_records(io.StringIO('{\n  "deals": [\n    [1, 2],\n    [3]\n  ]\n}\n'), name="game.tbn")
    assert list(reading) == []
    assert no_records_said("game.tbn", reading.comments_alone, reading.lines_read) == (
        f"game.tbn:1:1: {OBJECT} (got '{{', expected {TBN_EXPECTED})")
    ours = '{"schema": "stich-result/1",\n "x": {"y": [1,\n 2]},\n "z": 1}\n'
    assert str(error_of(ours)) == (f"game.tbn:1:1: {OURS} (got '{{\"schema\": \"stich-result/1\",', expected "
                                   f"{OURS_EXPECTED})")


def test_a_tag_without_its_name_says_a_name_was_expected_where_it_is_missing():
    """A tag whose name is left out (``[ "x"]``, ``[""]``, a .json file's ``["x"]``, one string, which no JSON of
    deals is) says at the missing name's column that a tag name was expected there."""
    for text, name, column in (('[ "x"]\n', "deals.tbn", 3), ('[""]\n', "deals.tbn", 2), ('["x"]\n', "deals.json", 2)):
        assert str(error_of(text, name)) == (f"{name}:1:{column}: empty tag name (got '\"', expected a tag name "
                                             "(letters, digits, '_'))")


def test_a_csv_file_is_said_as_csv():
    """A spreadsheet's export (``Board,North,...``) is said as CSV, as JSON is said as JSON, where its first line,
    without a '[' or '{', and the next two (where it has them; up to two blank lines among them passed over) split
    into the same count of values, three or more, at commas, semicolons or tabs, most of them no card. A line alone
    (or one three blank lines apart from the next), prose with a comma or two, lines that differ in count, and hands
    written with commas are said as the stray text they are."""
    for text, what, shown in (('Board,North,East,South,West\n1,"EO, GO",b,c,d\n2,a,b,c,d\n', "commas",
                               "Board,North,East,South,West"),
                              ("Board;North;East\n1;a;b\n", "semicolons", "Board;North;East"),
                              ("Board\tNorth\tEast\n1\tx\ty\n\n", "tabs", "Board\\tNorth\\tEast"),
                              ("Board,North,East\n\n1,a,b\n2,a,b\n", "commas", "Board,North,East"),
                              ("Board,North,East\n\n1,a,b\n\n2,a,b\n", "commas", "Board,North,East")):
        items = list(iter_records(io.StringIO(text), name="deals.csv"))
        assert [str(item) for item in items] == [
            f"deals.csv:1:1: the file holds CSV, not TBN records: values separated by {what} (got '{shown}', "
            f"expected {TBN_EXPECTED})"]
    for text in ("EO, GO\n", 'EO, GO\n[Game "x"]\n', "a,b\n\n1,2\n", "EA, EO, E9, EK\nGA, GO, G9, GK\n",
                 "EA,EO,E9\nGA,GO,G9\nSA,SO,S9\n", "Hello, world\nFine, thanks\n",
                 "One, two, three\nfour, five, six\nseven, eight\n", "Board,North,East\n\n\n\n1,a,b\n2,a,b\n"):
        assert error_of(text).message == "cards before any tag", text


def _items_from_a_pipe(written: bytes) -> list[Record | ParseError]:
    """The reader's items of ``written``, sent whole down a pipe that is then closed (as ``cat file |`` does)."""
    reading, writing = os.pipe()
    os.write(writing, written)
    os.close(writing)
    with open(reading, "rb") as stream:
        return list(iter_records(stream, name="<stdin>"))


def _read_from_a_pipe(written: bytes) -> list[str]:
    """What the reader says of ``written``, sent whole down a pipe that is then closed."""
    return [str(item) for item in _items_from_a_pipe(written)]


def test_csv_and_a_json_array_piped_in_are_said_as_a_file_of_them_is(tmp_path):
    """CSV or a JSON array opened by a '[' alone, piped in whole, is told from the lines that have arrived with its
    first, as a file of it is told."""
    for text, message in (("Board,North,East\n\n1,a,b\n2,a,b\n",
                           "the file holds CSV, not TBN records: values separated by commas"),
                          ('[\n{"game": "Schafkopf"}\n]\n', ARRAY)):
        (tmp_path / "deals").write_text(text)
        (said,) = _read_from_a_pipe(text.encode())
        assert said.startswith(f"<stdin>:1:1: {message} (got ")
        assert [said] == [str(item) for item in iter_records(tmp_path / "deals", name="<stdin>")]


@contextlib.contextmanager
def _read_on_a_pipe(opener: Callable[..., Any] = open) -> Iterator[tuple[int, queue.Queue]]:
    """The reader on a pipe, in a thread of its own: the pipe's write end, and the queue of what the reader says
    (each record or message as text). The pipe is closed on leaving, and the reader must then end within 30 s."""
    reading, writing = os.pipe()
    said: queue.Queue = queue.Queue()

    def read() -> None:
        with opener(reading, "rb") as stream:
            for item in iter_records(stream, name="<stdin>"):
                said.put(str(item))

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        yield writing, said
    finally:
        os.close(writing)
        reader.join(timeout=30)
    assert not reader.is_alive()


def _first_said_on_a_pipe_kept_open(written: bytes, opener: Callable[..., Any] = open) -> str:
    """What the reader says first of ``written``, sent down a pipe its writer keeps open (a bot waiting for an
    answer); the pipe is closed only after that, so a reader that waits for more fails the 30 s bound."""
    with _read_on_a_pipe(opener) as (writing, said):
        os.write(writing, written)
        return said.get(timeout=30)  # bounds a failure alone: the message comes before anything more is sent


def test_a_bracket_alone_on_a_pipe_is_said_before_the_writer_sends_more():
    """A '[' alone, first on a pipe kept open (a bot), is said as the tag it starts as soon as it has arrived: the
    line after it, which would tell a JSON array, is not waited for."""
    said = _first_said_on_a_pipe_kept_open(b"[\n")
    assert said == "<stdin>:1:2: empty tag name (expected a tag name (letters, digits, '_'))"


def test_a_bad_first_line_on_a_pipe_is_said_before_the_writer_sends_more():
    """A pipe kept open (a bot) hears of a bad first line as soon as it has arrived: the lines after it, which
    could tell a file CSV, are not waited for."""
    said = _first_said_on_a_pipe_kept_open(b"hello there, you, all\n")
    assert said == "<stdin>:1:1: cards before any tag (got 'hello', expected a tag such as [Game \"...\"])"


@pytest.mark.parametrize("opener", [open, _pyio.open])
def test_csv_on_a_pipe_kept_open_is_told_by_the_lines_that_have_arrived_without_a_read(opener):
    """CSV whose lines have arrived together on a pipe kept open is told CSV by them, looked at in the stream's
    buffer without a read that would wait for more: Python's own buffered reader (_pyio) reads to a peek's size
    where the C one gives what it holds."""
    said = _first_said_on_a_pipe_kept_open(b"Board,North,East\n1,a,b\n2,a,b\n", opener)
    assert said.startswith("<stdin>:1:1: the file holds CSV, not TBN records: values separated by commas (got ")


@pytest.mark.parametrize("text, line, column, message, token", ERRORS)
def test_syntax_errors(text, line, column, message, token):
    error = error_of(text)
    assert (error.source, error.line, error.column, error.token) == ("game.tbn", line, column, token)
    assert error.message.startswith(message)
    assert error.expected
    if message in JSON_EXPECTED:  # said whole, with what to give instead
        assert (error.message, error.expected) == (message, JSON_EXPECTED[message])
    assert str(error).startswith(f"game.tbn:{line}:{column}: {message}")


def test_error_text_in_full():
    error = error_of('[Game "x"]\n[Deal "TS T21\n')
    assert str(error) == "game.tbn:2:7: unterminated tag value (got '\"TS T21', expected a closing '\"')"
    error = error_of('[Game "x"]\n[game "y"]\n')
    assert str(error) == "game.tbn:2:1: duplicate tag game, first at line 1 (a blank line between two records " \
        "missing?) (got 'game', expected each tag once per record)"


def test_default_source_name():
    with pytest.raises(ParseError) as info:
        parse_records("T9\n")
    assert str(info.value).startswith("<string>:1:1: cards before any tag")


def test_long_tokens_are_shortened_in_messages():
    error = error_of('[Deal "' + "x" * 500 + "\n")
    assert error.token is not None and len(error.token) < 50 and error.token.endswith("...")


# ---------------------------------------------------------------------------------------------------------------------
# Limits and hostile input


def test_line_length_limit():
    text = '[Game "x"]\n[Note "' + "a" * MAX_LINE_LENGTH + '"]\n'
    error = error_of(text)
    assert (error.line, error.column) == (2, MAX_LINE_LENGTH + 1)
    assert str(MAX_LINE_LENGTH) in error.message


def test_an_invalid_byte_past_the_line_limit_is_the_limit_error():
    """The limit is crossed at column MAX_LINE_LENGTH + 1 before a bad byte further on is read: the error is that one,
    at that column (docs/limits.md: columns stop at the limit + 1), not the byte's; a bad byte before the limit keeps
    its own column."""
    for path, column in ((b"x" * (MAX_LINE_LENGTH + 4), MAX_LINE_LENGTH + 1), (b"x" * 50, 51)):
        line = b";" + path[1:] + b"\xff" + b"y" * 10 + b"\n"
        error = next(iter(iter_records(io.BytesIO(line + b'[Game "x"]\n'))))
        assert isinstance(error, ParseError) and (error.line, error.column) == (1, column)
    long_line = b";" + b"x" * 50 + b"\xff" + b"y" * MAX_LINE_LENGTH + b"\n"
    error = next(iter(iter_records(io.BytesIO(long_line))))
    assert isinstance(error, ParseError) and error.column == 52 and "UTF-8" in error.message


def test_a_utf16_file_is_said_to_be_one():
    """Windows' "Unicode" is UTF-16 with a byte order mark: the error names it and what to do, rather than a bare
    byte ff; a record after it (a second file's worth, with a blank line between) is still read."""
    for encoding, bom in (("utf-16-le", "ff fe"), ("utf-16-be", "fe ff")):
        data = '\ufeff[Game "x"]\n'.encode(encoding) + b'\n\n[B "2"]\n'
        first, second = list(iter_records(io.BytesIO(data)))
        assert isinstance(first, ParseError) and (first.line, first.column) == (1, 1)
        assert str(first).startswith(f"<stream>:1:1: invalid UTF-8 (byte {bom}, a UTF-16 byte order mark: save the "
                                     "file as UTF-8)")
        assert not isinstance(second, ParseError) and second.get("B") == "2"
    # a stray ff fe further on is a bad byte, no byte order mark
    error = next(iter(iter_records(io.BytesIO(b'[A "\xff\xfe"]\n'))))
    assert isinstance(error, ParseError) and "byte ff)" in error.message and "UTF-16" not in error.message
    # but at a line's start after the first, it is the byte order mark of a UTF-16 file appended to a UTF-8 one
    appended = b'[A "1"]\n\n' + '\ufeff[B "2"]\n'.encode("utf-16-le")
    first, error = list(iter_records(io.BytesIO(appended)))
    assert first.get("A") == "1" and (error.line, error.column) == (3, 1)
    assert "byte ff fe, a UTF-16 byte order mark: save the file as UTF-8" in error.message


def test_a_utf16_file_without_a_byte_order_mark_is_said_to_be_one_likely():
    """ASCII text saved as UTF-16 without a byte order mark reads as a NUL every other character: the error says
    what the file likely is, at the first NUL; a lone NUL in a line says no more than that."""
    for encoding, column in (("utf-16-le", 2), ("utf-16-be", 1)):
        error = next(iter(iter_records(io.BytesIO('[Game "Kratzen"]\n'.encode(encoding)))))
        assert isinstance(error, ParseError) and (error.line, error.column) == (1, column)
        assert error.message == "NUL character in the input (every other character: a UTF-16 file? Save it as UTF-8)"
    error = next(iter(iter_records(io.BytesIO(b'[B "x\x00"]\n'))))
    assert isinstance(error, ParseError) and error.message == "NUL character in the input"
    # a NUL at a line's end (or two characters from it) alone is no UTF-16 text: every other character from the
    # line's start must be one, several times (a UTF-16 LE line's LF leaves a NUL first on the next line)
    for line in (b'[Board "1"]\x00', b'[Board "1"]\x00x', b'[Board "1"]x\x00', b"x\x00y\x00", b"\x00\x00\x00\x00\x00"):
        error = next(iter(iter_records(io.BytesIO(line + b"\n"))))
        assert isinstance(error, ParseError) and error.message == "NUL character in the input", line
    error = next(iter(iter_records(io.BytesIO(b"\x00[\x00B\x00x\n"))))
    assert error.column == 1 and "a UTF-16 file?" in error.message


def test_very_long_line_is_not_read_whole_and_batch_goes_on():
    text = '[A "1"]\n' + "x" * (5 * MAX_LINE_LENGTH) + '\n\n[B "2"]\n'
    results = list(iter_records(io.StringIO(text)))
    assert isinstance(results[0], ParseError) and results[0].line == 2
    assert "longer than" in results[0].message
    assert isinstance(results[1], Record) and results[1].get("B") == "2"


class _Zeros(io.RawIOBase):
    """An endless stream of NUL bytes, as /dev/zero is; counts what was read."""

    def __init__(self) -> None:
        self.read_bytes = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        buffer[:] = bytes(len(buffer))
        self.read_bytes += len(buffer)
        return len(buffer)


def test_an_endless_line_stops_the_reading():
    """A line with no end (``stich solve /dev/zero``) is not skipped forever: past MAX_SKIPPED_LINE_LENGTH the
    reader says so once and reads no further."""
    zeros = _Zeros()
    (error,) = list(iter_records(io.BufferedReader(zeros), name="/dev/zero"))
    assert isinstance(error, ParseError) and (error.line, error.column) == (1, MAX_LINE_LENGTH + 1)
    assert error.message == (f"line longer than {MAX_LINE_LENGTH} characters (and over "
                             f"{MAX_SKIPPED_LINE_LENGTH:,}: not a text file? The rest of it is not read)")
    assert zeros.read_bytes < MAX_SKIPPED_LINE_LENGTH + 1_000_000


def test_tag_limit():
    text = "".join(f'[T{i} "v"]\n' for i in range(MAX_TAGS + 1))
    error = error_of(text)
    assert (error.line, error.column) == (MAX_TAGS + 1, 1)
    assert str(MAX_TAGS) in error.message
    assert len(parse_records(text.rsplit("[", 1)[0])[0].tags) == MAX_TAGS


def test_play_line_limit():
    text = '[Play "1"]\n' + "T1\n" * (MAX_PLAY_LINES + 1)
    error = error_of(text)
    assert (error.line, error.column) == (MAX_PLAY_LINES + 2, 1)
    assert str(MAX_PLAY_LINES) in error.message


def test_brace_comment_limit_over_lines():
    body = ("b" * 50_000 + "\n") * 3
    error = error_of('[A "1"]\n  {' + body + "}\n")
    assert (error.line, error.column) == (2, 3)
    assert str(MAX_BRACE_COMMENT_LENGTH) in error.message


def test_nul_byte():
    error = error_of('[A "1"]\n[B "x\x00y"]\n')
    assert (error.line, error.column, error.token) == (2, 6, "\x00")


def test_invalid_utf8_from_path(tmp_path):
    path = tmp_path / "bad.tbn"
    path.write_bytes('[A "ü"]\n[B "äx'.encode() + b"\xff" + b'"]\n\n[C "3"]\n')
    with pytest.raises(ParseError) as info:
        list(read_records(path))
    error = info.value
    assert (error.source, error.line, error.column) == (str(path), 2, 7)
    assert "UTF-8" in error.message
    results = list(iter_records(path, name="named.tbn"))
    assert isinstance(results[0], ParseError) and results[0].source == "named.tbn"
    assert isinstance(results[1], Record) and results[1].get("C") == "3"


def test_invalid_utf8_from_text_stream():
    stream = io.TextIOWrapper(io.BytesIO(b'[A "1"]\n[B "\xff"]\n'), encoding="utf-8", errors="strict")
    with pytest.raises(ParseError) as info:
        list(read_records(stream))
    assert "UTF-8" in info.value.message


def test_bom_and_crlf(tmp_path):
    data = '\ufeff[Game "x"]\r\n[Deal "1: TS T21"]\r\n[Play "1"]\r\nTS T19\r\n*\r\n\r\n[Game "y"]\r\n'
    path = tmp_path / "dos.tbn"
    path.write_bytes(data.encode("utf-8"))
    for source in (path, io.BytesIO(data.encode("utf-8")), io.StringIO(data, newline="")):
        first, second = read_records(source)
        assert first.tags[0] == Tag("Game", "x", 1, 1, 1, 8)
        assert first.value_token("Deal", 2) == Token("T21", 2, 14)
        assert summary(first)["tricks"] == [["TS", "T19"]]
        assert first.play is not None and first.play.terminated
        assert second.get("Game") == "y"
    (record,) = parse_records(data.split("\r\n\r\n")[0])
    assert record.get("Game") == "x"


def test_bom_error_columns_do_not_count_it():
    error = error_of('\ufeff[Game "x"] junk\n')
    assert (error.line, error.column) == (1, 12)
    with pytest.raises(ParseError) as info:  # a bad byte's column, as on the line without the BOM
        list(read_records(io.BytesIO(b'\xef\xbb\xbf[A "\xc3(')))
    assert (info.value.line, info.value.column, info.value.message) == (1, 5, "invalid UTF-8 (byte c3)")


# ---------------------------------------------------------------------------------------------------------------------
# Batches and streaming


def test_iter_records_skips_a_bad_record():
    text = (
        '[Game "a"]\n\n'
        '[Game "b"]\n[Deal "oops]\n[Play "1"]\nT1\n\n'
        'T2 T3\n\n'  # cards after a blank line: stray text, said as after a good record
        '% record c\n[Game "c"]\n\n'
        '[Game "d"]\n[Game "d2"]\n'
        '\n[Game "e"]\n'
    )
    results = list(iter_records(io.StringIO(text), name="batch.tbn"))
    kinds = [r.get("Game") if isinstance(r, Record) else (r.line, r.column) for r in results]
    assert kinds == ["a", (4, 7), (8, 1), "c", (14, 1), "e"]
    assert str(results[2]) == "batch.tbn:8:1: cards before any tag (got 'T2', expected a tag such as [Game \"...\"])"
    # a bad record that broke off in its Play section: the cards after its blank line get the hint a good one's do
    broken = list(iter_records(io.StringIO('[Game "b"]\n[Play "1"]\nT1 [Result "x"]\nT4\n\nT2 T3\n'), name="b.tbn"))
    assert [(error.line, error.column) for error in broken] == [(3, 4), (6, 1)]
    assert "(a blank line ends a record: one inside the Play section above?)" in str(broken[1])
    c = results[3]
    assert isinstance(c, Record) and [x.text for x in c.comments] == ["% record c"]
    with pytest.raises(ParseError) as info:
        list(read_records(io.StringIO(text), name="batch.tbn"))
    assert (info.value.line, info.value.column) == (4, 7)


def test_stray_text_after_a_bad_record_is_reported_not_skipped():
    """After a bad record no block is skipped unsaid up to one that starts with a tag or a comment, which would make a
    line of stray text, and even a whole record whose first tag lost its '[' (which is an error after a good record),
    vanish from the batch: the bad record ends at its blank line and what follows is read as after any record. A run of
    stray blocks is reported at its first block's line and column (the 'hello' block after it is of the same run), the
    records after it still read."""
    text = ('[Game "Kratzen"]\n[Deal "oops]\n\n'
            'Game "Schafkopf"]\n[Board "2"]\n\n'
            'hello world\n\n'
            '[Game "Kratzen"]\n[Board "3"]\n')
    results = list(iter_records(io.StringIO(text), name="stray.tbn"))
    assert [str(item) if isinstance(item, ParseError) else item.get("Board") for item in results] == [
        "stray.tbn:2:7: unterminated tag value (got '\"oops]', expected a closing '\"')",
        "stray.tbn:4:1: a tag without its '[' (got 'Game', expected '[' before the tag name)",
        "3"]
    # the same stray blocks after a good record: said alike
    good = list(iter_records(io.StringIO('[Game "Kratzen"]\n\n' + text.split("\n\n", 1)[1]), name="stray.tbn"))
    assert [(item.line + 1, item.column, item.message) for item in good[1:2]] == [
        (item.line, item.column, item.message) for item in results[1:2]]  # one line shorter above them
    hello = list(iter_records(io.StringIO(text.replace("Game \"Schafkopf\"]\n[Board \"2\"]\n\n", "")), name="s.tbn"))
    assert [str(item) if isinstance(item, ParseError) else item.get("Board") for item in hello][1:] == [
        "s.tbn:4:1: cards before any tag (got 'hello', expected a tag such as [Game \"...\"])", "3"]


@pytest.mark.parametrize("first_tag", ['[Board "1"]', '[Board "oops]'])
def test_stray_blocks_are_said_once_up_to_the_next_record(first_tag):
    """A Play section spaced out by blank lines, after a good record or a bad one: its first stray block is said,
    the blocks after it (the same mistake) are not said again, and the record after them is read."""
    text = ('[Game "Schafkopf"]\n' + first_tag + '\n[Play "1"]\nEO H7 HU H8\n\nHZ G7 GU HO\n\nEK EA E8 E7\n\n'
            'HK S7 EU SU\n\n[Game "Kratzen"]\n[Board "2"]\n')
    results = list(iter_records(io.StringIO(text), name="spaced.tbn"))
    errors = [(item.line, item.column) for item in results if isinstance(item, ParseError)]
    assert errors == ([(6, 1)] if first_tag.endswith('1"]') else [(2, 8), (6, 1)])
    assert [item.get("Board") for item in results if not isinstance(item, ParseError)] == (
        ["1", "2"] if first_tag.endswith('1"]') else ["2"])
    paragraphs = list(iter_records(io.StringIO('[Deal "oops]\n\none\n\ntwo\n\nthree\n\n[Board "3"]\n'), name="p.tbn"))
    assert [(item.line, item.column) if isinstance(item, ParseError) else item.get("Board") for item in paragraphs] == [
        (1, 7), (3, 1), "3"]


def test_iter_records_after_unclosed_brace():
    text = '[Game "a"] {oops\n\n[Game "b"]\n'
    results = list(iter_records(io.StringIO(text)))
    assert isinstance(results[0], ParseError) and (results[0].line, results[0].column) == (1, 12)
    assert isinstance(results[1], Record) and results[1].get("Game") == "b"


def test_iter_records_unclosed_brace_at_end():
    results = list(iter_records(io.StringIO('[A "1"]\n\n[B "2"] {oops\n')))
    assert isinstance(results[0], Record)
    assert isinstance(results[1], ParseError) and results[1].message == "unclosed brace comment"


class GuardedStream(io.StringIO):
    """A stream that fails the test if more than ``allowed`` lines are read."""

    def __init__(self, text: str, allowed: int) -> None:
        super().__init__(text)
        self.allowed = allowed
        self.lines_read = 0

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        if self.lines_read >= self.allowed:
            raise AssertionError("read past the first record")
        self.lines_read += 1
        return super().readline(size)

    def read(self, size: int | None = -1) -> str:  # type: ignore[override]
        raise AssertionError("the reader must not read the whole stream")


def test_first_record_is_yielded_before_the_stream_is_exhausted():
    text = '[Game "a"]\n[Play "1"]\nT1 T2\n*\n\n[Game "b"]\n' + "".join(f'[X{i} "y"]\n' for i in range(999))
    stream = GuardedStream(text, allowed=5)
    records = read_records(stream)
    first = next(records)
    assert first.get("Game") == "a"
    assert stream.lines_read == 5
    stream.allowed = 10_000
    assert next(records).get("Game") == "b"


def test_iter_records_is_streaming_too():
    stream = GuardedStream('[Game "a"]\n\n[Game "b"]\n', allowed=2)
    assert next(iter_records(stream)).get("Game") == "a"  # type: ignore[union-attr]


def test_read_records_from_path_and_stream_names(tmp_path):
    path = tmp_path / "g.tbn"
    path.write_text('[Game "x"]\nT1\n', encoding="utf-8")
    with pytest.raises(ParseError) as info:
        list(read_records(str(path)))
    assert info.value.source == str(path)
    with path.open(encoding="utf-8") as stream:
        with pytest.raises(ParseError) as info:
            list(read_records(stream))
    assert info.value.source == str(path)
    with pytest.raises(ParseError) as info:
        list(read_records(io.StringIO("T1\n")))
    assert info.value.source == "<stream>"


# ---------------------------------------------------------------------------------------------------------------------
# The Record API


def test_get_set_remove():
    (record,) = parse_records('[Game "x"]\n[Result "old"]\n[Play "1"]\nT1\n*\n')
    assert record.get("missing") is None and record.get("missing", "d") == "d"
    record.set("RESULT", "new")
    assert record.tags[1].name == "Result" and record.get("result") == "new"
    record.set("Event", "appended")
    assert record.tags[-1].name == "Event"
    record.set("play", "3")
    assert record.play is not None and record.play.leader.text == "3" and record.get("Play") == "3"
    record.remove("result")
    assert record.tag("Result") is None and [t.name for t in record.tags] == ["Game", "Play", "Event"]
    record.remove("nothing")
    (again,) = parse_records(format_record(record))
    assert summary(again) == summary(record)


def test_remove_play_keeps_its_comments():
    (record,) = parse_records('[Game "x"]\n[Play "1"]\nT1 {c}\n*\n')
    record.remove("Play")
    assert record.play is None
    assert format_record(record) == '[Game "x"]\n{c}\n'


def test_set_play_creates_a_section():
    record = Record([Tag("Game", "x")])
    record.set("Play", "2")
    assert record.play == PlaySection(Token("2", 0, 0))
    assert format_record(record) == '[Game "x"]\n[Play "2"]\n'


def test_set_rejects_what_cannot_be_written():
    record = Record([])
    with pytest.raises(ValueError):
        record.set("bad name", "x")
    with pytest.raises(ValueError):
        record.set("Note", "two\nlines")


def test_built_record_is_written():
    play = PlaySection(Token("1", 0, 0), [[Token("T1", 0, 0), Token("T2", 0, 0)], []], terminated=False)
    record = Record([Tag("Game", "x")], play,
                    comments=[Comment("% top"), Comment("{mid}", after_tags=2, play_line=0, play_token=1)])
    assert format_record(record) == '% top\n[Game "x"]\n[Play "1"]\nT1 {mid} T2\n'


@pytest.mark.parametrize(
    "record",
    [
        Record([Tag("Game", 'x"y\n')]),
        Record([Tag("Ga me", "x")]),
        Record([Tag("Play", "1")], PlaySection(Token("1", 0, 0), [[Token("T 1", 0, 0)]])),
        Record([Tag("Play", "1")], PlaySection(Token("1", 0, 0), [[Token("*", 0, 0)]])),
        Record([Tag("Game", "x")], comments=[Comment("no delimiter")]),
        Record([Tag("Game", "x")], comments=[Comment("{a } b}")]),
        Record([Tag("Game", "x")], comments=[Comment("{a\n\nb}")]),
        Record([Tag("Game", "x")], comments=[Comment("% two\nlines")]),
    ],
)
def test_format_rejects_unwritable_records(record):
    with pytest.raises(ValueError):
        format_record(record)


# Line endings and comments the reader and the writer must refuse ----------------------------------------------------

def test_lf_cr_lf_and_cr_line_endings_read_alike():
    """FORMAT.md forbids no line end, so the reader takes LF, CR LF and CR (old Mac files) alike, in one file too:
    each record reads as its LF text does and its lines are counted at every CR (read as one line, a CR-only file's
    ';' comment would hide every tag after it)."""
    text = '[Game "Kratzen"]\n[Deal "EA EK EO / GA GK GO / HA HK HO"]\n; seat 2 attacks\n[Declarer "2"]\n\n'
    text += '[Game "Kratzen"]\n[Deal "EA EK EO / GA GK GO / HA HK HO"]\n'
    expected = [format_record(record) for record in parse_records(text)]
    for ending in ("\r", "\r\n"):
        ended = text.replace("\n", ending)
        assert [format_record(record) for record in parse_records(ended)] == expected
        assert [format_record(record) for record in read_records(io.BytesIO(ended.encode()))] == expected
    mixed = text.replace("\n", "\r", 2).replace("\n", "\r\n", 2)
    assert [format_record(record) for record in read_records(io.BytesIO(mixed.encode()))] == expected
    records = parse_records(text.replace("\n", "\r"))
    assert [record.tag("Declarer").line for record in records[:1]] == [4] and records[1].line == 6


@pytest.mark.parametrize("ending", ["\n", "\r\n", "\r"])
def test_a_bad_token_is_placed_by_line_and_column_whatever_the_line_endings(tmp_path, ending):
    """A bad card on line 3 of a file written with CR line ends is said at line 3 and its column, as with LF, by the
    library and by the command line (one record after it still read)."""
    lines = ['[Game "Kratzen"]', '[Declarer "2"]', '[Deal "EA EK EO / GA GK XX / HA HK HO"]', '[Contract "Trump E"]',
             "", '[Game "Kratzen"]', '[Deal "EA EK EO / GA GK GO / HA HK HO"]', '[Contract "Trump E"]', ""]
    path = tmp_path / "cr.tbn"
    path.write_bytes(ending.join(lines).encode())
    first, second = iter_records(path)
    assert first.tag("Deal").value_line == 3 and (second.line, second.tag("Deal").value_line) == (6, 7)
    with pytest.raises(ParseError) as caught:
        list(solver.read_positions(path))
    assert (caught.value.line, caught.value.column, caught.value.token) == (3, 25, "XX")
    from typer.testing import CliRunner

    from cli.main import app

    result = CliRunner().invoke(app, ["show", str(path)])
    assert result.exit_code == 1 and result.stderr.startswith(f"stich: {path}:3:25: seat 2: not a card of the "
                                                              "Kratzen pack")
    assert "Seat 1" in result.stdout  # the record after it


def test_lf_lines_are_given_as_read_and_only_lines_with_a_cr_are_searched(monkeypatch):
    """The reader splits lines at CR too, but an LF-ended line without a CR is the stream's own line: it is given as
    read, not searched again for its end (that search cost a tenth of the parse of an LF file); a line with a CR
    still is, and every line and column is counted alike."""
    import solver.formats.tbn as tbn

    searched: list[object] = []

    class Counted:
        def __init__(self, pattern):
            self.pattern = pattern

        def search(self, *args):
            searched.append(args[0][args[1]:args[1] + 8])
            return self.pattern.search(*args)

    monkeypatch.setattr(tbn, "_BREAK", Counted(tbn._BREAK))
    monkeypatch.setattr(tbn, "_BREAK_BYTES", Counted(tbn._BREAK_BYTES))
    text = '[Game "Kratzen"]\n[Board "1"]\n[Deal "EA EK EO / GA GK GO / HA HK HO"]\n\n'
    for source in (io.StringIO(text, newline="\n"), io.BytesIO(text.encode())):
        (record,) = read_records(source)
        assert record.tag("Deal").value_line == 3 and record.get("Board") == "1"
    assert searched == []
    mixed = text.replace("\n", "\r\n", 1)
    (record,) = read_records(io.BytesIO(mixed.encode()))
    assert record.tag("Deal").value_line == 3 and record.tag("Deal").value_column == 8
    assert searched == [b'[Game "K']  # only the CR LF line


@pytest.mark.parametrize("text", [b'[Game "Kratzen"]\n[Board "1"]\n', b'[Game "Kratzen"]\r[Board "1"]\r',
                                  b'[Game "Kratzen"]\r\n[Board "1"]'])
def test_the_end_of_the_stream_is_read_once(text):
    """A terminal's standard input ends at a Ctrl-D, and a read after it waits for another: the reader reads the
    stream's end once, whatever the last line ends with (a CR last too, not read past for its LF and then again)."""
    class Terminal(io.BytesIO):
        ends = 0

        def readline(self, limit=-1):
            line = super().readline(limit)
            self.ends += not line
            return line

    stream = Terminal(text)
    (record,) = iter_records(stream)
    assert record.get("Board") == "1" and stream.ends == 1


def test_cr_only_lines_past_the_read_limit_are_read_line_by_line():
    """A CR-only file longer than one read of the stream (its lines are found in what was read past a line's end):
    every record read, their lines counted right."""
    record = '[Game "Kratzen"]\r[Board "{n}"]\r[Deal "EA EK EO / GA GK GO / HA HK HO"]\r\r'
    text = "".join(record.format(n=n) for n in range(1, 6001))
    assert len(text) > 400_002  # tbn._READ_LIMIT
    records = list(read_records(io.BytesIO(text.encode())))
    assert len(records) == 6000 and records[-1].get("Board") == "6000" and records[-1].line == 4 * 5999 + 1


class _Arriving(io.RawIOBase):
    """A pipe's end: each read gives the next piece written, as a pipe gives what has arrived; ``waits`` counts the
    reads made past the pieces (a pipe kept open would block there)."""

    def __init__(self, pieces: list[bytes]) -> None:
        self.pieces, self.waits = list(pieces), 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        if not self.pieces:
            self.waits += 1
            return 0
        piece = self.pieces.pop(0)
        buffer[:len(piece)] = piece
        return len(piece)


def test_a_cr_only_record_is_given_from_what_has_arrived():
    """A CR-only record on a buffered stream (standard input) is given once its blank line has arrived, without a read
    past it (the stream's readline would wait for an LF, 400 KB or the end); a CR LF whose LF comes in the next piece is
    one line end, and an LF file on such a stream reads as it does elsewhere."""
    record = '[Game "Kratzen"]\r[Board "{n}"]\r[Deal "EA EK EO / GA GK GO / HA HK HO"]\r\r'
    raw = _Arriving([record.format(n=1).encode(), record.format(n=2).replace("\r", "\r\n").encode()[:-1], b"\n"])
    records = iter_records(io.BufferedReader(raw))
    first = next(records)
    assert first.get("Board") == "1" and raw.waits == 0 and raw.pieces  # the second record not yet read
    rest = list(records)
    assert [(r.get("Board"), r.line, r.tag("Deal").value_line) for r in rest] == [("2", 5, 7)]
    lf = _Arriving([record.format(n=3).replace("\r", "\n").encode()])
    stream = io.BufferedReader(lf)
    (third,) = iter_records(stream)
    assert third.get("Board") == "3" and third.tag("Deal").value_line == 3


def _written_to_an_open_pipe(pieces: list[bytes], answered: threading.Event) -> tuple[io.BufferedReader, list]:
    """The reading end of a real pipe a thread writes ``pieces`` into, keeping it open until ``answered`` is set or
    60 s have gone by; ``said`` then holds whether it was set before the close (a reader that waited for more input
    or the pipe's end sets it only after)."""
    read_end, write_end = os.pipe()
    said: list[bool] = []

    def write() -> None:
        with open(write_end, "wb", buffering=0) as stream:
            for piece in pieces:
                stream.write(piece)
            said.append(answered.wait(60))

    threading.Thread(target=write, daemon=True).start()
    return open(read_end, "rb"), said


@pytest.mark.parametrize("second_end", ["\r", "\r\n"])
def test_a_record_after_lf_ones_is_given_from_a_pipe_kept_open(second_end):
    """A producer (a bot, ``tail -f``) writes LF records and then a CR-only one into a pipe it keeps open: the CR-only
    record is given when its blank line has arrived, before the pipe is closed (a reader that read the stream to LFs
    since its first line would wait for an LF or the end); a CR LF one likewise."""
    record = '[Game "Kratzen"]{e}[Board "{n}"]{e}[Deal "EA EK EO / GA GK GO / HA HK HO"]{e}{e}'
    pieces = [record.format(e="\n", n=1).encode() + record.format(e="\n", n=2).encode(),
              record.format(e=second_end, n=3).encode()]
    answered = threading.Event()
    stream, said = _written_to_an_open_pipe(pieces, answered)
    with stream:
        records = iter_records(stream)
        got = [next(records) for _ in range(3)]
        answered.set()
        assert list(records) == []
    assert said == [True]  # the third record came while the pipe was open
    assert [(r.get("Board"), r.line, r.tag("Deal").value_line) for r in got] == [("1", 1, 3), ("2", 5, 7), ("3", 9, 11)]


@pytest.mark.parametrize("ends", [("\n", "\r"), ("\n", "\n"), ("\r\n", "\r\n")])
def test_the_end_of_a_stream_that_can_wait_is_read_once(ends):
    """A stream that can wait (no regular file: peeked at before each line, for an LF) is read past its end once, as
    a terminal's standard input must be (a second read waits for another Ctrl-D), whatever its lines end with."""
    record = '[Game "Kratzen"]{e}[Board "{n}"]{e}[Deal "EA EK EO / GA GK GO / HA HK HO"]{e}{e}'
    raw = _Arriving([record.format(e=ends[0], n=1).encode(), record.format(e=ends[1], n=2).encode()[:-1]])
    records = list(iter_records(io.BufferedReader(raw)))
    assert [(r.get("Board"), r.line) for r in records] == [("1", 1), ("2", 5)] and raw.waits == 1


def test_a_cr_at_the_end_of_what_has_arrived_ends_its_line_at_once():
    """A CR-only blank line that is the last of what has arrived ends its record at once, as an LF one does: it is
    not held back to see whether an LF follows (docs/format.md). An LF that then comes first is that CR's (a CR LF
    cut in two by the writes), so the lines after it keep their numbers."""
    record = '[Game "Kratzen"]{e}[Board "{n}"]{e}[Deal "EA EK EO / GA GK GO / HA HK HO"]{e}{e}'
    answered = [threading.Event(), threading.Event()]
    read_end, write_end = os.pipe()
    closed_after: list[bool] = []

    def write() -> None:
        with open(write_end, "wb", buffering=0) as stream:
            stream.write(record.format(e="\n", n=1).encode() + record.format(e="\r\n", n=2).encode()[:-1])
            closed_after.append(answered[0].wait(60))
            stream.write(b"\n" + record.format(e="\r", n=3).encode())
            closed_after.append(answered[1].wait(60))

    threading.Thread(target=write, daemon=True).start()
    with open(read_end, "rb") as stream:
        records = iter_records(stream)
        got = [next(records), next(records)]
        answered[0].set()
        got.append(next(records))
        answered[1].set()
        assert list(records) == []
    assert closed_after == [True, True]
    assert [(r.get("Board"), r.line) for r in got] == [("1", 1), ("2", 5), ("3", 9)]


class _CountedSearch:
    """A compiled pattern whose ``search`` counts the characters it scanned (to its match, or to its stop)."""

    def __init__(self, pattern) -> None:
        self.pattern, self.scanned = pattern, 0

    def search(self, text, pos: int, endpos: int):
        found = self.pattern.search(text, pos, endpos)
        self.scanned += (found.end() if found else min(endpos, len(text))) - pos
        return found


def test_long_lines_through_a_pipe_are_searched_once(monkeypatch):
    """Forty comment lines of 98 KB and a 5 MB line through a pipe, which gives a few KB at a time: each byte is
    searched for a line break at most once (not again from the line's start at each piece, ten times a file's time),
    and every record and the over-long line's error are read."""
    import solver.formats.tbn as tbn

    counted = _CountedSearch(tbn._BREAK_BYTES)
    monkeypatch.setattr(tbn, "_BREAK_BYTES", counted)
    data = b"".join(b"% " + b"x" * 98_000 + b'\n[Board "%d"]\n\n' % n for n in range(1, 41))
    data += b"y" * 5_000_000 + b'\n\n[Board "41"]\n'
    written = threading.Event()
    written.set()  # the pipe is closed once all is written
    stream, said = _written_to_an_open_pipe([data], written)
    with stream:
        items = list(iter_records(stream))
    assert [item.get("Board") for item in items if not isinstance(item, ParseError)] == [str(n) for n in range(1, 42)]
    (error,) = [item for item in items if isinstance(item, ParseError)]
    assert items.index(error) == 40 and error.line == 121 and "longer than" in error.message
    assert 0 < counted.scanned <= len(data)


def test_a_cr_inside_a_line_read_from_memory_keeps_the_blank_line_after_it():
    """A stray CR inside a line of text in memory (a paste, ``parse_records``) is a line break, and the blank line
    that follows the next line still ends its record (that CR is not one at the end of a read, whose LF comes next:
    taken for it, the blank line's LF would be skipped and two records run together, "duplicate tag Game")."""
    record = '[Game "Kratzen"]\n[Board "{n}"]\n[Deal "EA EK EO / GA GK GO / HA HK HO"]\n\n'
    text = record.format(n=1).replace('[Board "1"]\n', '[Board "1"]\r', 1) + record.format(n=2)
    for records in (parse_records(text), list(read_records(io.BytesIO(text.encode())))):
        assert [(r.get("Board"), r.line) for r in records] == [("1", 1), ("2", 5)]


def test_a_stray_cr_in_an_lf_file_leaves_the_rest_read_to_lfs(tmp_path):
    """One CR alone inside a line of an LF file (a file or a pipe, which is peeked at) is a line break and turns the
    reader to what has arrived; the next piece, LF-ended with no CR, turns it back to reading lines to an LF: every
    record read, its lines numbered as the CR makes them."""
    import solver.formats.tbn as tbn

    record = '[Game "Kratzen"]\n[Board "{n}"]\n[Deal "EA EK EO / GA GK GO / HA HK HO"]\n\n'
    text = record.format(n=1).replace('[Board "1"]\n', '[Board "1"]\r[Dealer "Vorhand"]\n', 1)
    text += "".join(record.format(n=n) for n in range(2, 5))
    path = tmp_path / "stray-cr.tbn"
    path.write_bytes(text.encode())
    with path.open("rb") as stream:
        records = list(iter_records(stream))
    assert [(r.get("Board"), r.line) for r in records] == [("1", 1), ("2", 6), ("3", 10), ("4", 14)]
    assert records[0].get("Dealer") == "Vorhand"
    with path.open("rb") as stream:
        reader = tbn._LineReader(stream)
        lines = [reader.readline(tbn._READ_LIMIT), reader.readline(tbn._READ_LIMIT)]
        assert lines == [b'[Game "Kratzen"]\n', b'[Board "1"]\r'] and reader.read_mode == "cr"
        lines = [reader.readline(tbn._READ_LIMIT) for _ in range(3)]
        assert lines == [b'[Dealer "Vorhand"]\n', b'[Deal "EA EK EO / GA GK GO / HA HK HO"]\n', b"\n"]
        assert reader.readline(tbn._READ_LIMIT) == b'[Game "Kratzen"]\n' and reader.read_mode == "lf"


def test_writer_refuses_a_line_comment_between_cards():
    """A ';' comment inside a card line would end the line and split the trick; a brace comment stands there."""
    text = ('[Game "Zwanzigerrufen"]\n[Deal "1: TS T21 / T18 T17 / T14 T13 / T10 T9"]\n[Contract "Solo"]\n'
            '[Play "1"]\nTS T18 T14 T10\nT21 T17 T13 T9\n')
    record = parse_records(text)[0]
    record.comments.append(Comment("; lead", after_tags=4, play_line=0, play_token=1))
    with pytest.raises(ValueError, match="cannot stand between two cards"):
        format_record(record)
    record.comments[-1] = Comment("{lead}", after_tags=4, play_line=0, play_token=1)
    written = format_record(record)
    assert "TS {lead} T18 T14 T10" in written
    assert format_record(parse_records(written)[0]) == written


SCHAFKOPF_DEAL = ('[Game "Schafkopf"]\n[Deal "1: EZ EK EU GZ GK HA H8 H7 / EA G8 G7 H9 SZ SO SU S7 / '
                  'EO E9 GA GO GU G9 HK SK / E8 E7 HZ HO HU SA S9 S8"]\n[Contract "Rufer E"]\n')


def test_playing_on_keeps_a_line_comment_at_the_end_of_the_trick_in_progress():
    """A ';' comment that ends the line of a trick in progress stays at its end when the trick is played on (the what-if
    of `stich show --play`, the board's Save .tbn): it runs to the end of the line, so the record could not be written
    at all with the comment before the cards that follow it."""
    from solver.position import position_from_record

    text = SCHAFKOPF_DEAL + '[Play "1"]\nEK EA ; seat 2 takes it\n'
    position = position_from_record(parse_records(text)[0]).play("E9").play("E8").play("G8")
    written = position.to_tbn()
    assert written.endswith('[Play "1"]\nEK EA E9 E8 ; seat 2 takes it\nG8\n')
    again = position_from_record(parse_records(written)[0])
    assert again.played == position.played
    assert [comment.text for comment in again.record.comments] == ["; seat 2 takes it"]


def test_playing_on_leaves_a_brace_comment_after_the_card_it_followed():
    from solver.position import position_from_record

    text = SCHAFKOPF_DEAL + '[Play "1"]\nEK EA {good}\n'
    written = position_from_record(parse_records(text)[0]).play("E9").to_tbn()
    assert written.endswith('[Play "1"]\nEK EA {good} E9\n')


ANNOTATED_PLAY = ('[Result "declarers 61"]\n[Play "1"]\n% the opening\nEK {the ace?} EA E9 E8 ; seat 2 wins\nG8\n*\n'
                  '[Annotator "Anna"]\n')


def test_board_save_of_the_record_as_it_was_writes_it_back_unchanged():
    """Save .tbn keeps "its other tags and comments" (docs/board.md): opened and saved at its own last card, a
    record's Result tag, its Play section's place and the comments between its cards all come back as they were."""
    from solver.board.session import Boards, saved_record

    text = SCHAFKOPF_DEAL + ANNOTATED_PLAY
    board = Boards().add(parse_records(text)[0], "annotated.tbn")
    assert saved_record(board, ["EK", "EA", "E9", "E8", "G8"]) == text + "\n"


def test_board_save_of_a_continued_record_keeps_its_comments_in_place():
    from solver.board.session import Boards, saved_record

    board = Boards().add(parse_records(SCHAFKOPF_DEAL + ANNOTATED_PLAY)[0], "annotated.tbn")
    saved = saved_record(board, ["EK", "EA", "E9", "E8", "G8", "G9"])
    assert "[Result" not in saved  # the result of the game as it was played then is not this game's
    assert saved.endswith('[Play "1"]\n% the opening\nEK {the ace?} EA E9 E8 ; seat 2 wins\nG8 G9\n*\n'
                          '[Annotator "Anna"]\n\n')


def test_a_word_that_is_no_card_is_named_before_the_length_of_its_trick():
    """A trick number written before a card line ('1. EK EA E9 E8', as a score sheet has it) is the offending token,
    not the line's last card: the error points at it, not at a trick of five cards."""
    from solver.position import position_from_record

    record = parse_records(SCHAFKOPF_DEAL + '[Play "1"]\n1. EK EA E9 E8\n')[0]
    with pytest.raises(ParseError) as caught:
        position_from_record(record)
    assert (caught.value.line, caught.value.column, caught.value.token) == (5, 1, "1.")
    assert "not a card of the Schafkopf pack" in str(caught.value)


ZWANZIGERRUFEN_DEAL = ("4: T19 T14 T1 SK SN HQ HN HJ DJ DG / TS T20 T18 T16 T13 T12 T11 T5 SQ DN / "
                       "T21 T17 T9 T8 T4 SG CQ CN HK DQ / T15 T10 T7 T6 SJ CK CJ CG HG DK")
KRATZEN_DEAL = "2: GA GK G9 HZ / EU G7 H9 SU / S6 EK H8 S8"
#: One record of each game with every tag FORMAT.md names that the game has, escapes, comments and a played trick.
FORMAT_RECORDS = [
    '[Game "Zwanzigerrufen"]\n[Event "Club \\"Zum Stich\\", table 3 \\\\ back room"]\n[Board "7"]\n'
    '[Variant "sagotrick=mond_skus_pagat, solo_value=5"]\n'
    f'[Deal "{ZWANZIGERRUFEN_DEAL}"]\n[Contract "Normal T19"]\n[Declarer "1"]\n'
    '[Announcements "2: Kontra, Absolut dagegen; 3: Kontra Absolut; 4: Pagat dagegen; 1: Kontra Pagat"]\n'
    '[Result "declarers 35"]\n[Play "1"]\n% the lead\nT16 {trumps} T21 T15 T19\n*\n',
    SCHAFKOPF_DEAL + '[Declarer "1"]\n[Variant "laufende_mode=only_if_holder_wins"]\n[Play "1"]\nEK EA E9 ; a trick\n',
    f'[Game "Kratzen"]\n[Seats "3"]\n[Deal "{KRATZEN_DEAL}"]\n[Contract "Trump S SevenMuss"]\n[Declarer "2"]\n'
    '[Pot "12"]\n[Play "2"]\nGA G7 S6\n*\n',
]


@pytest.mark.parametrize("text", FORMAT_RECORDS, ids=["zwanzigerrufen", "schafkopf", "kratzen"])
def test_every_game_round_trips_through_the_writer(text):
    """FORMAT.md's tags of each game, read and written back (``Position.to_tbn``), read again to the same tags,
    comments and position; played on one card, to the same position as played in Python."""
    from solver.position import position_from_record

    position = position_from_record(parse_records(text)[0])
    written = position.to_tbn()
    assert written == text
    again = position_from_record(parse_records(written)[0])
    assert (again.rules, again.state, again.played) == (position.rules, position.state, position.played)
    card = next(iter(position.legal_cards()))
    further = position_from_record(parse_records(position.play(card).to_tbn())[0])
    assert further.state == position.play(card).state


def test_a_hand_edited_file_reads_as_the_written_one(tmp_path):
    """What FORMAT.md leaves to taste reads the same: a BOM, CR LF line ends, trailing whitespace, blank lines of
    spaces between records, upper-case tag names, lower-case cards, contracts and game names, spaces around values."""
    from solver.position import position_from_record

    edited = ('[GAME " schafkopf "]  \r\n[DEAL "1: ez ek eu gz gk ha h8 h7 / ea g8 g7 h9 sz so su s7 / '
              'eo e9 ga go gu g9 hk sk / e8 e7 hz ho hu sa s9 s8 "]\t\r\n[contract "rufer  e"]\r\n'
              '[PLAY "1"]\r\nek ea e9 ; a trick\r\n  \r\n \t\r\n')
    edited = "\ufeff" + edited * 2
    path = tmp_path / "edited.tbn"
    path.write_bytes(edited.encode())
    plain = position_from_record(parse_records(FORMAT_RECORDS[1])[0])
    positions = [position_from_record(record) for record in read_records(path)]
    assert len(positions) == 2
    for position in positions:
        assert (position.rules.contract, position.played, position.state.hands) == \
            (plain.rules.contract, plain.played, plain.state.hands)


def test_files_that_start_with_a_byte_order_mark_can_be_concatenated(tmp_path):
    """`cat a.tbn b.tbn` of two files saved by a Windows editor puts the second one's BOM at the start of a line in
    the middle: it is skipped there too (it is invisible), not refused as a card before any tag."""
    saved = "\ufeff" + SCHAFKOPF_DEAL.replace("\n", "\r\n") + "\r\n"
    path = tmp_path / "both.tbn"
    path.write_bytes((saved + saved).encode())
    records = list(read_records(path))
    assert [record.line for record in records] == [1, 5]
    assert records[1].tag("Game").column == 1
    # a line of a BOM alone inside a record is no appended file: refused at it, not read as the record's end
    lines = SCHAFKOPF_DEAL.splitlines()
    path.write_text("\n".join([lines[0], "\ufeff", *lines[1:]]) + "\n", encoding="utf-8")
    errors = [item for item in iter_records(path) if isinstance(item, ParseError)]
    assert [(error.line, error.column) for error in errors] == [(2, 1)], errors
    assert "a byte order mark alone on a line inside a record" in str(errors[0])


def test_a_file_whose_first_line_is_a_byte_order_mark_alone_can_be_appended(tmp_path):
    """A file a Windows editor saved with an empty first line starts with a line of its BOM alone; appended to a file
    stich wrote (`cat a.tbn b.tbn`, a blank line after a's last record) that line stands between records, where it
    is as blank as the same file read alone: every record of both files is read, the one right after it too."""
    written = SCHAFKOPF_DEAL + "\n"
    saved = "\ufeff\r\n" + SCHAFKOPF_DEAL.replace("\n", "\r\n")
    path = tmp_path / "both.tbn"
    path.write_bytes((written + saved + "\r\n" + " \ufeff \r\n" + saved).encode())
    assert [item.line if isinstance(item, Record) else str(item) for item in iter_records(path)] == [1, 6, 12]
    # after stray text between records (said once, and skipped to a block that can start a record) it is as blank
    stray = '[Game "x"]\n[Play "1"]\nT1\n\nT2\n\n\ufeff\n[Game "y"]\n'
    read = list(iter_records(io.BytesIO(stray.encode())))
    assert [(type(item).__name__, item.line) for item in read] == [("Record", 1), ("ParseError", 5), ("Record", 8)]


def test_a_file_with_a_byte_order_mark_line_appended_to_one_without_a_final_blank_line_loses_no_record(tmp_path):
    """`cat a.tbn w.tbn` of a file without a final blank line and a Windows file that starts with a line of its BOM
    alone puts that line inside a's last record, where the reader cannot tell an appended file from a stray BOM:
    it is said there (the record's error), and what follows is read as between records, so that every record of
    both files is accounted for: the appended file's first record is read, not skipped as the bad record's rest.
    The same after a record already bad before the BOM line (a broken tag): its rest ends at the BOM line."""
    lines = SCHAFKOPF_DEAL.splitlines()
    windows = "\ufeff\r\n" + SCHAFKOPF_DEAL.replace("\n", "\r\n") + "\r\n" + SCHAFKOPF_DEAL.replace("\n", "\r\n")
    path = tmp_path / "cat.tbn"
    path.write_bytes((SCHAFKOPF_DEAL + windows).encode())
    read = [(type(item).__name__, item.line) for item in iter_records(path)]
    assert read == [("ParseError", 4), ("Record", 5), ("Record", 9)]
    broken = "\n".join([lines[0], '[Dealer "1', *lines[1:]]) + "\n"
    path.write_bytes((broken + windows).encode())
    read = [(type(item).__name__, item.line) for item in iter_records(path)]
    assert read == [("ParseError", 2), ("Record", 6), ("Record", 10)]


def test_writing_records_as_they_are_read_keeps_the_comments_after_the_last_one(tmp_path):
    """Comments after a file's last record belong to it but reach it when the file ends, after ``write_records`` of
    a generator wrote it: they are written after its blank line, where they stood, so that the text written reads
    back as the file does, whether the records come as they are read, as a list, or as positions."""
    path = tmp_path / "tail.tbn"
    path.write_text(f"{SCHAFKOPF_DEAL}\n% between\n\n{SCHAFKOPF_DEAL}\n% tail\n{{one more}}\n", encoding="utf-8")
    expected = [format_record(record) for record in list(read_records(path))]
    last = parse_records(path.read_text(encoding="utf-8"))[-1]
    assert [comment.text for comment in last.comments] == ["% between", "% tail", "{one more}"]
    for records in (read_records(path), list(read_records(path)), solver.read_positions(path)):
        out = io.StringIO()
        write_records(records, out)
        assert [format_record(record) for record in parse_records(out.getvalue())] == expected
    streamed = io.StringIO()
    write_records(read_records(path), streamed)
    assert streamed.getvalue().endswith("\n\n% tail\n{one more}\n")
    written = tmp_path / "written.tbn"
    write_records(read_records(path), written)
    assert written.read_text(encoding="utf-8") == streamed.getvalue()


def test_a_position_read_with_variant_flags_writes_them_into_its_record():
    """``--variant`` (``position_from_record(..., variant=)``) overrides the record's [Variant]; the record written
    from the position (``stich show --tbn``) must carry the flags it was played under, or a what-if saved as a file
    reads back under other rules (here another first leader, under which the saved trick is not legal)."""
    from solver.position import position_from_record

    text = f'[Game "Kratzen"]\n[Deal "{KRATZEN_DEAL}"]\n[Contract "Trump S"]\n[Declarer "2"]\n'
    position = position_from_record(parse_records(text)[0], variant="first_leader=forehand").play_cards("S6 GA SU")
    written = position.to_tbn()
    assert '[Variant "first_leader=forehand"]' in written
    again = position_from_record(parse_records(written)[0])
    assert (again.rules, again.state) == (position.rules, position.state)
    assert parse_records(text)[0].get("Variant") is None  # the record read is left as it was
    # flags the file already says are no override: its tag stays as written; a real one drops the [Result] that
    # was worked out under the file's flags
    tagged = text + '[Variant "must_undertrump=true, first_leader=forehand"]\n[Result "1"]\n'
    same = position_from_record(parse_records(tagged)[0], variant="first_leader=forehand").to_tbn()
    assert '[Variant "must_undertrump=true, first_leader=forehand"]' in same and '[Result "1"]' in same
    other = position_from_record(parse_records(tagged)[0], variant="first_leader=attacker").to_tbn()
    assert "[Result" not in other and "[Variant" not in other  # the defaults are written as no tag


def test_a_tag_without_its_opening_bracket_is_named_as_one():
    """`Game "Kratzen"]` (the '[' lost in editing): the error points at the name and says the '[' is missing, not a
    stray '"' outside a tag."""
    with pytest.raises(ParseError) as caught:
        parse_records('[Board "1"]\nGame "Kratzen"]\n', name="game.tbn")
    assert str(caught.value) == ("game.tbn:2:1: a tag without its '[' (got 'Game', expected '[' before the tag "
                                 "name)")


def test_cards_after_a_blank_line_in_a_play_section_say_why():
    """A blank line ends a record, also between two tricks: the cards after it start no record, and the error says
    what most likely happened instead of only asking for a tag."""
    records = list(iter_records(io.StringIO(SCHAFKOPF_DEAL + '[Play "1"]\nEK EA E9 E8\n\nG8 G9\n'), name="game.tbn"))
    assert isinstance(records[0], Record) and len(records[0].play.tricks) == 1
    error = records[1]
    assert isinstance(error, ParseError) and (error.line, error.column, error.token) == (7, 1, "G8")
    assert "cards before any tag (a blank line ends a record: one inside the Play section above?)" in str(error)


def test_iter_records_first_reads_past_its_last_record_only_over_comments_and_a_few_blank_lines(tmp_path):
    """``first=N`` gives record N the comments that end a file, as a whole reading does, but reads past it only over
    comments and at most MAX_BLANK_LINES_AHEAD blank lines, the one that ends record N among them (docs/format.md):
    what follows the record asked for costs a few lines, however many blank lines or records the file has after it."""
    record = '[Game "Kratzen"]\n[Deal "1: E9 EK / HA G7 / H7 G8"]\n[Contract "Trump H"]\n'
    path = tmp_path / "deals.tbn"

    def tail_of(text: str, first: int) -> list[str]:
        path.write_text(text, encoding="utf-8")
        items = iter_records(path, first=first)
        answered = list(items)
        return [comment.text for comment in answered[-1].comments]

    assert tail_of(f"{record}\n% one\n\n{{two}}\n", 1) == ["% one", "{two}"]
    assert tail_of(f"{record}\n% one\n{record}\n% two\n", 1) == []  # a record follows: no tail, none read
    assert tail_of(f"{record}\n% one\n[Game \"bad\n", 1) == []  # a bad record after it is not said either
    assert tail_of(f"{record}\n% one\n{record}\n% two\n", 2) == ["% one", "% two"]  # its head, its tail
    # each "\n" after the record's own line break is one blank line, the first of them the one that ends it
    assert tail_of(record + "\n" * MAX_BLANK_LINES_AHEAD + "% end\n", 1) == ["% end"]
    assert tail_of(record + "\n" * (MAX_BLANK_LINES_AHEAD + 1) + "% end\n", 1) == []  # read no further
    assert tail_of(f"{record}\n% one\n" + "\n" * (MAX_BLANK_LINES_AHEAD - 1) + "% end\n", 1) == ["% one", "% end"]
    assert tail_of(f"{record}\n% one\n" + "\n" * MAX_BLANK_LINES_AHEAD + "% end\n", 1) == []  # all blank lines count
    assert [type(item) for item in iter_records(path, first=0)] == []
    with pytest.raises(StichError, match="first is a count of records"):
        list(iter_records(path, first=-1))
    assert tail_of(f"{record}\n% one\n", 1) == [c.text for c in list(iter_records(path))[-1].comments]


def test_a_bracket_alone_typed_at_a_terminal_is_said_without_waiting_for_the_next_line():
    """A '[' alone is told a JSON array's opening or not by the line after it, which a terminal gives only once the
    user has typed it: there it is said as the tag it starts, at once; from a file the next line tells it an array."""
    keyboard, terminal = os.openpty()
    said: queue.Queue = queue.Queue()

    def read() -> None:
        with open(terminal, "rb") as stream:
            try:
                list(read_records(stream, name="<stdin>"))
            except ParseError as error:
                said.put(error)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        os.write(keyboard, b"[\n")
        error = said.get(timeout=30)  # bounds a failure alone: the message comes before the next line is typed
        assert (error.line, error.message) == (1, "empty tag name")
    finally:
        if reader.is_alive():  # the rest typed, and a Ctrl-D: a reader that waits for the next line ends
            os.write(keyboard, b'{"game": "Schafkopf"}\n]\n\x04')
        reader.join(timeout=30)
        os.close(keyboard)
    assert not reader.is_alive()
    assert error_of('[\n{"game": "Schafkopf"}\n]\n').message == ARRAY


def test_a_ctrl_z_that_ends_the_input_is_not_read():
    """DOS editors end a file with a Ctrl-Z (after its last line, or on it): the records read as without it, from a
    file and a pipe, blank lines and other Ctrl-Zs after it too (as many blank lines as are read ahead). One elsewhere
    is said as the stray text it is, named."""
    tags = '[Game "Schafkopf"]\r\n[Deal "EO GO / HO SO"]'
    play = tags + '\r\n[Play "1"]\r\nEO GO'
    for text, tricks in ((tags + "\r\n\r\n\x1a", None), (tags + "\r\n\x1a\r\n", None), (tags + "\x1a", None),
                         (tags + "\r\n\r\n\x1a\x1a \r\n", None), (tags + "\r\n\r\n\x1a\r\n\x1a\r\n", None),
                         (tags + "\r\n\x1a\r\n\r\n", None), (tags + "\r\n\x1a\r\n \r\n\x1a\r\n\r\n", None),
                         (play + "\r\n\x1a", [["EO", "GO"]]),
                         (play + "\x1a", [["EO", "GO"]]), (play + " \x1a", [["EO", "GO"]]),
                         (play + " *\x1a", [["EO", "GO"]]), (play + "\r\n*\x1a", [["EO", "GO"]]),
                         (play + "\r\n* \x1a\x1a", [["EO", "GO"]])):
        for items in (list(iter_records(io.BytesIO(text.encode()), name="d.tbn")), _items_from_a_pipe(text.encode())):
            (record,) = items
            assert isinstance(record, Record), (text, str(record))
            assert summary(record)["tricks"] == tricks, text
            assert record.play is not None or tricks is None
            assert record.play is None or record.play.terminated == ("*" in text), text
    spaced = tags + "\r\n\r\n\x1a" + "\r\n" * (MAX_BLANK_LINES_AHEAD + 1)  # as many blank lines after it as are read
    assert [type(item) for item in iter_records(io.BytesIO(spaced.encode()))] == [Record]
    assert [type(item) for item in iter_records(io.BytesIO(spaced.encode() + b"\r\n"))] == [Record, ParseError]
    middle = tags + "\r\n\r\n\x1a\r\n\r\n" + tags + "\r\n"
    items = list(iter_records(io.BytesIO(middle.encode()), name="d.tbn"))
    assert [str(item) if isinstance(item, ParseError) else item.get("Game") for item in items] == [
        "Schafkopf", ("d.tbn:4:1: cards before any tag: a Ctrl-Z (DOS end of file) in the middle of the file (got "
                      "'\\x1a', expected a tag such as [Game \"...\"])"), "Schafkopf"]


def test_a_ctrl_z_line_on_a_pipe_kept_open_is_said_when_the_next_line_arrives():
    """Whether a Ctrl-Z line ends the input is told by the line after it: on a pipe kept open (a bot) the record
    before it is answered at its blank line, and the Ctrl-Z said once a line with text follows, the pipe still open."""
    tags = '[Game "Schafkopf"]\r\n[Deal "EO GO / HO SO"]\r\n'
    reading, writing = os.pipe()
    said: queue.Queue = queue.Queue()

    def read() -> None:
        with open(reading, "rb") as stream:
            for item in iter_records(stream, name="<stdin>"):
                said.put(str(item) if isinstance(item, ParseError) else item.get("Game"))

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        os.write(writing, (tags + "\r\n\x1a\r\n\r\n").encode())
        assert said.get(timeout=30) == "Schafkopf"
        os.write(writing, tags.encode())
        assert said.get(timeout=30) == (  # bounds a failure alone: said before the pipe is closed
            "<stdin>:4:1: cards before any tag: a Ctrl-Z (DOS end of file) in the middle of the file (got '\\x1a', "
            'expected a tag such as [Game "..."])')
    finally:
        os.close(writing)
        reader.join(timeout=30)
    assert not reader.is_alive()
    assert list(said.queue) == ["Schafkopf"]


def test_a_binary_input_is_said_once_and_read_no_further():
    """An input whose first unreadable line is among bytes no text holds is binary: said once, as what it is where
    its first bytes tell it, and read no further. A text file's bad bytes (Latin-1, one ending in DOS's Ctrl-Z, a
    stray NUL) are said record by record, and so is a UTF-16 file or a UTF-16 part appended after UTF-8 records,
    whose records after it are read."""
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\n\n\xff\xfe\n\n\x80\n"
    (error,) = list(iter_records(io.BytesIO(png), name="board.png"))
    assert str(error) == "board.png:1:1: invalid UTF-8 (byte 89, a PNG image, not text) (expected UTF-8 text)"
    spreadsheet = b"PK\x03\x04\x14\x00\x06\x00\x08\x00\x00\x00!\x00\xb5U\n\n\x80\n"
    (error,) = list(iter_records(io.BytesIO(spreadsheet), name="deals.xlsx"))
    assert str(error) == ("deals.xlsx:1:15: invalid UTF-8 (byte b5, a zip file such as an .xlsx or .ods "
                          "spreadsheet, not text) (expected UTF-8 text)")
    (error,) = list(iter_records(io.BytesIO(b"ab\x00\x01\n\n\x80\n"), name="x.bin"))  # a NUL among controls
    assert str(error) == "x.bin:1:3: NUL character in the input (a binary file, not text) (got '\\x00', expected text)"
    (error,) = list(iter_records(io.BytesIO(b"[A \"\xff\x01\"]\n\n\x80\n"), name="x.bin"))
    assert str(error) == "x.bin:1:5: invalid UTF-8 (byte ff, a binary file, not text) (expected UTF-8 text)"
    latin1 = '[Event "Müller"]\n\n[Event "Bär"]\n\n[Event "ok"]\n'.encode("latin-1")
    items = list(iter_records(io.BytesIO(latin1), name="l.tbn"))
    assert [str(item) if isinstance(item, ParseError) else item.get("Event") for item in items] == [
        "l.tbn:1:10: invalid UTF-8 (byte fc) (expected UTF-8 text)",
        "l.tbn:3:10: invalid UTF-8 (byte e4) (expected UTF-8 text)", "ok"]
    stray = list(iter_records(io.BytesIO(b'[B "x\x00"]\n\n[B "y"]\n')))
    assert isinstance(stray[0], ParseError) and stray[0].message == "NUL character in the input"
    assert stray[1].get("B") == "y"
    dos = '[Event "Müller"]\r\n\r\n[Event "ok"]\r\n\r\n'.encode("latin-1") + b"\x1a"  # Ctrl-Z: DOS's end of file
    items = list(iter_records(io.BytesIO(dos), name="d.tbn"))
    assert [str(item) if isinstance(item, ParseError) else item.get("Event") for item in items] == [
        "d.tbn:1:10: invalid UTF-8 (byte fc) (expected UTF-8 text)", "ok"]
    utf16 = '[Event "a"]\n\n'.encode() + '\ufeff[Event "b"]\n\n'.encode("utf-16-le") + b"\n\n" + b'[Event "c"]\n'
    items = list(iter_records(io.BytesIO(utf16), name="u.tbn"))
    assert [str(item) if isinstance(item, ParseError) else item.get("Event") for item in items] == [
        "a", "u.tbn:3:1: invalid UTF-8 (byte ff fe, a UTF-16 byte order mark: save the file as UTF-8) "
        "(expected UTF-8 text)", "c"]


def test_a_gzip_file_is_said_as_one():
    """A .tbn.gz given as it is is said as gzip at its first byte, not as invalid UTF-8 at byte 8b, column 2: first
    in the file, after a UTF-8 byte order mark, or at a line's start after records (a file appended)."""
    packed = gzip.compress(b'[Game "Kratzen"]\n', mtime=0)
    said = "invalid UTF-8 (byte 1f 8b, a gzip file: unpack it first (gunzip)) (expected UTF-8 text)"
    for text in (packed, "\ufeff".encode() + packed):
        (error,) = list(iter_records(io.BytesIO(text), name="deals.tbn.gz"))
        assert str(error) == f"deals.tbn.gz:1:1: {said}"
    items = list(iter_records(io.BytesIO(b'[Game "Kratzen"]\n\n' + packed), name="all.tbn"))
    assert [type(item) for item in items] == [Record, ParseError] and str(items[1]) == f"all.tbn:3:1: {said}"


def test_a_binary_input_on_a_pipe_is_said_binary_once_it_has_read_as_far(tmp_path):
    """A pipe is judged on the bytes that have arrived: a PDF piped in whole is said binary once, at its first bad
    line, as the file is; one whose writer sends its binary bytes only after that line has been said is said binary
    at its next bad line and read no further."""
    pdf = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n\n\x01\x02\xff\n\n\x80\n\n\x80\n"
    binary = "invalid UTF-8 (byte {}, a binary file, not text) (expected UTF-8 text)"
    assert _read_from_a_pipe(pdf) == ["<stdin>:2:2: " + binary.format("e2")]
    with _read_on_a_pipe() as (writing, said):
        os.write(writing, pdf[:pdf.index(b"1 0")])
        assert said.get(timeout=30) == "<stdin>:2:2: invalid UTF-8 (byte e2) (expected UTF-8 text)"
        os.write(writing, pdf[pdf.index(b"1 0"):])
    assert list(said.queue) == ["<stdin>:5:3: " + binary.format("ff")]
    (tmp_path / "scan.pdf").write_bytes(pdf)
    (error,) = list(iter_records(tmp_path / "scan.pdf", name="scan.pdf"))
    assert str(error) == "scan.pdf:2:2: invalid UTF-8 (byte e2, a binary file, not text) (expected UTF-8 text)"
