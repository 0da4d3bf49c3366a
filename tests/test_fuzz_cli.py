"""Fuzzing the CLI: hostile files given to ``stich solve``, ``check``, ``score`` and ``tree`` end in exit code 0 or 1
(2 for usage), with one ``file:line:col: message`` line on stderr per bad record, never a traceback.

Solving must stay cheap, so the seeds are the example records played on to two tricks before the end
(:func:`ending_records`); a mutated file that still holds a position with more cards than that (a cut Play section)
is given to ``stich score`` instead, which parses the file and answers at once (a finished deal is settled, an
unfinished one is refused).
"""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from fuzz_inputs import (fuzz_report,  # noqa: F401 (the module's report fixture)
                         EXAMPLE_RECORDS, NASTY_WORDS, _mutations, encoded, fuzz_settings, outcomes, random_text)
from solver.api import iter_positions
from solver.cli.main import app
from solver.errors import StichError
from solver.formats.tbn import Token, format_record, parse_records
from solver.position import position_from_record

runner = CliRunner()
pytestmark = pytest.mark.usefixtures("fuzz_report")
MAX_CARDS_TO_SOLVE = 16  # cards left in a position the fuzzed solve/check commands may be given


def _count(state) -> int:
    """Cards still in the hands."""
    return sum(bin(hand).count("1") for hand in state.hands)


def _ending(record_text: str) -> str:
    """The record with its Play section extended (lowest legal card each time) to two tricks before the end."""
    (record,) = parse_records(record_text)
    position = position_from_record(record)
    state, played = position.state, list(position.played)
    seats = position.rules.seats
    while not state.is_over and _count(state) > 2 * seats:
        legal = state.legal_cards()
        card = (legal & -legal).bit_length() - 1
        state = state.advance(card)
        played.append(card)
    if len(played) == len(position.played):
        return record_text
    if record.play is None:
        record.set("Play", str(position.state.leader + 1))
    names = [position.pack[card].name for card in played]
    tokens = [[Token(name, 0, 0) for name in names[i:i + seats]]
              for i in range(0, len(names), seats)]
    record.play.tricks = tokens
    record.play.terminated = True
    record.comments = [c for c in record.comments if c.play_line is None]
    return format_record(record)


def ending_records() -> list[str]:
    return [_ending(text) for text in EXAMPLE_RECORDS]


ENDINGS = ending_records()


@st.composite
def cli_files(draw) -> bytes:
    """One to three mutated endings (possibly of different games), random text now and then, in some encoding."""
    if draw(st.integers(0, 9)) == 0:
        text = draw(random_text)
    else:
        text = "\n".join(draw(st.sampled_from(ENDINGS)) for _ in range(draw(st.integers(1, 3))))
        text = draw(_mutations(text, draw(st.integers(0, 3))))
    return draw(encoded(text))


def _cards_left(data: bytes) -> int:
    """The most cards left in any position of the file (0 if none reads)."""
    most = 0
    for item in iter_positions(io.BytesIO(data), name="probe"):
        if not isinstance(item, StichError):
            most = max(most, _count(item.state))
    return most


OPTIONS = st.lists(st.sampled_from([["--json"], ["--board", "1"], ["--board", "\u00b2"],
                                    ["--variant", "solo_value=7"], ["--variant", "bogus=1"],
                                    ["--variant", "noequals"], ["-o", "all"], ["-o", "nonsense"],
                                    ["--cards"], ["--variant", "solo_value=" + NASTY_WORDS[1]]]),
                   max_size=3).map(lambda groups: [word for group in groups for word in group])
CHECKED = re.compile(r"^stich: fuzz\.tbn:[0-9]+:[0-9]+: ")


def _check_cli(name: str, command: str, data: bytes, options: list[str], tmp: Path) -> None:
    seen = outcomes(name)
    seen.inputs += 1
    path = tmp / "fuzz.tbn"
    path.write_bytes(data)
    if command in ("solve", "check", "tree") and _cards_left(data) > MAX_CARDS_TO_SOLVE:
        command = "score"
    if command == "score":
        options = [o for o in options if o not in ("--cards", "-o", "all", "nonsense")]
    args = [command, "fuzz.tbn", *options]
    if command == "tree":
        args = ["tree", "fuzz.tbn", "--depth", "1", "--out", "fuzz-tree.json"]
    result = runner.invoke(app, args, catch_exceptions=True, env={"COLUMNS": "100"})
    stderr = result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit), (args, result.exception,
                                                                                  stderr[-2000:])
    assert result.exit_code in (0, 1, 2), (args, result.exit_code, stderr[-2000:])
    assert "Traceback" not in stderr and "Traceback" not in result.stdout
    if result.exit_code == 1:
        lines = [line for line in stderr.splitlines() if line.strip()]
        assert lines, args
        for line in lines:
            assert line.startswith("stich: "), line
            assert len(line) < 700, line
            # a --variant mistake is the command's, said once per game with the first record it kept from an answer
            if "fuzz.tbn" in line and not line.startswith(("stich: fuzz.tbn: no record", "stich: wrote",
                                                           "stich: --variant: ")):
                assert CHECKED.match(line), line
        seen.errors[re.sub(r"[0-9]+", "N", lines[0].split(": ", 2)[-1].split(" (")[0])[:60]] += 1
    elif result.exit_code == 0:
        seen.successes += 1
    else:
        seen.errors["usage (exit 2)"] += 1


