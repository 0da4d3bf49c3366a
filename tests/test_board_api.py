"""``stich board``'s HTTP API through Starlette's test client: every answer checked against the library function it
is made of, and every refusal (bad input, a foreign Host or Origin, an oversized body) a 4xx with a clear message and
no traceback. The page itself is driven in a real browser by test_board_browser.py."""

from __future__ import annotations

import asyncio
import ipaddress
import json
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import warnings

import pytest

with warnings.catch_warnings():  # Starlette 1.x would have httpx2 for its test client; httpx still works
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

import solver
from solver import postmortem
from solver.board import app as board_app
from solver.diagram import display_order
from solver.formats.tbn import NO_RECORDS
from solver.board import session
from solver.cli.board import STOPPED_BOARD
from solver.workers import worker_settlement_engine
from solver.board import create_app
from solver.board.session import MAX_MOVES, MAX_RECORDS, card_face
from stopping_helpers import signals_as_a_shell_gives_them

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
ZR = EXAMPLES / "zwanzigerrufen.tbn"
SK = EXAMPLES / "schafkopf.tbn"
KR = EXAMPLES / "kratzen.tbn"


def client(*files: Path, **options) -> TestClient:
    return TestClient(create_app(list(files), **options), base_url="http://127.0.0.1")


def lines(response) -> list[dict]:
    return [json.loads(line) for line in response.text.splitlines() if line]


def opened(c: TestClient) -> tuple[str, list[str]]:
    start = c.get("/api/start").json()
    first = next(b for f in start["files"] for b in f["boards"] if b["id"] == start["open"])
    return start["open"], first["moves"]


def refused(response, status: int, words: str) -> None:
    assert response.status_code == status, response.text
    assert words in response.json()["error"]
    assert "Traceback" not in response.text


def test_start_lists_the_named_files_and_opens_the_board_asked_for():
    c = client(ZR, SK, board="3")
    start = c.get("/api/start").json()
    assert [f["file"] for f in start["files"]] == ["zwanzigerrufen.tbn", "schafkopf.tbn"]
    assert [len(f["boards"]) for f in start["files"]] == [7, 7]
    first = next(b for b in start["files"][0]["boards"] if b["id"] == start["open"])
    assert first["label"] == "zwanzigerrufen.tbn board 3"
    assert {g["name"] for g in start["games"]} == {"Zwanzigerrufen", "Schafkopf", "Kratzen"}
    page = c.get("/")
    assert page.status_code == 200 and "/static/board.js" in page.text and "http" not in page.text.split("<body>")[1]
    for asset in ("board.js", "board.css"):
        assert c.get(f"/static/{asset}").status_code == 200


def test_board_md_names_every_key_of_the_start_answer():
    """docs/board.md's HTTP API row of ``GET /api/start`` names each key of the answer (``time_limit``, the board's
    ``--time-limit`` in seconds, among them)."""
    start = client(SK, time_limit=30.0).get("/api/start").json()
    assert start["time_limit"] == 30.0
    text = (EXAMPLES.parent / "docs" / "board.md").read_text(encoding="utf-8")
    (row,) = [line for line in text.splitlines() if line.startswith("| `GET /api/start`")]
    assert [key for key in start if f"`{key}`" not in row and key not in ("files", "games", "open")] == []
    assert "the files named" in row and "the board to open first" in row and "the games" in row


def test_start_names_this_start_of_the_server_by_a_token_another_start_does_not_share():
    """Board ids start again at b1 at each start of the server: a page that kept a deal's b8 over a restart took
    another tab's deal, also b8, for it. The token tells the page its kept ids are another start's."""
    first, again = client(ZR), client(ZR)
    token = first.get("/api/start").json()["server"]
    assert re.fullmatch(r"[0-9a-f]{16}", token)
    assert first.get("/api/start").json()["server"] == token  # the same start: a reload keeps its uploads
    assert again.get("/api/start").json()["server"] != token
    deal = {"game": "Kratzen", "seed": 7, "seats": 5}
    assert first.post("/api/deal", json=deal).json()["open"] == again.post("/api/deal", json=deal).json()["open"]


def test_a_boards_fingerprint_is_its_deal_and_contract_not_its_place_or_label(tmp_path):
    """Each board has a fingerprint of what it is, the same wherever the record stands, under another label, event or
    comment, and another where the deal, contract, flags or pot differ, so that a reload finds a named file's record
    again by what it is, not by its label, a tagless record's place (which after an edit would open another deal under
    the kept play)."""
    record = '[Game "Kratzen"]\n[Deal "1: E9 EK / HA G7 / H7 G8"]\n[Contract "Trump H"]\n'
    others = [record.replace("HA G7 / H7 G8", "H7 G8 / HA G7"), record.replace("Trump H", "Trump G"),
              record + '[Variant "must_undertrump=false"]\n', record + '[Pot "12"]\n']
    texts = [record, '% moved down, renamed\n[Event "edited"]\n[Board "7"]\n' + record.split("\n", 1)[1]
             .replace("[Deal", '[Game "Kratzen"]\n[Deal'), *others]
    (listed,) = client(_write(tmp_path, "\n".join(texts))).get("/api/start").json()["files"]
    assert "error" not in listed
    labels = [board["label"] for board in listed["boards"]]
    assert labels == ["again.tbn record 1", "again.tbn board 7", *[f"again.tbn record {n}" for n in range(3, 7)]]
    prints = [board["fingerprint"] for board in listed["boards"]]
    assert prints[0] == prints[1] and len(set(prints)) == 5
    (pasted,) = client().post("/api/load", json={"text": "\n".join(reversed(texts))}).json()["boards"][-1:]
    assert pasted["label"] == "pasted text record 6" and pasted["fingerprint"] == prints[0]  # any source, any place


def test_a_boards_record_fingerprint_is_the_record_as_its_file_has_it_whatever_the_boards_variant(tmp_path):
    """The record fingerprint holds the record's own [Variant], not the board's flags, so that a reload whose record is
    gone can tell an edited file from a changed --variant: the fingerprint is the same under another --variant, another
    where the deal or the record's own flags differ."""
    record = '[Game "Kratzen"]\n[Deal "1: E9 EK / HA G7 / H7 G8"]\n[Contract "Trump H"]\n'
    flagged = record + '[Variant "must_undertrump=false"]\n'
    path = _write(tmp_path, "\n".join([record, record.replace("HA G7 / H7 G8", "H7 G8 / HA G7"), flagged]))
    (plain,) = client(path).get("/api/start").json()["files"]
    (over,) = client(path, variant={"must_undertrump": "false"}).get("/api/start").json()["files"]
    prints = [[board[key] for board in plain["boards"]] for key in ("fingerprint", "record_fingerprint")]
    over_prints = [[board[key] for board in over["boards"]] for key in ("fingerprint", "record_fingerprint")]
    assert over_prints[1] == prints[1] and len(set(prints[1])) == 3  # the file's records, whatever the --variant
    assert over_prints[0][0] != prints[0][0] and over_prints[0][0] == prints[0][2]  # the flags the record plays by
    # a flag that moves the first leader (Kratzen's: the attacker or forehand) moves no record fingerprint, so an
    # unedited file under --variant first_leader=forehand is not said to be edited as well
    second = _write(tmp_path, '[Game "Kratzen"]\n[Deal "1: EO E9 SU SZ / GA HA HU S7 / EK G8 HO SK"]\n'
                              '[Contract "Trump S"]\n[Declarer "2"]\n')  # a whole deal: the flag moves its lead
    prints = [[client(second, variant=flags).get("/api/start").json()["files"][0]["boards"][0][key]
               for key in ("fingerprint", "record_fingerprint")] for flags in ({}, {"first_leader": "forehand"})]
    assert prints[0][1] == prints[1][1] and prints[0][0] != prints[1][0]


def test_a_board_missing_from_the_file_is_said():
    start = client(ZR, board="99").get("/api/start").json()
    assert "no record with [Board \"99\"]" in start["files"][0]["error"]
    assert start["open"] is not None  # the first record instead


def test_the_view_shows_the_table():
    c = client(ZR)
    board, moves = opened(c)
    position = next(solver.read_positions(ZR))
    view = c.post("/api/position", json={"board": board, "moves": moves}).json()
    assert view["seats"] == 4 and view["contract"] == "Normal T20" and view["declarer"] == 1
    assert view["partner"] == [2]  # the T20's holder
    assert view["whole_deal"] is True
    assert view["score_unit"] == "game units"
    other = client(SK, board="6")  # an ending
    ending = other.get("/api/start").json()["open"]
    assert other.post("/api/position", json={"board": ending, "moves": []}).json()["whole_deal"] is False
    assert view["to_move"] == position.state.to_move + 1
    for hand in view["hands"]:
        assert [c["name"] for c in hand["cards"]] == position.pack.names(position.state.hands[hand["seat"] - 1])
    legal = [c["name"] for h in view["hands"] for c in h["cards"] if c["legal"]]
    assert legal == position.pack.names(position.state.legal_cards())
    declarers, defenders = view["sides"]
    assert declarers["points"] == position.state.side_points(position.rules.declaring_side)
    assert defenders["tricks"] == position.state.side_tricks(position.rules.defending_side)
    assert len(view["history"]) == len(position.state.history) and view["moves"] == moves
    assert [o["name"] for o in view["objectives"]][-len(position.rules.objective_names()):] == \
        position.rules.objective_names()


@pytest.mark.parametrize("path, board, called", [(ZR, "1", "T20"), (SK, "7", "GA"), (ZR, "3", None),
                                                  (SK, "2", None)])
def test_the_partner_is_public_once_the_called_card_is_played(path, board, called):
    """The single-dummy view says whether the table knows the partner, so that the page shows the sides' tricks and card
    points with their seats only then."""
    c = client(path, board=board)
    opened_board, moves = opened(c)
    public = [c.post("/api/position", json={"board": opened_board, "moves": moves[:count]}).json()["partner_public"]
              for count in range(len(moves) + 1)]
    if called is None:  # a Solo, a Wenz: nobody to keep secret
        assert all(public)
    else:
        played = moves.index(called) + 1
        assert public == [False] * played + [True] * (len(moves) + 1 - played)


@pytest.mark.parametrize("path, board, called", [(ZR, "1", ("T20", "Tarock 20 (T20)")),
                                                  (ZR, "2", ("T19", "Tarock 19 (T19)")),
                                                  (SK, "1", ("GA", "Gras Ace (GA)")), (ZR, "3", None), (SK, "2", None),
                                                  (KR, "1", None)])
def test_the_view_names_the_called_card(path, board, called):
    """The view names the card that called the partner (Zwanzigerrufen's Zwanzger, a Rufer's ace), as the bid says it
    aloud, in words too, and nothing where nobody is called."""
    c = client(path, board=board)
    opened_board, moves = opened(c)
    shown = c.post("/api/position", json={"board": opened_board, "moves": []}).json()["called"]
    assert (shown and (shown["name"], shown["spoken"])) == called


def test_the_partner_who_ran_away_is_public():
    """seeds/001: the Rufer partner is revealed "by playing the ace or running away legally": once he led G9 holding GA
    G9 G8 G7 and the trick ended without the ace (RULES.md 2.3 rule 3), the view shows him, not keeping him secret until
    the ace itself falls; an ending whose called suit was led before it ([CalledSuitLed]) is past his running away."""
    hands = ["EO EA SA HK", "GA G9 G8 G7", "EZ E9 SZ S9", "HA HZ GZ GK"]
    ending = solver.make_position("schafkopf", hands, "Rufer G", leader=2)
    assert [session.partner_public(ending.play_cards(cards)) for cards in ("G9 E9 GK", "G9 E9 GK HK")] == [False,
                                                                                                        True]
    assert session.partner_public(solver.make_position("schafkopf", hands, "Rufer G", leader=2,
                                                       called_suit_led=True))


def test_a_trick_in_progress_and_announcements():
    c = client(ZR, board="2")
    board, moves = opened(c)
    view = c.post("/api/position", json={"board": board, "moves": moves[:-1]}).json()
    assert view["announcements"] == "1: Pagat; 2: Kontra; 4: Absolut dagegen"
    assert "solo_value=5" in view["variant"]
    position = next(p for p in solver.read_positions(ZR) if p.record.get("Board") == "2")
    position = solver.Position(position.game, position.rules, position.rules.start())
    for card in moves[:-1]:
        position = position.play(card)
    assert len(position.state.trick) == 3
    assert [c["name"] for c in view["trick"]] == [position.pack[c].name for c in position.state.trick]


def test_the_view_gives_the_contract_suit_sign_the_cards_show():
    """The view gives the contract's suit sign and colour as the cards have them (German leaves read as spades,
    docs/rules.md reading 9), so the panel never reads "Trump G" beside cards showing ♠; a contract without a suit has
    none."""
    c = client()
    dealt = c.post("/api/deal", json={"game": "Kratzen", "contract": "Trump G", "seed": 5, "seats": 4}).json()
    view = c.post("/api/position", json={"board": dealt["open"], "moves": []}).json()
    assert view["contract_suit"] == {"sign": "♠", "colour": "green"}
    leaves = {card["sign"] for hand in view["hands"] for card in hand["cards"] if card["name"].startswith("G")}
    assert leaves == {"♠"}
    zwanzigerrufen = client(ZR)
    board, moves = opened(zwanzigerrufen)
    assert zwanzigerrufen.post("/api/position", json={"board": board, "moves": moves}).json()["contract_suit"] is None


def test_a_refused_deal_names_the_form_field_at_fault():
    """The Deal dialog keeps itself open on a refusal and marks the field at fault: the server's refusal names it
    (game, seed, seats, declarer, contract, pot) beside the message; a refusal of no field has none."""
    c = client()
    for body, field, words in (
            ({"game": "Skat"}, "game", "Skat"),
            ({"game": "Schafkopf", "seed": "x"}, "seed", "the seed is"),
            ({"game": "Kratzen", "seats": 9}, "seats", "not 9"),
            ({"game": "Schafkopf", "declarer": 7}, "declarer", "the declarer is a seat from 1 to 4, not 7"),
            ({"game": "Schafkopf", "contract": "Rufer Q"}, "contract", "'Q' is not a suit"),
            ({"game": "Zwanzigerrufen", "declarer": 2}, "declarer", "seat 2 cannot bid Normal"),
            ({"game": "Schafkopf", "pot": 5}, "pot", "not paid from a pot"),
            ({"game": "Kratzen", "pot": -1}, "pot", "whole number of chips")):
        refused = c.post("/api/deal", json=body)
        assert refused.status_code == 400, body
        assert refused.json()["field"] == field and words in refused.json()["error"], (body, refused.json())
    unknown = c.post("/api/position", json={"board": "nothing", "moves": []})
    assert unknown.status_code >= 400 and "field" not in unknown.json()


def test_the_board_names_a_contract_as_the_rule_book_does_and_keeps_its_token():
    """The board's summary and the view give the rule book's name beside the token (RULES.md 2.2's "Wenz Tout"), and the
    page shows it, not the token "Schafkopf WenzTout"."""
    c = client()
    dealt = c.post("/api/deal", json={"game": "Schafkopf", "contract": "Wenz Tout", "seed": 5}).json()
    summary = dealt["boards"][0]
    assert (summary["contract"], summary["contract_words"]) == ("WenzTout", "Wenz Tout")
    view = c.post("/api/position", json={"board": dealt["open"], "moves": []}).json()
    assert (view["contract"], view["contract_words"]) == ("WenzTout", "Wenz Tout")
    script = (Path(session.__file__).parent / "static" / "board.js").read_text(encoding="utf-8")
    assert "${view.game} ${view.contract_words}" in script and "${board.game} ${board.contract_words}" in script


@pytest.mark.parametrize("seats", [3, 6])
def test_kratzen_tables_of_three_to_six(seats):
    c = client()
    dealt = c.post("/api/deal", json={"game": "Kratzen", "contract": "Trump H", "seed": 5, "seats": seats}).json()
    view = c.post("/api/position", json={"board": dealt["open"], "moves": []}).json()
    assert view["seats"] == seats and len(view["hands"]) == seats and view["per_seat"]
    assert all(len(hand["cards"]) == 4 for hand in view["hands"])
    # every seat plays for itself: the others are no "defenders", and no seat has card points (not 0)
    assert [hand["side"] for hand in view["hands"]] == ["attacker"] + [None] * (seats - 1)
    assert [hand["points"] for hand in view["hands"]] == [None] * seats
    assert view["score_unit"] == "chips"  # the page's words for the score: a Kratzen attacker is paid in chips
    # the score is the attacker's payment, with the pot (a dealt board has none, so every line settles 0): the board
    # values the cards by each seat's own tricks first
    assert [o["name"] for o in view["objectives"]] == ["score", "tricks"] and view["default_objective"] == "tricks"
    values = lines(c.post("/api/values", json={"board": dealt["open"], "moves": []}))[-1]
    assert values["kind"] == "values" and values["maximiser"] == str(view["to_move"])  # the mover's own tricks
    # with a pot the score pays, but it is the attacker's payment alone: each seat's own tricks still come first, as
    # stich postmortem grades them, and the score is there to choose
    record = solver.position_from_record(solver.random_record("Kratzen", 5, 1, contract="Trump H", seats=seats))
    text = record.to_tbn() + '[Pot "24"]\n'
    pot_board = c.post("/api/load", json={"text": text}).json()["open"]
    assert c.post("/api/position", json={"board": pot_board, "moves": []}).json()["default_objective"] == "tricks"
    scored = lines(c.post("/api/values", json={"board": pot_board, "moves": [], "objective": "score"}))[-1]
    result = solver.solve(solver.parse_positions(text)[0], "score", cards=True)
    assert scored["objective"] == "score" and scored["maximiser"] == str(view["declarer"])
    assert scored["cards"] == result.card_names() and scored["total"] == result.total
    assert any(scored["cards"].values())  # a pot of 24: the attacker's payment is not 0 everywhere


def test_values_give_a_search_s_time_only_where_there_was_a_search():
    """A finished deal's values line shows no `` · 0 ms``: no search is made, and such a time is a bookkeeping figure.
    ``seconds`` is null there (and at a last card, the only one left), which the page shows as no time."""
    from solver.board.session import values_document

    position = next(solver.read_positions(Path(__file__).resolve().parents[1] / "examples" / "schafkopf.tbn"))
    seen = []
    while True:
        result = solver.solve(position, "points", cards=True)
        document = values_document(position, "points", result)
        seen.append((len(position.legal_cards()) if not position.state.is_over else 0, document["nodes"],
                     document["seconds"]))
        if position.state.is_over:
            break
        position = position.play(result.best_cards()[0])
    assert seen[0][1] > 0 and isinstance(seen[0][2], float)  # a search: its time
    assert seen[-2][0] == 1 and seen[-2][1:] == (0, None)  # the last card, the only one: no search
    assert seen[-1] == (0, 0, None)  # the finished deal
    assert all((seconds is None) == (nodes == 0) for _, nodes, seconds in seen)


def test_values_are_the_engines_and_the_default_is_the_score():
    c = client(SK, board="6")
    board, moves = opened(c)
    position = next(p for p in solver.read_positions(SK) if p.record.get("Board") == "6")
    answer = lines(c.post("/api/values", json={"board": board, "moves": moves}))
    assert answer[0]["kind"] == "thinking"
    values = answer[-1]
    view = c.post("/api/position", json={"board": board, "moves": moves}).json()
    assert [o["name"] for o in view["objectives"]] == ["score"] + position.rules.objective_names()
    assert view["default_objective"] == values["objective"] == "score" and not values["yes_no"]
    for name in ("score", "points"):
        if name == "points":
            values = lines(c.post("/api/values", json={"board": board, "moves": moves, "objective": name}))[-1]
        result = solver.solve(position, name, cards=True)
        assert values["objective"] == name
        assert values["cards"] == {card: result.achieved + value for card, value in result.card_names().items()}
        assert values["best"] == [card.name for card in result.best_cards()]
        assert values["total"] == result.total
    valat = lines(c.post("/api/values", json={"board": board, "moves": moves, "objective": "schwarz"}))[-1]
    assert valat["yes_no"] and valat["objective"] == "schwarz"
    assert valat["total"] == solver.solve(position, "schwarz").total


def test_objectives_are_named_as_players_name_them():
    """The page shows each objective by the name players use (``Schneider against``, ``Score``, as ``stich solve``
    prints them), not its identifier; requests and answers keep the identifier beside it."""
    c = client(SK, board="6")
    board, moves = opened(c)
    view = c.post("/api/position", json={"board": board, "moves": moves}).json()
    assert {o["name"]: o["title"] for o in view["objectives"]} == {
        "score": "Score", "points": "Points", "game": "Game", "schneider": "Schneider",
        "schneider_against": "Schneider against", "schwarz": "Schwarz", "schwarz_against": "Schwarz against"}
    values = lines(c.post("/api/values", json={"board": board, "moves": moves, "objective": "schneider_against"}))[-1]
    assert values["objective"] == "schneider_against" and values["title"] == "Schneider against"
    zwanzigerrufen = client(ZR)
    board, moves = opened(zwanzigerrufen)
    titles = {o["name"]: o["title"] for o in
              zwanzigerrufen.post("/api/position", json={"board": board, "moves": moves}).json()["objectives"]}
    assert titles["valat_against"] == "Valat against" and titles["pagat_ultimo"] == "Pagat Ultimo"
    assert titles["pagat_beaten"] == "Pagat Ultimo beaten"
    kratzen = client(KR)
    board, moves = opened(kratzen)
    view = kratzen.post("/api/position", json={"board": board, "moves": moves}).json()
    assert [(o["name"], o["title"]) for o in view["objectives"]] == [("score", "Score"), ("tricks", "Tricks")]


def test_a_slow_position_streams_its_cards_one_by_one(monkeypatch):
    monkeypatch.setattr(board_app, "FIRST_SLICE", 0.0)  # every position is "slow"
    c = client(ZR)
    board, moves = opened(c)
    position = next(solver.read_positions(ZR))
    answer = lines(c.post("/api/values", json={"board": board, "moves": moves}))
    kinds = [line["kind"] for line in answer]
    legal = position.pack.names(position.state.legal_cards())
    assert kinds == ["thinking", "slow"] + ["card"] * len(legal) + ["values"]
    result = solver.solve(position, "score", cards=True)  # the default: the score, each card searched on its own
    expected = {name: result.achieved + value for name, value in result.card_names().items()}
    assert {line["card"]: line["value"] for line in answer if line["kind"] == "card"} == expected
    assert answer[-1]["cards"] == expected and answer[-1]["total"] == result.total
    assert sorted(answer[-1]["best"]) == sorted(card.name for card in result.best_cards())
    assert answer[-1]["objective"] == "score" and answer[-1]["description"] == result.objective.description
    assert answer[-1]["title"] == "Score"  # the one by one answer names its objective as the quick one does
    monkeypatch.setattr(board_app, "FIRST_SLICE", 600.0)  # the same position answered with every card at once
    quick = lines(c.post("/api/values", json={"board": board, "moves": moves}))[-1]
    monkeypatch.setattr(board_app, "FIRST_SLICE", 0.0)

    def fields(document: dict) -> dict:  # the search's own figures apart, its cards as a set
        return {**{key: value for key, value in document.items() if key not in ("seconds", "nodes")},
                "best": sorted(document["best"])}

    assert fields(answer[-1]) == fields(quick) and answer[-1]["nodes"] is None and quick["nodes"]
    answer = lines(c.post("/api/values", json={"board": board, "moves": moves, "objective": "points"}))
    result = solver.solve(position, "points", cards=True)
    expected = {name: result.achieved + value for name, value in result.card_names().items()}
    assert {line["card"]: line["value"] for line in answer if line["kind"] == "card"} == expected
    assert answer[-1]["cards"] == expected and answer[-1]["total"] == result.total


def test_the_time_limit_stops_a_search():
    c = client(time_limit=0.000001)
    dealt = c.post("/api/deal", json={"game": "Zwanzigerrufen", "seed": 2}).json()
    answer = lines(c.post("/api/values", json={"board": dealt["open"], "moves": []}))
    assert answer[-1]["kind"] == "stopped" and "time limit" in answer[-1]["reason"]
    for by in ("score", "points"):  # the graph's searches too, the settlement's among them
        curve = c.post("/api/curve", json={"board": dealt["open"], "moves": [], "objective": by})
        assert curve.status_code == 409 and curve.json()["reason"] == "the time limit (0.000001 s) ran out"


