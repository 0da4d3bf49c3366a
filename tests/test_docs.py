"""The docs against the command line. A new user follows README.md and docs/*.md word by word: every command they
show must exist with the options they give it, every option that ``--help`` shows must be documented, and an output
they show must be what the command prints (the lines shown, in order; the docs may leave lines out, such as the hand
diagram). Each check once caught a mismatch: a postmortem example without its ``(handed over)`` marks, options that
no page named (``-c``, ``-d``, ``table --settlement``)."""

from __future__ import annotations

import json
import re
import shlex
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

import click
import pytest
import typer
from typer.testing import CliRunner

from solver.cli.main import COMMANDS, app

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
TEXT = {page: page.read_text(encoding="utf-8") for page in PAGES}
ALL_TEXT = "\n".join(TEXT.values())

runner = CliRunner()


def command_of(name: str) -> Any:
    """The click command behind ``stich NAME`` (the root group imports a command's module only when asked)."""
    root = typer.main.get_command(app)
    return root.get_command(click.Context(root, info_name="stich"), name)


def options_of(name: str, hidden: bool = True) -> set[str]:
    """Every option name of ``stich NAME``: long and short, the ``--no-`` halves of a switch (hidden ones only when
    ``hidden``: ``--threads`` of batch and analyse is only there to be refused with what to give instead)."""
    return {option for param in command_of(name).params if hidden or not getattr(param, "hidden", False)
            for option in (*param.opts, *param.secondary_opts) if option.startswith("-")} | {"--help"}


def mentioned(option: str, text: str) -> bool:
    """Whether ``option`` appears in ``text`` as itself (``--pot``, not ``--pots`` or ``--potx``)."""
    return re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", text) is not None


@dataclass
class Shown:
    """A command line in the docs: where, and the text from ``stich`` on."""

    page: str
    line: int
    text: str


def shown_commands() -> Iterator[Shown]:
    """Every ``stich COMMAND ...`` the docs show: a line of a code block (after a ``$`` prompt; a synopsis goes on in
    the indented ``[...`` lines under it) or a code span of the prose (which may run over a line's end)."""
    for page, text in TEXT.items():
        found: list[tuple[int, str]] = []
        paragraph: list[tuple[int, str]] = []
        in_block = False
        last_command = 0  # the line of the code block's last command line, which a synopsis's next lines go on
        for number, line in enumerate([*text.splitlines(), ""], 1):
            fence = line.strip().startswith("```")
            in_block = in_block != fence
            if in_block or fence or not line.strip():
                found += code_spans(paragraph)
                paragraph = []
            else:
                paragraph.append((number, line))
            if (in_block and not fence) or line.startswith("    "):
                command = re.match(r"\s*(?:\$ )?(stich [a-z]+\b(?!:).*)", line)  # not a message: "stich board: ..."
                if command:
                    found.append((number, command.group(1)))
                    last_command = number
                elif last_command == number - 1 and re.match(r"\s+\[", line):
                    found[-1] = (found[-1][0], f"{found[-1][1]} {line.strip()}")
                    last_command = number
        for number, shown in found:
            # one span may hold a pipe of commands (`stich deal ... | stich check -`)
            for part in re.split(r"\s\\?\|\s(?=stich )", shown):
                command = re.search(r"(?<![\w:/.-])stich ([a-z]+)\b(.*)", part)
                if command and not command.group(1) == "started":  # "(it was closed when stich started)"
                    yield Shown(page.name, number, f"stich {command.group(1)}{command.group(2)}")