@pytest.mark.slow
@fuzz_settings(120, share=0.03)
@given(cli_files(), st.sampled_from(["solve", "check", "score", "solve", "tree"]), OPTIONS)
def test_cli_on_hostile_files(tmp_path_factory, data, command, options):
    """solve, check, score and tree on mutated endings in every encoding, with good and bad options."""
    tmp = tmp_path_factory.getbasetemp() / "cli-fuzz"
    tmp.mkdir(exist_ok=True)
    cwd = os.getcwd()
    os.chdir(tmp)  # the file is named fuzz.tbn in every message
    try:
        _check_cli("cli: solve/check/score/tree", command, data, options, tmp)
    finally:
        os.chdir(cwd)


def test_endings_are_cheap_and_valid():
    """The seeds themselves read, and leave at most MAX_CARDS_TO_SOLVE cards (otherwise the CLI fuzz would only
    ever run ``score``)."""
    for text in ENDINGS:
        cards = _cards_left(text.encode())
        assert 0 <= cards <= MAX_CARDS_TO_SOLVE


def test_real_process_prints_no_traceback(tmp_path):
    """A few hostile files through the installed entry point in a real process (stderr, exit code, no traceback):
    what CliRunner cannot show is a crash at import or in the console-script wrapper."""
    cases = {
        "nul.tbn": b'[Game "Kratzen"]\n[Deal "\x00"]\n',
        "utf16.tbn": ENDINGS[0].encode("utf-16"),
        "superscript.tbn": re.sub(r'\[Play "[^"]*"\]', '[Play "\u00b2"]', ENDINGS[0]).encode(),
        "braces.tbn": b'[Game "Kratzen"] ' + b"{" * 5000 + b"}" * 5000 + b"\n",
        "zero": None,  # /dev/zero, an endless line: one error, no hang
    }
    script = "import sys; from solver.cli.main import main; sys.argv[0] = 'stich'; main()"
    for name, data in cases.items():
        path = tmp_path / name if data is not None else Path("/dev/zero")
        if data is not None:
            path.write_bytes(data)
        elif not path.exists():
            continue
        done = subprocess.run([sys.executable, "-c", script, "solve", str(path)], capture_output=True, text=True,
                              timeout=120, cwd=Path(__file__).resolve().parent.parent)
        assert done.returncode == 1, (name, done.stderr)
        assert "Traceback" not in done.stderr
        assert re.match(rf"^stich: {re.escape(str(path))}:[0-9]+:[0-9]+: ", done.stderr), (name, done.stderr)


DEAL_WORDS = st.one_of(st.sampled_from(["Zwanzigerrufen", "Schafkopf", "Kratzen", "zr", "sk", "kr", "Solo H", "Wenz",
                                        "Trump E", "Rufer G", "Normal T19", "Sie", "SoloTout S", "x", ""]),
                       st.sampled_from(NASTY_WORDS), st.text(max_size=12))


@fuzz_settings(60, share=0.002)
@given(game=DEAL_WORDS, contract=st.none() | DEAL_WORDS,
       numbers=st.lists(st.sampled_from(["--seed", "--declarer", "--seats", "--first-board", "-n"]), max_size=3),
       values=st.lists(st.one_of(st.integers(-3, 8).map(str), st.sampled_from(NASTY_WORDS[:4])), min_size=3,
                       max_size=3),
       variants=st.lists(DEAL_WORDS, max_size=2))
def test_deal_command_options(game, contract, numbers, values, variants):
    """``stich deal`` with odd games, contracts, numbers and variant flags: 0, 1 or 2 and a one-line message."""
    seen = outcomes("cli: deal options")
    seen.inputs += 1
    args = ["deal", "--game", game, "-n", "2"]
    if contract is not None:
        args += ["--contract", contract]
    for option, value in zip(numbers, values):
        args += [option, value if option != "-n" else "3"]
    for flag in variants:
        args += ["--variant", flag]
    result = runner.invoke(app, args, catch_exceptions=True)
    assert result.exception is None or isinstance(result.exception, SystemExit), (args, result.exception)
    assert result.exit_code in (0, 1, 2), (args, result.exit_code, result.stderr)
    assert "Traceback" not in result.stderr
    if result.exit_code == 0:
        seen.successes += 1
        assert parse_records(result.stdout)
    else:
        assert result.stderr.strip()
        seen.errors[f"exit {result.exit_code}"] += 1
        if result.exit_code == 1:
            assert all(line.startswith("stich: ") for line in result.stderr.splitlines() if line.strip())


