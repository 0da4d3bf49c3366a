"""The play post-mortem (solver.postmortem), its plot (solver.plot), the strategy tree (solver.tree) and the
``stich postmortem`` / ``stich tree`` commands.

Every deal here is small (endings of a few tricks, Kratzen) and its mistakes are known by construction; the values
the post-mortem reports are checked against the pure-Python reference solver where that is cheap.
"""

from __future__ import annotations

import json
import struct
import zlib
from html import escape
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import networkx as nx
import pytest
from typer.testing import CliRunner

import solver
from cli.main import app
from solver.formats.tbn import read_records
from solver.plot import write_plot
from solver.postmortem import (CardAnalysis, PlayAnalysis, analyse_play, grade, lost_text, lost_value_line,
                               no_cost_line, trick_payout, unscored_bonuses)
from solver.scoring import score_counts_points_measure
from solver.tree import strategy_tree, write_tree

from cli_invoke import run

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SVG = "{http://www.w3.org/2000/svg}"
runner = CliRunner()

# The valat.tbn deal after its five tricks of tarocks, as a five-card ending: seat 1 (Solo) holds the two last top
# tarocks and three kings; seat 2 holds the last defending tarock (the Pagat, T1) and is void in hearts.
VALAT_ENDING = "1: T17 T16 SK CK HK / T1 SQ SG CN DK / SN CQ CG HQ DQ / SJ CJ HN HJ DN"

# Leading HK first: seat 2 must trump it with T1 and wins the trick. Seats 3 and 4 follow with hearts. The rest is
# the engine's optimal line from there (seat 1 takes every later trick with SK T17 T16 CK).
VALAT_THROWN = ["HK", "T1", "HQ", "HJ", "SQ", "SN", "SJ", "SK", "T17", "SG", "CQ", "CJ", "T16", "CN", "CG", "HN",
                "CK", "DK", "DQ", "DN"]

# Kratzen board 1 of examples/kratzen.tbn: bells trump, seat 1 (attacker, needs 2 tricks) holds EO E9 SU SZ; seat 3
# holds SK, the only trump above SU. Leading a trump lets SK take it: seat 1 is left with one sure trick.
KRATZEN_DEAL = "1: EO E9 SU SZ / GA HA HU S7 / EK G8 HO SK"


def ending(play: list[str] | str = ()) -> solver.Position:
    return solver.make_position("zwanzigerrufen", VALAT_ENDING, "Solo", declarer=1, leader=1, play=play)


def reference_total(position: solver.Position, objective: str = "points", seat: int | None = None) -> int:
    return solver.solve(position, objective, seat=seat, reference_solver=True).total


# --- the analysis ---------------------------------------------------------------------------------------------------


def test_a_card_that_throws_away_a_forceable_valat():
    analysis = analyse_play(ending(VALAT_THROWN))
    first = analysis.cards[0]
    assert (first.number, first.trick, first.seat, first.card) == (1, 1, 1, "HK")
    assert "valat" in first.bonuses_lost and first.grade == "blunder"
    # all 61 points of the ending before; HK + T1 + HQ + HJ (5 + 5 + 4 + 2 = 16) go to seat 2, so 45 after;
    # the best card (a tarock or another king) keeps all 61
    # all 61 points of the ending before (seat 1 takes every trick); after HK seat 2's T1 takes HK, T1, HQ and at
    # best for the defenders HN (5 + 5 + 4 + 3 = 17): 44 are left for seat 1
    assert (first.before, first.best, first.after, first.cost) == (61, 61, 44, 17)
    assert first.before == reference_total(ending())
    assert first.after == reference_total(ending(["HK"]))
    assert set(first.best_cards) == {"T17", "T16", "SK", "CK"}
    assert solver.solve(ending(), "valat", reference_solver=True).success
    assert not solver.solve(ending(["HK"]), "valat", reference_solver=True).success
    assert analysis.players[0].grades["blunder"] == 1 and "valat" in analysis.players[0].bonuses_lost
    assert analysis.curve[0] == 61 and analysis.curve[-1] == reference_total(ending(VALAT_THROWN)) == 45


def test_a_card_that_costs_exactly_one_point():
    # After HK T1 HQ seat 2 has the trick (T1 is the only tarock in it) and seat 1 then takes every remaining
    # trick, so every card still in a hand ends up with seat 1. Seat 4 (a defender) holds HN (3) and HJ (2) and must
    # follow hearts: HN in the defenders' trick leaves 61 - (5 + 5 + 4 + 3) = 44 to seat 1, HJ leaves
    # 61 - (5 + 5 + 4 + 2) = 45. N = 45 - 44 = 1 point: an inaccuracy.
    analysis = analyse_play(ending(VALAT_THROWN))
    card = analysis.cards[3]
    assert (card.seat, card.card, card.best_cards) == (4, "HJ", ("HN",))
    assert (card.before, card.best, card.after, card.cost) == (44, 44, 45, 1)
    assert card.bonuses_lost == () and card.grade == "inaccuracy"
    assert card.after == reference_total(ending(VALAT_THROWN[:4]))
    assert card.best == reference_total(ending(VALAT_THROWN[:3] + ["HN"]))
    assert analysis.players[3].cost == 1 and analysis.players[3].grades["inaccuracy"] == 1
    first = analysis.cards[0]
    assert (first.before, first.best, first.after, first.cost) == (61, 61, 44, 17)  # with HN as seat 4's best reply
    assert analysis.curve[:5] == (61, 44, 44, 44, 45)
    assert analysis.trick_ends == (4, 8, 12, 16, 20)


def test_kratzen_a_seat_misses_its_target():
    base = solver.make_position("kratzen", KRATZEN_DEAL, "Trump S", declarer=1)
    assert reference_total(base, "tricks", seat=1) == 2
    rest = solver.solve(solver.make_position("kratzen", KRATZEN_DEAL, "Trump S", declarer=1, play=["SU"]),
                        "tricks", seat=1, line=True)
    assert rest.total == 1 and not rest.success
    position = solver.make_position("kratzen", KRATZEN_DEAL, "Trump S", declarer=1, play=["SU"] + rest.line_names())
    analysis = analyse_play(position)
    assert analysis.measure == "tricks"
    first = analysis.cards[0]
    assert (first.seat, first.card, first.measure, first.view) == (1, "SU", "tricks", (1,))
    assert (first.before, first.best, first.after, first.cost) == (2, 2, 1, 1)
    assert first.bonuses_lost == ("target",) and first.grade == "blunder"
    assert set(first.best_cards) == {"EO", "E9"}
    assert analysis.curve[0] == 2 and analysis.curve[1] == 1
    assert analysis.players[0].grades["blunder"] == 1


@pytest.mark.parametrize("game, deal, contract", [
    ("zwanzigerrufen", VALAT_ENDING, "Solo"),
    ("kratzen", KRATZEN_DEAL, "Trump S"),
])
def test_an_optimal_play_has_no_mistakes(game, deal, contract):
    start = solver.make_position(game, deal, contract, declarer=1, leader=1 if game != "kratzen" else None)
    objective, seat = ("points", None) if game != "kratzen" else ("tricks", 1)
    result = solver.solve(start, objective, seat=seat, line=True)
    position = solver.make_position(game, deal, contract, declarer=1, leader=1 if game != "kratzen" else None,
                                    play=result.line_names())
    analysis = analyse_play(position)
    if game != "kratzen":  # Kratzen's line is optimal for seat 1 only; the others may give tricks away
        assert analysis.mistakes == ()
        assert set(analysis.curve) == {result.total}
        assert all(card.cost == 0 and card.before == card.best == card.after for card in analysis.cards)
    else:
        assert all(card.cost == 0 for card in analysis.cards if card.seat == 1)
    assert len(analysis.cards) == len(result.line)


def test_a_whole_schafkopf_example_deal():
    position = next(p for p in solver.read_positions(EXAMPLES / "schafkopf.tbn") if p.record.get("Board") == "2")
    analysis = analyse_play(position)
    assert len(analysis.cards) == len(position.played) == 16
    assert len(analysis.curve) == 17 and analysis.trick_ends == (4, 8, 12, 16)
    for card in analysis.cards:  # the curve is the declaring side's view, the same as the cards' in Schafkopf
        assert analysis.curve[card.number - 1] == card.before and analysis.curve[card.number] == card.after
        assert card.cost >= 0
    # after the play, the curve is the reference's total of the ending reached
    assert analysis.curve[-1] == reference_total(position)


def test_a_post_mortem_prints_for_people_and_draws_itself_in_a_notebook():
    """A post-mortem prints a card per line (the cost and the better cards where one cost something), not a dataclass
    dump, has a short repr with the grades counted, and Jupyter shows its plot (SVG, in its HTML)."""
    position = next(iter(solver.read_positions(EXAMPLES / "schafkopf.tbn")))
    analysis = analyse_play(position)
    blunders = sum(card.grade == "blunder" for card in analysis.cards)
    assert repr(analysis) == (f"<PlayAnalysis Schafkopf {analysis.contract}, declarer 1: 16 cards graded by "
                              f"points; inaccuracy 0, mistake 0, blunder {blunders}>") and blunders == 1
    lines = str(analysis).splitlines()
    assert lines[0] == f"Schafkopf {analysis.contract}, declarer 1: points of 1+3; rules: runaway_count_at=deal" \
        and len(lines) == 19
    assert lines[17:] == ["Game (double dummy): won for 1+3, from the start", "  no card changed that"]
    first = analysis.cards[0]
    assert lines[1].split() == ["1", "trick", "1", "seat", "1", first.card, str(first.before), "->", str(first.after),
                                "(best", f"{first.best})", "blunder", "(cost", f"{first.cost};", "better:",
                                "/".join(first.best_cards) + ");", "lost:", "Schwarz"]
    assert lines[2].endswith("ok") and "better" not in lines[2]
    svg = ElementTree.fromstring(analysis.plot_svg().encode())
    assert svg.tag.endswith("svg") and analysis.contract == "Rufer G"


def test_a_notebook_stores_a_post_mortem_s_plot_once():
    """Jupyter stores every ``_repr_*_`` an object has: a post-mortem's SVG plot is in its ``_repr_html_`` alone, not
    also as ``_repr_svg_`` (some 2 x 100 KB in the notebook); ``plot_svg`` gives the plot alone."""
    analysis = analyse_play(next(iter(solver.read_positions(EXAMPLES / "schafkopf.tbn"))))
    representations = {name for name in dir(analysis) if name.startswith("_repr_") and name.endswith("_")}
    assert representations == {"_repr_html_"}
    html = analysis._repr_html_()
    assert html.count("<svg") == 1 and html.count("</svg>") == 1
    assert ElementTree.fromstring(analysis.plot_svg().encode()).tag.endswith("svg")


def test_a_notebook_s_post_mortem_plot_shrinks_to_a_narrower_output_area():
    """The plot, some 990 px wide, scales down by its viewBox in the HTML, so it does not run past a narrower notebook
    output (its legend cut off at 900 px); ``plot_svg`` keeps matplotlib's own size."""
    analysis = analyse_play(next(iter(solver.read_positions(EXAMPLES / "schafkopf.tbn"))))
    embedded = analysis._repr_html_()
    start = embedded.index("<svg")
    svg = ElementTree.fromstring(embedded[start:embedded.index("</svg>") + len("</svg>")].encode())
    assert svg.get("style") == "max-width:100%;height:auto" and svg.get("viewBox") and svg.get("width").endswith("pt")
    assert ElementTree.fromstring(analysis.plot_svg().encode()).get("style") is None


def test_grades_follow_the_thresholds():
    assert [grade(cost, "points", False) for cost in (0, 1, 5, 6, 14, 15, 40)] == [
        "ok", "inaccuracy", "inaccuracy", "mistake", "mistake", "blunder", "blunder"]
    assert grade(0, "points", True) == "blunder"
    assert [grade(cost, "tricks", False) for cost in (0, 1, 2)] == ["ok", "mistake", "blunder"]
    assert grade(0, "tricks", True) == "blunder"


def test_chips_are_graded_in_a_tricks_payout_whatever_the_pot():
    """Graded by the score in chips, a trick lost is a mistake, as a trick is by the tricks, whatever the pot: counted
    in a trick's payout (the pot over 4 tricks, RULES.md 3.4), not by the game-unit thresholds, by which a pot of 40 (10
    chips) would make it a blunder and a pot of 4 (1 chip) an inaccuracy."""
    assert [grade(cost, "chips", False, 10) for cost in (0, 5, 10, 19, 20, 90)] == [
        "ok", "inaccuracy", "mistake", "mistake", "blunder", "blunder"]
    assert [grade(cost, "chips", False, 1) for cost in (0, 1, 2)] == ["ok", "mistake", "blunder"]
    assert grade(0, "chips", True, 3) == "ok"  # the score counts the missed target already
    (position,) = solver.parse_positions(KRATZEN_WITH_POT.replace('[Pot "12"]', '[Pot "40"]'))
    first = analyse_play(position, objective="score").cards[0]
    assert (first.cost, first.grade) == (90, "blunder")  # 2 x 10 chips -> 1 x 10 - 2 x 40: the target missed
    assert trick_payout(position) == 10
    # an ending's trick pays P/4 too, not the pot over the tricks left (not 20 chips in a 2-trick ending)
    (ending_position,) = solver.parse_positions(
        '[Game "Kratzen"]\n[Seats "3"]\n[Deal "1: EO SZ / GA S7 / EK SK"]\n[Contract "Trump S"]\n[Declarer "1"]\n'
        '[Pot "40"]\n')
    assert ending_position.rules.tricks_in_deal == 2 and trick_payout(ending_position) == 10


def test_a_muss_is_graded_in_quarters_of_the_pot_though_its_tricks_pay_nothing(tmp_path):
    """A Muss pays no trick (RULES.md 3.4), so its grading unit is not a trick's payout but the pot's quarter all the
    same: the attacker's payment is 0 or the 2P of a missed target, 8 quarters, and the card that loses it a blunder.
    The line under the table names the quarter, not a payout."""
    record = tmp_path / "muss.tbn"
    record.write_text(KRATZEN_WITH_POT.replace('[Pot "12"]', '[Pot "40"]').replace('"Trump S"', '"Trump S Muss"'),
                      encoding="utf-8")
    (position,) = solver.read_positions(record)
    assert position.game.pot_words(position.rules.contract, 40) == "a Muss: tricks pay nothing"
    assert trick_payout(position) == 10
    analysis = analyse_play(position, objective="score")
    assert [(card.card, card.before, card.after, card.cost, card.grade) for card in analysis.cards] == [
        ("SU", 0, -80, 80, "blunder"), ("S7", -80, -80, 0, "ok"), ("SK", -80, -80, 0, "ok")]
    text = run("postmortem", record, "-o", "score").stdout
    assert "grades in pot/4 chips (at least 1): inaccuracy under 1, mistake 1, blunder 2+" in text.splitlines()
    assert "payout" not in text


def test_documents_are_plain_and_frozen():
    analysis = analyse_play(ending(VALAT_THROWN[:4]))
    document = analysis.as_dict()
    assert json.loads(json.dumps(document)) == document
    assert document["cards"][0]["card"] == "HK" and len(document["players"]) == 4
    with pytest.raises(AttributeError):
        analysis.cards[0].cost = 0  # type: ignore[misc]
    assert isinstance(analysis, PlayAnalysis) and isinstance(analysis.cards[0], CardAnalysis)


def test_a_record_without_play_has_nothing_to_analyse():
    analysis = analyse_play(ending())
    assert analysis.cards == () and analysis.curve == (61,) and analysis.players[0].cards == 0


# A Solo ending where seat 2 (defending) holds the Pagat: after seat 1's T17 the defenders can take every trick and
# win the last with T1, both at once, by overtrumping with T19. Seat 2's T14 keeps each possible alone (Valat against
# by giving up the Pagat, the Pagat by giving up a trick) but no longer both.
PAIR_ENDING = "1: SK T17 T6 HJ / T1 T14 T19 DG / DJ T18 DN SN / HK HQ SQ SG"


def test_a_card_that_parts_two_bonuses_is_named(tmp_path):
    """A card after which two bonuses of a side can each still be forced, but not both, costs the pair, and the pair is
    named (each bonus watched on its own would cost the card 6 game units by the score with no bonus named): checked
    against the reference solver, both together before the card, each alone but not both after it."""
    from solver.games.base import PayoffComponent
    from solver.search.settle import PayoffSpec, reference_settlement

    position = solver.make_position("zwanzigerrufen", PAIR_ENDING, "Solo", declarer=1, leader=1, play="T17 T14")
    rules = position.rules
    pair = (rules.objective("valat_against"), rules.objective("pagat_ultimo"))
    assert all(o.maximiser == rules.defending_side for o in pair)
    spec = PayoffSpec(rules.declaring_side, tuple(PayoffComponent(o.name, o, (o.target,)) for o in pair),
                      (0, 0, 0, -1))

    def both(state):  # whether the defenders can force both: the reference minimax over the rule methods
        score = lambda final: -1 if all(o.achieved(rules, final) >= o.target for o in pair) else 0  # noqa: E731
        return reference_settlement(state, spec, score) == -1

    after_t17 = rules.start().play("T17")
    after_t14 = after_t17.play("T14")
    assert both(after_t17) and not both(after_t14)
    for name in ("valat_against", "pagat_ultimo"):  # each still forceable alone
        assert solver.solve(position, name, reference_solver=True).success
    for objective in ("points", "score"):
        card = analyse_play(position, objective=objective).cards[1]
        assert card.card == "T14" and card.bonuses_lost == ("valat_against+pagat_ultimo",)
        assert card.bonuses_handed_over == () and card.grade == "blunder"  # the defenders' own pair, thrown away
    assert analyse_play(position, objective="score").cards[1].best_cards == ("T19",)
    path = tmp_path / "pair.tbn"
    path.write_text(f'[Game "Zwanzigerrufen"]\n[Deal "{PAIR_ENDING}"]\n[Contract "Solo"]\n[Leader "1"]\n'
                    '[Play "1"]\nT17 T14\n*\n', encoding="utf-8")
    assert "Valat against + Pagat Ultimo together" in run("postmortem", path, "-o", "points").stdout


# --- the plot --------------------------------------------------------------------------------------------------------


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    length, kind = struct.unpack(">I4s", data[8:16])
    assert (length, kind) == (13, b"IHDR")
    body = data[16:29]
    (crc,) = struct.unpack(">I", data[29:33])
    assert crc == zlib.crc32(b"IHDR" + body) & 0xFFFFFFFF
    width, height = struct.unpack(">II", body[:8])
    return width, height


