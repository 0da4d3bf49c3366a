"""Signals during a search: the compiled search runs without the GIL, and a handler that raises (Ctrl-C's
KeyboardInterrupt, an alarm a bot sets as a time limit) must not wait for the whole question. The search looks
at the interpreter's signals every 16,384 nodes, unwinds, and raises the handler's exception; the engine stays
usable and its next answers are a fresh engine's (the bounds stored while unwinding are dropped)."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import random
import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import Callable, Iterator

import pytest

import solver
import solver.search.settle
from solver.benchmark import SEEDS
from solver.search.settle import SettlementEngine
from solver.settlement import dd_settlement
from stopping_helpers import ROOT, ctrl_c_on_a_terminal, read_pty, signals_as_a_shell_gives_them

pytestmark = pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs signal.setitimer")


class Alarm(Exception):
    pass


@pytest.fixture
def alarm():
    """``alarm(seconds)`` raises Alarm in the main thread after that long."""
    def ring(*_):
        raise Alarm
    previous = signal.signal(signal.SIGALRM, ring)
    yield lambda seconds: signal.setitimer(signal.ITIMER_REAL, seconds)
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, previous)


def _heavy() -> solver.Position:
    """A whole Zwanzigerrufen deal of the benchmark (board 26: one of its dearest, seconds with every card's value
    and no quasi table)."""
    record = solver.random_record("Zwanzigerrufen", SEEDS["Zwanzigerrufen"], 26, contract="Normal")
    return solver.position_from_record(record)


@pytest.mark.parametrize("cards", [False, True])
def test_a_signal_stops_a_search_and_the_engine_answers_right_afterwards(alarm, cards) -> None:
    position = _heavy()
    engine = solver.EngineSolver(16, use_quasi=False)
    alarm(0.05)
    with pytest.raises(Alarm):
        solver.solve(position, "points", cards=cards, engine=engine)
    after = solver.solve(position, "points", cards=cards, engine=engine)
    fresh = solver.solve(position, "points", cards=cards)
    assert (after.total, after.card_values) == (fresh.total, fresh.card_values)


def test_a_signal_stops_a_settlement_search(alarm) -> None:
    position = _heavy()
    engine = SettlementEngine(16)
    alarm(0.05)
    with pytest.raises(Alarm):
        dd_settlement(position, engine=engine)


# --- Ctrl-C on a terminal: what a command says it finished ----------------------------------------------------------

#: The record loop's line (solve, check, table, score, postmortem): the record it stopped in, and how many before it
#: are printed whole.
STOPPED_IN_A_RECORD = re.compile(
    r"stich: (?P<command>\w+): stopped by the interrupt (?:in the record at (?P<file>\S+):\d+: board (?P<board>\d+) "
    r"\(not answered\)|between two records); (?:the record answered above is complete|the (?P<count>\d+) records "
    r"answered above are complete)\r?\n")


@pytest.fixture(scope="module")
def deals(tmp_path_factory) -> Path:
    """Twenty whole Zwanzigerrufen deals, written by ``stich deal``."""
    path = tmp_path_factory.mktemp("deals") / "deals.tbn"
    made = subprocess.run([sys.executable, "-c", "from cli.main import main; main()", "deal", "--game",
                           "zwanzigerrufen", "--seed", "3", "-n", "20"], capture_output=True, text=True, cwd=ROOT,
                          check=True)
    path.write_text(made.stdout)
    return path


@pytest.fixture(scope="module")
def played(deals) -> Path:
    """The same deals played to the end with seeded random legal cards: for score --dd and postmortem."""
    draw = random.Random(1)
    positions = []
    for position in solver.read_positions(deals):
        while position.legal_cards():
            position = position.play(draw.choice(list(position.legal_cards())))
        positions.append(position.to_tbn())
    path = deals.with_name("played.tbn")
    path.write_text("\n".join(positions))
    return path


def interrupted_at_the_first_record(arguments: list[str], out: Path) -> tuple[str, re.Match]:
    """``stich ARGUMENTS`` stopped by Ctrl-C once its first record is on stdout (``out``): exit 130, no traceback,
    the cursor shown again after the last status line, and the record loop's line; the terminal's text and that
    line."""
    code, text = ctrl_c_on_a_terminal(arguments, lambda _: out.exists() and b"\n" in out.read_bytes(), stdout=out)
    assert code == 130 and "Traceback" not in text, text[-2000:]
    assert text.rfind("\x1b[?25l") <= text.rfind("\x1b[?25h"), text[-500:]  # the cursor shown again (or not hidden)
    said = STOPPED_IN_A_RECORD.search(text)
    assert said is not None, text[-1000:]
    return text, said


def answered_count(said: re.Match) -> int:
    return int(said["count"] or 1)


@pytest.mark.parametrize("command, options, source", [
    ("solve", ["--cards", "-o", "all"], "deals"),
    ("check", [], "deals"),
    ("table", [], "deals"),
    ("score", ["--dd"], "played"),
    ("postmortem", [], "played"),
])
def test_ctrl_c_in_a_record_loop_says_what_is_complete_and_the_json_lines_parse(
        request, tmp_path, command, options, source) -> None:
    """These commands on Ctrl-C say which records on stdout are whole and which record was cut, not exit 130 without a
    word: each JSON line printed parses, and the line on stderr counts them and names the next record."""
    path = request.getfixturevalue(source)
    out = tmp_path / "out.jsonl"
    text, said = interrupted_at_the_first_record([command, str(path), *options, "--threads", "1", "--json"], out)
    documents = [json.loads(line) for line in out.read_text().splitlines()]
    assert said["command"] == command and len(documents) == answered_count(said), text[-1000:]
    assert [document["record"]["board"] for document in documents] == [str(n) for n in range(1, len(documents) + 1)]
    assert {document["command"] for document in documents} == {command}
    if said["board"] is not None:  # stopped in the record after the last one printed
        assert (said["file"], int(said["board"])) == (str(path), len(documents) + 1)


def test_ctrl_c_in_solve_leaves_the_records_printed_whole(tmp_path, deals) -> None:
    """The text of each record is written in one piece: the records on stdout are the ones the line counts, each
    as a run of that record alone prints it."""
    out = tmp_path / "out.txt"
    arguments = ["solve", str(deals), "--threads", "1", "--cards", "-o", "all"]
    text, said = interrupted_at_the_first_record(arguments, out)
    records = re.split(r"\n\n(?=board \d+ \()", out.read_text())
    assert len(records) == answered_count(said), out.read_text()[-1000:]
    for number, record in enumerate(records, 1):
        alone = subprocess.run([sys.executable, "-c", "from cli.main import main; main()", *arguments, "--record",
                                str(number)], capture_output=True, text=True, cwd=ROOT)
        assert alone.returncode == 0 and record == alone.stdout, record[-300:]


def test_ctrl_c_in_tree_says_nothing_was_written(tmp_path, deals) -> None:
    out = tmp_path / "tree.json"
    code, text = ctrl_c_on_a_terminal(["tree", str(deals), "--depth", "5", "--threads", "1", "--out", str(out)],
                                      lambda shown: b" nodes" in shown)  # the status line: building the tree
    assert code == 130 and "Traceback" not in text, text[-2000:]
    assert (f"stich: tree: stopped by the interrupt in the record at {deals}:1: board 1: nothing written to {out}"
            in text.replace("\r\n", "\n")), text[-1000:]
    assert list(tmp_path.iterdir()) == []  # no tree, no temporary file


def interrupted_match(tmp_path: Path, workers: int, written: str) -> tuple[str, dict, Path]:
    """A 20-deal match on ``workers`` workers stopped by Ctrl-C once its file ``written`` (``match.json``, the JSON
    printed, or ``match.jsonl``, the checkpoint) holds something: exit 130, no traceback, and the match so far printed
    as JSON (``stopped`` ``"interrupt"``, some deals); the terminal's text, that JSON and the checkpoint's path."""
    out, checkpoint, awaited = tmp_path / "match.json", tmp_path / "match.jsonl", tmp_path / written
    code, text = ctrl_c_on_a_terminal(["match", "--game", "zwanzigerrufen", "--bots", "sampling:5,random,random,random",
                                       "-n", "20", "-j", str(workers), "--json", "--checkpoint", str(checkpoint)],
                                      lambda _: awaited.exists() and awaited.stat().st_size > 0, stdout=out)
    assert code == 130 and "Traceback" not in text, text[-2000:]
    match = json.loads(out.read_text())
    assert match["stopped"] == "interrupt" and match["deals"], match
    return text, match, checkpoint


def test_ctrl_c_in_a_match_says_how_far_it_got_and_how_to_resume(tmp_path) -> None:
    """Besides the match so far on stdout (its JSON closed, ``stopped`` ``"interrupt"``), stderr says how far it got
    and that the checkpoint resumes it."""
    text, match, checkpoint = interrupted_match(tmp_path, 1, "match.json")
    # the bot it stopped as it chose, where Ctrl-C came in a choose (every card but the last of a deal)
    said = re.search(r"stich: match: stopped by the interrupt after (\d+) deals( \(board \d+, rotation \d, card "
                     r"\d+ \(trick \d+\): bot (sampling:5|random) at seat [1-4] was choosing\))?: the match so far is "
                     r"printed, said as such; the boards played whole are kept in (\S+): rerun the command to resume"
                     r"\r?\n", text)
    assert said is not None, text[-1000:]
    assert (int(said[1]), said[4]) == (len(match["deals"]), str(checkpoint))


def test_ctrl_c_in_a_match_on_two_workers_names_the_boards_it_stopped(tmp_path) -> None:
    """On one worker the line names the bot whose ``choose`` the interrupt stopped; on two, where the workers ignore
    Ctrl-C and are stopped by the parent, which never learns which bot they waited for, the line names the boards in
    play there, left out unfinished, rather than nothing."""
    text, match, _ = interrupted_match(tmp_path, 2, "match.jsonl")  # a board finished on a worker
    said = re.search(r"stich: match: stopped by the interrupt after (\d+) deals \(boards? ([\d, and]+) (was|were) in "
                     r"play on the workers: left out, unfinished\): the match so far is printed", text)
    assert said is not None, text[-1000:]
    in_play = {int(board) for board in re.findall(r"\d+", said[2])}
    assert int(said[1]) == len(match["deals"])
    assert not in_play & {deal["board"] for deal in match["deals"]}  # boards stopped unfinished: none of them written


#: A match on two workers run to the end, with a SIGINT sent as the interpreter tears down: by an object of the main
#: module as it is freed, after the exit's own steps, where it must not kill the finished process.
_SIGNALLED_IN_THE_TEARDOWN = """
import os, signal, sys
import cli.startup
cli.startup._last_exit_step_registered = {unguarded}