def test_the_time_limit_stops_the_graphs_settlements(monkeypatch):
    """The graph by the score: its settlement searches (on their own engine) stop at the time limit as well."""
    c = client(time_limit=0.05)
    dealt = c.post("/api/deal", json={"game": "Zwanzigerrufen", "seed": 2}).json()
    position = solver.position_from_record(solver.random_record("Zwanzigerrufen", 2, 1))
    points = solver.analyse_play(position)

    searched = postmortem._analyse_play

    def settlements_only(current, engine, objective, deadline):
        if objective == "score":
            return searched(current, engine, objective, deadline)
        time.sleep(0.06)  # past the limit: only the settlement searches are left to see it
        return points

    monkeypatch.setattr(postmortem, "_analyse_play", settlements_only)
    curve = c.post("/api/curve", json={"board": dealt["open"], "moves": [], "objective": "score"})
    assert curve.status_code == 409 and curve.json()["reason"] == "the time limit (0.05 s) ran out"


def test_the_time_limit_bounds_the_whole_graph(monkeypatch):
    """/api/curve passes its time limit to the post-mortem (not ``stopping`` blocks around ``analyse_play``, which only
    a search of 16,384 nodes looks at), which also looks between cards: where the limit runs out in a played deal's last
    tricks (short searches), the graph stops there and the answer names the limit as the other routes' do, not 0.6 s
    past a limit of 0.3 s."""
    c = client(SK, board="7", time_limit=0.3)
    board, moves = opened(c)
    assert len(moves) == 32
    calls = []

    def slowly(search):
        def searched(self, *arguments, **options):
            calls.append(search.__name__)
            if len(calls) > 16:  # the last four tricks' searches, each too short to look at the clock itself
                time.sleep(0.05)
            return search(self, *arguments, **options)
        return searched

    for name in ("value", "card_values", "value_and_cards"):
        monkeypatch.setattr(board_app.CheckedEngine, name, slowly(getattr(board_app.CheckedEngine, name)))
    passed = []
    real = board_app.analyse_play
    monkeypatch.setattr(board_app, "analyse_play", lambda *arguments, **options: passed.append(options)
                        or real(*arguments, **options))
    curve = c.post("/api/curve", json={"board": board, "moves": moves, "objective": "points"})
    assert curve.status_code == 409, curve.text
    assert curve.json() == {"kind": "stopped", "reason": "the time limit (0.3 s) ran out"}
    assert len(calls) < 28  # at the next card past the limit, not at the graph's end
    assert passed[0]["time_limit"] == 0.3 and passed[0]["stop"] is not None


def test_the_time_limit_stops_the_odds_settlements(monkeypatch):
    """The odds' samples are scored too (a settlement search each, on this thread's settlement engine): the time
    limit stops those searches as well."""
    c = client(time_limit=0.05)
    dealt = c.post("/api/deal", json={"game": "Zwanzigerrufen", "seed": 2}).json()
    position = solver.position_from_record(solver.random_record("Zwanzigerrufen", 2, 1))

    def settlement_only(current, seat, **options):
        time.sleep(0.06)  # past the limit: only the settlement search is left to see it
        return solver.solve(position, "score", cards=True, engine=worker_settlement_engine())

    monkeypatch.setattr(board_app, "analyse_position", settlement_only)
    odds = c.post("/api/odds", json={"board": dealt["open"], "moves": [], "samples": 1})
    assert odds.status_code == 200 and lines(odds)[-1] == {"kind": "stopped",
                                                           "reason": "the time limit (0.05 s) ran out"}


def test_the_time_limit_stops_the_odds_points_searches(monkeypatch):
    """The samples run in the board's thread with one worker, on one search thread: the worker's engine that the limit
    stops is the one they search with, not a fresh engine made for the run that nothing stops."""
    import solver.sampling

    c = client(time_limit=0.3)
    dealt = c.post("/api/deal", json={"game": "Zwanzigerrufen", "seed": 2}).json()
    monkeypatch.setattr(solver.sampling, "_add_score", lambda *arguments: None)  # the points searches alone
    raised: list[str] = []

    def analysis_that_says_why_it_stopped(*arguments, **options):
        try:
            return analyse_position(*arguments, **options)
        except solver.SearchStopped as stopped:
            raised.append(str(stopped))
            raise

    analyse_position = board_app.analyse_position
    monkeypatch.setattr(board_app, "analyse_position", analysis_that_says_why_it_stopped)
    odds = c.post("/api/odds", json={"board": dealt["open"], "moves": [], "samples": 200})
    assert odds.status_code == 200 and lines(odds)[-1] == {"kind": "stopped",
                                                           "reason": "the time limit (0.3 s) ran out"}
    # the engine's search stopped (in it, or before the next one where a loaded machine took the 0.3 s between them);
    # an engine that nothing stops would have answered all 200 samples
    assert len(raised) == 1 and re.fullmatch(r"the search was stopped before it (finished \(its time limit or stop "
                                             r"event\)|started: its time limit was up \(time_limit=0\.3 seconds\))",
                                             raised[0]), raised


def test_a_pot_that_does_not_read_leaves_the_board_on_the_tricks():
    c = client()
    record = solver.position_from_record(solver.random_record("Kratzen", 5, 1, contract="Trump H"))
    board = c.post("/api/load", json={"text": record.to_tbn() + '[Pot "abc"]\n'}).json()["open"]
    view = c.post("/api/position", json={"board": board, "moves": []}).json()
    assert view["default_objective"] == "tricks" and [o["name"] for o in view["objectives"]] == ["score", "tricks"]
    # stich check's words for it, which the contract panel says: the table has no pot
    assert view["pot"] is None and view["pot_error"] == ("pasted text:8:7: [Pot] is not a number of chips (got 'abc', "
                                                         "expected a whole number from 0 to 999,999,999)")
    good = c.post("/api/load", json={"text": record.to_tbn() + '[Pot "8"]\n'}).json()["open"]
    assert c.post("/api/position", json={"board": good, "moves": []}).json()["pot_error"] is None
    scored = lines(c.post("/api/values", json={"board": board, "moves": [], "objective": "score"}))[-1]
    assert scored["kind"] == "error" and "abc" in scored["error"]  # said on the page, in one line


def test_a_newer_question_stops_the_stale_one():
    searches = board_app.Searches(solver.EngineSolver(1), 10.0)
    first = searches.claim("page:values")
    second = searches.claim("page:values")
    other = searches.claim("page:curve")
    assert first.is_set() and not second.is_set() and not other.is_set()
    # the stale question's search ends with SearchStopped at once; the current one answers
    dealt = solver.position_from_record(solver.random_record("Zwanzigerrufen", 11, 1))
    with pytest.raises(solver.SearchStopped):
        solver.solve(dealt, "points", cards=True, engine=searches.engine, stop=first)
    assert solver.solve(dealt, "points", cards=True, engine=searches.engine, stop=second).card_values
    searches.stop("page:curve")
    assert other.is_set()
    searches.release("page:values", second)
    assert second.is_set() and "page:values" not in searches.slots
    searches.close()


@pytest.mark.parametrize("path, extra, answer", [("/api/values", {}, "values"),
                                                 ("/api/odds", {"samples": 1}, "odds")])
def test_a_question_stops_its_pages_stale_graph(path, extra, answer):
    """The card values and the odds each stop the graph their page asked before (the moves before the click, or a
    double-dummy graph when the page turned to single dummy), which would hold the analysis thread they wait for.
    Another page's graph runs on."""
    c = client(SK, board="7")
    board, moves = opened(c)
    searches = c.app.app.state.searches
    mine, theirs = searches.claim("page:curve"), searches.claim("other:curve")
    try:
        answered = lines(c.post(path, json={"board": board, "moves": moves[:-4], "client": "page"} | extra))
        assert answered[-1]["kind"] == answer
        assert mine.is_set() and not theirs.is_set()
    finally:
        searches.release("page:curve", mine)
        searches.release("other:curve", theirs)


def test_a_flood_of_questions_is_told_the_board_is_busy():
    """Every question (card values, the graph, the odds) waits for the one worker thread, in a bounded queue: past
    ``max_questions`` at once the answer is 503 in words, which the page shows, so that a script posting thousands of
    them under as many client names cannot grow the server's memory with each; an answered question, and one whose
    stream ended before its first line, gives its place back."""
    c = client(SK, board="7")
    board, moves = opened(c)
    searches = c.app.app.state.searches
    searches.max_questions = 3
    held = [searches.claim(f"script{number}:values") for number in range(3)]
    for path, extra in (("/api/values", {}), ("/api/curve", {}), ("/api/odds", {"samples": 1})):
        refused(c.post(path, json={"board": board, "moves": moves[:-1], "client": "page"} | extra), 503,
                "the board is busy: 3 questions are being answered or waiting")
    searches.release("script0:values", held[0])
    assert lines(c.post("/api/values", json={"board": board, "moves": moves[:-1], "client": "page"}))[-1]["kind"] \
        == "values"
    assert searches.live == set(held[1:])
    stream = board_app.QuestionResponse(iter_nothing(), lambda: searches.release("script1:values", held[1]))

    async def gone(message):  # the client left before the answer's first line
        raise OSError("the client left")

    with pytest.raises(Exception):
        asyncio.run(stream({"type": "http", "asgi": {"spec_version": "2.4"}}, None, gone))
    assert searches.live == {held[2]}


def test_the_page_and_its_files_are_served_while_the_questions_are_busy():
    """Only the questions are budgeted: with every question's place taken and the bodies' budget full, the page, its
    files and the list of records are still served, not 503; a question is told the board is busy."""
    c = client(SK, board="7")
    board, moves = opened(c)
    searches = c.app.app.state.searches
    searches.max_questions = 2
    held = [searches.claim(f"script{number}:values") for number in range(2)]
    c.app.reading = c.app.max_reading  # the bodies being read hold all the board takes
    try:
        for path in ("/", "/static/board.js", "/static/board.css", "/api/start"):
            assert c.get(path).status_code == 200, path
        refused(c.post("/api/values", json={"board": board, "moves": moves[:-1], "client": "page"}), 503,
                "the board is busy")
    finally:
        c.app.reading = 0
        for number, event in enumerate(held):
            searches.release(f"script{number}:values", event)


async def iter_nothing():
    yield "never read\n"


def test_the_curve_is_the_post_mortem():
    c = client(SK, board="7")
    board, moves = opened(c)
    position = next(p for p in solver.read_positions(SK) if p.record.get("Board") == "7")
    curve = c.post("/api/curve", json={"board": board, "moves": moves}).json()
    analysis = solver.analyse_play(position)
    assert curve["curve"] == list(analysis.curve)
    assert [card["grade"] for card in curve["cards"]] == [card.grade for card in analysis.cards]
    assert curve["trick_ends"] == list(analysis.trick_ends)
    # by the score when the page values cards by it: the post-mortem graded by the score
    scored = c.post("/api/curve", json={"board": board, "moves": moves, "objective": "score"}).json()
    analysis = solver.analyse_play(position, objective="score")
    assert scored["measure"] == analysis.measure == "game units" and scored["curve"] == list(analysis.curve)
    assert [card["grade"] for card in scored["cards"]] == [card.grade for card in analysis.cards]
    assert c.post("/api/curve", json={"board": board, "moves": moves, "objective": "schwarz"}).json()["measure"] \
        == "points"  # any other objective: the card points
    refused(c.post("/api/curve", json={"board": board, "moves": moves, "objective": ["score"]}), 400,
            "the objective is a name")
    refused(c.post("/api/curve", json={"board": board, "moves": moves, "objective": "nonsense"}), 400,
            "objective 'nonsense' is not one of this contract's")  # as /api/values refuses it


def test_the_curve_names_the_bonuses_a_card_lost_as_players_do():
    """Each card carries its ``bonuses_lost`` by the players' names (``Game.lost_bonus_title``: ``Schneider against``),
    as ``stich postmortem`` says them, so the page does not say a card lost ``schneider_against``, the JSON's name; the
    identifiers are kept."""
    c = client(SK, board="7")
    board, moves = opened(c)
    curve = c.post("/api/curve", json={"board": board, "moves": moves, "objective": "points"}).json()
    assert all(list(card["bonus_titles"]) == card["bonuses_lost"] for card in curve["cards"])
    lost = {(card["card"], name, title) for card in curve["cards"] for name, title in card["bonus_titles"].items()}
    # the defenders' Schneider: seat 2's E7 threw it away, seat 3's SO (a declarer's) handed it to them
    assert lost == {("E7", "schneider_against", "Schneider against"), ("SO", "schneider_against", "Schneider against")}


def test_the_curve_says_an_endings_game_line_is_on_its_own_cards():
    """An ending's game line is the whole deal's on the ending's own cards: the CLI says so, the graph said
    "game won at ≥ 45" bare. The curve carries ``whole_deal`` for the page to say it (RULES.md 1.1: 45 of 90)."""
    ending = client(EXAMPLES / "zwanzigerrufen.tbn", board="5")  # an ending holding 62 card points
    board, moves = opened(ending)
    curve = ending.post("/api/curve", json={"board": board, "moves": moves, "objective": "points"}).json()
    assert curve["winning"] == {"name": "game", "value": 45} and curve["whole_deal"] is False
    whole = client(SK, board="7")
    board, moves = opened(whole)
    assert whole.post("/api/curve", json={"board": board, "moves": moves, "objective": "points"}).json()[
        "whole_deal"] is True


def test_the_curve_names_the_card_points_line_its_rings_are_read_on():
    """Zwanzigerrufen by the score: the dashed line is the score's 0, but the game changes hands on the card points'
    45; the curve names that line for the graph's note. By card points there is none beside the dashed line."""
    c = client(ZR, board="2")
    board, moves = opened(c)
    scored = c.post("/api/curve", json={"board": board, "moves": moves, "objective": "score"}).json()
    assert scored["points_winning"] == {"name": "game", "value": 45} and scored["winning"] is None
    assert scored["game_changes"] == [{"number": 19, "won": False}]
    assert c.post("/api/curve", json={"board": board, "moves": moves, "objective": "points"}).json()[
        "points_winning"] is None


def test_the_curve_says_where_the_game_is_won_for_the_graph_s_dashed_line():
    """The curve carries the post-mortem's own line, ``PlayAnalysis.winning``, which the page draws as the graph's
    dashed line: 61 by card points, the settlement's 0 by the score; not half the points (60 of 120), where a curve
    sitting on it is a lost game (RULES.md 2.4: 60:60 goes to the defenders)."""
    c = client(SK, board="7")
    board, moves = opened(c)
    position = next(p for p in solver.read_positions(SK) if p.record.get("Board") == "7")
    points = c.post("/api/curve", json={"board": board, "moves": moves, "objective": "points"}).json()
    assert points["winning"] == {"name": "game", "value": 61} and solver.analyse_play(position).winning == ("game", 61)
    scored = c.post("/api/curve", json={"board": board, "moves": moves, "objective": "score"}).json()
    assert scored["winning"] == {"name": "game", "value": 0}
    tout = client(SK, board="4")  # a Tout by card points: no line (120 points need not be every trick)
    board, moves = opened(tout)
    assert tout.post("/api/curve", json={"board": board, "moves": moves, "objective": "points"}).json()[
        "winning"] is None


def test_the_curve_of_a_tout_by_card_points_says_its_score_does_not_count_them():
    """A Tout's graph by card points measures what its score never counts (it is won by every trick, RULES.md 2.5),
    so the curve carries the library's line saying so (``PlayAnalysis.points_note``), which the page's note ends
    with. By the score, and for a contract won by card points, there is none."""
    tout = client(SK, board="4")
    board, moves = opened(tout)
    points = tout.post("/api/curve", json={"board": board, "moves": moves, "objective": "points"}).json()
    assert points["points_note"] == ("card points: a Wenz Tout's score does not count them (won by every trick); "
                                     "objective 'score' measures it")
    assert tout.post("/api/curve", json={"board": board, "moves": moves, "objective": "score"}).json()[
        "points_note"] is None
    rufer = client(SK, board="7")
    board, moves = opened(rufer)
    assert rufer.post("/api/curve", json={"board": board, "moves": moves, "objective": "points"}).json()[
        "points_note"] is None
    assert "curve.points_note" in (Path(solver.__file__).parent / "board" / "static" / "board.js").read_text(
        encoding="utf-8")


def test_reloading_the_page_keeps_the_files_boards_and_a_board_in_use_stays(tmp_path, monkeypatch):
    """A page load finds the files' boards already there, under the same ids, not added again: otherwise some 10
    reloads of a file of 7 records would fill the server's 200 boards and push out the board an open tab uses."""
    monkeypatch.setattr(session, "MAX_BOARDS", 200)
    c = client(SK)
    first = c.get("/api/start").json()
    in_use = first["open"]
    for _ in range(40):
        again = c.get("/api/start").json()
    assert again["open"] == in_use and again["files"] == first["files"]
    for seed in range(session.MAX_BOARDS + 5):  # new boards: the idle ones go first, not the one in use
        c.post("/api/position", json={"board": in_use, "moves": []})
        c.post("/api/deal", json={"game": "Kratzen", "seed": seed + 1})
    assert c.post("/api/position", json={"board": in_use, "moves": []}).status_code == 200
    edited = tmp_path / "edited.tbn"  # a file edited between two loads is read again
    edited.write_text(SK.read_text())
    c = client(edited)
    before = c.get("/api/start").json()["files"][0]["boards"]
    edited.write_text(SK.read_text().replace("Example: a deal played to the end", "Edited"))
    after = c.get("/api/start").json()["files"][0]["boards"]
    assert len(after) == len(before) and {b["id"] for b in after}.isdisjoint(b["id"] for b in before)


def test_a_named_file_replaced_while_served_by_a_pipe_or_a_huge_file_is_refused(tmp_path, monkeypatch):
    """A page load reads a named file again when it changed. Replaced by a named pipe (which a worker thread would wait
    on for a writer forever, one more thread at each load) or by a huge file (which would be read whole into memory), it
    is refused and said on the page, and the file named again once it is a good file is read again."""
    import threading

    served = tmp_path / "served.tbn"
    served.write_text(SK.read_text())
    c = client(served)
    assert len(c.get("/api/start").json()["files"][0]["boards"]) == 7
    served.unlink()
    os.mkfifo(served)
    answers: list = []
    asking = threading.Thread(target=lambda: answers.append(c.get("/api/start")), daemon=True)
    asking.start()
    asking.join(20)
    if asking.is_alive():  # the old reader waits for a writer: give it an empty one so that the test ends
        os.close(os.open(served, os.O_WRONLY | os.O_NONBLOCK))
        asking.join(20)
    listed = answers[0].json()["files"][0]
    assert listed["boards"] == [] and listed["error"] == (
        f"{served}: not a regular file now (a pipe is at its name); the board reads only regular files")
    served.unlink()
    served.mkdir()  # a directory is said in the same words (not "Is a directory: 8", a descriptor's number)
    assert c.get("/api/start").json()["files"][0]["error"] == (
        f"{served}: not a regular file now (a folder is at its name); the board reads only regular files")
    served.rmdir()
    served.write_text(SK.read_text())
    monkeypatch.setattr(board_app, "MAX_FILE_BYTES", 1000)
    monkeypatch.setattr(session, "MAX_FILE_BYTES", 1000)
    listed = c.get("/api/start").json()["files"][0]
    size = served.stat().st_size
    assert listed["boards"] == [] and listed["error"] == (
        f"{served}: {size:,} bytes, more than the board reads (1,000 bytes; it opens at most 1,000 records)")
    monkeypatch.undo()
    assert len(c.get("/api/start").json()["files"][0]["boards"]) == 7


def test_the_texts_opened_keep_no_forgotten_board(monkeypatch):
    """The texts opened keep ids, and only of boards still open, so a forgotten board is not kept in memory by its
    text."""
    import gc
    import weakref

    monkeypatch.setattr(session, "MAX_BOARDS", 5)
    boards = session.Boards()
    text = solver.position_from_record(solver.random_record("Kratzen", 1, 1)).to_tbn()
    first = boards.add_text(text, "deal-1")
    gone = weakref.ref(first[0])
    assert boards.add_text(text, "deal-1") == first  # the same text again is the same board
    for seed in range(2, 12):
        boards.add_text(solver.position_from_record(solver.random_record("Kratzen", seed, 1)).to_tbn(), f"deal-{seed}")
    del first
    gc.collect()
    assert gone() is None  # forgotten and freed
    kept = [board.id for found in boards._texts.values() for board in found]
    assert len(boards.boards) == 5 and set(kept) <= set(boards.boards) and len(kept) <= 5


def test_the_score_is_offered_only_where_it_can_be_settled():
    c = client()
    dealt = c.post("/api/deal", json={"game": "Zwanzigerrufen", "seed": 3}).json()
    assert c.post("/api/position", json={"board": dealt["open"], "moves": []}).json()["default_objective"] == "score"
    text = solver.position_from_record(solver.random_record("Zwanzigerrufen", 3, 1)).to_tbn()
    text += '[Variant "card_bonus_basis=captured"]\n'  # Trull and 4 Kings by captured cards: no settlement
    opened_ = c.post("/api/load", json={"text": text}).json()
    view = c.post("/api/position", json={"board": opened_["open"], "moves": []}).json()
    assert "score" not in [o["name"] for o in view["objectives"]] and view["default_objective"] == "points"
    refused(c.post("/api/values", json={"board": opened_["open"], "moves": [], "objective": "score"}), 400,
            "objective 'score' is not one of this contract's")
    curve = c.post("/api/curve", json={"board": opened_["open"], "moves": [], "objective": "score"}).json()
    assert curve["measure"] == "points"


def test_the_odds_are_the_analysers():
    c = client(SK, board="7")
    board, moves = opened(c)
    position = next(p for p in solver.read_positions(SK) if p.record.get("Board") == "7")
    position = solver.make_position("Schafkopf", position.rules.deal.text(), str(position.rules.contract),
                                    declarer=position.rules.declarer + 1,
                                    play=[position.pack[c].name for c in position.played[:5]])
    streamed = lines(c.post("/api/odds", json={"board": board, "moves": moves[:5], "samples": 30}))
    odds = streamed[-1]
    # the odds so far after each chunk of samples (the same figures over fewer deals), then the odds
    progress = [line for line in streamed if line["kind"] == "progress"]
    assert streamed[0] == {"kind": "thinking", "of": 30} and odds["kind"] == "odds"
    assert len(progress) > 1 and all(line["of"] == 30 and line.keys() == odds.keys() | {"of"} for line in progress)
    counts = [line["samples"] for line in progress]
    assert counts == sorted(set(counts)) and 0 < counts[0] and counts[-1] <= 30
    seat = position.state.to_move + 1
    expected = solver.analyse_position(position, seat, samples=30, seed=1, workers=1)  # stich analyse's default seed
    assert odds["seat"] == seat and odds["samples"] == 30
    assert odds["mean"] == pytest.approx(expected.mean)
    assert odds["win_probability"] == pytest.approx(expected.win_probability)
    assert odds["win_interval"] == pytest.approx(list(expected.win_interval))
    assert [o["card"] for o in odds["openings"]] == [o.card for o in expected.openings]
    # each bonus by the name players use, the other side's with "against" (as stich check and analyse name them)
    assert {(b["objective"], b["title"]) for b in odds["bonuses"]} >= {
        ("schneider_against", "Schneider against"), ("schneider", "Schneider"), ("game", "Game")}
    # the score beside the points: the declaring side's mean settlement, overall and after each card
    document = expected.as_dict()
    assert odds["score_mean"] == pytest.approx(document["score_mean"]) and odds["score_mean"] is not None
    assert odds["score_interval"] == pytest.approx(document["score_interval"])
    assert [o["mean_score"] for o in odds["openings"]] == pytest.approx([o["mean_score"] for o in document["openings"]])