def _svg_ids(path: Path) -> list[str]:
    return [element.get("id") for element in ElementTree.parse(path).getroot().iter() if element.get("id")]


def _svg_text(path: Path) -> str:
    """Every text of a matplotlib SVG (it writes text as glyph paths, each string in a comment before them)."""
    return path.read_text(encoding="utf-8")


def test_the_svg_marks_every_mistake_bonus_and_threshold(tmp_path):
    analysis = analyse_play(ending(VALAT_THROWN))
    path = write_plot(analysis, tmp_path / "play.svg")
    ids = _svg_ids(path)
    assert [i for i in ids if i.startswith("mistake-")] == [f"mistake-{card.number}" for card in analysis.mistakes]
    assert [i for i in ids if i.startswith("bonus-")] == ["bonus-1"]  # HK threw away the Valat (and Absolut)
    # the contract's marks, from the game's objectives: game 45, Absolut 56, the defenders' Absolut missed from 33
    # points of seat 1 on (their target in this 61-point ending is 29: held_to(32)), all tricks at 61
    assert analysis.thresholds == (("absolut_against", 33), ("game", 45), ("absolut", 56),
                                   ("valat (all tricks)", 61))
    assert {f"threshold-{name}" for name, _ in analysis.thresholds} <= set(ids)
    text = _svg_text(path)
    for words in ("Zwanzigerrufen Solo, declarer 1", "trick", "card played", "points of seat 1", "1: ♥K", "2: T1",
                  "Valat lost", "blunder", "inaccuracy", "seat 4", "game won at \u2265 45"):
        assert words in text, words


def test_the_plot_draws_the_game_and_marks_where_the_play_crosses_it(tmp_path):
    """The plot draws the line that decides the game apart and named, not as one more dotted line among Absolut's and
    Valat's, and marks each card after which the game changed hands: in this 61-point ending HK leaves seat 1 44 points
    (45 win, RULES.md 1.1), seat 4's HJ (the one point of a J) gives the game back."""
    analysis = analyse_play(ending(VALAT_THROWN))
    assert analysis.winning == ("game", 45) and analysis.curve[:5] == (61, 44, 44, 44, 45)
    assert analysis.game_changes == ((1, False), (4, True))
    path = write_plot(analysis, tmp_path / "play.svg")
    ids = _svg_ids(path)
    assert [i for i in ids if i.startswith("game-")] == ["game-1", "game-4"] and "threshold-game" in ids
    text = _svg_text(path)
    assert "game won at \u2265 45" in text and "♥J (-1); game won" in text and "; game lost" in text
    assert "game won or lost by this card" in text  # the legend
    # a Tout is won by every trick, which 120 card points need not be: no line on the points' scale
    tout = next(p for p in solver.read_positions(EXAMPLES / "schafkopf.tbn") if p.record.get("Board") == "4")
    assert tout.rules.game_objective().name == "tout" and analyse_play(tout).winning is None
    # the file's title names the contract as the figure's does, by the rule book (a PDF's or SVG's Title)
    assert "<dc:title>Schafkopf Wenz Tout: post-mortem</dc:title>" in _svg_text(
        write_plot(analyse_play(tout), tmp_path / "tout.svg"))


def test_graded_by_the_score_the_game_line_is_drawn_where_the_settlement_decides_it(tmp_path):
    """By the score (the command's default) the plot has a threshold where the settlement's sign says who won the game:
    the line is drawn at 0, since Schafkopf gives every item to the game's winner (RULES.md 2.5) and the Kratzen
    attacker who misses his target pays 2P (3.4). Zwanzigerrufen scores its items apart (1.7): a lost game can be
    outweighed by a Pagat, so no line; nor Kratzen without a pot, where every payment is 0."""
    board7 = next(p for p in solver.read_positions(EXAMPLES / "schafkopf.tbn") if p.record.get("Board") == "7")
    by_score = analyse_play(board7, objective="score")
    assert by_score.winning == ("game", 0) and by_score.game_changes == () and max(by_score.curve) < 0
    assert "game won at \u2265 0" in _svg_text(write_plot(by_score, tmp_path / "sk.svg"))
    assert analyse_play(ending(VALAT_THROWN), objective="score").winning is None
    path = tmp_path / "k.tbn"
    path.write_text(KRATZEN_WITH_POT, encoding="utf-8")
    (chips,) = solver.read_positions(path)
    analysis = analyse_play(chips, objective="score")
    assert analysis.winning == ("target", 0) and analysis.curve[:2] == (6, -21)
    assert analysis.game_changes == ((1, False),)  # SU: 2 tricks of 3 chips, then 1 and 2 x 12 into the pot
    plot = write_plot(analysis, tmp_path / "k.svg")
    assert "game-1" in _svg_ids(plot) and "target made at \u2265 0" in _svg_text(plot)
    no_pot = solver.make_position("kratzen", KRATZEN_DEAL, "Trump S", declarer=1, play="SU S7 SK")
    assert analyse_play(no_pot, objective="score").winning is None


def test_the_labels_of_mistakes_close_together_do_not_overlap():
    """Schafkopf board 7 has mistakes on neighbouring cards (SU HO at 17 and 18, H9 E7 SO at 20 to 22): each label
    covers no other label, no fixed text (the Schneider-against threshold's name), no other mistake's marker, and stays
    inside the axes."""
    position = next(p for p in solver.read_positions(EXAMPLES / "schafkopf.tbn") if p.record.get("Board") == "7")
    analysis = analyse_play(position)
    figure, axes, renderer = _drawn(analysis)
    labels = {text.get_gid(): text.get_window_extent(renderer) for text in axes.texts
              if (text.get_gid() or "").startswith("label-")}
    assert sorted(labels) == sorted(f"label-{card.number}" for card in analysis.mistakes)  # 13 of them
    fixed = [text.get_window_extent(renderer) for text in axes.texts
             if not (text.get_gid() or "").startswith(("label-", "leader-"))]
    assert len(fixed) == len(analysis.thresholds)
    frame = axes.get_window_extent(renderer)
    boxes = list(labels.values())
    for number, box in enumerate(boxes):
        assert frame.x0 <= box.x0 and box.x1 <= frame.x1 and frame.y0 <= box.y0 and box.y1 <= frame.y1
        assert not any(box.overlaps(other) for other in boxes[number + 1:] + fixed)
    for card in analysis.mistakes:
        x, y = axes.transData.transform((card.number, analysis.curve[card.number]))
        for gid, box in labels.items():
            if gid != f"label-{card.number}":
                assert not box.contains(x, y), (gid, card.card)


def _drawn(analysis: PlayAnalysis) -> tuple[Any, Any, Any]:
    """The plot drawn as a file would be: its figure, its axes and the renderer its texts are measured with."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from solver.plot import plot_figure

    figure = plot_figure(analysis)
    canvas = FigureCanvasAgg(figure)
    canvas.draw()
    (axes,) = figure.axes
    return figure, axes, canvas.get_renderer()


def _drawn_texts(analysis: PlayAnalysis) -> dict[str, object]:
    """The plot's texts by gid, measured on the figure as drawn."""
    _, axes, renderer = _drawn(analysis)
    return {text.get_gid(): text.get_window_extent(renderer) for text in axes.texts if text.get_gid()}


def test_the_plot_names_the_thresholds_as_players_do():
    """The plot names its lines by the players' names, not the JSON's identifiers (``schneider_against 31``), the other
    side's with ``against`` so that the two Schneider lines do not read alike (Schafkopf board 7 by card points: the
    defenders' Schneider at 31, the declarers' at 91, their Schwarz at the top). The SVG ids keep the identifiers."""
    from solver.plot import plot_figure

    position = next(p for p in solver.read_positions(EXAMPLES / "schafkopf.tbn") if p.record.get("Board") == "7")
    (axes,) = plot_figure(analyse_play(position, objective="points")).axes
    named = {text.get_gid(): text.get_text() for text in axes.texts
             if (text.get_gid() or "").startswith("threshold-name-")}
    assert named == {"threshold-name-schneider_against": "Schneider against 31",
                     "threshold-name-schneider": "Schneider 91",
                     "threshold-name-schwarz (all tricks)": "Schwarz (all tricks) 120"}


def test_the_names_of_thresholds_a_point_apart_do_not_overlap():
    """In a small ending the threshold lines come close: board 6 of the examples (a 29-point ending) draws Valat's top
    at 29 and Absolut against at 30, and the second's name goes where it covers no other name (here on the left), not
    over the first's on the right."""
    position = next(p for p in solver.read_positions(EXAMPLES / "zwanzigerrufen.tbn") if p.record.get("Board") == "6")
    analysis = analyse_play(position)
    assert analysis.thresholds[:2] == (("valat (all tricks)", 29), ("absolut_against", 30))
    texts = _drawn_texts(analysis)
    names = [box for gid, box in texts.items() if gid.startswith("threshold-name-") or gid == "winning-label"]
    assert len(names) == 3  # 29, 30 and the game's 45 (Absolut's 56 is above the scale)
    assert not any(box.overlaps(other) for number, box in enumerate(names) for other in names[number + 1:])


def test_no_two_texts_of_the_plot_overlap_near_its_last_card():
    """Zwanzigerrufen board 7 by card points ends at 59 with a blunder, Absolut kept, and Absolut's line at 56 just
    under the last card's marker and the ``kept: absolut``: every text of the plot (the thresholds' names, the
    game's line, the bonuses kept, the cards' labels) covers no other, and no name a labelled card's marker."""
    position = next(p for p in solver.read_positions(EXAMPLES / "zwanzigerrufen.tbn") if p.record.get("Board") == "7")
    analysis = analyse_play(position, objective="points")
    assert analysis.curve[-1] == 59 and ("absolut", 56) in analysis.thresholds and analysis.bonuses_kept
    figure, axes, renderer = _drawn(analysis)
    texts = {text.get_gid(): text.get_window_extent(renderer) for text in axes.texts
             if not (text.get_gid() or "").startswith("leader-")}
    assert {"threshold-name-absolut", "bonuses-kept", f"label-{len(analysis.curve) - 1}"} <= set(texts)
    boxes = list(texts.items())
    for number, (gid, box) in enumerate(boxes):
        assert not [other for other, extent in boxes[number + 1:] if box.overlaps(extent)], gid
    for card in analysis.mistakes:
        x, y = axes.transData.transform((card.number, analysis.curve[card.number]))
        radius = 7 * figure.dpi / 72  # a marker's half width
        for gid, box in texts.items():
            if gid.startswith("threshold-name-"):
                assert not (box.x0 - radius < x < box.x1 + radius and box.y0 - radius < y < box.y1 + radius), gid


def test_the_score_s_zero_is_named_where_it_is_not_the_game_line(tmp_path):
    """Zwanzigerrufen by the score (its items scored apart, RULES.md 1.7) has no game line, but its scale has a 0
    with the curve below it (board 6: -16 to -18): the 0 is drawn and named; where 0 is the game's line (Schafkopf by
    the score) the game's name is the only one."""
    from solver.plot import ZERO_NAME

    position = next(p for p in solver.read_positions(EXAMPLES / "zwanzigerrufen.tbn") if p.record.get("Board") == "6")
    analysis = analyse_play(position, objective="score")
    assert analysis.winning is None and analysis.curve == (-16, -18, -18)
    path = write_plot(analysis, tmp_path / "zr.svg")
    assert "threshold-zero" in _svg_ids(path) and ZERO_NAME in _svg_text(path)
    board7 = next(p for p in solver.read_positions(EXAMPLES / "schafkopf.tbn") if p.record.get("Board") == "7")
    schafkopf = write_plot(analyse_play(board7, objective="score"), tmp_path / "sk.svg")
    assert "threshold-zero" not in _svg_ids(schafkopf) and ZERO_NAME not in _svg_text(schafkopf)


def test_the_score_s_zero_is_not_drawn_on_the_frame():
    """Where the scale starts at 0 (valat.tbn by the score: the declarer never below it) the named 0 line lay on
    the x-axis' frame, its name on the cards' axis: nothing to tell apart there, so it is left out."""
    from solver.plot import ZERO_NAME, plot_figure

    analysis = analyse_play(next(iter(solver.read_positions(EXAMPLES / "valat.tbn"))), objective="score")
    assert analysis.winning is None and min(analysis.curve) >= 0
    (axes,) = plot_figure(analysis).axes
    assert axes.get_ylim()[0] == 0
    assert not [line for line in axes.lines if line.get_gid() == "threshold-zero"]
    assert ZERO_NAME not in [text.get_text() for text in axes.texts]


@pytest.mark.parametrize("file, board, pot", [("schafkopf.tbn", "1", None), ("kratzen.tbn", "5", 8)])
def test_the_game_line_at_the_bottom_of_the_scale_is_drawn_inside_the_frame(file, board, pot):
    """By the score the game's line is the settlement's 0; where the curve never falls below it (Schafkopf board 1, won
    from the start; a Kratzen attacker making his target) the scale reaches below it, so that the line the legend names
    is inside the frame, not under its bottom edge."""
    from solver.plot import plot_figure

    record = next(r for r in read_records(EXAMPLES / file) if r.get("Board") == board)
    if pot is not None:
        record.set("Pot", str(pot))
    position = solver.position_from_record(record)
    analysis = analyse_play(position, objective="score")
    assert analysis.winning is not None and analysis.winning[1] == 0 == min(0, *analysis.curve)
    (axes,) = plot_figure(analysis).axes
    low, high = axes.get_ylim()
    assert low < 0 < high
    (line,) = [line for line in axes.lines if line.get_gid() == f"threshold-{analysis.winning[0]}"]
    assert list(line.get_ydata()) == [0, 0]
    assert all(tick >= 0 for tick in axes.get_yticks() if low <= tick <= high)  # no tick below the 0 it shows


RANDOM_RUFER = """[Game "Schafkopf"]
[Deal "1: EZ HZ HK HO HU H9 SA S7 / EA EO EU E7 GO GU H7 S9 / E9 E8 GZ G9 G8 HA SZ SO / EK GA GK G7 H8 SK SU S8"]
[Contract "Rufer E"]
[Declarer "1"]
[Play "1"]
HK GO HA SU
GU SO H8 HZ
G8 GA EZ EO
EU E8 EK HU
H7 G9 GK H9
HO E7 GZ S8
SA S9 SZ SK
S7 EA E9 G7
*
"""


def test_a_label_keeps_off_the_line_where_it_can():
    """Random bots' Rufer, by the score: HO's label (card 21, the line at 8) sits where it covers no part of the line,
    not beside it across the rise to GZ's 10 two cards on."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from solver.plot import plot_figure

    (position,) = solver.parse_positions(RANDOM_RUFER)
    analysis = analyse_play(position, objective="score")
    assert [(card.number, card.card) for card in analysis.mistakes] == [(8, "HZ"), (21, "HO"), (23, "GZ")]
    figure = plot_figure(analysis)
    canvas = FigureCanvasAgg(figure)
    canvas.draw()
    (axes,) = figure.axes
    curve = analysis.curve
    line = [axes.transData.transform((x + step / 20, curve[x] + (curve[x + 1] - curve[x]) * step / 20))
            for x in range(len(curve) - 1) for step in range(20)]
    for text in axes.texts:
        if (text.get_gid() or "").startswith("label-"):
            box = text.get_window_extent(canvas.get_renderer())
            assert not any(box.contains(x, y) for x, y in line), text.get_text()


def test_an_optimal_play_has_no_marks(tmp_path):
    result = solver.solve(ending(), "points", line=True)
    analysis = analyse_play(ending(result.line_names()))
    ids = _svg_ids(write_plot(analysis, tmp_path / "play.svg"))
    assert not [i for i in ids if i.startswith(("mistake-", "bonus-"))]
    assert analysis.bonuses_kept == ("absolut", "valat")


@pytest.mark.parametrize("suffix, magic", [(".png", b"\x89PNG"), (".pdf", b"%PDF-"), (".svg", b"<?xml")])
def test_each_format_is_written(tmp_path, suffix, magic):
    path = write_plot(analyse_play(ending(VALAT_THROWN)), tmp_path / f"play{suffix}")
    data = path.read_bytes()
    assert data.startswith(magic)
    if suffix == ".png":
        width, height = _png_size(data)
        assert width > 600 and height > 400


def test_kratzen_plot_counts_tricks_against_the_target(tmp_path):
    position = solver.make_position("kratzen", KRATZEN_DEAL, "Trump S", declarer=1, play="SU S7 SK")
    analysis = analyse_play(position)
    # the attacker's target, named as "kept" and the crossed-out labels name it (not "tricks 2")
    assert analysis.measure == "tricks" and analysis.thresholds == (("target", 2),) and analysis.maximum == 4
    path = write_plot(analysis, tmp_path / "k.svg")
    # the target decides the attacker's game: drawn as the game's line, and not twice
    assert analysis.winning == ("target", 2) and analysis.game_changes == ((1, False),)
    assert _svg_ids(path).count("threshold-target") == 1 and "target made at \u2265 2" in _svg_text(path)
    assert "contract thresholds" not in _svg_text(path)
    # a card graded ok can move it (seat 3's EK costs seat 3 nothing and gives the attacker his second trick): it is
    # labelled all the same
    analysis = analyse_play(solver.make_position("kratzen", KRATZEN_DEAL, "Trump S", declarer=1, play="SZ S7 SK EK"))
    assert analysis.game_changes == ((1, False), (4, True)) and analysis.cards[3].grade == "ok"
    path = write_plot(analysis, tmp_path / "k4.svg")
    assert "game-4" in _svg_ids(path) and "label-4" in _svg_ids(path) and "EK: target made" in _svg_text(path)


def test_the_value_axis_has_whole_numbers_only():
    """Tricks, points, game units and chips are whole: a Kratzen plot's axis ran 0.0, 0.5, ... 4.0 tricks."""
    from solver.plot import plot_figure

    position = solver.make_position("kratzen", KRATZEN_DEAL, "Trump S", declarer=1, play="SU S7 SK")
    for analysis in (analyse_play(position), analyse_play(ending(VALAT_THROWN), objective="score")):
        (axes,) = plot_figure(analysis).axes
        ticks = [tick for tick in axes.get_yticks() if axes.get_ylim()[0] <= tick <= axes.get_ylim()[1]]
        assert len(ticks) > 2 and all(tick == int(tick) for tick in ticks), ticks