class SignalledWhenFreed:
    def __del__(self):
        os.kill(os.getpid(), signal.SIGINT)

signalled_when_freed = SignalledWhenFreed()
sys.argv[1:] = ["match", "--game", "schafkopf", "--bots", "random,random,random,random", "-n", "2", "-j", "2"]
from cli.main import main
main()
"""


@pytest.mark.parametrize("unguarded", [False, True])
def test_ctrl_c_as_a_finished_match_exits_leaves_its_exit_code(unguarded) -> None:
    """Ctrl-C as a ``-j 2`` match finishes leaves its exit code: the interpreter's teardown puts every signal with a
    Python handler back to its default, and a SIGINT then would kill the process (exit -2). stich's last exit step
    ignores its stop signals, so the finished match exits 0 with its report (``unguarded``: without that step, the death
    the test reproduces)."""
    process = subprocess.run([sys.executable, "-c", _SIGNALLED_IN_THE_TEARDOWN.format(unguarded=unguarded)],
                             capture_output=True, text=True, cwd=ROOT, preexec_fn=signals_as_a_shell_gives_them)
    if unguarded:
        assert process.returncode == -signal.SIGINT, process.stderr
    else:
        assert process.returncode == 0 and process.stderr == "", process.stderr
        assert "95% intervals over 2 boards" in process.stdout


def test_ctrl_c_in_analyse_of_a_file_says_the_record_is_printed_in_part(tmp_path) -> None:
    """``analyse FILE`` prints the analysis of the samples solved so far (said as such) of the record it stopped in:
    the record loop's line says so, not that the record went unanswered."""
    out = tmp_path / "out.txt"
    code, text = ctrl_c_on_a_terminal(["analyse", str(ROOT / "examples" / "schafkopf.tbn"), "--seat", "1", "-n", "3000",
                                       "-j", "1"], lambda shown: b" of 3,000 samples" in shown, stdout=out)
    assert code == 130 and "Traceback" not in text, text[-2000:]
    assert "stopped by the interrupt" in out.read_text()  # the report so far, said as such
    assert re.search(r"stich: analyse: stopped by the interrupt in the record at \S+schafkopf\.tbn:\d+: board 1 \(its "
                     r"answer so far is printed, said as such\); no record was answered before it\r?\n", text), \
        text[-1000:]


@pytest.mark.parametrize("before", [signal.default_int_handler, signal.SIG_IGN])
def test_an_interrupt_while_output_is_written_and_counted_comes_after_both(before) -> None:
    """A record printed and counted (a match's deal written and flagged) are done together: a Ctrl-C between them does
    not make the interrupt's line call a printed record unanswered, nor write match --json's head twice. The held signal
    reaches its own handler after them (an ignored one, as in a background job, stays ignored)."""
    from cli.errors import interrupts_held

    previous = signal.signal(signal.SIGINT, before)
    done = []
    try:
        with pytest.raises(KeyboardInterrupt) if before is signal.default_int_handler else contextlib.nullcontext():
            with interrupts_held():
                os.kill(os.getpid(), signal.SIGINT)
                done.append("written")
                done.append("counted")
        assert done == ["written", "counted"] and signal.getsignal(signal.SIGINT) is before
    finally:
        signal.signal(signal.SIGINT, previous)


def test_a_second_interrupt_while_output_is_held_cuts_the_output_short() -> None:
    """A write blocked on a full pipe (a reader that does not read) holds the first Ctrl-C, not every one until the
    reader reads: the second one is not held, and stops the write where it stands. The held first still reaches the
    command's handler, which starts the stop (it ignores any later interrupt, which would cut the stop short)."""
    from cli.errors import OutputCut, interrupts_held

    given = []

    def command_handler(number, frame):  # as cli.main's: the stop begins, later interrupts are ignored
        given.append(number)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGINT, command_handler)
    done = []
    try:
        with pytest.raises(OutputCut):
            with interrupts_held():
                os.kill(os.getpid(), signal.SIGINT)
                done.append("held")
                os.kill(os.getpid(), signal.SIGINT)
                done.append("never")
        assert done == ["held"] and given == [signal.SIGINT]
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN  # the stop began: a third Ctrl-C is ignored
    finally:
        signal.signal(signal.SIGINT, previous)


