"""Hostile inputs for the fuzz tests, and the error contract they check.

The strategies start from the valid records of ``examples/*.tbn`` and break them the ways files break in practice:
cut short, lines and tokens deleted, duplicated or swapped, tokens carried over from another game, characters
replaced by Unicode look-alikes, combining or direction marks and stray bytes, huge lines, braces nested thousands
deep, NUL bytes, and the whole file in another encoding. Pure random text and bytes are mixed in as well.

``STICH_FUZZ_EXAMPLES`` (an environment variable) sets the number of inputs of a long run, shared out among the
properties; without it each property runs a few hundred derandomised examples, well under a minute in all. See
docs/limits.md for the long run.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from solver.errors import ParseError, StichError

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
EXAMPLE_FILES = sorted(EXAMPLES.glob("*.tbn"))
EXAMPLE_TEXTS = {path.name: path.read_text(encoding="utf-8") for path in EXAMPLE_FILES}

#: Inputs of the long run, over all properties together (each takes its ``share``); None: the suite's defaults.
LONG_RUN = int(os.environ["STICH_FUZZ_EXAMPLES"]) if os.environ.get("STICH_FUZZ_EXAMPLES") else None


def fuzz_settings(default: int, *, share: float) -> settings:
    """Settings of one property: ``default`` examples in the suite (derandomised, so CI is reproducible), or
    ``share`` of STICH_FUZZ_EXAMPLES in the long run (randomised: a long run should look where CI does not). The
    shares of all properties add up to 1."""
    common = dict(deadline=None, suppress_health_check=list(HealthCheck), database=None, print_blob=True)
    if LONG_RUN is None:
        return settings(max_examples=default, derandomize=True, **common)
    return settings(max_examples=max(default, int(LONG_RUN * share)), derandomize=False, **common)


# --- the pieces ------------------------------------------------------------------------------------------------------

def _records(text: str) -> list[str]:
    """The records of an example file as text (blank-line separated blocks that contain a tag)."""
    blocks = re.split(r"\n\s*\n", text)
    return [block.strip("\n") + "\n" for block in blocks if re.search(r"^\[", block, re.MULTILINE)]


EXAMPLE_RECORDS = [record for text in EXAMPLE_TEXTS.values() for record in _records(text)]
#: Every whitespace-separated token of the examples: cards of all three games, tag words, seats, comments.
EXAMPLE_TOKENS = sorted({token for text in EXAMPLE_TEXTS.values() for token in text.split()})

#: Characters that look like or sit next to the ones the format uses: Cyrillic and Greek look-alikes, full-width and
#: superscript and Arabic-Indic digits, combining marks, direction marks and overrides, zero-width and odd spaces,
#: line separators the reader must not split on, a lone surrogate, the BOM, NUL and the syntax characters.
NASTY_CHARS = (
    "\u0422\u0415\u041e\u041d\u0405\u0410\u039a\u0417"  # ТЕОНЅАΚЗ
    "\uff11\uff12\u00b2\u00b9\u0661\u0662\u2460\U0001d7d9"  # １２²¹١٢①𝟙
    "\u0301\u0308\u20dd\u200d\u200c"
    "\u200f\u200e\u202e\u202d\u2066\u2069"
    "\u200b\u00a0\u2003\u3000\u000b\u000c\u0085\u2028\u2029\u001c"
    "\udcff\udc80\ufeff\ufffd\x00\r\t"
    '[]{}"\\%;/:*='
)
NASTY_WORDS = (
    "9" * 5000 + ":", "9" * 5000, "-1", "0", "1:", "99:", "\u00b2", "1\u00b2", "\u0661:", "\uff11", "Muss", "Sie",
    "Normal", "Solo", "Trump", "Rufer", "dagegen", "Kontra", "yes", "=", "a=b", "solo_value=" + "9" * 5000,
    "*", "/", "//", ":", "1:/", "{", "}", "\\", '\\"', "[X", "]",
)


@st.composite
def _replace_char(draw, text: str) -> str:
    if not text:
        return draw(st.sampled_from(NASTY_CHARS))
    at = draw(st.integers(0, len(text) - 1))
    new = draw(st.sampled_from(NASTY_CHARS))
    keep = draw(st.booleans())
    return text[:at] + new + text[at + (0 if keep else 1):]


@st.composite
def _line_edit(draw, text: str) -> str:
    lines = text.split("\n")
    i = draw(st.integers(0, len(lines) - 1))
    j = draw(st.integers(0, len(lines) - 1))
    kind = draw(st.sampled_from(["delete", "duplicate", "swap", "blank", "insert_foreign"]))
    if kind == "delete":
        del lines[i]
    elif kind == "duplicate":
        lines.insert(j, lines[i])
    elif kind == "swap":
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == "blank":
        lines.insert(i, "")
    else:
        foreign = draw(st.sampled_from(EXAMPLE_RECORDS)).split("\n")
        lines.insert(i, draw(st.sampled_from(foreign)))
    return "\n".join(lines)


@st.composite
def _token_edit(draw, text: str) -> str:
    spans = [m.span() for m in re.finditer(r"[^\s\"\[\]/]+", text)]
    if not spans:
        return text
    start, end = draw(st.sampled_from(spans))
    kind = draw(st.sampled_from(["delete", "duplicate", "foreign", "nasty", "swap"]))
    if kind == "delete":
        return text[:start] + text[end:]
    if kind == "duplicate":
        return text[:end] + " " + text[start:end] + text[end:]
    if kind == "foreign":  # a token of another game (or another tag) in its place
        return text[:start] + draw(st.sampled_from(EXAMPLE_TOKENS)) + text[end:]
    if kind == "nasty":
        return text[:start] + draw(st.sampled_from(NASTY_WORDS)) + text[end:]
    other_start, other_end = draw(st.sampled_from(spans))
    if other_start < start:
        start, end, other_start, other_end = other_start, other_end, start, end
    if other_start < end:
        return text
    return text[:start] + text[other_start:other_end] + text[end:other_start] + text[start:end] + text[other_end:]


@st.composite
def _value_edit(draw, text: str) -> str:
    """A tag's value replaced, repeated thousands of times, or given a nasty word at its start or end."""
    spans = [m.span(1) for m in re.finditer(r'\[\w+ "([^"]*)"\]', text)]
    if not spans:
        return text
    start, end = draw(st.sampled_from(spans))
    value = text[start:end]
    word = draw(st.one_of(st.sampled_from(NASTY_WORDS), st.sampled_from(EXAMPLE_TOKENS)))
    kind = draw(st.sampled_from(["replace", "repeat", "prefix", "suffix"]))
    if kind == "replace":
        value = word
    elif kind == "repeat":
        value += draw(st.sampled_from([" ", " / ", ", ", "; "]))
        times = draw(st.sampled_from([2, 50, 400, 3000]))
        value *= min(times, max(1, 300_000 // len(value)))  # a repeated value is not repeated into gigabytes
    elif kind == "prefix":
        value = word + value
    else:
        value = value + word
    return text[:start] + value + text[end:]


@st.composite
def _cut(draw, text: str) -> str:
    return text[: draw(st.integers(0, len(text)))]


@st.composite
def _insert_block(draw, text: str) -> str:
    """Something big or deep at a random place: a long line, nested braces, a long tag value, many tags."""
    at = draw(st.integers(0, len(text)))
    size = draw(st.sampled_from([10, 1000, 5000, 50_000, 100_001, 250_000]))
    kind = draw(st.sampled_from(["braces", "brackets", "line", "value", "tags", "cards", "comment_lines"]))
    if kind == "braces":
        block = "{" * size + "}" * size
    elif kind == "brackets":
        block = "[" * min(size, 5000) + "]" * min(size, 5000)
    elif kind == "line":
        block = draw(st.sampled_from(["x", "T1 ", "{", "\"", "\\", "/ "])) * size
    elif kind == "value":
        block = '\n[Deal "' + "T1 / " * (size // 5) + '"]\n'
    elif kind == "tags":
        block = "\n" + "".join(f'[T{n} "v"]\n' for n in range(min(size, 1500)))
    elif kind == "cards":
        block = "\n" + "T1 T2 T3 T4\n" * min(size, 300)
    else:
        block = "\n" + "% c\n" * min(size, 12_000)
    return text[:at] + block + text[at:]


def _mutations(text: str, depth: int):
    edits = [_replace_char, _line_edit, _token_edit, _value_edit, _cut]
    strategy = st.just(text)
    for _ in range(depth):
        strategy = strategy.flatmap(lambda t: st.one_of(*(edit(t) for edit in edits)))
    return strategy


@st.composite
def mutated_text(draw, *, big: bool = False) -> str:
    """One to three example records (possibly of different games) with a few random edits."""
    count = draw(st.integers(1, 3))
    text = "\n".join(draw(st.sampled_from(EXAMPLE_RECORDS)) for _ in range(count))
    text = draw(_mutations(text, draw(st.integers(1, 4))))
    if big or draw(st.integers(0, 9)) == 0:
        text = draw(_insert_block(text))
    return text


@st.composite
def edited_values(draw) -> str:
    """One example record with one or two tag values edited and nothing else: the error, if any, is the game
    layer's (seats, deals, contracts, variants, announcements), not the syntax layer's."""
    text = draw(st.sampled_from(EXAMPLE_RECORDS))
    for _ in range(draw(st.integers(1, 2))):
        text = draw(_value_edit(text))
    return text


#: Arbitrary text, weighted towards the format's own characters so that it gets past the first tag now and then.
random_text = st.one_of(
    st.text(max_size=400),
    st.text(alphabet=st.sampled_from(list('[]{}"\\%;/:*= \n\tT1SKZzeE') + list(NASTY_CHARS)), max_size=400),
    st.lists(st.sampled_from(EXAMPLE_TOKENS + list(NASTY_WORDS) + ["\n", "\n\n", "[", "]", '"']), max_size=60)
    .map(" ".join),
)


@st.composite
def encoded(draw, text: str) -> bytes:
    """The text as a file would hold it: UTF-8 (with or without BOM, CR LF), UTF-16, Latin-1, or raw bytes."""
    encoding = draw(st.sampled_from(["utf-8", "utf-8", "utf-8-sig", "crlf", "utf-16", "utf-16-le", "latin-1",
                                     "cp1252", "escape"]))
    if encoding == "crlf":
        return text.replace("\n", "\r\n").encode("utf-8", "surrogateescape")
    if encoding == "escape":  # lone surrogates become the bytes they stand for
        return text.encode("utf-8", "surrogateescape")
    return text.encode(encoding, "replace" if encoding in ("latin-1", "cp1252") else "surrogatepass")


def file_bytes():
    """Bytes of a hostile file: a mutated example in some encoding, or random bytes."""
    return st.one_of(mutated_text().flatmap(encoded), random_text.flatmap(encoded), st.binary(max_size=400))


# --- the contract ----------------------------------------------------------------------------------------------------

@dataclass
class Outcomes:
    """What a property saw, for the figures of the long run: successes and errors by message."""

    name: str
    inputs: int = 0
    successes: int = 0
    errors: Counter = field(default_factory=Counter)

    def error(self, error: StichError) -> None:
        message = error.message if isinstance(error, ParseError) else str(error)
        self.errors[re.sub(r"[0-9]+", "N", message.split(" (")[0].split(":")[0])[:60]] += 1


OUTCOMES: dict[str, Outcomes] = {}


def outcomes(name: str) -> Outcomes:
    return OUTCOMES.setdefault(name, Outcomes(name))


def line_lengths(data: str | bytes) -> list[int]:
    """The length of each line as the reader counts lines: split at LF, CR LF or CR (FORMAT.md forbids none)."""
    return [len(line) for line in re.split(rb"\r\n|\r|\n" if isinstance(data, bytes) else r"\r\n|\r|\n", data)]


def assert_located(error: BaseException, source: str, data: str | bytes) -> None:
    """The error contract: a ParseError that names ``source`` and a place inside the input.

    ``line`` is 1-based and names an existing line; ``column`` is 1-based and at most one past the end of that line
    (the place of a missing token), counted in characters (for bytes the line's byte length bounds it from above).
    """
    assert isinstance(error, ParseError), f"{type(error).__name__} is not a ParseError: {error!r}"
    assert error.source == source, error
    lengths = line_lengths(data)
    assert 1 <= error.line <= len(lengths), (error, len(lengths))
    assert 1 <= error.column <= lengths[error.line - 1] + 1, (error, lengths[error.line - 1])
    assert str(error).startswith(f"{source}:{error.line}:{error.column}: "), str(error)


@pytest.fixture(scope="module", autouse=False)
def fuzz_report():
    """Add this module's outcomes to the JSON file named by STICH_FUZZ_REPORT (the long run's figures)."""
    started = time.monotonic()
    yield
    target = os.environ.get("STICH_FUZZ_REPORT")
    if not target:
        return
    path = Path(target)
    report = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    for name, seen in OUTCOMES.items():
        report[name] = {"inputs": seen.inputs, "successes": seen.successes, "errors": sum(seen.errors.values()),
                        "errors_by_message": dict(seen.errors.most_common())}
    report.setdefault("_seconds", {})[str(started)] = round(time.monotonic() - started, 1)
    path.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