def test_an_unknown_plot_format_is_bad_input(tmp_path):
    with pytest.raises(solver.StichError, match=".png, .svg or .pdf"):
        write_plot(analyse_play(ending()), tmp_path / "play.gif")
    assert not (tmp_path / "play.gif").exists()


def test_import_solver_does_not_import_matplotlib():
    import subprocess
    import sys

    code = "import sys, solver; solver.analyse_play; print('matplotlib' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.strip() == "False"


def test_a_drawn_figure_pickles_and_draws_the_same_picture_after():
    """A PlotFigure pickles (matplotlib's secondary axis is given functions, not the two lambdas it keeps otherwise), so
    that a post-mortem's figure can be sent to another process (multiprocessing, Dask): a PlotFigure still, with every
    mark and the same PNG."""
    import pickle

    from solver.figure import PlotFigure
    from solver.plot import plot_figure

    figure = plot_figure(analyse_play(list(solver.read_positions(EXAMPLES / "kratzen.tbn"))[4]))
    copy = pickle.loads(pickle.dumps(figure))
    assert isinstance(copy, PlotFigure)
    gids = sorted(artist.get_gid() for artist in copy.findobj() if artist.get_gid())
    assert gids == sorted(artist.get_gid() for artist in figure.findobj() if artist.get_gid())
    assert {"value", "threshold-target"} <= set(gids)
    assert copy._repr_png_() == figure._repr_png_()


def test_an_unknown_mplbackend_is_said_in_one_line_before_the_analysis(tmp_path):
    """matplotlib's import fails on an MPLBACKEND it does not know: ``postmortem --plot`` and the library say what is
    wrong (exit 1, no file) instead of matplotlib's traceback, and the API raises StichError. In a fresh process:
    matplotlib reads the variable once, when it is first imported."""
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "MPLBACKEND": "nonsense"}
    plot = tmp_path / "play.png"
    done = subprocess.run([sys.executable, "-c", "from cli.main import main; main()", "postmortem",
                           str(EXAMPLES / "kratzen.tbn"), "--board", "5", "--plot", str(plot)],
                          capture_output=True, text=True, cwd=root, env=env, timeout=120)
    assert done.returncode == 1 and done.stdout == "" and not plot.exists()
    assert done.stderr.startswith("stich: matplotlib, which draws the plot, cannot be loaded: ")
    assert "(MPLBACKEND is 'nonsense': unset it, or name a backend matplotlib knows)" in done.stderr
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1
    code = ("import solver, solver.plot\ntry:\n    solver.plot.load_matplotlib()\n"
            "except solver.StichError as error:\n    print('StichError', 'nonsense' in str(error))")
    api = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root, env=env, timeout=120)
    assert api.stdout.strip() == "StichError True", api.stderr


def test_matplotlib_loads_after_a_failed_import_once_mplbackend_is_mended():
    """A failed import leaves matplotlib's submodules behind, on one of which a second import in the same process would
    fail (no attribute '_docstring'); the failure drops them, so the call after ``MPLBACKEND`` is unset loads
    matplotlib. In a fresh process: matplotlib reads the variable once, when it is first imported."""
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    code = ("import os, sys, solver, solver.plot\ntry:\n    solver.plot.load_matplotlib()\n"
            "except solver.StichError:\n    print('refused')\ndel os.environ['MPLBACKEND']\n"
            "solver.plot.load_matplotlib()\nimport matplotlib\nprint(matplotlib.get_backend())")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root,
                          env={**os.environ, "MPLBACKEND": "nonsense"}, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[0] == "refused" and done.stdout.split("\n")[1] != ""


# --- the tree --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("play, depth", [((), 4), (["HK", "T1"], 3)])
def test_tree_sizes_are_the_perft_counts(play, depth):
    position = ending(play)
    graph = strategy_tree(position, depth)
    per_level = [solver.perft(position, d) for d in range(depth + 1)]
    assert graph.number_of_nodes() == sum(per_level)
    assert graph.number_of_edges() == sum(per_level[1:])
    for d in range(depth + 1):
        assert sum(1 for _, data in graph.nodes(data=True) if data["depth"] == d) == per_level[d]


def test_tree_values_are_consistent():
    position = ending()
    graph = strategy_tree(position, 3)
    assert graph.nodes["root"]["value"] == reference_total(position) == 61
    for parent, child, data in graph.edges(data=True):
        assert data["value"] == graph.nodes[child]["value"]
        assert data["optimal"] == (data["value"] == graph.nodes[parent]["value"])
    for node in graph.nodes:
        children = list(graph.successors(node))
        if children:
            assert any(graph.edges[node, c]["optimal"] for c in children)
    assert graph.edges["root", "HK"]["optimal"] is False and graph.edges["root", "HK"]["value"] == 44
    assert graph.nodes["HK T1"]["table"] == "HK T1" and graph.nodes["HK T1"]["to_move"] == 3
    # a value in the tree agrees with the reference from the position it names
    assert graph.nodes["HK T1 HQ"]["value"] == reference_total(ending(["HK", "T1", "HQ"]))


def test_kratzen_tree_values_the_declarers_tricks():
    position = solver.make_position("kratzen", KRATZEN_DEAL, "Trump S", declarer=1)
    graph = strategy_tree(position, 2)
    assert graph.graph["objective"] == "tricks" and graph.graph["maximiser"] == "1"
    assert graph.nodes["root"]["value"] == 2 and graph.edges["root", "SU"]["optimal"] is False


def test_the_tree_says_the_target_its_values_are_measured_against(tmp_path):
    """A node's value is a trick count under a target objective: the graph says what total makes it (2 tricks for
    the Kratzen attacker, 1 for another seat, 10 for a Valat), so that a file says which nodes make it; points and
    the score have no target, and no attribute."""
    kratzen = solver.make_position("kratzen", KRATZEN_DEAL, "Trump S", declarer=1)
    assert strategy_tree(kratzen, 1).graph["target"] == 2
    assert strategy_tree(kratzen, 1, seat=2).graph["target"] == 1
    assert "target" not in strategy_tree(ending(), 1).graph
    assert "target" not in strategy_tree(ending(), 1, objective="score").graph
    out = tmp_path / "valat.graphml"
    run("tree", EXAMPLES / "valat.tbn", "--depth", 1, "-o", "valat", "--out", out)
    graph = nx.read_graphml(out)
    assert graph.graph["target"] == 10 and graph.nodes["root"]["value"] == 10
    assert {graph.nodes[child]["value"] >= 10 for child in graph.successors("root")} == {True, False}  # HK fails


def test_tree_writers_round_trip(tmp_path):
    graph = strategy_tree(ending(), 2)
    graphml = write_tree(graph, tmp_path / "tree.graphml")
    gexf = write_tree(graph, tmp_path / "tree.gexf")
    as_json = write_tree(graph, tmp_path / "tree.json")
    for read in (nx.read_graphml(graphml), nx.read_gexf(gexf),
                 nx.node_link_graph(json.loads(as_json.read_text()), edges="links")):
        assert read.number_of_nodes() == graph.number_of_nodes()
        assert read.number_of_edges() == graph.number_of_edges()
    back = nx.read_graphml(graphml)
    assert int(back.nodes["root"]["value"]) == 61
    assert back.edges["root", "HK"]["optimal"] in (False, "False", "false")


def test_the_tree_json_is_read_back_as_the_docs_say_on_the_networkx_the_package_asks_for(tmp_path):
    """The JSON is written with node_link_data(edges="links"), which networkx has only from 3.4 (3.0 to 3.3 raise a
    TypeError on edges=), and read back with node_link_graph(edges="links"): from networkx 3.6 on, the plain
    node_link_graph(data) looks for 'edges' and fails with a KeyError."""
    import tomllib

    root = Path(__file__).resolve().parent.parent
    dependencies = tomllib.loads((root / "pyproject.toml").read_text())["project"]["dependencies"]
    (floor,) = [d.split(">=", 1)[1] for d in dependencies if d.startswith("networkx>=")]
    assert tuple(int(part) for part in floor.split(".")[:2]) >= (3, 4)
    doc = (root / "docs" / "postmortem.md").read_text()
    assert 'nx.node_link_graph(json.load(file), edges="links")' in doc
    with (write_tree(strategy_tree(ending(), 1), tmp_path / "tree.json")).open() as file:
        assert nx.node_link_graph(json.load(file), edges="links").number_of_nodes() > 1


# --- the commands ----------------------------------------------------------------------------------------------------


def test_the_text_and_the_command_name_the_declaring_side_alike():
    """The text and the command's card table write a side as every command does (docs/cli.md: ``1+3``, a side of one
    seat ``seat 1``), from one library function, not "points of seats 1+3" beside "points of 1+3"."""
    positions = list(solver.read_positions(EXAMPLES / "schafkopf.tbn"))
    for record, side in ((1, "1+3"), (2, "seat 1")):
        analysis = analyse_play(positions[record - 1], objective="points")
        assert str(analysis).splitlines()[0].removesuffix(analysis.rules_note).endswith(f": points of {side}")
        shown = run("postmortem", EXAMPLES / "schafkopf.tbn", "--record", record, "--objective", "points").stdout
        assert f"Every card (totals: points of {side}; cost to the mover's side)" in shown
        assert f"totals: points of {side};" in analysis._repr_html_()


def _ending_file(tmp_path: Path) -> Path:
    hands = VALAT_ENDING.split(": ", 1)[1]
    tricks = "\n".join(" ".join(VALAT_THROWN[i:i + 4]) for i in range(0, len(VALAT_THROWN), 4))
    path = tmp_path / "ending.tbn"
    path.write_text(f'[Game "Zwanzigerrufen"]\n[Board "9"]\n[Deal "1: {hands}"]\n[Contract "Solo"]\n'
                    f'[Declarer "1"]\n[Leader "1"]\n[Play "1"]\n{tricks}\n*\n', encoding="utf-8")
    return path


# Played deals for the check against solve below, each with cards that moved the game: a Schafkopf Rufer (seed 37 of
# `stich deal`, played by random and double-dummy bots) whose game the defence hands over at card 18 and takes back
# at card 22, and a three-seat Kratzen deal from a pot of 8 whose attacker's target changes hands twice.
PLAYED_RUFER = """[Game "Schafkopf"]
[Board "37"]
[Deal "1: EK GA GU HA HZ H7 SK SU / EO E9 GK GO H8 SA S8 S7 / EZ E8 E7 GZ G8 G7 HO S9 / EA EU G9 HK HU H9 SZ SO"]
[Contract "Rufer E"]
[Declarer "1"]
[Play "1"]
SK SA S9 SZ
E9 E8 EA EK
EU H7 H8 HO
EZ G9 GU EO
GK GZ HK GA
HU HZ GO G8
S8 G7 H9 SU
HA S7 E7 SO
*
"""
PLAYED_KRATZEN = """[Game "Kratzen"]
[Board "34"]
[Seats "3"]
[Deal "1: G7 H9 SU S8 / EZ GK GU S9 / E8 HZ H8 SA"]
[Contract "Trump S"]
[Declarer "1"]
[Pot "8"]
[Play "1"]
S8 S9 SA
H8 H9 EZ
G7 GK E8
GU HZ SU
*
"""


def _without_play(text: str) -> str:
    """A record's text with its Play section's cards left out (the ``[Play]`` tag and the closing ``*`` kept)."""
    lines, inside = [], False
    for line in text.splitlines():
        if inside and line.strip() != "*":
            continue
        inside = line.startswith("[Play ")
        lines.append(line)
    return "\n".join(lines) + "\n"


def _solved_before_each_card(start: Path, cards: list[str], objective: str) -> list[dict]:
    """``stich solve --cards --json`` of the position before each card and after the last, each reached by
    ``--play`` from the deal without its Play section: the values the post-mortem is checked against."""
    documents = []
    for count in range(len(cards) + 1):
        play = ["--play", " ".join(cards[:count])] if count else []
        documents.append(json.loads(run("solve", start, "--cards", "--json", "-o", objective, *play).stdout))
    return documents


@pytest.mark.parametrize("source, board, changes", [
    ("PLAYED_RUFER", None, [(18, True), (22, False)]), ("PLAYED_KRATZEN", None, [(1, False), (4, True)]),
    ("zwanzigerrufen.tbn", "2", [(19, False)]), ("schafkopf.tbn", "7", [])])
def test_every_card_s_cost_is_what_solve_says_the_best_card_keeps_over_the_card_played(tmp_path, source, board,
                                                                                      changes):
    """An independent check of ``stich postmortem --json`` by ``stich solve --cards --json``: before each card the
    record's position is solved with every legal card valued, under the points (Kratzen: each mover's own tricks)
    and under the score; ``before`` is the position's total, ``best`` the best card's for the mover's side,
    ``after`` the card played's, ``cost`` the difference from the mover's side, ``curve`` the declaring side's
    totals; and ``game_changes`` are the cards after which that curve (Zwanzigerrufen by the score: the points'
    curve) crossed the game's line, as docs/postmortem.md says. Played deals of the three games, each with costly
    cards, and the game changing hands in three of them (one under announcements, Kontra and variant flags)."""
    if board is None:
        text = globals()[source]
    else:
        position = next(p for p in solver.read_positions(EXAMPLES / source) if p.record.get("Board") == board)
        text = position.to_tbn()
    played, start = tmp_path / "played.tbn", tmp_path / "start.tbn"
    played.write_text(text, encoding="utf-8")
    start.write_text(_without_play(text), encoding="utf-8")
    alone = "Kratzen" in text
    curves = {}
    for objective in ("tricks" if alone else "points", "score"):
        document = json.loads(run("postmortem", played, "--json", "-o", objective).stdout)
        cards = [card["card"] for card in document["cards"]]
        solved = _solved_before_each_card(start, cards, objective)
        declarer = document["declarer"]
        curve = [next(result for result in answer["results"] if result["seat"] in (None, declarer))["total"]
                 for answer in solved]
        curves[objective] = curve
        assert document["curve"] == curve
        for card, answer in zip(document["cards"], solved):
            mover = card["seat"]
            # by each mover's own tricks, the mover's own answer; else the declaring side's, which the defenders
            # minimise (Kratzen by the score: the attacker's payment, which every other seat's card can only raise)
            result = next(result for result in answer["results"] if result["seat"] in (None, mover)) \
                if objective == "tricks" else answer["results"][0]
            assert result["to_move"] == mover
            maximises = objective == "tricks" or mover in result["side"]
            totals = {name: entry["total"] for entry in result["cards"] for name in entry["cards"]}
            best = (max if maximises else min)(totals.values())
            cost = best - totals[card["card"]] if maximises else totals[card["card"]] - best
            assert (card["before"], card["best"], card["after"], card["cost"]) == (
                result["total"], best, totals[card["card"]], cost), (objective, card)
            assert set(card["best_cards"]) == {name for name, total in totals.items() if total == best} or \
                not card["cost"]
        line = document["winning"] or document.get("points_winning")
        assert line is not None
        read_on = curve if document["winning"] else curves["points"]
        value = line["value"]
        crossings = [(number, after >= value) for number, (before, after) in enumerate(zip(read_on, read_on[1:]), 1)
                     if (before >= value) != (after >= value)]
        assert crossings == changes  # read off solve's own curve
        assert document["game_changes"] == [{"number": number, "won": won} for number, won in changes]
        assert any(card["cost"] for card in document["cards"])


def test_postmortem_command_table_json_and_plot(tmp_path):
    path = _ending_file(tmp_path)
    shown = run("postmortem", path, "--objective", "points")
    assert "blunder" in shown.stdout and "inaccuracy" in shown.stdout and "Per seat" in shown.stdout
    (document,) = [json.loads(line) for line in run("postmortem", path, "--json", "-o", "points").stdout.splitlines()]
    assert document["command"] == "postmortem" and document["record"]["board"] == "9"
    assert document == {**document, **analyse_play(ending(VALAT_THROWN)).as_dict()}
    (by_score,) = [json.loads(line) for line in run("postmortem", path, "--json").stdout.splitlines()]
    assert by_score["measure"] == "game units" and by_score["points_curve"] == document["curve"]
    assert [c["points_cost"] for c in by_score["cards"]] == [c["cost"] for c in document["cards"]]
    assert "cost (game units)" in run("postmortem", path).stdout
    plot = tmp_path / "out.svg"
    result = run("postmortem", path, "--board", "9", "--plot", plot)
    assert result.stdout.strip() and f"wrote {plot}" in result.stderr
    marks = [i for i in _svg_ids(plot) if i.startswith("mistake-")]
    assert len(marks) == sum(1 for card in document["cards"] if card["grade"] != "ok")
    run("postmortem", path, "--plot", tmp_path / "out.png", "--json")
    _png_size((tmp_path / "out.png").read_bytes())  # one record: the name given
    run("postmortem", path, "--plot", tmp_path / "out.pdf")
    assert (tmp_path / "out.pdf").read_bytes().startswith(b"%PDF-")


def test_the_postmortem_tables_fit_80_columns_without_their_boxes(tmp_path, monkeypatch):
    """At COLUMNS=80 (and on any terminal of 80 to 115 columns) a card table of twelve boxed columns (116 wide) cannot
    fit: where the boxes do not fit, both tables drop them (the header's rule stays), the card table its `best` column
    (always `before`'s number), and the better cards fold, one a word."""
    path = _ending_file(tmp_path)
    monkeypatch.setenv("COLUMNS", "80")
    narrow = run("postmortem", path).stdout
    tables = narrow[narrow.index("Every card"):]
    assert max(len(line) for line in tables.splitlines() if not line.startswith("game units:")) == 80
    assert "┃" not in tables and "│" not in tables and "─" * 80 in tables
    header = next(line for line in tables.splitlines() if line.lstrip().startswith("#"))
    assert header.split() == ["#", "trick", "seat", "card", "before", "after", "cost", "(points)", "grade",
                              "better", "lost"]  # "cost (points)", as the seats' table writes it
    first = next(line for line in tables.splitlines() if line.lstrip().startswith("1 "))
    assert first.split()[:10] == ["1", "1", "1", "♥K", "90", "-12", "102", "17", "blunder", "T17"]
    assert "T17/T16" not in tables and "inaccuracies  mistakes  blunders" in tables
    monkeypatch.setenv("COLUMNS", "200")
    wide = run("postmortem", path).stdout
    assert "┃ before ┃ best ┃ after ┃" in wide and "T17/T16/♠K/♣K" in wide


