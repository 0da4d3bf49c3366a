"""A fourth game in one file: the proof that a game is one module and nothing else in stich names one.

*Dreier* is a small trick-taking game made up for this test, chosen to differ from the three games stich ships:
three seats, a short pack of twelve cards (suits E G H, ranks A K O U worth 11 4 3 2, 60 points), four cards a hand,
a trump suit named by the contract, must follow suit and, when void, must trump (no duty to overtrump), the declarer
alone against the other two. Scoring: the game (31 of the 60 points) is worth 2 to the winning side; a *slam*
(one side takes every trick) is a bonus worth 3 more. Its outcome (scoring, settlement components, bonus names,
bench seed) is given through the hooks of :class:`solver.games.base.Game` only.

The game is registered from this file (``register_game``, for the tests of this module); no other file of stich
changes for it. The tests solve, check, score (also double dummy), post-mortem, batch and analyse it through the
command line, count its moves by perft against an independent count over the rule methods, and compare the engine with
the reference solver on seeded random positions.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

import solver
from solver.cards import bits, build_pack
from solver.cli.main import app
from solver.errors import ContractFormError, InvalidContractError
from solver.games import GAMES, get_game, register_game
from solver.games.base import (Contract, Game, Objective, PayoffComponent, Rules, SettlementModel, TrumpSuitRules,
                               parse_words, points_objective, tricks_objective, unknown_objective)
from solver.games.outcome import ScoreItem, Scored, side_net, total_payments, two_sided
from solver.games.tables import Level, RuleTables
from solver.state import PlayState

SUITS = "EGH"
TOTAL = 60
PACK = build_pack("Dreier", [(s, [("A", 11, []), ("K", 4, []), ("O", 3, []), ("U", 2, [])]) for s in SUITS],
                  sign_letters={"clubs": "E", "spades": "G", "hearts": "H"})


class DreierRules(TrumpSuitRules):
    """Follow suit; when void, trump if you can; the highest trump, else the highest card of the suit led, wins."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        trump = self.contract.suit
        order = "AKOU"
        self.plain_rank = {c.index: len(order) - order.index(c.rank) for c in self.pack}
        self.trump_rank = {c.index: self.plain_rank[c.index] for c in self.pack if c.suit == trump}
        self.effective = {c.index: "T" if c.suit == trump else c.suit for c in self.pack}
        self.masks = {s: sum(1 << c for c, e in self.effective.items() if e == s) for s in "T" + SUITS}

    def legal_cards(self, state: PlayState) -> int:
        hand = state.hands[state.to_move]
        if not state.trick:
            return hand
        return hand & self.masks[self.effective[state.trick[0]]] or hand & self.masks["T"] or hand

    def compile_tables(self) -> RuleTables:
        classes = "T" + SUITS
        card_class = tuple(classes.index(self.effective[c.index]) for c in self.pack)
        power = tuple(tuple(self.power(c.index, led) for c in self.pack) for led in classes)
        follow = tuple((Level(self.masks[led]), Level(self.masks["T"])) for led in classes)
        return RuleTables(len(self.pack), self.seats, self.points, card_class, len(classes), power, follow)

    def objective_names(self) -> list[str]:
        return ["points", "game", "slam", "slam_against"]

    def objective(self, name: str, seat: int | None = None) -> Objective:
        d, o = self.declaring_side, self.defending_side
        if name == "points":
            return points_objective(self, d, name, "card points the declarer can force", None, TOTAL)
        if name == "game":
            return points_objective(self, d, name, "the declarer reaches 31", 31, TOTAL)
        if name == "slam":
            return tricks_objective(self, d, name, "the declarer takes every trick", self.tricks_in_deal)
        if name == "slam_against":
            return tricks_objective(self, o, name, "the defenders take every trick", self.tricks_in_deal)
        raise unknown_objective(self, name)


def dreier_items(rules: Rules, points: int, tricks: int) -> list:
    winner = rules.declaring_side if points >= 31 else rules.defending_side
    items = [two_sided("game", rules.seats, winner, 2, 1, False, f"the declarer took {points} points (31 needed)")]
    if tricks in (0, rules.tricks_in_deal):
        side = rules.declaring_side if tricks else rules.defending_side
        items.append(two_sided("slam", rules.seats, side, 3, 1, False, "one side took every trick"))
    return items