@contextlib.contextmanager
def _writing_into_a_small_pipe(arguments: list[str], **options) -> Iterator[tuple[subprocess.Popen, int]]:
    """A child started with its stdout a 4 kB pipe (its writes block once that is full), and the pipe's read end;
    afterwards the read end is closed and a child still running killed."""
    import fcntl

    read, write = os.pipe()
    fcntl.fcntl(write, getattr(fcntl, "F_SETPIPE_SZ", 1031), 4096)
    process = subprocess.Popen(arguments, stdout=write, stderr=subprocess.PIPE, text=True, **options)
    os.close(write)
    try:
        yield process, read
    finally:
        os.close(read)
        if process.poll() is None:
            process.kill()


@pytest.mark.parametrize("unbuffered", [True, False])
def test_ctrl_c_twice_stops_a_solve_whose_reader_does_not_read(tmp_path, unbuffered: bool) -> None:
    """``stich solve many.tbn --json | reader-that-sleeps``: once the pipe is full the record's write blocks, and the
    held interrupt waits for the reader; a second Ctrl-C stops it at once, said as a record cut short (exit 130). With
    PYTHONUNBUFFERED and without: stdout's two kinds of file, whichever the environment running the tests has."""
    import time

    deals = tmp_path / "many.tbn"
    deals.write_text(((ROOT / "examples" / "zwanzigerrufen.tbn").read_text() + "\n") * 20)
    arguments = [sys.executable, "-c", "from cli.main import main; main()", "solve", str(deals), "--json", "--threads",
                 "1"]
    # nobody reads: the pipe fills and the solve's write blocks
    with _writing_into_a_small_pipe(arguments, preexec_fn=signals_as_a_shell_gives_them,
                                    env=_environment(unbuffered)) as (process, _):
        _wait_until_blocked_writing(process.pid, "the pipe", _popen_ended(process))
        _interrupt_taken(process.pid, lambda: process.send_signal(signal.SIGINT), "the pipe")
        for _ in range(3):  # the second cuts the write; the third, a double press, is ignored by the stop
            process.send_signal(signal.SIGINT)
            time.sleep(0.01)
        _, stderr = process.communicate(timeout=20)
    assert process.returncode == 130, stderr
    assert "stopped by the interrupt in the record at" in stderr and "cut its output short" in stderr, stderr
    assert "Traceback" not in stderr


@pytest.mark.parametrize("unbuffered", [True, False])
def test_ctrl_c_while_a_message_waits_on_a_full_stderr_still_says_the_stop(tmp_path, unbuffered: bool) -> None:
    """``stich solve bad.tbn --all-messages 2>`` a 4 kB pipe nobody reads: a Ctrl-C while a record's message waits on
    it. Under PYTHONUNBUFFERED stderr's file does not drop everything after the interrupted write, the stop's line too
    (exit 130 and silence): once the reader reads, the stop's line is the last one, after whole messages."""
    import fcntl
    import time

    bad = tmp_path / "bad.tbn"
    record = '[Game "Kratzen"]\n[Board "{n}"]\n[Deal "EA EK EO / GA GK XX / HA HK HO"]\n[Contract "Trump E"]\n\n'
    bad.write_text("".join(record.format(n=n) for n in range(1, 301)), encoding="utf-8")
    arguments = [sys.executable, "-c", "from cli.main import main; main()", "solve", str(bad), "--all-messages"]
    read, write = os.pipe()
    fcntl.fcntl(write, getattr(fcntl, "F_SETPIPE_SZ", 1031), 4096)
    process = subprocess.Popen(arguments, stdout=subprocess.DEVNULL, stderr=write, cwd=ROOT,
                               preexec_fn=signals_as_a_shell_gives_them, env=_environment(unbuffered))
    os.close(write)
    received = b""
    try:
        _wait_until_blocked_writing(process.pid, "stderr's pipe", lambda: f"exit {process.wait()}")
        time.sleep(0.1)
        process.send_signal(signal.SIGINT)
        time.sleep(0.3)
        while chunk := os.read(read, 1 << 16):
            received += chunk
        process.wait(timeout=20)
    finally:
        os.close(read)
        if process.poll() is None:
            process.kill()
    lines = received.decode().splitlines()
    assert process.returncode == 130, lines[-3:]
    assert lines[-1] == "stich: solve: stopped by the interrupt before any record was answered", lines[-3:]
    assert len(lines) > 20 and all(": seat 2: not a card of the Kratzen pack" in line for line in lines[:20])


#: ``stich deal``'s stop after a second interrupt cut its output on stdout: unbuffered, the deal it cut and the
#: count before it; buffered, where the cut's buffer held deals already counted, no count.
_DEAL_CUT = re.compile(r"stich: deal: stopped by the interrupt (?:after (\d+) of 400 deals: a second interrupt cut "
                       r"the deal of board (\d+) short on stdout; the \1 before it are whole|as a second interrupt "
                       r"cut its output short on stdout while its buffer was written, at or before the deal of board "
                       r"(\d+); the records that arrived whole are whole)\n")


@pytest.mark.parametrize("unbuffered", [True, False])
def test_a_second_ctrl_c_that_cuts_deal_on_a_full_pipe_writes_no_piece_twice_and_says_what_arrived(
        tmp_path, unbuffered: bool) -> None:
    """``stich deal | reader`` whose 4 kB pipe is full under an 8 kB buffer: a first Ctrl-C, held while a deal is
    written and counted, then a second that cuts the write. A write cut partway must neither go out again (a buffer
    that never learned how much of it went) nor leave a counted deal out unsaid: what arrives is the uninterrupted
    run's start, byte for byte, once the reader reads it all, and the stop's line counts no deal that did not."""
    arguments = [sys.executable, "-c", "from cli.main import main; main()", "deal", "-g", "schafkopf", "-n", "400",
                 "--seed", "5"]
    environment = _environment(unbuffered)
    whole = subprocess.run(arguments, capture_output=True, cwd=ROOT, env=environment, check=True).stdout
    received = b""
    with _writing_into_a_small_pipe(arguments, cwd=ROOT, preexec_fn=signals_as_a_shell_gives_them,
                                    env=environment) as (process, read):
        _wait_until_blocked_writing(process.pid, "the pipe", _popen_ended(process))
        # held: the deal's write and its count go together
        _interrupt_taken(process.pid, lambda: process.send_signal(signal.SIGINT), "the pipe")
        process.send_signal(signal.SIGINT)  # cuts the write
        while chunk := os.read(read, 1 << 16):
            received += chunk
        _, stderr = process.communicate(timeout=20)
    assert process.returncode == 130, stderr
    said = _DEAL_CUT.fullmatch(stderr)
    assert said is not None, stderr
    assert 0 < len(received) < len(whole) and received == whole[:len(received)]  # nothing twice, nothing left out
    arrived = received.count(b"\n\n")  # each deal ends with a blank line
    if unbuffered:  # the deals counted arrived whole; the one cut may have gone out whole as the cut came
        counted = int(said.group(1))
        assert said.group(2) == str(counted + 1) and counted <= arrived <= counted + 1, (arrived, stderr)
    else:  # no count said: the buffer's deals went nowhere, and none past the one cut arrived
        assert said.group(1) is None and 0 < int(said.group(3)) and arrived < int(said.group(3)), (arrived, stderr)