def test_the_json_holds_what_the_plot_draws(tmp_path):
    """`postmortem --json` holds the thresholds, winning line and game changes the plot draws, so that a script can draw
    its own. In this ending HK leaves seat 1 44 points of 61 (45 win, RULES.md 1.1) and HJ gives the game back."""
    from test_cli import SCHEMA, schema_errors

    path = _ending_file(tmp_path)
    (document,) = [json.loads(line) for line in run("postmortem", path, "--json", "-o", "points").stdout.splitlines()]
    assert schema_errors(document, SCHEMA) == []
    assert document["winning"] == {"name": "game", "value": 45} and document["maximum"] == 61
    assert document["game_changes"] == [{"number": 1, "won": False}, {"number": 4, "won": True}]
    analysis = analyse_play(ending(VALAT_THROWN))
    assert document["thresholds"] == [{"name": name, "value": value} for name, value in analysis.thresholds]
    assert {"name": "game", "value": 45} in document["thresholds"] and document["bonuses_kept"] == []
    (by_score,) = [json.loads(line) for line in run("postmortem", path, "--json").stdout.splitlines()]
    assert schema_errors(by_score, SCHEMA) == []
    # Zwanzigerrufen by the score has no line on the settlement's scale (1.7), but the game still changes hands
    # where the points cross 45 (points_winning)
    assert by_score["winning"] is None and by_score["thresholds"] == []
    assert by_score["points_winning"] == {"name": "game", "value": 45}
    assert by_score["game_changes"] == document["game_changes"]
    assert schema_errors({**document, "winning": {"name": "game"}}, SCHEMA)
    assert schema_errors({**document, "game_changes": [{"number": 0, "won": True}]}, SCHEMA)


def _kratzen_record(board: str | None, play: str) -> str:
    tag = f'[Board "{board}"]\n' if board is not None else ""
    return (f'[Game "Kratzen"]\n{tag}[Seats "3"]\n[Deal "{KRATZEN_DEAL}"]\n[Contract "Trump S"]\n'
            f'[Play "1"]\n{play}\n*\n')


def test_kratzen_tables_name_the_target_not_bonuses(tmp_path):
    """Kratzen has trick targets, not bonuses (RULES.md 3.3): the table said "bonus lost" / "bonuses lost" with the
    bare cell "target". Seat 1's SU lets seat 3's SK take it and loses the attacker's 2 tricks; the JSON keeps its
    keys."""
    path = tmp_path / "k.tbn"
    path.write_text(_kratzen_record("1", "SU S7 SK"), encoding="utf-8")
    shown = run("postmortem", path).stdout
    assert "bonus" not in shown and shown.count("target lost") == 2
    first = next(line for line in shown.splitlines() if "│ SU " in line)
    assert "blunder" in first and first.rstrip("│ ").endswith("yes")
    (document,) = [json.loads(line) for line in run("postmortem", path, "--json").stdout.splitlines()]
    assert document["cards"][0]["bonuses_lost"] == ["target"] and document["players"][0]["bonuses_lost"] == ["target"]
    assert "bonus lost" in run("postmortem", _ending_file(tmp_path), "-o", "points").stdout


def test_each_plot_is_named_by_its_board(tmp_path):
    """A club file holding boards 7, 12, 3 gives each plot the name of its [Board] (not out.png, out-2.png, out-3.png by
    the record's place among those plotted, which no reader can match to the boards); a board played again (at another
    table) is numbered on, a record without a board named by its line, a board's free text made safe."""
    records = [("7", "SU S7 SK"), ("12", "EO S7 EK"), ("3", "SZ S7 SK"), ("7", "E9 S7 EK"), (None, "SU S7 SK"),
               ("3/4 b", "SU S7 SK")]
    path = tmp_path / "club.tbn"
    path.write_text("\n".join(_kratzen_record(board, play) for board, play in records), encoding="utf-8")
    result = run("postmortem", path, "--plot", tmp_path / "out.svg")
    no_board_line = 1 + sum(len(_kratzen_record(b, p).splitlines()) + 1 for b, p in records[:4])
    names = ["out-7.svg", "out-12.svg", "out-3.svg", "out-7-2.svg", f"out-line{no_board_line}.svg", "out-3_4_b.svg"]
    assert sorted(p.name for p in tmp_path.glob("*.svg")) == sorted(names)
    assert f"wrote {tmp_path / 'out-12.svg'} (board 12)" in result.stderr
    assert f"wrote {tmp_path / names[4]} ({path}:{no_board_line})" in result.stderr
    # the plot of board 12 is the play of board 12 (its EO lead is card 1)
    assert "1: EO" in _svg_text(tmp_path / "out-12.svg") and "1: SU" in _svg_text(tmp_path / "out-7.svg")
    # --board and --record name the records themselves: the name given is the plot's, a repeat numbered on
    run("postmortem", path, "--board", "7", "--plot", tmp_path / "b7.svg")
    run("postmortem", path, "--record", "2", "--plot", tmp_path / "r2.svg")
    assert {"b7.svg", "b7-2.svg", "r2.svg"} <= {p.name for p in tmp_path.glob("*.svg")}
    assert "1: EO" in _svg_text(tmp_path / "r2.svg") and "1: E9" in _svg_text(tmp_path / "b7-2.svg")
    # a file of one record: its plot is the file named, not out-7.svg (nor, from standard input, which is read once)
    single = tmp_path / "single.tbn"
    single.write_text(_kratzen_record("7", "SU S7 SK"), encoding="utf-8")
    run("postmortem", single, "--plot", tmp_path / "one.svg")
    assert (tmp_path / "one.svg").exists() and not (tmp_path / "one-7.svg").exists()


def test_a_plot_into_a_missing_directory_is_refused_before_the_analysis(tmp_path):
    """A plot into a missing directory is refused before the analysis (seconds to minutes for a whole deal), so that no
    analysis is run and its table lost for a plot that cannot be written."""
    missing = tmp_path / "nowhere" / "play.png"
    result = run("postmortem", EXAMPLES / "schafkopf.tbn", "--plot", missing, code=1)
    assert result.stdout == "" and f"stich: {missing}: cannot be written: the folder {missing.parent} does not exist " \
        "(make it, or choose another file)" in result.stderr
    assert "post-mortem of" not in result.stderr and not missing.parent.exists()
    # nor a plot that cannot be written for another reason (a file where the directory should be); a bad
    # --objective is still the usage error it is
    afile = tmp_path / "afile"
    afile.write_text("")
    result = run("postmortem", EXAMPLES / "schafkopf.tbn", "--plot", afile / "play.png", code=1)
    assert result.stdout == "" and (f"stich: {afile / 'play.png'}: cannot be written: {afile} is a file, where a "
                                    "folder was expected (choose another path)") in result.stderr
    assert "post-mortem of" not in result.stderr
    run("postmortem", EXAMPLES / "schafkopf.tbn", "--plot", missing, "-o", "bogus", code=2)


def test_postmortem_command_bad_input(tmp_path):
    result = run("postmortem", tmp_path / "missing.tbn", code=1)
    assert result.stderr.startswith("stich: ")
    result = run("postmortem", _ending_file(tmp_path), "--plot", tmp_path / "out.gif", code=2)  # a usage error
    assert ".png, .svg or .pdf" in result.stderr


@pytest.mark.parametrize("game, bots, options", [
    ("kratzen", "cheater,random,random,random", ["--pot", "8", "-s", "9"]),
    ("kratzen", "random,cheater,random", ["--pot", "8", "-s", "9", "--declarer", "2"]),
    ("schafkopf", "random,cheater,random,random", ["-s", "4", "--contract", "Solo H", "--declarer", "2"])])
def test_a_match_s_deal_is_graded_from_stich_deal_s_board_and_its_play(tmp_path, game, bots, options):
    """docs/postmortem.md's recipe: a match writes each deal's play, not its hands; ``stich deal`` with the match's
    seed, board and options writes its hands, and with the play added as the record's Play section (``[Play "N"]``:
    seat 1 leads, but the Kratzen attacker does) the post-mortem grades the bots' cards, and ``stich score`` settles
    it as the match did (the same deal, not a lookalike)."""
    seats = len(bots.split(","))
    match = json.loads(run("match", "-g", game, "--bots", bots, "-n", "2", "-j", "1", "--json", *options).stdout)
    deal = next(deal for deal in match["deals"] if deal["board"] == 2 and deal["rotation"] == 1)
    written = run("deal", "-g", game, "--first-board", "2", *options,
                  *(["--seats", str(seats)] if game == "kratzen" else [])).stdout
    tricks = [" ".join(deal["play"][start:start + seats]) for start in range(0, len(deal["play"]), seats)]
    record = tmp_path / "board2.tbn"
    without_last_line = "".join(written.splitlines(keepends=True)[:-1])  # the recipe's sed '$d'
    leader = deal["declarer"] if game == "kratzen" else 1  # first_leader=attacker, the default
    play = f'[Play "{leader}"]\n' + "\n".join(tricks) + "\n*\n"
    record.write_text(without_last_line + play, encoding="utf-8")
    if leader != 1:  # the recipe's seat matters: seat 1 would be refused, not misread
        (tmp_path / "seat1.tbn").write_text(without_last_line + play.replace(f'"{leader}"', '"1"', 1))
        refused = run("postmortem", tmp_path / "seat1.tbn", code=1).stderr
        assert (f"the first trick is led by seat {leader} under first_leader=attacker: the attacker leads "
                f"(got '1', expected {leader})") in refused
    graded = json.loads(run("postmortem", record, "--json").stdout)
    assert [card["card"] for card in graded["cards"]] == deal["play"]
    assert graded["contract"] == deal["contract"] and graded["declaring_side"] == deal["declaring_side"]
    assert json.loads(run("score", record, "--json").stdout)["payments"] == deal["payments"]


def test_tree_command_writes_each_format(tmp_path):
    path = _ending_file(tmp_path)
    for suffix, read in ((".graphml", nx.read_graphml), (".gexf", nx.read_gexf),
                         (".json", lambda p: nx.node_link_graph(json.loads(Path(p).read_text()), edges="links"))):
        out = tmp_path / f"tree{suffix}"
        result = run("tree", path, "--depth", 2, "--out", out)
        assert result.stdout == "" and "wrote" in result.stderr
        # from the end of the record's play (the deal is over) the tree is the root alone
        assert read(out).number_of_nodes() == 1
    kratzen = EXAMPLES / "kratzen.tbn"
    out = tmp_path / "k.graphml"
    run("tree", kratzen, "--board", "1", "--depth", 2, "--out", out)
    position = next(p for p in solver.read_positions(kratzen) if p.record.get("Board") == "1")
    graph = nx.read_graphml(out)
    assert graph.number_of_nodes() == sum(solver.perft(position, d) for d in range(3))
    run("tree", path, "--depth", 1, "--out", tmp_path / "tree.txt", code=2)  # a usage error


def test_tree_command_refuses_points_in_kratzen_and_records_the_variant(tmp_path):
    # --objective points on a Kratzen record is refused, not answered with the tricks, and the graph says which
    # variant its values are of
    kratzen = EXAMPLES / "kratzen.tbn"
    result = run("tree", kratzen, "--depth", 1, "--objective", "points", "--out", tmp_path / "k.json", code=1)
    assert "objective 'points' belongs to " in result.stderr and "Zwanzigerrufen, not to Kratzen" in result.stderr
    assert not (tmp_path / "k.json").exists()
    with pytest.raises(solver.StichError, match="objective 'points' belongs to .*Zwanzigerrufen, not to Kratzen"):
        strategy_tree(solver.make_position("kratzen", KRATZEN_DEAL, "Trump S", declarer=1), 1, objective="points")
    run("tree", EXAMPLES / "valat.tbn", "--depth", 1, "--out", tmp_path / "v.graphml",
        "--variant", "hard_pagat_reservation=true")
    assert nx.read_graphml(tmp_path / "v.graphml").graph["variant"] == "hard_pagat_reservation=true"
    assert strategy_tree(ending(), 1).graph["variant"] == ""


def test_tree_size_counts_the_nodes_before_the_tree_is_built():
    """One node per play sequence: tree_size is what strategy_tree makes, to the end of the deal too; a tree over
    max_nodes is refused before any node is made, with its size (exact when the count reached the depth)."""
    from solver.tree import TreeTooLarge, tree_size

    position = ending(["HK", "T1"])
    for depth in (0, 3, 40):
        assert tree_size(position, depth) == strategy_tree(position, depth).number_of_nodes()
    whole = tree_size(position, 3)
    assert strategy_tree(position, 3, max_nodes=whole).number_of_nodes() == whole
    with pytest.raises(TreeTooLarge, match=f"the tree to depth 3 has {whole:,} nodes, more than the {whole - 1:,}"):
        strategy_tree(position, 3, max_nodes=whole - 1)
    with pytest.raises(TreeTooLarge, match="has more than 4 nodes, more than the 3 allowed") as refused:
        strategy_tree(position, 18, objective="score", max_nodes=3)
    assert not refused.value.exact and refused.value.nodes < tree_size(position, 18)
    seen = []
    strategy_tree(position, 40, progress=lambda made, total: seen.append((made, total)))
    assert seen and all(total == tree_size(position, 40) and made % 1000 == 0 for made, total in seen)


def test_a_tree_without_max_nodes_is_held_to_the_memory_available(monkeypatch):
    """strategy_tree(max_nodes=None) means as many nodes as the memory available now holds (the command's --max-nodes
    0), not no bound at all (depth 20 of a whole deal would be counted for hours, then built until the memory runs out):
    refused before any node is made with the same TreeTooLarge, which says so; a max_nodes given is taken as given, the
    way to lift it."""
    from solver import tree
    from solver.tree import TreeTooLarge, tree_size

    position = ending(["HK", "T1"])
    whole = tree_size(position, 3)
    monkeypatch.setattr(tree, "nodes_memory_holds", lambda: whole - 1)
    with pytest.raises(TreeTooLarge, match=f"the tree to depth 3 has {whole:,} nodes, more than the memory available "
                                           f"now holds \\({whole - 1:,} nodes: 0.0 GB at about 10 KB of memory a node "
                                           "written as GraphML\\): ask for fewer cards, or give max_nodes to build "
                                           "it anyway") as refused:
        strategy_tree(position, 3)
    assert refused.value.by_memory and refused.value.max_nodes == whole - 1 and refused.value.exact
    # the words stich tree says it in too, in its format's memory a node (one text, not two)
    assert str(refused.value).startswith(refused.value.memory_text(".graphml") + ": ")
    assert refused.value.memory_text(".json").endswith("at about 4 KB of memory a node written as JSON)")
    assert strategy_tree(position, 3, max_nodes=whole).number_of_nodes() == whole  # given: taken as given
    monkeypatch.setattr(tree, "nodes_memory_holds", lambda: whole)
    assert strategy_tree(position, 3).number_of_nodes() == whole
    monkeypatch.setattr(tree, "nodes_memory_holds", lambda: 1_000)
    deal = solver.position_from_record(solver.random_record("zr", 2, 1))
    with pytest.raises(TreeTooLarge, match="to depth 20 has more than .* more than the memory available") as refused:
        strategy_tree(deal, 20)
    # counted only to the first depth past the bound (5), not through the 20 cards
    assert not refused.value.exact and refused.value.nodes == tree_size(deal, 5) and tree_size(deal, 4) <= 1_000


def test_the_tree_names_the_record_deal_and_play_it_came_from(tmp_path):
    path = _ending_file(tmp_path)
    position = next(solver.read_positions(path))
    graph = strategy_tree(position, 0)
    assert {name: graph.graph[name] for name in ("source", "board", "deal", "played")} == {
        "source": f"{path}:1", "board": "9", "deal": VALAT_ENDING, "played": " ".join(VALAT_THROWN)}
    run("tree", path, "--depth", 1, "--out", tmp_path / "t.graphml")
    assert nx.read_graphml(tmp_path / "t.graphml").graph["played"] == " ".join(VALAT_THROWN)
    assert strategy_tree(ending(["HK"]), 0).graph["played"] == "HK"
    assert strategy_tree(ending(), 0).graph["source"] == ""  # made, not read: no record


def test_a_tree_of_a_random_deal_names_no_file_it_was_not_read_from():
    """A seeded random deal's record is made, not read: its tree's source is empty, as the graph attributes say for a
    position not read from a file, not '<string>:0', a line 0 of no file. Its board is the record's."""
    graph = strategy_tree(solver.random_position("kratzen", 3, 7), 0)
    assert graph.graph["source"] == "" and graph.graph["board"] == "7"


def test_tree_command_roots_the_tree_at_a_what_if_of_play(tmp_path):
    """--play, as show, solve, check, score and postmortem take it: the tree starts after those cards, its values
    are those solve gives there, the graph's 'played' ends with them; an illegal card is said at --play (not at the
    record's [Play] tag, which is not wrong), with the rule it breaks and the record, and nothing is written."""
    valat = EXAMPLES / "valat.tbn"
    out = tmp_path / "what-if.graphml"
    run("tree", valat, "--play", "HK T1", "--depth", 1, "--out", out)
    graph = nx.read_graphml(out)
    position = next(solver.read_positions(valat)).play_cards("HK T1")
    assert graph.graph["played"].endswith(" HK T1") and graph.nodes["root"]["table"] == "HK T1"
    assert graph.nodes["root"]["to_move"] == 3 and graph.number_of_nodes() == 1 + solver.perft(position, 1)
    points = solver.solve(position, "points", cards=True)
    assert {card: value for _, card, value in graph.edges(data="value")} == {
        position.pack[cv.card].name: points.achieved + cv.value for cv in points.card_values}
    bad = run("tree", valat, "--play", "HK SQ", "--depth", 1, "--out", tmp_path / "bad.json", code=1)
    assert bad.stderr.startswith("stich: --play: card 2: seat 2 may not play SQ here: cannot follow suit to the lead "
                                 "HK and must trump")
    assert bad.stderr.endswith(f"(the record at {valat}:13, board 1, not answered)\n")
    assert "Traceback" not in bad.stderr and not (tmp_path / "bad.json").exists()


