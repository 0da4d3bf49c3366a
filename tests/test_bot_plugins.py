"""A bot of one's own on the command line: ``stich match --bots mybots:LastCard,...`` loads it from the current
directory as ``python -m`` would, plays it on one process or several alike, resumes its checkpoint only with the same
bot, and answers every way a spec can fail with a usage error (exit 2) naming why, without a traceback."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from solver import workers
from solver.bots import RandomBot, SamplingBot, bot_source, load_bot, make_bot
from solver.errors import StichError
from solver.match import play_match

from machine_cores import needs_two_cores

#: A bot author's module, as a file in the directory the match is run from.
BOTS_MODULE = textwrap.dedent('''
    import os
    import random
    import sys


    class LastCard:
        """The last of the legal cards in the pack's order."""

        name = "last"

        def choose(self, position):
            return max(position.legal_cards(), key=lambda card: card.index)


    class FirstCard:
        """Another bot under the same name: the first legal card."""

        name = "last"

        def choose(self, position):
            return min(position.legal_cards(), key=lambda card: card.index)


    class Seeded:
        """A random legal card, from the match's seed and the play so far."""

        def __init__(self, seed):
            self.seed = seed
            self.name = "seeded"

        def choose(self, position):
            legal = sorted(card.index for card in position.legal_cards())
            return random.Random(f"{self.seed} {position.played}").choice(legal)


    def make_last():
        return LastCard()


    last_instance = LastCard()
    number = 3


    class Broken:
        name = "broken"

        def __init__(self):
            raise ValueError("no table for me")


    class Quits:
        name = "quits"

        def __init__(self):
            raise SystemExit(4)


    class Nameless:
        def choose(self, position):
            return 0


    class NamedRandom(LastCard):
        name = "random"


    class Crash:
        name = "crash"

        def choose(self, position):
            raise RuntimeError("lost my cards")


    class CrashOnBoard2:
        """The first legal card, until its sixth card of board 2."""

        name = "crash2"

        def choose(self, position):
            if position.record.get("Board") == "2" and len(position.played) >= 5:
                raise RuntimeError("lost my cards")
            return min(position.legal_cards(), key=lambda card: card.index)


    class Illegal:
        """From the second trick on, a card of its hand it may not play where it holds one."""

        name = "illegal"

        def choose(self, position):
            legal = position.legal_cards()
            refused = [card for card in position.hand(position.to_move) if card not in legal]
            return refused[0] if position.history and refused else next(iter(legal))


    class Chatty(LastCard):
        name = "chatty"

        def choose(self, position):
            print("chatty: thinking")
            sys.__stdout__.write("chatty: to sys.__stdout__\\n")
            sys.__stdout__.flush()
            os.write(1, b"chatty: to file descriptor 1\\n")
            return super().choose(position)


    class Talker(LastCard):
        """Prints a long line a card in 40 pieces, another to sys.__stdout__ left unflushed, and a third in 40
        pieces of bytes to sys.stdout.buffer after reconfiguring sys.stdout."""

        name = "talker"

        def choose(self, position):
            for word in range(40):
                print(f"talker{position.to_move}-{word}", end=" ")
            print("end")
            sys.__stdout__.write("unflushed " * 40 + "end\\n")
            sys.stdout.reconfigure(errors="replace")
            for word in range(40):
                sys.stdout.buffer.write(f"bytes{position.to_move}-{word} ".encode())
            sys.stdout.buffer.write(b"end\\n")
            return super().choose(position)


    class Stalls(LastCard):
        """Stopped by Ctrl-C as it chooses its second card, as a bot too slow to wait for is."""

        name = "stalls"

        def choose(self, position):
            if position.history:
                raise KeyboardInterrupt
            return super().choose(position)


    class Exits:
        name = "exits"

        def choose(self, position):
            if len(position.played) >= 2:
                raise SystemExit(5)
            return next(iter(position.legal_cards()))