#: stdout's file under an 8 kB buffer, given 32 kB of numbered lines at once (past the buffer, straight to the file),
#: then, once an interrupt has raised out of that write, more, and a flush: the buffer never learned how much went.
_INTERRUPTED_WRITE = r"""
import io, sys
from cli.main import _WholeWrites
raw = _WholeWrites(1, "w", closefd=False)
stdout = io.BufferedWriter(raw, 8192)
try:
    stdout.write(b"".join(b"%07d\n" % n for n in range(4096)))
    stdout.flush()
except KeyboardInterrupt:
    print("interrupted; dropping:", raw.dropping, file=sys.stderr)
stdout.write(b"after\n")
stdout.flush()
"""


def test_a_write_an_interrupt_raises_out_of_partway_never_goes_out_twice() -> None:
    """A 4 kB pipe read one pipeful at a time, so that the write system call has sent 4 kB when the interrupt ends it:
    the count it returns is lost to the KeyboardInterrupt, and a buffer that wrote its bytes again (at the next flush,
    at exit) would duplicate them. What arrives is the data's start, each byte once, and nothing after."""
    import time

    data = b"".join(b"%07d\n" % n for n in range(4096))
    with _writing_into_a_small_pipe([sys.executable, "-c", _INTERRUPTED_WRITE], cwd=ROOT,
                                    preexec_fn=signals_as_a_shell_gives_them) as (process, read):
        _wait_until_blocked_writing(process.pid, "the pipe", _popen_ended(process))
        received = os.read(read, 4096)  # one pipeful: the same write call sends the next and waits again
        _wait_until_blocked_writing(process.pid, "the pipe", _popen_ended(process))
        time.sleep(0.1)
        process.send_signal(signal.SIGINT)  # Python's own handler: a KeyboardInterrupt raised as the call returns
        while chunk := os.read(read, 1 << 16):
            received += chunk
        _, stderr = process.communicate(timeout=20)
    assert (process.returncode, stderr) == (0, "interrupted; dropping: True\n")
    assert 8192 <= len(received) < len(data) and received == data[:len(received)]


#: A command cut by a second interrupt, its stdout left dropping what it is given (the flag set by hand, as the cut
#: leaves it), then a second command in the same process.
_OUTPUT_AFTER_A_CUT = """
import sys
from cli import errors
from cli.main import _safe_streams
_safe_streams()
print("arrived")
sys.stdout.flush()
errors._stdout_file().dropping = True
print("held in the buffer as the cut came")
errors.say_interrupted("deal", "after the cut")
print("the next command's output")
"""


@pytest.mark.parametrize("unbuffered", [True, False])
def test_a_next_command_after_a_cut_writes_its_output(unbuffered: bool) -> None:
    """After a cut, stdout's file drops what it is given, so that a buffer's rest is not written at exit; once the stop
    is said, what the cut command left in the buffer is dropped and stdout writes again, so that a second command run in
    the same process does not lose its whole stdout, silently."""
    process = subprocess.run([sys.executable, "-c", _OUTPUT_AFTER_A_CUT], capture_output=True, text=True, cwd=ROOT,
                             env=_environment(unbuffered), check=True)
    assert process.stdout == "arrived\nthe next command's output\n"
    assert process.stderr == "stich: deal: stopped by the interrupt after the cut\n"


@pytest.mark.parametrize("unbuffered", [True, False])
def test_ctrl_c_while_a_record_waits_on_the_terminal_prints_it_whole_and_the_line_after_it(tmp_path, unbuffered):
    """``stich solve`` on a terminal that has not caught up, under ``python -u`` or PYTHONUNBUFFERED: a Ctrl-C while a
    record's text waits on the terminal does not end that write partway (Python would drop the rest, and the stop's line
    would come after half a table row): the record is written whole (once its terminal reads on), the line starts a line
    of its own, and the records before it are the uninterrupted run's."""
    arguments = _many_records(tmp_path)
    code, whole = _on_a_stalled_terminal(arguments, unbuffered, presses=0)
    assert code == 0, whole[-1000:]
    code, shown = _on_a_stalled_terminal(arguments, unbuffered, presses=1)
    assert code == 130, shown[-1000:]
    said = STOPPED_IN_A_RECORD.search(shown)
    assert said is not None and said.end() == len(shown), shown[-1000:]
    data = shown[:said.start()]
    assert data.endswith("\r\n"), data[-300:]  # the line starts a line of its own, after whole rows
    assert whole.startswith(data) and len(whole) > len(data), data[-300:]
    assert data.count("board ") == answered_count(said)


@pytest.mark.parametrize("unbuffered", [True, False])
def test_a_second_ctrl_c_that_cuts_a_record_on_the_terminal_says_so_on_a_line_of_its_own(tmp_path,
                                                                                         unbuffered: bool) -> None:
    """Two Ctrl-C while a record waits on a terminal that does not read: the second cuts the record's text short,
    mid-row, and the stop's line, which said so on that same row, starts a line of its own (python -u or not)."""
    code, shown = _on_a_stalled_terminal(_many_records(tmp_path), unbuffered=unbuffered, presses=2)
    assert code == 130, shown[-1000:]
    said = re.search(r"stich: solve: stopped by the interrupt in the record at \S+: board \d+ \(a second interrupt "
                     r"cut its output short\)", shown)
    assert said is not None and shown[:said.start()].endswith("\n"), shown[-600:]


#: A command's stop said twice in one process, stdout and stderr one file, after a whole line and after half of one,
#: as if a second interrupt had cut each (cli.errors' flag set by hand; the real cuts are the terminal tests').
_STOP_AFTER_A_CUT = """
import sys
from cli import errors
from cli.main import _safe_streams
_safe_streams()
print("row one")
sys.stdout.flush()
errors._output_cut = True
errors.say_interrupted("solve", "after a whole line")
print("half a row", end="")
sys.stdout.flush()
errors._output_cut = True
errors.say_interrupted("solve", "after half a line")
print("cut still marked:", errors._output_cut, file=sys.stderr)
"""


@pytest.mark.parametrize("unbuffered", [True, False])
def test_the_stop_after_a_cut_starts_a_new_line_only_where_the_output_stopped_mid_line(unbuffered: bool) -> None:
    """The stop's line after output a second interrupt cut short starts with a line break only where a row was cut
    mid-line: where the cut came before any byte of a piece, the output ended with a whole line, and a break would leave
    a blank line. stdout's file knows whether its last byte ended a line, buffered or not (python -u, PYTHONUNBUFFERED),
    and the cut is forgotten once said (a second command in the same process)."""
    environment = _environment(unbuffered)
    shown = subprocess.run([sys.executable, "-c", _STOP_AFTER_A_CUT], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, cwd=ROOT, env=environment, check=True).stdout
    assert shown == ("row one\nstich: solve: stopped by the interrupt after a whole line\n"
                     "half a row\nstich: solve: stopped by the interrupt after half a line\n"
                     "cut still marked: False\n")