def test_tree_command_refuses_a_tree_over_max_nodes_and_writes_nothing(tmp_path, monkeypatch):
    """Depth 8 of a Zwanzigerrufen deal is 172,326 nodes and 1.6 GB as GraphML: refused at once (exit 1, no
    traceback, no file), by the default --max-nodes too; 0 lifts the limit. The memory available is made ample here:
    with less than the default's 1 GB free (a busy CI runner) the refusal names the memory's bound instead, as the
    next test checks."""
    import solver.tree
    from solver.tree import MAX_TREE_NODES

    monkeypatch.setattr(solver.tree, "nodes_memory_holds", lambda suffix: MAX_TREE_NODES)
    deals = tmp_path / "zr.tbn"
    deals.write_text(solver.formats.tbn.format_record(solver.random_record("zr", 2, 1)), encoding="utf-8")
    out = tmp_path / "big.graphml"
    result = run("tree", deals, "--depth", 8, "--out", out, code=1)
    assert result.stderr == (f"stich: {deals}:1: the tree to depth 8 has 172,326 nodes, over --max-nodes 100,000 "
                             "(about 10 KB of memory a node written as GraphML); nothing written: ask for fewer "
                             "cards (--depth), or a "
                             "larger --max-nodes (0: as many as the available memory holds)\n")
    assert "more than 172,326 nodes" in run("tree", deals, "--depth", 12, "--out", out, code=1).stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["zr.tbn"]
    assert "51 nodes" in run("tree", deals, "--depth", 2, "--out", out, "--max-nodes", 51).stderr
    run("tree", deals, "--depth", 2, "--out", out, "--max-nodes", 50, code=1)
    assert "51 nodes" in run("tree", deals, "--depth", 2, "--out", out, "--max-nodes", 0).stderr


