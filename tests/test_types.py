"""The package ships ``py.typed``, so its annotations are a promise to every user who type-checks code calling it:
mypy must find none of them wrong (``[tool.mypy]`` in pyproject.toml says what it checks)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow  # a cold mypy run of the whole package, run apart as `python -m mypy` while working
def test_solver_cli_and_bench_type_check(tmp_path):
    """``python -m mypy`` alone checks what pyproject.toml's ``[tool.mypy]`` names: the package, its command, and
    bench/'s report script and benches, whose types are the package's in use."""
    result = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache")], cwd=ROOT,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Success: no issues found" in result.stdout


def assert_strict_client_type_checks(tmp_path: Path, source: str) -> None:
    """``source``, a user's script, passes ``mypy --strict`` against this checkout's package."""
    script = tmp_path / "client.py"
    script.write_text(source)
    result = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", "--cache-dir",
                             str(tmp_path / "cache"), str(script)], cwd=tmp_path, capture_output=True, text=True,
                            env={**os.environ, "MYPYPATH": str(ROOT)})
    assert result.returncode == 0, result.stdout + result.stderr


CLIENT = '''"""A user's script, typed as mypy --strict wants it."""
import solver
from solver import Position, SolveResult, solve


def best(position: Position) -> list[str]:
    result: SolveResult = solve(position, "points", cards=True)
    return [card.name for card in result.best_cards()]


position = solver.parse_positions(open("examples/valat.tbn").read())[0]
print(best(position), solver.Zwanzigerrufen.name, solver.get_game("sk").name, solver.analyse_hand)
'''


def test_a_strict_client_sees_every_public_name_exported(tmp_path):
    """``mypy --strict`` takes only explicitly exported names as a package's: every ``solver.X`` of the docs must be
    one, or a strict client fails on it with 'does not explicitly export'."""
    assert_strict_client_type_checks(tmp_path, CLIENT)


def test_the_names_type_checkers_see_are_the_public_names():
    """The package's names are imported on first use (PEP 562); type checkers read the ``if TYPE_CHECKING`` block
    instead, whose ``__all__`` must list the same names."""
    import ast

    import solver

    tree = ast.parse((ROOT / "solver" / "__init__.py").read_text())
    block = next(node for node in tree.body if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING")
    (listed,) = [ast.literal_eval(node.value) for node in block.body
                 if isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == "__all__"]
    imported = {alias.asname or alias.name for node in block.body if isinstance(node, ast.ImportFrom)
                for alias in node.names}
    assert sorted(listed) == sorted(solver.__all__) and set(listed) - {"__version__"} <= imported


def test_score_deal_types_its_announcements_as_dd_settlement_does():
    """``score_deal(announcements=...)`` is typed as ``dd_settlement``'s same argument is, not ``object``, so that an
    editor hints at the tag text or list of Announcements it takes."""
    import inspect

    import solver

    shown = {name: inspect.signature(function).parameters["announcements"].annotation
             for name, function in (("score", solver.score_deal), ("dd", solver.dd_settlement))}
    assert shown["score"] == shown["dd"] == "Announcements"  # settlement.py: str | Sequence[Announcement] | None


NUMPY_SEAT_CLIENT = '''\
import numpy as np

import solver

position = next(solver.read_positions("examples/kratzen.tbn"))
seat = np.int64(2)
print(position.hand(seat), solver.solve(position, "tricks", seat=seat).total, position.objective("tricks", seat))
'''


def test_a_numpy_seat_type_checks_where_it_is_taken(tmp_path):
    """docs/api.md takes any integral seat, numpy integers included: ``Position.hand``, ``Position.objective`` and
    ``solve`` are typed ``SupportsIndex``, so that mypy --strict takes the call that runs (``int`` would refuse it)."""
    pytest.importorskip("numpy")
    assert_strict_client_type_checks(tmp_path, NUMPY_SEAT_CLIENT)


NUMPY_SEATS = '''"""A user's script passing numpy seats, which every seat argument takes at run time."""
import numpy as np
import solver
from solver.advice import card_advice, contract_advice
from solver.sampling import position_setup
from solver.tree import strategy_tree

seat = np.int64(1)
position = solver.make_position("kratzen", "1: EO E9 SU SZ / GA HA HU S7 / EK G8 HO SK", "Trump E", declarer=seat,
                                leader=seat)
solver.analyse_hand("kratzen", "EO E9 SU SZ", seat, "Trump E", declarer=seat, samples=1)
solver.analyse_position(position, seat, samples=1)
contract_advice("kratzen", "EO E9 SU SZ", seat, samples=1)
card_advice(position, seat, samples=1)
strategy_tree(position, 1, objective="tricks", seat=seat)
solver.random_position("kratzen", 1, 1, declarer=seat)
solver.solve(position, "tricks", seat=seat)
position_setup(position, seat)
'''


def test_every_seat_argument_is_typed_as_the_integral_seats_it_takes(tmp_path):
    """Every seat argument is typed so that a type checker takes the numpy seat it takes at run time, as ``solve``'s and
    ``Position.hand``'s ``SupportsIndex`` is: make_position, the analyses, the advice, strategy_tree, random_position
    and ``position_setup`` (the sampling bot's start, docs/api.md's "A bot of your own", tests/test_api_arguments.py)
    alike, none typed ``int``."""
    assert_strict_client_type_checks(tmp_path, NUMPY_SEATS)


CARD_ARGUMENTS = '''"""A user's script passing Cards and card sets, and a variant as text, where they are taken."""
import solver
from solver.advice import contract_advice
from solver.sampling import hand_position