def test_stdin_is_decoded_like_a_file_under_a_c_locale():
    """``stich solve -`` under LC_ALL=C reads stdin as bytes, as a file: the byte FF gives
    ``<stdin>:line:col: invalid UTF-8``, where Python's text stream (its surrogateescape handler) would let it
    through into a tag (exit 0)."""
    data = ENDINGS[0].replace("[Game ", '[Event "caf\udcff"]\n[Game ', 1).encode("utf-8", "surrogateescape")
    script = "import sys; from solver.cli.main import main; sys.argv[0] = 'stich'; main()"
    done = subprocess.run([sys.executable, "-c", script, "solve", "-"], input=data, capture_output=True, timeout=120,
                          cwd=Path(__file__).resolve().parent.parent, env={**os.environ, "LC_ALL": "C"})
    stderr = done.stderr.decode("utf-8", "replace")
    assert done.returncode == 1, stderr
    line = ENDINGS[0].split("\n").index(next(l for l in ENDINGS[0].split("\n") if l.startswith("[Game "))) + 1
    assert stderr.startswith(f"stich: <stdin>:{line}:12: invalid UTF-8 (byte ff)"), stderr


def test_batch_reports_hostile_records_in_place(tmp_path, monkeypatch):
    """``stich batch`` on good endings mixed with a superscript seat and a NUL: the good ones are solved, each bad
    one is a JSON line whose error reads ``file:line:col: message``, and the exit code is 1."""
    import json

    monkeypatch.chdir(tmp_path)
    bad_seat = re.sub(r'\[Declarer "[^"]*"\]\n', "", ENDINGS[1]).replace("[Play", '[Declarer "\u00b2"]\n[Play', 1)
    data = "\n".join([ENDINGS[0], bad_seat, ENDINGS[2].replace("Game", "Ga\x00me", 1), ENDINGS[3]])
    Path("in.tbn").write_text(data, encoding="utf-8")
    result = runner.invoke(app, ["batch", "in.tbn", "--out", "out.jsonl", "-j", "1"])
    assert result.exit_code == 1 and "Traceback" not in result.stderr
    lines = [json.loads(line) for line in Path("out.jsonl").read_text(encoding="utf-8").splitlines()]
    errors = [line["error"] for line in lines if "error" in line]
    assert len(lines) == 4 and len(errors) == 2
    assert re.match(r"in\.tbn:[0-9]+:[0-9]+: \[Declarer\] is not a seat", errors[0]), errors
    assert re.match(r"in\.tbn:[0-9]+:[0-9]+: NUL character in the input", errors[1]), errors


def test_a_file_name_that_is_not_utf8(tmp_path):
    """A file whose name is not UTF-8 (``caf\\xe9.tbn`` from a Latin-1 system): ``batch`` and ``tree --out x.json``
    write the name without a UnicodeEncodeError traceback, and the JSON is UTF-8 with the name as \\u escapes that read
    back to the same name, not its raw byte e9, which no JSON parser reads; a rerun of the batch finds its answer."""
    import json

    name = str(tmp_path / os.fsdecode(b"caf\xe9.tbn"))
    Path(name).write_text(ENDINGS[0], encoding="utf-8")
    script = "import sys; from solver.cli.main import main; sys.argv[0] = 'stich'; main()"
    env = {**os.environ, "LC_ALL": "C.UTF-8"}

    def run(*args: str) -> subprocess.CompletedProcess:
        done = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, timeout=120,
                              cwd=Path(__file__).resolve().parent.parent, env=env)
        assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr.decode("utf-8", "replace")
        return done

    (document,) = [json.loads(line) for line in run("solve", name, "--json").stdout.decode("utf-8").splitlines()]
    assert document["record"]["source"] == name
    run("tree", name, "--depth", "1", "--out", str(tmp_path / "tree.json"))
    assert json.loads((tmp_path / "tree.json").read_text(encoding="utf-8"))["graph"]["source"].startswith(f"{name}:")
    run("batch", name, "--out", str(tmp_path / "out.jsonl"), "-j", "1")
    (line,) = (tmp_path / "out.jsonl").read_text(encoding="utf-8").splitlines()
    assert json.loads(line)["id"].startswith(f"{name}:")
    again = run("batch", name, "--out", str(tmp_path / "out.jsonl"), "-j", "1")
    assert "1 already done" in again.stderr.decode("utf-8", "replace")