@pytest.mark.parametrize("unbuffered", [True, False])
def test_the_standard_streams_stich_wraps_keep_their_mode_and_name(unbuffered: bool) -> None:
    """stdout and stderr, wrapped to write each piece whole (python -u, PYTHONUNBUFFERED) and to know where stdout's
    output ends, keep ``.mode`` (``sys.stdout.mode`` raises no AttributeError) and their names."""
    environment = _environment(unbuffered)
    code = ("import sys\nfrom cli.main import _safe_streams\n_safe_streams()\nout, err = sys.stdout, sys.stderr\n"
            "print(type(out.buffer).__name__, out.mode, out.name, err.mode, err.name)")
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=environment,
                           check=True).stdout
    kind = "_WholeWrites" if unbuffered else "BufferedWriter"
    assert shown == f"{kind} w <stdout> w <stderr>\n"


def _environment(unbuffered: bool) -> dict[str, str]:
    """This process's environment with PYTHONUNBUFFERED set (``unbuffered``) or unset: stich's stdout is then over
    one kind of stream or the other (cli.main's ``_WholeWrites``, or a buffer over it), both tested
    whichever the environment running the tests has."""
    environment = {name: value for name, value in os.environ.items() if name != "PYTHONUNBUFFERED"}
    if unbuffered:
        environment["PYTHONUNBUFFERED"] = "1"
    return environment


def test_a_full_non_blocking_output_is_said_as_a_buffered_stream_says_it() -> None:
    """stdout's unbuffered file writes each piece whole; on a non-blocking file that fills (a pipe set so by the
    process reading it), a write has nothing to wait for: it raises BlockingIOError with the count of bytes that
    went, as a buffered stream does, and knows whether those ended mid-line."""
    from cli.main import _WholeWrites

    read, write = os.pipe()
    try:
        os.set_blocking(write, False)
        os.set_blocking(read, False)
        whole = _WholeWrites(write, "w", closefd=False)
        data = b"a row\n" * 100_000  # more than any pipe holds
        with pytest.raises(BlockingIOError) as raised:
            whole.write(data)
        received = b""
        with contextlib.suppress(BlockingIOError):
            while chunk := os.read(read, 1 << 16):
                received += chunk
    finally:
        os.close(read)
        os.close(write)
    went = raised.value.characters_written
    assert raised.value.errno == errno.EAGAIN and 0 < went < len(data)
    assert received == data[:went]
    assert whole.mid_line == (received[-1:] != b"\n")


def _many_records(tmp_path: Path) -> list[str]:
    """``stich solve`` of the Zwanzigerrufen examples three times over with their cards: records of some 4 kB."""
    deals = tmp_path / "many.tbn"
    deals.write_text(((ROOT / "examples" / "zwanzigerrufen.tbn").read_text() + "\n") * 3)
    return [sys.executable, "-c", "from cli.main import main; main()", "solve", str(deals), "--cards", "--threads",
            "1"]


def _on_a_stalled_terminal(arguments: list[str], unbuffered: bool, presses: int) -> tuple[int, str]:
    """``arguments`` run on a pty (``python -u`` or not): with no ``presses``, read all along; else not read until
    the command waits on the full terminal and ``presses`` Ctrl-C came, each once it took the one before. Its exit
    code and all it showed."""
    import pty

    environment = _environment(unbuffered)
    pid, terminal = pty.fork()
    if pid == 0:
        os.chdir(ROOT)
        signals_as_a_shell_gives_them()
        os.execve(sys.executable, arguments, environment)
    try:
        if presses:
            try:
                _wait_until_blocked_writing(pid, "the terminal", _pty_ended(pid, terminal))
            except BaseException:  # pytest's skip too: the child, which nothing reads, is not left waiting
                with contextlib.suppress(ProcessLookupError):  # one that exited was waited for: gone
                    os.kill(pid, signal.SIGKILL)
                raise
            for _ in range(presses - 1):
                _interrupt_taken(pid, lambda: os.killpg(pid, signal.SIGINT), "the terminal")
            os.killpg(pid, signal.SIGINT)
        shown = read_pty(terminal, 120)
        _, status = os.waitpid(pid, 0)
    finally:
        os.close(terminal)
    return os.waitstatus_to_exitcode(status), shown.decode(errors="replace")  # cut mid-character, it may be


#: The write system calls by their numbers (Linux's /proc/PID/syscall), for the machines the tests run on.
_WRITE_SYSCALLS = {"x86_64": {1, 20}, "aarch64": {64, 66}, "arm64": {64, 66}}


def _where_it_waits(pid: int) -> tuple[bool | None, str]:
    """Whether process ``pid`` is blocked in a write (a full pipe or terminal), with what was seen: the system call
    it sleeps in (/proc/PID/syscall), or, where that cannot be read or its numbers are not known here, the kernel's
    word for where it waits (/proc/PID/wchan): any but "0" that is no read. None: it is gone or has exited."""
    import platform

    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except (OSError, IndexError):
        return None, "no /proc/PID/stat"
    if state in "ZX":
        return None, "it exited"
    if state != "S":
        return False, f"state {state}"
    writes = _WRITE_SYSCALLS.get(platform.machine())
    try:
        call = Path(f"/proc/{pid}/syscall").read_text().split()[0]
    except (OSError, IndexError):
        call = ""
    if writes is not None and call.lstrip("-").isdigit():
        return int(call) in writes, f"system call {call}"
    try:
        wchan = Path(f"/proc/{pid}/wchan").read_text().strip()
    except OSError:
        return False, "neither /proc/PID/syscall nor /proc/PID/wchan could be read"
    return wchan not in ("", "0") and "read" not in wchan, f"wchan {wchan!r}"


def _wait_until_blocked_writing(pid: int, output: str, ended: Callable[[], str]) -> None:
    """Return once process ``pid`` is blocked writing to ``output`` (which nothing reads), polled for up to 20 s.
    A process that exited first fails the test with ``ended()`` (its exit code and what it said): a crash is no
    reason to skip. The test is skipped only where /proc is missing or the time ran out, with what was last seen."""
    import time

    deadline = time.monotonic() + 20
    while True:
        blocked, seen = _where_it_waits(pid)
        if blocked or blocked is None or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    if blocked:
        return
    if blocked is None and Path("/proc/self/stat").exists():
        pytest.fail(f"the process exited before it blocked writing to {output}: {ended()}")
    pytest.skip(f"the process was not seen blocked writing to {output} within 20 s (last seen: {seen})")


def _wakes(pid: int) -> int:
    """How often process ``pid`` has gone to sleep of its own accord (/proc/PID/status), 0 where that cannot be read."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    found = re.search(r"^voluntary_ctxt_switches:\s*(\d+)", status, re.MULTILINE)
    return int(found[1]) if found else 0


def _interrupt_taken(pid: int, send: Callable[[], None], output: str) -> None:
    """``send()`` a Ctrl-C to process ``pid``, blocked writing to ``output``, and return once it took it: it woke and
    blocked in the write again, its handler run (polled for up to 20 s). Two Ctrl-C sent closer than the child runs
    its handler are one to it, so the second follows the first's taking, not a fixed time."""
    import time

    before = _wakes(pid)
    send()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        blocked, _ = _where_it_waits(pid)
        if blocked is None or (blocked and _wakes(pid) > before):
            return
        time.sleep(0.01)
    pytest.fail(f"process {pid} did not take the interrupt and block writing to {output} again within 20 s")


