"""``stich table`` and ``stich score --dd`` read as ``stich solve`` and ``stich score`` would answer them.

An analyst trusts each table cell to be what ``solve`` says of that contract by that seat, and the double-dummy
settlement to be what ``score`` says once the deal is played out along its line. These tests check the commands
against each other end to end (records written with each row's contract, the line appended to the Play section),
so that a change to one command's reading of a record cannot leave the other behind.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from solver.cli.main import app

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
runner = CliRunner()

# every contract token of FORMAT.md the two-sided games take, each tried for every seat
CONTRACT_TOKENS = {
    "Zwanzigerrufen": ["Normal", "Normal T20", "Normal T19", "Normal T18", "Normal T17", "Normal T16", "Solo",
                       "SuitSolo"],
    "Schafkopf": ["Rufer E", "Rufer G", "Rufer S", "Wenz", "Solo E", "Solo G", "Solo H", "Solo S", "WenzTout",
                  "SoloTout E", "SoloTout G", "SoloTout H", "SoloTout S", "Sie"],
}


def _json_lines(*args: str, stdin: str | None = None, code: int = 0) -> list[dict]:
    result = runner.invoke(app, [*args, "--json"], input=stdin)
    assert result.exit_code == code, (result.exit_code, result.stderr)
    assert "Traceback" not in result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


def _record(document: dict, contract: str, declarer: int) -> str:
    """The table's deal as a record of one contract (the variant flags the table used spelled out)."""
    flags = ", ".join(f"{name}={str(value).lower() if isinstance(value, bool) else value}"
                      for name, value in document["variant"].items())
    deal = "1: " + " / ".join(" ".join(hand) for hand in document["hands"])
    lines = [f'[Game "{document["game"]}"]', f'[Variant "{flags}"]', f'[Deal "{deal}"]',
             f'[Contract "{contract}"]', f'[Declarer "{declarer}"]']
    if document.get("pot") is not None:
        lines.append(f'[Pot "{document["pot"]}"]')
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("name, board", [("schafkopf.tbn", "2"), ("zwanzigerrufen.tbn", "1"), ("valat.tbn", "1")])
def test_every_table_cell_is_what_solve_says_of_its_contract(name, board):
    """The points (or a Tout's tricks) and the settlement of every biddable row against ``solve -o points -o
    score`` of the record written with that row's contract and declarer (``tout`` for a Tout)."""
    (document,) = _json_lines("table", str(EXAMPLES / name), "--board", board)
    rows = [entry for entry in document["entries"] if entry["biddable"]]
    records = "\n".join(_record(document, entry["contract"], entry["declarer"]) for entry in rows)
    solved = _json_lines("solve", "-", "-o", "score", "-o", "points", stdin=records)
    assert len(solved) == len(rows) >= 6
    for entry, answer in zip(rows, solved):
        results = {result["objective"]: result for result in answer["results"]}
        assert answer["declaring_side"] == entry["declaring_side"], entry
        assert results["score"]["total"] == entry["settlement"], entry
        if entry["measure"] == "points":
            assert results["points"]["total"] == entry["value"], entry
            assert (entry["value"] >= entry["target"]) == entry["won"], entry
    touts = [(entry, record) for entry, record in zip(rows, records.split("\n\n")) if entry["measure"] == "tricks"]
    assert bool(touts) == (name == "schafkopf.tbn")
    for entry, record in touts:
        (tout,) = _json_lines("solve", "-", "-o", "tout", stdin=record)[0]["results"]
        assert (tout["total"], tout["success"]) == (entry["value"], entry["won"]), entry


@pytest.mark.parametrize("name, board", [("schafkopf.tbn", "1"), ("zwanzigerrufen.tbn", "1"), ("valat.tbn", "1")])
def test_the_table_lists_every_contract_a_seat_may_bid_and_no_other(name, board):
    """A contract and declarer ``solve`` accepts on these hands is a biddable row, and one it refuses (a Rufer of
    an ace the caller holds, a Solo without a plain card of its suit, a Suit Solo short of suit cards, a Normal game
    of forehand holding T20..T16) is not."""
    (document,) = _json_lines("table", str(EXAMPLES / name), "--board", board, "--no-settlement")
    candidates = [(token, seat) for token in CONTRACT_TOKENS[document["game"]]
                  for seat in range(1, document["seats"] + 1)]
    records = "\n".join(_record(document, token, seat) for token, seat in candidates)
    answers = _json_lines("solve", "-", "-o", "points", stdin=records, code=1)
    accepted = {(answer["contract"], seat) for (_, seat), answer in zip(candidates, answers) if "results" in answer}
    listed = {(entry["contract"], entry["declarer"]) for entry in document["entries"] if entry["biddable"]}
    assert accepted == listed
    assert len(listed) < len(candidates)  # some were refused: the check has teeth


def _tags_and_play(path: Path, line: int) -> tuple[list[str], str | None, list[str]]:
    """The tags of the record at ``line`` of ``path``, its Play tag and the cards played (each Play section of
    the examples starts at the first trick)."""
    tags: list[str] = []
    play_tag, cards = None, []
    for text in path.read_text().splitlines()[line - 1:]:
        text = text.split("%")[0].strip()
        if play_tag is None and text.startswith("[Play"):
            play_tag = text
        elif play_tag is None and text.startswith("["):
            tags.append(text)
        elif text == "*" or (not text and play_tag is None):
            break
        elif play_tag is not None:
            cards += text.split()
    return tags, play_tag, cards


@pytest.mark.parametrize("name, board, flags", [
    ("zwanzigerrufen.tbn", "2", []),  # announcements, Kontra, solo_value=5 and the Mondfang
    ("pagat_ultimo.tbn", "1", []),
    ("valat.tbn", "1", ["--variant", "valat_mode=multiplies_total"]),
    ("schafkopf.tbn", "2", ["--variant", "laufende_mode=only_if_holder_wins"]),
    ("kratzen.tbn", "2", ["--pot", "12"]),
])
def test_score_dd_is_the_score_of_the_deal_played_out_along_its_line(name, board, flags):
    """``score --dd``'s items and payments are ``score``'s once its line is appended to the record's Play section,
    and its value is that of ``solve -o score``."""
    (dd_document,) = _json_lines("score", str(EXAMPLES / name), "--board", board, "--dd", *flags)
    dd = dd_document["dd"]
    (solved,) = _json_lines("solve", str(EXAMPLES / name), "--board", board, "-o", "score", *flags)
    assert solved["results"][0]["total"] == dd["value"]
    tags, play_tag, cards = _tags_and_play(EXAMPLES / name, dd_document["record"]["line"])
    if dd["from"] == "start":  # a deal played to its end settles from its start
        cards = []
    cards += dd["line"]
    seats = dd_document["seats"]
    tricks = [" ".join(cards[at:at + seats]) for at in range(0, len(cards), seats)]
    # without a Play section (the Kratzen record) the attacker leads, first_leader=attacker
    finished = "\n".join(tags + [play_tag or f'[Play "{dd_document["declarer"]}"]'] + tricks + ["*", ""])
    (scored,) = _json_lines("score", "-", *flags, stdin=finished)
    assert scored["payments"] == dd["payments"]
    assert [(i["name"], i["winners"], i["value"]) for i in scored["items"]] == \
        [(i["name"], i["winners"], i["value"]) for i in dd["items"]]
    assert len(dd["line"]) > 0 and dd["items"]