position = solver.make_position("kratzen", "1: EO E9 SU SZ / GA HA HU S7 / EK G8 HO SK", "Trump E")
hand = position.hand(1)
solver.analyse_hand("kratzen", hand, 1, "Trump E", known={2: position.hand(2)}, samples=1, workers=1)
solver.analyse_hand("kratzen", list(hand), 1, "Trump E", samples=1, workers=1)
contract_advice("kratzen", hand, 1, samples=1, workers=1)
hand_position("kratzen", hand, 1, "Trump E", known={3: ["EK", position.pack.parse("G8")]})
solver.make_position("kratzen", [position.hand(seat) for seat in (1, 2, 3)], "Trump E")
solver.contract_table(solver.random_position("schafkopf", 1, 1), variant="runaway_count_at=deal")
'''


def test_cards_and_variants_are_typed_as_the_arguments_take_them(tmp_path):
    """docs/api.md says every argument that takes cards takes Cards and card sets (``analyse_hand(hand=card_set)``) and
    every ``variant`` text: the analyses' and the advice's ``hand`` and ``known``, and ``contract_table``'s variant, are
    typed so, so that mypy --strict accepts the calls that run."""
    source = CARD_ARGUMENTS
    assert_strict_client_type_checks(tmp_path, source)
    exec(compile(source, "client.py", "exec"), {})  # and each of them runs


def test_a_result_s_cards_type_check_as_documented(tmp_path):
    """docs/api.md: ``values_by_card()["T17"]`` finds a card by its name, and mypy --strict takes the lookup (and
    ``.get``) in a bot author's script (``dict[Card, int]`` would refuse it). A card value's Card is typed as the docs
    show it: ``position.pack[value.card]`` (``CardValue.card`` is typed ``int``)."""
    source = '''"""A script reading a result's cards, as docs/api.md shows them."""
import solver

position = solver.random_position("zwanzigerrufen", 1, 1)
result = solver.solve(position, "points", cards=True)
name = result.best_cards()[0].name
found: int = result.values_by_card()[name]
maybe: int | None = result.values_by_card().get(name)
missing: int = result.values_by_card().get("no such card", -1)
cards: list[solver.Card] = [position.pack[value.card] for value in result.card_values]
assert found == maybe and missing == -1 and name in [card.name for card in cards]
assert dict(result.card_values)[cards[0].index] == result.values_by_card()[cards[0]]
'''
    assert_strict_client_type_checks(tmp_path, source)
    exec(compile(source, "client.py", "exec"), {})  # and it runs


def test_a_card_dict_s_other_methods_take_a_name_too(tmp_path):
    """A CardDict typed only ``[]`` and ``.get`` with a name: mypy --strict refused ``pop``, ``setdefault``,
    ``del`` and ``in`` with one, though each works at run time (a Card hashes and compares as its name)."""
    source = '''"""A script editing a result's values by card name."""
import solver

position = solver.random_position("zwanzigerrufen", 1, 1)
values = solver.solve(position, "points", cards=True).values_by_card()
first, second, *_ = [card.name for card in values]
assert first in values and "no such card" not in values
kept: int = values.setdefault(first, -99)
taken: int = values.pop(first)
gone: int | None = values.pop(first, None)
fallback: int | str = values.pop(first, "none")
del values[second]
assert kept == taken and gone is None and fallback == "none"
assert first not in values and second not in values and len(values) == len(position.legal_cards()) - 2
assert type(values).__name__ == "CardDict" and isinstance(values, dict)
'''
    assert_strict_client_type_checks(tmp_path, source)
    exec(compile(source, "client.py", "exec"), {})  # and it runs


NUMPY_CARDS = '''"""A bot author's script: a card chosen by numpy's argmax, a numpy integer, as play takes it."""
import numpy as np
import solver
from solver import Position
from solver.bots import Bot, make_bot
from solver.match import play_match


class HighestIndex:
    """Plays the legal card of the highest pack index, picked by argmax."""

    name = "highest"

    def choose(self, position: Position) -> np.intp:
        legal = np.array([card.index for card in position.legal_cards()])
        return np.intp(legal[np.argmax(legal)])


position = solver.make_position("kratzen", "1: EO E9 SU SZ / GA HA HU S7 / EK G8 HO SK", "Trump E")
after = position.play(HighestIndex().choose(position)).play(np.int64(32)).state.play(np.int32(26))
bots: list[Bot] = [HighestIndex(), make_bot("random"), make_bot("random"), make_bot("random")]
print(" ".join(position.pack[card].name for card in after.history_cards()),
      play_match("schafkopf", bots, boards=1, seed=1, workers=1).bots["highest"].count)
'''


def test_a_card_to_play_is_typed_as_the_numpy_index_play_takes(tmp_path):
    """docs/api.md: ``position.play(np.int64(5))``, a bot's argmax, plays that card; ``Position.play``, ``play_cards``,
    ``PlayState.play`` and ``Bot.choose``'s answer are typed ``SupportsIndex | str | Card``, so that mypy --strict
    takes the bot that runs (``int`` would refuse it), and the script runs to its end."""
    pytest.importorskip("numpy")
    assert_strict_client_type_checks(tmp_path, NUMPY_CARDS)
    (tmp_path / "client.py").write_text(NUMPY_CARDS)
    result = subprocess.run([sys.executable, str(tmp_path / "client.py")], cwd=tmp_path, capture_output=True,
                            text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert result.returncode == 0, result.stderr
    assert result.stdout == "SZ S7 SK 1\n"  # the trick SZ (29), S7 (32), SK (26); the match's one board