def _popen_ended(process: subprocess.Popen[str]) -> Callable[[], str]:
    """What a Popen'd process that exited said: its exit code and stderr (a pipe)."""
    return lambda: f"exit {process.wait()}, stderr: {process.stderr.read() if process.stderr else ''!r}"


def _pty_ended(pid: int, terminal: int) -> Callable[[], str]:
    """What a process on a pty that exited said: its exit code and what its terminal shows."""
    return lambda: (f"exit {os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])}, terminal: "
                    f"{read_pty(terminal, 5).decode(errors='replace')[-2000:]!r}")


#: ``stich`` as its console script starts (``solver.cli:main``), with SIGTERM sent to itself at the first audit event
#: argv[1] names (``import:MODULE``, ``open:FILE``): a moment of the start-up chosen by what happens then, not by a
#: delay.
_TERMINATED_AT = """
import os, signal, sys

kind, _, what = sys.argv.pop(1).partition(":")
sent = []

def terminate_at(event, args):
    if not sent and event == kind and str(args[0]) == what:
        sent.append(event)
        os.kill(os.getpid(), signal.SIGTERM)

sys.addaudithook(terminate_at)
from solver.cli import main
sys.argv[0] = "stich"
sys.exit(main())
"""


@pytest.mark.parametrize("moment", ["import:typer", "import:solver.analysis", "open:FILE"])
def test_sigterm_during_the_start_up_ends_with_one_line_and_130(deals, moment) -> None:
    """SIGTERM in the first moments of a run, while Typer and the command's module load, ends it with 130 and one line,
    not killed by the signal (exit -15, a shell's 143) or a silent 130: the handlers are set first thing in
    ``solver.cli.main``, and a stop before the command's own code says so in one line; once the command has begun (it
    opens its FILE) it says its own stop."""
    process = subprocess.run([sys.executable, "-c", _TERMINATED_AT, moment.replace("FILE", str(deals)), "solve",
                              str(deals)], capture_output=True, text=True, timeout=120)
    assert process.returncode == 130, (process.returncode, process.stderr)
    assert "Traceback" not in process.stderr and process.stdout == ""
    if moment == "open:FILE":
        assert process.stderr == "stich: solve: stopped by the interrupt before any record was answered\n"
    else:
        assert process.stderr == "stich: solve: stopped before any work began\n"


#: A run of ``stich solve FILE`` whose Ctrl-C comes while the interrupt handlers are being set (their module's
#: imports): ``install_interrupt_handlers`` raises KeyboardInterrupt as the default handler would.
_STOPPED_WHILE_HANDLERS_ARE_SET = """
import sys

import solver.cli

def stopped_while_setting():
    raise KeyboardInterrupt

solver.cli.install_interrupt_handlers = stopped_while_setting
sys.argv[0] = "stich"
sys.exit(solver.cli.main())
"""


def test_ctrl_c_while_the_interrupt_handlers_are_set_ends_with_one_line_and_130(deals) -> None:
    """Setting the handlers imports :mod:`signal`, :mod:`threading` and :mod:`solver.interrupts` before any handler
    of stich's is set, so a Ctrl-C then is Python's KeyboardInterrupt: it is caught with the rest of the start-up,
    not left to end the process with a traceback."""
    process = subprocess.run([sys.executable, "-c", _STOPPED_WHILE_HANDLERS_ARE_SET, "solve", str(deals)],
                             capture_output=True, text=True, timeout=120)
    assert process.returncode == 130, (process.returncode, process.stderr)
    assert process.stdout == ""
    assert process.stderr == "stich: solve: stopped before any work began\n"


#: ``stich ARGS`` with the signal argv[1] names (INT, TERM) sent to itself at a moment of the command chosen by
#: argv[2]: ``record:K`` as ``deal`` formats its K-th record (before it is written), ``written`` as its output file is
#: renamed into place, ``report`` as ``bench`` or ``match`` begins to print its report, ``pinned`` as ``bench`` has
#: made its private copy of the solver (its path said on stderr), ``line:K`` as ``batch`` has written its K-th line
#: (``hangup:K`` likewise, with stderr first made a terminal that has closed), ``said:K`` as a file's K-th record
#: message is said or counted (stdout and stderr then made a terminal that has closed), ``returned`` as ``solve``'s
#: record loop returns (its work done, its stop no longer the loop's to say), ``closed`` as the command
#: (:class:`cli.main.Command`) returns, ``hung`` likewise, with an exit that then never finishes.
_SIGNALLED_AT = """
import os, signal, sys

import cli.deal
import cli.errors
from cli.main import Command, main

kind = getattr(signal, "SIG" + sys.argv.pop(1))
moment, _, number = sys.argv.pop(1).partition(":")

def send():
    os.kill(os.getpid(), kind)

if moment == "record":
    formatted = []
    format_record = cli.deal.format_record

    def formatting(record):
        formatted.append(record)
        if len(formatted) == int(number):
            send()
        return format_record(record)

    cli.deal.format_record = formatting
elif moment == "report":  # bench's or match's report, as it begins to be printed
    import importlib
    module = importlib.import_module(f"cli.{sys.argv[1]}")
    name = f"render_{sys.argv[1]}"
    render = getattr(module, name)

    def rendering(*args, **kwargs):
        send()
        return render(*args, **kwargs)

    setattr(module, name, rendering)
elif moment == "pinned":  # bench's copy of the solver, made in the temporary directory
    import solver.benchmark
    pin = solver.benchmark.pinned_package

    def pinning():
        first = solver.benchmark._snapshot is None
        root = pin()
        if first:
            print(f"pinned: {root}", file=sys.stderr)
            send()
        return root

    solver.benchmark.pinned_package = pinning
elif moment in ("line", "hangup"):  # batch's K-th line, once written to its output
    import pty
    import solver.batch
    write = solver.batch._Writer.write

    def writing(self, lines):
        for line in lines:
            write(self, [line])
            if self.solved + self.errors == int(number):
                if moment == "hangup":  # the terminal closed: stderr a pty whose master is gone, writes fail (EIO)
                    master, slave = pty.openpty()
                    os.dup2(slave, 2)
                    os.close(master)
                send()

    solver.batch._Writer.write = writing
elif moment == "said":  # the K-th record message (said or counted), then the terminal closes: stdout and stderr fail
    import pty
    record_message = cli.errors.RecordMessages.__call__
    calls = []

    def saying(self, text, kind=None):
        record_message(self, text, kind)
        calls.append(text)
        if len(calls) == int(number):
            master, slave = pty.openpty()
            os.dup2(slave, 1)
            os.dup2(slave, 2)
            os.close(master)
            send()

    cli.errors.RecordMessages.__call__ = saying
elif moment == "written":
    import contextlib
    atomic_writer = cli.deal.atomic_writer

    @contextlib.contextmanager
    def writing(path):
        with atomic_writer(path) as stream:
            yield stream
        send()

    cli.deal.atomic_writer = writing
else:  # solve's record loop, as the solve command calls it
    import cli.solve
    loop = cli.solve.run_over_records

    def returning(*args, **kwargs):
        result = loop(*args, **kwargs)
        if moment == "returned":
            send()
        else:
            sys.setprofile(at_the_command_s_return)
        return result

    def at_the_command_s_return(frame, event, arg):
        if event == "return" and frame.f_code is Command.invoke.__code__:
            sys.setprofile(None)
            send()

    cli.solve.run_over_records = returning
    if moment == "hung":  # an exit that does not finish: a handler at exit that waits on and on
        import atexit, time
        atexit.register(time.sleep, 600)
sys.argv[0] = "stich"
main()
"""