def test_the_odds_of_an_ending_are_refused_at_once_with_why():
    """An ending (Schafkopf board 6: two cards a hand) has no single-dummy odds, the analyser redealing a whole
    deal's unseen cards: refused before the stream begins, in the board's words, not said after a "thinking" line
    as the analyser's error on a position."""
    c = client(SK, board="6")
    board, moves = opened(c)
    answer = c.post("/api/odds", json={"board": board, "moves": moves})
    assert answer.status_code == 400
    assert answer.json()["error"] == ("single-dummy odds redeal the unseen cards of a whole deal played from its first "
                                      "trick; this record is an ending (hands of a few cards): the double-dummy view "
                                      "values it")
    with pytest.raises(solver.errors.InvalidDealError, match="not an ending"):  # the analyser's own refusal
        solver.analyse_position(next(p for p in solver.read_positions(SK) if p.record.get("Board") == "6"), 2,
                                samples=2)


def test_save_writes_a_record_every_command_reads(tmp_path):
    c = client(ZR, board="1")
    board, moves = opened(c)
    # two tricks of the record, then a card of the third: a trick in progress
    saved = c.post("/api/save", json={"board": board, "moves": moves[:9]})
    assert saved.status_code == 200
    assert saved.headers["content-disposition"] == 'attachment; filename="zwanzigerrufen-1.tbn"'
    # a name in other letters than Latin-1's failed the save (500, UnicodeEncodeError): it goes as filename*
    for name, sent in (("şah", "attachment; filename=\"_ah-1.tbn\"; filename*=UTF-8''%C5%9Fah-1.tbn"),
                       ("Übung", "attachment; filename=\"_bung-1.tbn\"; filename*=UTF-8''%C3%9Cbung-1.tbn")):
        uploaded = c.post("/api/load", files={"file": (f"{name}.tbn", ZR.read_bytes(), "text/plain")}).json()
        named = c.post("/api/save", json={"board": uploaded["open"], "moves": []})
        assert named.status_code == 200 and named.headers["content-disposition"] == sent
    path = tmp_path / "saved.tbn"
    path.write_text(saved.text, encoding="utf-8")
    again = next(solver.read_positions(path))
    assert [again.pack[c].name for c in again.played] == moves[:9]
    assert again.record.get("Event") == "Example: Normal game, called card derived"
    assert "[Play \"1\"]\nT19 T5 T21 T6\nHK HG HJ T11\nTS\n*\n" in saved.text  # '*' ends it, as FORMAT.md writes
    assert saved.text.endswith("TS\n*\n\n")  # and a blank line, so that saved files can be concatenated
    assert len(list(solver.read_positions(_write(tmp_path, saved.text + saved.text)))) == 2
    untouched = c.post("/api/save", json={"board": board, "moves": []}).text
    assert '[Play "' not in untouched and next(solver.read_positions(_write(tmp_path, untouched))).played == ()
    # the CLI reads it too
    run = subprocess.run([sys.executable, "-c", "from solver.cli.main import main; main()", "solve", str(path)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "again.tbn"
    path.write_text(text, encoding="utf-8")
    return path


def test_upload_and_paste_open_records():
    c = client()
    text = ZR.read_text(encoding="utf-8")
    uploaded = c.post("/api/load", files={"file": ("mine.tbn", text.encode(), "text/plain")}).json()
    assert len(uploaded["boards"]) == 7 and uploaded["boards"][0]["label"] == "mine.tbn board 1"
    pasted = c.post("/api/load", json={"text": SK.read_text(encoding="utf-8")}).json()
    assert pasted["boards"][0]["game"] == "Schafkopf"
    view = c.post("/api/position", json={"board": pasted["open"], "moves": []}).json()
    assert view["game"] == "Schafkopf"
    # the same file again is the same boards (the page lists them once); another name or an edit is new boards
    again = c.post("/api/load", files={"file": ("mine.tbn", text.encode(), "text/plain")}).json()
    assert again == uploaded
    renamed = c.post("/api/load", files={"file": ("yours.tbn", text.encode(), "text/plain")}).json()
    edited = c.post("/api/load", files={"file": ("mine.tbn", text.encode() + b"\n", "text/plain")}).json()
    ids = {b["id"] for b in uploaded["boards"]}
    assert ids.isdisjoint(b["id"] for b in renamed["boards"]) and ids.isdisjoint(b["id"] for b in edited["boards"])


def test_a_pasted_or_uploaded_bad_contract_is_said_once():
    """The refusal of a record with [Contract "Valat"], pasted or uploaded, names the contract once, with what was
    expected, not twice ("... 'Valat' (expected ...) (got 'Valat')")."""
    text = re.sub(r'\[Contract "[^"]*"\]', '[Contract "Valat"]', ZR.read_text(encoding="utf-8"), count=1)
    line = text[:text.index('[Contract "Valat"]')].count("\n") + 1
    said = f":{line}:12: unknown Zwanzigerrufen contract 'Valat' (expected Normal [T20..T16] | Solo | SuitSolo)"
    c = client()
    assert c.post("/api/load", json={"text": text}).json()["refused"] == ["pasted text" + said]
    uploaded = c.post("/api/load", files={"file": ("mine.tbn", text.encode(), "text/plain")}).json()
    assert uploaded["refused"] == ["mine.tbn" + said]


def test_a_pasted_empty_contract_is_said_to_be_empty():
    """A pasted record with [Contract ""] is refused as an empty contract, not with "(got '')" after it."""
    text = re.sub(r'\[Contract "[^"]*"\]', '[Contract ""]', ZR.read_text(encoding="utf-8"), count=1)
    line = text[:text.index('[Contract ""]')].count("\n") + 1
    refused = client().post("/api/load", json={"text": text}).json()["refused"]
    assert refused == [f"pasted text:{line}:12: empty contract (expected Normal [T20..T16] | Solo | SuitSolo)"]


def test_the_largest_upload_keeps_its_boards_and_the_one_in_use():
    """An upload of 1,000 records (the most it may hold) keeps its own first board, the one the page opens, and every
    board of the named files."""
    c = client(SK)
    in_use, _ = opened(c)
    record = KR.read_text(encoding="utf-8").split("\n\n% 2.")[0]  # the first record of the Kratzen examples
    text = "\n\n".join(record.replace('[Board "1"]', f'[Board "{n}"]') for n in range(1, MAX_RECORDS + 1))
    uploaded = c.post("/api/load", files={"file": ("many.tbn", text.encode(), "text/plain")}).json()
    assert len(uploaded["boards"]) == MAX_RECORDS
    for board in (uploaded["open"], uploaded["boards"][-1]["id"], in_use):
        assert c.post("/api/position", json={"board": board, "moves": []}).status_code == 200, board


def test_one_bad_record_does_not_keep_the_others_off_the_table(tmp_path):
    """An upload of many records with one bad one among them is not refused whole: as on the command line, the good
    records open and the bad one is named with its line and column."""
    record = KR.read_text(encoding="utf-8").split("\n\n% 2.")[0]
    good = [record.replace('[Board "1"]', f'[Board "{n}"]') for n in range(1, 4)]
    bad = good[1].replace('[Declarer "1"]', '[Declarer "9"]')
    assert bad != good[1]
    text = "\n\n".join([good[0], bad, good[2]]) + "\n"
    line = text.splitlines().index('[Declarer "9"]') + 1
    c = client()
    answer = c.post("/api/load", files={"file": ("three.tbn", text.encode(), "text/plain")}).json()
    assert [b["label"].split()[-1] for b in answer["boards"]] == ["1", "3"]
    (said,) = answer["refused"]
    assert said.startswith(f"three.tbn:{line}:") and "[Declarer]" in said
    assert c.post("/api/load", json={"text": good[0]}).json()["refused"] == []
    refused(c.post("/api/load", json={"text": bad}), 400, "[Declarer]")  # no good record: refused, as before
    named = client(_write(tmp_path, text)).get("/api/start").json()
    (listed,) = named["files"]
    assert len(listed["boards"]) == 2 and listed["error"].startswith(f"{tmp_path / 'again.tbn'}:{line}:")
    # what is said and kept of many bad records is bounded: the first 20, and how many more
    many = "\n\n".join([good[0]] + [bad] * 25) + "\n"
    said = c.post("/api/load", json={"text": many}).json()["refused"]
    assert len(said) == 21 and said[-1] == ("pasted text: and 5 more bad records, not said one by one (the first 20 "
                                            "are above); the board opens the other records")
    flood = c.post("/api/load", json={"text": "[\n\n" * 5000})  # refused without reading every error to the end
    refused(flood, 400, "holds more than 1,000 records; the board opens at most 1,000")
    two = c.post("/api/load", json={"text": bad + "\n\n" + bad})  # no good record: the first, and the count
    refused(two, 400, "(and 1 more bad record)")


def test_many_bad_records_are_said_by_the_command_lines_rule_on_the_page_and_at_start(tmp_path):
    """The page and the command's start say many bad records by the command line's rule (cli.errors.RecordMessages), in
    the same words: the first 20, then the first of each kind past them, so that a different error after 25 of one kind
    is not hidden in a count ("and 6 more bad records")."""
    record = KR.read_text(encoding="utf-8").split("\n\n% 2.")[0]
    bad = record.replace('[Declarer "1"]', '[Declarer "9"]')
    other = record.replace('[Contract "', '[Contract "Nonsense ')
    text = "\n\n".join([record] + [bad] * 25 + [other] + [bad] * 2) + "\n"
    path = _write(tmp_path, text)
    (listed,) = client(path).get("/api/start").json()["files"]
    said = listed["error"].split("\n")
    assert len(listed["boards"]) == 1 and len(said) == 22
    assert all("[Declarer] is not a seat" in line for line in said[:20])
    line = text.split("\n").index('[Contract "Nonsense Trump S"]') + 1
    assert said[20].startswith(f"{path}:{line}:") and "Nonsense" in said[20]  # the first of its kind, said
    assert said[21] == (f"{path}: and 7 more bad records, not said one by one (the first 20 are above, and 1 after "
                        "them, the first of its kind); the board opens the other records")
    run = subprocess.run([sys.executable, "-c", "from solver.cli.main import main; main()", "board", str(path),
                          "--no-open", "--port", "0", "--host", "256.0.0.1"], capture_output=True, text=True,
                         timeout=60)
    stderr = run.stderr.splitlines()
    assert stderr[:20] == [f"stich: {line} (the board opens the file's other records)" for line in said[:20]]
    assert stderr[20:22] == [f"stich: {said[20]} (the board opens the file's other records)", f"stich: {said[21]}"]


@pytest.mark.parametrize("opened_by", ["upload", "named file"])
def test_a_big_file_parses_while_the_board_answers_others(monkeypatch, tmp_path, opened_by):
    """An upload of 1,000 records (or a named file of as many, at the page's first load) is parsed off the event loop,
    where its 0.3 s or so would keep every other request of any page unanswered. Here the parse waits until another
    request is answered: on the event loop it would hold that answer up, so the other answer would come last."""
    import asyncio
    import threading

    import httpx

    record = KR.read_text(encoding="utf-8").split("\n\n% 2.")[0]
    text = "\n\n".join(record.replace('[Board "1"]', f'[Board "{n}"]') for n in range(1, MAX_RECORDS + 1))
    parsing, answered, order = threading.Event(), threading.Event(), []
    iter_records = session.iter_records

    def parse_when_answered(text, name):
        parsing.set()
        answered.wait(60)  # on the event loop this wait would time out: the other request cannot be answered
        order.append("parsed")
        return iter_records(text, name=name)

    monkeypatch.setattr(session, "iter_records", parse_when_answered)
    app = create_app([_write(tmp_path, text)] if opened_by == "named file" else [])

    async def requests() -> tuple[httpx.Response, httpx.Response]:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1") as c:
            big = asyncio.ensure_future(c.get("/api/start") if opened_by == "named file" else
                                        c.post("/api/load", files={"file": ("many.tbn", text.encode(), "text/plain")}))
            await asyncio.to_thread(parsing.wait, 10)
            other = await c.post("/api/deal", json={"game": "Kratzen", "seed": 1})
            order.append("answered")
            answered.set()
            return await big, other

    big, other = asyncio.run(requests())
    assert order == ["answered", "parsed"]
    assert other.status_code == 200 and big.status_code == 200
    boards = big.json()["files"][0]["boards"] if opened_by == "named file" else big.json()["boards"]
    assert len(boards) == MAX_RECORDS


def test_the_server_holds_no_more_boards_than_it_keeps(monkeypatch):
    """Only the boards the server keeps stay alive: the cache of texts holds no board the server has forgotten, so
    100 distinct uploads of a 990-record file do not pile up (2.1 GB if each upload's boards stayed)."""
    import gc

    from solver.board.session import Board

    monkeypatch.setattr(session, "MAX_BOARDS", 200)
    MAX_BOARDS = session.MAX_BOARDS
    app = create_app([])
    c = TestClient(app, base_url="http://127.0.0.1")
    text = SK.read_text(encoding="utf-8")
    uploads = MAX_BOARDS // 7 * 3  # three times as many records as the server keeps
    for number in range(uploads):
        found = c.post("/api/load", json={"text": f"{text}\n% upload {number}\n"}).json()
        assert len(found["boards"]) == 7
    gc.collect()
    alive = [o for o in gc.get_objects() if isinstance(o, Board)]
    assert len(alive) == len(app.app.state.boards.boards) == MAX_BOARDS
    # the last text again is still the same boards (nothing of it was forgotten)
    assert c.post("/api/load", json={"text": f"{text}\n% upload {uploads - 1}\n"}).json() == found


def test_a_file_of_the_most_records_opens_at_its_first_board(tmp_path):
    """A file of the most records a board opens, named on the command line or uploaded, opens at its first board, and a
    reload lists the same boards, not the file read again under new ids."""
    copies = session.MAX_RECORDS // 7  # the 7 records of the Schafkopf examples
    text = "\n\n".join([SK.read_text(encoding="utf-8")] * copies)
    big = _write(tmp_path, text)
    count = 7 * copies
    c = client(big)
    start = c.get("/api/start").json()
    assert len(start["files"][0]["boards"]) == count
    assert c.post("/api/position", json={"board": start["open"], "moves": []}).status_code == 200
    assert c.get("/api/start").json() == start  # a reload: the same boards
    uploaded = c.post("/api/load", files={"file": ("big.tbn", text.encode(), "text/plain")}).json()
    assert c.post("/api/position", json={"board": uploaded["open"], "moves": []}).status_code == 200


def test_a_new_deal_is_stich_deals():
    c = client()
    dealt = c.post("/api/deal", json={"game": "schafkopf", "contract": "Solo H", "seed": 7}).json()
    record = solver.random_record("Schafkopf", 7, 1, contract="Solo H")
    view = c.post("/api/position", json={"board": dealt["open"], "moves": []}).json()
    position = solver.position_from_record(record)
    order = display_order(position)  # a Solo's trumps first, strongest first, then the suits in the pack's order
    assert [[c["name"] for c in h["cards"]] for h in view["hands"]] == \
        [[position.pack[i].name for i in order if hand >> i & 1] for hand in position.state.hands]
    assert [c["name"] for c in view["hands"][0]["cards"]][:6] == ["SU", "HA", "HK", "H9", "H8", "H7"]


def test_a_file_with_two_records_not_utf8_says_each_and_opens_the_others(tmp_path):
    """A named FILE and an upload are read by the command line's reader, record by record: the board says each record
    that is not UTF-8 at its place and opens the others, as ``stich check`` solves them, not only the file's first bad
    byte with nothing opened."""
    records = [part for part in SK.read_text(encoding="utf-8").split("\n\n") if "[Game" in part][:4]
    bad = [records[0].replace('[Board "1"]', '[Board "1"]\n[Site "M\u00fcnchen"]'), records[1],
           records[2].replace('[Board "3"]', '[Board "3"]\n[Event "G\u00e4ste"]'), records[3]]
    latin = "\n\n".join(bad).encode("latin-1") + b"\n"
    lines = latin.split(b"\n")
    first = lines.index('[Site "M\u00fcnchen"]'.encode("latin-1")) + 1
    second = lines.index('[Event "G\u00e4ste"]'.encode("latin-1")) + 1
    named = tmp_path / "two.tbn"
    named.write_bytes(latin)
    said = [f"{named}:{first}:9: invalid UTF-8 (byte fc) (expected UTF-8 text)",
            f"{named}:{second}:10: invalid UTF-8 (byte e4) (expected UTF-8 text)"]
    (listed,) = client(named).get("/api/start").json()["files"]
    assert listed["error"].split("\n") == said
    assert [board["label"] for board in listed["boards"]] == ["two.tbn board 2", "two.tbn board 4"]
    loaded = client().post("/api/load", files={"file": ("two.tbn", latin, "text/plain")}).json()
    assert loaded["refused"] == [line.replace(str(named), "two.tbn") for line in said]
    assert [board["label"] for board in loaded["boards"]] == ["two.tbn board 2", "two.tbn board 4"]


@pytest.mark.parametrize("body, status, words", [
    ({"text": "[Game \"Schafkopf\"]\n[Deal \"1: EA\"]\n"}, 400, "pasted text:2:"),
    ({"text": ""}, 400, "empty"),
    ({"text": "% only a comment\n"}, 400, 'pasted text: no records (empty, or only comments; a record starts with '
     'tags such as [Game "Schafkopf"] [Deal "..."])'),
    ({"text": '{"game": "Schafkopf"}\n'}, 400, 'pasted text:1:1: the file holds JSON, not TBN records: an object '
     '(got \'{"game": "Schafkopf"}\', expected TBN records such as [Game "Schafkopf"] [Deal "..."] (docs/format.md; '
     "stich deal writes some))"),
    ({"text": 5}, 400, "paste the text"),
])
def test_bad_records_are_said_with_their_place(body, status, words):
    refused(client().post("/api/load", json=body), status, words)


def test_bad_uploads_are_refused():
    c = client()
    refused(c.post("/api/load", files={"file": ("x.tbn", b"\xff\xfe\x00bad", "text/plain")}), 400,
            "x.tbn:1:1: invalid UTF-8 (byte ff fe, a UTF-16 byte order mark")
    big = b"% " + b"x" * 3_000_000 + b"\n"
    refused(c.post("/api/load", files={"file": ("big.tbn", big, "text/plain")}), 413, "larger than the board takes")


def test_text_that_is_not_utf8_is_said_at_its_place(tmp_path):
    """A Latin-1 'ü' in an uploaded or named file is said as ``stich solve`` says it (line, column, byte), not as
    "x.tbn is not UTF-8 text" nor Python's codec message with a byte offset; a pasted lone surrogate (JSON
    "\\udcfc") is said too, not a server error."""
    text = SK.read_text(encoding="utf-8")
    latin = text.replace("[Board \"2\"]", "[Site \"M\u00fcller\"]\n[Board \"2\"]", 1).encode("latin-1")
    line = latin.split(b"\n").index("[Site \"M\u00fcller\"]".encode("latin-1")) + 1
    c = client()
    loaded = c.post("/api/load", files={"file": ("x.tbn", latin, "text/plain")}).json()  # the others open
    assert loaded["refused"] == [f"x.tbn:{line}:9: invalid UTF-8 (byte fc) (expected UTF-8 text)"]
    named = tmp_path / "latin.tbn"
    named.write_bytes(latin)
    (listed,) = client(named).get("/api/start").json()["files"]
    assert listed["error"] == f"{named}:{line}:9: invalid UTF-8 (byte fc) (expected UTF-8 text)"
    assert len(listed["boards"]) == len(loaded["boards"]) == 6
    body = b'{"text": "[Game \\"Schafkopf\\"]\\n[Event \\"M\\udcfcller\\"]\\n"}'
    refused(c.post("/api/load", content=body, headers={"content-type": "application/json"}), 400,
            "pasted text:2:10: a lone surrogate (U+DCFC), not a character")
    # its line and column counted at CR, CR LF and LF line ends, as the file reader counts them (LF only said
    # line 1 of a CR-only paste, at a column past its first line)
    for ending in ("\\r", "\\r\\n", "\\n"):
        pasted = '[Game \\"Schafkopf\\"]%s%s[Event \\"M\\udcfcller\\"]%s' % (ending, ending, ending)
        body = ('{"text": "%s"}' % pasted).encode()
        refused(c.post("/api/load", content=body, headers={"content-type": "application/json"}), 400,
                "pasted text:3:10: a lone surrogate (U+DCFC), not a character")
    # CRLF line ends and a BOM in a named file read as in the CLI
    named.write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode())
    (listed,) = client(named).get("/api/start").json()["files"]
    assert "error" not in listed and len(listed["boards"]) == 7


@pytest.mark.parametrize("body, status, words", [
    ({"board": "b999", "moves": []}, 404, "no board"),
    ({"board": "b1", "moves": ["T19", "QQ"]}, 400, "move 2"),
    ({"board": "b1", "moves": ["T5"]}, 400, "move 1 (T5): seat 1 does not hold T5"),
    ({"board": "b1", "moves": "T19"}, 400, "list of card tokens"),
    ({"board": "b1", "moves": ["T19"] * (MAX_MOVES + 1)}, 400, "at most"),
    ({"board": "b1", "moves": [1]}, 400, "not a card token"),
])
def test_bad_moves_are_refused(body, status, words):
    c = client(ZR)
    c.get("/api/start")
    refused(c.post("/api/position", json=body), status, words)
    refused(c.post("/api/values", json=body), status, words)
    refused(c.post("/api/save", json=body), status, words)


@pytest.mark.parametrize("route", ["/api/position", "/api/values", "/api/curve", "/api/odds", "/api/save"])
def test_a_question_naming_no_board_is_told_so_not_of_a_board_none(route):
    """A body without "board", or with null there, is told it names none, not "no board None is open on this server"."""
    c = client(ZR)
    c.get("/api/start")
    for body in ({"moves": []}, {"board": None, "moves": []}):
        answer = c.post(route, json=body)
        refused(answer, 400, "the request names no board: its \"board\" is the id of an open board, such as 'b1' "
                "(/api/start lists them)")
        assert "None" not in answer.json()["error"]
    refused(c.post(route, json={"board": 1}), 400, "\"board\" is an open board's id, a string such as 'b1', not 1")


def test_a_value_sent_not_as_text_is_quoted_as_the_json_sent():
    """A board id, a move or an objective sent as true or an object is quoted as the JSON the page sent, not in Python's
    words (True, {'a': 1})."""
    c = client(ZR)
    board, _ = opened(c)
    said = "\"board\" is an open board's id, a string such as 'b1', not "
    refused(c.post("/api/position", json={"board": True}), 400, said + "true")
    refused(c.post("/api/position", json={"board": {"a": 1}}), 400, said + '{"a": 1}')
    refused(c.post("/api/position", json={"board": board, "moves": [None]}), 400, "move 1 is not a card token: null")
    refused(c.post("/api/curve", json={"board": board, "moves": [], "objective": False}), 400,
            "the objective is a name, not false")


def test_a_value_sent_not_as_text_shows_its_invisible_characters_escaped():
    """Text inside a value sent not as text (a list, an object) is quoted as the JSON sent with its bidi and invisible
    characters escaped as a quoted text's are: U+202E left raw would reorder the message shown."""
    c = client(ZR)
    said = "\"board\" is an open board's id, a string such as 'b1', not "
    answer = c.post("/api/position", json={"board": ["a\u202eb", "c\u200bd", "\x1b[2J", "\x85", "ä♠"]})
    refused(answer, 400, said + '["a\\u202eb", "c\\u200bd", "\\u001b[2J", "\\x85", "ä♠"]')
    assert not any(hidden in answer.json()["error"] for hidden in "\u202e\u200b\x1b\x85")


def test_bad_questions_are_refused():
    c = client(ZR)
    board, moves = opened(c)
    refused(c.post("/api/values", json={"board": board, "moves": moves, "objective": "schwarz"}), 400,
            "not one of this contract's")
    refused(c.post("/api/odds", json={"board": board, "moves": moves, "samples": 10 ** 9}), 400, "samples")
    refused(c.post("/api/odds", json={"board": board, "moves": moves, "seat": 9}), 400, "seat")
    for seat in (0, False, "", []):  # not read as "the seat to move"
        refused(c.post("/api/odds", json={"board": board, "moves": moves, "seat": seat}), 400, "seat is a seat number")
    refused(c.post("/api/position", content=b"{not json", headers={"Content-Type": "application/json"}), 400,
            "not JSON")
    refused(c.post("/api/position", json=[1, 2]), 400, "the request body is a JSON array, not the JSON object")
    refused(c.post("/api/position", json="b1"), 400, "the request body is a JSON string, not the JSON object")
    refused(c.post("/api/position", json=True), 400, "the request body is a JSON boolean, not the JSON object")
    # the example is one of what the route reads
    refused(c.post("/api/save", json=[]), 400, 'the request body is a JSON array, not the JSON object the board '
                                               'reads (such as {"board": "b1", "moves": []})')
    refused(c.post("/api/load", json="x"), 400, 'the request body is a JSON string, not the JSON object the board '
                                                'reads (such as {"text": "[Game \\"Kratzen\\"] ..."})')
    refused(c.post("/api/deal", json=1), 400, 'the request body is a JSON number, not the JSON object the board '
                                              'reads (such as {"game": "Kratzen", "seed": 1})')
    refused(c.post("/api/position", content=b'{"board": "b\xff1"}', headers={"Content-Type": "application/json"}),
            400, "the request body is not UTF-8 text (byte ff at byte 13)")
    # UTF-16 is not read (json.loads of bytes would), a BOM before UTF-8 is; a bad byte after it is placed in the body
    wide = json.dumps({"board": board, "moves": moves}).encode("utf-16-le")
    refused(c.post("/api/position", content=b"\xff\xfe" + wide, headers={"Content-Type": "application/json"}), 400,
            "the request body is not UTF-8 text (byte ff at byte 1); JSON is sent as UTF-8")
    refused(c.post("/api/position", content=wide, headers={"Content-Type": "application/json"}), 400, "not JSON")
    marked = b"\xef\xbb\xbf" + json.dumps({"board": board, "moves": moves}).encode()
    assert c.post("/api/position", content=marked, headers={"Content-Type": "application/json"}).status_code == 200
    refused(c.post("/api/position", content=b'\xef\xbb\xbf{"board": "b\xff1"}',
                   headers={"Content-Type": "application/json"}), 400, "not UTF-8 text (byte ff at byte 16)")
    # JSON nested past the decoder's recursion limit is refused, not a 500 "please report it"
    deep = b"[" * 100_000 + b"]" * 100_000
    refused(c.post("/api/position", content=deep, headers={"Content-Type": "application/json"}), 400,
            "nested too deeply")
    refused(c.post("/api/load", content=b'{"text": ' + deep + b"}", headers={"Content-Type": "application/json"}),
            400, "nested too deeply")
    # a number of more digits than Python converts is JSON all the same, and not said to be otherwise
    long_number = b'{"game": "Kratzen", "seed": 1' + b"0" * 5000 + b"}"
    refused(c.post("/api/deal", content=long_number, headers={"Content-Type": "application/json"}), 400,
            "the request body has a number of 5,001 digits; the board reads numbers of at most 100")
    negative = b'{"game": "Kratzen", "seed": -1' + b"0" * 100 + b"}"  # its minus sign is no digit
    refused(c.post("/api/deal", content=negative, headers={"Content-Type": "application/json"}), 400,
            "the request body has a number of 101 digits; the board reads numbers of at most 100")
    refused(c.post("/api/deal", json={"game": "Bridge", "seed": 1}), 400, "unknown game")
    refused(c.post("/api/deal", json={"game": "Kratzen", "seed": "x"}), 400, "seed")
    refused(c.post("/api/deal", json={"game": "Kratzen", "seed": 1, "seats": 9}), 400, "3 to 6")
    refused(c.post("/api/deal", json={"game": "Schafkopf", "seed": 1, "contract": "Grand"}), 400, "Grand")
    # a contract that is no text, a declarer in a list or beyond the seats, seats written "04"
    refused(c.post("/api/deal", json={"game": "Kratzen", "seed": 1, "contract": 5}), 400, "a contract is text")
    refused(c.post("/api/deal", json={"game": "Kratzen", "seed": 1, "declarer": [1]}), 400,
            "the attacker is a seat from 1 to 3, not [1]")  # as the Deal form names the field in Kratzen
    refused(c.post("/api/deal", json={"game": "Kratzen", "seed": 1, "seats": 5, "declarer": 6}), 400,
            "the attacker is a seat from 1 to 5, not 6")
    refused(c.post("/api/deal", json={"game": "Zwanzigerrufen", "seed": 1, "declarer": 9}), 400,
            "the declarer is a seat from 1 to 4, not 9")
    refused(c.post("/api/deal", json={"game": "Kratzen", "seed": 1, "seats": "04"}), 400, "not '04'")
    # digits int() refuses (a superscript) are no number: a 400 with the message, not a 500 (the reread)
    refused(c.post("/api/deal", json={"game": "Kratzen", "seed": 1, "declarer": "\u00b2"}), 400,
            "the attacker is a seat")
    refused(c.post("/api/deal", json={"game": "Kratzen", "seed": "\u00b2"}), 400, "seed")
    assert c.get("/api/nothing").status_code == 404
    assert c.get("/api/position").status_code == 405


def test_foreign_hosts_and_origins_are_refused():
    c = TestClient(create_app([ZR], port=8421), base_url="http://127.0.0.1:8421")
    assert c.get("/api/start").status_code == 200
    assert c.get("/api/start", headers={"Host": "localhost:8421"}).status_code == 200
    assert c.get("/api/start", headers={"Host": "[::1]:8421"}).status_code == 200
    refused(c.get("/api/start", headers={"Host": "attacker.example:8421"}), 421, "its own address")
    refused(c.get("/api/start", headers={"Host": "127.0.0.1:9999"}), 421, "its own address")
    refused(c.get("/", headers={"Host": ""}), 421, "its own address")
    refused(c.post("/api/deal", json={"game": "Kratzen", "seed": 1},
                   headers={"Origin": "http://attacker.example"}), 403, "other sites")
    refused(c.post("/api/deal", json={"game": "Kratzen", "seed": 1}, headers={"Origin": "null"}), 403, "other sites")
    same = c.post("/api/deal", json={"game": "Kratzen", "seed": 1}, headers={"Origin": "http://127.0.0.1:8421"})
    assert same.status_code == 200


#: A browser's WebSocket handshake (RFC 6455 1.3's example key).
WEBSOCKET_HANDSHAKE = {"Connection": "keep-alive, Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
                       "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}


def refused_websocket(status: int, headers, body: dict) -> None:
    """A WebSocket's handshake refused as every refusal of the board is: 403, in JSON, with the safety headers."""
    assert status == 403 and body == {"error": "the board has no WebSocket: it answers plain HTTP requests only"}
    assert headers["content-type"] == "application/json" and headers["x-frame-options"] == "DENY"
    assert headers["x-content-type-options"] == "nosniff" and headers["cache-control"] == "no-store"
    assert "frame-ancestors 'none'" in headers["content-security-policy"]


def test_a_websocket_handshake_is_refused_in_json_with_the_safety_headers():
    """The board has no WebSocket. stich board's server hands the app an Upgrade to one as the plain request it also
    is, which the guard refuses in JSON (not uvicorn's bare 403 with an empty body and no safety headers); a server
    that hands the app WebSockets gets the same refusal as the handshake's answer (ASGI's denial response). An
    Upgrade to another protocol (h2c) is answered as the plain request."""
    from starlette.testclient import WebSocketDenialResponse

    c = client(ZR)
    answer = c.get("/api/start", headers=WEBSOCKET_HANDSHAKE)
    refused_websocket(answer.status_code, answer.headers, answer.json())
    with pytest.raises(WebSocketDenialResponse) as denied:
        with c.websocket_connect("/api/start"):
            pass
    refused_websocket(denied.value.status_code, denied.value.headers, denied.value.json())
    assert c.get("/api/start", headers={"Connection": "Upgrade", "Upgrade": "h2c"}).status_code == 200
    refused(c.get("/api/start", headers={**WEBSOCKET_HANDSHAKE, "Host": "attacker.example"}), 421, "its own address")


DEAL = {"game": "Kratzen", "seed": 1}


@pytest.fixture
def club_machine(monkeypatch):
    """This machine named ``clubpc`` (``clubpc.club.lan`` in full), whatever the test machine is called."""
    from solver.board import guard

    monkeypatch.setattr(guard.socket, "gethostname", lambda: "ClubPC")
    monkeypatch.setattr(guard.socket, "getfqdn", lambda name="": "clubpc.club.lan")


@pytest.mark.parametrize("wildcard", ["0.0.0.0", "::"])
def test_bound_to_every_address_the_machines_addresses_and_names_are_its_own(club_machine, wildcard):
    """``stich board --host 0.0.0.0`` answers browsers on another machine, which name the board by this machine's IP
    address or name, not 0.0.0.0, rather than a 421 to every one: an IP literal cannot be rebound by DNS and the
    machine's names are its own, so both are the board's, on its port; other names, other ports and other Origins are
    still refused."""
    c = TestClient(create_app([ZR], host=wildcard, port=8421), base_url="http://192.0.2.7:8421")
    for host in ("192.0.2.7:8421", "10.1.2.3:8421", "[fd00::5]:8421", "[::ffff:192.0.2.7]:8421", "clubpc:8421",
                 "CLUBPC.club.lan:8421", "clubpc.local:8421", "localhost:8421", "127.0.0.1:8421", "[::1]:8421"):
        assert c.get("/api/start", headers={"Host": host}).status_code == 200, host
    for host in ("attacker.example:8421", "clubpc.attacker.example:8421", "192.0.2.7:9999", "192.0.2.7", "clubpc",
                 "other.local:8421", "clubpc.local.attacker.example:8421", "0x7f.1:8421", "3232235777:8421", ""):
        refused(c.get("/api/start", headers={"Host": host}), 421, "its own address")
    for host, origin in (("192.0.2.7:8421", "http://192.0.2.7:8421"), ("192.0.2.7:8421", "http://clubpc:8421"),
                         ("[fd00::5]:8421", "http://[fd00::5]:8421"), ("localhost:8421", "http://localhost:8421"),
                         ("127.0.0.1:8421", "http://127.0.0.1:8421")):
        assert c.post("/api/deal", json=DEAL, headers={"Host": host, "Origin": origin}).status_code == 200, origin
    # a loopback name in an Origin is the visitor's own machine (a page on its localhost at the board's port must not
    # post to a board on the network), the board's only when it is the request's own Host
    for host, origin in (("clubpc:8421", "http://localhost:8421"), ("192.0.2.7:8421", "http://127.0.0.1:8421"),
                         ("192.0.2.7:8421", "http://[::1]:8421")):
        refused(c.post("/api/deal", json=DEAL, headers={"Host": host, "Origin": origin}), 403, "other sites")
    # an IP literal in an Origin is only where the page came from: another machine's, unless it is the Host
    for host, origin in (("192.0.2.7:8421", "http://203.0.113.5:8421"), ("clubpc:8421", "http://192.0.2.7:8421"),
                         ("192.0.2.7:8421", "http://attacker.example:8421"),
                         ("192.0.2.7:8421", "http://192.0.2.7:9999"),
                         ("clubpc:8421", "http://clubpc"), ("192.0.2.7:8421", "ftp://192.0.2.7:8421")):
        refused(c.post("/api/deal", json=DEAL, headers={"Host": host, "Origin": origin}), 403, "other sites")


def test_a_name_bound_to_loopback_is_not_on_the_network(club_machine):
    """``--host NAME`` where NAME is this machine's name resolving to 127.0.0.1: the socket is bound to loopback, so the
    board answers as on loopback (a name is not taken for a network address, and another IP literal as Host is refused),
    as the command's "serving on this machine" says."""
    c = TestClient(create_app([ZR], host="clubpc", port=8421, network=False), base_url="http://clubpc:8421")
    assert c.get("/api/start").status_code == 200
    refused(c.get("/api/start", headers={"Host": "10.0.0.7:8421"}), 421, "its own address")


def test_the_loopback_default_answers_to_loopback_names_alone(club_machine):
    """Bound to loopback (the default) the board stays as strict as before: no IP literal but loopback's, not the
    machine's names, and no Origin but its own."""
    c = TestClient(create_app([ZR], port=8421), base_url="http://127.0.0.1:8421")
    for host in ("192.0.2.7:8421", "clubpc:8421", "clubpc.club.lan:8421", "0.0.0.0:8421", "127.0.0.2:8421"):
        refused(c.get("/api/start", headers={"Host": host}), 421, "its own address")
    refused(c.post("/api/deal", json=DEAL, headers={"Origin": "http://192.0.2.7:8421"}), 403, "other sites")
    refused(c.post("/api/deal", json=DEAL, headers={"Origin": "http://clubpc:8421"}), 403, "other sites")
    # the Host is said, and how to accept another name
    assert "'clubpc:8421'" in c.get("/", headers={"Host": "clubpc:8421"}).json()["error"]
    assert "--allow-host" in c.get("/", headers={"Host": "clubpc:8421"}).json()["error"]


def test_a_browser_leaves_out_port_80():
    """A Host or Origin without a port means the scheme's standard one: a board on port 80 is named without it."""
    c = TestClient(create_app([ZR], port=80), base_url="http://127.0.0.1")
    assert c.get("/api/start", headers={"Host": "localhost"}).status_code == 200
    assert c.post("/api/deal", json=DEAL, headers={"Origin": "http://127.0.0.1"}).status_code == 200
    refused(c.post("/api/deal", json=DEAL, headers={"Origin": "https://127.0.0.1"}), 403, "other sites")


def test_allowed_hosts_are_the_boards_names_too():
    """``--allow-host NAME`` for a reverse proxy's name or a club's DNS name: NAME with the board's port, or with
    none (a proxy on its scheme's standard port); ``NAME:PORT`` with that port."""
    c = TestClient(create_app([ZR], port=8421, allow_hosts=["Board.Club.example", "proxy.club.example:8443",
                                                               "tls.club.example:443", "[fd00::9]:8000"]),
                   base_url="http://127.0.0.1:8421")
    for host in ("board.club.example:8421", "board.club.example", "proxy.club.example:8443", "tls.club.example",
                 "tls.club.example:443", "[fd00::9]:8000", "127.0.0.1:8421"):
        assert c.get("/api/start", headers={"Host": host}).status_code == 200, host
    for host in ("board.club.example:8000", "proxy.club.example", "proxy.club.example:8421", "club.example:8421",
                 "[fd00::9]:8421", "192.0.2.7:8421"):  # loopback: another IP literal is still refused
        refused(c.get("/api/start", headers={"Host": host}), 421, "its own address")
    assert c.post("/api/deal", json=DEAL, headers={"Host": "tls.club.example",
                                                   "Origin": "https://tls.club.example"}).status_code == 200
    refused(c.post("/api/deal", json=DEAL, headers={"Origin": "http://board.club.example:9000"}), 403, "other sites")


@pytest.mark.parametrize("value, words", [
    ("http://board.club.example/", "no scheme, path"), ("*.club.example", "wildcard"), ("a.example, b.example", "list"),
    ("board.club.example:0", "no port from 1 to 65535"), ("board:http", "no port"), ("", "not a host name"),
    ("[board]:80", "not a host name"), ("bõard.example", "xn-- form"), ("a..example", "not a host name"),
])
def test_allow_host_refuses_what_is_no_host_name(value, words):
    from solver.board.guard import allowed_host

    with pytest.raises(ValueError, match=re.escape(words)):
        allowed_host(value)


def test_allow_host_reads_names_addresses_and_ports():
    from solver.board.guard import allowed_host

    assert allowed_host("Board.Club.example") == ("board.club.example", None)
    assert allowed_host("board.club.example:443") == ("board.club.example", "443")
    assert allowed_host("[FD00::9]:8000") == ("fd00::9", "8000") and allowed_host("fd00::9") == ("fd00::9", None)
    assert allowed_host("192.0.2.7:80") == ("192.0.2.7", "80")


def test_the_command_refuses_a_bad_allow_host():
    run = subprocess.run([sys.executable, "-c", "from solver.cli.main import main; main()", "board", "--no-open",
                          "--allow-host", "board.club.example", "--allow-host", "https://board.club.example/"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and run.stdout == "" and "Traceback" not in run.stderr  # a usage error (docs/cli.md)
    assert "Invalid value for '--allow-host': 'https://board.club.example/' is not a host name (expected NAME or " \
        "NAME:PORT" in " ".join(run.stderr.replace("│", " ").split())


def test_the_command_refuses_a_time_limit_that_is_no_number():
    """``--time-limit nan`` (which a range check passes: every comparison with nan is false) is a usage error, as every
    other command's --time-limit nan is; the board does not serve."""
    run = subprocess.run([sys.executable, "-c", "from solver.cli.main import main; main()", "board", "--no-open",
                          "--port", "0", "--time-limit", "nan"], capture_output=True, text=True, timeout=60,
                         env=dict(os.environ, BROWSER="false"))
    assert run.returncode == 2 and run.stdout == "" and "Traceback" not in run.stderr
    assert "Invalid value for '--time-limit': nan is not a number of seconds" in run.stderr


def test_the_command_with_no_time_limit_says_none_and_a_question_is_answered():
    """``stich board --time-limit 0`` is no limit: /api/start says ``null`` (not the engine clock's longest wait,
    1,000,000 s, that a question's searches are timed by), and a question is answered; the default is 120 s."""
    import httpx

    process = _board_process(str(ZR), "--time-limit", "0")
    try:
        url = process.stdout.readline().strip()
        start = _once_serving(lambda: httpx.get(url + "api/start", timeout=5)).json()
        first = next(b for f in start["files"] for b in f["boards"] if b["id"] == start["open"])
        values = httpx.post(url + "api/values", json={"board": start["open"], "moves": first["moves"],
                                                      "objective": "points", "client": "t"},
                            headers={"Origin": url.rstrip("/")}, timeout=60)
    finally:
        _ends_cleanly_on_sigterm(process)
    assert start["time_limit"] is None
    assert values.status_code == 200 and lines(values)[-1]["kind"] == "values", values.text
    assert client().get("/api/start").json()["time_limit"] == 120.0


def test_with_no_time_limit_a_stop_never_names_one():
    """A question stopped with no limit is replaced (or the server is stopping); past the engine clock's longest wait,
    the only other stop, the answer names that wait, not a limit of "1e+06 s" nobody gave."""
    searches = board_app.Searches(board_app.EngineSolver(), None)
    assert searches.question_seconds == 1_000_000.0
    assert board_app.stopped_document(True, searches)["reason"] == "replaced by a newer question"
    assert board_app.stopped_document(False, searches)["reason"] == ("the engine clock's longest wait (1,000,000 s) "
                                                                     "ran out")
    assert board_app.stopped_document(False, board_app.Searches(board_app.EngineSolver(), 0.5))["reason"] == (
        "the time limit (0.5 s) ran out")


def test_an_address_the_machine_does_not_have_is_said_so_not_blamed_on_another_board():
    """``--host 192.0.2.1`` (an address of no interface here) is said to be no address of this machine, without the
    "another board? try --port 0" hint that no port helps with."""
    run = subprocess.run([sys.executable, "-c", "from solver.cli.main import main; main()", "board", "--no-open",
                          "--host", "192.0.2.1"], capture_output=True, text=True, timeout=60,
                         env=dict(os.environ, BROWSER="false"))
    assert run.returncode == 1 and run.stdout == "" and "Traceback" not in run.stderr
    assert "stich: cannot listen on 192.0.2.1:8421: Cannot assign requested address" in run.stderr
    assert "not an address of this machine: --host takes one of its addresses, or 0.0.0.0 or :: for all" in run.stderr
    assert "another board" not in run.stderr
    # the address once: create_server's own "(while attempting to bind on address (...))" is not repeated
    assert run.stderr.count("192.0.2.1") == 1 and "while attempting to bind" not in run.stderr


def test_a_host_name_that_does_not_resolve_is_said_so_not_blamed_on_another_board():
    """``--host nosuch.invalid`` is said not to resolve, not "(another board? try --port 0)": create_server turns the
    resolver's error into a plain OSError, which a hint cannot tell from a busy port, so the name is resolved apart
    (.invalid never resolves, RFC 6761)."""
    run = subprocess.run([sys.executable, "-c", "from solver.cli.main import main; main()", "board", "--no-open",
                          "--host", "nosuch.invalid"], capture_output=True, text=True, timeout=60,
                         env=dict(os.environ, BROWSER="false"))
    assert run.returncode == 1 and run.stdout == "" and "Traceback" not in run.stderr
    assert run.stderr.startswith("stich: cannot listen on nosuch.invalid:8421: ")
    assert "(--host takes an address of this machine or a name that resolves to one)" in run.stderr
    assert "another board" not in run.stderr and "while attempting to bind" not in run.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="interfaces are read the Linux way")
def test_the_startup_list_asks_no_multicast_dns(club_machine, monkeypatch):
    """The machine's names are looked up for the startup list; where its interfaces are read, its NAME.local, a
    multicast-DNS query that can wait seconds for no answer, is a name of the board's, not looked up; off Linux, where a
    Mac's own name is NAME.local, it is looked up."""
    from solver.board import guard

    asked: list[str] = []

    def lookup(name, *args, **kwargs):
        asked.append(name)
        raise OSError("not here")

    monkeypatch.setattr(guard.socket, "getaddrinfo", lookup)
    monkeypatch.setattr(guard, "interface_addresses", lambda: {"192.0.2.7"})
    guard.machine_addresses()
    assert "clubpc.local" in guard.machine_names() and sorted(asked) == ["clubpc", "clubpc.club.lan"]
    # off Linux no interface is read, and a Mac's own name is NAME.local: then it is looked up
    asked.clear()
    monkeypatch.setattr(guard, "interface_addresses", lambda: set())
    guard.machine_addresses()
    assert sorted(asked) == ["clubpc", "clubpc.club.lan", "clubpc.local"]


FIB_TRIE = """Main:
  +-- 0.0.0.0/0 3 0 5
     |-- 0.0.0.0
        /0 universe UNICAST
     +-- 127.0.0.0/8 2 0 2
        +-- 127.0.0.0/31 1 0 0
           |-- 127.0.0.0
              /8 host LOCAL
           |-- 127.0.0.1
              /32 host LOCAL
     +-- 192.0.2.0/24 2 0 2
        +-- 192.0.2.0/29 2 0 2
           |-- 192.0.2.0
              /24 link UNICAST
           |-- 192.0.2.2
              /32 host LOCAL
           |-- 192.0.2.5
              /32 host LOCAL
        |-- 192.0.2.255
           /32 link BROADCAST
     |-- 198.51.100.9
        /32 host LOCAL
"""


def test_every_ipv4_address_of_an_interface_is_read_a_second_one_too():
    """The startup list holds every IPv4 address of an interface, a second one (``ip addr add``) too, as Linux's routing
    table lists them, not just the first that the interfaces' ioctl gives."""
    from solver.board.guard import local_ipv4_addresses

    assert local_ipv4_addresses(FIB_TRIE) == {"127.0.0.1", "192.0.2.2", "192.0.2.5", "198.51.100.9"}
    assert local_ipv4_addresses("") == set()


@pytest.mark.skipif(sys.platform == "darwin", reason="macOS always answers multicast DNS")
def test_name_local_is_listed_only_where_multicast_dns_answers(club_machine, monkeypatch, tmp_path):
    """The startup list offered ``clubpc.local`` on every machine, also where nothing answers multicast DNS for it
    (a Linux machine without Avahi or systemd-resolved's MulticastDNS): no other machine found it by that name. It
    is listed where a socket is bound to UDP port 5353; the board accepts the name either way."""
    from solver.board import guard
    from solver.cli import board as board_command

    header = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"
    quiet, answering = tmp_path / "udp", tmp_path / "udp6"
    quiet.write_text(header + "  1: 0100007F:0035 00000000:0000 07 00000000:00000000 00:00000000 00000000 0 0 1\n")
    answering.write_text(header + "  2: 00000000000000000000000000000000:14E9 00000000000000000000000000000000:0000"
                                  " 07 00000000:00000000 00:00000000 00000000 105 0 2\n")
    assert not guard.multicast_dns_answers([str(quiet)]) and guard.multicast_dns_answers([str(quiet), str(answering)])
    assert not guard.multicast_dns_answers([str(tmp_path / "missing")])
    monkeypatch.setattr(guard, "multicast_dns_answers", lambda: False)
    assert board_command.listed_names() == {"clubpc", "clubpc.club.lan"}
    assert "clubpc.local" in guard.machine_names()  # still one of the board's names
    monkeypatch.setattr(guard, "multicast_dns_answers", lambda: True)
    assert board_command.listed_names() == {"clubpc", "clubpc.club.lan", "clubpc.local"}


def test_every_interfaces_address_is_listed_not_only_the_default_routes():
    """A club PC on a cable and a wireless network is reached at both, so the startup list holds more than the default
    route's address and the names': each interface's addresses are read from the system (every IPv4 and IPv6 address):
    every one that is neither loopback nor link-local is listed, and every IPv4 address that ``ip`` shows is among them
    (a second address on one interface too)."""
    from solver.board.guard import interface_addresses, machine_addresses

    found = interface_addresses()
    listed = machine_addresses()
    usable = {a for a in found if not (ipaddress.ip_address(a).is_loopback or ipaddress.ip_address(a).is_link_local)}
    assert usable <= set(listed) and not any(ipaddress.ip_address(a).is_loopback for a in listed)
    try:
        shown = subprocess.run(["ip", "-o", "-4", "addr", "show", "up"], capture_output=True, text=True,
                               timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        pytest.skip("no ip command here")
    every = {line.split()[3].split("/")[0] for line in shown.splitlines()}  # "2: eth0    inet 192.0.2.2/24 ..."
    assert every <= found, (every, found)


def _board_process(*arguments: str) -> subprocess.Popen:
    """``stich board ARGUMENTS --no-open --port 0`` in a process of its own: its address is its stdout's first line."""
    return subprocess.Popen([sys.executable, "-c", "from solver.cli.main import main; main()", "board", *arguments,
                             "--no-open", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, BROWSER="false"), preexec_fn=signals_as_a_shell_gives_them)


def _ends_cleanly_on_sigterm(process: subprocess.Popen) -> None:
    """The board ``process`` stopped by SIGTERM exits 130 with the stop's line, as every command stopped so does,
    with no traceback and no task left pending on stderr."""
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr
    assert stderr.endswith(f"\nstich: board: stopped by the interrupt {STOPPED_BOARD}\n"), stderr
    assert "Task was destroyed" not in stderr and "Traceback" not in stderr, stderr


def _once_serving(ask):
    """``ask()``'s answer once the board's socket takes connections: asked again while it refuses, 20 s at most."""
    import httpx

    deadline = time.monotonic() + 20
    while True:
        try:
            return ask()
        except httpx.TransportError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def test_the_command_on_every_address_is_reached_by_the_machines_address():
    """``stich board --host 0.0.0.0`` fetched as another machine does, by this machine's own IP address (a real
    server and socket): it answers, names that address in its startup message, and still refuses other names."""
    import httpx

    from solver.board.guard import machine_addresses

    addresses = [address for address in machine_addresses() if ":" not in address]
    if not addresses:
        pytest.skip("this machine has no IPv4 address but loopback")
    address = addresses[0]
    process = _board_process(str(ZR), "--host", "0.0.0.0")
    try:
        local = process.stdout.readline().strip()
        assert local.startswith("http://127.0.0.1:") and local.endswith("/")  # what this machine's browser opens
        port = int(local.rsplit(":", 1)[1].rstrip("/"))
        url = f"http://{address}:{port}/"
        start = _once_serving(lambda: httpx.get(url + "api/start", timeout=5))
        assert start.status_code == 200 and start.json()["files"][0]["file"] == "zwanzigerrufen.tbn"
        dealt = httpx.post(url + "api/deal", json=DEAL, headers={"Origin": url.rstrip("/")}, timeout=5)
        assert dealt.status_code == 200
        assert httpx.get(url + "api/start", headers={"Host": f"evil.example:{port}"}).status_code == 421
        assert httpx.post(url + "api/deal", json=DEAL, headers={"Origin": "http://evil.example"}).status_code == 403
    finally:
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=20)
    assert process.returncode == 130, stderr
    assert f"serving on 0.0.0.0 port {port}, to other machines too: they open http://{address}:{port}/" in stderr
    assert "Traceback" not in stderr


def test_no_page_elsewhere_may_frame_the_board():
    """A page elsewhere could show the board in a frame (its GET carries no Origin, its Host is the board's) and
    disguise the cards and buttons under its own, so every answer, a refusal too, forbids framing."""
    c = client(ZR)
    for response in (c.get("/"), c.get("/static/board.js"), c.get("/api/start"), c.get("/api/nothing"),
                     c.get("/", headers={"Host": "attacker.example"})):
        assert response.headers["x-frame-options"] == "DENY", response.url
        assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
        assert response.headers["x-content-type-options"] == "nosniff"


def test_api_answers_are_never_cached_and_the_page_is_asked_again():
    """A kept API answer would mislead (a file read again, a board forgotten, a new server's token), and a kept
    board.js would run an older page against an upgraded server: the API says no-store, its refusals too, and the
    page's own files no-cache (each load asks again, a 304 where unchanged)."""
    c = client(ZR)
    board, moves = opened(c)
    for response in (c.get("/api/start"), c.post("/api/position", json={"board": board, "moves": moves}),
                     c.post("/api/values", json={"board": board, "moves": moves, "objective": "points"}),
                     c.get("/api/nothing"), c.post("/api/position", json=[]),
                     c.get("/api/start", headers={"Host": "attacker.example"})):
        assert response.headers["cache-control"] == "no-store", response.url
    for path in ("/static/board.js", "/static/board.css"):
        assert c.get(path).headers["cache-control"] == "no-cache"
    assert c.get("/").headers["cache-control"] == "no-store"  # the page's own choice stands


def test_request_bodies_are_limited():
    c = client(max_body=1000)
    refused(c.post("/api/load", json={"text": "x" * 2000}), 413, "larger than the board takes")

    def chunks():  # no Content-Length: counted as it arrives
        for _ in range(10):
            yield b"x" * 500

    refused(c.post("/api/load", content=chunks(), headers={"Content-Type": "application/json"}), 413,
            "larger than the board takes")


def asgi_answer(app, method: str, path: str, parts: list[bytes], *, pause: float, length: int | None = None,
                ends: bool = False, leaves: bool = False) -> tuple:
    """What ``app`` answers a request whose body comes as ``parts`` and then stops (a client that trickles its body
    and waits; with ``leaves``, one that then disconnects) or, with ``ends``, is whole: each part after ``pause``
    seconds, then nothing until the app answers. Straight through ASGI, since
    the test client reads a whole body before the app sees any of it."""
    headers = [(b"host", b"127.0.0.1"), (b"content-type", b"application/json")]
    if length is not None:
        headers.append((b"content-length", str(length).encode()))
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method, "scheme": "http",
             "path": path, "raw_path": path.encode(), "query_string": b"", "headers": headers,
             "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 80), "root_path": ""}
    sent: list[dict] = []

    async def receive() -> dict:
        if parts:
            await asyncio.sleep(pause)
            part = parts.pop(0)
            return {"type": "http.request", "body": part, "more_body": bool(parts) or not ends}
        if not leaves:
            await asyncio.sleep(3600)  # the client never sends the rest
        return {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        sent.append(message)

    async def run() -> float:
        started = time.monotonic()
        await asyncio.wait_for(app(scope, receive, send), 30)
        return time.monotonic() - started

    seconds = asyncio.run(run())
    if leaves:
        return sent, None, seconds
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return status, json.loads(body), seconds


def test_a_body_that_does_not_arrive_in_time_is_refused():
    """A client that sends a body a little at a time (a byte a second; or chunks of one byte each behind a long chunk
    header, which counts as no body byte) cannot hold its request open for as long as it goes on (the size limit counts
    only the body's bytes): the body has ``body_seconds`` to arrive, then the answer is 408 in words."""
    app = create_app([ZR], body_seconds=0.5)
    status, answer, seconds = asgi_answer(app, "POST", "/api/position", [b"{", b" ", b" "], pause=0.01, length=1000)
    assert status == 408 and seconds >= 0.5  # once the 0.5 s were up (without a limit the 30 s wait would raise)
    assert answer["error"] == ("the request's body did not arrive within 0.5 s (3 of 1,000 bytes came); the board "
                               "waits no longer for a body")
    status, answer, _ = asgi_answer(app, "POST", "/api/load", [b" "] * 100, pause=0.02)  # no Content-Length
    assert status == 408 and "did not arrive within 0.5 s" in answer["error"] and "bytes of" not in answer["error"]
    # a body that arrives in time is read, however it comes
    status, answer, _ = asgi_answer(create_app([ZR], body_seconds=5), "POST", "/api/position",
                                    [b'{"board": "nope"', b"}"], pause=0.1, length=17, ends=True)
    assert status == 404 and "no board 'nope'" in answer["error"]


def test_a_refused_body_lets_its_connection_go():
    """A refusal of a body (408) closes the connection, so that a client still trickling its body cannot keep it open
    for as long as it goes on (each byte renews uvicorn's keep-alive, and the header deadline watches only idle
    connections). A real server, a byte every 0.3 s."""
    import socket
    import threading

    import uvicorn

    from cli.board import _board_protocol

    app = create_app([ZR], body_seconds=1.0)
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    port = listener.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on",
                                           http=_board_protocol(3.0)))
    threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True).start()
    try:
        deadline = time.monotonic() + 10
        while not server.started and time.monotonic() < deadline:
            time.sleep(0.05)
        connection = socket.create_connection(("127.0.0.1", port))
        connection.settimeout(0.2)
        connection.sendall(f"POST /api/position HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: "
                           "application/json\r\nContent-Length: 100000\r\n\r\n".encode())
        answer, closed, started = b"", False, time.monotonic()
        while not closed and time.monotonic() - started < 8:
            try:
                connection.sendall(b" ")
                data = connection.recv(65536)
                answer += data
                closed = data == b""
            except socket.timeout:
                pass
            except OSError:  # the server closed it: the byte found no reader
                closed = True
            time.sleep(0.3)
        connection.close()
        assert answer.startswith(b"HTTP/1.1 408") and b"connection: close" in answer.lower()
        assert closed, "the connection stayed open while the client trickled"
    finally:
        server.should_exit = True


def test_the_bodies_read_at_once_are_bounded():
    """The bodies read at once are bounded together, not only each in size (else 60 clients each holding a body of just
    under 2 MB open grow the server by 120 MB, and more by as much again each): past ``max_reading`` bytes of the bodies
    being read a request is told the board is busy (503, in words); each body's bytes are given back when its request
    ends."""
    guard = create_app([ZR], max_body=1000, body_seconds=1.0)
    guard.max_reading = 1500

    def scope() -> dict:
        return {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
                "scheme": "http", "path": "/api/position", "raw_path": b"/api/position", "query_string": b"",
                "headers": [(b"host", b"127.0.0.1"), (b"content-type", b"application/json")],
                "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 80), "root_path": ""}

    async def holding(sent: list, delay: float) -> None:
        parts = [b" " * 800]

        async def receive() -> dict:
            if parts:
                await asyncio.sleep(delay)
                return {"type": "http.request", "body": parts.pop(), "more_body": True}
            await asyncio.sleep(3600)
            return {"type": "http.disconnect"}

        async def send(message: dict) -> None:
            sent.append(message)

        await guard(scope(), receive, send)

    first: list = []
    second: list = []

    async def both() -> None:
        await asyncio.wait_for(asyncio.gather(holding(first, 0), holding(second, 0.1)), 20)

    asyncio.run(both())
    assert first[0]["status"] == 408  # its time ran out
    assert second[0]["status"] == 503 and json.loads(second[1]["body"])["error"] == (
        "the board is busy: the bodies of the requests it is answering hold 1,500 bytes already; send this one again "
        "in a moment")
    assert guard.reading == 0
    refused(TestClient(guard, base_url="http://127.0.0.1").post("/api/load", json={"text": "x"}), 400, "pasted text")


def test_a_client_that_leaves_mid_body_is_no_fault(capsys):
    """A page closed during an upload leaves no "stich board: /api/load: ClientDisconnect: " on the console, as if the
    board had failed: the client is just gone."""
    for path in ("/api/position", "/api/load"):
        asgi_answer(create_app([ZR]), "POST", path, [b"{"], pause=0.01, length=100, leaves=True)
    assert capsys.readouterr().err == ""


def test_static_files_are_the_packages_only():
    c = client(ZR)
    for path in ("/static/../session.py", "/static/%2e%2e/app.py", "/static/../../examples/valat.tbn",
                 "/examples/valat.tbn"):
        response = c.get(path)
        assert response.status_code == 404, path
        assert "Traceback" not in response.text and "[Game" not in response.text


def test_a_range_the_files_cannot_serve_is_refused_in_json():
    """A bad Range header on the page or a static file got Starlette's plain text ("Range header: range must be
    requested", a 416 with no body) while every other refusal of the board is JSON. A good Range is still served,
    and one of another unit than bytes is ignored (RFC 9110, 14.2), not refused."""
    c = client(ZR)
    css = c.get("/static/board.css").content
    for path in ("/", "/static/board.css"):
        for asked in ("bytes=abc", "bytes=5-2", "abc", "bytes="):
            response = c.get(path, headers={"Range": asked})
            refused(response, 400, f"the Range header {asked!r} names no range of this file's bytes")
            assert "bytes=FIRST-LAST" in response.json()["error"]
            assert response.headers["content-type"] == "application/json"
            assert response.headers["x-frame-options"] == "DENY"
    past = c.get("/static/board.css", headers={"Range": "bytes=99999999-"})
    refused(past, 416, f"starts past the end of this file ({len(css)} bytes)")
    assert past.headers["content-range"] == f"bytes */{len(css)}"
    head = c.head("/static/board.css", headers={"Range": "bytes=abc"})
    assert head.status_code == 400 and head.content == b"" and head.headers["content-type"] == "application/json"
    part = c.get("/static/board.css", headers={"Range": "bytes=0-5"})
    assert part.status_code == 206 and part.content == css[:6]
    assert c.get("/static/board.css", headers={"Range": "bytes=-5"}).content == css[-5:]
    other_unit = c.get("/static/board.css", headers={"Range": "items=0-5"})
    assert other_unit.status_code == 200 and other_unit.content == css
    # the routes' own refusals pass unchanged
    refused(c.post("/api/position", json={"board": "b999"}, headers={"Range": "bytes=abc"}), 404, "no board")


def test_card_faces_have_signs_and_colours():
    zr, sk = solver.get_game("Zwanzigerrufen").pack, solver.get_game("Schafkopf").pack
    assert card_face(zr, zr.parse("T21")) == {"name": "T21", "face": "XXI", "sign": "", "colour": "trump"}
    assert card_face(zr, zr.parse("TS"))["face"] == "Sk"
    assert card_face(zr, zr.parse("SK")) == {"name": "SK", "face": "K", "sign": "♠", "colour": "black"}
    assert card_face(zr, zr.parse("DQ"))["colour"] == "red"
    assert card_face(sk, sk.parse("SA")) == {"name": "SA", "face": "A", "sign": "♦", "colour": "gold"}
    assert card_face(sk, sk.parse("GO"))["colour"] == "green" and card_face(sk, sk.parse("EU"))["colour"] == "brown"


def test_every_card_comes_with_its_name_in_words():
    """The server sends each card's name in words (``Game.card_in_words``) in the hands, the trick and the last trick,
    so the page keeps no table of its own that a fourth game would miss."""
    c = client(ZR, SK, KR)
    start = c.get("/api/start").json()
    spoken = {}
    for file in start["files"]:
        table = c.post("/api/position", json={"board": file["boards"][0]["id"], "moves": file["boards"][0]["moves"][:5]}
                       ).json()
        cards = [card for hand in table["hands"] for card in hand["cards"]] + table["trick"] + [
            card for trick in table["history"] for card in trick["cards"]]
        assert cards and all(card["spoken"].endswith(f"({card['name']})") for card in cards)
        spoken |= {(table["game"], card["name"]): card["spoken"] for card in cards}
    zr, sk, kr = (solver.get_game(name) for name in ("Zwanzigerrufen", "Schafkopf", "Kratzen"))
    assert zr.card_in_words(zr.pack.parse("T21")) == "Tarock 21, the Mond (T21)"
    assert zr.card_in_words(zr.pack.parse("T1")) == "Tarock 1, the Pagat (T1)"
    assert zr.card_in_words(zr.pack.parse("TS")) == "the Sküs (TS)"
    assert zr.card_in_words(zr.pack.parse("T20")) == "Tarock 20 (T20)"
    assert zr.card_in_words(zr.pack.parse("HG")) == "Glatze of hearts (HG)"
    assert zr.card_in_words(zr.pack.parse("CN")) == "Knight of clubs (CN)"
    assert sk.card_in_words(sk.pack.parse("EO")) == "Eichel Ober (EO)"
    assert sk.card_in_words(sk.pack.parse("SZ")) == "Schellen Ten (SZ)"
    assert kr.card_in_words(kr.pack.parse("S6")) == "the Weli (S6)"
    assert kr.card_in_words(kr.pack.parse("G7")) == "Gras Seven (G7)"
    for game in (zr, sk, kr):  # every card of every pack has words, none only its token
        assert all(game.card_in_words(card) != card.name for card in game.pack)
    games = {"Zwanzigerrufen": zr, "Schafkopf": sk, "Kratzen": kr}
    assert all(words == games[game].card_in_words(games[game].pack.parse(name))
               for (game, name), words in spoken.items())


def test_the_weli_is_named_on_its_face():
    """The Weli (S6, RULES.md 3.1) carries the game's name for it on its face, so a new player can tell which card it
    is; the other cards have no label."""
    kratzen = solver.get_game("Kratzen")
    pack = kratzen.pack
    assert card_face(pack, pack.parse("S6"), kratzen.named_cards) == {
        "name": "S6", "face": "6", "sign": "♦", "colour": "gold", "label": "Weli",
        "about": "a permanent trump, second only to the trump ace"}
    assert "label" not in card_face(pack, pack.parse("S7"), kratzen.named_cards)
    with TestClient(board_app.create_app([KR], port=8421), base_url="http://127.0.0.1:8421") as c:
        board = next(b for b in c.get("/api/start").json()["files"][0]["boards"] if b["label"].endswith("board 5"))
        table = c.post("/api/position", json={"board": board["id"], "moves": []}).json()
    cards = {card["name"]: card for hand in table["hands"] for card in hand["cards"]}
    assert cards["S6"]["label"] == "Weli" and [name for name, card in cards.items() if "label" in card] == ["S6"]


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_the_command_serves_the_board_and_stops_on_sigterm(sig):
    """The board stopped by SIGTERM or Ctrl-C exits 130 with the stop's line, as every command does (docs/cli.md's
    exit codes), not 0 in silence: uvicorn takes both signals for its own stop, then raises the one it took again to
    stich's handler, whose KeyboardInterrupt is not a normal end."""
    process = _board_process(str(ZR))
    try:
        url = process.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:") and url.endswith("/")
        import httpx

        start = _once_serving(lambda: httpx.get(url + "api/start", timeout=5).json())
        assert start["files"][0]["file"] == "zwanzigerrufen.tbn"
        assert httpx.get(url + "api/start", headers={"Host": "evil.example"}).status_code == 421
    finally:
        process.send_signal(sig)
        _, stderr = process.communicate(timeout=20)
    assert process.returncode == 130, stderr
    assert stderr.splitlines()[-1] == f"stich: board: stopped by the interrupt {STOPPED_BOARD}"
    assert "Traceback" not in stderr


def test_odds_left_mid_stream_leave_nothing_behind():
    """A page that stops reading the odds (a click in single dummy) leaves no wait for the next update pending (no
    "Task was destroyed but it is pending!" on the server's stderr): the odds it left stop, and the server's
    threads stay the two search threads beside the event loop."""
    import httpx

    process = _board_process()
    try:
        url = process.stdout.readline().strip()
        dealt = _once_serving(lambda: httpx.post(url + "api/deal", json={"game": "Zwanzigerrufen", "seed": 5},
                                                 timeout=5).json())
        threads = []
        with httpx.Client(base_url=url, timeout=60) as c:
            for number in range(6):
                with c.stream("POST", "/api/odds", json={"board": dealt["open"], "moves": [], "samples": 2000,
                                                         "client": "page"}) as response:
                    first = next(response.iter_lines())
                    assert json.loads(first)["kind"] == "thinking"
                threads.append(len(os.listdir(f"/proc/{process.pid}/task")))
            # the server still answers, and the last odds it was left with were stopped
            view = c.post("/api/position", json={"board": dealt["open"], "moves": []}).json()
            assert view["game"] == "Zwanzigerrufen"
        assert max(threads) <= 3  # the event loop, the card values' thread and the analysis thread
    finally:
        _ends_cleanly_on_sigterm(process)


def test_ctrl_c_stops_a_search_that_is_running_at_once():
    """Ctrl-C while a page's odds are streaming stops their search before uvicorn waits for the open connections:
    the stream ends with a "stopped" line saying why, never the odds of all 2,000 deals, and the board exits 130 with
    no traceback."""
    import httpx

    process = _board_process(str(ZR))
    try:
        url = process.stdout.readline().strip()
        board = _once_serving(lambda: httpx.get(url + "api/start", timeout=5).json()["open"])
        with httpx.Client(base_url=url, timeout=60) as c:
            with c.stream("POST", "/api/odds", json={"board": board, "moves": [], "samples": 2000,
                                                     "client": "page"}) as response:
                streamed = (json.loads(line) for line in response.iter_lines())
                assert next(line for line in streamed if line["kind"] == "progress")  # the odds are being searched
                process.send_signal(signal.SIGINT)
                rest = list(streamed)
        assert rest[-1] == {"kind": "stopped", "reason": "the board is stopping", "stopping": True}
        assert all(line["kind"] == "progress" for line in rest[:-1])  # never the odds of all 2,000 deals
    finally:
        _ends_cleanly_on_sigterm(process)


def test_a_question_asked_while_the_board_stops_is_refused():
    """Once Ctrl-C has stopped the searches, a question still arriving on an open connection is refused, not searched:
    it would hold the stop up as a running one would."""
    c = client(ZR)
    board, moves = opened(c)
    board_app.stop_questions(c.app)
    for route in ("/api/values", "/api/curve", "/api/odds"):
        refused(c.post(route, json={"board": board, "moves": moves, "objective": "score", "client": "page"}), 503,
                "the board is stopping")


def test_both_answers_of_a_stopping_board_say_stopping_and_no_other_does():
    """The page reads ``stopping`` (not the reason's words) to offer no second question: the stopped line of a
    stream the stop ended and the 503 of a question asked meanwhile both carry it; a time limit's stop and another
    refusal (an unknown board), which a second question may outlive, do not."""
    c = client(ZR)
    board, moves = opened(c)
    searches = c.app.app.state.searches
    assert "stopping" not in board_app.stopped_document(False, board_app.Searches(board_app.EngineSolver(), 0.5))
    unknown = c.post("/api/values", json={"board": "no such board", "moves": [], "client": "page"})
    assert unknown.status_code == 404 and "stopping" not in unknown.json()
    board_app.stop_questions(c.app)
    assert board_app.stopped_document(False, searches) == {"kind": "stopped", "reason": "the board is stopping",
                                                           "stopping": True}
    answer = c.post("/api/values", json={"board": board, "moves": moves, "objective": "score", "client": "page"})
    assert answer.status_code == 503
    assert answer.json() == {"error": "the board is stopping: start stich board again to ask", "stopping": True}


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_while_the_searches_lock_is_held_stops_the_board(sig):
    """uvicorn's signal handler runs on the event loop's thread between two instructions, perhaps while a question holds
    the searches' lock there, so a handler that stopped the searches itself would wait for that lock forever (a second
    signal too): the searches are stopped as the server's stop begins, on the loop, and the board ends."""
    script = f"""
import asyncio, os, signal, uvicorn
from cli.board import _board_server
from solver.board import create_app

app = create_app([])
searches = app.app.state.searches

class Server(_board_server(app)):
    async def startup(self, sockets=None):
        await super().startup(sockets)

        def signal_under_the_lock():
            with searches.lock:
                os.kill(os.getpid(), {int(sig)})
                print("held", flush=True)

        asyncio.get_running_loop().call_soon(signal_under_the_lock)

try:
    Server(uvicorn.Config(app, port=0, log_level="warning", lifespan="on")).run()
except KeyboardInterrupt:
    pass
print("stopped" if searches.stopping else "not stopped", flush=True)  # SIGTERM's end is uvicorn's own
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.stdout.split() == (["held", "stopped"] if sig == signal.SIGINT else ["held"]), done
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == (0 if sig == signal.SIGINT else -signal.SIGTERM), done


@pytest.mark.parametrize("table", [[], ["--table-mb", "16"]])
def test_the_commands_card_values_search_on_every_free_core(monkeypatch, table):
    """``stich board`` gives its card values an engine of the default threads, every core the graph and the odds leave,
    as docs/board.md says; --table-mb still sizes its table. The core budget keeps the process's search threads within
    the cores either way (tests/test_cores.py)."""
    from typer.testing import CliRunner

    import uvicorn

    from solver.cli.main import app
    from solver.search.engine import default_threads

    made = {}
    monkeypatch.setattr(board_app, "create_app", lambda *args, **options: made.update(options) or object())
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)
    result = CliRunner().invoke(app, ["board", "--no-open", "--port", "0", *table])
    assert result.exit_code == 0, result.output
    assert made["engine"].threads == default_threads()
    if table:
        assert made["engine"].table_bytes == 16 << 20  # --table-mb still sizes it


def test_what_is_at_a_files_name_is_said_by_one_rule_at_start_and_at_a_page_load(tmp_path):
    """The command at its start and the page at each load say what is at a file's name ("a folder, else stream_kind") in
    the same words: one helper's."""
    from solver.files import not_file_kind

    folder, pipe, plain = tmp_path / "folder.tbn", tmp_path / "pipe.tbn", tmp_path / "plain.tbn"
    folder.mkdir()
    os.mkfifo(pipe)
    plain.write_text("")
    kinds = [not_file_kind(os.stat(path).st_mode) for path in (folder, pipe, plain, os.devnull)]
    assert kinds == ["a folder", "a pipe", None, "a device"]
    run = subprocess.run([sys.executable, "-c", "from solver.cli.main import main; main()", "board", str(folder),
                          "--no-open", "--port", "0"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 1 and run.stderr == (
        f"stich: {folder}: a folder, not a regular file (the board reads its files again when a page loads, which a "
        "folder cannot give; upload its text on the page)\n")


def test_the_command_refuses_what_it_cannot_open(tmp_path):
    run = subprocess.run([sys.executable, "-c", "from solver.cli.main import main; main()", "board",
                          str(tmp_path / "missing.tbn"), "--no-open"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 1 and "missing.tbn: not a readable file" in run.stderr and "Traceback" not in run.stderr
    pipe = tmp_path / "pipe.tbn"  # refused at once, not waited on for a writer (stich solve reads one: it reads once)
    os.mkfifo(pipe)
    run = subprocess.run([sys.executable, "-c", "from solver.cli.main import main; main()", "board", str(pipe),
                          "--no-open", "--port", "0"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 1 and run.stderr == (
        f"stich: {pipe}: a pipe, not a regular file (the board reads its files again when a page loads, which a pipe "
        "cannot give; give its text as - (standard input), or upload it on the page)\n")
    listening = socket.socket(socket.AF_UNIX)  # a socket is no regular file either, named as stream_kind names it
    unix = tmp_path / "board.sock"
    listening.bind(str(unix))
    try:
        run = subprocess.run([sys.executable, "-c", "from solver.cli.main import main; main()", "board", str(unix),
                              "--no-open", "--port", "0"], capture_output=True, text=True, timeout=60)
    finally:
        listening.close()
    assert run.returncode == 1 and run.stderr == (
        f"stich: {unix}: a socket, not a regular file (the board reads its files again when a page loads, which a "
        "socket cannot give; give its text as - (standard input), or upload it on the page)\n")
    huge = tmp_path / "huge.tbn"  # sparse: no disk is used
    with huge.open("wb") as file:
        file.truncate(session.MAX_FILE_BYTES + 1)
    run = subprocess.run([sys.executable, "-c", "from solver.cli.main import main; main()", "board", str(huge),
                          "--no-open", "--port", "0"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert run.stderr == (f"stich: {huge}: {session.MAX_FILE_BYTES + 1:,} bytes, more than the board reads "
                          f"({session.MAX_FILE_BYTES:,} bytes; it opens at most 1,000 records)\n")


@pytest.fixture
def served_port():
    """The board served by uvicorn with the command's protocol (a connection's headers given 1 s), in this process:
    its port."""
    import socket
    import threading

    import uvicorn

    from solver.cli.board import _board_protocol

    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app([ZR], port=port), log_level="critical", lifespan="off",
                                           http=_board_protocol(header_seconds=1.0)))
    serving = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    serving.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        yield port
    finally:
        server.should_exit = True
        serving.join(20)


def test_a_connection_that_sends_no_headers_in_time_is_closed(served_port):
    """A client that opens connections and sends nothing, or a header a byte at a time, does not hold each one (and a
    file descriptor) as long as it likes, as uvicorn's wait for a request's headers would let it: the command's protocol
    closes a connection that has sent no request's headers within its time; a request in time is answered, and the same
    connection is given the time again for its next one."""
    import socket

    port = served_port

    def closed_by_the_server(connection: socket.socket, trickle: bool) -> bool:
        """Whether the server closes ``connection``: uvicorn alone never does (no deadline for a request's headers,
        and each byte renews its keep-alive). A minute bounds a failure, far past the server's 1 s."""
        deadline = time.monotonic() + 60
        connection.settimeout(0.2)
        while time.monotonic() < deadline:
            try:
                if trickle:
                    connection.sendall(b"a")
                if connection.recv(1000) == b"":
                    return True
            except socket.timeout:
                continue
            except OSError:
                return True
        return False

    silent = socket.create_connection(("127.0.0.1", port))
    assert closed_by_the_server(silent, trickle=False)
    slow = socket.create_connection(("127.0.0.1", port))
    slow.sendall(f"GET /api/start HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Slow: ".encode())
    assert closed_by_the_server(slow, trickle=True)
    prompt = socket.create_connection(("127.0.0.1", port))
    prompt.settimeout(10)
    prompt.sendall(f"GET /api/start HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    assert prompt.recv(100).startswith(b"HTTP/1.1 200")
    prompt.sendall(f"GET /api/start HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Slow: ".encode())  # the next one
    assert closed_by_the_server(prompt, trickle=True)


def test_a_request_that_is_not_http_is_refused_in_json(served_port):
    """A request uvicorn cannot read (two Host headers, a bad Content-Length, a line that is no header) is refused in
    JSON, as every other refusal of the board is, not in plain text as "Invalid HTTP request received."."""
    import socket

    for request in (b"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
                    b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n",
                    b"GET / HTTP/1.1\r\nHost: a\r\nNo colon here\r\n\r\n"):
        with socket.create_connection(("127.0.0.1", served_port)) as connection:
            connection.settimeout(10)
            connection.sendall(request)
            answer = b""
            while chunk := connection.recv(65536):
                answer += chunk
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 400") and b"content-type: application/json" in head.lower()
        assert b"x-frame-options: DENY" in head
        assert json.loads(body)["error"].startswith("the request is not HTTP the board reads (a malformed request "
                                                    "line or header, or headers over 16 KB): ")


def test_a_request_that_is_not_http_writes_nothing_on_the_console():
    """The client is told in JSON (an Upgrade to h2c answered as plain HTTP, one to WebSocket refused); the operator's
    console is not written a line for each such request (anyone who reaches the board could fill it), while the
    command's own lines stay: the startup's and the stop's, nothing between them."""
    import socket

    import httpx

    process = _board_process(str(ZR))
    try:
        url = process.stdout.readline().strip()
        assert _once_serving(lambda: httpx.get(url + "api/start", timeout=5)).status_code == 200
        port = int(url.rsplit(":", 1)[1].rstrip("/"))
        for request in (b"GARBAGE\r\n\r\n", b"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"):
            with socket.create_connection(("127.0.0.1", port)) as connection:
                connection.settimeout(10)
                connection.sendall(request)
                assert connection.recv(65536).startswith(b"HTTP/1.1 400")
        # an Upgrade to another protocol than WebSocket is answered as the plain request it also is
        upgrade = httpx.get(url + "api/start", headers={"Connection": "Upgrade", "Upgrade": "h2c"}, timeout=10)
        assert upgrade.status_code == 200 and upgrade.json()["files"][0]["file"] == "zwanzigerrufen.tbn"
        # and one to WebSocket is refused in JSON by the guard, whichever WebSocket library is installed
        websocket = httpx.get(url + "api/start", headers=WEBSOCKET_HANDSHAKE, timeout=10)
        refused_websocket(websocket.status_code, websocket.headers, websocket.json())
    finally:
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr
    assert stderr == ("stich board: serving on this machine; Ctrl-C stops it\n"
                      f"stich: board: stopped by the interrupt {STOPPED_BOARD}\n"), stderr


def test_a_stale_graph_stops_at_its_next_search():
    import threading

    engine = board_app.CheckedEngine(1)
    position = next(solver.read_positions(ZR))
    objective = position.objective("points")
    assert engine.value(position.state, objective) == solver.solve(position, "points").future
    engine.stop_event = threading.Event()
    engine.stop_event.set()
    for ask in (engine.value, engine.card_values, engine.value_and_cards):
        with pytest.raises(solver.SearchStopped):
            ask(position.state, objective)
    with pytest.raises(solver.SearchStopped):
        solver.analyse_play(position, engine=engine)


def test_a_finished_deal_says_what_it_pays():
    """The view of a finished deal carries its settlement as stich score gives it (what it pays, the pot), not only "The
    deal is over."; before the end there is none."""
    c = client(SK, board="7")
    board, moves = opened(c)
    done = c.post("/api/position", json={"board": board, "moves": moves}).json()
    assert done["is_over"] and done["settlement"] == {"payments": [-2, 2, -2, 2], "pot": None, "pot_change": 0,
                                                      "notes": []}
    assert c.post("/api/position", json={"board": board, "moves": moves[:-1]}).json()["settlement"] is None
    text = ('[Game "Kratzen"]\n[Seats "3"]\n[Deal "1: EO E9 SU SZ / GA HA HU S7 / EK G8 HO SK"]\n'
            '[Contract "Trump S"]\n[Declarer "1"]\n[Pot "10"]\n')
    kratzen = client()
    loaded = kratzen.post("/api/load", json={"text": text}).json()["open"]
    moves = "EO S7 EK GA G8 SU E9 HA SK HO SZ HU".split()  # tricks to seats 2, 1, 3, 1
    view = kratzen.post("/api/position", json={"board": loaded, "moves": moves}).json()
    assert view["is_over"]
    settled = solver.score_deal(solver.parse_positions(text)[0].play_cards(" ".join(moves)))
    assert view["settlement"] == {"payments": list(settled.payments), "pot": 10, "pot_change": settled.pot_change,
                                  "notes": ["pot 10 does not divide by 4: each trick pays 2, and 2 chips stay in the "
                                            "pot"]}
    assert settled.payments[0] > 0 and settled.pot_change < 0  # the attacker made his target: paid from the pot


def test_a_lost_tout_is_settled_at_its_lost_trick():
    """CARDAVIA ends a Tout at the first trick its declarer loses, and stich score scores it there: the board says
    what it pays from that trick on, with the score's note, not only after eight tricks."""
    text = ('[Game "Schafkopf"]\n[Board "1"]\n[Contract "WenzTout"]\n[Declarer "1"]\n'
            '[Deal "EO GO HO SO EU GU HU SU / EA EZ EK E9 E8 E7 GA GZ / GK G9 G8 G7 HA HZ HK H9 / '
            'H8 H7 SA SZ SK S9 S8 S7"]\n')
    c = client()
    board = c.post("/api/load", json={"text": text}).json()["open"]
    won = c.post("/api/position", json={"board": board, "moves": "EU E7 G7 S7".split()}).json()
    assert won["settlement"] is None  # every trick so far the declarer's
    lost = c.post("/api/position", json={"board": board, "moves": "EU E7 G7 S7 EO EA G8 S8".split()}).json()
    assert not lost["is_over"] and lost["settlement"]["payments"] == [-54, 18, 18, 18]  # v = 10 + 2 x 4 Laufende
    assert lost["settlement"]["notes"] == ["the Tout was lost in trick 2: the deal ends there"]
    assert [side["name"] for side in lost["sides"]] == ["declarer", "defenders"]  # one seat: "declarer (1)"


def test_the_pot_is_on_the_table_throughout_the_deal():
    """A club table has the pot in the middle all along, and so does the view: the chips at the start, each trick's P/4,
    what the tricks taken paid each seat, what is left (RULES.md 3.4); a Muss pays no trick, and the other games have no
    pot."""
    text = ('[Game "Kratzen"]\n[Seats "3"]\n[Deal "1: EO E9 SU SZ / GA HA HU S7 / EK G8 HO SK"]\n'
            '[Contract "Trump S"]\n[Declarer "1"]\n[Pot "14"]\n')
    c = client()
    loaded = c.post("/api/load", json={"text": text}).json()["open"]
    moves = "EO S7 EK GA G8 SU E9 HA SK HO SZ HU".split()  # tricks to seats 2, 1, 3, 1
    pots = [c.post("/api/position", json={"board": loaded, "moves": moves[:n]}).json()["pot"] for n in (0, 3, 9, 12)]
    pays = "each trick pays 3"  # in stich show's words
    assert pots == [{"start": 14, "per_trick": 3, "pays": pays, "won": [0, 0, 0], "left": 14, "given": True},
                    {"start": 14, "per_trick": 3, "pays": pays, "won": [0, 3, 0], "left": 11, "given": True},
                    {"start": 14, "per_trick": 3, "pays": pays, "won": [3, 3, 3], "left": 5, "given": True},
                    {"start": 14, "per_trick": 3, "pays": pays, "won": [6, 3, 3], "left": 2, "given": True}]
    muss = c.post("/api/load", json={"text": text.replace("Trump S", "Trump S Muss")}).json()["open"]
    assert c.post("/api/position", json={"board": muss, "moves": moves[:3]}).json()["pot"] == {
        "start": 14, "per_trick": 0, "pays": "a Muss: tricks pay nothing", "won": [0, 0, 0], "left": 14, "given": True}
    untagged = c.post("/api/load", json={"text": text.replace('[Pot "14"]\n', "")}).json()["open"]
    pot = c.post("/api/position", json={"board": untagged, "moves": []}).json()["pot"]
    assert pot["start"] == 0 and pot["pays"] == "tricks and targets only" and pot["given"] is False
    # a [Pot "0"] tag gives a pot of 0 on purpose: the page asks for no pot, as stich score's note does not
    zero = c.post("/api/load", json={"text": text.replace('[Pot "14"]', '[Pot "0"]')}).json()["open"]
    pot = c.post("/api/position", json={"board": zero, "moves": []}).json()["pot"]
    assert pot["start"] == 0 and pot["pays"] == "tricks and targets only" and pot["given"] is True
    # a Muss says its own reason at a pot of 0 too, as stich show and score do
    untagged_muss = c.post("/api/load", json={"text": text.replace('[Pot "14"]\n', "").replace(
        "Trump S", "Trump S Muss")}).json()["open"]
    assert c.post("/api/position", json={"board": untagged_muss, "moves": []}).json()["pot"]["pays"] == \
        "a Muss: tricks pay nothing"
    unread = c.post("/api/load", json={"text": text.replace('"14"', '"abc"')}).json()["open"]
    assert c.post("/api/position", json={"board": unread, "moves": []}).json()["pot"] is None
    schafkopf = client(SK, board="7")
    board, _ = opened(schafkopf)
    assert schafkopf.post("/api/position", json={"board": board, "moves": []}).json()["pot"] is None


def test_a_new_kratzen_deal_takes_its_pot():
    """A deal from the page's form takes the pot, as the record's [Pot] tag (saved with it), so its table and lines do
    not settle at 0; the form refuses a pot for a game that has none."""
    c = client()
    dealt = c.post("/api/deal", json={"game": "Kratzen", "seed": 4, "seats": 4, "pot": "16"}).json()["open"]
    assert c.post("/api/position", json={"board": dealt, "moves": []}).json()["pot"] == {
        "start": 16, "per_trick": 4, "pays": "each trick pays 4", "won": [0, 0, 0, 0], "left": 16, "given": True}
    assert '[Pot "16"]' in c.post("/api/save", json={"board": dealt, "moves": []}).text
    refused(c.post("/api/deal", json={"game": "Schafkopf", "seed": 4, "pot": 16}), 400,
            "Schafkopf is not paid from a pot: leave the pot empty")
    for pot in ("-3", -5, -1, 10**9, 2.5, True):  # a JSON number below 0 too: its [Pot] reads nowhere
        refused(c.post("/api/deal", json={"game": "Kratzen", "seed": 4, "pot": pot}), 400,
                "the pot is a whole number of chips from 0 to")
    start = c.get("/api/start").json()["games"]
    assert [(g["name"], g["has_pot"], g["declarer_title"]) for g in start] == [
        ("Zwanzigerrufen", False, "declarer"), ("Schafkopf", False, "declarer"), ("Kratzen", True, "attacker")]


def test_a_settlement_table_the_server_may_not_map_is_said_in_words() -> None:
    # under a 2 GB address space a 1,024 MB card-values table fits, the settlement's of the same size beside it does
    # not: the page said "the board failed on this request (MemoryError); please report it" on every click
    import resource

    code = ("import json, warnings; warnings.simplefilter('ignore')\n"
            "from starlette.testclient import TestClient\n"
            "from solver.board import create_app\n"
            "from solver.search.engine import EngineSolver\n"
            f"c = TestClient(create_app([{str(EXAMPLES / 'valat.tbn')!r}], engine=EngineSolver(1024)),"
            " base_url='http://127.0.0.1')\n"
            "board = c.get('/api/start').json()['open']\n"
            "print(c.post('/api/values', json={'board': board, 'moves': [], 'client': 'x'}).text.splitlines()[-1])\n")
    limit = 2048 << 20
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          cwd=Path(solver.__file__).resolve().parent.parent,
                          preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (limit, limit)))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "kind": "error", "error": "cannot allocate a 1024 MB transposition table: the board may not use that much "
        "memory (start it with a smaller --table-mb: its searches hold two tables of that size, the card values' and "
        "the settlement's)"}


def test_an_error_quotes_a_long_text_cut_short_with_its_length():
    """A 1.5 MB board id came back whole in the 404's message: the text a message quotes is cut to 60 characters."""
    c = client(KR)
    answer = c.post("/api/position", json={"board": "x" * 1_500_000})
    refused(answer, 404, f"no board '{'x' * 60}...' (1,500,000 characters) is open on this server")
    assert len(answer.content) < 300
    refused(c.post("/api/deal", json={"game": "z" * 200}), 400,
            f"unknown game '{'z' * 60}...' (200 characters) (known games: Zwanzigerrufen, Schafkopf, Kratzen)")
    refused(c.post("/api/deal", json={"game": "Kratzen", "contract": "Trump " + "q" * 500}), 400,
            f"contract 'Trump {'q' * 54}...' (506 characters): ")
    refused(c.post("/api/position", json={"board": ["x"] * 100_000}), 400,
            "\"board\" is an open board's id, a string such as 'b1', not [\"x\", \"x\"")
    assert len(c.post("/api/position", json={"board": ["x"] * 100_000}).content) < 300


def test_a_multipart_upload_is_refused_in_the_boards_words_and_takes_what_json_takes():
    """A multipart text may be as large as JSON text (2 MB), past Starlette's own part limit (1 MB), and one larger
    is refused in the board's words; a file without a name is read as upload.tbn, not as pasted text; a bad boundary
    is one message, with nothing of python-multipart's on the console."""
    c = client()
    text = "% " + "c" * 1_500_000 + "\n" + KR.read_text(encoding="utf-8")
    pasted = c.post("/api/load", json={"text": text}).json()
    posted = c.post("/api/load", data={"text": text}, files={"none": ("", b"")}).json()
    assert len(posted["boards"]) == len(pasted["boards"]) == 5
    for answer in (c.post("/api/load", json={"text": "c" * 2_100_000}),
                   c.post("/api/load", data={"text": "c" * 2_100_000}, files={"none": ("", b"")})):
        refused(answer, 413, "the request is larger than the board takes (2,000,000 bytes)")
    # an empty input is said in the commands' words (no_records_said)
    refused(c.post("/api/load", files={"file": ("", b"")}), 400, f"upload.tbn: {NO_RECORDS}")
    refused(c.post("/api/load", files={"file": ("mine.tbn", b" \n")}), 400, f"mine.tbn: {NO_RECORDS}")
    refused(c.post("/api/load", json={"text": ""}), 400, f"pasted text: {NO_RECORDS}")
    named = c.post("/api/load", files={"file": ("", KR.read_bytes())}).json()
    assert named["boards"][0]["label"] == "upload.tbn board 1"
    # a plain file field beside the text (curl -F file= -F text=<deal.tbn) leaves the text to be read
    for plain in ("", "hello"):
        beside = c.post("/api/load", data={"file": plain, "text": KR.read_text(encoding="utf-8")},
                        files={"none": ("", b"")}).json()
        assert beside["boards"][0]["label"] == "pasted text board 1", beside
    # and a blank text field beside a plain file field leaves the file to be read
    kept = c.post("/api/load", data={"file": KR.read_text(encoding="utf-8"), "text": ""},
                  files={"none": ("", b"")}).json()
    assert kept["boards"][0]["label"] == "upload.tbn board 1", kept
    as_part = c.post("/api/load", files={"text": ("deal.tbn", KR.read_bytes())}).json()  # the text as a file part
    assert as_part["boards"][0]["label"] == "pasted text board 1", as_part
    bad = b"xx--abc\r\n", {"content-type": "multipart/form-data; boundary=abc"}
    refused(c.post("/api/load", content=bad[0], headers=bad[1]), 400, "the upload is not form data the board reads")
    # a form of other fields is not read as an empty paste ("pasted text: no records")
    refused(c.post("/api/load", files={"deal": ("deal.tbn", KR.read_bytes())}), 400,
            "the upload has no field file or text (its fields: 'deal')")
    # the client's field names quoted as any text it sends, cut short: no markup unquoted, no 1,000 characters back
    # (httpx sends a name's '"' as %22)
    long_name = c.post("/api/load", data={'a"b<i>': "1"}, files={"x" * 1000: ("deal.tbn", b"")}).json()
    assert long_name["error"] == ("the upload has no field file or text (its fields: 'a%22b<i>', '" + "x" * 60 +
                                  "...' (1,000 characters)); send a .tbn file as the multipart field file, or text "
                                  "as the field text"), long_name
    # the console as the server has it (pytest's own log handlers would take the warning out of it)
    code = ("import warnings; warnings.simplefilter('ignore'); from starlette.testclient import TestClient; "
            "from solver.board import create_app; "
            f"print(TestClient(create_app([]), base_url='http://127.0.0.1').post('/api/load', content={bad[0]!r}, "
            f"headers={bad[1]!r}).status_code)")
    console = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert (console.stdout, console.stderr) == ("400\n", "")


def test_the_board_deals_every_seed_stich_deal_does_and_says_the_range():
    """The board deals every seed ``stich deal`` takes, a seed of ten digits or more too (not refused as "the seed is a
    whole number", of 1000000000): both take every 64-bit seed, signed or unsigned (-(2**64 - 1) to 2**64 - 1), and the
    refusal says the range."""
    from solver.generate import random_record

    c = client()
    for seed in (10**9, "1000000000000000000", -10**18, 2**63 - 1, str(2**64 - 1), -(2**64 - 1)):
        dealt = c.post("/api/deal", json={"game": "Kratzen", "seed": seed}).json()["open"]
        saved = c.post("/api/save", json={"board": dealt, "moves": []}).text
        assert f'[Deal "{random_record("Kratzen", int(seed), 1).get("Deal")}"]' in saved
    for seed in (2**64, str(-(2**64)), "1e5", "1_000", 2.5, True):
        refused(c.post("/api/deal", json={"game": "Kratzen", "seed": seed}), 400,
                "the seed is a whole number from -18,446,744,073,709,551,615 to 18,446,744,073,709,551,615, not ")


def test_the_curve_says_where_the_game_changed_hands(tmp_path):
    """/api/curve carries the cards after which the game changed hands (``game``: what changed hands), which ``stich
    postmortem`` names under its table and rings in its plot, and the page rings those dots and names them in the note.
    In this Rufer the defenders hand 1+2 the game at cards 4 and 13, seat 1 loses it at card 5; a Zwanzigerrufen graded
    by the score reads it on the points' 45."""
    from test_postmortem import RUFER_SWINGS, ZR_ABSOLUT_KONTRA

    path = tmp_path / "club.tbn"
    path.write_text(RUFER_SWINGS, encoding="utf-8")
    c = client(path)
    board, moves = opened(c)
    scored = c.post("/api/curve", json={"board": board, "moves": moves, "objective": "score"}).json()
    assert scored["game"] == "game"
    assert scored["game_changes"] == [{"number": 4, "won": True}, {"number": 5, "won": False},
                                      {"number": 13, "won": True}]
    by_points = c.post("/api/curve", json={"board": board, "moves": moves, "objective": "points"}).json()
    assert by_points["game_changes"] == scored["game_changes"]
    path.write_text(ZR_ABSOLUT_KONTRA, encoding="utf-8")
    c = client(path)
    board, moves = opened(c)
    zr = c.post("/api/curve", json={"board": board, "moves": moves, "objective": "score"}).json()
    assert zr["game"] == "game" and zr["game_changes"] == [{"number": 31, "won": True}]
    script = c.get("/static/board.js").text
    assert "game-change" in script and "changed hands after card" in script


def test_the_command_says_a_missing_board_and_unreadable_records_before_serving(tmp_path, monkeypatch):
    """``stich board FILE -b 99`` does not serve a page that opens another record with a note in a corner, nor is a
    record that cannot be read said only on the page: a ``--board`` no file has is refused as every other command
    refuses it (exit 1), ``--board`` without a file is a usage error, and each unreadable record is said on stderr,
    FILE:LINE:COL, while the board serves the file's other records."""
    from typer.testing import CliRunner

    import uvicorn

    from solver.cli.main import app

    monkeypatch.setattr(board_app, "create_app", lambda *args, **options: object())
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)
    examples = Path(__file__).resolve().parent.parent / "examples"
    missing = CliRunner().invoke(app, ["board", str(examples / "schafkopf.tbn"), "-b", "99", "--no-open", "-p", "0"])
    assert missing.exit_code == 1 and missing.stdout == ""
    assert missing.stderr == (f"stich: {examples / 'schafkopf.tbn'}: no record with [Board \"99\"] (expected one "
                              "of its boards: 1, 2, 3, 4, 5, 6, 7)\n")  # as every command names them
    kratzen, valat = examples / "kratzen.tbn", examples / "valat.tbn"
    several = CliRunner().invoke(app, ["board", str(kratzen), str(valat), "-b", "9", "--no-open", "-p", "0"])
    assert several.exit_code == 1 and several.stderr == (
        f"stich: {kratzen}, {valat}: no record with [Board \"9\"] (expected one of their boards: 1, 2, 3, 4, 5)\n")
    alone = CliRunner().invoke(app, ["board", "-b", "3", "--no-open", "-p", "0"])
    assert alone.exit_code == 2 and "--board picks a record of the FILEs: give the file" in alone.stderr
    broken = tmp_path / "broken.tbn"
    broken.write_text('[Game "Schafkopf"]\n[Deal "junk"]\n', encoding="utf-8")
    served = CliRunner().invoke(app, ["board", str(broken), str(examples / "kratzen.tbn"), "--no-open", "-p", "0"])
    assert served.exit_code == 0, served.output
    # a file of one bad record: the page opens nothing of it, and says so
    assert served.stderr.startswith(f"stich: {broken}:2:8: Schafkopf deals have 4 hands separated by '/', found 1 ")
    assert served.stderr.splitlines()[0].endswith("(the board opens nothing of this file)")
    assert "Traceback" not in served.output
    # one bad record among good ones, read as the page reads it; a --board whose record is the bad one is its error
    mixed = tmp_path / "mixed.tbn"
    mixed.write_text((examples / "schafkopf.tbn").read_text(encoding="utf-8").replace(
        '[Contract "Solo H"]\n[Declarer "2"]', '[Contract "Solo H"]\n[Declarer "9"]', 1), encoding="utf-8")
    some = CliRunner().invoke(app, ["board", str(mixed), "--no-open", "-p", "0"])
    assert some.exit_code == 0 and some.stderr.count("\n") == 2  # the bad record's line and the serving line
    assert some.stderr.startswith(f"stich: {mixed}:") and "(the board opens the file's other records)\n" in some.stderr
    chosen = CliRunner().invoke(app, ["board", str(mixed), "-b", "3", "--no-open", "-p", "0"])
    assert chosen.exit_code == 1 and chosen.stderr.count("\n") == 1 and "no record with" not in chosen.stderr
    # a file the page refuses whole (more records than it opens): one line, no flood, nothing opened; a byte that is
    # not UTF-8 costs only its own record (here a comment before the first: every record opens), as in stich check
    many = tmp_path / "many.tbn"
    many.write_text('[Game "Schafkopf"]\n[Deal "junk"]\n\n' * 1001, encoding="utf-8")
    latin = tmp_path / "latin.tbn"
    latin.write_bytes('% M\xfcnchen\n'.encode("latin-1") + (examples / "kratzen.tbn").read_bytes())
    refused = CliRunner().invoke(app, ["board", str(many), str(latin), "--no-open", "-p", "0"])
    lines = refused.stderr.splitlines()
    assert refused.exit_code == 0 and len(lines) == 3, lines
    assert lines[0] == (f"stich: {many} holds more than 1,000 records; the board opens at most 1,000 (the board opens "
                        "nothing of this file)")
    assert lines[1] == (f"stich: {latin}:1:4: invalid UTF-8 (byte fc) (expected UTF-8 text) (the board opens the "
                        "file's other records)")


def _asgi_post(app, path: str, body: dict, leave) -> list[dict]:
    """POST ``body`` to the ASGI ``app`` as a client that closes its connection once the coroutine ``leave()``
    returns; the messages the app sent back."""
    sent: list[dict] = []
    request = [{"type": "http.request", "body": json.dumps(body).encode(), "more_body": False}]

    async def receive() -> dict:
        if request:
            return request.pop()
        await leave()
        return {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": path, "raw_path": path.encode(), "query_string": b"",
             "headers": [(b"host", b"127.0.0.1"), (b"content-type", b"application/json")], "http_version": "1.1",
             "scheme": "http", "server": ("127.0.0.1", 80), "client": ("127.0.0.1", 1), "root_path": ""}
    asyncio.run(app(scope, receive, send))
    return sent


def test_a_client_that_leaves_mid_graph_stops_it(monkeypatch):
    """A graph whose page closes its connection stops when its client leaves, instead of holding the analysis thread
    that the odds and the other pages' graphs wait for up to the time limit."""
    import threading

    stopped: list[bool] = []
    searching, ended = threading.Event(), threading.Event()

    def post_mortem_until_stopped(position, engine=None, objective=None, time_limit=None, stop=None):
        searching.set()
        stopped.append(stop.wait(60))  # the page left at once: only a stop that never comes waits this long
        ended.set()
        raise solver.SearchStopped("stopped")

    began: list[bool] = []

    async def leave_once_searching() -> None:  # a search that never starts fails the test, not hangs it
        began.append(await asyncio.get_running_loop().run_in_executor(None, searching.wait, 60))

    monkeypatch.setattr(board_app, "analyse_play", post_mortem_until_stopped)
    app = create_app([ZR])
    board = TestClient(app, base_url="http://127.0.0.1").get("/api/start").json()["open"]
    sent = _asgi_post(app, "/api/curve", {"board": board, "moves": [], "client": "page"}, leave_once_searching)
    assert began == [True], "the graph's search never started"
    assert ended.wait(120) and stopped == [True]
    assert sent[0]["status"] == 409 and b"the client left" in sent[1]["body"]


def _cli_json(*arguments: str) -> list[dict]:
    """The JSON lines of ``stich ARGUMENTS`` (its exit code 0)."""
    from typer.testing import CliRunner

    from cli.main import app

    shown = CliRunner().invoke(app, list(arguments))
    assert shown.exit_code == 0, shown.output
    return [json.loads(line) for line in shown.stdout.splitlines() if line.startswith("{")]


@pytest.mark.parametrize("path, board, cards_back", [
    (ZR, "1", 12), (ZR, "2", 17), (ZR, "7", 3), (ZR, "3", 24),
    (SK, "1", 14), (SK, "7", 4), (SK, "5", 9), (SK, "7", 32), (SK, "2", 16),
    (KR, "5", 0), (KR, "5", 4), (KR, "2", 0), (KR, "3", 0),
])
def test_every_cards_value_on_the_board_is_stich_solves(tmp_path, path, board, cards_back):
    """What a player at the table sees, each legal card's value and the best cards for every objective the board
    offers, is `stich solve --cards --json` of the same position: the record's Play section with its last
    ``cards_back`` cards taken back, saved by the board and solved by the command."""
    c = client(path, board=board)
    board_id, moves = opened(c)
    assert cards_back <= len(moves)
    moves = moves[:len(moves) - cards_back]
    view = c.post("/api/position", json={"board": board_id, "moves": moves}).json()
    assert not view["is_over"], "a position with a card to play"
    saved = tmp_path / "position.tbn"
    saved.write_text(c.post("/api/save", json={"board": board_id, "moves": moves}).text)
    [solved] = _cli_json("solve", str(saved), "--cards", "--json", "-o", "all")
    to_move = solved["position"]["to_move"]
    for objective in view["objectives"]:
        values = lines(c.post("/api/values", json={"board": board_id, "moves": moves,
                                                   "objective": objective["name"]}))[-1]
        assert values["kind"] == "values" and values["objective"] == objective["name"]
        result = next(r for r in solved["results"] if r["objective"] == objective["name"]
                      and r["seat"] in (None, to_move))
        assert values["total"] == result["total"], objective
        assert values["cards"] == {card: group["total"] for group in result["cards"] for card in group["cards"]}
        assert sorted(values["best"]) == sorted(card for group in result["cards"] if group["best"]
                                                for card in group["cards"])


@pytest.mark.parametrize("path, board", [(ZR, "2"), (ZR, "4"), (SK, "1"), (SK, "4"), (KR, "5"), (KR, "1")])
def test_the_settlement_at_the_end_of_the_best_line_is_stich_scores(tmp_path, path, board):
    """Playing the best card (the page's ★ best) to the deal's end from the record's start, the table's settlement
    is `stich score --json` of the record the board saves there: each seat's payment, and the pot's."""
    c = client(path, board=board)
    board_id, _ = opened(c)
    moves: list[str] = []
    view = c.post("/api/position", json={"board": board_id, "moves": moves}).json()
    while view["settlement"] is None:
        best = lines(c.post("/api/values", json={"board": board_id, "moves": moves}))[-1]["best"]
        moves.append(best[0])
        view = c.post("/api/position", json={"board": board_id, "moves": moves}).json()
    saved = tmp_path / "played.tbn"
    saved.write_text(c.post("/api/save", json={"board": board_id, "moves": moves}).text)
    [scored] = _cli_json("score", str(saved), "--json")
    shown = view["settlement"]
    assert (shown["payments"], shown["pot"], shown["pot_change"]) == (scored["payments"], scored["pot"],
                                                                       scored["pot_change"])
    assert shown["notes"] == scored["notes"]


def test_variant_option_plays_the_named_files_under_the_flags_and_the_saved_record_keeps_them(tmp_path):
    """`stich board` takes --variant, as every other command that reads a deal does, so that a what-if under another
    flag can be played on the board. Here must_undertrump=false lets seat 3, void in the led acorns and unable to
    overtrump the HA, throw its G8 (RULES.md 3.2); the saved record carries the flag and reads back the same."""
    path = tmp_path / "undertrump.tbn"
    path.write_text('[Game "Kratzen"]\n[Deal "1: E9 EK / HA G7 / H7 G8"]\n[Contract "Trump H"]\n', encoding="utf-8")

    def legal_of_seat_3(c: TestClient) -> tuple[str, list[str]]:
        board = c.get("/api/start").json()["open"]
        view = c.post("/api/position", json={"board": board, "moves": ["E9", "HA"]}).json()
        return board, [card["name"] for card in view["hands"][2]["cards"] if card["legal"]]

    assert legal_of_seat_3(client(path))[1] == ["H7"]  # the default: a void seat that cannot overtrump still trumps
    c = client(path, variant={"must_undertrump": "false"})
    board, legal = legal_of_seat_3(c)
    assert legal == ["H7", "G8"]
    assert c.post("/api/position", json={"board": board, "moves": []}).json()["variant"] == "must_undertrump=false"
    saved = c.post("/api/save", json={"board": board, "moves": ["E9", "HA"]}).text
    assert '[Variant "must_undertrump=false"]' in saved
    again = next(solver.read_positions(_write(tmp_path, saved)))
    assert sorted(str(card) for card in again.legal_cards()) == ["G8", "H7"]
    # another game's flag is left out of the file's records, which open under their own rules as an upload's do
    # (not refused, the file opening nothing), the note saying so beside the flag of their game that applies
    c = client(path, variant={"sagotrick": "off", "must_undertrump": "false"})
    other = c.get("/api/start").json()["files"][0]
    assert "error" not in other and len(other["boards"]) == 1
    view = c.post("/api/position", json={"board": other["boards"][0]["id"], "moves": []}).json()
    assert view["variant"] == "must_undertrump=false"
    assert view["variant_note"] == ("must_undertrump=false (--variant); --variant sagotrick=off left out: not "
                                    "Kratzen's (its own rules)")


UNDERTRUMP = '[Game "Kratzen"]\n[Deal "1: E9 EK / HA G7 / H7 G8"]\n[Contract "Trump H"]\n'


def _seat_3_may_play(c: TestClient, board: str) -> list[str]:
    """Seat 3's legal cards after E9 HA: with must_undertrump=false its G8 too (RULES.md 3.2)."""
    view = c.post("/api/position", json={"board": board, "moves": ["E9", "HA"]}).json()
    return [card["name"] for card in view["hands"][2]["cards"] if card["legal"]]


def test_variant_option_plays_uploads_and_deals_of_its_game_under_the_flags(tmp_path):
    """--variant reaches what the page opens, not only the named files (a record uploaded to a board started with
    must_undertrump=false is played under it, not the default): an upload, a paste and a deal of the flag's game are
    played under it (saved with it), /api/start says the flags of each game, and a record of another game opens under
    its own rules."""
    c = client(variant={"must_undertrump": "false", "sagotrick": "off"})
    assert c.get("/api/start").json()["variant"] == {"Kratzen": "must_undertrump=false",
                                                     "Zwanzigerrufen": "sagotrick=off"}
    assert client().get("/api/start").json()["variant"] == {}
    for answer in (c.post("/api/load", files={"file": ("u.tbn", UNDERTRUMP.encode(), "text/plain")}),
                   c.post("/api/load", json={"text": UNDERTRUMP.replace("E9 EK", "EK E9")})):
        board = answer.json()["open"]
        assert _seat_3_may_play(c, board) == ["H7", "G8"]
        view = c.post("/api/position", json={"board": board, "moves": []}).json()
        assert view["variant"] == "must_undertrump=false"
        # the Zwanzigerrufen flag is left out of a Kratzen record, said as for a named file's
        assert view["variant_note"] == \
            "must_undertrump=false (--variant); --variant sagotrick=off left out: not Kratzen's (its own rules)"
        saved = c.post("/api/save", json={"board": board, "moves": ["E9", "HA"]}).text
        assert '[Variant "must_undertrump=false"]' in saved
        assert sorted(str(card) for card in next(solver.read_positions(_write(tmp_path, saved))).legal_cards()) == \
            ["G8", "H7"]
    dealt = c.post("/api/deal", json=DEAL).json()["open"]
    view = c.post("/api/position", json={"board": dealt, "moves": []}).json()
    assert view["variant"] == "must_undertrump=false"
    # the deal's note is an upload's of the same record: the other game's flag said left out
    assert view["variant_note"] == \
        "must_undertrump=false (--variant); --variant sagotrick=off left out: not Kratzen's (its own rules)"
    assert '[Variant "must_undertrump=false"]' in c.post("/api/save", json={"board": dealt, "moves": []}).text
    # the same deal on a board without the flag: the same cards, the default rules
    bare = client()
    plain = bare.post("/api/deal", json=DEAL).json()["open"]
    assert bare.post("/api/position", json={"board": plain, "moves": []}).json()["variant"] == ""
    # another game's record opens under its own flags: the Kratzen flag is none of Schafkopf's
    schafkopf = c.post("/api/load", json={"text": SK.read_text(encoding="utf-8")}).json()
    assert schafkopf["refused"] == [] and len(schafkopf["boards"]) == 7
    view = c.post("/api/position", json={"board": schafkopf["open"], "moves": []}).json()
    assert view["variant_note"] == \
        "--variant must_undertrump=false, sagotrick=off left out: not Schafkopf's (its own rules)"
    assert "must_undertrump" not in view["variant"]
    zwanzigerrufen = c.post("/api/load", json={"text": ZR.read_text(encoding="utf-8")}).json()["open"]
    assert c.post("/api/position", json={"board": zwanzigerrufen, "moves": []}).json()["variant_note"] == \
        "sagotrick=off (--variant); --variant must_undertrump=false left out: not Zwanzigerrufen's (its own rules)"


def test_the_boards_variant_wins_over_a_records_own_tag_named_or_uploaded_alike(tmp_path):
    """--variant overrides a record's own [Variant] flag by flag, as in every command (``stich solve FILE --variant``),
    and the same whether the file is named on the command line, uploaded or pasted, so that one file opened two ways is
    under one set of rules. The view says which won, and a saved record carries the flag in force."""
    own = UNDERTRUMP + '[Variant "must_undertrump=true"]\n'
    path = tmp_path / "own.tbn"
    path.write_text(own, encoding="utf-8")
    # the command line's own rule, which the board follows: the flag over the tag
    read = next(solver.read_positions(path, variant={"must_undertrump": "false"})).play_cards("E9 HA")
    assert sorted(str(card) for card in read.legal_cards()) == ["G8", "H7"]
    named = client(path, variant={"must_undertrump": "false"})
    board = named.get("/api/start").json()["open"]
    uploaded = named.post("/api/load", files={"file": ("own.tbn", own.encode(), "text/plain")}).json()["open"]
    pasted = named.post("/api/load", json={"text": own}).json()["open"]
    assert len({board, uploaded, pasted}) == 3  # three boards, one rule
    for opened in (board, uploaded, pasted):
        assert _seat_3_may_play(named, opened) == ["H7", "G8"]
        view = named.post("/api/position", json={"board": opened, "moves": []}).json()
        assert view["variant"] == "must_undertrump=false"
        assert view["variant_note"] == "--variant must_undertrump=false over the record's must_undertrump=true"
        assert '[Variant "must_undertrump=false"]' in named.post("/api/save", json={"board": opened, "moves": []}).text
    # a tag that says the same as the flag in other words: in force, no conflict
    same = named.post("/api/load", json={"text": UNDERTRUMP + '[Variant "must_undertrump=no"]\n'}).json()["open"]
    assert _seat_3_may_play(named, same) == ["H7", "G8"]
    assert named.post("/api/position", json={"board": same, "moves": []}).json()["variant_note"] == \
        "must_undertrump=false (--variant)"
    # without --variant the record's own tag rules, uploaded as named
    bare = client(path)
    assert _seat_3_may_play(bare, bare.get("/api/start").json()["open"]) == ["H7"]
    assert _seat_3_may_play(bare, bare.post("/api/load", json={"text": own}).json()["open"]) == ["H7"]


def test_a_bad_value_of_a_records_variant_tag_is_located_though_the_boards_variant_replaces_it():
    """An upload whose [Variant] tag holds a bad value of the flag --variant gives is refused with its file:line:col, as
    a board without --variant says it, and in an upload of several the refusal names the record: the tag's flags are
    read where it is located, not again with nothing saying where they came from."""
    bad = UNDERTRUMP + '[Variant "must_undertrump=maybe"]\n'
    said = "variant flag must_undertrump takes true or false, not 'maybe' (got 'must_undertrump=maybe', expected " \
           "flags of docs/rules.md)"
    for c in (client(), client(variant={"must_undertrump": "false"})):
        pasted = c.post("/api/load", json={"text": bad})
        assert pasted.status_code == 400 and pasted.json()["error"] == f"pasted text:4:11: {said}"
        uploaded = c.post("/api/load", files={"file": ("maybe.tbn", bad.encode(), "text/plain")})
        assert uploaded.status_code == 400 and uploaded.json()["error"] == f"maybe.tbn:4:11: {said}"
        # the second record of two refused, the first opened: the refusal says which, at its tag
        both = c.post("/api/load", files={"file": ("two.tbn", (UNDERTRUMP + "\n" + bad).encode(), "text/plain")})
        assert len(both.json()["boards"]) == 1 and both.json()["refused"] == [f"two.tbn:8:11: {said}"]


def test_an_uploads_record_of_another_game_than_a_flags_opens_under_its_own_rules():
    """An upload mixing games under a --variant of one of them: the other game's records open under their own
    rules, said on the page as for a named file's, not refused."""
    c = client(variant={"sagotrick": "off"})
    loaded = c.post("/api/load", json={"text": SK.read_text(encoding="utf-8")}).json()
    assert loaded["refused"] == [] and len(loaded["boards"]) == 7
    view = c.post("/api/position", json={"board": loaded["open"], "moves": []}).json()
    assert view["variant_note"] == "--variant sagotrick=off left out: not Schafkopf's (its own rules)"


def test_a_deal_of_another_game_than_the_flags_says_them_left_out_as_the_same_deal_pasted_back():
    """A deal added on a board whose flags are of another game says them left out, as the same deal saved and pasted
    back says (docs/board.md: the note appears for every record): a Schafkopf deal on a board started with a Kratzen
    flag shows the note."""
    c = client(variant={"must_undertrump": "false"})
    dealt = c.post("/api/deal", json={"game": "Schafkopf", "seed": 3}).json()["open"]
    view = c.post("/api/position", json={"board": dealt, "moves": []}).json()
    note = "--variant must_undertrump=false left out: not Schafkopf's (its own rules)"
    assert view["variant"] == "" and view["variant_note"] == note
    saved = c.post("/api/save", json={"board": dealt, "moves": []}).text
    assert "[Variant" not in saved
    pasted = c.post("/api/load", json={"text": saved}).json()["open"]
    assert c.post("/api/position", json={"board": pasted, "moves": []}).json()["variant_note"] == note


def test_board_variant_option_is_checked_as_every_commands(tmp_path, monkeypatch):
    """A misspelt --variant flag is a usage error (exit 2) before the board serves; served, it would wait for
    Ctrl-C, so a check moved past the start fails the test (the server's run is stubbed) instead of hanging it."""
    from typer.testing import CliRunner

    import uvicorn

    from solver.cli.main import app

    monkeypatch.setattr(board_app, "create_app", lambda *args, **options: object())
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)
    result = CliRunner().invoke(app, ["board", str(KR), "--no-open", "-p", "0", "--variant", "must_undertrum=false"])
    assert result.exit_code == 2 and "did you mean 'must_undertrump'?" in result.output
    assert "Traceback" not in result.output


def test_board_variant_without_a_file_serves_the_pages_deals_and_uploads_under_it(monkeypatch):
    """``stich board --variant sagotrick=off`` without a FILE serves, with the flags: they reach the page's uploads
    and deals, not the named files alone."""
    from typer.testing import CliRunner

    import uvicorn

    from solver.cli.main import app

    given: dict = {}
    monkeypatch.setattr(board_app, "create_app", lambda *args, **options: given.update(options) or object())
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)
    result = CliRunner().invoke(app, ["board", "--variant", "sagotrick=off", "--no-open", "-p", "0"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("http://127.0.0.1:") and given["variant"] == {"sagotrick": "off"}
    assert "Traceback" not in result.output


def test_board_says_a_flag_of_another_game_once_a_game_and_opens_the_records(tmp_path, monkeypatch):
    """``stich board FILE --variant sagotrick=off`` says the flag as the commands do, once a game (``stich check`` says
    ``stich: --variant: ...`` once a game, docs/cli.md), not ``FILE:10:8: the variant given with the command or call:
    ...`` once for each Kratzen record; the records open under their own game's rules, as an upload of the file opens
    them, not refused with the file opening nothing."""
    from typer.testing import CliRunner

    import uvicorn

    from solver.cli.main import app

    monkeypatch.setattr(board_app, "create_app", lambda *args, **options: object())
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)
    examples = Path(__file__).resolve().parent.parent / "examples"
    mixed = tmp_path / "mixed.tbn"  # five Kratzen records, then Zwanzigerrufen ones that take the flag
    mixed.write_text(KR.read_text(encoding="utf-8") + "\n" + (examples / "zwanzigerrufen.tbn").read_text(
        encoding="utf-8"), encoding="utf-8")
    result = CliRunner().invoke(app, ["board", str(mixed), "--variant", "sagotrick=off", "--no-open", "-p", "0"])
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines()[0] == (
        "stich: --variant: variant flag sagotrick is Zwanzigerrufen's, not Kratzen's (Kratzen's flags: "
        f"first_leader, must_undertrump, weli_also_bells) (5 records of Kratzen from {mixed}:10 opened under their "
        "own game's rules, as an upload's are)")
    assert "the variant given with the command or call" not in result.stderr
    assert result.stderr.count("--variant:") == 1
    # a file of them alone: the same line, and the file opens (it opened nothing)
    result = CliRunner().invoke(app, ["board", str(KR), "--variant", "sagotrick=off", "--no-open", "-p", "0"])
    assert result.exit_code == 0 and result.stderr.count("--variant:") == 1
    assert f"(5 records of Kratzen from {KR}:10 opened under their own game's rules" in result.stderr
    assert "the board opens nothing of this file" not in result.stderr
    uploaded = session.Boards().add_text(mixed.read_text(encoding="utf-8"), "up.tbn")  # as an upload of it opens
    games = [board.record.get("Game") for board in uploaded]
    assert games[:5] == ["Kratzen"] * 5 and set(games[5:]) == {"Zwanzigerrufen"}


def test_a_board_whose_file_every_record_refuses_is_not_called_missing(tmp_path, monkeypatch):
    """``stich board k.tbn -b 1 --variant sagotrick=off`` refuses the Zwanzigerrufen flag for the Kratzen record and
    the board opens, not 'no record with [Board "1"]'; a file of one record the board cannot open, picked by --board,
    says what is wrong with it (its Declarer), exit 1, not 'no record with'."""
    from typer.testing import CliRunner

    import uvicorn

    from solver.cli.main import app

    monkeypatch.setattr(board_app, "create_app", lambda *args, **options: object())
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)
    result = CliRunner().invoke(app, ["board", str(KR), "-b", "1", "--variant", "sagotrick=off", "--no-open",
                                      "-p", "0"])
    assert result.exit_code == 0 and result.stdout.startswith("http://127.0.0.1:")
    assert "variant flag sagotrick is Zwanzigerrufen's, not Kratzen's" in result.stderr
    assert "no record with" not in result.stderr
    # a file of one record that cannot be opened, picked by --board: the same
    broken = tmp_path / "broken.tbn"
    broken.write_text('[Game "Schafkopf"]\n[Board "1"]\n[Deal "1: EA / GA / HA / SA"]\n[Contract "Solo H"]\n'
                      '[Declarer "9"]\n', encoding="utf-8")
    result = CliRunner().invoke(app, ["board", str(broken), "-b", "1", "--no-open", "-p", "0"])
    assert result.exit_code == 1 and "no record with" not in result.stderr and "Declarer" in result.stderr


def test_a_board_in_a_file_that_is_not_utf8_is_not_called_missing(tmp_path, monkeypatch):
    """A file whose board 2 has a Latin-1 byte is read record by record, as the command line does: board 1 opens (``-b
    1`` serves it), the bad record said at its byte, and ``-b 2`` says, as every command does, that none of the records
    read is board 2 and one could not be read, not 'no record with [Board "2"]'."""
    from typer.testing import CliRunner

    import uvicorn

    from solver.cli.main import app

    monkeypatch.setattr(board_app, "create_app", lambda *args, **options: object())
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)
    text = (EXAMPLES / "valat.tbn").read_bytes()
    record = text[text.index(b"[Game"):]
    path = tmp_path / "latin1.tbn"
    latin1 = record.replace(b'[Board "1"]', b'[Board "2"]').replace(b"Example", b"Ex\xfcample")
    path.write_bytes(record + b"\n" + latin1)
    line = 1 + (record + b"\n").count(b"\n") + record[:record.index(b"Example")].count(b"\n")
    said = (f"stich: {path}:{line}:11: invalid UTF-8 (byte fc) (expected UTF-8 text) (the board opens the file's "
            "other records)")
    result = CliRunner().invoke(app, ["board", str(path), "-b", "2", "--no-open", "-p", "0"])
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.splitlines() == [said, f'stich: {path}: no record with [Board "2"] among those read (1 record '
                                                "could not be read, said above: it may be one of them; expected one "
                                                "of its boards: 1)"]
    result = CliRunner().invoke(app, ["board", str(path), "-b", "1", "--no-open", "-p", "0"])
    assert result.exit_code == 0 and result.stderr.splitlines()[0] == said  # board 1 is read: the file is not refused


def _values_of_command(c: TestClient, board_id: str, moves: list[str]) -> str:
    """The position's command line, run as the player would run it (in the directory it names its file from), gives
    the card values the board shows by the score."""
    import shlex

    command = c.post("/api/position", json={"board": board_id, "moves": moves}).json()["command"]
    words = shlex.split(command)
    assert words[:2] == ["stich", "solve"] and words[-1] == "--cards"
    assert ("--play" in words) == bool(moves) and "--from-start" in words
    [solved] = _cli_json(*words[1:], "--json", "-o", "score")
    shown = lines(c.post("/api/values", json={"board": board_id, "moves": moves, "objective": "score"}))[-1]
    assert shown["kind"] == "values"
    assert shown["cards"] == {card: group["total"] for group in solved["results"][0]["cards"]
                              for card in group["cards"]}
    return command


def test_the_command_line_of_a_named_files_position_gives_its_card_values(tmp_path, monkeypatch):
    """A player takes the position shown to the command line: `stich solve` with the file as named, its board (or
    its place, for a record without a [Board] tag) and the moves from the deal's start, whatever the record's own
    Play section holds (Schafkopf board 7 has one)."""
    monkeypatch.chdir(EXAMPLES)
    c = client(Path("schafkopf.tbn"), board="7")
    board_id, record_moves = opened(c)
    assert len(record_moves) > 5
    monkeypatch.chdir(tmp_path)  # the command names the file by its absolute name: it works from any directory
    assert _values_of_command(c, board_id, record_moves[:5]) == (
        f"stich solve {SK} --board 7 --from-start --play '{' '.join(record_moves[:5])}' --cards")
    assert _values_of_command(c, board_id, []) == f"stich solve {SK} --board 7 --from-start --cards"
    untagged = tmp_path / "untagged.tbn"
    untagged.write_text(re.sub(r'\[Board "\d+"\]\n', "", ZR.read_text()))
    c = client(Path(untagged.name))
    second = c.get("/api/start").json()["files"][0]["boards"][1]
    assert second["label"] == "untagged.tbn record 2"
    assert _values_of_command(c, second["id"], []) == f"stich solve {untagged} --record 2 --from-start --cards"


def test_the_command_line_docs_board_md_shows_is_the_boards(monkeypatch):
    """docs/board.md's example command is what the board shows for its position, and run it gives the values shown (a
    command that played a card of the record's second trick first would be refused)."""
    page = (EXAMPLES.parent / "docs" / "board.md").read_text(encoding="utf-8")
    example = re.search(r"`(stich solve (/\S+)/examples/schafkopf\.tbn --board 7 [^`]*)`", page)
    monkeypatch.chdir(EXAMPLES.parent)
    c = client(Path("examples/schafkopf.tbn"), board="7")
    board_id = c.get("/api/start").json()["open"]
    shown = _values_of_command(c, board_id, shlex.split(example.group(1))[-2].split())
    assert shown == example.group(1).replace(example.group(2), str(EXAMPLES.parent))


def test_the_command_line_of_another_record_names_the_file_save_downloads(tmp_path, monkeypatch):
    """An upload and a deal: the command names the file Save .tbn downloads (the record with the flags it is played
    under), the page is told to say it must be saved first, and run on it the command gives the values shown."""
    monkeypatch.chdir(tmp_path)
    c = client(ZR, variant={"must_undertrump": False})
    uploaded = c.post("/api/load", files={"file": ("mine.tbn", SK.read_bytes())}).json()["open"]
    dealt = c.post("/api/deal", json={"game": "Kratzen", "seed": 3}).json()["open"]
    for board_id in (uploaded, dealt):
        moves = lines(c.post("/api/values", json={"board": board_id, "moves": [], "objective": "score"}))[-1]["best"]
        assert c.post("/api/position", json={"board": board_id, "moves": []}).json()["needs_save"] is True
        saved = c.post("/api/save", json={"board": board_id, "moves": moves[:1]})
        name = re.search(r'filename="([^"]+)"', saved.headers["content-disposition"]).group(1)
        (tmp_path / name).write_text(saved.text)
        assert _values_of_command(c, board_id, moves[:1]).startswith(f"stich solve {name} --from-start --play")


@pytest.mark.parametrize("variant, passed", [({"sagotrick": "off"}, " --variant sagotrick=off"),
                                             ({"must_undertrump": False}, "")])
def test_the_command_line_of_a_named_file_passes_the_boards_flags_of_its_game(variant, passed, monkeypatch):
    """A named file's record played under the board's --variant is named by its file, with the flags of its game as
    --variant (no Save needed); a flag of another game, left out of the record's rules, is left out of it too."""
    monkeypatch.chdir(EXAMPLES)
    c = client(Path(ZR.name), variant=variant)
    board_id = c.get("/api/start").json()["open"]
    assert c.post("/api/position", json={"board": board_id, "moves": []}).json()["needs_save"] is False
    assert _values_of_command(c, board_id, []) == f"stich solve {ZR} --board 1{passed} --from-start --cards"


def test_a_named_files_text_uploaded_before_the_page_opened_it_is_named_by_its_file(monkeypatch):
    """An upload of a named file's text under its name, made before the page asked for the named files, gives the
    same boards to both: once the file opens them, their command names the file, not the name Save gives."""
    monkeypatch.chdir(EXAMPLES)
    c = client(Path(ZR.name))
    uploaded = c.post("/api/load", files={"file": (ZR.name, ZR.read_bytes())}).json()["open"]
    assert c.post("/api/position", json={"board": uploaded, "moves": []}).json()["needs_save"] is True
    assert c.get("/api/start").json()["open"] == uploaded
    view = c.post("/api/position", json={"board": uploaded, "moves": []}).json()
    assert view["needs_save"] is False and view["command"] == f"stich solve {ZR} --board 1 --from-start --cards"


def test_the_command_line_of_a_file_named_with_a_dash_or_a_tag_twice(tmp_path, monkeypatch):
    """A file named as -dash.tbn is named by its absolute name, and the name Save gives an upload of it ./-dash-1.tbn
    (else the command reads either as options); a record whose [Board] tag another record of its file has too is
    named by its place (--board would solve both)."""
    monkeypatch.chdir(tmp_path)
    text = ZR.read_text()
    Path("-dash.tbn").write_text(text + "\n" + text)
    c = client(Path("-dash.tbn"))
    second = c.get("/api/start").json()["files"][0]["boards"][1]
    assert _values_of_command(c, second["id"], []) == (
        f"stich solve {tmp_path / '-dash.tbn'} --record 2 --from-start --cards")
    uploaded = c.post("/api/load", files={"file": ("-dash.tbn", ZR.read_bytes())}).json()["open"]
    view = c.post("/api/position", json={"board": uploaded, "moves": []}).json()
    assert view["command"] == "stich solve ./-dash-1.tbn --from-start --cards" and view["needs_save"] is True


def test_a_record_beside_one_too_broken_to_read_is_named_by_its_place(tmp_path, monkeypatch):
    """A record too broken to read may carry any [Board] tag, and stich solve --board says it, as it may be the board
    asked for (exit 1): the command names a record of such a file by --record, which reads it alone and says nothing
    else."""
    monkeypatch.chdir(tmp_path)
    broken = '[Game "Zwanzigerrufen"]\n[Board "1"]\n[Deal "junk"]\n'
    Path("mixed.tbn").write_text(ZR.read_text() + "\n" + broken)
    c = client(Path("mixed.tbn"))
    [listed] = c.get("/api/start").json()["files"]
    assert listed["error"].startswith("mixed.tbn:") and listed["boards"][0]["label"] == "mixed.tbn board 1"
    command = _values_of_command(c, listed["boards"][0]["id"], [])
    assert command == f"stich solve {tmp_path / 'mixed.tbn'} --record 1 --from-start --cards"  # run: exit 0
    from typer.testing import CliRunner

    from cli.main import app

    by_tag = CliRunner().invoke(app, ["solve", "mixed.tbn", "--board", "1", "--cards"])
    assert by_tag.exit_code == 1 and "mixed.tbn:" in by_tag.stderr  # the broken record said: not the command shown


def test_a_board_tag_with_spaces_is_picked_as_solve_picks_it(tmp_path, monkeypatch):
    """stich solve --board 1 picks a record tagged [Board " 1"] as well as one tagged "1" (the tag without its
    spaces): the page's --board and its command count such tags as one board, so each of the two is named by
    --record, and a lone " 7" is named --board 7, which solve then finds."""
    monkeypatch.chdir(tmp_path)
    record = solver.formats.tbn.format_record(solver.random_record("schafkopf", 1, 1))
    assert '[Board "1"]' in record
    Path("two.tbn").write_text(record + "\n" + record.replace('[Board "1"]', '[Board " 1"]'))
    Path("lone.tbn").write_text(record.replace('[Board "1"]', '[Board " 7"]'))
    c = client(Path("two.tbn"), Path("lone.tbn"), board="7")
    two, lone = c.get("/api/start").json()["files"]
    commands = [_values_of_command(c, listed["boards"][0]["id"], []) for listed in (two, lone)]
    assert commands == [f"stich solve {tmp_path / 'two.tbn'} --record 1 --from-start --cards",
                        f"stich solve {tmp_path / 'lone.tbn'} --board 7 --from-start --cards"]
    assert "error" not in lone  # --board 7 found the record tagged " 7"


def test_a_file_name_not_utf8_is_said_by_its_bytes(tmp_path):
    """A file named by bytes that are not UTF-8 does not make /api/start a 500 (UnicodeEncodeError): the page is given
    the name with those bytes written out, and a command that names the file Save .tbn downloads."""
    name = os.fsdecode(b"bad\xffname.tbn")
    (tmp_path / name).write_bytes(ZR.read_bytes())
    c = client(tmp_path / name)
    started = c.get("/api/start")
    assert started.status_code == 200
    [listed] = started.json()["files"]
    assert listed["file"] == "bad\\xffname.tbn" and listed["boards"][0]["label"] == "bad\\xffname.tbn board 1"
    view = c.post("/api/position", json={"board": listed["boards"][0]["id"], "moves": []}).json()
    assert view["command"] == "stich solve bad_name-1.tbn --from-start --cards" and view["needs_save"] is True


def test_standard_input_is_read_once_and_served_from_memory(monkeypatch):
    """``cat deals.tbn | stich board -``: the command reads standard input once, at start, and the board serves that
    text (a page load neither decodes nor reads its records again), its records labelled <stdin> and their command
    naming the file Save .tbn downloads, as an upload's. A closed input, or one larger than the board reads, is
    said in one line (exit 1); ``-`` twice is a usage error."""
    from typer.testing import CliRunner

    import uvicorn

    from solver.cli.main import app

    given: dict = {}
    monkeypatch.setattr(board_app, "create_app", lambda *args, **options: given.update(options) or object())
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)
    piped = CliRunner().invoke(app, ["board", "-", "-b", "7", "--no-open", "-p", "0"], input=SK.read_bytes())
    assert piped.exit_code == 0 and piped.stderr == "stich board: serving on this machine; Ctrl-C stops it\n"
    assert given["stdin"] == SK.read_bytes()
    missing = CliRunner().invoke(app, ["board", "-", "-b", "99", "--no-open", "-p", "0"], input=SK.read_bytes())
    assert missing.exit_code == 1 and missing.stderr == ('stich: <stdin>: no record with [Board "99"] (expected one of '
                                                         "its boards: 1, 2, 3, 4, 5, 6, 7)\n")
    closed = subprocess.run([sys.executable, "-c", "from solver.cli.main import main; main()", "board", "-",
                             "--no-open", "-p", "0"], stdin=subprocess.DEVNULL, capture_output=True, text=True,
                            timeout=60, preexec_fn=lambda: os.close(0))
    assert closed.returncode == 1 and closed.stderr == (
        "stich: <stdin>: Bad file descriptor (it was closed when stich started)\n")
    twice = CliRunner().invoke(app, ["board", "-", "-", "--no-open", "-p", "0"], input=SK.read_bytes())
    assert twice.exit_code == 2 and "- (standard input) is given more than once" in twice.stderr
    monkeypatch.setattr(session, "MAX_FILE_BYTES", 1000)
    large = CliRunner().invoke(app, ["board", "-", "--no-open", "-p", "0"], input=SK.read_bytes())
    assert large.exit_code == 1 and large.stderr == (
        f"stich: <stdin>: more than the board reads (1,000 bytes; it opens at most {MAX_RECORDS:,} records)\n")
    monkeypatch.undo()
    read: list = []
    decoded: list = []

    def counted(function, calls: list):
        return lambda *args, **options: calls.append(args) or function(*args, **options)

    monkeypatch.setattr(session.Boards, "add_text_said", counted(session.Boards.add_text_said, read))
    monkeypatch.setattr(board_app, "file_text", counted(board_app.file_text, decoded))
    c = client(Path("-"), board="7", stdin=SK.read_bytes())
    for load in range(2):  # a page load again: the same boards, neither decoded nor read again
        start = c.get("/api/start").json()
        assert len(decoded) == len(read) == 1, load
        [listed] = start["files"]
        assert listed["file"] == "<stdin>" and len(listed["boards"]) == len(list(solver.read_positions(SK)))
        board = next(board for board in listed["boards"] if board["id"] == start["open"])
        assert board["label"] == "<stdin> board 7"
    view = c.post("/api/position", json={"board": start["open"], "moves": []}).json()
    assert view["needs_save"] is True and view["command"] == "stich solve schafkopf-7.tbn --from-start --cards"


def test_a_file_name_not_utf8_is_said_at_start_as_the_page_says_it(tmp_path, monkeypatch):
    """A file name's byte that is not UTF-8 is said at the start as the page writes it, \\xff, not as the surrogate it
    is read into (\\udcff)."""
    from typer.testing import CliRunner

    import uvicorn

    from solver.cli.main import app

    monkeypatch.setattr(board_app, "create_app", lambda *args, **options: object())
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)
    path = tmp_path / os.fsdecode(b"bad\xffname.tbn")
    path.write_text(ZR.read_text() + '\n[Game "Zwanzigerrufen"]\n[Deal "junk"]\n')
    result = CliRunner().invoke(app, ["board", str(path), "-b", "9", "--no-open", "-p", "0"])
    shown = f"{tmp_path}/bad\\xffname.tbn"
    said = result.stderr.splitlines()
    assert result.exit_code == 1 and len(said) == 2 and said[0].startswith(f"stich: {shown}:")
    assert said[1] == f'stich: {shown}: no record with [Board "9"] (expected one of its boards: 1, 2, 3, 4, 5, 6, 7)'
    page = client(path).get("/api/start").json()["files"][0]
    assert page["error"].startswith(shown + ":")