def code_spans(paragraph: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The code spans of a paragraph of prose that hold a ``stich`` command, each with the line it starts on."""
    text = " ".join(line.strip() for _, line in paragraph)
    return [(next((number for number, line in paragraph if span[:20] in line), paragraph[0][0]), span)
            for span in text.split("`")[1::2] if re.search(r"\bstich [a-z]", span)]


def test_stich_help_lists_every_command_with_its_one_line() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0, result.stderr
    listed = re.findall(r"^  ([a-z]+)  +(\S.*)$", result.stdout, re.MULTILINE)
    assert [name for name, _ in listed] == [name for name, _, _ in COMMANDS]
    for (name, first_words), (_, _, line) in zip(listed, COMMANDS):
        assert line.startswith(first_words.strip()), name


def test_every_command_is_described_in_cli_md_and_every_page_names_only_real_ones() -> None:
    cli_md = TEXT[ROOT / "docs" / "cli.md"]
    names = [name for name, _, _ in COMMANDS]
    assert [name for name in names if f"`stich {name}" not in cli_md] == []
    assert sorted({f"{shown.page}:{shown.line}: {shown.text}" for shown in shown_commands()
                   if shown.text.split()[1] not in names}) == []


def test_every_option_that_help_shows_is_in_the_docs() -> None:
    """Long and short forms: a user who meets an option in ``--help`` finds it explained."""
    missing = [f"{name} {option}" for name, _, _ in COMMANDS for option in sorted(options_of(name, hidden=False))
               if not mentioned(option, ALL_TEXT)]
    assert missing == []


def test_the_synopses_of_a_command_show_every_option_its_help_does() -> None:
    """A synopsis is a shown command line with options in brackets (``stich solve FILE [--board N | ...]``): the
    synopses of a command show, between them, every option of its ``--help`` (long or short form)."""
    synopses: dict[str, str] = {}
    for shown in shown_commands():
        if " [-" in shown.text:
            name = shown.text.split()[1]
            synopses[name] = f"{synopses.get(name, '')} {shown.text}"
    missing = [f"{name} {param.opts[0]}" for name, _, _ in COMMANDS for param in command_of(name).params
               if type(param).__name__.endswith("Option") and not param.hidden
               and not any(mentioned(form, synopses.get(name, "")) for form in (*param.opts, *param.secondary_opts))]
    assert missing == []


@pytest.mark.parametrize("option, exact", [("--play", True), ("--table-mb", True), ("--threads", True),
                                           ("--time-limit", False), ("--seed", True), ("--workers", True)])
def test_the_commands_cli_md_lists_for_a_shared_option_are_those_that_take_it(option: str, exact: bool) -> None:
    """cli.md's conventions name, for each option that several commands share, the commands that take it (not "every
    command that searches" for ``--table-mb``, which match is not among). ``--time-limit`` lists the commands where it
    bounds a record's searches; analyse, match and board have one of their own."""
    bullet = re.search(rf"^\* \*\*`(?:-[a-z] [A-Z]+` / `)?{option}[^`]*`\*\* \(([^)]*)\)",
                       TEXT[ROOT / "docs" / "cli.md"], re.MULTILINE)
    assert bullet is not None
    named = set(re.findall(r"`([a-z]+)(?: --dd)?`", bullet.group(1)))
    taking = {name for name, _, _ in COMMANDS if option in options_of(name, hidden=False)}
    assert named == taking if exact else named <= taking


def test_readme_names_the_commands_that_take_json() -> None:
    """README's sentence on ``--json`` names every command that takes it, and only those: not "every command that
    reports on records", which ``show`` and ``tree`` are without a ``--json``, and not ``bench`` among them."""
    text = " ".join(TEXT[ROOT / "README.md"].split())
    sentence = re.search(r"((?:`[a-z]+`,? (?:and )?)+)take `--json`: (.*?)Every command that reads records", text)
    assert sentence is not None
    named = set(re.findall(r"`([a-z]+)`", sentence.group(1))) | set(re.findall(r"`([a-z]+) --json`", sentence.group(2)))
    assert named == {name for name, _, _ in COMMANDS if "--json" in options_of(name)}


def test_a_short_option_is_the_long_one_cli_md_says_in_every_command() -> None:
    """cli.md's "One meaning per flag": each short option is one long option wherever it is taken (``-o`` is
    ``--objective``, ``-n`` ``--count`` or, in ``analyse``, ``--samples``); a new short form is said there too."""
    text = " ".join(TEXT[ROOT / "docs" / "cli.md"].split())
    bullet = text[text.index("**One meaning per flag**"):]
    bullet = bullet[:bullet.index(" * **")]
    said = {short: long for short, long in re.findall(r"`(-[a-z])` (?:is )?`(--[a-z-]+)`", bullet)}
    count = re.search(r"`-n` a count \(`(--[a-z-]+)`, [^;]*; `(--[a-z-]+)` in `([a-z]+)`", bullet)
    assert count is not None, "cli.md's bullet says what -n is"
    said["-n"] = count[1]
    exception = (count[3], "-n"), count[2]
    shorts: dict[str, set[str]] = {}
    for name, _, _ in COMMANDS:
        for param in command_of(name).params:
            longs = [option for option in param.opts if option.startswith("--")]
            for short in (option for option in param.opts if re.fullmatch(r"-[a-z]", option)):
                expected = exception[1] if (name, short) == exception[0] else said.get(short)
                shorts.setdefault(short, set()).add(name)
                assert expected in longs, f"{name} {short} is {longs}, cli.md says {expected}"
    assert set(shorts) == set(said)


def test_every_command_the_docs_show_takes_the_options_they_give_it() -> None:
    """``stich solve FILE --board 7 -o points``: each option of a shown command line is one of that command's (the
    options inside a synopsis's brackets too)."""
    wrong = []
    for shown in shown_commands():
        _, name, rest = (shown.text + " ").split(" ", 2)
        if name not in {name for name, _, _ in COMMANDS}:
            continue  # said by the test above
        rest = re.sub(r'"[^"]*"', '""', rest)  # a quoted value ("T17 T1", "1: Pagat Ultimo") holds no option
        for option in re.findall(r"(?<![\w-])(--?[a-zA-Z][\w-]*)", rest):
            if option not in options_of(name):
                wrong.append(f"{shown.page}:{shown.line}: {name} has no {option}: {shown.text}")
    assert wrong == []


def test_every_file_a_readme_command_reads_is_shipped_or_made_by_a_command_before_it() -> None:
    """A new user types README's commands in order on a fresh checkout: each ``.tbn`` file one reads is in the
    repository (``examples/valat.tbn``) or written by a command shown before it (``stich deal ... > deals.tbn``), not a
    file nothing makes (as ``stich analyse played.tbn --seat 2`` would be)."""
    made: set[str] = set()
    missing = []
    for shown in sorted((shown for shown in shown_commands() if shown.page == "README.md"), key=lambda s: s.line):
        words = shlex.split(shown.text.replace("...", ""))
        read = [word for word in words[2:] if word.endswith(".tbn") and words[words.index(word) - 1] != ">"]
        missing += [f"README.md:{shown.line}: {name}" for name in read
                    if name not in made and not (ROOT / name).is_file()]
        made |= {words[n + 1] for n, word in enumerate(words[:-1]) if word in (">", "--out")}
    assert missing == []


# --- the outputs the docs show ---------------------------------------------------------------------------------------

@dataclass
class Example:
    """A command with the output the docs show for it: a ``$ stich ...`` line with the lines under it, or a
    paragraph ending in ``:`` whose last code span is a ``stich`` command (or a code block of that one command line)
    followed by a code block of its output."""

    page: str
    line: int
    command: str
    output: list[str]
    exit_code: int = 0


def fenced_blocks(text: str) -> Iterator[tuple[int, str, list[str], list[str]]]:
    """Each fenced block: its first line's number, its language, its lines (unindented) and the prose lines of the
    paragraph before it."""
    lines = text.splitlines()
    number = 0
    while number < len(lines):
        fence = lines[number].strip()
        if not fence.startswith("```"):
            number += 1
            continue
        indent = len(lines[number]) - len(lines[number].lstrip())
        end = next(n for n in range(number + 1, len(lines)) if lines[n].strip().startswith("```"))
        before = number - 1
        while before >= 0 and not lines[before].strip():
            before -= 1
        start = before
        while start > 0 and lines[start - 1].strip() and not lines[start - 1].strip().startswith("```"):
            start -= 1
        paragraph = lines[start:before + 1] if before >= 0 and not lines[before].strip().startswith("```") else []
        yield number + 1, fence[3:], [line[indent:] for line in lines[number + 1:end]], paragraph
        number = end + 1


def examples() -> Iterator[Example]:
    for page, text in TEXT.items():
        previous: list[str] = []
        for number, language, block, paragraph in fenced_blocks(text):
            if block and block[0].startswith("$ stich"):
                commands = [n for n, line in enumerate(block) if line.startswith("$ ")]
                for index, start in enumerate(commands):
                    end = commands[index + 1] if index + 1 < len(commands) else len(block)
                    if block[start].startswith("$ echo $?"):
                        continue
                    exit_code = 0
                    if end < len(block) and block[end].strip() == "$ echo $?":
                        exit_code = int(block[end + 1])
                    yield Example(page.name, number + start + 1, block[start][2:], block[start + 1:end], exit_code)
            elif language in ("", "json") and block and not block[0].startswith("stich "):
                spans = [span for span in " ".join(paragraph).split("`")[1::2] if span.startswith("stich ")
                         and len(span.split()) > 2]  # `stich analyse` alone names a command, it shows no run
                if paragraph and paragraph[-1].rstrip().endswith(":") and spans:
                    yield Example(page.name, number, spans[-1], block)
                elif len(previous) == 1 and previous[0].startswith("stich ") and not paragraph:
                    yield Example(page.name, number, previous[0], block)
            previous = block


#: What is not run: timings change from run to run, and the board serves until it is stopped (its startup lines are
#: tested in test_board_api.py). A match is run: seeded, it is the same match on any number of workers (2 to 3 s).
NOT_RUN = ("stich bench", "stich board")


def runnable_examples() -> list[Any]:
    return [pytest.param(example, id=f"{example.page}:{example.line}") for example in examples()
            if not example.command.startswith(NOT_RUN)]


def test_the_examples_are_found() -> None:
    """The collection below is not empty by accident: the docs' main examples are in it."""
    commands = {example.command for example in examples()}
    assert {"stich solve examples/valat.tbn --cards --line", "stich check examples/valat.tbn",
            "stich show examples/valat.tbn", "stich solve examples/valat.tbn --play HK -o valat",
            "stich solve examples/settlement.tbn --cards --line", "stich score examples/settlement.tbn --dd",
            "stich postmortem examples/schafkopf.tbn --board 7",
            "stich solve examples/kratzen.tbn --board 1 --json",
            # README's single-dummy report: once shown without its command, so nothing ran it and it went stale
            'stich analyse --game schafkopf --hand "EU E8 E7 GK GO HA H9 SU" --seat 1 --contract "Rufer E" '
            '--samples 200 --seed 1'} <= commands


def without_timings(document: Any) -> Any:
    if isinstance(document, dict):
        return {key: without_timings(value) for key, value in document.items() if key not in ("nodes", "seconds")}
    if isinstance(document, list):
        return [without_timings(value) for value in document]
    return document


@pytest.mark.parametrize("example", runnable_examples())
def test_the_docs_show_what_the_command_prints(example: Example, tmp_path: Path, monkeypatch) -> None:
    """The shown lines appear in the command's output in the order shown (stdout, then stderr); a JSON document
    equals the command's but for its timings. Run from the project's root, as the docs' paths are."""
    monkeypatch.chdir(ROOT)
    arguments = shlex.split(example.command)[1:]
    if "--plot" in arguments:  # the docs' own picture stays as it is
        arguments[arguments.index("--plot") + 1] = str(tmp_path / "plot.png")
    result = runner.invoke(app, arguments)
    assert result.exit_code == example.exit_code, (result.stdout, result.stderr)
    if example.output and example.output[0].startswith("{"):
        assert without_timings(json.loads(result.stdout)) == without_timings(json.loads(example.output[0]))
        return
    printed = [line.rstrip() for line in (result.stdout + result.stderr).splitlines()]
    at = 0
    for line in (line.rstrip() for line in example.output):
        if line in ("...", ""):
            continue
        assert line in printed[at:], f"{example.page}:{example.line}: {line!r} is not printed (in this order)"
        at = printed.index(line, at) + 1


def test_json_md_lists_the_match_document_s_keys_in_the_order_they_are_written() -> None:
    """``stich match --json`` streams its document (the arguments' keys, the deals one by one, the summary), so its
    keys' order is what a reader of the stream meets: json.md lists them in the order the command writes them (``deals``
    after ``variant``, ``engine_builds`` after ``declaring_side``), not ``deals`` last and ``engine_builds`` before
    ``bots``."""
    result = runner.invoke(app, ["match", "--game", "schafkopf", "--bots", "cheater,random,random,random", "-n", "1",
                                 "--json"])
    assert result.exit_code == 0, result.stderr
    keys = [key for key in json.loads(result.stdout) if key != "schema"]  # json.md names it only in a range
    assert "difference" in keys
    text = TEXT[ROOT / "docs" / "json.md"]
    paragraph = text[text.index("`stich match --json` prints one document"):]
    paragraph = paragraph[:paragraph.index("\n\n")]
    # a key's own place, not a deal's field of the same name ("`bots` and `payments` in seat order")
    places = [re.search(rf"`{key}`(?! and )", paragraph).start() for key in keys]
    assert places == sorted(places), [key for _, key in sorted(zip(places, keys))]


def test_json_md_s_tree_table_names_every_key_of_the_tree_document_and_its_parts() -> None:
    """``stich tree --json``'s document: every key at its top level, of its ``graph``, its nodes and its links is in
    json.md's ``tree`` section (its table left out ``schema`` and ``command``, which the document starts with)."""
    result = runner.invoke(app, ["tree", str(ROOT / "examples" / "valat.tbn"), "--depth", "1", "--json"])
    assert result.exit_code == 0, result.stderr
    document = json.loads(result.stdout)
    text = TEXT[ROOT / "docs" / "json.md"]
    section = text[text.index("## `tree`"):text.index("## `unanswered`")]
    keys = {*document, *document["graph"], *document["nodes"][0], *document["links"][0]}
    assert {"schema", "command", "links", "maximiser", "to_move", "optimal"} <= keys
    assert sorted(key for key in keys if f"`{key}`" not in section and not re.search(rf"[{{ ]{key}[,}}]", section)) \
        == []


def test_json_md_names_every_top_level_key_whose_kind_differs_between_documents() -> None:
    """A script reading several kinds of document meets ``declaring_side`` as seats (``solve``) and as a mean payment
    (``match``), ``deals`` and ``boards`` as a number in one and a list in the other: json.md's conventions say so,
    and this finds any such name in the schema's documents (a new one is said there, or better, named apart)."""
    schema = json.loads((ROOT / "docs" / "stich-result.schema.json").read_text(encoding="utf-8"))
    simple = {"seats": "array", "cards": "array", "payments": "array", "wilsonInterval": "array", "scoreNotes": "array",
              "seat": "integer", "count": "integer", "probability": "number", "intervalNote": "string"}

    def kind(node: dict[str, Any]) -> str:
        if "$ref" in node:
            return simple.get(node["$ref"].rsplit("/", 1)[1], "object")
        if "oneOf" in node:
            return "|".join(sorted({kind(option) for option in node["oneOf"]} - {"null"}))
        types = node.get("type")
        return "|".join(t for t in types if t != "null") if isinstance(types, list) else str(types)

    kinds: dict[str, set[str]] = {}
    for document in schema["oneOf"]:
        for key, node in schema["$defs"][document["$ref"].rsplit("/", 1)[1]].get("properties", {}).items():
            kinds.setdefault(key, set()).add(kind(node))
    differing = sorted(key for key, found in kinds.items() if len(found) > 1)
    assert differing == ["boards", "deals", "declaring_side"]
    text = TEXT[ROOT / "docs" / "json.md"]
    bullet = text[text.index("* **One name, two things.**"):]
    bullet = re.split(r"\n(?:\* |\n)", bullet, maxsplit=1)[0]
    assert [key for key in differing if f"`{key}`" not in bullet] == []


def test_cli_md_s_bench_examples_show_what_bench_prints_but_for_its_timings(tmp_path: Path, monkeypatch) -> None:
    """``stich bench`` is not run with the other examples (its figures change from run to run), so its shown lines could
    go stale unnoticed: the lines that hold no timing nor the machine (the header, the footnotes, the ``x:`` footnote on
    one line) must be printed as shown, in the same order."""
    monkeypatch.chdir(tmp_path)  # --out before.json is written here, and --compare reads it back
    bench = [example for example in examples() if example.command.startswith("stich bench")]
    assert [example.command for example in bench] == ["stich bench --game kratzen -n 10 --out before.json",
                                                      "stich bench --game kratzen -n 10 --compare before.json"]
    for example in bench:
        result = runner.invoke(app, shlex.split(example.command)[1:])
        assert result.exit_code == 0, result.stderr
        # spaces collapsed: a column is as wide as its figures (nodes/s of another machine)
        printed = [" ".join(line.split()) for line in result.stdout.splitlines()]
        # the title says the threads, which depend on the machine's cores
        fixed = [" ".join(line.split()) for line in example.output if line.startswith(("┃", "table:", "deals:",
                                                                                       "x:"))]
        assert len(fixed) >= 3
        assert [line for line in printed if line in fixed] == fixed, example.command


def test_cli_md_lists_every_game_alias_and_each_resolves_to_its_game() -> None:
    """docs/cli.md's ``--game`` bullet is where a player learns the short forms (``zw``, ``sk``, ``kr``): each alias
    it lists is one of that game's and reads as that game on the command line, and every game's alias is listed;
    the README's and the other pages' examples of aliases are aliases too."""
    from solver.games import GAMES, get_game

    bullet = next(paragraph for paragraph in TEXT[ROOT / "docs" / "cli.md"].split("\n* ")
                  if paragraph.startswith("**`--game G`**"))
    listed = {game.name: re.findall(r"`([a-z]+)`", re.search(rf"{game.name} ((?:`[a-z]+`,?\s*)+)", bullet)[1])
              for game in GAMES}
    for game in GAMES:
        assert sorted(listed[game.name]) == sorted(set(game.aliases) - {game.name.lower()})
        for alias in listed[game.name]:
            assert get_game(alias) is game and get_game(alias.upper()) is game
            result = runner.invoke(app, ["deal", "-g", alias, "-n", "1"])
            assert result.exit_code == 0 and f'[Game "{game.name}"]' in result.stdout
    every = {alias for aliases in listed.values() for alias in aliases}
    examples = re.findall(r"alias:? \(?([^)\n]*)\)", ALL_TEXT)  # (any alias: `zr`, ...), an alias (`zr`, ...)
    assert len(examples) >= 3
    for example in examples:
        assert set(re.findall(r'`"?([a-z]+)"?`', example)) <= every, example
    assert {"zr", "zw", "tarock", "sk", "kr"} <= every


def test_the_docs_write_the_variant_option_s_syntax_as_its_help_does() -> None:
    """``--variant`` takes ``NAME=VALUE`` in help (a metavar in capitals, as FILE and SECONDS), so the docs write its
    syntax so too; a concrete example gives a flag in lower case (``--variant sagotrick=off``), never ``--variant
    name=value`` as if ``name`` were typed."""
    from solver.games import GAMES

    help_text = runner.invoke(app, ["analyse", "--help"], terminal_width=200).stdout
    assert "--variant NAME=VALUE" in " ".join(help_text.split())
    given = re.findall(r"--variant ([^\s`\]\[|=]+)=", ALL_TEXT)
    assert given.count("NAME") >= 10 and "--variant name=value" not in ALL_TEXT
    flags = {flag for game in GAMES for flag in game.variant()} | {"x"}  # x: batch.md's case-folding example
    assert set(given) - {"NAME"} <= flags, set(given) - {"NAME"} - flags


def test_rules_md_lists_every_variant_flag_with_its_values_default_first() -> None:
    """docs/rules.md's table of variant flags is where a user learns what ``--variant`` takes: each row is a flag of
    its game with the RULES.md paragraph it reads differently and the values the flag takes, the default first (a
    number flag its default and range), and every flag of every game has its row."""
    from solver.games import GAMES
    from solver.variant import value_text

    text = TEXT[ROOT / "docs" / "rules.md"]
    rulebook = (ROOT / "docs" / "rulebook" / "RULES.md").read_text(encoding="utf-8")
    # each numbered paragraph of RULES.md (### 1.4 ...), to the next heading
    paragraphs = dict(re.findall(r"^#{2,3} (\d\.\d)\b(.*?)(?=^#)", rulebook, re.MULTILINE | re.DOTALL))
    rows = re.findall(r"^\| ?(\w*) \| `(\w+)` \| ([^|]*?) \| ([^|]*?) \| .* \|$", text, re.MULTILINE)
    listed: dict[tuple[str, str], str] = {}
    game = ""
    for name, flag, cited, values in rows:
        game = name or game
        listed[(game, flag)] = values
        numbers = re.findall(r"\d\.\d", cited)
        assert numbers and re.fullmatch(r"\d\.\d(, \d\.\d)*( \(ours\))?", cited), (flag, cited)
        assert all(number in paragraphs for number in numbers), (flag, cited)  # each a paragraph of RULES.md
        if not cited.endswith("(ours)"):  # a flag of the rule book: one of its paragraphs names it
            assert any(re.search(rf"\b{flag}\b", paragraphs[number]) for number in numbers), (flag, cited)
    expected = {}
    for each in GAMES:
        for flag in each.flags.values():
            if flag.kind is bool:
                values = [flag.default, not flag.default]
                shown = ", ".join(f"`{value_text(value)}`" for value in values)
            elif flag.kind is int and flag.maximum - flag.minimum > 2:  # a range; a short one as its values
                shown = f"`{flag.default}` ({flag.minimum}..{flag.maximum})"
            elif flag.kind is int:
                ordered = [flag.default, *(value for value in range(flag.minimum, flag.maximum + 1)
                                            if value != flag.default)]
                shown = ", ".join(f"`{value}`" for value in ordered)
            else:
                ordered = [flag.default, *(value for value in flag.kind if value != flag.default)]  # type: ignore
                shown = ", ".join(f"`{value}`" for value in ordered)
            expected[(each.name, flag.name)] = shown
    assert listed == expected


def test_limits_md_gives_each_limit_the_value_of_its_constant() -> None:
    """docs/limits.md's table names the constant behind each limit of the reader: the value it says is the constant's
    (a limit raised in the code would leave the page promising the old one)."""
    import importlib

    import solver.formats.tbn as tbn

    rows = re.findall(r"^\| [^|]+ \| ([\d,]+)[^|]* \| `([\w.]+)` \|$", TEXT[ROOT / "docs" / "limits.md"], re.MULTILINE)
    assert len(rows) >= 9
    wrong = []
    for value, constant in rows:
        module, name = (importlib.import_module(constant.rsplit(".", 1)[0]), constant.rsplit(".", 1)[1]) \
            if "." in constant else (tbn, constant)
        if int(value.replace(",", "")) != getattr(module, name):
            wrong.append(f"{constant}: limits.md {value}, the code {getattr(module, name)}")
    assert wrong == []


def test_the_docs_give_piped_tables_the_width_the_command_gives_them() -> None:
    """cli.md says how wide a piped table is (``piped or written to a file they are 110 columns wide``, ``Piped
    (110 columns)``): every such width is ``PIPE_WIDTH``, the one the command sets, so that a width changed in the
    code cannot leave the page promising the old one."""
    from solver.cli.render import PIPE_WIDTH

    widths = [(page.name, int(match.group(1))) for page, text in TEXT.items()
              for match in re.finditer(r"[Pp]iped\b[^.:;]*?\b(\d+) columns", text)]
    assert len(widths) >= 3 and ("cli.md", PIPE_WIDTH) in widths
    assert [(page, width) for page, width in widths if width != PIPE_WIDTH] == []


@pytest.mark.parametrize("name", ["batch", "analyse"])
def test_the_pool_table_mb_help_gives_each_table_the_share_of_worker_memory_it_gets(name: str) -> None:
    """``--table-mb``'s help of a worker pool says how much of ``--worker-memory`` each table may take: an eighth, not
    "a quarter", since a worker holds two engines (the points and the settlement searches) sharing that quarter
    (``--worker-memory 256 --table-mb 64`` gives 32 MB tables, so a help allowing 64 would be wrong)."""
    from solver.workers import ENGINES_PER_WORKER, table_megabytes_for

    (option,) = [param for param in command_of(name).params if "--table-mb" in param.opts]
    shares = {"a quarter": 4, "an eighth": 8, "a half": 2}
    (said,) = [share for words, share in shares.items() if f"{words} of --worker-memory" in option.help
               or f"{words} of it each" in option.help]
    assert table_megabytes_for(1024, ENGINES_PER_WORKER, table_mb=4096) == 1024 // said


def source_map_paths(source_map: str) -> set[str]:
    """The paths of the modules architecture.md's map names, as it groups them: a folder at the left margin
    (``solver/``), an entry under it (``deal.py``, ``games/illegal.py``, ``output.py, errors.py``), and the modules
    an entry's words name (``search/  reference.py (...), engine.py``: in that subfolder; ``postmortem.py ...;
    plot.py draws``: beside the entry), its further-indented lines too."""
    named: set[str] = set()
    folder = context = ""
    for line in source_map.splitlines():
        top = re.match(r"(\S+/)(?:\s|$)", line)
        entry = re.match(r"  ((?:[\w./]+, )*[\w./]+)(?:\s+(.*))?$", line)
        if top:
            folder = context = top.group(1)
            words = line[top.end():]
        elif entry:
            context = folder
            for name in entry.group(1).split(", "):
                if name.endswith("/"):
                    context = folder + name
                else:
                    named.add(folder + name)
                    context = folder + name.rpartition("/")[0] + "/" if "/" in name else folder
            words = entry.group(2) or ""
        else:
            words = line
        named |= {context + name for name in re.findall(r"(?<![\w/.])(\w+\.(?:pyx|pxd|py))\b", words)}
    return named


def test_architecture_md_s_map_names_every_module() -> None:
    """architecture.md opens with a map of the source, a line a module: every module of ``solver/`` (its packages too,
    at any depth), ``src_ext/`` and ``cli/`` is on it under its own folder (``cli/``'s command modules as "one module
    per command", ``solver/games/``'s game modules as "one module per game"), so that a newcomer finds where a thing
    lives. Seven names are in more than one folder (``errors.py``, ``batch.py``, ...): each is checked at its path.
    Every module the map names is one that exists."""
    from solver.games import GAMES

    text = TEXT[ROOT / "docs" / "architecture.md"]
    source_map = re.search(r"^```\n(solver/.*?)^```", text, flags=re.S | re.M)
    assert source_map is not None
    named = source_map_paths(source_map.group(1))
    commands = {f"cli/{name}.py" for name, _, _ in COMMANDS}
    games = {f"solver/games/{game.name.lower()}.py" for game in GAMES}
    modules = sorted(path.relative_to(ROOT).as_posix() for folder in ("solver", "src_ext", "cli")
                     for path in (ROOT / folder).rglob("*") if path.suffix in (".py", ".pyx", ".pxd")
                     and "__pycache__" not in path.parts)
    assert len(modules) > 60
    assert {"solver/errors.py", "cli/errors.py", "solver/games/illegal.py", "solver/plot.py", "cli/output.py",
            "solver/search/engine.py", "solver/board/guard.py", "src_ext/_engine.pyx"} <= named
    missing = [path for path in modules
               if not path.endswith("/__init__.py") and path not in named | commands | games]
    assert missing == []
    assert sorted(named - set(modules)) == []


def test_postmortem_md_s_grades_are_those_the_post_mortem_gives() -> None:
    """postmortem.md's table of grades (``inaccuracy | 1 to 5 points | -``) and its sentence on grading by the score
    say, for each cost, the grade ``solver.postmortem.grade`` gives (the thresholds are constants a change would
    leave the page behind)."""
    from solver.postmortem import grade

    text = TEXT[ROOT / "docs" / "postmortem.md"]
    rows = re.findall(r"^\| (ok|inaccuracy|mistake|blunder) \| ([^|]+) \| ([^|]+) \|$", text, re.MULTILINE)
    assert [name for name, _, _ in rows] == ["ok", "inaccuracy", "mistake", "blunder"]

    def costs(cell: str) -> list[int]:
        """The costs a cell gives its grade: ``cost 0``, ``1 to 5 points``, ``1 trick``, ``15 points or more``
        (up to a deal's worth), ``-`` none."""
        found = re.match(r"(?:cost )?(\d+)(?: to (\d+))?[a-z ]*?( or more)?\b", cell.strip())
        if found is None:
            assert cell.strip() == "-"
            return []
        low = int(found[1])
        return list(range(low, (int(found[2]) if found[2] else 120 if found[3] else low) + 1))

    for column in (1, 2):  # the rows' costs run on from 0 without a gap
        covered = [cost for row in rows for cost in costs(row[column])]
        assert covered == list(range(len(covered))), [row[column] for row in rows]
    for name, points, tricks in rows:
        assert {grade(cost, "points", False) for cost in costs(points)} == {name}, points
        assert {grade(cost, "tricks", False) for cost in costs(tricks)} <= {name}, tricks
        if "any bonus lost" in points or "target lost" in tricks:
            assert grade(0, "points", True) == grade(0, "tricks", True) == name
    # the sentence on the score: each grade after its costs ("2 or 3 a mistake", "4 or more (...) a blunder"), in
    # any words between them; test_postmortem.py checks the grades themselves
    said = " ".join(text.split())
    by_score = re.search(r"By the score \(`SCORE_GRADES`\):(.*?)\.(?: |$)", said)
    assert by_score is not None
    clauses = re.findall(r"(\d+)(?: (?:or|to) (\d+)| (or more))?[^,\d]*?\b(ok|inaccuracy|mistake|blunder)\b",
                         re.sub(r"\([^)]*\)", "", by_score.group(1)))
    assert [name for *_, name in clauses] == ["ok", "inaccuracy", "mistake", "blunder"], by_score.group(1)
    covered = []
    for low, high, more, name in clauses:
        costs = list(range(int(low), (int(high) if high else int(low) + 10 if more else int(low)) + 1))
        assert {grade(cost, "game units", False) for cost in costs} == {name}, (low, high, more, name)
        covered += costs
    assert covered == list(range(len(covered))) and clauses[-1][2]  # from 0 on, the last grade "or more"
    assert grade(0, "game units", True) == "ok"  # by the score a lost bonus is no blunder by itself


def grammar_rules(grammar: str) -> dict[str, list[str]]:
    """The rules of a grammar in a code block (``name := alternatives``, going on in the lines indented under it that
    start with ``|``), each right-hand side as its tokens, up to the prose after it (the first word neither quoted
    nor a rule's name: ``| bonus ["dagegen" | "dazu"] a bonus announced``)."""
    names = set(re.findall(r"^(\w+)\s*:=", grammar, flags=re.M))
    rules: dict[str, list[str]] = {}
    name = ""
    for line in grammar.splitlines():
        rule = re.match(r"(\w+)\s*:=(.*)", line)
        going_on = re.match(r"\s+(\|.*)", line)
        if rule:
            name, body = rule.groups()
        elif going_on and name:
            body = going_on.group(1)
        else:
            continue
        for token in re.findall(r'"[^"]*"|\w+|[|\[\]()*]|\S', body):
            if re.fullmatch(r"\w+", token) and token not in names:
                break
            rules.setdefault(name, []).append(token)
    return rules


def spellings(rules: dict[str, list[str]], name: str) -> set[str]:
    """Every word sequence rule ``name`` allows, words joined by a space: alternatives ``|``, ``[optional]``,
    ``(grouped)``, ``"quoted"`` words and other rules by name (a grammar without repetition, as ``bonus`` is)."""
    tokens = rules[name]
    position = 0

    def alternatives() -> set[tuple[str, ...]]:
        nonlocal position
        found = sequence()
        while position < len(tokens) and tokens[position] == "|":
            position += 1
            found |= sequence()
        return found

    def sequence() -> set[tuple[str, ...]]:
        nonlocal position
        found: set[tuple[str, ...]] = {()}
        while position < len(tokens) and tokens[position] not in ("|", "]", ")"):
            token = tokens[position]
            position += 1
            if token in ("[", "("):
                inner = alternatives()
                assert tokens[position] == {"[": "]", "(": ")"}[token], rules[name]
                position += 1
                part = inner | {()} if token == "[" else inner
            elif token.startswith('"'):
                part = {(token.strip('"'),)}
            else:
                part = {tuple(spelling.split()) for spelling in spellings(rules, token)}
            found = {head + tail for head in found for tail in part}
        return found

    result = alternatives()
    assert position == len(tokens), rules[name]
    return {" ".join(words) for words in result}


def test_scoring_md_s_announcement_grammar_has_every_word_the_parser_takes() -> None:
    """scoring.md's grammar of ``[Announcements]`` is the one list of its words, ``Ultimo``, ``Kings`` and ``Könige``
    alone (not only ``4 Kings``) and ``Kontra Spiel`` among them: every quoted word of the grammar is one the parser
    takes and every word it takes is quoted there; more than the words, every spelling of a bonus and a level the
    grammar's rules allow (``Pagat Ultimo``, ``Vier Könige``) reads as one, alone, after a Kontra level and with
    ``dagegen``, and every spelling the parser reads is one the rules allow: a word dropped from a rule (``|
    "Ultimo"``), or a count of ``kings`` made required, is a spelling the page does not allow."""
    from solver.announcements import BONUSES, KING_COUNTS, KING_WORDS, LEVELS, parse_announcements

    text = TEXT[ROOT / "docs" / "scoring.md"]
    grammar = re.search(r"^announcements := .*?^```", text, flags=re.S | re.M)
    assert grammar is not None
    quoted = {word.lower() for word in re.findall(r'"([^"]+)"', grammar.group(0))} - {";", ":", ","}
    taken = {*LEVELS, *BONUSES, *KING_COUNTS, *KING_WORDS, "dagegen", "dazu"}
    assert sorted(quoted - taken) == [] and sorted(taken - quoted) == []

    # solver/announcements.py's docstring has the grammar too: the same, so that neither copy is left behind
    import solver.announcements

    in_module = re.search(r"^    announcements := .*?(?=\n\n)", solver.announcements.__doc__ or "", flags=re.S | re.M)
    assert in_module is not None
    assert textwrap.dedent(in_module.group(0)) == grammar.group(0).removesuffix("```").rstrip("\n")

    rules = grammar_rules(grammar.group(0))
    bonuses, kings, levels = (spellings(rules, name) for name in ("bonus", "kings", "level"))
    assert kings < bonuses and "Vier Könige" in kings and "Pagat Ultimo" in bonuses
    read = {}  # each spelling (lowered) the bonus it reads as
    for spelling in bonuses:
        (announcement,) = parse_announcements(f"1: {spelling}")
        read[spelling.lower()] = announcement.bonus
    assert "game" not in read.values() and {read[spelling.lower()] for spelling in kings} == {"four_kings"}
    for spelling in bonuses:
        (against,) = parse_announcements(f"2: {spelling} dagegen")
        (kontra,) = parse_announcements(f"2: Kontra {spelling}")
        assert (against.bonus, against.against) == (read[spelling.lower()], True), spelling
        assert (kontra.bonus, kontra.level) == (read[spelling.lower()], 2), spelling
    # the spellings the parser reads as a bonus: each word of BONUSES but the game's, and the two-word names
    parsed = {word for word, bonus in BONUSES.items() if bonus != "game"} | {"pagat ultimo"} | {
        f"{count} {word}" for count in KING_COUNTS for word in KING_WORDS}
    assert sorted(parsed - set(read)) == [] and sorted(set(read) - parsed) == []
    assert {level.lower() for level in levels} == set(LEVELS)
    for level in levels:
        (announcement,) = parse_announcements(f"2: {level}")
        assert (announcement.bonus, announcement.level) == ("game", LEVELS[level.lower()]), level
    items = spellings(rules, "item")  # a whole item: "Retour Vier Könige", "Kontra Spiel", "Ultimo dazu"
    assert len(items) == len(levels) * (len(bonuses) + 3) + len(bonuses) * 3 and "Kontra Spiel" in items
    for item in items:
        assert len(parse_announcements(f"2: {item}")) == 1, item

    counted = {f"{count} {word}" for count in ("4", "Four", "Vier") for word in ("Kings", "Koenige", "Könige")}
    for spelling, bonus in [("Pagat Ultimo", "pagat_ultimo"), ("Ultimo", "pagat_ultimo"), ("Kings", "four_kings"),
                            ("Könige", "four_kings"), *((king, "four_kings") for king in counted)]:
        (announcement,) = parse_announcements(f"1: {spelling}")
        assert announcement.bonus == bonus, spelling
        assert spelling in bonuses, spelling  # a spelling the page allows
    (kontra,) = parse_announcements("2: Kontra Spiel")
    assert (kontra.bonus, kontra.level) == ("game", 2)


def test_cli_md_names_the_commands_that_take_record_and_board() -> None:
    """cli.md's ``--record`` bullet lists the commands that take ``--board`` and says that all of them but ``stich
    board`` take ``--record`` too: both lists are the commands' own."""
    text = " ".join(TEXT[ROOT / "docs" / "cli.md"].split())
    bullet = re.search(r"\* \*\*`--record N`\*\*(.*?)(?: \* \*\*|$)", text)
    assert bullet is not None
    # in whatever words: a list in brackets of the commands that take both, then the one that does not (`stich NAME`)
    said = re.search(r"`--board`[^()]*\(((?:`[a-z]+`, )+`[a-z]+`)\)(.*)", bullet.group(1))
    assert said is not None, bullet.group(1)
    named = set(re.findall(r"`([a-z]+)`", said.group(1)))
    excepted = set(re.findall(r"`stich ([a-z]+)`", said.group(2)))
    taking_record = {name for name, _, _ in COMMANDS if "--record" in options_of(name)}
    taking_board = {name for name, _, _ in COMMANDS if "--board" in options_of(name)}
    assert named == taking_record
    assert excepted == taking_board - taking_record == {"board"}
    assert named | excepted == taking_board
