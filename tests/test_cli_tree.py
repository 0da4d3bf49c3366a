"""``stich tree`` against ``stich solve``, its refusals said as the other commands say them, and the JSON of a
what-if (``--play``).

A tree's root holds the double-dummy total of the position and its first edges the totals each card keeps: the very
numbers ``solve --cards`` prints for the same record and objective, so the two must agree exactly on every record
the project ships.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import solver.cli.tree
import solver.tree
from solver.errors import SearchStopped
from solver.formats.tbn import parse_records
from test_cli import EXAMPLES, ROOT, documents, run


def tree_json(tmp_path: Path, *args: object) -> dict:
    """The node-link JSON ``stich tree ARGS --out tmp.json`` writes."""
    out = tmp_path / "tree.json"
    run("tree", *args, "--out", out)
    return json.loads(out.read_text(encoding="utf-8"))


def line_cards(result: dict) -> list[str]:
    """The cards of ``solve --line`` from the position on (the line's first trick also lists the cards already on
    the table)."""
    cards: list[str] = []
    for trick in result["line"]:
        cards += trick["cards"][trick["on_table"]:]
    return cards


@pytest.mark.parametrize("name", sorted(path.name for path in EXAMPLES.glob("*.tbn")))
def test_the_tree_agrees_with_solve_on_every_example_record(tmp_path, name):
    """Every record of every example, every objective ``solve -o all`` answers (each seat's own of Kratzen): the
    tree's root value is solve's total, each first card keeps the total solve gives it, the cards marked optimal are
    solve's best; and along solve's line the tree's edges are optimal and keep the root's total."""
    path = EXAMPLES / name
    documents = [json.loads(line) for line in run("solve", path, "--cards", "--line", "-o", "all", "--json",
                                                   "--threads", "1").stdout.splitlines()]
    assert documents and all("results" in document for document in documents)
    compared = 0
    for number, document in enumerate(documents, 1):
        for result in document["results"]:
            seat = [] if result["seat"] is None else ["--seat", result["seat"]]
            depth = 2 if result is document["results"][0] else 1
            graph = tree_json(tmp_path, path, "-r", number, "-d", depth, "-o", result["objective"], *seat,
                              "--threads", "1")
            assert graph["graph"]["objective"] == result["objective"]
            assert graph["graph"]["source"] == f"{path}:{document['record']['line']}"
            (root,) = [node for node in graph["nodes"] if node["id"] == "root"]
            assert root["value"] == result["total"], (number, result["objective"])
            edges = {link["card"]: (link["value"], link["optimal"]) for link in graph["links"]
                     if link["source"] == "root"}
            solved = {card: (group["total"], group["best"]) for group in result.get("cards") or []
                      for card in group["cards"]}
            assert edges == solved, (number, result["objective"], result["seat"])
            node = "root"
            for card in line_cards(result)[:depth]:  # solve's line is an optimal path through the tree
                child = card if node == "root" else f"{node} {card}"
                (link,) = [link for link in graph["links"] if (link["source"], link["target"]) == (node, child)]
                assert link["optimal"] and link["value"] == result["total"], (number, result["objective"], child)
                node = child
            compared += 1
    assert compared >= len(documents)


def test_a_variant_flag_or_a_card_of_another_game_is_said_as_every_command_says_it(tmp_path):
    """``tree --variant`` with a flag of another game than the record's says the flag is the command's, as every other
    command does (``--variant: ... (the record at FILE:10, board 1, not answered)``), not pointing at the record's
    [Game] tag as if the file were wrong. A ``--play`` card of another game's pack likewise."""
    out = tmp_path / "tree.json"
    tree = run("tree", EXAMPLES / "schafkopf.tbn", "-d", "1", "--variant", "solo_value=5", "--out", out, code=1)
    show = run("show", EXAMPLES / "schafkopf.tbn", "-b", "1", "--variant", "solo_value=5", code=1)
    expected = ("stich: --variant: variant flag solo_value is Zwanzigerrufen's, not Schafkopf's (Schafkopf's flags: "
                "laufende_mode, runaway_count_at, solo_requires_plain_trump_card) (the record at "
                f"{EXAMPLES / 'schafkopf.tbn'}:10, board 1, not answered)")
    assert tree.stderr.splitlines() == [expected] == show.stderr.splitlines()
    assert not out.exists()
    tree = run("tree", EXAMPLES / "valat.tbn", "-d", "1", "--play", "EA", "--out", out, code=1)  # Schafkopf's card
    show = run("show", EXAMPLES / "valat.tbn", "--play", "EA", code=1)
    assert tree.stderr == show.stderr == ("stich: --play: card 1: 'EA' is not a card of the Zwanzigerrufen pack "
                                          "(expected a Zwanzigerrufen card, such as T17 HK) (the record at "
                                          f"{EXAMPLES / 'valat.tbn'}:13, board 1, not answered)\n")
    assert not out.exists()


def test_a_score_tree_says_the_pot_and_the_announcements_its_values_depend_on(tmp_path):
    """A ``-o score`` tree's graph says the pot its values were settled from (``--pot 12``; none for the record's pot
    of 0, the graphs otherwise equal), and a Zwanzigerrufen tree's the announcements; a tree with neither says
    neither."""
    kratzen = EXAMPLES / "kratzen.tbn"
    empty = tree_json(tmp_path, kratzen, "-b", "2", "-d", "1", "-o", "score")["graph"]
    potted = tree_json(tmp_path, kratzen, "-b", "2", "-d", "1", "-o", "score", "--pot", "12")["graph"]
    assert "pot" not in empty and potted["pot"] == "12"
    assert {key: value for key, value in potted.items() if key != "pot"} == empty
    announced = tree_json(tmp_path, EXAMPLES / "settlement.tbn", "-d", "1", "-o", "score")["graph"]
    assert announced["announcements"] == "1: Pagat; 2: Kontra Pagat" and "pot" not in announced
    assert not {"pot", "announcements"} & set(tree_json(tmp_path, EXAMPLES / "valat.tbn", "-d", "1")["graph"])


def tree_to_file_patched(patch: str, out: Path) -> subprocess.CompletedProcess:
    """``stich tree examples/valat.tbn -d 1 --out OUT`` in a process where the Python ``patch`` ran first (a stand-in
    for a signal at a chosen moment)."""
    code = patch + "from cli.main import main\nmain()\n"
    return subprocess.run([sys.executable, "-c", code, "tree", str(EXAMPLES / "valat.tbn"), "-d", "1", "--out",
                           str(out)], cwd=ROOT, capture_output=True, text=True)


def test_an_interrupt_while_the_tree_is_written_is_said_and_leaves_no_file(tmp_path):
    """Ctrl-C while the tree is being written (seconds, for a large GraphML) says what was stopped, as one during its
    searches does, not only exit 130, and no file (nor a temporary one) is left. The interrupt is raised by the writer,
    a stand-in for Ctrl-C at that moment."""
    out = tmp_path / "tree.graphml"
    code = ("import sys, solver.tree\n"
            "def interrupted(graph, path):\n"
            "    open(path, 'w').write('<graphml')\n"
            "    raise KeyboardInterrupt\n"
            "solver.tree.write_tree = interrupted\n")
    result = tree_to_file_patched(code, out)
    assert result.returncode == 130 and "Traceback" not in result.stderr, result.stderr
    assert result.stderr == (f"stich: tree: stopped by the interrupt in the record at {EXAMPLES / 'valat.tbn'}:13: "
                             f"board 1, while its tree was written: nothing written to {out}\n")
    assert list(tmp_path.iterdir()) == []


def test_an_interrupt_as_the_tree_file_is_renamed_into_place_says_it_is_written(tmp_path):
    """A SIGTERM as the finished file is renamed into place does not say ``nothing written`` of a file written whole
    (nor, a moment later, a stop outside the command's work, not naming the file): the rename and its line are one step,
    and the stop after them says the file is whole."""
    out = tmp_path / "tree.json"
    code = ("import contextlib, os, signal, cli.tree\n"
            "renamed = cli.tree.atomic_path\n"
            "@contextlib.contextmanager\n"
            "def renaming(path):\n"
            "    with renamed(path) as temporary:\n"
            "        yield temporary\n"
            "    os.kill(os.getpid(), signal.SIGTERM)\n"
            "cli.tree.atomic_path = renaming\n")
    result = tree_to_file_patched(code, out)
    assert result.returncode == 130, result.stderr
    wrote, stopped = result.stderr.splitlines()
    assert wrote.startswith(f"stich: wrote {out} (") and stopped == (
        f"stich: tree: stopped by the interrupt after the tree of the record at {EXAMPLES / 'valat.tbn'}:13: board 1 "
        f"was written whole to {out}")
    assert json.loads(out.read_text())["graph"]["depth"] == 1 and [path.name for path in tmp_path.iterdir()] == [
        "tree.json"]


def test_a_board_on_several_records_is_said_with_the_record_that_picks_another(tmp_path, monkeypatch):
    """``tree -b N`` takes the first record of board N, as the board's page opens it; where N is on several (two ``stich
    deal`` runs appended), stderr names their lines and the ``--record`` of each, found among at most
    ``MAX_RECORDS_READ_ON`` records after it ("at least" where it stopped there, not reading the whole file). From a
    pipe it reads no record after the one it takes (its writer would be waited on)."""
    text = "".join(run("deal", "-g", "sk", "-s", str(seed), "-n", "3").stdout for seed in (1, 2))
    path = tmp_path / "twice.tbn"
    path.write_text(text, encoding="utf-8")
    out = tmp_path / "tree.json"
    result = run("tree", path, "-b", "2", "-d", "1", "--out", out)
    assert result.stderr.splitlines()[0] == (f"stich: {path}: board 2 is on 2 records (lines 8, 29): the tree is of "
                                             "the first; --record 5 picks another")
    graph = json.loads(out.read_text(encoding="utf-8"))["graph"]
    assert graph["source"] == f"{path}:8"
    assert graph["deal"] == parse_records(text)[1].get("Deal")
    path.write_text(text * 4, encoding="utf-8")  # board 2 on 8 records: the first five others named
    assert run("tree", path, "-b", "2", "-d", "1", "--out", out).stderr.splitlines()[0] == (
        f"stich: {path}: board 2 is on 8 records (lines 8, 29, 50, 71, 92, 113, ...): the tree is of the first; "
        "--record 5, 8, 11, 14 or 17 (or one of the 2 more) picks another")
    monkeypatch.setattr(solver.cli.tree, "MAX_RECORDS_READ_ON", 4)  # records 3 to 6 read after record 2
    assert run("tree", path, "-b", "2", "-d", "1", "--out", out).stderr.splitlines()[0] == (
        f"stich: {path}: board 2 is on at least 2 records (lines 8, 29): the tree is of the first; --record 5 picks "
        "another")
    piped = subprocess.run([sys.executable, "-c", "from solver.cli.main import main; main()", "tree", "-", "-b", "2",
                            "-d", "1"], input=text, capture_output=True, text=True, timeout=300)
    assert piped.returncode == 0 and piped.stderr == "" and "strategy tree" in piped.stdout


@pytest.mark.parametrize("selection", [[], ["-b", "3"], ["-r", "3"]])
def test_a_file_of_no_record_is_said_so_whatever_was_asked_of_it(tmp_path, selection):
    """``tree -b 3`` of a file of comments alone said ``no record with [Board "3"]``, ``-r 3`` ``no record 3: it has
    0 records``, where show, solve and the other commands say the file has no records at all."""
    comments = tmp_path / "comments.tbn"
    comments.write_text("% a file of comments alone\n", encoding="utf-8")
    out = tmp_path / "tree.json"
    said = (f"stich: {comments}:1:1: no records (empty, or only comments; a record starts with tags such as "
            '[Game "Schafkopf"] [Deal "..."])\n')
    assert run("tree", comments, "-d", "1", "--out", out, *selection, code=1).stderr == said
    assert run("show", comments, *selection, code=1).stderr == said
    assert not out.exists()


@pytest.mark.parametrize("command, path, play, options", [
    ("solve", "valat.tbn", "HK", ["--cards", "--line", "-o", "all"]),
    ("check", "valat.tbn", "HK T1", []),
    ("score", "schafkopf.tbn", "GA HO SU S7 SZ S9 SK", ["-b", "6"]),
    ("score", "valat.tbn", "HK", ["--dd"]),
    ("postmortem", "valat.tbn", "HK T1", []),
    ("solve", "zwanzigerrufen.tbn", "CK HN", ["-b", "7", "--cards", "--line"]),  # a trick in progress completed
    ("postmortem", "kratzen.tbn", "EA", ["-b", "2", "-o", "tricks"]),
])
def test_what_if_documents_are_valid_and_say_the_cards_and_the_position_they_reach(command, path, play, options):
    """A ``--play`` document is one of the schema's, its ``position`` the one the cards reach: as many cards more played
    than the record's own document says, the last of them on the table; a post-mortem's last cards are they. Its
    ``record`` says the cards (``play``), not the record's file and line alone, as if it were the record's own position,
    and the text's title says them too."""
    from test_cli import documents

    (document,) = documents(command, EXAMPLES / path, "--play", play.lower(), *options)  # names as the pack writes
    played = play.split()
    assert document["record"]["play"] == played
    assert run(command, EXAMPLES / path, "--play", play, *options).stdout.splitlines()[0].endswith(
        f"{document['declarer']}, what if: {play}")
    if "position" in document:  # (a score needs the whole play: the record alone is not scored)
        (record,) = documents(command, EXAMPLES / path, *options)
        assert "play" not in record["record"]
        assert "what if" not in run(command, EXAMPLES / path, *options).stdout.splitlines()[0]

        def cards_played(position: dict) -> int:
            return position["tricks_played"] * document["seats"] + len(position["trick"])

        assert cards_played(document["position"]) == cards_played(record["position"]) + len(played)
        on_table = document["position"]["trick"]
        assert on_table == played[len(played) - len(on_table):] if len(on_table) <= len(played) else \
            on_table[len(on_table) - len(played):] == played
    if command == "postmortem":
        assert [card["card"] for card in document["cards"]][-len(played):] == played


def test_tree_json_prints_the_tree_on_stdout_as_the_out_file_holds_it(tmp_path):
    """``--json`` prints the tree as one document on stdout, the very document ``--out tree.json`` writes, under the
    schema, which networkx reads back, so that a bot need not make a temporary file to read a tree; without ``--out`` or
    ``--json`` the summary ``print(tree)`` gives. A bad record says the same lines either way on stderr (and with --json
    has its failed line on stdout); ``--out`` with ``--json`` is a usage error."""
    import networkx as nx

    from test_cli import SCHEMA, schema_errors

    path = EXAMPLES / "schafkopf.tbn"
    printed = run("tree", path, "-b", "6", "-d", "2", "--json")
    document = json.loads(printed.stdout)
    assert printed.stdout.count("\n") == 1 and printed.stderr == ""
    assert document == tree_json(tmp_path, path, "-b", "6", "-d", "2")
    assert (document["schema"], document["command"]) == ("stich-result/1", "tree")
    assert schema_errors(document, SCHEMA) == [] and schema_errors(document, SCHEMA["$defs"]["tree"]) == []
    graph = nx.node_link_graph(document, edges="links")
    solved = json.loads(run("solve", path, "-b", "6", "-o", "points", "--json").stdout)["results"][0]
    assert graph.nodes["root"]["value"] == solved["total"] == 33
    assert sorted((edge["card"], edge["value"]) for _, _, edge in graph.out_edges("root", data=True)) == [
        ("GA", 33), ("SZ", 18)]
    summary = run("tree", path, "-b", "6", "-d", "2").stdout.splitlines()
    assert summary[:2] == ["Schafkopf Rufer G: strategy tree of 2 cards after 1 card played, 5 nodes",
                           "points of 1+2: 33 at the root"]
    bad = tmp_path / "bad.tbn"
    bad.write_text(path.read_text(encoding="utf-8").replace('[Contract "Rufer G"]', '[Contract "Rufer X"]', 1),
                   encoding="utf-8")
    as_json, to_file = run("tree", bad, "-d", "1", "--json", code=1), run("tree", bad, "-d", "1", "--out",
                                                                         tmp_path / "t.json", code=1)
    assert as_json.stderr == to_file.stderr and "Rufer X" in as_json.stderr and to_file.stdout == ""
    failed = json.loads(as_json.stdout)  # --json: the record's failed line, as solve's (stderr's message its error)
    assert (failed["stopped"], f"stich: {failed['error']}\n") == ("error", as_json.stderr)
    both = run("tree", path, "-d", "1", "--json", "--out", tmp_path / "t.json", code=2)
    assert "give one" in both.stderr and not (tmp_path / "t.json").exists()


def test_a_finished_deal_s_tree_says_the_deal_is_finished_with_its_result(tmp_path):
    """A finished deal's tree is its one node: ``print(tree)`` said "strategy tree of 2 cards ..., 1 node", a tree of
    cards there are not. It says the deal is finished, no cards left to play, and the result, exit 0; ``--out`` says
    it after what it wrote, and the JSON's one node is ``over`` with no links."""
    path = EXAMPLES / "schafkopf.tbn"  # board 7 is played to the end
    summary = run("tree", path, "-b", "7", "-d", "2").stdout
    assert summary == ("Schafkopf Rufer G: the deal is finished: no cards left to play (its tree is one node)\n"
                       "points of 1+3: 16, the result\n")
    out = tmp_path / "finished.graphml"
    assert run("tree", path, "-b", "7", "-d", "2", "--out", out).stderr == (
        f"stich: wrote {out} (1 node, 0 edges): the deal is finished, no cards left to play\n")
    document = json.loads(run("tree", path, "-b", "7", "-d", "2", "--json").stdout)
    (root,) = document["nodes"]
    assert root["over"] and root["value"] == 16 and document["links"] == []
    # under flags other than the defaults it says them as every other tree title does (it dropped them)
    flagged = run("tree", path, "-b", "7", "-d", "2", "--variant", "runaway_count_at=deal").stdout.splitlines()[0]
    assert flagged == ("Schafkopf Rufer G: the deal is finished: no cards left to play (its tree is one node); "
                       "rules: runaway_count_at=deal")
    unfinished = run("tree", path, "-b", "6", "-d", "1").stdout
    assert "finished" not in unfinished and "strategy tree of 1 card" in unfinished


@pytest.mark.parametrize("json_flag", [(), ("--json",)])
def test_a_refusal_over_max_nodes_without_out_says_the_tree_is_printed_not_written(tmp_path, json_flag):
    """Without --out the refusal says the tree is held to be printed (its summary, or its JSON with --json), not "a node
    written as JSON; nothing printed", since nothing is written. With --out it names the file's format."""
    valat = EXAMPLES / "valat.tbn"
    said = run("tree", valat, "--depth", 4, "--max-nodes", 3, *json_flag, code=1).stderr
    assert said == (f"stich: {valat}:13: the tree to depth 4 has more than 6 nodes, over --max-nodes 3 (about 4 KB "
                    "of memory a node held to be printed); no tree printed: ask for fewer cards (--depth), or a "
                    "larger --max-nodes (0: as many as the available memory holds)\n")
    out = tmp_path / "tree.json"
    written = run("tree", valat, "--depth", 4, "--max-nodes", 3, "--out", out, code=1).stderr
    assert "(about 4 KB of memory a node written as JSON); nothing written:" in written and not out.exists()


def test_a_tree_past_the_deal_s_end_says_the_cards_left_in_its_text_json_and_graphml(tmp_path):
    """``--depth 10`` with 7 cards left makes a tree 7 cards deep, the deal's end, and its summary, its JSON, its
    GraphML and ``--out``'s line all say so, not "strategy tree of 10 cards" nor ``depth`` 10 in the graph; a tree that
    stops short of the end keeps its words ("of 3 cards")."""
    import networkx as nx

    path = EXAMPLES / "schafkopf.tbn"  # board 6: 7 cards left after its Play section's one
    summary = run("tree", path, "-b", "6", "-d", "10").stdout.splitlines()
    assert summary[0] == "Schafkopf Rufer G: strategy tree of the 7 cards left after 1 card played, 15 nodes"
    assert run("tree", path, "-b", "6", "-d", "7").stdout.splitlines()[0] == summary[0]  # the end exactly: alike
    document = json.loads(run("tree", path, "-b", "6", "-d", "10", "--json").stdout)
    assert document["graph"]["depth"] == max(node["depth"] for node in document["nodes"]) == 7
    out = tmp_path / "past.graphml"
    assert run("tree", path, "-b", "6", "-d", "10", "--out", out).stderr == (
        f"stich: wrote {out} (15 nodes, 14 edges): the tree of the 7 cards left, to the deal's end (not 10)\n")
    assert nx.read_graphml(out).graph["depth"] == 7
    short = run("tree", path, "-b", "6", "-d", "3")
    assert short.stdout.splitlines()[0] == "Schafkopf Rufer G: strategy tree of 3 cards after 1 card played, 7 nodes"
    assert json.loads(run("tree", path, "-b", "6", "-d", "3", "--json").stdout)["graph"]["depth"] == 3
    assert run("tree", path, "-b", "6", "-d", "3", "--out", tmp_path / "short.json").stderr.endswith("edges)\n")
    finished = json.loads(run("tree", path, "-b", "7", "-d", "2", "--json").stdout)
    assert finished["graph"]["depth"] == 0  # one node, the deal over: no card deep


def test_a_refused_tree_past_the_deal_s_end_names_the_cards_left_not_the_depth_asked():
    """``--depth 64 --max-nodes 10`` with 16 cards left said "the tree to depth 64 has more than 22 nodes", a tree
    no deal has: the refusal names the tree as its summary would (of the 16 cards left), as the API's does; a
    depth short of the end keeps its words."""
    from solver.tree import TreeTooLarge, strategy_tree

    path = EXAMPLES / "schafkopf.tbn"  # board 1: 16 cards left after its Play section
    refused = run("tree", path, "-b", "1", "-d", 64, "--max-nodes", 10, code=1).stderr
    assert refused.startswith(f"stich: {path}:10: the tree of the 16 cards left has more than 22 nodes, over "
                              "--max-nodes 10 (")
    short = run("tree", path, "-b", "1", "-d", 3, "--max-nodes", 10, code=1).stderr
    assert short.startswith(f"stich: {path}:10: the tree to depth 3 has 22 nodes, over --max-nodes 10 (")
    position = next(solver.read_positions(path))
    with pytest.raises(TreeTooLarge, match="^the tree of the 16 cards left has more than 22 nodes, more than the 10 "):
        strategy_tree(position, 64, max_nodes=10)


def test_tree_json_gives_a_record_it_cannot_answer_the_line_solve_gives_it(tmp_path, monkeypatch):
    """``tree --json`` gives a record it cannot answer the line solve gives it, but for its ``command``: ``failed``
    (``unanswered`` for --time-limit), which a script reads in its place, as every other command's --json; with --board,
    each record too broken to read before it has one too."""
    bad = tmp_path / "bad.tbn"
    kratzen = (EXAMPLES / "kratzen.tbn").read_text(encoding="utf-8")
    bad.write_text("garbage [[[\n\n" + kratzen.replace("[Board \"1\"]\n[Seats \"3\"]\n[Deal \"1: EO E9 SU SZ /",
                                                           "[Board \"1\"]\n[Seats \"3\"]\n[Deal \"1: EO E9 SU XX /"),
                   encoding="utf-8")

    def lines(command: str, *args: object, code: int = 1) -> list[dict]:
        found = documents(command, bad, *args, code=code)
        assert all(document["command"] == command for document in found)
        return [{key: value for key, value in document.items() if key != "command"} for document in found]

    unreadable, broken = lines("solve", "-b", "1")
    assert unreadable["stopped"] == broken["stopped"] == "error" and broken["record"]["board"] == "1"
    assert "'XX'" in broken["error"]
    assert lines("tree", "-b", "1", "-d", "1") == [unreadable, broken]
    assert lines("tree", "-d", "1") == [unreadable]  # the first record, too broken to read
    for refusal in (("--variant", "tie_44=no_score"), ("--play", "T1")):
        (refused,) = lines("solve", "-b", "2", *refusal)[1:]
        assert refused["stopped"] == "error" and refused["error"].startswith(refusal[0] + ": ")
        assert lines("tree", "-b", "2", "-d", "1", *refusal) == [unreadable, refused]
    for refusal, said in ((("-d", "1", "--seat", "9", "-o", "tricks"),
                           "--seat: seat 9 is not a seat of this 4-seat deal"),
                          (("-d", "4", "--max-nodes", "3"), f"{bad}:22: the tree to depth 4 has more than 5 nodes")):
        stderr = run("tree", bad, "-b", "2", *refusal, "--json", code=1).stderr.splitlines()
        (refused,) = lines("tree", "-b", "2", *refusal)[1:]
        assert refused["stopped"] == "error" and refused["record"]["board"] == "2"
        assert refused["error"].startswith(said) and f"stich: {refused['error']}" == stderr[-1]
    tree = lines("tree", "-b", "2", "-d", "1")  # the board answered: its tree after the unreadable record's line
    assert tree[0] == unreadable and tree[1]["graph"]["board"] == "2"

    def stopped(*args: object, **kwargs: object) -> None:
        raise SearchStopped("the time limit ran out")

    monkeypatch.setattr(solver.tree, "strategy_tree", stopped)
    ran_out = documents("tree", EXAMPLES / "kratzen.tbn", "-b", "2", "-d", "1", "--time-limit", "5", code=1)
    assert [(line["command"], line["stopped"], line["record"]["board"], line["game"]) for line in ran_out] == [
        ("tree", "time limit", "2", "Kratzen")]
    assert ran_out[0]["error"].endswith("no tree printed: the time limit (5 s) ran out before the answer (give it "
                                        "more time: --time-limit)")
    (what_if,) = documents("tree", EXAMPLES / "kratzen.tbn", "-b", "2", "-d", "1", "--time-limit", "5", "--play", "EA",
                           code=1)  # after --play's cards, as solve's line says them: not the record's own position
    assert what_if["stopped"] == "time limit" and what_if["record"]["play"] == ["EA"]


def test_tree_gives_the_score_in_the_unit_check_gives_it():
    """A tree by the score says its root's value with its sign and unit, as ``check`` says the same score: game
    units, or chips in a game paid from a pot."""
    path = EXAMPLES / "schafkopf.tbn"
    summary = run("tree", path, "-b", "6", "-d", "1", "-o", "score").stdout.splitlines()
    assert summary[1] == "score of 1+2: +2 game units at the root"
    assert "score (double dummy): declarers 1+2 net +2 game units" in run("check", path, "-b", "6").stdout
    kratzen = run("tree", EXAMPLES / "kratzen.tbn", "-b", "1", "-d", "1", "-o", "score").stdout.splitlines()
    assert kratzen[1] == "score of seat 1: 0 chips at the root"


def test_an_objective_of_another_game_is_the_flag_s_error_not_the_contract_s():
    """``tree -o tout`` on a Kratzen record pointed at the record's ``[Contract]`` tag (``FILE:15:12:``), which is not
    wrong: the flag is. It is said as ``--objective``'s error for that record, on stderr and as its --json line."""
    path = EXAMPLES / "kratzen.tbn"
    said = run("tree", path, "-b", "1", "-d", "1", "-o", "tout", code=1)
    assert said.stdout == "" and said.stderr == (
        "stich: --objective: objective 'tout' belongs to Schafkopf, not to Kratzen (for Kratzen Trump S choose from: "
        f"tricks; solve and tree also take 'score') (the record at {path}:10, board 1, not answered)\n")
    failed = json.loads(run("tree", path, "-b", "1", "-d", "1", "-o", "tout", "--json", code=1).stdout)
    assert f"stich: {failed['error']}\n" == said.stderr and failed["stopped"] == "error"


def test_an_objective_given_by_the_start_of_its_name_suggests_the_names_it_begins():
    """``-o pagat`` suggests the Pagat bonuses it begins before 'valat' (spelt alike); a misspelling still gets the
    names spelt alike."""
    valat = EXAMPLES / "valat.tbn"
    for command in (("tree", valat, "-d", "1"), ("solve", valat)):
        said = run(*command, "-o", "pagat", code=2).stderr
        assert "'pagat' is no game's objective; did you mean 'pagat_beaten' or 'pagat_ultimo'? (" in said
        assert "did you mean 'valat'? (" in run(*command, "-o", "valt", code=2).stderr


def test_an_objective_is_asked_and_named_as_the_tables_name_it():
    """``check`` and ``solve`` title their rows ``Pagat Ultimo beaten`` and ``Valat against``: ``-o`` takes those
    titles as the objectives (the JSON keeps the identifier), the tree's summary says the bonus as check does, and a
    misspelt title is pointed at the objective it names first."""
    path = EXAMPLES / "pagat_ultimo.tbn"
    (asked,) = documents("solve", path, "-o", "Pagat Ultimo beaten", "-o", "valat AGAINST", "-o", "Pagat Ultimo")
    assert [(result["objective"], result["success"]) for result in asked["results"]] == [
        ("pagat_beaten", False), ("valat_against", False), ("pagat_ultimo", True)]
    summary = run("tree", path, "-d", "1", "-o", "Valat against").stdout.splitlines()
    assert summary[1] == "Valat against of 3+4: 0 (needs 10) at the root"
    assert run("tree", path, "-d", "1", "-o", "pagat_ultimo").stdout.splitlines()[1] == (
        "Pagat Ultimo of 1+2: 1 (needs 1) at the root")
    assert "did you mean 'Pagat Ultimo' or 'Pagat Ultimo beaten'? (" in run("solve", path, "-o", "Pagat Ultimate",
                                                                           code=2).stderr
    assert "did you mean 'Pagat Ultimo beaten' or 'Pagat Ultimo'? (" in run("solve", path, "-o", "Pagat Ultimo beatn",
                                                                           code=2).stderr


def test_a_misspelt_objective_is_offered_in_the_form_it_was_written_in():
    """A misspelt title is offered the titles (``4 Kings``, ``Valat``), which ``-o`` takes, rather than the
    identifiers (``four_kings``) it would not have guessed; a misspelt name is offered names, and ``score``, which
    has no title, its name."""
    path = EXAMPLES / "valat.tbn"
    offered = {written: run("solve", path, "-o", written, code=2).stderr.split("; ", 1)[1].split("? (")[0]
               for written in ("4 King", "Valt", "valt", "four_kngs", "pagat_beatn", "Valat agaist", "Scroe")}
    assert offered == {"4 King": "did you mean '4 Kings'", "Valt": "did you mean 'Valat'",
                       "valt": "did you mean 'valat'", "four_kngs": "did you mean 'four_kings'",
                       "pagat_beatn": "did you mean 'pagat_beaten' or 'pagat_ultimo'",
                       "Valat agaist": "did you mean 'Valat against' or 'Absolut against'",
                       "Scroe": "did you mean 'score'"}  # no title: offered by its name
    # what is offered is taken: the title of a dealt bonus is told the cards decide it, not refused as unknown
    assert "'4 Kings' is decided by the cards (Zwanzigerrufen: who holds them)" in run("solve", path, "-o", "4 Kings",
                                                                                       code=2).stderr
    (asked,) = documents("solve", path, "-o", "Valat against")
    assert [result["objective"] for result in asked["results"]] == ["valat_against"]


def test_an_out_named_by_a_suffix_alone_is_said_to_be_a_hidden_file_s_whole_name(tmp_path):
    """``--out .json`` was refused with "the tree is written as .graphml, .gexf, .json", which it seems to be: its
    name is a hidden file's, with no suffix, and the refusal says so and what to give; the API's says the same."""
    from solver.tree import write_tree

    path = EXAMPLES / "schafkopf.tbn"
    hidden = run("tree", path, "-b", "6", "-d", "1", "--out", tmp_path / ".json", code=2).stderr
    assert (f"{tmp_path / '.json'}: the tree is written as .graphml, .gexf, .json, by the name's suffix: .json is a "
            "hidden file's whole name, with none (name the tree, such as tree.json)") in " ".join(
        hidden.replace("│", " ").split())
    bare = run("tree", path, "-b", "6", "-d", "1", "--out", tmp_path / "tree", code=2).stderr
    assert "by the name's suffix, which tree has not" in " ".join(bare.replace("│", " ").split())
    with pytest.raises(solver.errors.StichError, match=r"\.txt: the tree is written as \.graphml, \.gexf, \.json, "
                                                       r"not \.txt$"):
        write_tree(solver.tree.strategy_tree(next(solver.read_positions(path)), 0), tmp_path / "t.txt")
    assert not list(tmp_path.iterdir())