''')

#: ``stich`` as the console script runs it: the current directory is not on sys.path (``-c`` put it first).
STICH = "import sys; del sys.path[0]; from solver.cli.main import main; sys.argv[0] = 'stich'; sys.exit(main())"


@pytest.fixture
def bots_dir(tmp_path: Path) -> Path:
    (tmp_path / "mybots.py").write_text(BOTS_MODULE)
    (tmp_path / "broken_syntax.py").write_text("x = 1\ndef f(:\n    pass\n")
    (tmp_path / "imports_missing.py").write_text("import stich_no_such_module_here\n")
    (tmp_path / "exits.py").write_text("import sys\nsys.exit(3)\n")
    (tmp_path / "botpkg").mkdir()
    (tmp_path / "botpkg" / "__init__.py").write_text("")
    return tmp_path


@pytest.fixture
def imported_here(bots_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The API's make_bot run from ``bots_dir``, its sys.path, finders, modules and the record of what pool workers
    take from the folder (solver.workers) put back after."""
    monkeypatch.chdir(bots_dir)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(bots_dir))])
    monkeypatch.setattr(sys, "meta_path", list(sys.meta_path))
    monkeypatch.setattr(workers, "_own_modules", {})
    monkeypatch.setattr(workers, "_own_folders", [])
    names = ("mybots", "broken_syntax", "imports_missing", "late_helper")
    for name in names:
        monkeypatch.delitem(sys.modules, name, raising=False)
    yield bots_dir
    for name in names:
        sys.modules.pop(name, None)


def _stich(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", STICH, *args], cwd=cwd, capture_output=True, text=True,
                          timeout=600)


def _said(text: str) -> str:
    """A message with its whitespace made single spaces, whatever the width it was wrapped at."""
    return " ".join(text.split())


def _match(cwd: Path, bots: str, *args: str) -> subprocess.CompletedProcess:
    return _stich(cwd, "match", "--game", "schafkopf", "--bots", bots, *args)


def _json_match(cwd: Path, bots: str, *args: str) -> dict:
    process = _match(cwd, bots, "--json", *args)
    assert process.returncode == 0, process.stderr
    return json.loads(process.stdout)


@needs_two_cores
def test_a_bot_of_ones_own_plays_alike_on_one_and_two_workers(bots_dir):
    one = _json_match(bots_dir, "mybots:Seeded,random,random,random", "-n", "3", "--seed", "5", "-j", "1")
    two = _json_match(bots_dir, "mybots:Seeded,random,random,random", "-n", "3", "--seed", "5", "-j", "2")
    assert one == two
    assert len(one["deals"]) == 12  # 3 boards, each rotated round the 4 seats
    assert one["deals"][0]["bots"] == ["seeded", "random", "random", "random"]
    assert set(one["bots"]) == {"seeded", "random"} and one["bots"]["seeded"]["seats"] == 12
    # the match's seed reached the bot (it takes seed=): another seed, other choices for the same cards
    other = _json_match(bots_dir, "mybots:Seeded,random,random,random", "-n", "3", "--seed", "6")
    assert [deal["play"] for deal in other["deals"]] != [deal["play"] for deal in one["deals"]]


#: A ``sitecustomize`` that makes this tree's stich importable as an editable install does (``pip install -e``):
#: by a finder that comes after every sys.path entry, so that a ``solver.py`` on sys.path would be taken instead. It
#: runs in every process, workers started fresh too, as the editable install's ``.pth`` file does; the tests' own
#: PYTHONPATH, which puts the tree itself on sys.path (ahead of such a file), is not used.
EDITABLE_FINDER = textwrap.dedent("""
    import importlib.machinery
    import importlib.util
    import os
    import sys

    FOLDERS = {{"solver": {solver!r}, "solver.cli": {cli!r}}}


    class EditableStich:
        def find_spec(self, name, path=None, target=None):
            folder = FOLDERS.get(name)
            if folder is None:
                return None
            return importlib.util.spec_from_file_location(name, os.path.join(folder, "__init__.py"),
                                                          submodule_search_locations=[folder])


    sys.meta_path.insert(sys.meta_path.index(importlib.machinery.PathFinder) + 1, EditableStich())
""")


@pytest.fixture(scope="module")
def editable_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """An environment in which this tree's stich is found as under an editable install, after every sys.path entry."""
    root = Path(__file__).resolve().parent.parent
    site = tmp_path_factory.mktemp("editable-site")
    (site / "sitecustomize.py").write_text(EDITABLE_FINDER.format(solver=str(root / "solver"), cli=str(root / "cli")))
    env = {name: value for name, value in os.environ.items() if name not in ("PYTHONPATH", "STICH_WT")}
    env["PYTHONPATH"] = str(site)
    return env


def _started_by(method: str, cwd: Path, env: dict[str, str], bots: str, workers: str) -> subprocess.CompletedProcess:
    """``stich match --json`` run from ``cwd`` with its pool's workers started by ``method``."""
    started = STICH.replace("import sys;", "import sys, multiprocessing; "
                                           f"multiprocessing.set_start_method('{method}');")
    return subprocess.run([sys.executable, "-c", started, "match", "--game", "schafkopf", "--bots", bots, "-n", "2",
                           "--seed", "3", "--json", "-j", workers], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=600)


def _alike_on_one_and_two_workers(method: str, cwd: Path, env: dict[str, str], bots: str) -> dict:
    """The match's document on one process and on two workers started by ``method``: each run clean (no traceback)
    and both the same; the one-process document."""
    runs = [_started_by(method, cwd, env, bots, workers) for workers in ("1", "2")]
    for process in runs:
        assert process.returncode == 0, process.stderr
        assert "Traceback" not in process.stderr
    one, two = (json.loads(process.stdout) for process in runs)
    assert one == two
    return one


@pytest.mark.parametrize("method", ["spawn", "forkserver"])
def test_files_beside_the_bots_module_do_not_replace_stichs_or_the_standard_librarys(bots_dir, editable_env, method):
    """Workers started fresh (spawn; forkserver, Linux's default from Python 3.14) import the bots' module from the
    file the parent did, and the current directory is never on their path: a json.py there is not the standard
    library's, nor a solver.py stich, even under an editable install, whose finder comes after every sys.path entry
    (a directory anywhere on the workers' path would come before it)."""
    for name in ("json", "solver"):
        (bots_dir / f"{name}.py").write_text(f"raise ImportError('the {name}.py beside mybots.py was imported')\n")
    one = _alike_on_one_and_two_workers(method, bots_dir, editable_env, "mybots:Seeded,random,random,random")
    assert len(one["deals"]) == 8


#: A bot module under the name of an installed one (pytest's dependency iniconfig), importing a module beside it.
SHADOWING_BOTS = textwrap.dedent("""
    from botcards import last_card


    class LastCard:
        name = "local"

        def choose(self, position):
            return last_card(position)
""")


@pytest.mark.parametrize("method", ["spawn", "forkserver"])
def test_workers_play_the_bots_module_the_parent_loaded_not_an_installed_one_of_its_name(tmp_path, editable_env,
                                                                                        method):
    """A bot in ./iniconfig.py is the local file's in the parent (the current directory first) and in the workers
    too, though a search of their sys.path would find the installed iniconfig (which has no LastCard) first; the
    module's import of botcards.py beside it is taken from the same file in the workers as well."""
    installed = importlib.util.find_spec("iniconfig")
    assert installed is not None and installed.origin and Path(installed.origin).parent.parent != tmp_path
    (tmp_path / "iniconfig.py").write_text(SHADOWING_BOTS)
    (tmp_path / "botcards.py").write_text("def last_card(position):\n"
                                          "    return max(position.legal_cards(), key=lambda card: card.index)\n")
    one = _alike_on_one_and_two_workers(method, tmp_path, editable_env, "iniconfig:LastCard,random,random,random")
    assert len(one["deals"]) == 8
    assert one["deals"][0]["bots"] == ["local", "random", "random", "random"]


@pytest.mark.parametrize("package, init", [("iniconfig", True), ("nsbots", False)])
def test_workers_take_a_bots_package_from_the_folder_the_parent_did(tmp_path, editable_env, package, init):
    """A bot in a package's module: the package (named as an installed one, or a namespace package, which has no
    file) is the parent's in spawned workers too, and its module beside."""
    (tmp_path / package).mkdir()
    if init:
        (tmp_path / package / "__init__.py").write_text("")
    (tmp_path / package / "bots.py").write_text(SHADOWING_BOTS)
    (tmp_path / "botcards.py").write_text("def last_card(position):\n"
                                          "    return max(position.legal_cards(), key=lambda card: card.index)\n")
    one = _alike_on_one_and_two_workers("spawn", tmp_path, editable_env,
                                        f"{package}.bots:LastCard,random,random,random")
    assert one["deals"][0]["bots"] == ["local", "random", "random", "random"]


#: A bot whose module imports the module beside it only when it plays (``import`` inside ``choose``).
LAZY_BOTS = textwrap.dedent("""
    class LastCard:
        name = "lazy"

        def choose(self, position):
            import botcards

            return botcards.last_card(position)
""")
BOTCARDS = ("def last_card(position):\n"
            "    return max(position.legal_cards(), key=lambda card: card.index)\n")


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_a_module_beside_the_bot_is_found_when_the_bot_imports_it_as_it_plays(tmp_path, editable_env, method):
    """As under ``python -m``, the bot's folder is searched for a module its code imports late (in ``choose``), in
    this process and in forked or spawned workers alike; it is searched last, after stich and the standard library,
    so that the solver.py and json.py beside the bot are still not taken."""
    (tmp_path / "lazybots.py").write_text(LAZY_BOTS)
    (tmp_path / "botcards.py").write_text(BOTCARDS)
    for name in ("json", "solver"):
        (tmp_path / f"{name}.py").write_text(f"raise ImportError('the {name}.py beside lazybots.py was imported')\n")
    one = _alike_on_one_and_two_workers(method, tmp_path, editable_env, "lazybots:LastCard,random,random,random")
    assert len(one["deals"]) == 8 and one["deals"][0]["bots"] == ["lazy", "random", "random", "random"]


def test_a_namespace_package_split_between_the_folder_and_pythonpath_keeps_its_local_part(tmp_path, editable_env):
    """A namespace package ``corp`` with its bots in the current directory (``corp/bots.py``, importing
    ``corp/cards.py`` beside it, and ``corp/extra.py`` as it plays) and another part on PYTHONPATH: the local
    modules are found in the parent and in the workers, as if the directory were on ``sys.path``; the workers take
    those the bots' import loaded from the same files, and the package's local folder too."""
    local, elsewhere = tmp_path / "here", tmp_path / "elsewhere"
    (local / "corp").mkdir(parents=True)
    (elsewhere / "corp").mkdir(parents=True)
    (local / "corp" / "bots.py").write_text(SHADOWING_BOTS.replace("from botcards", "from corp.cards").replace(
        "return last_card(position)", "from corp.extra import checked\n\n        return checked(last_card(position))"))
    (local / "corp" / "cards.py").write_text(BOTCARDS)
    (local / "corp" / "extra.py").write_text("def checked(card):\n    return card\n")
    (elsewhere / "corp" / "other.py").write_text("")
    env = {**editable_env, "PYTHONPATH": os.pathsep.join([editable_env["PYTHONPATH"], str(elsewhere)])}
    one = _alike_on_one_and_two_workers("spawn", local, env, "corp.bots:LastCard,random,random,random")
    assert one["deals"][0]["bots"] == ["local", "random", "random", "random"]


@pytest.mark.parametrize("workers", ["2"])
def test_a_worker_that_cannot_rebuild_the_bot_says_so_not_that_it_died(tmp_path, editable_env, workers):
    """A bot's module that fails to import in a worker (here: on purpose, where it is not the main process) makes the
    job fail with that error, said as the worker's failure to rebuild the bot, not as a worker killed from outside
    or out of memory; the run ends with exit 1 and no traceback."""
    (tmp_path / "parentonly.py").write_text(
        "import multiprocessing\n"
        "if multiprocessing.parent_process() is not None:\n"
        "    raise RuntimeError('parentonly is for the main process only')\n"
        + SHADOWING_BOTS.replace("from botcards import last_card", "").replace(
            "return last_card(position)", "return max(position.legal_cards(), key=lambda card: card.index)"))
    process = _started_by("spawn", tmp_path, editable_env, "parentonly:LastCard,random,random,random", workers)
    assert process.returncode == 1, process.stderr
    assert "killed" not in process.stderr and "out of memory" not in process.stderr
    assert "Traceback" not in process.stderr
    assert ("could not rebuild" in process.stderr
            and "RuntimeError: parentonly is for the main process only" in process.stderr), process.stderr


def test_the_report_names_a_bot_of_ones_own_by_its_name(bots_dir):
    process = _match(bots_dir, "mybots:LastCard,random,random,random", "-n", "2", "--no-rotate")
    assert process.returncode == 0, process.stderr
    assert "seats 1-4: last, random, random, random;" in process.stdout
    assert "│ last " in process.stdout


@needs_two_cores
@pytest.mark.parametrize("spec", ["mybots:make_last", "mybots:last_instance"])
def test_a_factory_or_an_instance_plays_as_the_class_does(bots_dir, spec):
    by_class = _json_match(bots_dir, "mybots:LastCard,random,random,random", "-n", "2", "-j", "2")
    other = _json_match(bots_dir, f"{spec},random,random,random", "-n", "2", "-j", "2")
    assert [deal["play"] for deal in other["deals"]] == [deal["play"] for deal in by_class["deals"]]


@pytest.mark.parametrize("spec, expected", [
    ("stich_nowhere:Bot", "bot 'stich_nowhere:Bot': module 'stich_nowhere' cannot be imported: No module named "
                          "'stich_nowhere' (looked in the current directory and sys.path)"),
    ("broken_syntax:Bot", "module 'broken_syntax' cannot be imported: {dir}/broken_syntax.py:2:"),
    ("imports_missing:Bot", "module 'imports_missing' cannot be imported: No module named "
                            "'stich_no_such_module_here' ({dir}/imports_missing.py:1)"),
    ("mybots:LastCrad", "bot 'mybots:LastCrad': mybots has no attribute 'LastCrad'; did you mean 'LastCard'?"),
    ("mybots:lastcard", "mybots has no attribute 'lastcard'; did you mean 'LastCard'?"),
    ("mybots:number", "bot 'mybots:number': mybots.number is the int 3, not a bot"),
    ("mybots:Nameless", "bot 'mybots:Nameless': mybots.Nameless() gave a Nameless without a name, not a bot"),
    ("mybots:Broken", "bot 'mybots:Broken': mybots.Broken() raised ValueError: no table for me ({dir}/mybots.py:"),
    ("mybots:NamedRandom", "the bots at seats 1 and 2 are both named 'random' but are two kinds of bot "
                           "(mybots:NamedRandom and RandomBot): a match counts its bots by name"),
    ("mybots:LastCard,mybots:FirstCard", "the bots at seats 1 and 2 are both named 'last' but are two kinds of bot "
                                         "(mybots:LastCard and mybots:FirstCard): a match counts its bots by name, "
                                         "so they would be counted as one; give each its own name"),
    ("mybots:Last-Card", "bot 'mybots:Last-Card': a bot of your own is MODULE:ATTRIBUTE"),
    ("mybots:", "bot 'mybots:': a bot of your own is MODULE:ATTRIBUTE (say mybots:LastCard"),
    ("mybots.py:LastCard", "bot 'mybots.py:LastCard': module 'mybots.py' cannot be imported: No module named "
                           "'mybots.py'; 'mybots' is not a package (looked in the current directory and sys.path); "
                           "did you mean 'mybots:LastCard'?"),
    ("botpkg.nosub:Bot", "bot 'botpkg.nosub:Bot': module 'botpkg.nosub' cannot be imported: No module named "
                         "'botpkg.nosub' (looked in the current directory and sys.path)"),
    ("exits:Bot", "bot 'exits:Bot': module 'exits' cannot be imported: SystemExit: 3 ({dir}/exits.py:2)"),
    ("mybots:Quits", "bot 'mybots:Quits': mybots.Quits() raised SystemExit: 4 ({dir}/mybots.py:"),
    ("cheater:LastCard", "bot 'cheater:LastCard': cheater is a built-in bot's name; a module of a bot of your own "
                         "needs another name"),
    ("json:loads", "bot 'json:loads': json.loads() raised TypeError: "),  # raised at stich's call: no place named
    ("randomm", "unknown bot 'randomm'; did you mean 'random'? (expected sampling, sampling:N, random, cheater or "
                "MODULE:ATTRIBUTE (a bot of your own))"),
])
def test_a_bot_spec_that_fails_is_a_usage_error_saying_why(bots_dir, spec, expected):
    seated = spec.split(",")
    process = _match(bots_dir, ",".join(seated + ["random"] * (4 - len(seated))), "-n", "1")
    assert process.returncode == 2
    said = _said(process.stderr)
    assert "Invalid value for '--bots'" in said
    assert _said(expected.format(dir=bots_dir)) in said
    assert "Traceback" not in process.stderr and process.stdout == ""
    assert "solver/bots.py" not in said  # the place named is the bot author's, never stich's own call


def test_two_specs_of_one_class_under_one_name_are_one_kind_of_bot(bots_dir):
    """A class and a factory making it are one kind of bot: played, said once as such; only two classes are two."""
    document = _json_match(bots_dir, "mybots:LastCard,mybots:make_last,random,random", "-n", "1", "--no-rotate")
    assert set(document["bots"]) == {"last", "random"} and document["bots"]["last"]["seats"] == 2


def test_play_match_refuses_two_classes_under_one_name(imported_here):
    """The library's rule, which the command line uses: one name, one class (type(), not a subclass)."""
    load_bot("mybots:LastCard")
    module = sys.modules["mybots"]
    with pytest.raises(StichError, match=r"^the bots at seats 2 and 3 are both named 'last' but are two kinds of bot "
                                         r"\(mybots:LastCard and mybots:FirstCard\)"):
        play_match("kratzen", [RandomBot(), module.LastCard(), module.FirstCard()], boards=1, seed=1, pot=3)
    with pytest.raises(StichError, match=r"^the bots at seats 1 and 3 are both named 'random' but are two kinds"):
        play_match("kratzen", [RandomBot(), module.LastCard(), module.NamedRandom()], boards=1, seed=1, pot=3)
    result = play_match("kratzen", [module.LastCard(), load_bot("mybots:make_last"), RandomBot()], boards=1, seed=1,
                        pot=3)
    assert result.seats == {"last": 6, "random": 3}


#: What ``stich match`` says above its one line where a bot's own code raised: the bot's frames only.
CRASH_TRACEBACK = ["stich: match: the bot's own code raised; its traceback:", "Traceback (most recent call last):"]


@pytest.mark.parametrize("workers", ["1", pytest.param("2", marks=needs_two_cores)])
def test_a_bot_that_raises_in_play_ends_the_match_with_its_traceback_marked_as_the_bot_s(bots_dir, workers):
    """A bot whose own code raises ends the match with its traceback, marked as the bot's, from its choose down (none of
    stich's frames), so that its author has a file and line to look at, then the line naming the board, card, bot and
    seat, on one worker and on two."""
    process = _match(bots_dir, "mybots:Crash,random,random,random", "-n", "2", "-j", workers)
    assert process.returncode == 1
    lines = process.stderr.splitlines()
    assert lines[:2] == CRASH_TRACEBACK and "mybots.py" in lines[2] and "in choose" in lines[2]
    assert lines[-2:] == ["RuntimeError: lost my cards",
                          "stich: board 1, rotation 0, card 1 (trick 1): bot crash at seat 1 failed: RuntimeError: "
                          "lost my cards"]
    assert "solver" not in process.stderr


def test_ctrl_c_at_a_bot_of_ones_own_names_the_bot_board_and_card_it_stopped(bots_dir):
    """A bot that sleeps (no --card-time reaches a bot of one's own) is stopped with Ctrl-C: the line says which bot the
    match was waiting for, its seat and the card, not only how many deals were played."""
    process = _match(bots_dir, "mybots:Stalls,random,random,random", "-n", "1", "-j", "1")
    assert process.returncode == 130
    assert process.stderr.startswith("stich: match: stopped by the interrupt after 0 deals (board 1, rotation 0, card ")
    assert "(trick 2): bot stalls at seat 1 was choosing): the match so far is printed" in _said(process.stderr)


def test_a_bot_that_chooses_an_illegal_card_is_said_without_a_traceback(bots_dir):
    """A card refused is no failure of the bot's code: one line, no traceback."""
    process = _match(bots_dir, "mybots:Illegal,random,random,random", "-n", "1", "-j", "1")
    assert process.returncode == 1 and "Traceback" not in process.stderr
    assert process.stderr.startswith("stich: board 1, rotation 0, card 8 (trick 2): bot illegal at seat 1 chose ")


@pytest.mark.parametrize("workers", ["1", pytest.param("2", marks=needs_two_cores)])
def test_what_a_bot_prints_goes_to_stderr_and_the_json_stays_whole(bots_dir, workers):
    """A bot's debugging print goes to stderr, not to stdout before --json's document, which no reader could then parse:
    by print, by sys.__stdout__ and by file descriptor 1 alike, on one worker and on several."""
    process = _match(bots_dir, "mybots:Chatty,random,random,random", "-n", "2", "-j", workers, "--json")
    assert process.returncode == 0, process.stderr
    assert json.loads(process.stdout)["boards"] == 2
    # 2 boards, 4 rotations, 8 cards a deal (two workers' lines may interleave)
    for said in ("chatty: thinking", "chatty: to sys.__stdout__", "chatty: to file descriptor 1"):
        assert process.stderr.count(said) == 2 * 4 * 8, said


@needs_two_cores
def test_what_bots_print_on_two_workers_comes_whole_line_by_line(bots_dir):
    """What bots print on two workers comes whole, each line from one seat: no two workers' prints mixed within a line
    on stderr (each print's pieces written one by one under python -u), no line written to sys.__stdout__ without a
    flush lost with the worker's buffer, and a worker's sys.stdout has a ``buffer`` (and ``reconfigure``) for a bot's
    bytes."""
    process = subprocess.run([sys.executable, "-u", "-c", STICH, "match", "--game", "schafkopf", "--bots",
                              "mybots:Talker,mybots:Talker,random,random", "-n", "4", "-j", "2"],
                             cwd=bots_dir, capture_output=True, text=True, timeout=600)
    assert process.returncode == 0, process.stderr
    lines = process.stderr.splitlines()
    talk = [line for line in lines if line.startswith(("talker", "bytes"))]
    unflushed = [line for line in lines if line.startswith("unflushed")]
    # 4 boards, 4 rotations, 2 talkers of 8 cards a deal, two lines in pieces a card
    assert len(talk) == 2 * len(unflushed) == 2 * 4 * 4 * 2 * 8
    assert all(line == "unflushed " * 40 + "end" for line in unflushed)
    for line in talk:
        seat = line.split("-")[0]
        assert line == " ".join(f"{seat}-{word}" for word in range(40)) + " end", line


def test_a_built_in_bot_that_raises_is_said_in_one_line_without_its_traceback(bots_dir):
    """A failure of stich's own bot is the one line naming the board, card, bot and seat, not "the bot's own code
    raised" with stich's frames, as if the user's code were at fault."""
    patched = ("import solver.bots\n"
               "def lost(self, position):\n    raise RuntimeError('lost my cards')\n"
               "solver.bots.RandomBot.choose = lost\n")
    process = subprocess.run([sys.executable, "-c", patched + STICH.replace("; ", "\n"), "match", "--game",
                              "schafkopf", "--bots", "mybots:LastCard,random,random,random", "-n", "1", "-j", "1"],
                             cwd=bots_dir, capture_output=True, text=True, timeout=600)
    assert process.returncode == 1 and "Traceback" not in process.stderr and "own code" not in process.stderr
    assert process.stderr.splitlines()[-1] == ("stich: board 1, rotation 0, card 2 (trick 1): bot random at seat 2 "
                                               "failed: RuntimeError: lost my cards")


def test_a_bot_failing_midway_prints_the_match_so_far_as_its_json_says_it(bots_dir):
    """A bot's failure on board 2 without --json prints on stdout board 1's means, which --json closes its document
    with, and that the error stopped the match, not only the error."""
    bots = "mybots:CrashOnBoard2,random,random,random"
    text = _match(bots_dir, bots, "-n", "3", "-j", "1")
    data = _match(bots_dir, bots, "-n", "3", "-j", "1", "--json")
    assert text.returncode == data.returncode == 1 and text.stderr == data.stderr
    assert "bot crash2 at seat 1 failed: RuntimeError: lost my cards" in text.stderr
    document = json.loads(data.stdout)
    assert document["stopped"] == "error" and document["declaring_side"]["count"] == 1
    crash2 = document["bots"]["crash2"]["mean"]
    rows = {line.split()[1]: line.split()[5] for line in text.stdout.splitlines() if line.startswith("│ ")}
    assert float(rows["crash2"]) == pytest.approx(crash2, abs=0.005) and rows["crash2"].startswith("+-"[crash2 < 0])
    assert "stopped by the error after 4 of 12 deals: the result so far" in text.stdout
    assert "one board played: no interval" in text.stdout


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full, a device that is always full")
@pytest.mark.parametrize("as_json, unbuffered", [(False, False), (True, True), (True, False)])
def test_a_match_printed_to_a_full_stdout_says_so_in_one_line_and_a_bot_s_failure_too(bots_dir, as_json, unbuffered):
    """A match's report written to a full stdout is said in one line, not a traceback; a bot's failure after it is
    said too, the write error first. ``--json`` on an unbuffered stdout (PYTHONUNBUFFERED) writes each deal as it is
    played, so the full stdout ends the match before the bot fails; on a buffered one the bot fails first and both
    are said, as without --json."""
    json_flag = ("--json",) if as_json else ()
    env = {name: value for name, value in os.environ.items() if name != "PYTHONUNBUFFERED"}
    if unbuffered:
        env["PYTHONUNBUFFERED"] = "1"
    with open("/dev/full", "w") as full:
        whole, failed = (subprocess.run([sys.executable, "-c", STICH, "match", "--game", "schafkopf", "--bots", bots,
                                         "-n", "3", "-j", "1", *json_flag], cwd=bots_dir, stdout=full,
                                        stderr=subprocess.PIPE, text=True, timeout=600, env=env)
                         for bots in ("random,random,random,random", "mybots:CrashOnBoard2,random,random,random"))
    assert whole.returncode == 1 and whole.stderr == "stich: <stdout>: No space left on device\n"
    bot_error = "stich: board 2, rotation 0, card 8 (trick 2): bot crash2 at seat 1 failed: RuntimeError: lost my cards"
    said = failed.stderr.splitlines()
    assert failed.returncode == 1 and said[0] == "stich: <stdout>: No space left on device"
    if as_json and unbuffered:
        assert said[1:] == []
    else:
        assert said[1:3] == CRASH_TRACEBACK and said[-1] == bot_error


def test_a_bot_s_failure_is_still_said_when_the_reader_of_stdout_is_gone(bots_dir):
    """A reader that closes stdout (``| head``) while the match so far is printed after a bot's failure does not end the
    command with rich's exit 141 and no word of the bot's error: the error is still said."""
    reader_gone = subprocess.Popen([sys.executable, "-c", STICH, "match", "--game", "schafkopf", "--bots",
                                    "mybots:CrashOnBoard2,random,random,random", "-n", "3", "-j", "1"],
                                   cwd=bots_dir, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert reader_gone.stdout is not None and reader_gone.stderr is not None
    reader_gone.stdout.close()
    said = reader_gone.stderr.read()
    assert reader_gone.wait(timeout=600) == 141 and said.splitlines()[:2] == CRASH_TRACEBACK
    assert said.endswith("stich: board 2, rotation 0, card 8 (trick 2): bot crash2 at seat 1 failed: RuntimeError: "
                         "lost my cards\n")


@pytest.mark.parametrize("workers", ["1", pytest.param("2", marks=needs_two_cores)])
def test_a_bot_that_exits_in_play_is_the_bot_s_failure(bots_dir, workers):
    """A bot that raised SystemExit (``sys.exit()`` in its choose) ended the match with the bot's exit code and not a
    word, in this process and in a worker alike: it is the bot's failure, said with its card, exit 1."""
    process = _match(bots_dir, "random,mybots:Exits,random,random", "-n", "2", "-j", workers)
    assert process.returncode == 1 and process.stderr.splitlines()[:2] == CRASH_TRACEBACK
    assert process.stderr.endswith("raise SystemExit(5)\nSystemExit: 5\nstich: board 1, rotation 0, card 7 (trick 2): "
                                   "bot exits at seat 2 failed: SystemExit: 5\n")


def test_a_bot_s_system_exit_is_its_failure_in_the_library_and_ctrl_c_still_stops(imported_here):
    """The library's side: BotError from SystemExit (and any BaseException), KeyboardInterrupt passed on."""
    from solver.match import BotError

    class Interrupted:
        name = "stopped"

        def choose(self, position):
            raise KeyboardInterrupt

    class Generated:
        name = "generated"

        def choose(self, position):
            raise GeneratorExit("closed")

    with pytest.raises(BotError, match=r"^board 1, rotation 0, card 1 \(trick 1\): bot generated at seat 1 failed: "
                                       r"GeneratorExit: closed$"):
        play_match("kratzen", [Generated(), RandomBot(seed=1), RandomBot(seed=2)], boards=1, seed=1, pot=3)
    with pytest.raises(BotError, match=r"bot exits at seat 3 failed: SystemExit: 5$") as exited:
        play_match("kratzen", [RandomBot(seed=1), RandomBot(seed=2), load_bot("mybots:Exits")], boards=1, seed=1,
                   pot=3, rotate=False)
    assert type(exited.value.bot_exception) is SystemExit
    with pytest.raises(KeyboardInterrupt):
        play_match("kratzen", [Interrupted(), RandomBot(seed=1), RandomBot(seed=2)], boards=1, seed=1, pot=3)


def test_a_checkpoint_resumes_only_with_the_same_bot(bots_dir):
    checkpoint = bots_dir / "match.jsonl"
    first = _json_match(bots_dir, "mybots:LastCard,random,random,random", "-n", "2", "--checkpoint", str(checkpoint))
    lines = checkpoint.read_text().splitlines()
    assert json.loads(lines[0])["match"]["bots"][0] == ["last", None, None, None, {"bot": "mybots:LastCard"}]
    # the same command resumes: nothing played again, the same match
    again = _json_match(bots_dir, "mybots:LastCard,random,random,random", "-n", "2", "--checkpoint", str(checkpoint))
    assert again == first and checkpoint.read_text().splitlines() == lines
    # another bot of the same name is another match: played anew, beside the first in the file
    other = _json_match(bots_dir, "mybots:FirstCard,random,random,random", "-n", "2", "--checkpoint", str(checkpoint))
    fresh = _json_match(bots_dir, "mybots:FirstCard,random,random,random", "-n", "2")
    assert other == fresh
    assert [deal["play"] for deal in other["deals"]] != [deal["play"] for deal in first["deals"]]
    assert sum("stich-analysis" in line for line in checkpoint.read_text().splitlines()) == 2


def test_make_bot_loads_a_bot_of_ones_own_and_keeps_the_built_in_names(imported_here):
    seeded = make_bot("mybots:Seeded", seed=9)
    assert type(seeded).__name__ == "Seeded" and seeded.seed == 9 and seeded.name == "seeded"
    assert bot_source(seeded) == "mybots:Seeded"
    assert str(imported_here) not in sys.path and "" not in sys.path  # the workers take its file, not a search
    # a module beside it that a bot imports only as it plays is still found there, searched after all else
    (imported_here / "late_helper.py").write_text("VALUE = 7\n")
    assert importlib.import_module("late_helper").VALUE == 7
    made = make_bot("mybots:make_last")
    assert type(made).__name__ == "LastCard"
    assert bot_source(made) == "mybots:make_last"  # the spec, which a checkpoint records: not its class
    instance = load_bot("mybots:last_instance")
    assert instance is sys.modules["mybots"].last_instance
    assert bot_source(sys.modules["mybots"].LastCard()) == "mybots:LastCard"  # the class, where no spec was said
    assert bot_source(RandomBot()) is None
    assert isinstance(make_bot("random"), RandomBot)
    assert make_bot("sampling:7").name == "sampling:7" and isinstance(make_bot("Sampling"), SamplingBot)
    with pytest.raises(StichError, match="only the sampling bot takes a sample count"):
        make_bot("random:3")
    with pytest.raises(StichError, match=r"mybots.Broken\(\) raised ValueError: no table for me"):
        make_bot("mybots:Broken")
    with pytest.raises(StichError, match="the seed is a whole number, not 1.5"):
        load_bot("mybots:Seeded", seed=1.5)
    with pytest.raises(StichError, match="a bot spec is text"):
        make_bot(3)