def signalled_at(signum: str, moment: str, arguments: list[str], **options) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", _SIGNALLED_AT, signum, moment, *arguments], capture_output=True,
                          text=True, cwd=ROOT, timeout=120, preexec_fn=signals_as_a_shell_gives_them, **options)


def solved(deals: Path) -> str:
    """What ``stich solve DEALS`` prints, not stopped."""
    return subprocess.run([sys.executable, "-c", "from cli.main import main; main()", "solve", str(deals)],
                          capture_output=True, text=True, cwd=ROOT, check=True).stdout


def test_ctrl_c_in_deal_says_which_boards_are_written_whole_and_how_to_write_the_rest() -> None:
    """``stich deal`` stopped says how many deals are on stdout, each whole, and the options that write the rest, not
    exit 130 without a word: the two outputs together are the whole run's."""
    process = signalled_at("INT", "record:5", ["deal", "-g", "zwanzigerrufen", "-s", "3", "-n", "9"])
    assert process.returncode == 130, process.stderr
    assert process.stderr == ("stich: deal: stopped by the interrupt after 4 of 9 deals: boards 1-4 are written whole "
                              "on stdout; --first-board 5 -n 5 with the same options writes the rest\n")
    assert re.findall(r"\[Board \"(\d+)\"\]", process.stdout) == ["1", "2", "3", "4"]
    whole, rest = (subprocess.run([sys.executable, "-c", "from cli.main import main; main()", "deal", "-g",
                                   "zwanzigerrufen", "-s", "3", *more], capture_output=True, text=True, cwd=ROOT,
                                  check=True).stdout for more in (["-n", "9"], ["--first-board", "5", "-n", "5"]))
    assert process.stdout + rest == whole


def test_sigterm_in_deal_to_a_file_leaves_the_file_as_it_was(tmp_path) -> None:
    """With --out the deals go to a temporary file renamed into place only when all are written: a stop leaves the
    file as it was and no temporary beside it, and says so."""
    out = tmp_path / "deals.tbn"
    out.write_text("before\n")
    process = signalled_at("TERM", "record:3", ["deal", "-g", "schafkopf", "-n", "6", "--out", str(out)])
    assert process.returncode == 130 and process.stdout == "", process.stderr
    assert process.stderr == (f"stich: deal: stopped by the interrupt after 2 of 6 deals: nothing written to {out} (it "
                              "is written whole or not at all; a file there is left as it was)\n")
    assert out.read_text() == "before\n" and [path.name for path in tmp_path.iterdir()] == ["deals.tbn"]
    # the same command again writes the file byte for byte as a run never stopped writes it
    deal = [sys.executable, "-c", "from cli.main import main; main()", "deal", "-g", "schafkopf", "-n", "6"]
    subprocess.run([*deal, "--out", str(out)], cwd=ROOT, check=True)
    assert out.read_bytes() == subprocess.run(deal, capture_output=True, cwd=ROOT, check=True).stdout


def test_a_stop_before_the_first_deal_says_none_was_written(tmp_path) -> None:
    process = signalled_at("INT", "record:1", ["deal", "-g", "kratzen", "-n", "3"])
    assert (process.returncode, process.stdout) == (130, "")
    assert process.stderr == "stich: deal: stopped by the interrupt before any deal was written\n"
    out = tmp_path / "deals.tbn"
    process = signalled_at("INT", "record:1", ["deal", "-g", "kratzen", "-n", "3", "--out", str(out)])
    assert (process.returncode, process.stdout, out.exists()) == (130, "", False)
    assert process.stderr == ("stich: deal: stopped by the interrupt before any deal was written: nothing written to "
                              f"{out} (it is written whole or not at all; a file there is left as it was)\n")


def test_a_stop_as_deal_renames_its_file_into_place_says_the_file_is_whole(tmp_path) -> None:
    """The file renamed into place and the stop's line agree: a stop that comes as the rename finishes says the file is
    written whole, not that nothing was written."""
    out = tmp_path / "deals.tbn"
    process = signalled_at("TERM", "written", ["deal", "-g", "schafkopf", "-n", "3", "--out", str(out)])
    assert process.returncode == 130, process.stderr
    assert process.stderr == f"stich: deal: stopped by the interrupt after all 3 deals were written whole to {out}\n"
    assert len(list(solver.read_positions(out))) == 3


@pytest.mark.parametrize("signum", ["INT", "TERM", "HUP"])
def test_a_stop_as_the_command_closes_its_work_is_said_in_one_line(deals, signum) -> None:
    """A Ctrl-C after the record loop has ended, as the command says its closing lines, is said in one line, as one
    outside the command's work, not as typer's bare exit 130: the command had begun, so the start-up's line is not said,
    and the command's own is out of reach."""
    process = signalled_at(signum, "returned", ["solve", str(deals)])
    assert process.returncode == 130, process.stderr
    assert process.stdout == solved(deals)  # every record answered, as by a run not stopped
    assert process.stderr == ("stich: solve: stopped by the interrupt as it set up or closed its work: what is printed "
                              "above is whole\n")


@pytest.mark.parametrize("signum", ["INT", "TERM", "HUP"])
def test_a_stop_after_the_command_returned_leaves_its_output_and_exit_code(deals, signum) -> None:
    """A Ctrl-C that comes once the command has returned (its output all printed), as the app exits, does not end it
    with 130 and no line, nor with a traceback while the interpreter exits. The work is done by then: the signal is
    ignored and the command's own exit stands."""
    process = signalled_at(signum, "closed", ["solve", str(deals)])
    assert (process.returncode, process.stderr, process.stdout) == (0, "", solved(deals))


@pytest.mark.parametrize("signum", ["INT", "TERM", "HUP"])
def test_a_stop_after_the_command_returned_still_ends_an_exit_that_hangs(deals, signum) -> None:
    """A late stop lets the exit finish, but not for ever: an exit that hangs (here a handler at exit that sleeps ten
    minutes) is ended after the grace with one line and 130, where ignoring the signal left only SIGKILL."""
    process = signalled_at(signum, "hung", ["solve", str(deals)])
    assert process.returncode == 130, process.stderr
    assert process.stdout == solved(deals)
    assert process.stderr == ("stich: solve: stopped by the interrupt as it exited, after its work was done: the exit "
                              "did not finish within 2 s\n")


def test_a_stop_as_bench_prints_its_table_comes_after_the_table_and_the_saved_run(tmp_path) -> None:
    """Ctrl-C as the table of a finished bench is printed does not cut the table short: the table and the save of the
    finished run are done first, and the stop's line says so (exit 130)."""
    out = tmp_path / "run.json"
    process = signalled_at("INT", "report", ["bench", "--game", "kratzen", "-n", "2", "--out", str(out)])
    assert process.returncode == 130, process.stderr
    assert process.stderr.splitlines()[-1] == ("stich: bench: stopped by the interrupt after its one line finished: "
                                               f"the table above is whole; the run saved whole to {out}")
    assert "deals: Kratzen 2 deals" in process.stdout and "partial" not in json.loads(out.read_text())