def test_xx_in_the_moves_is_the_tarock_xx(tmp_path):
    """RULES.md 1.1 reads the Roman numerals XX ... IV as the tarocks T20 ... T4 (XXI the Mond, I the Pagat), in a
    record and so in the board's moves: a move XX in Zwanzigerrufen is T20; in Schafkopf, whose pack has no tarocks,
    it is no card."""
    c = client(ZR, SK)
    start = c.get("/api/start").json()
    zr_board = start["files"][0]["boards"][1]["id"]  # board 2, whose first leader holds T20
    played = c.post("/api/position", json={"board": zr_board, "moves": ["XX"]}).json()
    assert played["moves"] == ["T20"] and [card["name"] for card in played["trick"]] == ["T20"]
    sk_board = start["files"][1]["boards"][0]["id"]
    refused(c.post("/api/position", json={"board": sk_board, "moves": ["XX"]}), 400,
            "move 1: 'XX' is not a card of the Schafkopf pack")


def test_the_command_line_names_a_file_through_a_symlinked_folder_as_typed(tmp_path, monkeypatch):
    """link/../x.tbn, where link points to real/sub, is the system's real/x.tbn: the command names it so, keeping the
    link and the .. as typed, not as x.tbn beside the link (another file)."""
    (tmp_path / "real" / "sub").mkdir(parents=True)
    (tmp_path / "link").symlink_to(tmp_path / "real" / "sub")
    (tmp_path / "real" / "x.tbn").write_bytes(SK.read_bytes())
    (tmp_path / "x.tbn").write_bytes(ZR.read_bytes())
    monkeypatch.chdir(tmp_path)
    c = client(Path("link/../x.tbn"), board="7")
    board_id, _ = opened(c)
    assert _values_of_command(c, board_id, []) == (
        f"stich solve {tmp_path}/link/../x.tbn --board 7 --from-start --cards")