class Dreier(Game):
    name = "Dreier"
    aliases = ("dreier", "dr")
    pack = PACK
    seat_counts = (3,)
    hand_size = 4
    contract_help = "Trump E|G|H"
    objectives = ("points", "game", "slam", "slam_against")
    bonus_names = ("slam", "slam_against")
    bench_seed = 3

    @classmethod
    def read_contract(cls, text: str) -> Contract:
        words = parse_words(text)
        if not (len(words) == 2 and words[0].lower() == "trump" and words[1].upper() in SUITS):
            # the form said in the message: a record's reader adds it to no ContractFormError
            raise ContractFormError(f"unknown Dreier contract {text!r} (expected {cls.contract_help})")
        return Contract(cls.name, "trump", suit=words[1].upper(), text=f"Trump {words[1].upper()}")

    @classmethod
    def make_rules(cls, deal, contract, declarer, variant, leader, state_tags):
        rules = DreierRules(cls, deal, contract, declarer, variant, leader=0 if leader is None else leader)
        return rules

    @classmethod
    def default_contracts(cls, rng) -> list[str]:
        return [f"Trump {rng.choice(SUITS)}"]

    @classmethod
    def _contracts(cls, deal, variant, like, declarer):
        return [(cls.parse_contract(f"Trump {s}"), seat) for seat in range(1, deal.seats + 1) for s in SUITS]

    @classmethod
    def score(cls, rules: Rules, state: PlayState, inputs: object) -> Scored:
        d = rules.declaring_side
        items = dreier_items(rules, state.side_points(d), state.side_tricks(d))
        return Scored(tuple(items), total_payments(items, rules.seats))

    @classmethod
    def settlement_model(cls, rules: Rules, state: PlayState, inputs: object) -> SettlementModel:
        d = rules.declaring_side
        components = [
            PayoffComponent("points", Objective("points", d, "declarer points", points_weight=1), (31,)),
            PayoffComponent("tricks", Objective("tricks", d, "declarer tricks", trick_weight=1),
                            tuple(sorted({1, rules.tricks_in_deal})))]

        def net(values: tuple[int, ...]) -> int:
            return side_net(total_payments(dreier_items(rules, *values), rules.seats), d)

        return components, net


runner = CliRunner()


@pytest.fixture(autouse=True, scope="module")
def registered():
    """Dreier is a registered game while these tests run, and only then (other tests list the shipped games)."""
    before = list(GAMES)
    register_game(Dreier)
    yield
    GAMES[:] = before


#: Seat 1 holds the three top hearts and the acorn ace: with hearts trump she takes every trick.
SLAM_DEAL = "1: EA HA HK HO / EK EO GA GK / EU GO GU HU"
SLAM_PLAY = ["HA EK HU", "HK EO EU", "HO GA GO", "EA GK GU"]


def record(tmp_path: Path, deals: list[tuple[str, str, list[str] | None]]) -> Path:
    text = []
    for board, (deal, contract, play) in enumerate(deals, 1):
        text += ['[Game "Dreier"]', f'[Board "{board}"]', '[Seats "3"]', f'[Deal "{deal}"]',
                 f'[Contract "{contract}"]', '[Declarer "1"]']
        if play is not None:
            text += ['[Play "1"]', *play, "*"]
        text.append("")
    path = tmp_path / "dreier.tbn"
    path.write_text("\n".join(text), encoding="utf-8")
    return path


def run(*args: object) -> list[dict]:
    result = runner.invoke(app, [str(a) for a in args] + ["--json"])
    assert result.exit_code == 0, (result.stdout, result.stderr, result.exception)
    assert "Traceback" not in result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


def random_position(seed: int, played: int) -> solver.Position:
    rng = random.Random(seed)
    deal = Dreier.deal_random(rng)
    position = solver.make_position(Dreier, deal, f"Trump {rng.choice(SUITS)}", declarer=rng.randint(1, 3))
    state = position.state
    for _ in range(played):
        state = state.advance(rng.choice(list(bits(state.legal_cards()))))
    return solver.Position(Dreier, position.rules, state)


# --- registry and rules --------------------------------------------------------------------------------------------