@pytest.mark.parametrize("signum", ["INT", "TERM", "HUP"])
def test_a_stopped_bench_leaves_no_copy_of_the_solver_behind(tmp_path, signum) -> None:
    """bench measures a private copy of the solver package in a temporary directory; Ctrl-C, SIGTERM or SIGHUP (its
    terminal closed) in the middle of a line (as the copy has just been made) removes it as a finished run does."""
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    process = signalled_at(signum, "pinned", ["bench", "--game", "kratzen", "-n", "2"],
                           env={**os.environ, "TMPDIR": str(temporary)})
    assert process.returncode == 130, process.stderr
    (pinned,) = [line.removeprefix("pinned: ") for line in process.stderr.splitlines() if line.startswith("pinned: ")]
    assert Path(pinned).parent == temporary and Path(pinned).name.startswith("stich-bench-")
    assert "stich: bench: stopped by the interrupt in the line " in process.stderr
    assert list(temporary.iterdir()) == []


def test_a_stop_as_match_prints_its_report_comes_after_the_report() -> None:
    """Likewise for a match played to the end: its report is printed whole, then the stop is said."""
    arguments = ["match", "--game", "schafkopf", "--bots", "random,random,random,random", "-n", "4", "-j", "1"]
    process = signalled_at("TERM", "report", arguments)
    assert process.returncode == 130, process.stderr
    assert process.stderr == ("stich: match: stopped by the interrupt after all 16 deals were played: its report is "
                              "printed\n")
    finished = subprocess.run([sys.executable, "-c", "from cli.main import main; main()", *arguments],
                              capture_output=True, text=True, cwd=ROOT, check=True)
    assert process.stdout == finished.stdout


def test_a_second_interrupt_in_deal_s_last_flush_names_no_board_past_the_run() -> None:
    """Every deal written to stdout's buffer, then a second Ctrl-C cuts the last flush to a full pipe: the line says the
    last of them was cut as it was flushed, naming no board past the run ('the deal of board 10' of a run of 9)."""
    from cli.deal import deals_stopped

    said = deals_stopped(9, 9, 1, None, cut=True, finished=False)
    assert said == ("after all 9 deals were written: a second interrupt cut the last of them short on stdout, as it "
                    "was flushed; the records that arrived whole are whole")
    one = deals_stopped(1, 1, 1, Path("d.tbn"), cut=False, finished=True)
    assert one == "after its one deal was written whole to d.tbn"


def test_a_cut_of_deal_s_buffer_says_no_count_of_deals() -> None:
    """A second Ctrl-C that cuts stdout's buffer as it is written leaves the deals it held counted as written but gone
    nowhere (336 of 378 arrive), so the stop's line says only where the cut was, not "after 378 of 200,000 deals"."""
    from cli.deal import deals_stopped

    said = deals_stopped(378, 200_000, 1, None, cut=True, finished=False, buffered=True)
    assert said == ("as a second interrupt cut its output short on stdout while its buffer was written, at or before "
                    "the deal of board 379; the records that arrived whole are whole")


def _stich_run(*arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "from solver.cli.main import main; main()", *arguments],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)


def _sorted_lines(path: Path) -> list[str]:
    return sorted(path.read_text().splitlines())


@pytest.mark.parametrize("signum", ["TERM", "HUP"])
def test_a_batch_stopped_by_sigterm_or_a_closed_terminal_resumes_to_the_whole_run_s_lines(tmp_path, signum) -> None:
    """SIGHUP (the terminal closed) stops a batch as Ctrl-C and SIGTERM do, after its third line here, keeping its lines
    (not killed outright, its workers' chunks lost without a word); a rerun adds the rest, each record's line once, the
    same lines as a run never stopped."""
    deals, whole, out = tmp_path / "deals.tbn", tmp_path / "whole.jsonl", tmp_path / "out.jsonl"
    assert _stich_run("deal", "-g", "sk", "-n", "8", "--seed", "5", "--out", str(deals)).returncode == 0
    command = ["batch", str(deals), "-j", "1", "--chunk-size", "1", "-o", "points", "--cards"]
    assert _stich_run(*command, "--out", str(whole)).returncode == 0
    process = signalled_at(signum, "line:3", [*command, "--out", str(out)])
    assert process.returncode == 130, process.stderr
    assert process.stderr.splitlines()[-1] == (f"stich: batch: stopped by the interrupt (SIG{signum}); the 3 "
                                               f"lines written so far are kept in {out}: rerun the command to "
                                               "resume")
    assert out.read_text().count("\n") == 3
    resumed = _stich_run(*command, "--out", str(out))
    assert resumed.returncode == 0 and "3 already done" in resumed.stderr, resumed.stderr
    assert _sorted_lines(out) == _sorted_lines(whole)


def test_a_batch_whose_terminal_closed_exits_130_though_its_stop_line_cannot_be_said(tmp_path) -> None:
    """A closed terminal takes stderr with it: the stop's line failed with EIO, and that OSError made the exit 1 (bad
    input). The line is lost, the exit is still the stop's, and the lines written are kept."""
    deals, out = tmp_path / "deals.tbn", tmp_path / "out.jsonl"
    assert _stich_run("deal", "-g", "kratzen", "-n", "5", "--out", str(deals)).returncode == 0
    process = signalled_at("HUP", "hangup:2", ["batch", str(deals), "-j", "1", "--chunk-size", "1", "--out",
                                               str(out)])
    assert process.returncode == 130 and process.stderr == "", process.stderr
    assert out.read_text().count("\n") == 2


def test_a_stop_whose_terminal_closed_exits_130_though_its_closing_lines_cannot_be_said(tmp_path) -> None:
    """solve stopped past its 20 record messages says how many more there were before its stop's line: with the
    terminal closed (SIGHUP) that write fails (EIO) as the command stops, which leaves the exit the stop's, 130,
    not bad input's 1."""
    deals = tmp_path / "deals.tbn"
    deals.write_text('[Game "Zwanzigerrufen"]\n[Deal "nonsense"]\n\n' * 25)
    process = signalled_at("HUP", "said:22", ["solve", str(deals)])
    assert process.returncode == 130, process.stderr
    said = process.stderr.splitlines()
    assert len(said) == 20 and all(line.startswith(f"stich: {deals}:") for line in said), said


def _hangup_ignored() -> None:
    """As ``nohup`` starts a command: SIGHUP ignored, the rest as a shell gives them."""
    signals_as_a_shell_gives_them()
    signal.signal(signal.SIGHUP, signal.SIG_IGN)


def test_a_command_started_with_sighup_ignored_runs_on_when_it_comes_and_exits_0(tmp_path) -> None:
    """Under ``nohup`` a closed terminal must not stop the run: the ignored SIGHUP stays ignored."""
    deals, out = tmp_path / "deals.tbn", tmp_path / "out.jsonl"
    assert _stich_run("deal", "-g", "kratzen", "-n", "5", "--out", str(deals)).returncode == 0
    process = subprocess.run([sys.executable, "-c", _SIGNALLED_AT, "HUP", "line:2", "batch", str(deals), "-j", "1",
                              "--chunk-size", "1", "--out", str(out)], capture_output=True, text=True, cwd=ROOT,
                             timeout=120, preexec_fn=_hangup_ignored)
    assert process.returncode == 0, process.stderr
    assert "stopped" not in process.stderr and out.read_text().count("\n") == 5
