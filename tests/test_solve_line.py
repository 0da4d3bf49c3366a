"""What a player who runs ``stich solve --cards --line`` trusts to agree (solver.analysis.solve_report, which the
command prints): the best cards have the value said, every other card is no better for the seat to move, the line
starts with a best card, and each of its cards keeps the value to the end of the deal, where the score is the
settlement that scoring the played-out deal gives. On the examples' endings, part-way and mid-trick, in all three
games (Kratzen with 5 and 6 seats), for every objective, on one thread and on two."""

from __future__ import annotations

from pathlib import Path

import pytest

import solver
from solver.analysis import solve_report

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _positions() -> list[solver.Position]:
    """The Zwanzigerrufen, Schafkopf and Kratzen examples' positions, each also three cards on (mid-trick), and a
    seeded 5- and 6-seat Kratzen deal from its start."""
    found = []
    for name in ("zwanzigerrufen.tbn", "schafkopf.tbn", "kratzen.tbn"):
        for position in solver.read_positions(EXAMPLES / name):
            found.append(position)
            for _ in range(3):
                if position.to_move is not None:
                    position = position.play(sorted(position.legal_cards())[-1])
            if position.to_move is not None:
                found.append(position)
    for seats in (5, 6):
        found.append(solver.position_from_record(solver.random_record("Kratzen", 7, 1, seats=seats)))
    return found


def _played_out(position: solver.Position, line: list[dict]) -> tuple[list[str], solver.Position]:
    cards = [card for trick in line for card in trick["cards"][trick["on_table"]:]]
    for card in cards:
        position = position.play(card)
    return cards, position


@pytest.mark.parametrize("threads", [1, 2])
def test_the_cards_and_the_line_agree_with_the_value_at_every_card(threads) -> None:
    engine = solver.EngineSolver(threads=threads)
    walked = 0
    for position in _positions():
        document = solve_report(position, ["all"], cards=True, line=True, engine=engine)  # the score among them
        if position.to_move is None:  # a finished deal (a Play section to its end): nothing to play
            assert all(not r["cards"] and not r["line"] for r in document["results"])
            continue
        for result in document["results"]:
            what = f"{position.label} after {len(position.played)} cards: {result['objective']} {result['seat']}"
            best = [group for group in result["cards"] if group["best"]]
            assert best and all(group["total"] == result["total"] for group in best), what
            sign = 1 if result["to_move"] in result["side"] else -1  # the side to move, or its opponents
            assert all(sign * group["total"] <= sign * result["total"] for group in result["cards"]), what
            cards, end = _played_out(position, result["line"])
            assert any(cards[0] in group["cards"] for group in best), what
            assert end.to_move is None, what  # the line goes to the deal's end
            reached = position
            for card in cards:  # every card of the line keeps the value, for either side
                reached = reached.play(card)
                again = solve_report(reached, [result["objective"]], engine=engine)["results"]
                assert [r["total"] for r in again if r["seat"] == result["seat"]] == [result["total"]], what
            walked += len(cards)
            won = [(trick.number, trick.leader, trick.winner) for trick in end.history[-len(result["line"]):]]
            assert [(t["trick"], t["leader"], t["winner"]) for t in result["line"]] == won, what
            if result["objective"] == "score":  # the settlement of the deal played out along the line
                payments = solver.score_deal(end).payments
                assert sum(payments[seat - 1] for seat in result["side"]) == result["total"], what
    assert walked > 1000