def test_the_game_is_found_by_name_and_alias_and_its_pack_pickles_as_itself():
    import pickle

    assert get_game("dr") is Dreier and get_game("DREIER") is Dreier
    assert pickle.loads(pickle.dumps(PACK)) is PACK
    with pytest.raises(InvalidContractError, match="unknown Dreier contract"):
        Dreier.rules(SLAM_DEAL, "Solo")


def test_a_game_may_not_take_another_games_alias():
    clash = type("Clash", (Dreier,), {"name": "Clash", "aliases": ("clash", "kr")})
    with pytest.raises(ValueError, match="Kratzen's"):
        register_game(clash)
    assert get_game("kr").name == "Kratzen" and clash not in GAMES


def independent_perft(rules: DreierRules, hands: list[int], trick: list[int], leader: int, depth: int) -> int:
    """A count written from the rule sentences alone, on plain lists (no PlayState, no tables)."""
    if depth == 0 or not any(hands):
        return 1
    seat = (leader + len(trick)) % 3
    hand = [c for c in range(12) if hands[seat] >> c & 1]
    if trick:
        led = rules.effective[trick[0]]
        options = ([c for c in hand if rules.effective[c] == led] or [c for c in hand if rules.effective[c] == "T"]
                   or hand)
    else:
        options = hand
    total = 0
    for card in options:
        after = list(hands)
        after[seat] &= ~(1 << card)
        played = trick + [card]
        if len(played) == 3:
            winner = (leader + rules.trick_winner(tuple(played))) % 3
            total += independent_perft(rules, after, [], winner, depth - 1)
        else:
            total += independent_perft(rules, after, played, leader, depth - 1)
    return total


@pytest.mark.parametrize("seed", range(4))
def test_perft_counts_agree_with_an_independent_count(seed):
    position = random_position(seed, 0)
    rules = position.rules
    for depth in (1, 3, 6, 12):
        expected = independent_perft(rules, list(rules.deal.hands), [], rules.first_leader, depth)
        assert solver.perft(position, depth, reference_solver=True) == expected
        assert solver.perft(position, depth) == expected
    # by hand: EA lead, seat 2 follows with EK or EO, seat 3 with EU (2); a trump lead, seat 2 has neither hearts
    # nor trumps (any of 4), seat 3 must play HU (3 x 4)
    assert solver.perft(solver.make_position(Dreier, SLAM_DEAL, "Trump H"), 3) == 2 + 3 * 4


def test_the_engine_agrees_with_the_reference_solver_on_random_positions():
    disagreements = []
    for seed in range(60):
        position = random_position(1000 + seed, seed % 7)
        for name in position.rules.objective_names():
            mine = solver.solve(position, name, cards=True)
            oracle = solver.solve(position, name, cards=True, reference_solver=True)
            if (mine.total, mine.success, sorted((v.card, v.value) for v in mine.card_values)) != \
                    (oracle.total, oracle.success, sorted((v.card, v.value) for v in oracle.card_values)):
                disagreements.append((seed, name))
    assert disagreements == []


def test_settlement_engine_agrees_with_the_reference_on_random_positions():
    for seed in range(12):
        position = random_position(2000 + seed, 3 * (seed % 3))
        assert solver.dd_settlement(position).value == solver.dd_settlement(position, reference_solver=True).value


# --- the commands --------------------------------------------------------------------------------------------------


def test_solve_and_check(tmp_path):
    path = record(tmp_path, [(SLAM_DEAL, "Trump H", None)])
    (solved,) = run("solve", path)
    score, points = solved["results"]  # the settlement first, the card points beside it
    assert solved["game"] == "Dreier" and (score["objective"], points["objective"]) == ("score", "points")
    assert score["total"] == 10  # game (2) and slam (3) from each defender: the game's own settlement hooks
    assert points["total"] == TOTAL  # every trick, so every point
    (checked,) = run("check", path)
    forced = {check["bonus"]: check["can_force"] for check in checked["checks"]}
    assert forced == {"game": True, "slam": True, "slam_against": False}


def test_score_and_score_dd(tmp_path):
    path = record(tmp_path, [(SLAM_DEAL, "Trump H", SLAM_PLAY)])
    (scored,) = run("score", path)
    assert [item["name"] for item in scored["items"]] == ["game", "slam"]
    assert scored["payments"] == [10, -5, -5]  # (2 + 3) from each defender
    (dd,) = run("score", path, "--dd")
    assert dd["dd"]["value"] == 10 and dd["dd"]["points_optimum"] == TOTAL and not dd["dd"]["differs"]