def test_tree_command_with_max_nodes_0_is_bounded_by_the_memory_available(tmp_path, monkeypatch):
    """--max-nodes 0 means as many nodes as the available memory holds, not 'no limit' (depth 20 would count every play
    sequence for hours behind a spinner, then be built until the memory runs out), and every --max-nodes is held to that
    too: refused at once, saying so."""
    import solver.tree
    from solver.tree import available_memory, node_bytes, nodes_memory_holds

    deals = tmp_path / "zr.tbn"
    deals.write_text(solver.formats.tbn.format_record(solver.random_record("zr", 2, 1)), encoding="utf-8")
    out = tmp_path / "big.json"
    monkeypatch.setattr(solver.tree, "nodes_memory_holds", lambda suffix: 1_000)
    for asked in (0, 1_000_000_000):
        result = run("tree", deals, "--depth", 20, "--out", out, "--max-nodes", asked, code=1)
        assert result.stderr.startswith(f"stich: {deals}:1: the tree to depth 20 has more than ")
        assert result.stderr.endswith("nodes, more than the memory available now holds (1,000 nodes: 0.0 GB at "
                                      "about 4 KB of memory a node written as JSON); nothing written: ask for fewer "
                                      "cards (--depth)\n")
    assert "51 nodes" in run("tree", deals, "--depth", 2, "--out", out, "--max-nodes", 0).stderr
    assert 1 <= nodes_memory_holds(".json") <= max(1, available_memory() // node_bytes(".json"))


def test_tree_memory_bound_is_the_format_s(tmp_path, monkeypatch):
    """Each format is bounded at its own figure, not 8 KB a node whatever the format (GraphML's peak, where JSON's is
    under 4 KB: resident growth measured on trees of 8,702 and 19,822 nodes: GraphML 9.4 KB, GEXF 9.1 KB, JSON 2.9 to
    3.6 KB; docs/limits.md), which refuses a JSON tree the memory holds and lets a GraphML tree near the bound through.
    """
    import solver.tree as tree_module

    assert tree_module.NODE_BYTES == {".graphml": 10 << 10, ".gexf": 10 << 10, ".json": 4 << 10}
    deals = tmp_path / "zr.tbn"
    deals.write_text(solver.formats.tbn.format_record(solver.random_record("zr", 2, 1)), encoding="utf-8")
    monkeypatch.setattr(tree_module, "available_memory", lambda: 51 * (6 << 10))  # 51 nodes at 6 KB
    assert (tree_module.nodes_memory_holds(".json"), tree_module.nodes_memory_holds(".GraphML")) == (76, 30)
    assert "51 nodes" in run("tree", deals, "--depth", 2, "--out", tmp_path / "t.json", "--max-nodes", 0).stderr
    for suffix, name in ((".graphml", "GraphML"), (".gexf", "GEXF")):
        refused = run("tree", deals, "--depth", 2, "--out", tmp_path / f"t{suffix}", "--max-nodes", 0, code=1)
        assert refused.stderr == (f"stich: {deals}:1: the tree to depth 2 has 51 nodes, more than the memory available "
                                  f"now holds (30 nodes: 0.0 GB at about 10 KB of memory a node written as {name}); "
                                  "nothing written: ask for fewer cards (--depth)\n")
    with pytest.raises(tree_module.TreeTooLarge, match=r"\(max_nodes; about 10 KB of memory a node written as "
                                                        r"GraphML or GEXF, 4 KB written as JSON\)"):
        strategy_tree(solver.read_positions(deals).__next__(), 2, max_nodes=50)


def test_available_memory_keeps_within_an_address_space_limit():
    """Under ``ulimit -v`` the memory a tree may take is what is left of the limit, not the machine's."""
    import subprocess
    import sys

    code = ("import resource; resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30)); "
            "from solver.tree import available_memory; print(available_memory())")
    left = int(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
    assert 0 < left < 2 << 30


def test_tree_command_reads_no_record_after_the_one_it_uses(tmp_path):
    # the records after the one used are not read: a broken one must not fail the command
    path = tmp_path / "two.tbn"
    path.write_text(_ending_file(tmp_path).read_text() + '\n[Game "Kratzen"\n', encoding="utf-8")
    run("tree", path, "--depth", 1, "--out", tmp_path / "t.json")
    assert "expected" in run("tree", path, "--board", "2", "--depth", 1, "--out", tmp_path / "u.json",
                             code=1).stderr


def test_postmortem_by_the_score_agrees_with_the_reference():
    """Graded by the score, every card's before / after is the reference settlement of the position, its cost what
    the mover's side lost of it, and the curve is the score's."""
    from solver.score_objective import solve_score
    from solver.postmortem import position_at

    position = ending(VALAT_THROWN)
    analysis = analyse_play(position, objective="score")
    assert analysis.measure == "game units"
    state = position.rules.start()
    values = [solve_score(position_at(position, state), reference_solver=True).total]
    for card in position.played:
        state = state.advance(card)
        values.append(solve_score(position_at(position, state), reference_solver=True).total)
    assert list(analysis.curve) == values
    declaring = {s + 1 for s in position.rules.declaring_side}
    for card in analysis.cards:
        swing = card.before - card.after
        assert card.cost == (swing if card.seat in declaring else -swing) >= 0
        assert card.grade == grade(card.cost, "game units", False)
    assert any(card.cost for card in analysis.cards)


@pytest.mark.slow
def test_the_tree_by_the_score_agrees_with_the_score_of_every_node():
    from solver.postmortem import position_at
    from solver.score_objective import solve_score

    position = ending()
    graph = strategy_tree(position, 2, objective="score")
    assert graph.graph["objective"] == "score"
    assert graph.nodes["root"]["value"] == solve_score(position, reference_solver=True).total
    for parent, child, data in graph.edges(data=True):
        state = position.state
        for name in child.split():
            state = state.advance(position.rules.pack.parse(name).index)
        assert data["value"] == graph.nodes[child]["value"] == solve_score(position_at(position, state),
                                                                            reference_solver=True).total
        assert data["optimal"] == (data["value"] == graph.nodes[parent]["value"])


ANNOUNCED_AND_PLAYED = """[Game "Zwanzigerrufen"]
[Deal "1: HQ T20 T15 T6 CG T11 DN HJ CN T16 / SQ CQ HK CJ T10 HG T5 T12 T9 SN / SJ DJ T19 SG T7 T17 SK DG T21 DQ / \
TS T18 CK DK T1 T14 HN T13 T8 T4"]
[Contract "Normal"]
[Declarer "1"]
[Announcements "2: Kontra, Absolut dagegen; 3: Kontra Absolut; 4: Pagat dagegen; 1: Kontra Pagat"]
[Play "1"]
T15 T5 T21 T18
DQ DK DN T10
SN SK T8 T11
HQ HG T19 HN
SJ T14 T6 SQ
T4 T20 T9 T17
CG CQ T7 CK
SG TS T16 T12
T13 CN HK DJ
T1 HJ CJ DG
*
"""


def test_a_bonus_handed_to_the_opponents_is_told_from_one_thrown_away():
    """Seat 1's lost "pagat_ultimo" is the defenders' Pagat dagegen, which seat 1's T15 let them force, not its own
    Pagat: a card's lost bonuses say which were the opponents' to force."""
    (position,) = solver.parse_positions(ANNOUNCED_AND_PLAYED)
    analysis = analyse_play(position)
    lost = {card.number: (card.seat, card.bonuses_lost, card.bonuses_handed_over) for card in analysis.cards
            if card.bonuses_lost}
    assert lost == {1: (1, ("pagat_ultimo",), ("pagat_ultimo",)),  # the defenders' Pagat dagegen
                    3: (3, ("mondfang",), ("mondfang",)),  # seat 3's T21 under the Skus: the defenders' Mondfang
                    4: (4, ("mondfang",), ()),  # seat 4 could have caught it: thrown away
                    19: (1, ("absolut_against",), ("absolut_against",)), 21: (4, ("absolut_against",), ())}
    assert [player.bonuses_handed_over for player in analysis.players] == [
        ("pagat_ultimo", "absolut_against"), (), ("mondfang",), ()]
    assert lost_text(*lost[1][1:]) == "pagat_ultimo (handed over)"


def test_a_card_that_cost_nothing_but_a_bonus_is_labelled_without_a_cost(tmp_path):
    """The plot labelled seat 3's T21, which cost no point but handed the defenders' Mondfang over, "T21 (-0):
    mondfang handed over". A cost of 0 is left out, as a card that only changed the game is labelled."""
    (position,) = solver.parse_positions(ANNOUNCED_AND_PLAYED)
    analysis = analyse_play(position)
    assert [(card.card, card.cost) for card in analysis.cards[2:4]] == [("T21", 0), ("T18", 0)]
    text = _svg_text(write_plot(analysis, tmp_path / "mondfang.svg"))
    assert "T21: Mondfang handed over" in text and "T18: Mondfang lost" in text and "(-0)" not in text
    assert "T15 (-11): Pagat Ultimo handed over; game lost" in text and "♠N (-7)" in text  # a cost is still said


def _announced(text: str | None) -> solver.Position:
    """ANNOUNCED_AND_PLAYED with other announcements (None: none)."""
    tag = '[Announcements "2: Kontra, Absolut dagegen; 3: Kontra Absolut; 4: Pagat dagegen; 1: Kontra Pagat"]\n'
    (position,) = solver.parse_positions(ANNOUNCED_AND_PLAYED.replace(tag, "" if text is None else
                                                                      f'[Announcements "{text}"]\n'))
    return position


def test_a_silent_bonus_the_other_side_announced_is_not_watched():
    """After the declarers announce Absolut, the defenders' silent Absolut against scores nothing (RULES.md 1.7: the
    announcement alone is settled, failed to the defenders at its announced value), so seat 1's T15 is not listed as
    handing it over, at cost 0. Unannounced, it is a silent bonus and is listed."""
    def lost(position: solver.Position) -> dict[int, tuple[str, ...]]:
        return {card.number: card.bonuses_lost for card in analyse_play(position).cards if card.bonuses_lost}

    silent = lost(_announced(None))
    assert silent[19] == ("absolut_against",) and silent[21] == ("absolut_against",)
    declarers_announced = _announced("1: Absolut")
    assert unscored_bonuses(declarers_announced) == {"absolut_against"}
    assert lost(declarers_announced) == {1: ("pagat_ultimo",), 3: ("mondfang",), 4: ("mondfang",)}
    # the defenders' Absolut dagegen and Pagat dagegen leave the declarers' silent Absolut and the silent Pagat
    # beaten (the Pagat's side announced it) unscored
    assert unscored_bonuses(_announced("2: Kontra, Absolut dagegen; 4: Pagat dagegen")) == {"absolut", "pagat_beaten"}
    # a Pagat announced by a seat that does not hold it (seat 4 does) is refused: its announcer holds it, as a hand
    # analysis reads the announcement (docs/scoring.md)
    with pytest.raises(solver.StichError, match="Pagat Ultimo is announced by the Pagat's holder, seat 4"):
        unscored_bonuses(_announced("1: Pagat"))


def test_a_tout_watches_only_the_tout():
    """A Tout scores 10 + 2L and no Schneider or Schwarz (RULES.md 2.5): the card that loses it loses the Tout, not a
    Schwarz besides (the docs listed that as a known limit)."""
    (position,) = solver.parse_positions(
        '[Game "Schafkopf"]\n[Deal "1: EA EZ EK EU E9 GU HU SU / EO E7 G7 HK HO H7 SZ S7 / GA GZ G9 HZ H8 SA S9 S8 / '
        'E8 GK GO G8 HA H9 SK SO"]\n[Contract "WenzTout"]\n[Declarer "1"]\n[Play "1"]\nE9 EO GA E8\n*\n')
    first = analyse_play(position).cards[0]
    assert (first.card, first.bonuses_lost, first.cost) == ("E9", ("tout",), 14)  # EO E9 E8 GA: 3 + 11 points
    assert unscored_bonuses(position) == {"game", "schneider", "schneider_against", "schwarz",
                                         "schwarz_against"}  # a Tout is won by every trick, not by 61


def test_a_tout_marks_only_the_tout():
    """The plot of a Tout drew lines at 31, 61 and 91 points (the game and the Schneider both ways) and at every trick
    for the Schwarz, items ``stich check`` lists as scoring nothing in a Tout: only the Tout's own mark is left."""
    deal = "1: EA EZ EK EU E9 GU HU SU / EO E7 G7 HK HO H7 SZ S7 / GA GZ G9 HZ H8 SA S9 S8 / E8 GK GO G8 HA H9 SK SO"
    tout = analyse_play(solver.make_position("Schafkopf", deal, "WenzTout", play="EU E7 G9 G8"))
    assert tout.thresholds == (("tout (all tricks)", 120),) and tout.winning is None
    wenz = analyse_play(solver.make_position("Schafkopf", deal, "Wenz", play="EU E7 G9 G8"))  # the same cards
    assert wenz.thresholds == (("schneider_against", 31), ("game", 61), ("schneider", 91),
                               ("schwarz (all tricks)", 120))


def test_a_tout_by_the_score_has_no_card_points_cost_beside():
    """A Tout is won by every trick (RULES.md 2.5), so its score never looks at the card points: graded by the score it
    has no ``cost (points)`` column (JSON ``points_cost``, ``points_curve``), which would say nothing or mislead. The
    game's own data decides it (the objective that decides the game counts no card points), in the library, the
    command's text and JSON and Jupyter's tables alike; a Wenz of the same cards keeps the column."""
    deal = "1: EA EZ EK EU E9 GU HU SU / EO E7 G7 HK HO H7 SZ S7 / GA GZ G9 HZ H8 SA S9 S8 / E8 GK GO G8 HA H9 SK SO"
    record = (f'[Game "Schafkopf"]\n[Deal "{deal}"]\n[Contract "{{}}"]\n[Declarer "1"]\n[Play "1"]\n'
              'EU E7 H8 E8\nGU G7 S8 G8\n*\n')
    (tout,) = solver.parse_positions(record.format("WenzTout"))
    (wenz,) = solver.parse_positions(record.format("Wenz"))
    assert not score_counts_points_measure(tout.rules) and score_counts_points_measure(wenz.rules)
    assert not hasattr(solver.postmortem, "points_beside")  # was an alias of it: one name, the scoring's
    by_score = analyse_play(tout, objective="score")
    assert by_score.measure == "game units" and len(by_score.cards) == 8
    assert all(card.points_cost is None for card in by_score.cards) and by_score.points_curve == ()
    assert all(player.points_cost is None for player in by_score.players)
    document = by_score.as_dict()
    assert "points_curve" not in document and not any("points_cost" in card for card in document["cards"])
    assert "cost (points)" not in by_score._repr_html_() and "cost (points)" not in str(by_score.players[0])
    kept = analyse_play(wenz, objective="score")
    assert all(card.points_cost is not None for card in kept.cards) and "cost (points)" in kept._repr_html_()
    result = CliRunner().invoke(app, ["postmortem", "-"], input=record.format("WenzTout"), env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.stderr
    assert "cost (game units)" in result.stdout and "(points)" not in result.stdout


def test_a_tout_graded_by_card_points_says_its_score_does_not_count_them():
    """``-o points`` on a Tout grades by what its score never counts (it is won by every trick, RULES.md 2.5), so it
    says so, lest the analyst read 120 card points kept as if they were the game. It still grades (the card points are
    the contract's question, ``solve -o points`` answers it, and a card losing the Tout is a blunder by its lost
    ``tout``), and says so in one line (``points_note``) in the library's words, in ``print()``, Jupyter's view, the
    JSON and the command's text; a Sie (won by the deal alone) too. The game's data decides: a Wenz of the same cards,
    and a Tout graded by the score, have no such line."""
    deal = "1: EA EZ EK EU E9 GU HU SU / EO E7 G7 HK HO H7 SZ S7 / GA GZ G9 HZ H8 SA S9 S8 / E8 GK GO G8 HA H9 SK SO"
    record = (f'[Game "Schafkopf"]\n[Deal "{deal}"]\n[Contract "{{}}"]\n[Declarer "1"]\n[Play "1"]\n'
              'EU E7 H8 E8\nGU G7 S8 G8\n*\n')
    words = "card points: a Wenz Tout's score does not count them (won by every trick); objective 'score' measures it"
    (tout,) = solver.parse_positions(record.format("WenzTout"))
    (wenz,) = solver.parse_positions(record.format("Wenz"))
    by_points = analyse_play(tout, objective="points")
    assert by_points.points_note == words and by_points.as_dict()["points_note"] == words
    assert words in str(by_points).splitlines() and escape(words) in by_points._repr_html_()
    assert analyse_play(tout, objective="score").points_note is None
    assert analyse_play(wenz, objective="points").as_dict()["points_note"] is None
    sie_deal = ("1: EO GO HO SO EU GU HU SU / EA EZ EK E9 E8 E7 GA GZ / G9 G8 G7 GK HA HZ HK H9 / "
                "H8 H7 SA SZ SK S9 S8 S7")
    (sie,) = solver.parse_positions(f'[Game "Schafkopf"]\n[Deal "{sie_deal}"]\n[Contract "Sie"]\n[Declarer "1"]\n'
                                    '[Play "1"]\nEO EA HA H8\n*\n')
    assert analyse_play(sie, objective="points").points_note == (
        "card points: a Sie's score does not count them (decided by the deal alone); objective 'score' measures it")
    runner = CliRunner()
    text = runner.invoke(app, ["postmortem", "-", "-o", "points"], input=record.format("WenzTout"),
                         env={"COLUMNS": "200"})
    assert text.exit_code == 0, text.stderr
    assert words in text.stdout.splitlines()
    plain = runner.invoke(app, ["postmortem", "-", "-o", "points"], input=record.format("Wenz"), env={"COLUMNS": "200"})
    assert plain.exit_code == 0 and "card points:" not in plain.stdout
    document = json.loads(runner.invoke(app, ["postmortem", "-", "-o", "points", "--json"],
                                        input=record.format("WenzTout")).stdout)
    assert document["points_note"] == words and document["measure"] == "points"
    scored = json.loads(runner.invoke(app, ["postmortem", "-", "--json"], input=record.format("WenzTout")).stdout)
    assert scored["points_note"] is None and scored["measure"] == "game units"


def test_a_tout_graded_by_card_points_still_marks_the_card_that_loses_it_a_blunder():
    """Graded by card points a Tout's card points cost little, but the card that gives away a trick throws away the
    ``tout``: a blunder, as the note's grading by card points promises (docs/postmortem.md)."""
    deal = "1: EA EZ EK EU E9 GU HU SU / EO E7 G7 HK HO H7 SZ S7 / GA GZ G9 HZ H8 SA S9 S8 / E8 GK GO G8 HA H9 SK SO"
    (tout,) = solver.parse_positions(f'[Game "Schafkopf"]\n[Deal "{deal}"]\n[Contract "WenzTout"]\n[Declarer "1"]\n'
                                     '[Play "1"]\nE9 EO GA E8\n*\n')  # E9 led: seat 2's EO takes the trick
    first = analyse_play(tout, objective="points").cards[0]
    assert first.card == "E9" and "tout" in first.bonuses_lost and first.grade == "blunder"


KRATZEN_WITH_POT = f"""[Game "Kratzen"]
[Seats "3"]
[Deal "{KRATZEN_DEAL}"]
[Contract "Trump S"]
[Declarer "1"]
[Pot "12"]
[Play "1"]
SU S7 SK
*
"""


def test_a_kratzen_postmortem_counts_chips_and_no_side(tmp_path):
    """Kratzen pays in chips and every seat plays for itself: by the score the post-mortem said "game units of seat
    1" and "cost to the mover's side". SU (the attacker's trump led into SK) costs his target: 2 tricks paid 3
    chips each (pot 12 over 4 tricks) become 1 trick and 2 x 12 into the pot, +6 to -21 (RULES.md 3.4)."""
    path = tmp_path / "k.tbn"
    path.write_text(KRATZEN_WITH_POT, encoding="utf-8")
    by_score = run("postmortem", path, "-o", "score", "--plot", tmp_path / "k.svg")
    for words in ("attacker seat 1's own payment in chips", "cost (chips)", "chips: the attacker's own payment"):
        assert words in by_score.stdout, words
    assert "game units" not in by_score.stdout and "side" not in by_score.stdout
    assert "payment in chips of seat 1" in _svg_text(tmp_path / "k.svg")  # one record: the name given
    document = json.loads(run("postmortem", path, "-o", "score", "--json").stdout)
    first = document["cards"][0]
    assert document["measure"] == first["measure"] == "chips"
    assert (first["card"], first["before"], first["after"], first["cost"]) == ("SU", 6, -21, 27)
    by_tricks = run("postmortem", path).stdout
    assert "each mover's own tricks; cost to the mover)" in by_tricks and "side" not in by_tricks


def test_the_post_mortem_takes_a_time_limit_and_a_stop_event_as_check_bonuses_does(tmp_path):
    """analyse_play (hundreds of searches on a whole deal) takes a time limit and a stop event, and ``stich postmortem``
    a --time-limit, as check_bonuses does: one deadline for every search of the call, SearchStopped past it, by points
    and by the score."""
    import threading

    position = next(p for p in solver.read_positions(EXAMPLES / "schafkopf.tbn") if p.record.get("Board") == "2")
    for objective in ("points", "score"):
        with pytest.raises(solver.SearchStopped, match="time_limit=1e-09"):
            analyse_play(position, objective=objective, time_limit=1e-9)
        stop = threading.Event()
        stop.set()
        with pytest.raises(solver.SearchStopped, match="stop event"):
            analyse_play(position, objective=objective, stop=stop)
    with pytest.raises(solver.SearchStopped):  # stopped between cards too, not only inside a long search
        analyse_play(position, time_limit=0.01)
    ending_play = ending(VALAT_THROWN)
    assert analyse_play(ending_play, time_limit=60, stop=threading.Event()) == analyse_play(ending_play)
    with pytest.raises(solver.InvalidPositionError, match="time_limit must be a number of seconds"):
        analyse_play(ending_play, time_limit=-1)
    stopped = run("postmortem", EXAMPLES / "schafkopf.tbn", "--board", "2", "--time-limit", "0.001",
                  "--plot", tmp_path / "out.svg", code=1)
    assert "board 2: not answered: the time limit (0.001 s) ran out" in stopped.stderr
    assert stopped.stdout == "" and not (tmp_path / "out.svg").exists()
    answered = run("postmortem", _ending_file(tmp_path), "--json", "--time-limit", "60")
    assert json.loads(answered.stdout)["cards"]


def test_the_tree_takes_a_time_limit_and_a_stop_event_as_check_bonuses_does(tmp_path):
    """strategy_tree (a search a node) takes a time limit and a stop event, and ``stich tree`` a --time-limit, as
    check_bonuses does: one deadline for every search of the call, by points and by the score, SearchStopped past it and
    nothing written."""
    import threading

    position = ending()
    for objective in (None, "score"):
        with pytest.raises(solver.SearchStopped, match="time_limit=1e-09"):
            strategy_tree(position, 2, objective=objective, time_limit=1e-9)
        stop = threading.Event()
        stop.set()
        with pytest.raises(solver.SearchStopped, match="stop event"):
            strategy_tree(position, 2, objective=objective, stop=stop)
        limited = strategy_tree(position, 2, objective=objective, time_limit=60, stop=threading.Event())
        assert nx.utils.graphs_equal(limited, strategy_tree(position, 2, objective=objective))
    with pytest.raises(solver.InvalidPositionError, match="time_limit must be a number of seconds"):
        strategy_tree(position, 1, time_limit=float("nan"))
    out = tmp_path / "tree.json"
    stopped = run("tree", EXAMPLES / "schafkopf.tbn", "--depth", 3, "--out", out, "--time-limit", "0.001", code=1)
    assert "board 1: nothing written: the time limit (0.001 s) ran out" in stopped.stderr and not out.exists()
    run("tree", EXAMPLES / "schafkopf.tbn", "--depth", 1, "--out", out, "--time-limit", "60")
    assert out.exists()


def test_the_pair_searches_run_on_the_engine_the_time_limit_stops(monkeypatch):
    """The searches of two bonuses together run on this thread's shared settlement engine, the one the time limit and
    the stop event are put on (not on a settlement engine made for the shared points engine, which ignores both)."""
    from solver import postmortem
    from solver.score_objective import settlement_engine_for

    searchers = []
    made = postmortem._Together.__init__

    def recording(self, engine):
        made(self, engine)
        searchers.append(self.searcher)

    monkeypatch.setattr(postmortem._Together, "__init__", recording)
    position = next(solver.read_positions(EXAMPLES / "pagat_ultimo.tbn"))
    analyse_play(position, time_limit=600)
    assert searchers == [settlement_engine_for(None)]


# A Rufer played to the end (random cards from `stich match`, seed 1): the defenders hand the game to 1+2 twice,
# seat 1 loses it once in between.
RUFER_SWINGS = """[Game "Schafkopf"]
[Board "1"]
[Deal "1: EZ EK EU GZ GK HA H8 H7 / EA G8 G7 H9 SZ SO SU S7 / EO E9 GA GO GU G9 HK SK / E8 E7 HZ HO HU SA S9 S8"]
[Contract "Rufer E"]
[Declarer "1"]
[Play "1"]
GZ G7 G9 SA
H7 SO EO HU
HK HO H8 SU
S9 EZ SZ SK
H9 GO HZ HA
E9 E7 EK EA
S7 GU S8 EU
GK G8 GA E8
*
"""


def test_the_text_names_the_cards_after_which_the_game_changed_hands(tmp_path):
    """Each card that lost the game for its own side or handed it to the other is named in words under the table, not
    only by the JSON's game_changes and the plot's diamonds (which leave a reader to find the row where ``before`` and
    ``after`` fall on either side of the line). Checked by hand with ``stich solve --cards`` before the cards: before SA
    (card 4) seat 4's HZ/HU/HO keep 1+2 at -8, SA gives them +8 (61 points reached: a won Rufer with three Laufende, 2 x
    4); H7 (card 5) drops it to -8 again where EZ/EK/GK keep it; before S9 (card 13) only HZ holds 1+2 to -8."""
    path = tmp_path / "rufer.tbn"
    path.write_text(RUFER_SWINGS, encoding="utf-8")
    document = json.loads(run("postmortem", path, "--json").stdout)
    assert [(c["before"], c["after"], c["cost"]) for c in document["cards"][3:5]] == [(-8, 8, 16), (8, -8, 16)]
    assert document["game_changes"] == [{"number": 4, "won": True}, {"number": 5, "won": False},
                                        {"number": 13, "won": True}]
    text = run("postmortem", path).stdout
    assert "Game (double dummy): lost for 1+2, from the start" in text
    assert "card 4 (trick 1): seat 4's SA handed it to 1+2" in text
    assert "card 5 (trick 2): seat 1's H7 lost it" in text
    assert "card 13 (trick 4): seat 4's S9 handed it to 1+2" in text
    kratzen = tmp_path / "k.tbn"
    kratzen.write_text(KRATZEN_WITH_POT, encoding="utf-8")
    chips = run("postmortem", kratzen, "-o", "score").stdout
    assert "Target (double dummy): made for attacker seat 1, from the start" in chips
    assert "card 1 (trick 1): seat 1's SU missed it" in chips
    # a Tout graded by points has no game line on its curve (120 points need not be every trick): nothing said
    tout = run("postmortem", EXAMPLES / "schafkopf.tbn", "--board", "4", "-o", "points").stdout
    assert "(double dummy)" not in tout


def test_a_notebook_and_print_say_where_the_game_changed_hands_as_the_command_does(tmp_path):
    """The lines under the card table that name the cards after which the game changed hands are the library's
    (``game_change_lines``), so that Jupyter's view of a PlayAnalysis, ``print()`` of it and the command, which show the
    same card table, all say them."""
    from solver.postmortem import game_change_lines, game_change_text

    path = tmp_path / "rufer.tbn"
    path.write_text(RUFER_SWINGS, encoding="utf-8")
    analysis = analyse_play(next(iter(solver.read_positions(path))), objective="score")
    expected = ["Game (double dummy): lost for 1+2, from the start",
                "  card 4 (trick 1): seat 4's SA handed it to 1+2",
                "  card 5 (trick 2): seat 1's H7 lost it",
                "  card 13 (trick 4): seat 4's S9 handed it to 1+2"]
    assert game_change_text(analysis.as_dict()) == expected
    assert game_change_lines(analysis.as_dict())[1] == ("  card 4 (trick 1): seat 4's ", "SA", " handed it to 1+2")
    assert str(analysis).splitlines()[-4:] == expected  # after the card lines
    html = analysis._repr_html_()
    assert '<p style="font-weight:bold">Game (double dummy): lost for 1+2, from the start</p>' in html
    assert "<p>  card 13 (trick 4): seat 4&#x27;s S9 handed it to 1+2</p>" in html
    assert html.index("Game (double dummy)") < html.index("Per seat")
    text = run("postmortem", path).stdout.splitlines()
    assert text[text.index(expected[0]):text.index(expected[0]) + 4] == expected  # the command's words alike
    # where nothing has a game line (a Tout graded by points), none of them says anything
    tout = analyse_play(next(p for p in solver.read_positions(EXAMPLES / "schafkopf.tbn")
                             if p.record.get("Board") == "4"))
    assert tout.game_line is None and "Game (double dummy)" not in str(tout) + tout._repr_html_()


# A Normal game played to the end (random cards, `stich match` seed 3): seat 1 announced Absolut (forehand calls
# T20, held by seat 3), seat 4 said Kontra on it. The defenders hold the game until seat 4's T19 at card 31.
ZR_ABSOLUT_KONTRA = """[Game "Zwanzigerrufen"]
[Board "2"]
[Deal "1: T18 T9 T7 T6 T4 SQ CJ CG HJ DG / T17 T14 T11 T10 SK SN SJ HK DQ DN / \
T21 T20 T16 T12 T8 T1 CN HQ HN DJ / TS T19 T15 T13 T5 SG CK CQ HG DK"]
[Contract "Normal T20"]
[Declarer "1"]
[Announcements "1: Absolut; 4: Kontra Absolut"]
[Play "1"]
T18 T14 T16 TS
SG SQ SK T1
HN HG HJ HK
DN DJ DK DG
T13 T9 T10 T8
T15 T4 T11 T20
CN CQ CJ T17
DQ T21 T19 T7
HQ T5 T6 SN
CG SJ T12 CK
*
"""


def test_by_the_score_a_zwanzigerrufen_game_that_changes_hands_is_named(tmp_path):
    """Graded by the score (the default) a Zwanzigerrufen post-mortem says where the game changed hands, though the
    settlement scores the game apart from its bonuses (RULES.md 1.7), so it has no line: seat 4's T19 (card 31) gives
    1+3 their 45 points, read on the points' curve, and is in game_changes. The costs follow 1.7: the announced Absolut
    fails with seat 4's Kontra (2 x 2 = 4 a seat) and the game is 1 a seat, so the side's total is -2 - 8 = -10 before
    T19 and +2 - 8 = -6 after it (`stich solve --cards` before T19: T5 keeps -10, T19 gives -6)."""
    from test_cli import SCHEMA, schema_errors

    path = tmp_path / "zr.tbn"
    path.write_text(ZR_ABSOLUT_KONTRA, encoding="utf-8")
    document = json.loads(run("postmortem", path, "--json").stdout)
    assert schema_errors(document, SCHEMA) == []
    card = document["cards"][30]
    assert (card["seat"], card["card"], card["before"], card["after"], card["cost"], card["best_cards"]) == (
        4, "T19", -10, -6, 4, ["T5"])
    assert document["winning"] is None and document["points_winning"] == {"name": "game", "value": 45}
    assert document["points_curve"][30] < 45 <= document["points_curve"][31]
    assert document["game_changes"] == [{"number": 31, "won": True}]
    text = run("postmortem", path).stdout
    assert "Game (double dummy): lost for 1+3, from the start" in text
    assert "card 31 (trick 8): seat 4's T19 handed it to 1+3" in text
    plot = run("postmortem", path, "--plot", tmp_path / "zr.svg")
    assert "game-31" in _svg_ids(tmp_path / "zr.svg") and "T19 (-4); game won" in _svg_text(tmp_path / "zr.svg")
    assert "winning-label" not in _svg_ids(tmp_path / "zr.svg")  # no line drawn on the score's scale
    assert plot.exit_code == 0


def test_under_tie_44_no_score_the_game_line_is_left_out(tmp_path):
    """With ``tie_44=no_score`` 44:44 scores nothing (RULES.md 1.1: the game item has no winner), so a game line at 45
    would say that HK, taking seat 1 from 61 to 44, lost the game, and would not name a card taking 44 to 43, which
    does. 45 is not where the game changes hands there: no line and no game changes, on the points' curve and, by the
    score, on the points' curve the game item is read on."""
    tied = solver.make_position("zwanzigerrufen", VALAT_ENDING, "Solo", declarer=1, leader=1, play=VALAT_THROWN,
                                variant="tie_44=no_score")
    analysis = analyse_play(tied)
    assert analysis.curve[:5] == (61, 44, 44, 44, 45)
    assert analysis.winning is None and analysis.game_changes == ()
    # nor a game mark among the thresholds, drawn as a line at 45
    assert analysis.thresholds == (("absolut_against", 33), ("absolut", 56), ("valat (all tricks)", 61))
    assert ("game", 45) in analyse_play(ending(VALAT_THROWN)).thresholds
    assert analyse_play(ending(VALAT_THROWN)).game_changes == ((1, False), (4, True))  # declarers_lose, the default
    path = tmp_path / "zr.tbn"
    path.write_text(ZR_ABSOLUT_KONTRA.replace('[Board "2"]', '[Board "2"]\n[Variant "tie_44=no_score"]'),
                    encoding="utf-8")
    document = json.loads(run("postmortem", path, "--json").stdout)
    assert document["winning"] is None and "points_winning" not in document and document["game_changes"] == []
    assert "Game (double dummy)" not in run("postmortem", path).stdout
    assert not any(mark["name"] == "game" for mark in document["thresholds"])


def test_a_drawn_game_total_is_what_leaves_the_game_line_out():
    """A game line decides the game both ways only where no total is drawn: where a 44:44 scores nothing, a card
    taking the declarers from 45 to 44 did not lose the game. So ``game_line_decides`` follows ``drawn_game_total``:
    a game that states only its drawn total (a Schafkopf made so here) draws no game line, and Zwanzigerrufen's two
    agree under either ``tie_44``, since one cannot say the line decides while the other says a total is drawn."""
    from solver.games import get_game

    schafkopf = get_game("schafkopf")
    rules = next(iter(solver.read_positions(EXAMPLES / "schafkopf.tbn"))).rules
    drawing = type("DrawingSchafkopf", (schafkopf,), {"drawn_game_total": classmethod(lambda cls, rules: 60)})
    assert schafkopf.game_line_decides(rules) and not drawing.game_line_decides(rules)
    zwanzigerrufen = get_game("zwanzigerrufen")
    for variant, decides in (("tie_44=no_score", False), ("tie_44=declarers_lose", True)):
        tied = solver.make_position("zwanzigerrufen", VALAT_ENDING, "Solo", declarer=1, leader=1,
                                    variant=variant).rules
        assert zwanzigerrufen.game_line_decides(tied) is decides
        assert (zwanzigerrufen.drawn_game_total(tied) is None) is decides


def test_the_game_line_is_chosen_in_one_place():
    """The choice "``winning`` on the curve, else ``points_winning`` on the points' curve" is made in one place for
    game_changes, the plot, the board's curve and the text's lines from the JSON document: ``PlayAnalysis.game_line``
    and, on the document, ``document_game_line``, which agree."""
    from dataclasses import replace

    from solver.postmortem import document_game_line

    points = analyse_play(ending(VALAT_THROWN))
    assert points.game_line == ("game", 45, points.curve)
    assert document_game_line(points.as_dict()) == ({"name": "game", "value": 45}, list(points.curve))
    scored = replace(points, curve=(0, -4, -4, -4, 2), points_curve=points.curve[:5], winning=None,
                     points_winning=("game", 45))
    assert scored.game_line == ("game", 45, points.curve[:5]) and scored.game_changes == ((1, False), (4, True))
    assert document_game_line(scored.as_dict()) == ({"name": "game", "value": 45}, list(points.curve[:5]))
    neither = replace(scored, points_winning=None)
    assert neither.game_line is None and neither.game_changes == () and document_game_line(neither.as_dict()) is None


def test_a_schafkopf_ending_by_the_score_borrows_no_game_line_from_its_points():
    """Board 6 of examples/schafkopf.tbn, a 2-trick ending graded by the score (no settlement line: its Schwarz goes to
    whoever took every trick), has no ``points_winning`` of 61 and does not say "Game (double dummy): lost for 1+2, from
    the start": the ending's 33 points can never reach 61 and the points before it are unknown. Only a game whose game
    item is read on the points' line (``Game.game_item_on_points``: Zwanzigerrufen, whose settlement scores the game
    apart from its bonuses) borrows it."""
    document = json.loads(run("postmortem", EXAMPLES / "schafkopf.tbn", "-b", "6", "--json").stdout)
    assert document["winning"] is None and "points_winning" not in document and document["game_changes"] == []
    assert "Game (double dummy)" not in run("postmortem", EXAMPLES / "schafkopf.tbn", "-b", "6").stdout
    assert solver.get_game("zwanzigerrufen").game_item_on_points(ending().rules)
    whole = next(solver.read_positions(EXAMPLES / "schafkopf.tbn"))
    assert not solver.get_game("schafkopf").game_item_on_points(whole.rules)


def test_an_ending_s_game_line_says_it_is_read_on_the_ending_s_own_cards(tmp_path):
    """Board 6 of examples/schafkopf.tbn, a 2-trick ending of 33 points graded by points: "Game (double dummy): lost for
    1+2, from the start" against the whole deal's 61 reads as if the declarers had lost the deal, whose points before
    the ending are unknown. The line is right as the ending is scored (docs/scoring.md: an ending is scored as a whole
    deal would be, on the cards it holds; docs/rules.md, Reading 2: a small ending's game is lost), so it stays and says
    so: the text, the plot's line and the JSON's ``whole_deal``."""
    from test_cli import SCHEMA, schema_errors

    board6 = ("postmortem", EXAMPLES / "schafkopf.tbn", "-b", "6", "-o", "points")
    document = json.loads(run(*board6, "--json").stdout)
    assert schema_errors(document, SCHEMA) == []
    assert document["whole_deal"] is False and document["winning"] == {"name": "game", "value": 61}
    assert document["curve"] == [33, 33] and document["game_changes"] == []
    text = run(*board6).stdout
    assert "Game (double dummy, on the ending's own cards): lost for 1+2, from the start" in text
    run(*board6, "--plot", tmp_path / "b6.svg")
    assert "game won at \u2265 61 (on the ending's own cards)" in _svg_text(tmp_path / "b6.svg")
    # its marks above the ending's scale (Schneider's 91) are not drawn: their names stood over the title
    ids = _svg_ids(tmp_path / "b6.svg")
    assert "threshold-schneider_against" in ids and "threshold-schneider" not in ids
    assert "schneider 91" not in _svg_text(tmp_path / "b6.svg")
    # a Zwanzigerrufen ending says it too; its line (45 of the ending's 61 points) and its changes are as they were
    analysis = analyse_play(ending(VALAT_THROWN))
    assert not analysis.whole_deal and analysis.winning == ("game", 45)
    assert analysis.game_changes == ((1, False), (4, True))
    assert str(analysis).splitlines()[-3:] == [
        "Game (double dummy, on the ending's own cards): won for seat 1, from the start",
        "  card 1 (trick 1): seat 1's \u2665K lost it", "  card 4 (trick 1): seat 4's \u2665J handed it to seat 1"]
    # a whole deal's line is the game's own, said as before
    whole = json.loads(run("postmortem", EXAMPLES / "schafkopf.tbn", "-b", "7", "-o", "points", "--json").stdout)
    assert whole["whole_deal"] is True
    assert "Game (double dummy): lost for 1+3, from the start" in run(
        "postmortem", EXAMPLES / "schafkopf.tbn", "-b", "7", "-o", "points").stdout


def test_the_plot_s_legend_says_whose_cost_a_label_s_minus_is(tmp_path):
    """Seat 4's SA (card 4) raises 1+2's line from -8 to +8 and is labelled ``SA (-16)`` (its cost to 3+4): the legend
    says that the minus is the mover's side's loss and not the line's move; a Kratzen plot, whose line is the
    attacker's, says whose tricks the cost counts."""
    from solver.plot import cost_sign_note

    path = tmp_path / "rufer.tbn"
    path.write_text(RUFER_SWINGS, encoding="utf-8")
    analysis = analyse_play(next(iter(solver.read_positions(path))), objective="score")
    card = analysis.cards[3]
    assert (card.seat, card.card, card.cost) == (4, "SA", 16) and analysis.curve[3:5] == (-8, 8)
    write_plot(analysis, tmp_path / "rufer.svg")
    text = _svg_text(tmp_path / "rufer.svg")
    assert "SA (-16); game won" in text
    assert "(-N): what the card cost its player's side" in text and "(a defender's raises the line)" in text
    kratzen = tmp_path / "k.tbn"
    kratzen.write_text(KRATZEN_WITH_POT, encoding="utf-8")
    tricks = analyse_play(next(iter(solver.read_positions(kratzen))))
    assert tricks.measure == "tricks" and any(card.cost for card in tricks.mistakes)
    assert cost_sign_note(tricks) == "(-N): the tricks the card cost its player\n(the line is the attacker's)"
    # by the score, in the text tables' words: another seat's card added to the attacker's payment
    chips = analyse_play(next(iter(solver.read_positions(kratzen))), objective="score")
    assert chips.measure == "chips" and cost_sign_note(chips) == (
        "(-N): what the card cost the attacker,\nor what another seat's card added\nto the attacker's payment")
    # a play in which no card cost anything has no (-N) to explain
    calm = analyse_play(ending(solver.solve(ending(), "points", line=True).line_names()))
    write_plot(calm, tmp_path / "calm.svg")
    assert calm.cards and not any(card.cost for card in calm.cards)
    assert "(-N)" not in _svg_text(tmp_path / "calm.svg")


def test_the_kratzen_plot_names_the_attacker_as_the_text_does(tmp_path):
    """The plot's title and legend name the attacker, as the text's header does ("Kratzen Trump S, attacker 1"; RULES.md
    3.2: seat 1 is the attacker, the Schlaeger), not "declarer 1" and "seat 1 (declarer)"."""
    path = tmp_path / "k.tbn"
    path.write_text(KRATZEN_WITH_POT, encoding="utf-8")
    (position,) = solver.read_positions(path)
    text = _svg_text(write_plot(analyse_play(position), tmp_path / "k.svg"))
    assert "Kratzen Trump S, attacker 1" in text and "attacker seat 1" in text
    assert "declarer" not in text
    rufer = tmp_path / "r.tbn"
    rufer.write_text(RUFER_SWINGS, encoding="utf-8")
    (position,) = solver.read_positions(rufer)
    schafkopf = _svg_text(write_plot(analyse_play(position), tmp_path / "r.svg"))
    assert "Schafkopf Rufer E, declarer 1" in schafkopf and "declarer seat 1" in schafkopf


def test_the_text_says_what_each_grade_means_in_its_measure(tmp_path):
    """A line under the card table says where the grades of its measure lie (by the score a card of cost 4 is a blunder
    and one of cost 3 a mistake), read from the same tables grade() uses, so that a reader need not look it up in
    docs/postmortem.md."""
    from solver.postmortem import grade_note

    assert grade_note("game units") == "grades in game units: inaccuracy 1, mistake 2-3, blunder 4+"
    assert grade_note("points") == "grades in points: inaccuracy 1-5, mistake 6-14, blunder 15+ or a bonus lost"
    assert grade_note("tricks") == "grades in tricks: mistake 1, blunder 2+ or the mover's own target missed"
    assert grade_note("chips") == "grades in pot/4 chips (at least 1): inaccuracy under 1, mistake 1, blunder 2+"
    # the words agree with grade() at every edge
    assert [grade(cost, "game units", False) for cost in (1, 2, 3, 4)] == ["inaccuracy", "mistake", "mistake",
                                                                        "blunder"]
    assert [grade(cost, "points", False) for cost in (5, 6, 14, 15)] == ["inaccuracy", "mistake", "mistake",
                                                                       "blunder"]
    assert [grade(cost, "chips", False, payout=3) for cost in (2, 3, 6)] == ["inaccuracy", "mistake", "blunder"]
    assert all(len(grade_note(m)) <= 80 for m in ("game units", "points", "tricks", "chips"))
    path = tmp_path / "rufer.tbn"
    path.write_text(RUFER_SWINGS, encoding="utf-8")
    assert grade_note("game units") in run("postmortem", path).stdout
    assert grade_note("points") in run("postmortem", path, "-o", "points").stdout


def test_a_narrow_table_that_still_does_not_fit_puts_its_columns_one_space_apart(tmp_path, monkeypatch):
    """At COLUMNS=66 the narrow layout does not fit the card table, its bonuses lost below it as a note: its columns
    are one space apart, 66 columns, every value whole, not its natural width, then its least."""
    path = tmp_path / "rufer.tbn"
    path.write_text(RUFER_SWINGS, encoding="utf-8")
    monkeypatch.setenv("COLUMNS", "66")
    for objective in ("score", "points"):
        text = run("postmortem", path, "-o", objective).stdout
        tables = text[text.index("Every card"):].splitlines()
        widths = [len(line.rstrip()) for line in tables if not line.startswith(("game units:", "grades in"))]
        assert max(widths) <= 66, objective
        assert "Schneider" in text and "(handed" in text and "┃" not in text
        header = next(line for line in tables if line.lstrip().startswith("# trick"))
        assert header.startswith(" # trick seat card before after cost "), (objective, header)  # one space apart
        first = next(line for line in tables if line.lstrip().startswith("1 "))
        assert first.split()[:6] == ["1", "1", "1", "GZ", *{"score": ["-8", "-10"], "points": ["56", "25"]}[objective]]
        for name in ("#", "trick", "seat", "before", "after"):  # each number right under its header's end
            end = header.index(f" {name} ") + 1 + len(name)
            assert first[end - 1] != " " and first[end] == " ", (objective, name, first)
    monkeypatch.setenv("COLUMNS", "200")
    assert "┃ before ┃ best ┃ after ┃" in run("postmortem", path).stdout


@pytest.mark.parametrize("width", [54, 56, 57, 58, 59, 60, 62])
def test_a_narrow_card_table_never_cuts_a_grade(tmp_path, monkeypatch, width):
    """At COLUMNS=58 the card table by the score (its least width 59 with its words whole) keeps its grades whole, not
    ``mistak`` over ``e``: the table takes ``lost`` for ``bonus lost`` where its bonuses are notes below it, and fits 58
    columns; narrower, it is printed at that least width, every word whole."""
    from solver.postmortem import GRADES

    path = tmp_path / "rufer.tbn"
    path.write_text(RUFER_SWINGS, encoding="utf-8")
    monkeypatch.setenv("COLUMNS", str(width))
    for objective, at in (("score", 8), ("points", 7)):
        text = run("postmortem", path, "-o", objective).stdout
        lines = text[text.index("Every card"):text.index("\n[1] ")].splitlines()
        rule = next(index for index, line in enumerate(lines) if line.startswith("─"))
        assert max(len(line) for line in lines) <= max(width, 58), (objective, width)
        rows = {line.split()[0]: line.split() for line in lines[rule + 1:] if line[:2].strip().isdigit()}
        assert len(rows) == 32, (objective, width)
        assert [rows[number][at] for number in ("1", "2", "3", "4", "5")] == (
            ["mistake", "ok", "mistake", "blunder", "blunder"] if objective == "score" else
            ["blunder", "ok", "blunder", "blunder", "mistake"]), (objective, width)
        words = {word for line in lines[rule + 1:] for word in line.split() if word.isalpha() and word.islower()}
        assert words <= set(GRADES), (objective, width, words)  # no piece of a folded grade


def test_a_table_fits_where_its_least_width_does():
    """``fits`` repeated ``least_width``'s measuring: it is that width against the console's, at each side of it."""
    from rich.console import Console
    from rich.table import Table

    from cli.render import fits, least_width

    table = Table("seat", "bonuses lost")
    table.add_row("1", "schneider_against (handed over)")
    least = least_width(Console(width=200), table)
    assert fits(Console(width=least), table) and not fits(Console(width=least - 1), table)


def test_the_readmes_postmortem_example_is_what_the_command_prints(monkeypatch, tmp_path):
    """Each line README's post-mortem example shows (an excerpt) is a line of the output, in its order: the grades'
    line, which the command prints between the card table and the game's lines, is not left out between them."""
    readme = (EXAMPLES.parent / "README.md").read_text(encoding="utf-8")
    command = "stich postmortem examples/schafkopf.tbn --board 7 --objective points"
    block = readme[readme.index(command):].split("```", 3)[2].strip("\n").splitlines()
    monkeypatch.setenv("COLUMNS", "110")
    output = run("postmortem", EXAMPLES / "schafkopf.tbn", "--board", "7", "--objective", "points",
                 "--plot", tmp_path / "value.png").stdout.splitlines()
    output = [line.rstrip() for line in output]  # a title is padded to the table's width
    positions = [output.index(line) for line in block]
    assert positions == sorted(positions)
    assert "grades in points: inaccuracy 1-5, mistake 6-14, blunder 15+ or a bonus lost" in block


def test_the_kratzen_legend_names_its_cross_a_target_not_a_bonus(tmp_path):
    """Kratzen has no bonuses, only each seat's own trick target (RULES.md 3.3), so the legend explains the cross on the
    attacker's lost target as a target, not as "bonus thrown away or handed over"."""
    position = solver.make_position("kratzen", KRATZEN_DEAL, "Trump S", declarer=1, play="SU S7 SK")
    analysis = analyse_play(position)
    assert analysis.cards[0].bonuses_lost == ("target",)
    text = _svg_text(write_plot(analysis, tmp_path / "k.svg"))
    assert "the player's own target lost" in text and "bonus thrown away" not in text
    zr = _svg_text(write_plot(analyse_play(ending(VALAT_THROWN)), tmp_path / "zr.svg"))
    assert "bonus thrown away or handed over" in zr


def test_the_plot_names_the_cards_as_the_tables_do(monkeypatch):
    """The plot named a French pack's cards as the file types them (``CQ``) beside tables that show ``♣Q``: it names
    them as the tables do where its fonts draw the signs (matplotlib's own DejaVu fonts do), and by their names where
    they do not; a German pack's cards keep their names, as in its tables."""
    import solver.plot
    from solver.plot import plot_figure

    def ticks(game: str, board: str) -> list[str]:
        position = next(p for p in solver.read_positions(EXAMPLES / game) if p.record.get("Board") == board)
        (axes,) = plot_figure(analyse_play(position)).axes
        return [label.get_text() for label in axes.get_xticklabels()]

    assert solver.plot.fonts_draw_suit_signs()
    assert ticks("zwanzigerrufen.tbn", "2")[1:7] == ["1: T21", "2: TS", "3: T4", "4: T8", "2: ♣Q", "3: T5"]
    assert ticks("schafkopf.tbn", "7")[1:3] == ["1: GO", "2: EO"]
    monkeypatch.setattr(solver.plot, "fonts_draw_suit_signs", lambda: False)
    assert ticks("zwanzigerrufen.tbn", "2")[5] == "2: CQ"


def test_a_pair_lost_together_is_labelled_in_the_table_s_words_and_stays_inside_the_axes():
    """Board 6 of the examples (a one-trick ending): HK hands over Valat against and the Pagat together. The plot says
    it in the table's words (`Valat against + Pagat Ultimo together`, not the JSON's name), folded where it is wider
    than half the axes, inside them, not on one line running out over the legend."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from solver.plot import plot_figure

    position = next(p for p in solver.read_positions(EXAMPLES / "zwanzigerrufen.tbn") if p.record.get("Board") == "6")
    analysis = analyse_play(position, objective="score")
    assert analysis.cards[0].bonuses_lost == ("valat_against+pagat_ultimo",)
    figure = plot_figure(analysis)
    canvas = FigureCanvasAgg(figure)
    canvas.draw()
    (axes,) = figure.axes
    (label,) = [text for text in axes.texts if text.get_gid() == "label-1"]
    assert label.get_text() == "♥K (-2):\nValat against + Pagat\nUltimo together handed\nover"
    box, frame = label.get_window_extent(canvas.get_renderer()), axes.get_window_extent(canvas.get_renderer())
    assert frame.x0 <= box.x0 and box.x1 <= frame.x1 and frame.y0 <= box.y0 and box.y1 <= frame.y1


def test_a_label_set_apart_from_its_card_has_a_line_leading_to_it(tmp_path):
    """Where the line is in the way a card's label goes further out (up to 57 points from its card), where it can
    sit under another card: on board 7 of the examples HK's label stood nearer other cards than its own. A label
    set more than NEAR_LABEL points apart gets a thin line to its card (gid leader-N); a near one has none."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from solver.plot import NEAR_LABEL, plot_figure

    position = next(p for p in solver.read_positions(EXAMPLES / "schafkopf.tbn") if p.record.get("Board") == "7")
    figure = plot_figure(analyse_play(position))
    FigureCanvasAgg(figure).draw()
    (axes,) = figure.axes
    far = {text.get_gid().removeprefix("label-") for text in axes.texts
           if (text.get_gid() or "").startswith("label-") and abs(text.xyann[1]) > NEAR_LABEL}
    leaders = {text.get_gid().removeprefix("leader-") for text in axes.texts
               if (text.get_gid() or "").startswith("leader-")}
    assert far and leaders == far
    assert "leader-" in "".join(_svg_ids(write_plot(analyse_play(position), tmp_path / "sk.svg")))


SEEDED_RUFER = """[Game "Schafkopf"]
[Deal "1: GZ GU G9 H8 SA SU S8 S7 / EZ EU E9 GK GO HK HU SZ / EK E8 GA G8 G7 HZ H7 SK / EA EO E7 HA HO H9 SO S9"]
[Contract "Rufer G"]
[Declarer "1"]
[Play "1"]
G9 GK GA EO
HO H8 HU H7
E7 GZ E9 EK
HZ H9 GU HK
S7 SZ SK S9
EU E8 HA SU
EZ G7 EA S8
SO SA GO G8
*
"""


def test_a_label_keeps_off_the_threshold_lines(tmp_path):
    """`stich deal -g schafkopf -s 11` board 2, played at random and graded by points: the label of HZ (card 13, `HZ
    (-23); game lost`) is not written across the game's line at 61, struck through by it. The lines drawn across the
    plot are avoided as the value line is, where a place off them is free."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from solver.plot import plot_figure

    path = tmp_path / "r.tbn"
    path.write_text(SEEDED_RUFER, encoding="utf-8")
    (position,) = solver.read_positions(path)
    analysis = analyse_play(position)
    assert analysis.winning == ("game", 61) and (13, False) in analysis.game_changes
    figure = plot_figure(analysis)
    canvas = FigureCanvasAgg(figure)
    canvas.draw()
    (axes,) = figure.axes
    heights = [axes.transData.transform((0, value))[1] for _, value in analysis.thresholds]
    for text in axes.texts:
        if (text.get_gid() or "").startswith("label-"):
            box = text.get_window_extent(canvas.get_renderer())
            assert not any(box.y0 < height < box.y1 for height in heights), text.get_text()


def test_a_kratzen_post_mortem_prints_whose_tricks_each_card_is_valued_by():
    """print(analysis) of a Kratzen post-mortem headed its lines "tricks of seat 1" while each card's values are its
    mover's own tricks (seat 2's S7: 1 -> 1, where seat 1 keeps 2), as stich postmortem's table says; graded by the
    score they are the attacker's payment in chips."""
    position = solver.make_position("Kratzen", "1: EO E9 SU SZ / GA HA HU S7 / EK G8 HO SK", "Trump S",
                                    play="EO S7 EK GA G8 SU E9 HA SK HO SZ HU")
    lines = str(analyse_play(position)).splitlines()
    assert lines[0] == "Kratzen Trump S, attacker 1: each mover's own tricks"
    assert lines[1].split()[4:9] == ["1", "EO", "2", "->", "2"] and lines[2].split()[4:9] == ["2", "S7", "1", "->", "1"]
    assert str(analyse_play(position, objective="score")).splitlines()[0] == \
        "Kratzen Trump S, attacker 1: attacker seat 1's own payment in chips"


def _played_by_cheaters(play: list[str], pot: bool) -> solver.Position:
    """The Kratzen deal after ``play`` (with a pot of 8 where ``pot``), played to the end by a double-dummy bot in
    every seat playing for the score (with the pot) or its own tricks."""
    from solver.bots import CheaterBot

    text = solver.make_position("kratzen", KRATZEN_DEAL, "Trump S", declarer=1, play=play).to_tbn()
    (position,) = solver.parse_positions(text.replace("[Declarer", '[Pot "8"]\n[Declarer') if pot else text)
    bot = CheaterBot(plays_for="score" if pot else "points")
    while position.to_move is not None:
        position = position.play(bot.choose(position))
    return position


@pytest.mark.parametrize("objective, library, measure", [("tricks", "points", "tricks"), ("score", "score", "chips")])
def test_a_deal_in_which_no_card_cost_anything_says_so(tmp_path, objective, library, measure):
    """A deal played card for card as double-dummy play would has a line saying no card cost anything, in the command,
    in print() and in Jupyter's view (a table of 'ok' and the game's 'no card changed that' says only that the game
    stayed), and a deal with a costly card has no such line."""
    position = _played_by_cheaters([], pot=objective == "score")
    played = tmp_path / "played.tbn"
    played.write_text(position.to_tbn(), encoding="utf-8")
    document = json.loads(run("postmortem", played, "--json", "-o", objective).stdout)
    assert len(document["cards"]) == 12 and {card["cost"] for card in document["cards"]} == {0}
    line = f"every card kept the double-dummy value: none cost anything in {measure}"
    assert line in run("postmortem", played, "-o", objective).stdout.splitlines()
    analysis = analyse_play(position, objective=library)  # the library's 'points' are Kratzen's tricks
    assert line in str(analysis).splitlines() and line in analysis._repr_html_()
    played.write_text(_played_by_cheaters(["SU"], pot=objective == "score").to_tbn(), encoding="utf-8")
    text = run("postmortem", played, "-o", objective).stdout
    assert "blunder" in text and "every card kept" not in text


TOUT_LOST_IN_TRICK_1 = ('[Game "Schafkopf"]\n[Board "9"]\n'
                        '[Deal "1: EO GO HO SO EU GU HU EA / SU EZ EK GA GZ GK G9 G8 / E9 E8 HA HZ HK H9 H8 H7 / '
                        'E7 G7 SA SZ SK S9 S8 S7"]\n[Contract "SoloTout E"]\n[Declarer "1"]\n[Play "1"]\nEA SU E9 E7\n')


def test_a_play_that_goes_on_after_the_rules_end_the_deal_is_said(tmp_path):
    """A Tout ends at the first trick its declarer loses (RULES.md 2.5), and ``stich score`` says so; a Play section
    that goes on past it is graded card for card with a word: stderr says where the deal ended and that the cards after
    it are graded as if it went on; a Tout stopped at its lost trick says nothing."""
    record = tmp_path / "tout.tbn"
    record.write_text(TOUT_LOST_IN_TRICK_1 + "GA HA G7 EO\n*\n", encoding="utf-8")
    result = run("postmortem", record, "--json")
    document = json.loads(result.stdout)
    assert len(document["cards"]) == 8 and document["cards"][0]["cost"] == 144  # EA gives the Tout away: 72 to -72
    assert result.stderr == (f"stich: {record}:1: board 9: the rules end this deal after card 4 (trick 1), where "
                             "stich score scores it; the 4 cards played after that are graded as if it went on\n")
    assert document["settled_after"] == {"card": 4, "trick": 1}  # the JSON says it too, not only stderr
    record.write_text(TOUT_LOST_IN_TRICK_1 + "*\n", encoding="utf-8")
    result = run("postmortem", record)
    assert result.stderr == "" and "card 1 (trick 1): seat 1's EA lost it" in result.stdout
    assert json.loads(run("postmortem", record, "--json").stdout)["settled_after"] is None


def test_a_bonus_lost_at_no_cost_is_not_called_a_card_that_cost_nothing(tmp_path):
    """By points a card that throws a bonus away is a blunder at cost 0 (the Pagat led in trick 7: Pagat Ultimo
    lost, the points kept), and the line under the grades said no card cost anything: it looked at the cost alone."""
    record = tmp_path / "pagat.tbn"
    record.write_text((EXAMPLES / "pagat_ultimo.tbn").read_text(encoding="utf-8").replace(
        "T18 CN T13 T12\n", "T18 CN T13 T12\nT17 SQ T15 T14\n"), encoding="utf-8")
    document = json.loads(run("postmortem", record, "--json", "-o", "points", "--play", "T1").stdout)
    last = document["cards"][-1]
    assert (last["number"], last["card"], last["cost"], last["grade"], last["bonuses_lost"]) == (
        25, "T1", 0, "blunder", ["pagat_ultimo"])
    assert no_cost_line(document) is None
    assert "every card kept" not in run("postmortem", record, "-o", "points", "--play", "T1").stdout


def test_the_graphs_count_is_of_the_cards_that_lost_value_in_its_measure(tmp_path):
    """The board's graph counts the library's cards that lost value (``lost_value_line``, in the graph's document as
    ``lost_line``): the cards whose cost in the measure shown is above 0, those graded by a bonus alone counted apart
    (by card points a card that throws a bonus away is a blunder at cost 0: the pagat ultimo deal's T1, card 25), and
    where no card lost anything the command's own line."""
    from solver.board.session import curve_document

    text = (EXAMPLES / "pagat_ultimo.tbn").read_text(encoding="utf-8").replace(
        "T18 CN T13 T12\n", "T18 CN T13 T12\nT17 SQ T15 T14\n")
    (position,) = solver.parse_positions(text)
    graph = curve_document(analyse_play(position.play_cards(["T1"])))
    blunders = [(card["number"], card["cost"], card["grade"]) for card in graph["cards"] if card["grade"] != "ok"]
    assert blunders == [(25, 0, "blunder")]
    assert graph["lost_line"] == "no card lost card points; 1 card lost a bonus alone, at no cost in card points"
    (board_7,) = [found for found in solver.parse_positions((EXAMPLES / "schafkopf.tbn").read_text(encoding="utf-8"))
                  if found.record is not None and found.record.get("Board") == "7"]
    by_points = analyse_play(board_7)
    assert lost_value_line(by_points.as_dict()) == "10 cards lost card points"
    assert sum(card.cost > 0 for card in by_points.cards) == 10 == len(by_points.mistakes)
    assert curve_document(analyse_play(board_7, objective="score"))["lost_line"] == "2 cards lost game units"
    document = by_points.as_dict()
    thrown = {**document["cards"][0], "cost": 0, "grade": "blunder", "bonuses_lost": ["schneider"]}
    assert (lost_value_line({**document, "cards": [thrown, *document["cards"][1:]]})
            == "9 cards lost card points; 1 more card lost a bonus alone, at no cost in card points")
    (tout,) = solver.parse_positions(TOUT_PLAYED_ON)
    unharmed = curve_document(analyse_play(tout, objective="score"))
    assert unharmed["lost_line"] == "every card kept the double-dummy value: none cost anything in game units"
    assert lost_value_line({**document, "cards": []}) is None


#: A Tout lost from the start (the declarer's G7 loses a trick to seat 2's Gras, whatever he plays), lost in trick
#: 1 and played on to the end; seat 2 wins trick 1 with G8, keeping GA, which falls to the declarer in trick 8
TOUT_PLAYED_ON = ('[Game "Schafkopf"]\n[Board "9"]\n[Variant "solo_requires_plain_trump_card=false"]\n'
                  '[Deal "1: EO GO HO SO EU GU HU G7 / SU EZ EK GA GZ GK G9 G8 / E9 E8 HA HZ HK H9 H8 H7 / '
                  'E7 EA SA SZ SK S9 S8 S7"]\n[Contract "SoloTout E"]\n[Declarer "1"]\n[Play "1"]\n'
                  'G7 G8 HA SA\nSU E8 E7 SO\nHU EK E9 EA\nHO EZ H7 S7\nGU G9 H8 S8\nGO GK H9 S9\nEU GZ HK SK\n'
                  'EO GA HZ SZ\n*\n')


def test_where_the_deal_ended_and_the_card_points_lost_are_in_every_view(tmp_path):
    """The deal's end (``settled_after``) is in the JSON, analyse_play, print(), Jupyter and the board's graph, not only
    on the command's stderr. And by the score a line saying no card cost anything adds the card points a card gave away
    (GO led at once in board 7's Rufer: 9 points, its lost game's score the same). Not in a Tout, whose score the card
    points do not decide: seat 2's G8 keeps GA for the declarer, 11 points of a lost Tout that nobody scores, and no
    points cost is listed."""
    record = tmp_path / "tout.tbn"
    record.write_text(TOUT_PLAYED_ON, encoding="utf-8")
    result = run("postmortem", record, "--json")
    document = json.loads(result.stdout)
    assert not any("points_cost" in card for card in document["cards"]) and "points_curve" not in document
    assert {card["cost"] for card in document["cards"]} == {0} and document["settled_after"] == {"card": 4, "trick": 1}
    settled = ("the rules end this deal after card 4 (trick 1), where stich score scores it; the 28 cards played "
               "after that are graded as if it went on")
    assert result.stderr == f"stich: {record}:1: board 9: {settled}\n"
    line = "every card kept the double-dummy value: none cost anything in game units"
    assert line in run("postmortem", record).stdout.splitlines()
    rufer = tmp_path / "rufer.tbn"
    board_7 = (EXAMPLES / "schafkopf.tbn").read_text(encoding="utf-8").split('[Board "7"]')[1].split("*")[0]
    rufer.write_text('[Game "Schafkopf"]\n[Board "7"]' + board_7.split("SZ SK S7 S8")[0] + "*\n", encoding="utf-8")
    assert (f"{line} (card points lost: 9)" in run("postmortem", rufer).stdout.splitlines())
    (position,) = solver.parse_positions(TOUT_PLAYED_ON)
    analysis = analyse_play(position, objective="score")
    assert analysis.settled_after == (4, 1)
    assert {line, settled} <= set(str(analysis).splitlines())
    assert line in analysis._repr_html_() and settled in analysis._repr_html_()
    from solver.board.session import curve_document

    assert curve_document(analysis)["settled_after"] == {"card": 4, "trick": 1}
    by_points = analyse_play(position)  # by points the line has no card points to add: they are its measure
    assert no_cost_line(by_points.as_dict()) is None and by_points.cards[1].cost == 11


# Kratzen board 3 of examples/kratzen.tbn played out as `stich solve --line` plays it, with a pot of 8: a Muss, no
# trick payouts; the attacker takes one trick of the two he needs and pays 2P whatever he plays. Seat 2's SO in trick
# 3 costs him a trick of his own (he keeps his target: SO's trick is not his only one), not a chip of the attacker's.
KRATZEN_MUSS_PLAYED = ('[Game "Kratzen"]\n[Seats "4"]\n[Pot "8"]\n'
                       '[Deal "1: EU E8 G8 SU / EK G7 SO S7 / S6 EO GK SZ / E7 GZ G9 HU"]\n'
                       '[Contract "Trump H Muss"]\n[Declarer "1"]\n[Play "1"]\n'
                       'EU EK EO E7\nG7 GK GZ G8\nS6 HU E8 SO\nSZ G9 SU S7\n*\n')


def test_kratzen_by_the_score_says_tricks_lost_not_card_points(tmp_path):
    """By the score a line saying no card cost anything adds what the cards cost beside it; Kratzen has no card
    points, and the table's column is ``cost (tricks)``, so the line counts tricks too."""
    record = tmp_path / "muss.tbn"
    record.write_text(KRATZEN_MUSS_PLAYED, encoding="utf-8")
    document = json.loads(run("postmortem", record, "--objective", "score", "--json").stdout)
    assert [card["card"] for card in document["cards"] if card["points_cost"]] == ["SO"]
    assert document["curve"] == [-16] * 17
    line = "every card kept the double-dummy value: none cost anything in chips (tricks lost: 1)"
    assert line in run("postmortem", record, "--objective", "score").stdout.splitlines()
    assert no_cost_line(document) == line


def test_the_bonuses_lost_are_named_as_players_name_them_and_json_keeps_the_objectives(tmp_path, monkeypatch):
    """The "bonus lost" column says the Schneider as ``stich check`` names it (``Game.sided_objective_title``:
    ``Schneider against``, the defenders'), not the objective ``schneider_against``, so a row says whose it was
    without the reader knowing the mover's side; "(handed over)" beside it says it was the opponents'. The JSON, the
    library's fields and a bare ``lost_text`` keep the objectives' names."""
    path = tmp_path / "rufer.tbn"
    path.write_text(RUFER_SWINGS, encoding="utf-8")
    monkeypatch.setenv("COLUMNS", "200")
    text = run("postmortem", path, "-o", "points").stdout
    assert "Schneider against (handed over)" in text and "_against" not in text
    assert solver.games.get_game("Schafkopf").item_title("schneider") == "Schneider"  # the score's name of the item
    document = json.loads(run("postmortem", path, "-o", "points", "--json").stdout)
    assert document["cards"][0]["bonuses_lost"] == ["schneider_against"]
    assert document["cards"][2]["bonuses_lost"] == ["schneider_against"]
    analysis = analyse_play(next(solver.read_positions(path)), objective="points")
    assert str(analysis.cards[0]).endswith("; lost: Schneider against (handed over)")
    assert analysis.players[0].cells()[-1] == "Schneider against (handed over)"
    assert lost_text(("absolut_against",), (), "Zwanzigerrufen") == "Absolut against"
    assert lost_text(("schneider",), (), "Schafkopf") == "Schneider"  # the declarers' own
    assert lost_text(("absolut_against",), ()) == "absolut_against"


KRATZEN_TARGET_GIVEN = """[Game "Kratzen"]
[Seats "3"]
[Deal "1: EO E9 SU SZ / GA HA HU S7 / EK G8 HO SK"]
[Contract "Trump S"]
[Declarer "1"]
[Pot "12"]
[Play "1"]
SU S7 SK
EK EO HA
G8 SZ GA
E9 HU HO
*
"""


def test_a_kratzen_grade_by_chips_says_another_seat_s_cost_is_what_it_added_to_the_attacker(tmp_path, monkeypatch):
    """By the score in Kratzen seat 3's EK, which lets the attacker make his target, is a blunder of 27 chips though
    it costs seat 3 nothing of its own: both tables' titles say whose cost it is, where a reader meets the grade and
    the seat's sum of them."""
    path = tmp_path / "k.tbn"
    path.write_text(KRATZEN_TARGET_GIVEN, encoding="utf-8")
    analysis = analyse_play(next(solver.read_positions(path)), objective="score")
    ek = analysis.cards[3]
    assert (ek.seat, ek.card, ek.cost, ek.grade) == (3, "EK", 27, "blunder")
    assert analysis.players[2].cost == 27
    monkeypatch.setenv("COLUMNS", "200")
    text = " ".join(run("postmortem", path, "-o", "score").stdout.split())  # a title wraps at its table's width
    assert ("Every card (totals: attacker seat 1's own payment in chips; cost to the attacker, or what another "
            "seat's card added to the attacker's payment)") in text
    assert ("Per seat (cost: what the attacker lost, or what another seat's cards added to the attacker's "
            "payment)") in text
    assert "Per seat (cost:" in analysis._repr_html_()
    by_tricks = [line.rstrip() for line in run("postmortem", path).stdout.splitlines()]
    assert "Per seat" in by_tricks  # by tricks every cost is the mover's own