def test_a_bad_file_beside_standard_input_is_said_before_standard_input_is_read(tmp_path):
    """The named files are checked before standard input is read: a missing one is said at once (exit 1) while the
    input is still open (``tail -f deals.tbn | stich board - missing.tbn``), not only once it ends."""
    missing = tmp_path / "missing.tbn"
    with subprocess.Popen([sys.executable, "-c", "from solver.cli.main import main; main()", "board", "-",
                           str(missing), "--no-open", "-p", "0"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True) as process:
        try:
            exit_code = process.wait(timeout=60)  # standard input is held open all the while
        finally:
            process.kill()  # where it did not exit
        said = process.stderr.read()
    assert exit_code == 1 and said == (f"stich: {missing}: not a readable file (the board opens files by name, or - "
                                       "for standard input; upload others on the page)\n")


def test_a_stop_while_standard_input_is_read_says_so():
    """Ctrl-C while standard input is read (a terminal the records are still typed at) says that the board stopped
    while reading it, and exits 130 with nothing printed."""
    import pty

    master, terminal = pty.openpty()
    try:
        with subprocess.Popen([sys.executable, "-c", "from solver.cli.main import main; main()", "board", "-",
                               "--no-open", "-p", "0"], stdin=terminal, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True,
                              preexec_fn=signals_as_a_shell_gives_them) as process:
            try:
                prompt = process.stderr.readline()  # said as the reading begins
                process.send_signal(signal.SIGINT)
                exit_code = process.wait(timeout=60)
            finally:
                process.kill()  # where it did not exit
            printed, said = process.stdout.read(), process.stderr.read()
    finally:
        os.close(master)
        os.close(terminal)
    assert prompt == ("stich: reading the records from the terminal (standard input): end the input with Ctrl-D on a "
                      "line of its own\n")
    assert exit_code == 130 and printed == ""
    assert said == "stich: board: stopped by the interrupt while reading standard input\n"