def test_postmortem(tmp_path):
    # deal 2: seat 2, void in hearts and trumps, throws GA (11) on the declarer's trick where GK (4) would do
    path = record(tmp_path, [(SLAM_DEAL, "Trump H", SLAM_PLAY),
                             ("1: EA GU HA HK / EK EO GA GK / EU GO HO HU", "Trump H",
                              ["EA EK EU", "HA EO HU", "HK GA HO", "GU GK GO"])])
    by_score, _ = run("postmortem", path)  # graded in game units by default
    assert all(card["grade"] == "ok" for card in by_score["cards"]) and by_score["curve"][0] == 10
    first, second = run("postmortem", path, "--objective", "points")
    assert first["command"] == "postmortem" and all(card["grade"] == "ok" for card in first["cards"])
    assert first["curve"][0] == first["curve"][-1] == TOTAL
    graded = [(card["card"], card["cost"], card["grade"]) for card in second["cards"] if card["grade"] != "ok"]
    assert graded == [("GA", 7, "mistake")]
    assert second["curve"][0] == 44 and second["curve"][-1] == 51  # 17 + 16 + 18 taken, 44 with GK


def test_batch(tmp_path):
    path = record(tmp_path, [(SLAM_DEAL, "Trump H", None), ("1: EK EO GA GK / EA HA HK HO / EU GO GU HU",
                                                             "Trump H", None)])
    out = tmp_path / "out.jsonl"
    result = runner.invoke(app, ["batch", str(path), "--out", str(out), "--workers", "1", "-o", "points"])
    assert result.exit_code == 0, (result.stdout, result.stderr)
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    totals = [line["results"][0]["total"] for line in lines if "results" in line]
    assert totals == [TOTAL, 0]


def test_analyse(tmp_path):
    (document,) = run("analyse", "--game", "Dreier", "--hand", "EA HA HK HO", "--seat", "1", "--contract",
                      "Trump H", "--samples", "8", "--workers", "1")
    assert document["game"] == "Dreier" and document["samples"] == 8
    assert document["win_probability"] == 1.0 and document["mean"] == TOTAL  # her hand takes every trick


class TricksDreierRules(DreierRules):
    """Dreier's declarer against the two others, with no objective named "points": a team game all the same."""

    def objective_names(self) -> list[str]:
        return ["game", "slam", "slam_against"]


def test_a_team_game_without_a_points_objective_has_sides_on_the_board_and_in_a_post_mortem(tmp_path):
    """The board and the post-mortem tell "every seat plays for itself" (Kratzen) by the objectives themselves
    (``every_seat_for_itself``), as the rest of stich does, one criterion from a position or its rules, not by "no
    'points' objective": a team game without one shows sides on the board and grades each card for its side, not by the
    mover's "tricks", which it has not."""
    from solver.board.session import Board, view
    from solver.position import every_seat_for_itself
    from solver.postmortem import _bonuses

    opened = next(solver.read_positions(record(tmp_path, [(SLAM_DEAL, "Trump H", None)])))
    dealt = opened.rules
    rules = TricksDreierRules(Dreier, dealt.deal, dealt.contract, dealt.declarer, dealt.variant, leader=0)
    position = solver.Position(Dreier, rules, rules.start(), (), opened.record)
    assert not every_seat_for_itself(rules) and not every_seat_for_itself(position)
    assert every_seat_for_itself(solver.make_position("Kratzen", "1: EA / EK / EO", "Trump E").rules)
    shown = view(Board("b1", "dreier", position, (), opened.record), [])
    assert not shown["per_seat"]
    assert [(side["name"], side["seats"]) for side in shown["sides"]] == [("declarer", [1]), ("defenders", [2, 3])]
    assert [hand["side"] for hand in shown["hands"]] == ["declarers", "defenders", "defenders"]
    assert [objective.name for objective in _bonuses(rules, 1, frozenset())] == ["slam", "slam_against"]


def test_a_game_taken_out_again_is_not_named_as_another_game_s_owner_of_an_objective():
    """The whole suite's run: `-o points` on a Kratzen record names the registered games only, not every subclass of
    Game, this test's game among them, registered or not ("belongs to Dreier and Schafkopf and Zwanzigerrufen" once this
    module has run)."""
    from solver.games.base import unknown_objective

    kratzen = next(solver.read_positions(Path(__file__).parent.parent / "examples" / "kratzen.tbn")).rules
    assert "Dreier and Schafkopf and Zwanzigerrufen" in str(unknown_objective(kratzen, "points"))  # registered here
    GAMES.remove(Dreier)
    try:
        assert str(unknown_objective(kratzen, "points")).startswith(
            "objective 'points' belongs to Schafkopf and Zwanzigerrufen, not to Kratzen")
    finally:
        register_game(Dreier)


def test_an_item_is_shown_in_its_game_s_words_while_the_game_is_registered():
    """An item names its game, which the registry itself is asked for when it is shown: a game registered after the item
    was made titles it, and one taken out again does not (a copy of the registry kept for the items would miss both)."""
    class LoudDreier(Dreier):
        name = "LoudDreier"
        aliases = ("loud",)

        @classmethod
        def item_title(cls, name: str) -> str:
            return name.upper()

    item = ScoreItem("slam", (1,), 1, 1, False, 1, "seat 1 took every trick", game="LoudDreier")
    assert item.cells()[0] == "slam"
    register_game(LoudDreier)
    try:
        assert item.cells()[0] == "SLAM"
    finally:
        GAMES.remove(LoudDreier)
    assert item.cells()[0] == "slam" and str(item).startswith("slam  to seat 1  from -  base 1")


class PointlessDreierRules(TricksDreierRules):
    """A team contract decided by tricks alone: its rules answer no "points" objective at all."""

    def objective(self, name: str, seat: int | None = None) -> Objective:
        if name == "points":
            raise unknown_objective(self, name)
        return super().objective(name, seat)


def test_a_team_contract_without_card_points_is_post_mortemed_by_the_score(tmp_path):
    """A team contract with no "points" objective is post-mortemed by the score (the command's default; the side's
    tricks underneath, no points cost column), not refused with "objective 'points' does not apply to Dreier Trump H" by
    a grading that replays the card points first; by points it is refused in one line that names what works."""
    from io import StringIO

    from rich.console import Console

    from solver.analysis import postmortem_report
    from solver.cli.postmortem import render_postmortem
    from solver.postmortem import analyse_play

    opened = next(solver.read_positions(record(tmp_path, [("1: EA GU HA HK / EK EO GA GK / EU GO HO HU", "Trump H",
                                                            ["EA EK EU", "HA EO HU", "HK GA HO", "GU GK GO"])])))
    dealt = opened.rules
    rules = PointlessDreierRules(Dreier, dealt.deal, dealt.contract, dealt.declarer, dealt.variant, leader=0)
    state = rules.start()
    for card in opened.played:
        state = state.advance(card)
    position = solver.Position(Dreier, rules, state, opened.played, opened.record)
    analysis = analyse_play(position, objective="score")
    assert analysis.measure == "game units" and analysis.curve == (4,) * 13  # the game (2) from each defender
    assert [card.grade for card in analysis.cards] == ["ok"] * 12 and analysis.points_curve == ()
    assert all(card.points_cost is None for card in analysis.cards)
    document = postmortem_report(position, analysis)
    assert all("points_cost" not in card for card in document["cards"])
    out = StringIO()
    render_postmortem(document, Console(file=out, width=160))
    assert "points cost" not in out.getvalue() and "cost (points)" not in out.getvalue()
    assert "cost (game units)" in out.getvalue()
    html = analysis._repr_html_()  # Jupyter's tables leave the column out too
    assert "points cost" not in html and "cost (points)" not in html and "cost (game units)" in html
    assert str(analysis.players[0]).startswith("seat 1  cards 4  inaccuracies 0  mistakes 0  blunders 0  cost (game "
                                               "units) 0")
    assert "cost (points)" not in str(analysis.players[0])
    with pytest.raises(InvalidContractError, match=r"^Dreier Trump H has no card points to grade by \(no 'points' "
                                                   r"objective\): grade it by the score, objective 'score'$"):
        analyse_play(position, objective="points")
