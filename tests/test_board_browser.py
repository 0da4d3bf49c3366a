"""``stich board`` in a real browser: headless Chromium driven by Selenium against the board served by uvicorn.

Open a shipped example, read a card's value from the page (checked against the engine), play the best line to the
end, undo, save and re-read the file, switch the objective, switch to single dummy, and take a screenshot. Where no
browser starts these tests skip with the reason, except in CI (``CI=true``), where they fail: ``.ci/run`` installs
Debian's chromium and chromium-driver where they are missing.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

import solver
from solver.board import create_app
from solver.formats.tbn import NO_RECORDS

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SCREENSHOT = os.environ.get("STICH_BOARD_SCREENSHOT")  # where to keep the screenshot (docs/board.png for the README)
WAIT = 60.0  # bounds a failure: a wait on a loaded machine ends as soon as the page is ready


def _browser_missing(reason: str) -> None:
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"no browser in CI: {reason} (.ci/run installs chromium and chromium-driver)")
    pytest.skip(f"browser tests need Chromium and its driver: {reason}")


@pytest.fixture(scope="module")
def driver(tmp_path_factory):
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError as error:
        _browser_missing(f"selenium is not installed ({error})")
    binary = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    chromedriver = shutil.which("chromedriver")
    if not binary or not chromedriver:
        _browser_missing("chromium or chromedriver is not on PATH")
    downloads = tmp_path_factory.mktemp("downloads")
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1400,900"):
        options.add_argument(argument)
    options.add_experimental_option("prefs", {"download.default_directory": str(downloads),
                                              "download.prompt_for_download": False})
    try:
        browser = webdriver.Chrome(service=Service(chromedriver), options=options)
    except Exception as error:  # the driver's many ways of not starting a browser
        _browser_missing(f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}")
    browser.downloads = downloads  # type: ignore[attr-defined]
    yield browser
    browser.quit()


@pytest.fixture(scope="module")
def server():
    with serving([EXAMPLES / "zwanzigerrufen.tbn", EXAMPLES / "schafkopf.tbn", EXAMPLES / "kratzen.tbn"]) as address:
        yield address


@contextmanager
def serving(files: list[Path], port: int = 0, **options):
    """The board of ``files`` served by uvicorn on ``port`` (a free one by default) for the block: its address."""
    import uvicorn

    listener = socket.create_server(("127.0.0.1", port))
    port = listener.getsockname()[1]
    app = create_app(files, host="127.0.0.1", port=port, time_limit=60, **options)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + WAIT
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the board's server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}/"
    server.should_exit = True
    thread.join(10)
    listener.close()


def wait_for(condition, what: str, timeout: float = WAIT):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            value = condition()
        except Exception:  # the page is redrawing: an element went stale
            value = None
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def accessible_name(driver, selector: str) -> str:
    """An element's accessible name, read again where the page redrew it meanwhile (a stale element)."""
    return wait_for(lambda: driver.find_element("css selector", selector).accessible_name, f"a name of {selector}")


def paste_record(driver, server: str, text: str, ready: str, what: str) -> None:
    """Opens the page and loads ``text`` as the Paste dialog does, then waits until the page has settled and
    ``ready`` (an expression on the page's state ``S``) holds."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    driver.execute_script("loaded(ask('load', '/api/load', { text: arguments[0] }), 'pasted')", text)
    wait_for(lambda: settled(driver) and driver.execute_script(f"return {ready}"), what)


def settled(driver) -> bool:
    """No question in flight, and the seat to move (if any) shows its values."""
    return driver.execute_script(
        "return document.body.dataset.busy === 'no' && S.ready === true && S.view.moves.length === S.cursor")


def odds_done(driver) -> bool:
    """The single-dummy odds are over all their samples (or said to have stopped)."""
    return driver.execute_script("return document.getElementById('odds').dataset.done === 'yes'")


#: Records the sample count line of every odds table drawn (each drawing makes new elements).
ODDS_COUNTS = """window.oddsCounts = [];
new MutationObserver((records) => { for (const record of records) for (const node of record.addedNodes)
  if (node.id === 'odds-count') window.oddsCounts.push(node.textContent); })
  .observe(document.getElementById('odds'), { childList: true });"""


#: Counts the page's calls of loadCurve, begun and ended (answered, stopped or aborted): the only writer of the graph.
CURVE_CALLS = """window.curveCalls = { begun: 0, ended: 0 };
const loadCurveBefore = loadCurve;
loadCurve = async function (...args) {
  curveCalls.begun += 1;
  try { return await loadCurveBefore(...args); } finally { curveCalls.ended += 1; }
};"""


def values_on_page(driver) -> dict[str, int]:
    return driver.execute_script(
        "const out = {}; document.querySelectorAll('.seat.to-move .card[data-value]').forEach("
        "(n) => out[n.dataset.card] = Number(n.dataset.value)); return out;")


def best_on_page(driver) -> list[str]:
    return driver.execute_script(
        "return [...document.querySelectorAll('.seat.to-move .card.best')].map((n) => n.dataset.card);")


def moves(driver) -> list[str]:
    return driver.execute_script("return S.moves.slice(0, S.cursor);")


def emulate_window(driver, width: int, height: int, scale: float = 1, mobile: bool = False) -> None:
    """A window of ``width`` by ``height`` CSS pixels at ``scale`` device pixels each (a phone's with ``mobile``),
    once the page has it."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height,
                                                                  "deviceScaleFactor": scale, "mobile": mobile})
    wait_for(lambda: driver.execute_script("return innerWidth") == width, f"{width} pixels")


def restore_window(driver) -> None:
    """The tests' usual window again, after :func:`emulate_window`."""
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    driver.set_window_size(1400, 900)


@contextmanager
def coarse_pointer(driver):
    """A touch screen emulated for the block, the mouse's window again after it. CDP's touch emulation is what makes
    ``(pointer: coarse)`` match in this Chromium (``Emulation.setEmulatedMedia`` with a pointer feature does not):
    asserted, since the graph's 24-pixel columns are a coarse pointer's alone."""
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    try:
        assert driver.execute_script("return matchMedia('(pointer: coarse)').matches")
        yield
    finally:
        driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": False})


@contextmanager
def touch_screen(driver, media: str = "(any-pointer: coarse)"):
    """A touch screen emulated for the block, the mouse's window again after it; skipped where this Chromium's
    emulation does not give the pointer ``media`` asks for (some keep a fine pointer or hover)."""
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    try:
        if not driver.execute_script(f"return matchMedia('{media}').matches"):
            pytest.skip(f"this Chromium's touch emulation does not match {media}")
        yield
    finally:
        driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": False})


def test_a_card_value_on_the_page_is_the_engines(driver, server):
    driver.get(server)
    wait_for(lambda: settled(driver), "the first record's values")
    assert "zwanzigerrufen.tbn board 1" in driver.find_element("id", "title").text
    position = next(solver.read_positions(EXAMPLES / "zwanzigerrufen.tbn"))
    from selenium.webdriver.support.select import Select

    for name in ("score", "points"):  # the score first (the page's default), then the card points
        if name != "score":
            Select(driver.find_element("id", "objective")).select_by_value(name)
            wait_for(lambda: settled(driver) and driver.execute_script("return S.values.objective") == name, name)
        shown = values_on_page(driver)
        result = solver.solve(position, name, cards=True)
        expected = {card: result.achieved + value for card, value in result.card_names().items()}
        assert driver.execute_script("return S.values.objective") == name and shown == expected
        assert sorted(best_on_page(driver)) == sorted(card.name for card in result.best_cards())
        # the page's own text shows the same number on the card
        card = driver.find_element("css selector", ".seat.to-move .card[data-value] .value")
        assert card.text == str(next(iter(shown.values())))
        # what the numbers count and whose they are, not "score: 4 for 1+2"
        unit = {"score": "game units", "points": "card points"}[name]
        title = {"score": "Score", "points": "Points"}[name]  # as stich solve names them
        assert driver.find_element("id", "summary").text.startswith(f"{title}: {result.total} {unit} for seats 1+2")
        # the status region says the value, not the search's time after every card
        took = driver.find_element("css selector", "#summary .took")
        assert re.fullmatch(r" · \d+ ms| · \d+\.\d s", took.get_attribute("textContent"))
        assert took.get_attribute("aria-hidden") == "true"
        assert card.get_attribute("title").endswith(f": {card.text} {unit} for seats 1+2")


def test_the_position_shown_is_one_copy_from_the_command_line(driver, server):
    """A player who wants the position at the command line finds its `stich solve` command under the play list,
    following the cards clicked, and Copy puts it on the clipboard (or, where the page may not write there, selects
    it for Ctrl-C)."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    driver.find_element("id", "first").click()  # the record opens at the end of its own play
    wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == 0, "the start")
    path = str(EXAMPLES / "zwanzigerrufen.tbn")
    assert driver.find_element("id", "command").text == f"stich solve {path} --board 1 --from-start --cards"
    assert driver.find_element("id", "command-save").text == ""  # the named file itself: nothing to save first
    card = sorted(values_on_page(driver))[0]
    driver.find_element("css selector", f'.seat.to-move .card[data-card="{card}"]').click()
    wait_for(lambda: settled(driver) and moves(driver) == [card], "the card played")
    command = f"stich solve {path} --board 1 --from-start --play {card} --cards"
    assert driver.find_element("id", "command").text == command
    driver.find_element("id", "copy-command").click()
    said = wait_for(lambda: driver.find_element("id", "copy-said").text, "the copy said")
    if said == "copied":
        driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": server.rstrip("/"),
                                                             "permissions": ["clipboardReadWrite"]})
        assert driver.execute_async_script("navigator.clipboard.readText().then(arguments[0])") == command
    else:
        assert said == "selected: Ctrl-C copies it"
        assert driver.execute_script("return getSelection().toString()") == command


@pytest.mark.parametrize("label, path, cards", [("schafkopf.tbn board 1", "schafkopf.tbn", 6),
                                                ("kratzen.tbn board 5", "kratzen.tbn", 2)])
def test_every_card_on_the_page_shows_the_engines_value_in_schafkopf_and_kratzen(driver, server, label, path, cards):
    """The other two games' tables as the first game's: each card of the seat to move shows the engine's value for
    the page's default objective (Schafkopf's score, a Kratzen seat's own tricks), the best ones outlined, and the
    number on the card's face is its value (with ▲ or ▼ where it counts towards a target)."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    open_at(driver, label, cards)
    board = label.rsplit(" ", 1)[1]
    position = next(p for p in solver.read_positions(EXAMPLES / path) if p.record.get("Board") == board)
    start = solver.Position(position.game, position.rules, position.rules.start(), record=position.record)
    for card in driver.execute_script("return S.moves.slice(0, S.cursor)"):
        start = start.play(start.pack.parse(card).index)
    objective = driver.execute_script("return S.values.objective")
    seat = None if objective == "score" else start.state.to_move + 1
    result = solver.solve(start, objective, seat=seat, cards=True)
    expected = {card: result.achieved + value for card, value in result.card_names().items()}
    assert values_on_page(driver) == expected
    assert sorted(best_on_page(driver)) == sorted(card.name for card in result.best_cards())
    yes_no = driver.execute_script("return S.values.yes_no")
    for node in driver.find_elements("css selector", ".seat.to-move .card[data-value]"):
        shown = node.find_element("css selector", ".value").text
        value = int(node.get_attribute("data-value"))
        if yes_no:  # a Kratzen seat's own tricks: the count, and ▲ or ▼ as it makes the seat's target or not
            mood = "▲" if value >= result.objective.target else "▼"
            assert shown == f"{value}{mood}", node.get_attribute("data-card")
        else:
            assert shown == str(value)


def test_play_the_best_line_to_the_end_then_undo(driver, server):
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    start = moves(driver)
    position = next(solver.read_positions(EXAMPLES / "zwanzigerrufen.tbn"))
    total = solver.solve(position, "score").total  # the page's default objective
    best = driver.find_element("id", "best")
    for _ in range(40):
        if driver.execute_script("return S.view.is_over"):
            break
        card = best_on_page(driver)[0]
        driver.find_element("css selector", f'.seat.to-move .card[data-card="{card}"]').click()
        wait_for(lambda: settled(driver) and len(moves(driver)) > len(start), "the next position")
        start = moves(driver)
    else:
        raise AssertionError("the deal did not end")
    assert driver.execute_script("return S.view.is_over")
    # best play from both sides keeps the score the engine promised: the deal's settlement
    assert driver.execute_script("return S.values.total") == total
    played = [position.pack.parse(card).index for card in moves(driver)]
    final = solver.Position(position.game, position.rules, position.rules.start(), record=position.record)
    for card in played:
        final = final.play(card)
    assert solver.solve(final, "score").total == total
    # the evaluation graph, by the score, stays flat from the record's end: nobody erred on the best line
    wait_for(lambda: driver.execute_script("return S.curve && S.curve.curve.length === S.moves.length + 1"),
             "the graph")
    assert driver.execute_script("return S.curve.measure") == "game units"
    assert driver.execute_script("return S.curve.curve[S.curve.curve.length - 1]") == total
    assert "score (game units)" in driver.find_element("id", "curve-note").text
    played = moves(driver)
    driver.find_element("id", "undo").click()
    wait_for(lambda: settled(driver) and len(moves(driver)) == len(played) - 1, "undo")
    assert values_on_page(driver)  # a card to play again, with its value
    driver.find_element("id", "redo").click()
    wait_for(lambda: settled(driver) and moves(driver) == played, "redo")
    assert "best" in driver.find_element("id", "best").get_attribute("outerHTML")
    # a point of the graph returns there
    driver.find_element("css selector", '#graph .dot[data-index="2"]').click()
    wait_for(lambda: settled(driver) and len(moves(driver)) == 2, "the graph's point 2")
    busy_best = driver.find_element("id", "best")
    assert busy_best.get_attribute("aria-disabled") != "true"  # settled with cards to play: a best card to ask for
    _ = best


def test_a_reload_keeps_the_record_the_moves_and_a_deal(driver, server):
    from selenium.webdriver.support.select import Select

    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    Select(driver.find_element("id", "records")).select_by_visible_text("schafkopf.tbn board 2: Schafkopf Wenz")
    wait_for(lambda: settled(driver) and "schafkopf.tbn board 2" in driver.find_element("id", "title").text, "board 2")
    recorded = len(moves(driver))
    for _ in range(2):
        driver.find_element("id", "best").click()
        wait_for(lambda: settled(driver) and len(moves(driver)) > recorded + _, "a best card")
    driver.find_element("id", "undo").click()
    wait_for(lambda: settled(driver) and len(moves(driver)) == recorded + 1, "undo")
    table = driver.execute_script("return [S.board, S.moves, S.cursor]")
    driver.refresh()  # the moves, the one to redo too, are still there
    wait_for(lambda: settled(driver), "the reloaded table")
    assert driver.execute_script("return [S.board, S.moves, S.cursor]") == table
    assert "schafkopf.tbn board 2" in driver.find_element("id", "title").text
    assert driver.find_element("id", "redo").get_attribute("aria-disabled") != "true"
    driver.execute_script("loaded(ask('deal', '/api/deal', { game: 'Kratzen', seed: 7, seats: 5 }), 'dealt')")
    wait_for(lambda: settled(driver) and "Kratzen seed 7" in driver.find_element("id", "title").text, "the deal")
    table = driver.execute_script("return [S.board, S.moves, S.cursor]")
    driver.refresh()  # a deal's record is listed and open again
    wait_for(lambda: settled(driver), "the reloaded deal")
    assert driver.execute_script("return [S.board, S.moves, S.cursor]") == table
    assert "Kratzen seed 7" in driver.find_element("id", "title").text
    driver.get(server)  # the address opened again: the first record, as new
    wait_for(lambda: settled(driver) and "zwanzigerrufen.tbn board 1" in driver.find_element("id", "title").text,
             "the first record")


@contextmanager
def held_searches(monkeypatch):
    """The board's card-value searches held while the block's ``hold`` event is set: each held search waits until its
    question is stopped (by the server: its page left, or a newer question of the page) or ``hold`` is cleared.
    Yields ``(hold, held, claimed)``: ``held`` a ``[slot, stopped]`` pair a held search (``stopped`` None while it
    waits), ``claimed`` the slot (``client:kind``) of every question the server took meanwhile."""
    from solver.board import app as board_app
    from solver.errors import SearchStopped

    solve, claim = board_app._solve_checked, board_app.Searches.claim
    hold, held, claimed = threading.Event(), [], []
    slot_of: dict[int, str] = {}

    def claiming(self, slot):
        event = claim(self, slot)
        slot_of[id(event)] = slot
        claimed.append(slot)
        return event

    def solved(*args, stop=None, **options):
        if hold.is_set() and stop is not None:
            entry = [slot_of.get(id(stop)), None]
            held.append(entry)
            deadline = time.monotonic() + WAIT
            while hold.is_set() and not stop.is_set() and time.monotonic() < deadline:
                stop.wait(0.02)
            entry[1] = stop.is_set()
            if stop.is_set():
                raise SearchStopped("the question was stopped")
        return solve(*args, stop=stop, **options)

    monkeypatch.setattr(board_app, "_solve_checked", solved)
    monkeypatch.setattr(board_app.Searches, "claim", claiming)
    hold.set()
    try:
        yield hold, held, claimed
    finally:
        hold.clear()


def test_a_reload_in_the_middle_of_a_search_shows_the_values(driver, server, monkeypatch):
    """A page reloaded while its card values are searched: the search it left stops (the worker thread is not held
    for the page that is gone) and the reloaded page shows the values of the same position."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    driver.find_element("id", "first").click()
    wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == 0, "the start")
    with held_searches(monkeypatch) as (hold, held, _):
        card = sorted(values_on_page(driver))[0]
        driver.find_element("css selector", f'.seat.to-move .card[data-card="{card}"]').click()
        wait_for(lambda: held, "the card's values searched")
        driver.refresh()
        wait_for(lambda: held[0][1] is not None, "the search the page left stopped")
        assert held[0][1] is True
        hold.clear()
        wait_for(lambda: settled(driver) and moves(driver) == [card], "the reloaded page's values")
    position = next(solver.read_positions(EXAMPLES / "zwanzigerrufen.tbn")).at_start()
    position = position.play(position.pack.lookup(card))
    result = solver.solve(position, "score", cards=True)
    assert values_on_page(driver) == {name: result.achieved + value for name, value in result.card_names().items()}


def test_the_tab_says_the_deal_open(driver, server):
    """The tab says the record shown, and another record opened, that one: two tabs (two deals side by side) are told
    apart without opening them, not both titled "stich board"."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    for label in ("zwanzigerrufen.tbn board 3", "schafkopf.tbn board 2"):
        open_record(driver, label)
        wait_for(lambda: driver.title == f"{label} · stich board", f"the tab's title of {label}")


def test_two_tabs_play_at_once_each_its_own_table(driver, server, monkeypatch):
    """Two tabs on one board: a card played in the second while the first's values are searched neither stops the
    first's search (each page asks as its own client) nor touches its table; each shows its own position's values."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    driver.find_element("id", "first").click()
    wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == 0, "the start")
    first = driver.current_window_handle
    driver.switch_to.new_window("tab")
    second = driver.current_window_handle
    try:
        driver.get(server)
        wait_for(lambda: settled(driver), "the second tab's values")
        driver.find_element("id", "first").click()
        wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == 0, "the second tab's start")
        cards = sorted(values_on_page(driver))
        with held_searches(monkeypatch) as (hold, held, claimed):
            driver.switch_to.window(first)
            driver.find_element("css selector", f'.seat.to-move .card[data-card="{cards[0]}"]').click()
            wait_for(lambda: len(held) == 1, "the first tab's search")
            driver.switch_to.window(second)
            driver.find_element("css selector", f'.seat.to-move .card[data-card="{cards[1]}"]').click()
            wait_for(lambda: any(slot.endswith(":values") and slot != held[0][0] for slot in claimed),
                     "the second tab's question")
            hold.clear()
            wait_for(lambda: settled(driver) and moves(driver) == [cards[1]], "the second tab's values")
        assert held[0][1] is False  # the first tab's search ran to its answer
        driver.switch_to.window(first)
        wait_for(lambda: settled(driver) and moves(driver) == [cards[0]], "the first tab's values")
        start = next(solver.read_positions(EXAMPLES / "zwanzigerrufen.tbn")).at_start()
        for handle, card in ((first, cards[0]), (second, cards[1])):
            driver.switch_to.window(handle)
            position = start.play(start.pack.lookup(card))
            result = solver.solve(position, "score", cards=True)
            assert moves(driver) == [card] and values_on_page(driver) == {
                name: result.achieved + value for name, value in result.card_names().items()}
    finally:
        driver.switch_to.window(second)
        driver.close()
        driver.switch_to.window(first)


def test_a_board_that_stopped_is_said_in_the_boards_words_not_the_browsers(driver):
    """A card clicked after the server stopped is said in the board's words, not as the browser's "Failed to fetch"."""
    with serving([EXAMPLES / "schafkopf.tbn"]) as address:
        driver.get(address)
        wait_for(lambda: settled(driver), "values")
    driver.find_element("css selector", ".seat.to-move .card.legal").click()
    error = wait_for(lambda: driver.find_element("id", "error").text, "the error bar")
    assert "no answer from the board at 127.0.0.1:" in error and "stich board still running" in error
    assert "Failed to fetch" not in error


def title(driver) -> str:
    return driver.find_element("id", "title").text


def listed(driver) -> list[list[str]]:
    """The record list's groups, each its heading and its records' names."""
    return driver.execute_script("return [...document.querySelectorAll('#records optgroup')]"
                                 ".map((g) => [g.label, ...[...g.children].map((o) => o.textContent)])")


def test_a_reload_after_a_restart_keeps_the_named_files_play_and_drops_the_deals(driver):
    """Board ids start again at b1 when the server starts again, so a reload after a restart on the same port must not
    open a tab's deal (Kratzen seed 7) under an id another tab's deal (Schafkopf seed 3) has got since: the deals of the
    server's last start are dropped; the named file's record is opened again with its moves."""
    import urllib.request

    with serving([EXAMPLES / "kratzen.tbn"]) as address:
        port = int(address.rstrip("/").rsplit(":", 1)[1])
        driver.get(address)
        wait_for(lambda: settled(driver), "values")
        driver.execute_script("loaded(ask('deal', '/api/deal', { game: 'Kratzen', seed: 7, seats: 5 }), 'dealt')")
        wait_for(lambda: settled(driver) and "Kratzen seed 7" in title(driver), "the deal")
        dealt = driver.execute_script("return S.board")
        driver.execute_script("openBoard(document.querySelector('#records option').value)")
        wait_for(lambda: settled(driver) and "kratzen.tbn board 1" in title(driver), "the file's first record")
        driver.find_element("id", "best").click()
        wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == 1, "a card played")
        table = driver.execute_script("return [S.moves, S.cursor]")
    with serving([EXAMPLES / "kratzen.tbn"], port=port) as again:
        urllib.request.urlopen(again + "api/start").read()  # another tab, then its deal
        asked = urllib.request.Request(again + "api/deal", headers={"Content-Type": "application/json"},
                                       data=json.dumps({"game": "Schafkopf", "seed": 3}).encode())
        assert json.loads(urllib.request.urlopen(asked).read())["open"] == dealt
        driver.refresh()
        wait_for(lambda: settled(driver), "the reloaded table")
        assert "kratzen.tbn board 1" in title(driver)
        assert driver.execute_script("return [S.moves, S.cursor]") == table
        assert [group[0] for group in listed(driver)] == ["kratzen.tbn"]


def test_a_reload_after_an_edit_to_the_named_file_keeps_the_play(driver, tmp_path):
    """An edit to a named file gives its records new ids: a reload keeps the play, finding the record again by its
    label, its moves checked to play on it as edited, rather than losing the play and opening board 1."""
    record = '[Game "Kratzen"]\n[Deal "1: E9 EK / HA G7 / H7 G8"]\n[Contract "Trump H"]\n'
    path = tmp_path / "own.tbn"
    path.write_text(record + "\n" + record.replace("E9 EK", "EK E9"), encoding="utf-8")
    with serving([path]) as address:
        driver.get(address)
        wait_for(lambda: settled(driver), "values")
        driver.execute_script("openBoard(document.querySelectorAll('#records option')[1].value)")
        wait_for(lambda: settled(driver) and "own.tbn record 2" in title(driver), "record 2")
        before = driver.execute_script("S.moves = ['EK']; goTo(1); return S.board")
        wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == 1, "a card played")
        path.write_text(record.replace("]\n", "]\n[Event \"edited\"]\n", 1) + "\n"
                        + record.replace("E9 EK", "EK E9"), encoding="utf-8")
        driver.refresh()
        wait_for(lambda: settled(driver), "the reloaded table")
        assert driver.execute_script("return S.board") != before  # the edited file's ids
        assert "own.tbn record 2" in title(driver)
        assert driver.execute_script("return [S.moves, S.cursor]") == [["EK"], 1]


KRATZEN_TAGLESS = '[Game "Kratzen"]\n[Deal "1: E9 EK / {}"]\n[Contract "Trump H"]\n'


def _open_record_2_and_play_ek(driver, address: str, name: str) -> None:
    """Open the board at ``address``, then the second record of the file ``name`` (a Kratzen deal of KRATZEN_TAGLESS),
    and play EK on it: the kept table a reload is to find again."""
    driver.get(address)
    wait_for(lambda: settled(driver), "values")
    driver.execute_script("openBoard(document.querySelectorAll('#records option')[1].value)")
    wait_for(lambda: settled(driver) and f"{name} record 2" in title(driver), "record 2")
    driver.execute_script("S.moves = ['EK']; goTo(1)")
    wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == 1, "a card played")


def test_a_reload_after_the_named_files_records_were_reordered_keeps_the_deal_played(driver, tmp_path):
    """A named file's record is found again by what it is (its deal and contract), not by its label, a tagless record's
    place: with the records swapped, a reload opens the deal played, not the other deal's cards under the kept play."""
    played_on, other = KRATZEN_TAGLESS.format("HA G7 / H7 G8"), KRATZEN_TAGLESS.format("H7 G8 / HA G7")
    path = tmp_path / "swapped.tbn"
    path.write_text(other + "\n" + played_on, encoding="utf-8")
    with serving([path]) as address:
        _open_record_2_and_play_ek(driver, address, "swapped.tbn")
        hands = driver.execute_script("return S.view.hands.map((h) => h.cards.map((c) => c.name))")
        path.write_text(played_on + "\n" + other, encoding="utf-8")
        driver.refresh()
        wait_for(lambda: settled(driver), "the reloaded table")
        assert "swapped.tbn record 1" in title(driver)  # its place now
        assert driver.execute_script("return S.view.hands.map((h) => h.cards.map((c) => c.name))") == hands
        assert driver.execute_script("return [S.moves, S.cursor]") == [["EK"], 1]
        assert not driver.find_element("id", "error").is_displayed()


def test_a_reload_after_the_record_was_changed_says_so_and_opens_the_files_first_record(driver, tmp_path):
    """A record changed in its file (its deal) is not opened again under its label with the kept play (another deal's
    cards under it): the page says the record is not there as it was and opens the file's first record with its own
    play."""
    first, changed = KRATZEN_TAGLESS.format("HA G7 / H7 G8"), KRATZEN_TAGLESS.format("H7 G8 / HA G7")
    path = tmp_path / "edited.tbn"
    path.write_text(first + "\n" + first.replace("Trump H", "Trump G"), encoding="utf-8")
    with serving([path]) as address:
        _open_record_2_and_play_ek(driver, address, "edited.tbn")
        path.write_text(first + "\n" + changed, encoding="utf-8")
        driver.refresh()
        wait_for(lambda: settled(driver), "the reloaded table")
        error = driver.find_element("id", "error").text
        assert error.startswith("edited.tbn record 2 is no longer in edited.tbn as it was") and "edited" in error
        assert "edited.tbn record 1" in title(driver)
        assert driver.execute_script("return [S.moves, S.cursor]") == [[], 0]  # its own play, not the kept moves


def test_a_reload_after_a_record_was_put_in_front_of_two_saves_of_one_deal_opens_the_save_played(driver, tmp_path):
    """Two saves of one deal (Play E9, Play EK: a concatenated file) have one fingerprint, so the kept label cannot tell
    them apart: with a record put in front, save B's label is save A's. The save whose own play is the one kept is
    opened, not A under B's moves."""
    deal = KRATZEN_TAGLESS.format("HA G7 / H7 G8")
    save_a, save_b = deal + "[Play \"1\"]\nE9\n", deal + "[Play \"1\"]\nEK\n"
    path = tmp_path / "saves.tbn"
    path.write_text(save_a + "\n" + save_b, encoding="utf-8")
    with serving([path]) as address:
        driver.get(address)
        wait_for(lambda: settled(driver), "values")
        driver.execute_script("openBoard(document.querySelectorAll('#records option')[1].value)")
        wait_for(lambda: settled(driver) and "saves.tbn record 2" in title(driver), "save B")
        assert driver.execute_script("return [S.moves, S.cursor]") == [["EK"], 1]
        path.write_text(KRATZEN_TAGLESS.format("H7 G8 / HA G7") + "\n" + save_a + "\n" + save_b, encoding="utf-8")
        driver.refresh()
        wait_for(lambda: settled(driver), "the reloaded table")
        assert "saves.tbn record 3" in title(driver)  # save B's place now; save A is record 2
        assert driver.execute_script("return [S.moves, S.cursor]") == [["EK"], 1]
        assert not driver.find_element("id", "error").is_displayed()


def test_a_reload_after_a_restart_with_another_variant_says_so_and_opens_the_board_record(driver):
    """The fingerprint holds the --variant flags, so after a restart with another --variant the unchanged file's record
    is not gone "because the file was edited since", nor does the file's first record open: the page says the --variant
    changed and opens the --board record it opens first."""
    with serving([EXAMPLES / "kratzen.tbn"]) as address:
        port = int(address.rstrip("/").rsplit(":", 1)[1])
        driver.get(address)
        wait_for(lambda: settled(driver) and "kratzen.tbn board 1" in title(driver), "the file's first record")
        driver.find_element("id", "best").click()
        wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == 1, "a card played")
    with serving([EXAMPLES / "kratzen.tbn"], port=port, board="3", variant={"must_undertrump": "false"}):
        driver.refresh()
        wait_for(lambda: settled(driver), "the reloaded table")
        error = driver.find_element("id", "error").text
        assert error.startswith("kratzen.tbn board 1 is no longer in kratzen.tbn as it was")
        assert "(the board's --variant changed since: Kratzen must_undertrump=false, was none)" in error
        assert "edited" not in error and "kratzen.tbn board 3 is open with its own play" in error
        assert "kratzen.tbn board 3" in title(driver)
        own = driver.execute_script("return JSON.parse($('records').selectedOptions[0].dataset.moves)")
        assert driver.execute_script("return [S.moves, S.cursor]") == [own, len(own)]


def test_a_reload_after_the_file_was_edited_and_the_variant_changed_says_both(driver, tmp_path):
    """A record changed in its file (its deal) and the board restarted with another --variant: the page said only
    that the --variant changed (the fingerprint holds the flags, so it could not tell). The record as its file has
    it (its record fingerprint) is not there either, and the page says both."""
    first, changed = KRATZEN_TAGLESS.format("HA G7 / H7 G8"), KRATZEN_TAGLESS.format("H7 G8 / HA G7")
    path = tmp_path / "both.tbn"
    path.write_text(first + "\n" + first.replace("Trump H", "Trump G"), encoding="utf-8")
    with serving([path]) as address:
        port = int(address.rstrip("/").rsplit(":", 1)[1])
        _open_record_2_and_play_ek(driver, address, "both.tbn")
    path.write_text(first + "\n" + changed, encoding="utf-8")
    with serving([path], port=port, variant={"must_undertrump": "false"}):
        driver.refresh()
        wait_for(lambda: settled(driver), "the reloaded table")
        error = driver.find_element("id", "error").text
        assert error.startswith("both.tbn record 2 is no longer in both.tbn as it was")
        assert ("(the file was edited and the board's --variant changed since: Kratzen must_undertrump=false, was "
                "none)") in error
        assert "both.tbn record 1" in title(driver)
        assert driver.execute_script("return [S.moves, S.cursor]") == [[], 0]  # its own play, not the kept moves


def test_a_tab_kept_by_an_older_page_or_damaged_opens_as_new_and_is_kept_anew(driver):
    """What an older page kept (another shape, no version) or a damaged one is not read: the page opens as new, with
    nothing said, and keeps its own table from then on; without a named file (no record opens) too, the old one is not
    read again and dropped at every reload, and a damaged list of uploads does not stop the page's start."""
    kept = lambda: driver.execute_script("return JSON.parse(sessionStorage.getItem('stich-board'))")  # noqa: E731
    older = {"board": "b1", "label": "kratzen.tbn board 1: Kratzen Trump H", "moves": ["EK"], "cursor": 1,
             "opened": [{"group": "dealt", "boards": [{"id": "b9"}]}]}
    with serving([EXAMPLES / "kratzen.tbn"]) as address:
        driver.get(address)
        wait_for(lambda: settled(driver), "values")
        # the third is this page's shape but for its fingerprint: it is not to be said a record changed in its file
        current = {"version": 4, "server": "", "board": "b999", "moves": ["EK"], "cursor": 1, "opened": [],
                   "label": "kratzen.tbn board 1", "group": "kratzen.tbn", "own": [], "recordFingerprint": "0",
                   "variant": ""}
        for state in (older, {**current, "opened": [{"group": "x", "boards": 5}], "fingerprint": "0"}, current):
            token = driver.execute_script("return S.server")
            state = {**state, "server": token} if "server" in state else state
            driver.execute_script("sessionStorage.setItem('stich-board', JSON.stringify(arguments[0]))", state)
            driver.refresh()
            wait_for(lambda: settled(driver) and "kratzen.tbn board 1" in title(driver), "the first record")
            assert driver.execute_script("return [S.cursor, S.moves.length]") == [0, 0]
            assert not driver.find_element("id", "error").is_displayed()
            assert kept()["opened"] == [] and kept()["moves"] == [] and kept()["server"] == token
    with serving([]) as address:
        driver.get(address)
        wait_for(lambda: "Open a .tbn file" in driver.find_element("id", "centre").text, "the empty page")
        driver.execute_script("sessionStorage.setItem('stich-board', JSON.stringify(arguments[0]))", older)
        driver.refresh()
        wait_for(lambda: "Open a .tbn file" in driver.find_element("id", "centre").text, "the empty page again")
        assert kept() is None and not driver.find_element("id", "error").is_displayed()


def test_a_file_of_many_bad_records_is_said_in_a_bar_that_leaves_the_table_in_view(driver, tmp_path):
    """A named file of many bad records says their 22 lines in a bar that scrolls, in a fifth of the window, its last
    line reached by scrolling, so that the table stays in view (not 412 pixels of a 757-pixel window filled above
    it)."""
    record = (EXAMPLES / "kratzen.tbn").read_text(encoding="utf-8").split("\n\n% 2.")[0]
    path = tmp_path / "many.tbn"
    path.write_text("\n\n".join([record] + [record.replace('[Declarer "1"]', '[Declarer "9"]')] * 25) + "\n",
                    encoding="utf-8")
    with serving([path]) as address:
        driver.get(address)
        wait_for(lambda: settled(driver), "values")
        bar = driver.find_element("id", "error")
        assert bar.text.count("[Declarer] is not a seat") == 20
        high, window = driver.execute_script("return [arguments[0].offsetHeight, innerHeight]", bar)
        assert high <= window / 5 + 1
        assert driver.execute_script("return document.getElementById('title').getBoundingClientRect().bottom") < window
        driver.execute_script("arguments[0].scrollTop = arguments[0].scrollHeight", bar)
        assert driver.execute_script("const bar = arguments[0]; return bar.scrollTop + bar.clientHeight >= "
                                     "bar.scrollHeight - 1 && bar.scrollTop > 0", bar)


def test_a_stream_cut_off_by_a_stopped_board_is_said_in_the_boards_words(driver, server):
    """A server stopped during a streamed search: its stream fails part-way, and the page says so in the board's words,
    not as the browser's "network error". An aborted search (a newer question) is still no error."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    cut = """const cause = arguments[0] === 'abort' ? new DOMException('stopped', 'AbortError')
               : new TypeError('network error');
             window.fetch = async () => new Response(new ReadableStream({ start(control) {
               control.enqueue(new TextEncoder().encode('{"kind": "thinking"}\\n'));
               setTimeout(() => control.error(cause), 50); } }));
             showError(''); loadValues();"""
    driver.execute_script(cut, "abort")
    wait_for(lambda: driver.execute_script("return document.body.dataset.busy") == "no", "the aborted search")
    assert not driver.find_element("id", "error").is_displayed()
    driver.execute_script(cut, "network")
    error = wait_for(lambda: driver.find_element("id", "error").text, "the error bar")
    assert error.startswith("no answer from the board at 127.0.0.1:") and "stich board still running" in error
    driver.get(server)  # the page's own fetch again


def test_the_same_paste_twice_is_kept_once_for_a_reload(driver, server):
    """The page keeps its pastes with the record list, not in a list of its own beside it: the same text pasted twice is
    listed once and kept once, so the reload's memory does not grow at every paste."""
    text = '[Game "Kratzen"]\n[Event "twice"]\n[Deal "1: E9 EK / HA G7 / H7 G8"]\n[Contract "Trump H"]\n'
    paste_record(driver, server, text, "S.view.game === 'Kratzen'", "the paste")
    driver.execute_script("loaded(ask('load', '/api/load', { text: arguments[0] }), 'pasted')", text)
    wait_for(lambda: settled(driver), "the paste again")
    kept = driver.execute_script("return JSON.parse(sessionStorage.getItem('stich-board')).opened")
    assert [(item["group"], len(item["boards"])) for item in kept] == [("pasted", 1)]
    driver.refresh()
    wait_for(lambda: settled(driver) and driver.execute_script("return S.view.game") == "Kratzen", "the reload")
    assert [len(group) - 1 for group in listed(driver) if group[0] == "pasted"] == [1]


def test_save_and_read_the_file_again(driver, server):
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    for _ in range(3):  # three best cards beyond the record's play
        count = len(moves(driver))
        driver.find_element("id", "best").click()
        wait_for(lambda: settled(driver) and len(moves(driver)) == count + 1, "a best card")
    played = moves(driver)
    driver.find_element("id", "save").click()
    saved = wait_for(lambda: [p for p in driver.downloads.glob("*.tbn")], "the download")[0]
    again = wait_for(lambda: next(solver.read_positions(saved)), "the whole file")
    assert [again.pack[c].name for c in again.played] == played
    # and the page opens it again as an upload
    driver.find_element("id", "upload").send_keys(str(saved))
    wait_for(lambda: "uploaded" in driver.execute_script(
        "return [...document.querySelectorAll('#records optgroup')].map((g) => g.label).join(' ')"), "the upload")
    wait_for(lambda: settled(driver) and moves(driver) == played, "the uploaded record")
    # its command names the file Save .tbn downloads, which is to be saved first: the page says so beside it
    assert driver.find_element("id", "command-save").text == "(Save .tbn first)"
    assert str(EXAMPLES) not in driver.find_element("id", "command").text
    # uploaded once more, the same file is listed once
    listed = "return document.querySelectorAll('#records option').length"
    count = driver.execute_script(listed)
    driver.execute_script("openBoard(document.querySelector('#records option').value)")
    wait_for(lambda: settled(driver) and moves(driver) != played, "another record")
    driver.find_element("id", "upload").send_keys(str(saved))
    wait_for(lambda: settled(driver) and moves(driver) == played, "the uploaded record again")
    assert driver.execute_script(listed) == count


def test_switch_objective_and_single_dummy_and_screenshot(driver, server, tmp_path):
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    from selenium.webdriver.support.select import Select

    objective = Select(driver.find_element("id", "objective"))
    names = [option.get_attribute("value") for option in objective.options]
    position = next(solver.read_positions(EXAMPLES / "zwanzigerrufen.tbn"))
    assert names == ["score"] + list(position.rules.objective_names())
    objective.select_by_value("valat")
    wait_for(lambda: settled(driver) and driver.execute_script("return S.values.objective") == "valat", "valat")
    # the graph follows the score only: by any other objective, the card points
    wait_for(lambda: driver.execute_script("return S.curve !== null && S.curve.measure") == "points", "the graph")
    badges = driver.execute_script(
        "return [...document.querySelectorAll('.seat.to-move .card .value')].map((n) => n.firstChild.textContent)")
    assert badges and set(badges) <= {"✓", "✗"}
    assert set(badges) == {"✗"}  # the defenders have taken tricks already: no Valat
    # from the score's graph to the points and back at once: the graph ends up the score's, drawn
    score_graph = ("return S.curve !== null && S.curve.measure === 'game units' && "
                   "document.querySelectorAll('#graph .dot').length === S.curve.curve.length")
    objective.select_by_value("score")
    wait_for(lambda: settled(driver) and driver.execute_script(score_graph), "the score's graph")
    driver.execute_script(CURVE_CALLS)
    for name in ("points", "score"):
        objective.select_by_value(name)
    # once every graph asked for has been answered or stopped, none can replace the score's: the points' neither
    wait_for(lambda: settled(driver) and driver.execute_script("return curveCalls.begun === curveCalls.ended"),
             "every graph asked for")
    assert driver.execute_script("return curveCalls.begun") >= 2
    assert driver.execute_script(score_graph)
    # the single-dummy view hides the other hands and shows the analyser's odds for the seat to move: the odds so
    # far while the samples are solved, then over all of them
    driver.execute_script(ODDS_COUNTS)
    driver.find_element("css selector", 'input[name="mode"][value="sd"]').click()
    wait_for(lambda: odds_done(driver), "the odds", timeout=120)
    counts = driver.execute_script("return window.oddsCounts")
    assert any(text.startswith("so far ") for text in counts) and counts[-1].startswith("100 deals"), counts
    # the summary in stich analyse's order (`stich analyse examples/zwanzigerrufen.tbn -b 1 --seat 3 -n 100`: "mean
    # payment -1.93 game units (95%: -1.98 to -1.88)", then "win: 0.0% (95%: 0.0% to 3.7%), mean card points 16.0
    # (95%: 14.4 to 17.7)"): the payment, by which the cards rank, first; "mean card points", not "mean points"
    assert driver.execute_script("return document.getElementById('odds-summary').textContent") == (
        "mean payment -1.9\xa0game\xa0units\xa0(95%:\xa0-2.0\xa0to\xa0-1.9) · "
        "win 0.0%\xa0(95%:\xa00.0%\xa0to\xa03.7%) · mean card points 16.0\xa0(95%:\xa014.4\xa0to\xa017.7)")
    # the opening cards' columns in stich analyse's order (sampling.opening_table): the payment ranks them, first
    assert [th.text for th in driver.find_elements("css selector", "#odds table:not(#odds-bonuses) th")] == [
        "card", "mean payment", "win", "mean card points"]
    hidden = driver.execute_script("return document.querySelectorAll('.seat:not(.to-move) .card.back').length")
    assert hidden == sum(len(hand["cards"]) for hand in driver.execute_script("return S.view.hands")
                         if hand["seat"] != driver.execute_script("return S.view.to_move"))
    driver.find_element("css selector", 'input[name="mode"][value="dd"]').click()
    # the view's redraw may replace the select's options under the choice: chosen again until it holds
    wait_for(lambda: Select(driver.find_element("id", "objective")).select_by_index(0) is None, "the first objective")
    wait_for(lambda: settled(driver), "values again")
    # the README's picture: Schafkopf board 7 after four cards, the score's graph marking the play's mistakes
    open_record(driver, "schafkopf.tbn board 7")
    driver.execute_script("goTo(4)")
    wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == 4
             and driver.execute_script(score_graph), "board 7 after four cards")
    path = Path(SCREENSHOT) if SCREENSHOT else tmp_path / "board.png"
    driver.save_screenshot(str(path))
    assert path.stat().st_size > 10_000 and path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_single_dummy_badges_say_the_mean_payment_and_the_odds_are_announced(driver):
    """examples/valat.tbn in single dummy: every card wins on every deal, but HK throws the Valat away. The badges say
    the mean payment, by which stich analyse ranks the cards (`stich analyse examples/valat.tbn --seat 1 -n 100`:
    T17 +90.00, HK +61.92), not the win chance, which was 100% on all of them; and once the odds are in the status
    line (a status region) says them."""
    with serving([EXAMPLES / "valat.tbn"]) as address:
        driver.get(address)
        wait_for(lambda: settled(driver), "values")
        driver.find_element("css selector", 'input[name="mode"][value="sd"]').click()
        wait_for(lambda: odds_done(driver), "the odds", timeout=120)
        badges = driver.execute_script("return Object.fromEntries([...document.querySelectorAll('.seat.to-move .card')]"
                                       ".map((n) => [n.dataset.card, n.querySelector('.value')?.textContent]))")
        assert badges == {"T17": "+90.0", "T16": "+90.0", "SK": "+75.6", "CK": "+79.2", "HK": "+61.9"}, badges
        assert accessible_name(driver, '.seat.to-move .card[data-card="HK"]') == \
            "King of hearts (HK): mean payment +61.9 game units, wins 100% of the deals"
        assert driver.find_element("css selector", '.seat.to-move .card[data-card="HK"] .value').get_attribute(
            "title") == "HK: mean payment +61.9 game units, wins 100% of the deals"
        status = driver.find_element("id", "status")
        assert status.get_attribute("role") == "status" and status.get_attribute("aria-busy") == "false"
        assert driver.find_element("id", "summary").text == \
            "Odds for seat 1 over 100 deals: best T17, mean payment +90.0 game units, win 100%."


def test_what_a_player_found_wrong_on_the_table(driver, server):
    """On the table: a side hand's cards do not cover each other (XVIII read as XVI), a yes/no badge is coloured for the
    player to move, the arrow keys still move through the play after the objective or the mode is changed, and the
    single-dummy badges survive an objective change."""
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.select import Select

    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    # Zwanzigerrufen board 1 from its start: seats 2 and 4 hold ten cards at the table's sides
    driver.execute_script("goTo(0)")
    wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == 0, "the deal's start")
    boxes = driver.execute_script(
        "return [...document.querySelectorAll('.seat.side .card')].map((n) => n.getBoundingClientRect().toJSON())")
    assert len(boxes) >= 10
    for a, b in ((a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:]):
        assert a["right"] <= b["left"] or b["right"] <= a["left"] or a["bottom"] <= b["top"] or b["bottom"] <= a["top"]
    # Schafkopf board 6: seat 2 is a declarer; against Schneider the declarers' best card GA shows ✗, good for them
    option = driver.execute_script("return [...document.querySelectorAll('#records option')]"
                                   ".find((o) => o.textContent.startsWith('schafkopf.tbn board 6')).value")
    driver.execute_script("openBoard(arguments[0])", option)
    wait_for(lambda: settled(driver) and driver.execute_script("return S.view.label").endswith("board 6"), "board 6")
    objective = Select(driver.find_element("id", "objective"))
    # the list names the objectives as players do, and sends their identifiers
    shown = {option.get_attribute("value"): option.text for option in objective.options}
    assert shown["schneider_against"] == "Schneider against (yes/no)" and shown["points"] == "Points"
    objective.select_by_value("schneider_against")
    wait_for(lambda: settled(driver) and driver.execute_script("return S.values.objective") == "schneider_against",
             "schneider_against")
    badge = driver.execute_script("const n = document.querySelector('#seat-2 .card[data-card=\"GA\"] .value');"
                                  "return [n.textContent, n.className]")
    assert badge == ["✗▲", "value good"]  # good in a sign too, not in the colour alone
    # and says so to a screen reader, which hears no colour
    assert accessible_name(driver, '#seat-2 .card[data-card="GA"]') == \
        "Gras Ace (GA): no for seats 3+4, good for seat 2, a best card"
    assert driver.find_element("id", "summary").text.startswith(
        "Schneider against: no for seats 3+4 · seat 2 plays against it · ▲ good, ▼ bad for seat 2")
    # the arrow keys after the objective was chosen: back one card, not to another objective
    driver.find_element("tag name", "body").send_keys(Keys.ARROW_LEFT)
    wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == 0, "one card back")
    assert driver.execute_script("return S.objective") == "schneider_against"
    # Schafkopf board 7 after four cards in single dummy: the win chances stay on the cards when the objective changes
    option = driver.execute_script("return [...document.querySelectorAll('#records option')]"
                                   ".find((o) => o.textContent.startsWith('schafkopf.tbn board 7')).value")
    driver.execute_script("openBoard(arguments[0])", option)
    wait_for(lambda: settled(driver) and driver.execute_script("return S.view.label").endswith("board 7"), "board 7")
    driver.execute_script("goTo(4)")
    wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == 4, "four cards in")
    driver.find_element("css selector", 'input[name="mode"][value="sd"]').click()
    wait_for(lambda: odds_done(driver), "the odds", timeout=120)
    odds = "return [...document.querySelectorAll('.seat.to-move .card .value')].map((n) => n.textContent)"
    before = driver.execute_script(odds)
    assert before and all(re.fullmatch(r"[+-]?\d+\.\d", text) for text in before), before  # mean payments
    Select(driver.find_element("id", "objective")).select_by_value("points")
    # the change is drawn at once; nothing is asked in single dummy, so once nothing is in flight it is all drawn
    wait_for(lambda: driver.execute_script("return S.objective === 'points' && document.body.dataset.busy === 'no'"),
             "the objective points")
    assert driver.execute_script(odds) == before
    driver.find_element("tag name", "body").send_keys(Keys.ARROW_LEFT)  # and the keys after the mode's radio
    wait_for(lambda: driver.execute_script("return S.cursor") == 3 and driver.execute_script("return S.mode") == "sd",
             "one card back, still in single dummy")
    # nor does the play list show the line's later cards, which would give the hidden hands away (nor the graph:
    # test_single_dummy_shows_no_double_dummy_figure)
    wait_for(lambda: driver.execute_script("return document.querySelectorAll('#play li span:not(.leader)').length")
             == 3, "the play list up to the card shown")
    driver.find_element("css selector", 'input[name="mode"][value="dd"]').click()
    wait_for(lambda: driver.execute_script(
        "return document.querySelectorAll('#play li span:not(.leader)').length") == 32,
        "the whole line again in double dummy")
    # each trick of the play list says who led it: seat 1 the first, then each trick's winner
    position = next(p for p in solver.read_positions(EXAMPLES / "schafkopf.tbn") if p.record.get("Board") == "7")
    leaders = [f"S{trick.leader + 1}" for trick in position.state.history]
    wait_for(lambda: driver.execute_script(
        "return [...document.querySelectorAll('#play li span.leader')].map((n) => n.textContent)") == leaders,
        "the leaders of the tricks")


#: The boxes of the table's cards (hands and trick) and of the line under the trick, and how wide the page is.
TABLE_BOXES = """const box = (n) => n.getBoundingClientRect().toJSON();
return {cards: [...document.querySelectorAll('#table .card')].map((n) => Object.assign(box(n),
          {name: n.dataset.card || 'back', trick: n.closest('#trick') !== null})),
        centre: box(document.getElementById('centre')),
        width: document.documentElement.scrollWidth, window: window.innerWidth};"""


def overlapping(boxes: list[dict]) -> list[tuple[str, str]]:
    return [(a["name"], b["name"]) for i, a in enumerate(boxes) for b in boxes[i + 1:]
            if a["left"] < b["right"] - 1 and b["left"] < a["right"] - 1
            and a["top"] < b["bottom"] - 1 and b["top"] < a["bottom"] - 1]


def open_record(driver, label: str) -> None:
    option = driver.execute_script("return [...document.querySelectorAll('#records option')]"
                                   ".find((o) => o.textContent.startsWith(arguments[0])).value", label)
    driver.execute_script("openBoard(arguments[0])", option)
    wait_for(lambda: settled(driver) and driver.execute_script("return S.view.label") == label, label)


def open_at(driver, label: str, moves: int | None) -> None:
    """Open a record at its card ``moves`` (None: where the record's play ends, as it opens)."""
    open_record(driver, label)
    if moves is not None:
        driver.execute_script("goTo(arguments[0])", moves)
        wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == moves, f"card {moves}")


def test_a_trick_of_five_or_six_cards(driver, server):
    """A Kratzen trick of five or six cards has no neighbouring seats' cards covering each other."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    open_record(driver, "kratzen.tbn board 5")  # six seats, the first trick on the table
    table = driver.execute_script(TABLE_BOXES)
    trick = [box for box in table["cards"] if box["trick"]]
    assert len(trick) == 6 and not overlapping(trick)
    assert all(box["bottom"] <= table["centre"]["top"] for box in trick)  # "Seat 1 to play" is not covered
    open_record(driver, "kratzen.tbn board 4")  # five seats: a whole trick of the best line
    for count in range(1, 6):
        driver.execute_script("playBest()")
        wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == count, f"card {count}")
    trick = [box for box in driver.execute_script(TABLE_BOXES)["cards"] if box["trick"]]
    assert len(trick) == 5 and not overlapping(trick)
    # a Kratzen attacker's score is in chips, not in game units
    from selenium.webdriver.support.select import Select
    Select(driver.find_element("id", "objective")).select_by_value("score")
    wait_for(lambda: settled(driver) and driver.execute_script("return S.values.objective") == "score", "score")
    summary = driver.find_element("id", "summary").text
    assert summary.startswith("Score: ") and " chips for seat " in summary and "game units" not in summary


def test_the_pot_is_in_the_middle_of_a_kratzen_table(driver, server):
    """A Kratzen table has the pot in the middle all along, as a club table does: what is left, what each trick pays
    (nothing in a Muss, whatever the pot), and each seat's tricks with what they took from it."""
    text = ('[Game "Kratzen"]\n[Board "9"]\n[Seats "3"]\n[Deal "1: EO E9 SU SZ / GA HA HU S7 / EK G8 HO SK"]\n'
            '[Contract "Trump S"]\n[Declarer "1"]\n[Pot "14"]\n')
    paste_record(driver, server, text, "S.view.pot !== null && S.view.pot.start === 14", "the deal")
    assert driver.find_element("id", "pot").text == "pot 14 chips · each trick pays 3"
    # the dot kept on the first line where the line wraps, as the payments' is
    assert driver.execute_script("return document.getElementById('pot').textContent") == \
        "pot 14 chips\u00a0· each trick pays 3"
    for count, card in enumerate("EO S7 EK GA G8 SU".split(), 1):  # tricks to seats 2 and 1
        driver.execute_script("play(arguments[0])", card)
        wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == count, card)
    assert driver.find_element("id", "pot").text == "pot 8 of 14 chips · each trick pays 3"
    labels = [driver.find_element("css selector", f"#seat-{seat} .who").text for seat in (1, 2, 3)]
    assert labels == ["Seat 1 · attacker · 1 trick (+3)", "Seat 2 · 1 trick (+3)", "Seat 3 · 0 tricks (+0)"]
    # a Muss without a [Pot] tag: the Muss's own reason, as stich show and score say it, not the pot of 0's
    muss = text.replace("Trump S", "Trump S Muss").replace('[Pot "14"]\n', "")
    paste_record(driver, server, muss, "S.view.pot !== null && S.view.pot.start === 0", "the Muss")
    assert driver.find_element("id", "pot").text == "pot 0 chips · a Muss: tricks pay nothing"
    # a [Pot "0"] tag is a pot of 0 on purpose: the panel asks for no pot, as stich score's note does not
    paste_record(driver, server, text.replace('[Pot "14"]', '[Pot "0"]'), "S.view.pot !== null && S.view.pot.given",
                 "the pot of 0")
    assert driver.find_element("id", "pot").text == "pot 0 chips · tricks and targets only"
    assert not driver.find_element("id", "pot").get_attribute("title")
    assert "[Pot] tag" not in driver.find_element("id", "contract").text
    # a [Pot] that does not read: no pot on the table, and the panel says why in stich check's words
    paste_record(driver, server, text.replace('[Pot "14"]', '[Pot "lots"]'), "S.view.pot_error !== null", "the fault")
    assert not driver.find_elements("id", "pot")
    fault = ("pasted text:7:7: [Pot] is not a number of chips (got 'lots', expected a whole number from 0 to "
             "999,999,999)")
    assert f"Pot none · {fault}" in driver.find_element("id", "contract").text
    # the Score chosen there is refused in the same words, and not offered again: it would be refused again
    driver.execute_script("const box = $('objective'); box.value = 'score'; box.dispatchEvent(new Event('change'))")
    wait_for(lambda: settled(driver) and driver.execute_script("return S.values.kind") == "error", "the refusal")
    assert driver.find_element("id", "summary").text == fault
    best = driver.find_element("id", "best")
    assert (best.text, best.get_attribute("aria-disabled")) == ("★ best", "true")
    # a new deal from the page takes its pot; the form says attacker, and asks for no pot in a game without one
    from selenium.webdriver.support.select import Select
    driver.find_element("id", "deal-open").click()
    Select(driver.find_element("id", "deal-game")).select_by_value("Kratzen")
    assert driver.find_element("id", "deal-declarer-title").text == "Attacker"
    driver.find_element("id", "deal-pot").clear()
    driver.find_element("id", "deal-pot").send_keys("20")
    driver.find_element("id", "deal-go").click()
    wait_for(lambda: settled(driver) and driver.execute_script("return S.view.label") == "Kratzen seed 1", "dealt")
    assert driver.find_element("id", "pot").text == "pot 20 chips · each trick pays 5"
    driver.find_element("id", "deal-open").click()
    Select(driver.find_element("id", "deal-game")).select_by_value("Schafkopf")
    assert not driver.find_element("id", "deal-pot-field").is_displayed()
    assert driver.find_element("id", "deal-declarer-title").text == "Declarer"
    driver.execute_script("document.getElementById('deal-dialog').close()")


def test_the_deal_dialog_says_a_refusal_inside_itself_and_keeps_what_was_typed(driver, server):
    """A contract or seat the server refuses, or a declarer above the seat count, leaves the Deal dialog open with the
    server's message inside it (a live region), the field at fault marked and focused, so that what was typed is kept
    (not closed, the reason in the page's bar, nor the browser's own bubble alone); it closes on a deal alone, and Enter
    in a field deals (Cancel is not the form's default button)."""
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.select import Select

    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    opened = driver.execute_script("return S.board")
    find = lambda name: driver.find_element("id", name)  # noqa: E731
    dialog_open = "return document.getElementById('deal-dialog').open"
    find("deal-open").click()
    Select(find("deal-game")).select_by_value("Schafkopf")
    find("deal-contract").send_keys("Rufer Q")
    find("deal-go").click()
    error = wait_for(lambda: find("deal-error").is_displayed() and find("deal-error"), "the contract's refusal")
    assert driver.execute_script(dialog_open) and find("deal-contract").get_attribute("value") == "Rufer Q"
    assert error.text == "contract 'Rufer Q': 'Q' is not a suit (E, G, H or S)"  # the server's own words
    assert error.get_attribute("role") == "alert" and error.get_attribute("aria-live") == "assertive"
    assert driver.execute_script("return document.activeElement.id") == "deal-contract"
    assert find("deal-contract").get_attribute("aria-invalid") == "true"
    assert find("deal-contract").get_attribute("aria-describedby") == "deal-error"
    assert not find("error").is_displayed() and driver.execute_script("return S.board") == opened  # nothing dealt
    # a declarer past the seats: the server's words, not the browser's bubble, with the declarer's field at fault
    find("deal-contract").clear()
    find("deal-declarer").clear()
    find("deal-declarer").send_keys("7")
    find("deal-go").click()
    wait_for(lambda: find("deal-error").text == "the declarer is a seat from 1 to 4, not '7'", "the declarer's refusal")
    assert driver.execute_script(dialog_open)
    assert driver.execute_script("return document.activeElement.id") == "deal-declarer"
    assert find("deal-declarer").get_attribute("aria-invalid") == "true"
    assert find("deal-contract").get_attribute("aria-invalid") is None  # put right: no longer marked
    # put right, Enter in a field deals, and the dialog closes with the message gone
    find("deal-declarer").clear()
    find("deal-declarer").send_keys("2", Keys.ENTER)
    wait_for(lambda: settled(driver) and driver.execute_script("return S.view.label") == "Schafkopf seed 1", "dealt")
    assert not driver.execute_script(dialog_open)
    find("deal-open").click()  # opened again, it says no old refusal
    assert not find("deal-error").is_displayed() and find("deal-declarer").get_attribute("aria-invalid") is None
    find("deal-cancel").click()
    assert not driver.execute_script(dialog_open) and driver.execute_script("return S.view.label") == "Schafkopf seed 1"


def test_the_deal_dialogs_contract_placeholder_fits_its_field_on_a_phone(driver, server):
    """At 390 pixels the Contract field's placeholder, for every game, is shown whole, not cut to "e.g. Normal (empty:
    any", and what an empty field deals is said in the help line under the form."""
    from selenium.webdriver.support.select import Select

    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    try:
        driver.set_window_size(390, 844)
        driver.find_element("id", "deal-open").click()
        for game in ("Zwanzigerrufen", "Schafkopf", "Kratzen"):
            Select(driver.find_element("id", "deal-game")).select_by_value(game)
            shown, room = driver.execute_script(
                "const field = document.getElementById('deal-contract'), style = getComputedStyle(field);"
                "const pen = document.createElement('canvas').getContext('2d'); pen.font = style.font;"
                "return [pen.measureText(field.placeholder).width,"
                " field.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)]")
            assert shown <= room, game
            assert " · none given: any everyday one" in driver.find_element("id", "deal-help").text, game
        driver.find_element("id", "deal-cancel").click()
    finally:
        driver.set_window_size(1400, 900)


@pytest.mark.parametrize("width", [1400, 1024])
def test_the_record_list_shows_the_whole_record_on_a_desktop_on_one_line_with_the_buttons(driver, server, width):
    """A desktop window has room for a record's whole name in the list: the list grows into the room there is, the
    header still one line (the buttons beside it), not a 24em list that cuts "zwanzigerrufen.tbn board 1:
    Zwanzigerrufen" off before its contract, with half the header empty."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    open_record(driver, "zwanzigerrufen.tbn board 1")
    emulate_window(driver, width, 900)
    try:
        room, tops = driver.execute_script("""const list = $('records'), words = document.createElement('span');
          words.style.font = getComputedStyle(list).font; words.style.whiteSpace = 'pre';
          words.textContent = list.options[list.selectedIndex].text; document.body.append(words);
          const room = list.getBoundingClientRect().width - words.getBoundingClientRect().width; words.remove();
          return [room, [...document.querySelectorAll('header h1, header select, header button')]
            .map((n) => n.getBoundingClientRect().bottom)]""")
        assert room >= 16  # the words and the list's arrow
        assert max(tops) - min(tops) < 8, tops
    finally:
        restore_window(driver)


def test_the_table_on_a_phone(driver, server):
    """In a phone's 400 pixels the hands around the ellipse cover neither each other nor the trick, and stay within the
    page's sides."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    try:
        driver.set_window_size(400, 850)
        for label, moves in (("zwanzigerrufen.tbn board 1", 0), ("kratzen.tbn board 5", None),
                             ("schafkopf.tbn board 3", None)):
            open_record(driver, label)
            if moves is not None:  # ten cards a hand
                driver.execute_script("goTo(arguments[0])", moves)
                wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == moves, "the start")
            table = driver.execute_script(TABLE_BOXES)
            assert table["width"] <= table["window"], label  # nothing runs off the page's side
            assert not overlapping(table["cards"]), label
            assert all(box["left"] >= 0 and box["right"] <= table["window"] for box in table["cards"]), label
    finally:
        driver.set_window_size(1400, 900)


def test_a_seats_label_spells_its_tricks_and_points_out_and_fits_on_a_phone(driver, server):
    """A Zwanzigerrufen or Schafkopf seat's label says "0 tricks · 0 points" as a Kratzen seat's says "0 tricks" (not
    "0 tr · 0 pts"); at 320 pixels even the longest (the seat to move in bold, ten tricks and 100 points) is one line
    inside its seat and the table. A short window (a phone held sideways), whose side seats' spelled-out labels
    reached into the trick, keeps the short words."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    labels = ("return [...document.querySelectorAll('.seat')].map((seat) => { const who = seat.querySelector('.who');"
              " const r = who.getBoundingClientRect(), s = seat.getBoundingClientRect(),"
              " t = document.getElementById('table').getBoundingClientRect();"
              " return [who.innerText, who.getClientRects().length, r.left >= s.left && r.right <= s.right"
              " && r.left >= t.left && r.right <= t.right]; })")
    try:
        emulate_window(driver, 320, 800)
        for label, first in (("zwanzigerrufen.tbn board 1", "Seat 1 · declarer · 0 tricks · 0 points"),
                             ("schafkopf.tbn board 3", "Seat 1 · defender · 0 tricks · 0 points")):
            open_at(driver, label, 0)
            assert driver.execute_script(labels)[0] == [first, 1, True], label
            widest = driver.execute_script("for (const hand of S.view.hands) { hand.tricks = 10; hand.points = 100; }"
                                           "S.view.to_move = S.view.hands[1].seat; renderTable();" + labels)
            assert all(text.endswith(" · 10 tricks · 100 points") and lines == 1 and inside
                       for text, lines, inside in widest), (label, widest)
        emulate_window(driver, 667, 375)
        open_at(driver, "schafkopf.tbn board 3", 0)
        assert driver.execute_script(labels)[0][0] == "Seat 1 · defender · 0 tr · 0 pts"
    finally:
        restore_window(driver)


def test_the_table_between_a_phone_and_a_wide_window(driver, server):
    """Below 1,160 pixels the panels beside the table are narrower (20rem), below 1,024 they go under it, and only below
    640 are the seats stacked: at 1,120 and 1,150 (panels beside) and 780 (panels under, seats around the table) no
    sideways scrolling, no card over another and no seat off the table, a Zwanzigerrufen side hand of ten cards and a
    six-seat Kratzen table alike."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    edges = ("const t = document.getElementById('table').getBoundingClientRect(); return [...document."
             "querySelectorAll('.seat')].filter((n) => { const r = n.getBoundingClientRect(); return r.left < t.left "
             "- 1 || r.right > t.right + 1; }).map((n) => n.id);")
    try:
        for width in (1120, 1150, 780):
            driver.set_window_size(width, 900)
            for label, moves in (("zwanzigerrufen.tbn board 1", 0), ("kratzen.tbn board 5", None)):
                open_at(driver, label, moves)
                table = driver.execute_script(TABLE_BOXES)
                assert table["width"] <= table["window"], (width, label)
                assert not overlapping(table["cards"]), (width, label)
                assert driver.execute_script(edges) == [], (width, label)
    finally:
        driver.set_window_size(1400, 900)


def test_a_phone_lays_a_five_or_six_card_trick_out_in_a_row(driver, server):
    """On a phone's 400 pixels the hands are stacked, and a five- or six-card trick is a row in playing order (leader
    first), centred on the table, each card with its seat under it, not scattered at its ring offsets. The window is
    emulated (a headless window is no narrower than 500 pixels)."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    row = ("const t = document.getElementById('table').getBoundingClientRect();"
           "return {table: (t.left + t.right) / 2, cards: [...document.querySelectorAll('#trick .card')].map((n) => "
           "{ const r = n.getBoundingClientRect(); return {seat: Number(n.dataset.seat), left: r.left, right: r.right,"
           " top: r.top, label: getComputedStyle(n, '::after').content}; })};")
    try:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": 400, "height": 850, "deviceScaleFactor": 1, "mobile": True})
        wait_for(lambda: driver.execute_script("return window.innerWidth") == 400, "a phone's width")
        for label, played, order in (("kratzen.tbn board 5", 0, [1, 2, 3, 4, 5, 6]),
                                     ("kratzen.tbn board 4", 3, [1, 2, 3])):
            open_record(driver, label)
            for count in range(1, played + 1):
                driver.execute_script("playBest()")
                wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == count, f"card {count}")
            trick = driver.execute_script(row)
            cards = trick["cards"]
            assert [card["seat"] for card in cards] == order, label
            assert len({round(card["top"]) for card in cards}) == 1, label  # one row
            assert all(a["right"] < b["left"] for a, b in zip(cards, cards[1:])), label  # left to right, apart
            middle = (cards[0]["left"] + cards[-1]["right"]) / 2
            assert abs(middle - trick["table"]) <= 2, (label, middle, trick["table"])  # centred, not off to a side
            assert cards[0]["left"] >= 0 and cards[-1]["right"] <= 400, label
            assert all(card["label"] == '"seat %d"' % card["seat"] for card in cards), label
    finally:
        restore_window(driver)
    open_record(driver, "kratzen.tbn board 5")  # a wide window keeps the ring: each card towards its seat
    tops = {card["seat"]: card["top"] for card in driver.execute_script(row)["cards"]}
    assert tops[4] < tops[3] < tops[2] < tops[1] and tops[3] == tops[5]


def test_the_weli_says_so_on_its_face(driver, server):
    """The Weli (S6, RULES.md 3.1) says so on its face, not only in a tooltip "S6" on a plain "6♦"."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    open_record(driver, "kratzen.tbn board 5")  # seat 1 holds the Weli
    weli = driver.find_element("css selector", '#seat-1 .card[data-card="S6"]')
    assert "named" in weli.get_attribute("class") and weli.find_element("css selector", ".label").text == "Weli"
    assert weli.get_attribute("title") == "S6: the Weli, a permanent trump, second only to the trump ace"
    assert driver.find_elements("css selector", ".card .label") == [weli.find_element("css selector", ".label")]


def test_an_endings_pot_says_its_change_not_a_pot_for_the_next_deal(driver, server):
    """An ending's pot starts no next deal (``stich score`` prints no "pot after the deal" for it): the board shows
    and says the pot's change alone, where a whole deal's line shows the pot it leaves ("pot 14 → 16")."""
    text = ('[Game "Kratzen"]\n[Board "1"]\n[Seats "4"]\n[Pot "20"]\n[Deal "1: HA S6 / HK H8 / EA EZ / GA GO"]\n'
            '[Contract "Trump H"]\n[Declarer "1"]\n[Leader "1"]\n[Play "1"]\nHA H8 EA GA\nS6 HK EZ GO\n*\n')
    paste_record(driver, server, text, "S.view.is_over && S.view.pot.start === 20", "the ending's end")
    assert driver.find_element("css selector", "#payments .pot-change").text == "pot +50"
    assert "→" not in driver.find_element("id", "payments").text
    assert driver.execute_script("return settlementText(S.view, true).pot") == "the pot gains 50"


def test_the_end_of_a_kratzen_deal_shows_each_seats_payment_not_its_trick_chips(driver, server):
    """Once a Kratzen deal is settled, the seat labels and the side panel say each seat's net payment, as the centre
    does, which counts a missed target paid into the pot too (RULES.md 3.4), not the chips the tricks took ("(+0)")."""
    text = ('[Game "Kratzen"]\n[Board "9"]\n[Seats "3"]\n[Deal "1: EO E9 SU SZ / GA HA HU S7 / EK G8 HO SK"]\n'
            '[Contract "Trump S"]\n[Declarer "1"]\n[Pot "14"]\n[Play "1"]\nSU S7 SK\nEK EO GA\nG8 SZ HA\nE9 HU HO\n*\n')
    paste_record(driver, server, text, "S.view.is_over && S.view.pot.start === 14", "the deal's end")
    labels = [driver.find_element("css selector", f"#seat-{seat} .who") for seat in (1, 2, 3)]
    assert [label.text for label in labels] == ["Seat 1 · attacker · 2 tricks (net +6)", "Seat 2 · 0 tricks (net -14)",
                                                "Seat 3 · 2 tricks (net +6)"]
    assert labels[1].get_attribute("title") == ("its tricks took 0 chips from the pot; its missed target paid 14 chips"
                                                " into it: -14 in all")
    assert "seat 1 +6 · seat 2 -14 · seat 3 +6 · pot 14 → 16" in driver.find_element("id", "payments").text
    # on a phone "16" wrapped alone onto the next line: the pot's change is kept on one
    change = driver.find_element("css selector", "#payments .pot-change")
    assert change.text == "pot 14 → 16" and change.value_of_css_property("white-space") == "nowrap"
    panel = driver.find_element("id", "contract").text
    assert "net -14 chips" in panel and "+0 chips" not in panel
    driver.execute_script("goTo(S.cursor - 1)")  # one card back: the tricks' chips again, no payment yet
    wait_for(lambda: settled(driver) and not driver.execute_script("return S.view.is_over"), "a card back")
    assert driver.find_element("css selector", "#seat-2 .who").text == "Seat 2 · 0 tricks (+0)"


def test_the_play_list_names_a_lost_bonus_as_players_do(driver, server):
    """The play list's tooltip says a lost bonus as ``stich postmortem`` does, from the curve's ``bonus_titles``
    (Schafkopf board 7: the Schneider), not by its JSON name (``schneider_against``)."""
    driver.get(server)
    wait_for(lambda: settled(driver), "the page")
    open_record(driver, "schafkopf.tbn board 7")
    wait_for(lambda: settled(driver) and driver.execute_script("return S.curve !== null"), "the graph")
    said = driver.execute_script("return [...document.querySelectorAll('#play [title]')].map((n) => n.title)"
                                 ".filter((t) => t.includes(', lost ') || t.includes(', handed over '))")
    assert said and all("Schneider" in text and "_" not in text for text in said), said


def test_a_kratzen_grade_counts_one_trick_in_the_singular(driver, server):
    """The play list's and the graph's tooltip say "cost 1 trick", not "1 tricks": five seats, the attacker's Weli lead
    (H7 keeps his two tricks) and seat 5's trump ten each cost one trick."""
    text = ('[Game "Kratzen"]\n[Board "3"]\n[Seats "5"]\n'
            '[Deal "1: S6 GK H7 SK / GA SO S9 S8 / EK GU HZ H9 / G9 G8 HA H8 / GZ G7 HK HO"]\n[Contract "Trump G"]\n'
            '[Pot "12"]\n[Play "1"]\nS6 GA GU G9 GZ\nSO H9 G8 G7 SK\nHA HK H7 S9 HZ\nH8 HO GK S8 EK\n*\n')
    paste_record(driver, server, text, "S.view.is_over && S.curve !== null", "the graph")
    said = driver.execute_script("return [...document.querySelectorAll('#play [title]')].map((n) => n.title)"
                                 ".filter((t) => t.includes(' blunder'))")
    # a target is missed, not lost
    assert said == ["S6 by seat 1: blunder, cost 1 trick, missed target (best: H7)",
                    "GZ by seat 5: blunder, cost 1 trick, missed target (best: G7)"]
    # the panel's contract with the sign the trump cards show: "Trump G" beside ♠ cards read as two suits
    assert "Kratzen Trump G ♠" in driver.find_element("id", "contract").text
    assert "c-green" in driver.find_element("id", "contract-sign").get_attribute("class")


def test_a_kratzen_score_below_zero_draws_one_0_and_says_its_unit(driver, server):
    """A Kratzen curve by the score entirely below 0 (the attacker pays whatever he plays) draws one "0", not a dashed
    line on the top edge with a second "0" over the axis's own, and its caption "target made at ≥ 0" has its unit."""
    from selenium.webdriver.support.select import Select

    text = ('[Game "Kratzen"]\n[Board "3"]\n[Seats "5"]\n'
            '[Deal "1: GA SO S9 S8 / EK GU HZ H9 / G9 G8 HA H8 / GZ G7 HK HO / S6 GK H7 SK"]\n[Contract "Trump G"]\n'
            '[Pot "12"]\n')
    paste_record(driver, server, text, "S.view.game === 'Kratzen'", "the record")
    Select(driver.find_element("id", "objective")).select_by_value("score")
    wait_for(lambda: settled(driver) and driver.execute_script(
        "return S.view.game === 'Kratzen' && S.curve !== null && S.curve.measure === 'chips' && "
        "document.querySelectorAll('#graph .dot').length === S.curve.curve.length"), "the score's graph")
    assert driver.execute_script("return S.curve.curve") == [-21]
    numbers = driver.execute_script("return [...document.querySelectorAll('#graph text')].map((n) => n.textContent)")
    assert sorted(numbers) == ["-21", "0"]  # the axis's 0 alone: the dashed line is on it
    title = driver.execute_script("return document.querySelector('#graph .game-line title').textContent")
    assert title == "target made at \u2265 0 chips"
    assert f"dashed: {title}" in driver.find_element("id", "curve-note").text


def test_an_endings_odds_say_why_there_are_none_and_no_longer_sampling(driver, server):
    """Schafkopf board 6 of the examples, an ending, in single dummy: the panel says at once, in the board's words, why
    there are no odds, and nothing of sampling (not "sampling the unseen cards…" beside the analyser's refusal of an
    ending, as if still at work)."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    open_record(driver, "schafkopf.tbn board 6")
    driver.find_element("css selector", 'input[name="mode"][value="sd"]').click()
    try:
        wait_for(lambda: driver.execute_script("return S.mode") == "sd" and odds_done(driver), "the odds' answer")
        odds = driver.find_element("id", "odds").get_attribute("textContent")
        assert odds == ("Odds for seat 2single-dummy odds redeal the unseen cards of a whole deal played from its "
                        "first trick; this record is an ending (hands of a few cards): the double-dummy view values "
                        "it"), odds
    finally:
        driver.find_element("css selector", 'input[name="mode"][value="dd"]').click()
        wait_for(lambda: settled(driver) and driver.execute_script("return S.mode") == "dd", "double dummy again")


def test_odds_whose_samples_are_all_alike_claim_no_interval(driver, server):
    """Every sample alike gives an interval of no width, which says only that no other value was met; the odds say so,
    as stich analyse does, instead of a '95%' interval."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    summary = driver.execute_script(
        "renderOdds({seat: 1, samples: 10, kind: 'odds', measure: 'points', win_probability: 1, mean: 70,"
        " win_interval: [0.7225, 1],"
        " interval: [70, 70], score_mean: 1, score_interval: [0.5, 1.5], openings: []});"
        "return document.getElementById('odds-summary').textContent;")
    # a figure and its interval joined by no-break spaces, as stich's table cells join them; words wrap
    assert "mean card points 70.0 (all 10 samples alike: no interval)" in summary
    # the payment signed and in its unit, as stich analyse's "mean payment +1.00 game units (95%: ...)"
    assert "mean payment +1.0\xa0game\xa0units\xa0(95%:\xa0+0.5\xa0to\xa0+1.5)" in summary
    assert "· win 100.0%\xa0(95%:\xa072.3%\xa0to\xa0100.0%) ·" in summary  # the win chance's Wilson interval
    assert summary.startswith("mean payment ")  # in stich analyse's order: the payment first
    one = driver.execute_script(
        "renderOdds({seat: 1, samples: 1, kind: 'progress', of: 32, measure: 'points', win_probability: 1, mean: 70,"
        " interval: [70, 70], score_mean: null, openings: []});"
        "return document.getElementById('odds-summary').textContent;")
    # not "all samples alike"; no score: the win chance, then the mean
    assert one == "win 100.0% · mean card points 70.0 (one sample: no interval)"


def test_the_odds_say_every_share_with_its_wilson_interval_as_analyse_does(driver, server):
    """The page shows each card's win chance and bonus odds with the 95% Wilson intervals the API sends, as stich
    analyse prints them (every share has one), and says "all 6 samples alike" as analyse does: the API's odds, drawn by
    the page, read as analyse's report of the same numbers (the tables in the compact form of analyse's tables of
    advice, to fit the panel)."""
    from solver.games.outcome import FIGURE_SPACE
    from solver.sampling import bonus_table as _bonus_table, forced_by_whom as _forced_by_whom, share
    from solver.sampling import spread_text as _spread
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    open_record(driver, "kratzen.tbn board 1")  # the table whose odds these are: its payments are in chips
    board = driver.execute_script("return S.board")
    answer = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch('/api/odds', {method: 'POST', headers: {'Content-Type': 'application/json'},"
        " body: JSON.stringify({board: arguments[0], moves: [], samples: 6})}).then((r) => r.text()).then(done);",
        board)
    odds = json.loads(answer.splitlines()[-1])
    low, high = odds["score_interval"]
    assert odds["kind"] == "odds" and odds["samples"] == 6 and low == high  # no [Pot]: every deal pays 0
    driver.execute_script("renderOdds(arguments[0])", odds)
    summary = driver.execute_script("return document.getElementById('odds-summary').textContent")
    # all 6 samples alike: no interval; the payment in chips, as analyse's "mean payment 0.00 chips (all 6 ...)"
    assert f"mean payment 0.0 chips ({_spread(6, [low, high], None, str)})" in summary
    # the figure whole, its spaces no-break ones (FIGURE_SPACE) as in the library's table cells
    whole = share(odds["win_probability"], odds["win_interval"]).replace(" ", FIGURE_SPACE)
    assert f" · win {whole} · " in summary
    cards = driver.execute_script("return [...document.querySelectorAll('#odds tr[data-card]')]"
                                  ".map((row) => [row.dataset.card, row.querySelector('td.share').textContent])")
    def cell(probability, interval):  # the library's table cell, with its no-break spaces, as the page writes it
        return share(probability, interval, compact=True)

    assert cards == [[o["card"], cell(o["win_probability"], o["win_interval"])]
                     for o in odds["openings"]] and len(cards) == 4
    bonuses = driver.execute_script("return [...document.querySelectorAll('#odds-bonuses tr[data-bonus]')]"
                                    ".map((row) => [...row.children].map((cell) => cell.textContent))")
    expected = []
    for bonus in odds["bonuses"]:  # Kratzen: each seat's tricks, the hand's own or another seat's on every deal
        whose = _forced_by_whom(bonus, 6)[0]
        ours = whose in ("the hand's side", "the hand")
        forced = cell(bonus["probability_for" if ours else "probability_against"],
                      bonus["interval_for" if ours else "interval_against"])
        expected.append([f"{bonus['title']} (seat {bonus['seat']})", whose, forced])
    assert bonuses == expected and len(expected) == 3 and expected[0][1] == "the hand"  # no sides: every seat alone
    headings = driver.execute_script("return [...document.querySelectorAll('#odds-bonuses th')]"
                                     ".map((cell) => cell.textContent)")
    # stich analyse's own table's columns
    assert headings == list(_bonus_table({**odds, "game": "Kratzen"})[1]) == ["target", "whose", "forced"]


#: Odds whose every figure has an interval, and a bonus either side may force (its cell holds two figures): the
#: widest the odds panel's cells and summary get.
WIDE_ODDS = ("{seat: 1, samples: 100, kind: 'odds', measure: 'points', win_probability: 0.456, win_interval: [0.361,"
             " 0.554], mean: 61.25, interval: [55.5, 66.75], score_mean: -12.5, score_interval: [-20.25, -4.75],"
             " openings: [{card: 'EA', mean: 61.25, mean_score: -12.5, win_probability: 1,"
             " win_interval: [0.963, 1]}, {card: 'GZ', mean: 40, mean_score: -30, win_probability: 0.456,"
             " win_interval: [0.361, 0.554]}], bonuses: [{objective: 'schneider', title: 'Schneider', seat: null,"
             " samples_for_side: 40, probability_for: 0.25, interval_for: [0.171, 0.35], probability_against:"
             " 0.125, interval_against: [0.07, 0.21]}]}")


def test_the_odds_keep_each_figure_and_its_interval_on_one_line_at_320_pixels(driver, server):
    """The command line never splits a figure from its interval in a table cell (``80% (63-90%)``, joined by
    no-break spaces: FIGURE_SPACE), but the board's odds wrote theirs with plain spaces, so a narrow panel could put
    ``100%`` over ``(96-100%)``, and the summary ``(95%:`` over ``30.2% to 60.1%)``. At 320 pixels every figure of
    the odds' cells and summary is one line box (one client rect), its spaces no-break ones, the page and the panel
    within the window (a table wider than a phone's panel scrolls in its own box); a cell of two figures wraps
    between them."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    try:
        emulate_window(driver, 320, 800)
        figures = driver.execute_script(
            f"renderOdds({WIDE_ODDS}); document.getElementById('odds').hidden = false;"
            "return [...document.querySelectorAll('#odds .figure')].map((node) => ["
            " node.closest('td') ? 'cell' : node.parentNode.id, node.textContent, node.getClientRects().length]);")
        wide = driver.execute_script("return document.scrollingElement.scrollWidth")
        panel = driver.execute_script("return document.getElementById('odds').getBoundingClientRect().right")
        either = driver.execute_script(
            "const cell = document.querySelector('#odds-bonuses tr[data-bonus] td:last-child');"
            "const range = document.createRange(); range.selectNodeContents(cell);"
            "return [cell.textContent, new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size,"
            " cell.getBoundingClientRect().right];")
    finally:
        restore_window(driver)
    assert [text for _, text, _ in figures] == [
        "-12.5\xa0game\xa0units\xa0(95%:\xa0-20.3\xa0to\xa0-4.8)", "45.6%\xa0(95%:\xa036.1%\xa0to\xa055.4%)",
        "61.3\xa0(95%:\xa055.5\xa0to\xa066.8)", "100%\xa0(96-100%)", "46%\xa0(36-55%)",
        "25%\xa0(17-35%)",
        "13%\xa0(7-21%)"]
    assert [where for where, _, _ in figures] == ["odds-summary"] * 3 + ["cell"] * 4
    assert all(lines == 1 for _, _, lines in figures), figures  # no figure broken over two lines
    assert wide <= 320 and panel <= 320, (wide, panel)
    text, lines, right = either
    assert text == "25%\xa0(17-35%) by the hand's side, 13%\xa0(7-21%) by the other"
    assert lines > 1 and right <= 320, either  # the cell of two figures wraps between them, within the window


def test_single_dummy_keeps_the_partner_secret(driver, server):
    """In single dummy the partner's seat is "not known", and the sides' rows and the graph's note name the declarers
    (with their card points) only once the called card is played, or to the partner itself."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")  # zwanzigerrufen.tbn board 1: seat 2 holds the called T20
    moves_ = moves(driver)
    shown = ("return S.view.moves.length === S.cursor ? [document.getElementById('contract')"
             ".textContent, document.getElementById('status').textContent] : null")
    driver.find_element("css selector", 'input[name="mode"][value="sd"]').click()
    try:
        for cursor, seat, known in ((0, 1, False), (1, 2, True), (2, 3, False), (moves_.index("T20") + 1, None, True)):
            driver.execute_script("goTo(arguments[0])", cursor)
            panel, note = wait_for(lambda: driver.execute_script("return S.cursor") == cursor
                                   and driver.execute_script(shown), f"the table after {cursor} cards")
            assert ("declarers (1+2)" in panel) == known and "seats 1+2" not in note, (cursor, panel, note)
            assert "CalledTarock 20 (T20)" in panel  # the bid says it aloud: public in single dummy too
            if not known:
                assert f"not known to seat {seat} yet" in panel
                roles = driver.execute_script("return [...document.querySelectorAll('.seat .who')].map((n) => "
                                              "n.textContent).join(' ')")
                assert "partner" not in roles and "defender" not in roles
    finally:
        driver.find_element("css selector", 'input[name="mode"][value="dd"]').click()


def test_single_dummy_shows_no_double_dummy_figure(driver, server):
    """In single dummy the graph draws neither the double-dummy value of the position shown (a defender would read the
    declarers' +4 off it beside his 33% odds) nor the past cards' grades, whose tooltips name the best cards of a hidden
    hand, and it says where they are; the play list keeps its leaders. The keys line lists no space for a best card
    there, where it does nothing, nor the graph's keys, where no graph is drawn."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    open_at(driver, "schafkopf.tbn board 7", 8)
    graded = "return document.querySelectorAll('#play abbr.grade').length"
    assert driver.execute_script(graded)  # double dummy: the line's mistakes are marked
    driver.find_element("css selector", 'input[name="mode"][value="sd"]').click()
    try:
        wait_for(lambda: driver.execute_script("return S.mode") == "sd" and odds_done(driver), "single dummy", 90)
        assert driver.execute_script("return document.querySelectorAll('#graph .dot, #graph polyline').length") == 0
        assert not driver.find_element("id", "graph").is_displayed()
        assert "double-dummy view shows them" in driver.find_element("id", "curve-note").text
        # nor does it list space for a best card: single dummy values no card best, so the key does nothing
        assert "a best card" not in driver.find_element("id", "keys").text
        assert "in the graph" not in driver.find_element("id", "keys").text
        assert driver.execute_script(graded) == 0
        titles = driver.execute_script("return [...document.querySelectorAll('#play span')].map((n) => n.title)")
        assert not any("best" in title or "ok" in title for title in titles), titles
        position = next(p for p in solver.read_positions(EXAMPLES / "schafkopf.tbn") if p.record.get("Board") == "7")
        shown_leaders = "return [...document.querySelectorAll('#play li span.leader')].map((n) => n.textContent)"
        leaders = [f"S{trick.leader + 1}" for trick in position.state.history[:3]]
        assert driver.execute_script(shown_leaders) == leaders[:2]
        driver.execute_script("goTo(10)")  # the third trick on the table, two cards into it: its leader too
        wait_for(lambda: driver.execute_script("return S.cursor === 10 && S.view.moves.length === 10")
                 and odds_done(driver), "card 10", 90)
        assert driver.execute_script(shown_leaders) == leaders
    finally:
        driver.find_element("css selector", 'input[name="mode"][value="dd"]').click()
    wait_for(lambda: driver.execute_script("return document.querySelectorAll('#graph .dot').length") == 33,
             "the graph again in double dummy")
    assert driver.find_element("id", "graph").is_displayed() and driver.execute_script(graded)
    assert "space a best card" in driver.find_element("id", "keys").text
    assert "in the graph the same keys choose a point" in driver.find_element("id", "keys").text


def test_single_dummy_stops_a_graph_on_its_way(driver, server):
    """A double-dummy graph still being computed when the page turns to single dummy, which draws none, is stopped and
    its "computing…" beside the graph's heading cleared. The page's /api/curve here answers only by being stopped, so
    the graph is on its way for sure."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    driver.execute_script("""window.curveStopped = false;
      window.realFetch = window.fetch;
      window.fetch = (url, options) => url !== "/api/curve" ? window.realFetch(url, options)
        : new Promise((answer, fail) => options.signal.addEventListener("abort", () => {
            window.curveStopped = true; fail(new DOMException("stopped", "AbortError")); }));
      S.curve = null; loadCurve();""")
    state = "return document.getElementById('curve-state').textContent"
    assert driver.execute_script(state) == "computing…"
    driver.find_element("css selector", 'input[name="mode"][value="sd"]').click()
    try:
        wait_for(lambda: driver.execute_script("return S.mode") == "sd" and odds_done(driver), "single dummy", 90)
        assert driver.execute_script("return window.curveStopped") is True
        assert driver.execute_script(state) == ""
        assert driver.execute_script("return busy.kinds.has('curve')") is False
    finally:
        driver.execute_script("window.fetch = window.realFetch")
        driver.find_element("css selector", 'input[name="mode"][value="dd"]').click()
    wait_for(lambda: settled(driver) and driver.execute_script("return S.curve !== null"), "the graph again")
    assert driver.execute_script(state) == ""


def test_the_keyboard_plays_any_card(driver, server):
    """The keyboard plays any card, not only a best card: a legal card takes focus and Enter or space plays it, the next
    seat's card then has the focus, and space on a focused button (|◀) is the button's; Upload… is a button."""
    from selenium.webdriver.common.keys import Keys

    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    start = moves(driver)
    legal = driver.find_elements("css selector", ".seat.to-move .card.legal")
    chosen = legal[-1].get_attribute("data-card")
    assert len(legal) > 1  # the last is not the seat's first card
    legal[-1].send_keys(Keys.ENTER)
    wait_for(lambda: settled(driver) and moves(driver) == start + [chosen], f"{chosen} played")
    focused = "const n = document.activeElement; return n.matches('.seat.to-move .card.legal') && n.dataset.card"
    wait_for(lambda: driver.execute_script(focused), "the next seat's card in focus")
    # Backspace takes it back with the focus on it, not on the seat's first card, and Enter plays it again
    driver.switch_to.active_element.send_keys(Keys.BACKSPACE)
    wait_for(lambda: settled(driver) and moves(driver) == start, f"{chosen} taken back")
    assert wait_for(lambda: driver.execute_script(focused), "the card taken back in focus") == chosen
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    wait_for(lambda: settled(driver) and moves(driver) == start + [chosen], f"{chosen} played again")
    following = wait_for(lambda: driver.execute_script(focused), "the next seat's card in focus")
    driver.switch_to.active_element.send_keys(" ")  # space on a card plays that card, not a best one
    wait_for(lambda: settled(driver) and moves(driver) == start + [chosen, following], f"{following} played")
    upload = driver.find_element("id", "upload-open")
    assert upload.tag_name == "button" and upload.text == "Upload…"
    # space on a focused button (|<, Upload…) is the button's, not a best card
    driver.find_element("id", "first").send_keys(" ")
    wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == 0, "the deal's start")
    assert driver.execute_script("return S.moves") == start + [chosen, following]  # kept, none played: at the start


def test_a_touch_screen_shows_no_keys(driver, server):
    """The key hints ("Keys: ← → undo, redo ...") are for a keyboard, which a phone has none of: a touch screen (no
    hover, a coarse pointer) hides them; a mouse's window keeps them. The touch screen is emulated."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    shown = "return getComputedStyle(document.getElementById('keys')).display !== 'none'"
    touch = "return matchMedia('(hover: none) and (pointer: coarse)').matches"
    assert not driver.execute_script(touch) and driver.execute_script(shown)  # headless: no hover, a fine pointer
    with touch_screen(driver, "(hover: none) and (pointer: coarse)"):
        assert not driver.execute_script(shown)
        # the buttons still say them
        assert driver.find_element("id", "undo").get_attribute("title") == "Undo (← or Backspace)"
    assert driver.execute_script(shown)


def test_the_graphs_numbers_are_off_its_line(driver, server):
    """The axis's numbers (the greatest, the least) do not sit under the graph's first points."""
    driver.get(server)
    wait_for(lambda: settled(driver) and driver.execute_script(
        "return S.curve !== null && document.querySelectorAll('#graph .dot').length === S.curve.curve.length"),
        "the graph")
    boxes = driver.execute_script("return [...document.querySelectorAll('#graph text, #graph .dot')].map((n) => "
                                  "Object.assign(n.getBoundingClientRect().toJSON(), {name: n.tagName}))")
    numbers = [box for box in boxes if box["name"] == "text"]
    dots = [box for box in boxes if box["name"] == "circle"]
    assert len(numbers) >= 2 and len(dots) > 10
    assert not [pair for pair in overlapping(numbers + dots) if "text" in pair]


def test_the_graphs_dashed_line_is_where_the_game_is_won(driver, server):
    """The dashed line is the post-mortem's game line (Zwanzigerrufen: 45), named in the note under the graph and in the
    line's tooltip, not half the card points, where a curve sitting on it loses the game (RULES.md 1.1: 44:44 is no win;
    2.4: 60:60 goes to the defenders)."""
    from selenium.webdriver.support.select import Select

    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    Select(driver.find_element("id", "objective")).select_by_value("points")
    wait_for(lambda: settled(driver) and driver.execute_script(
        "return S.curve !== null && S.curve.measure === 'points' && "
        "document.querySelectorAll('#graph .dot').length === S.curve.curve.length"), "the points' graph")
    line = driver.execute_script(
        "const line = document.querySelector('#graph .game-line'); return line && [Number(line.getAttribute('y1')),"
        " line.querySelector('title').textContent, S.view.points_in_deal, S.view.game]")
    assert line is not None
    y1, title, points, game = line
    assert game == "Zwanzigerrufen" and title == "game won at \u2265 45"
    height, pad = 170, 10  # renderCurve's y(value): 0 at the bottom, the deal's points at the top
    assert y1 == pytest.approx(height - pad - (height - 2 * pad) * 45 / points)
    assert "dashed: game won at \u2265 45" in driver.find_element("id", "curve-note").text
    Select(driver.find_element("id", "objective")).select_by_value("score")
    wait_for(lambda: settled(driver) and driver.execute_script(
        "return S.curve !== null && S.curve.measure === 'game units'"), "the score's graph")


def test_an_endings_dashed_line_is_said_to_be_on_its_own_cards(driver, server):
    """In an ending the graph's note and the line's tooltip say, as stich postmortem does, that the line is on the
    ending's own cards (the whole deal's 45, counted on the cards left), not a bare "dashed: game won at ≥ 45"."""
    from selenium.webdriver.support.select import Select

    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    open_record(driver, "zwanzigerrufen.tbn board 5")  # an ending holding 62 card points: 45 is on the graph
    Select(driver.find_element("id", "objective")).select_by_value("points")
    wait_for(lambda: settled(driver) and driver.execute_script(
        "return S.curve !== null && S.curve.measure === 'points' && "
        "document.querySelectorAll('#graph .dot').length === S.curve.curve.length"), "the points' graph")
    title = driver.execute_script("return document.querySelector('#graph .game-line title').textContent")
    assert title == "game won at \u2265 45 (on the ending's own cards)"
    assert f"dashed: {title}" in driver.find_element("id", "curve-note").text


def test_kratzen_odds_name_targets_and_the_attackers_payment(driver, server):
    """Kratzen's single-dummy odds speak of each seat's trick target and the attacker's payment, not of a bonus's
    "item" or "seat 1's share of its side's": Kratzen has targets, no bonuses, and no sides (RULES.md 3)."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    open_record(driver, "kratzen.tbn board 1")
    answer = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch('/api/odds', {method: 'POST', headers: {'Content-Type': 'application/json'},"
        " body: JSON.stringify({board: S.board, moves: [], samples: 6})}).then((r) => r.text()).then(done);")
    driver.execute_script("renderOdds(arguments[0])", json.loads(answer.splitlines()[-1]))
    heading = driver.execute_script("return document.querySelector('#odds-bonuses th').textContent")
    hint = driver.find_element("id", "odds-count").get_attribute("textContent")
    assert heading == "target" and "the score is the attacker's own payment, in chips" in hint
    assert "share of its side" not in hint


def test_a_screen_reader_is_told_what_the_eye_sees(driver, server):
    """A screen reader is told a card by its name in words, not its face ("X I X", "G ♥ 4"), with its value for the seat
    to move; a card played with its seat; and, in the live region, the card played and the next seat to move."""
    from selenium.webdriver.common.keys import Keys

    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    open_record(driver, "zwanzigerrufen.tbn board 1")
    driver.execute_script("goTo(5)")  # seat 4 to play: HG its best card
    wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == 5, "five cards in")
    card = driver.find_element("css selector", '.seat.to-move .card[data-card="HG"]')
    assert card.accessible_name == "Glatze of hearts (HG): 4 game units for seats 1+2, a best card"
    assert card.aria_role == "button"
    names = {n.get_attribute("data-card"): n.accessible_name
             for n in driver.find_elements("css selector", "#table .card")}
    assert names["T1"] == "Tarock 1, the Pagat (T1)" and names["T20"] == "Tarock 20 (T20)"
    assert names["TS"] == "the Sküs (TS)"
    assert names["HK"] == "seat 3 played King of hearts (HK)"
    assert accessible_name(driver, "#seat-4") == "Seat 4 · defender · 0 tricks · 0 points, to play"
    # a jump (from the record's last card) says where the table now is
    assert driver.find_element("id", "announce").get_attribute("textContent") == \
        "After card 5. Seat 3 played King of hearts (HK). Seat 4 to play."
    card.send_keys(Keys.ENTER)
    wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == 6, "HG played")
    assert driver.find_element("id", "announce").get_attribute("textContent") == \
        "Seat 4 played Glatze of hearts (HG). Seat 1 to play."
    # Backspace takes it back, said so: "Seat 3 played King of hearts" read as another card played
    driver.switch_to.active_element.send_keys(Keys.BACKSPACE)
    wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == 5, "HG taken back")
    assert driver.find_element("id", "announce").get_attribute("textContent") == \
        "Seat 4 took back Glatze of hearts (HG). Seat 4 to play."
    assert driver.execute_script("return document.activeElement.matches('#seat-4 .card.legal')")


def test_a_screen_reader_is_told_what_the_deal_pays(driver, server):
    """At the deal's end the live region says each seat's payment and the pot's change, as the table's centre shows
    them, not only "The deal is over."."""
    text = ('[Game "Kratzen"]\n[Board "9"]\n[Seats "3"]\n[Deal "1: EO E9 SU SZ / GA HA HU S7 / EK G8 HO SK"]\n'
            '[Contract "Trump S"]\n[Declarer "1"]\n[Pot "14"]\n[Play "1"]\nSU S7 SK\nEK EO GA\nG8 SZ HA\nE9 HU HO\n*\n')
    paste_record(driver, server, text, "S.view.is_over && S.view.pot.start === 14", "the deal's end")
    assert driver.find_element("id", "announce").get_attribute("textContent") == (
        "Seat 3 played Herz Ober (HO). Seat 1 won the trick. The deal is over. "
        "It pays (chips): seat 1 +6, seat 2 -14, seat 3 +6; the pot goes from 14 to 16.")
    driver.execute_script("goTo(S.cursor - 1)")  # one card back: nothing settled, nothing paid
    wait_for(lambda: settled(driver) and not driver.execute_script("return S.view.is_over"), "a card back")
    assert "pays" not in driver.find_element("id", "announce").get_attribute("textContent")


def test_a_card_taken_back_after_a_lost_tout_says_what_the_deal_pays(driver, server):
    """A Tout lost in trick 2 is settled there, before the deal is over: a card of trick 3 taken back says what the
    deal pays, as a step forward to the same table does, not only whose card it was."""
    text = ('[Game "Schafkopf"]\n[Board "1"]\n[Contract "WenzTout"]\n[Declarer "1"]\n'
            '[Deal "EO GO HO SO EU GU HU SU / EA EZ EK E9 E8 E7 GA GZ / GK G9 G8 G7 HA HZ HK H9 / '
            'H8 H7 SA SZ SK S9 S8 S7"]\n[Play "1"]\nEU E7 G7 S7\nEO EA G8 S8\nEZ\n*\n')
    paste_record(driver, server, text, "S.cursor === 9", "the record's last card")
    pays = ("the Tout was lost in trick 2: the deal ends there. "
            "It pays (game units): seat 1 -54, seat 2 +18, seat 3 +18, seat 4 +18.")
    driver.execute_script("goTo(8)")
    wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == 8, "EZ taken back")
    # the announcement follows the table drawn: on a loaded machine it may still say the card played before it
    taken_back = f"Seat 2 took back Eichel Ten (EZ). Seat 2 to play. {pays}"
    wait_for(lambda: driver.find_element("id", "announce").get_attribute("textContent") == taken_back, "EZ said")
    driver.execute_script("goTo(7)")  # a step back to the lost trick's third card, then forward to its last
    wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == 7, "S8 taken back")
    driver.execute_script("goTo(8)")
    wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == 8, "S8 played")
    assert driver.find_element("id", "announce").get_attribute("textContent") == \
        f"Seat 4 played Schellen Eight (S8). Seat 2 won the trick. Seat 2 to play. {pays}"


def test_the_play_list_goes_to_a_card_or_a_trick_from_the_keyboard(driver, server):
    """The play list's cards, which a click returns to, are buttons with one tab stop, the card shown (aria-current),
    each named with its number; Enter goes to a card, ↑ ↓ a trick back or on, and the focus follows the card shown."""
    from selenium.webdriver.common.keys import Keys

    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    open_record(driver, "zwanzigerrufen.tbn board 1")
    driver.execute_script("goTo(S.moves.length)")
    wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor === S.moves.length"), "the end")
    assert driver.execute_script("return S.cursor") == 24
    stops = driver.find_elements("css selector", '#play .move[tabindex="0"]')
    assert [stop.get_attribute("data-move") for stop in stops] == ["24"]
    assert stops[0].get_attribute("aria-current") == "step" and stops[0].aria_role == "button"
    assert stops[0].accessible_name.startswith("card 24: ")
    shown = 'const n = document.activeElement; return n.matches("#play .move[tabindex=\'0\']") && n.dataset.move'

    def keyed(key, cursor: int) -> None:
        """``key`` on the focused card goes to card ``cursor`` (0: the start), and the focus is on it (at the start
        the list's first card)."""
        driver.switch_to.active_element.send_keys(key)
        wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == cursor, f"card {cursor}")
        assert wait_for(lambda: driver.execute_script(shown), f"the focus on card {cursor}") == str(max(cursor, 1))

    stops[0].send_keys(Keys.ARROW_UP)  # a trick back: four cards
    wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == 20, "a trick back")
    assert wait_for(lambda: driver.execute_script(shown), "the focus on card 20") == "20"
    keyed(Keys.ARROW_LEFT, 19)
    keyed(Keys.HOME, 0)
    keyed(Keys.ARROW_DOWN, 4)
    later = driver.find_element("css selector", '#play .move[data-move="10"]')
    assert later.accessible_name.endswith(", not yet played")
    driver.execute_script("arguments[0].focus()", later)  # a screen reader's cursor on card 10
    keyed(Keys.ENTER, 10)
    # the focus ring on the card shown is not the blue of its background (a blue ring on it was no ring)
    ring, background = driver.execute_script(
        "const style = getComputedStyle(document.activeElement);"
        "return [style.outlineStyle !== 'none' && style.outlineColor, style.backgroundColor]")
    assert ring and background == "rgb(21, 101, 192)" and ring != background, (ring, background)


def test_spaces_pressed_while_the_values_are_searched_each_play_a_best_card(driver, server):
    """Three spaces pressed at once play three cards, not one with the two pressed while the next values are searched
    doing nothing: each is kept and plays a best card once its position's values are in; a step back drops those kept.
    """
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    open_at(driver, "schafkopf.tbn board 1", 0)
    press = "for (let i = 0; i < arguments[0]; i++) document.body.dispatchEvent(" \
            "new KeyboardEvent('keydown', { key: arguments[1], bubbles: true }))"
    driver.execute_script("document.activeElement.blur()")
    driver.execute_script(press, 3, " ")  # at once: the second and third while the values of cards 1 and 2 are searched
    wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == 3, "three best cards")
    at_once = driver.execute_script("return S.moves.slice(0, 3)")
    driver.execute_script("goTo(0)")
    for card in range(1, 4):  # one space at a time, each after the values are in: the same line
        wait_for(lambda: settled(driver), f"the values before card {card}")
        driver.execute_script(press, 1, " ")
        wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == card, f"card {card}")
    assert driver.execute_script("return S.moves.slice(0, 3)") == at_once
    driver.execute_script(press + "; document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowLeft',"
                          " bubbles: true }))", 2, " ")
    wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == 3, "one on, then one back")
    assert driver.execute_script("return S.bestAhead") == 0


def test_a_card_pressed_twice_before_the_next_position_is_played_once(driver, server):
    """Enter twice on a card, or a double click on it or on ★ best, plays one card: the second press is on the last
    position's table, not yet redrawn, and plays nothing (else the same card at the next move, a line the server
    refuses). Both presses go in one script, so that no answer of the server comes between them."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    open_at(driver, "schafkopf.tbn board 1", 0)
    twice = "for (let i = 0; i < 2; i++) arguments[0].dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter'," \
            " bubbles: true }))"
    double_click = "for (const [kind, detail] of [['click', 1], ['click', 2], ['dblclick', 2]]) " \
                   "arguments[0].dispatchEvent(new MouseEvent(kind, { detail, bubbles: true }))"
    presses = {"Enter twice": lambda target: driver.execute_script(twice, target),
               "a double click": lambda target: driver.execute_script(double_click, target)}
    for how, press in presses.items():
        for target in ("#seat-1 .card.legal", "#best"):
            if how == "Enter twice" and target == "#best":
                continue  # a button's Enter is its click
            driver.execute_script("goTo(0)")
            wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == 0, "the start")
            press(driver.find_element("css selector", target))
            wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == 1, f"{how} on {target}")
            assert not driver.find_element("id", "error").is_displayed(), (how, target)
            assert driver.execute_script("return S.view.history.length + S.view.trick.length") == 1, (how, target)


def test_a_focused_card_lifted_into_its_seats_label_leaves_the_words_on_top(driver, server):
    """A card with the focus is lifted, its dashed ring 6 pixels round it, into its seat's label: the label is drawn
    over its hand's cards, so its words ("defender") are never crossed by the ring."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    open_at(driver, "schafkopf.tbn board 1", 3)  # seat 4 to move, at the table's side
    driver.execute_script("document.querySelector('.card.legal[tabindex=\"0\"]').focus()")
    card, label, on_top = driver.execute_script(
        "const card = document.activeElement, who = card.closest('.seat').querySelector('.who');"
        "const c = card.getBoundingClientRect(), w = who.getBoundingClientRect();"
        "const x = (c.left + c.right) / 2, y = (c.top + w.bottom) / 2;"
        "return [c.top, w.bottom, who.contains(document.elementFromPoint(x, y))]")
    assert card < label  # lifted into the label: where they overlap, the label's words are seen
    assert on_top


def refused_position(driver, server):
    """Schafkopf board 1 opened and sent a line the server refuses (seat 2 plays EO again); the error bar, said."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    open_at(driver, "schafkopf.tbn board 1", 0)
    driver.execute_script("S.moves = ['EO', 'EO']; goTo(2)")
    bar = driver.find_element("id", "error")
    wait_for(lambda: bar.is_displayed(), "the refusal")
    return bar


def test_a_steps_error_goes_when_the_next_position_is_shown(driver, server):
    """A step's error (a position the server refused) goes when the next position is shown: the bar never speaks
    of a table the page has left."""
    bar = refused_position(driver, server)
    assert bar.text == "move 2 (EO): seat 2 does not hold EO: on the table, played by seat 1 (legal: H7)"
    driver.execute_script("goTo(1)")
    wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == 1, "card 1")
    assert not bar.is_displayed() and bar.text == ""


# /api/position and /api/values held by the page's fetch until the test lets them go (window.release()), each
# then asked of the server as it was sent: an abort the page made meanwhile is the server's fetch's to honour.
HOLD_FETCH = """
window.held = [];
window.unheldFetch = window.unheldFetch || window.fetch;
window.fetch = (url, options) => ["/api/position", "/api/values"].includes(url)
  ? new Promise((resolve) => window.held.push(() => resolve(window.unheldFetch(url, options))))
  : window.unheldFetch(url, options);
window.release = () => { const go = window.held; window.held = []; go.forEach((answer) => answer()); };
window.unhold = () => { window.fetch = window.unheldFetch; window.release(); };
"""


def test_a_space_kept_while_the_last_positions_values_end_plays_on_the_next(driver, server):
    """A card played before its position's values are in, then space: the last position's values are stopped by the
    step, so they cannot come in while the next position is fetched and make the page ready on a table not shown (where
    the kept space would be refused and dropped): the space plays on."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    open_at(driver, "schafkopf.tbn board 1", 0)
    driver.execute_script(HOLD_FETCH + "loadValues()")  # the values of card 0 asked again, held
    driver.execute_script("document.activeElement.blur(); document.querySelector('#seat-1 .card.legal').click();"
                          "document.body.dispatchEvent(new KeyboardEvent('keydown', { key: ' ', bubbles: true }))")
    assert driver.execute_script("return [S.cursor, S.bestAhead, window.held.length]") == [1, 1, 2]
    driver.execute_script("window.held.shift()()")  # the last position's values first, the next position held
    wait_for(lambda: driver.execute_script("return !busy.kinds.has('values')"), "the last values ended")
    assert driver.execute_script("return [S.ready, S.bestAhead]") == [False, 1]
    driver.execute_script("unhold()")
    wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == 2, "a best card on card 1")
    assert driver.execute_script("return S.bestAhead") == 0
    assert not driver.find_element("id", "error").is_displayed()


def test_space_held_down_plays_one_card_and_a_burst_keeps_at_most_four(driver, server):
    """Space held down plays one card (its key repeats are no presses); presses at once keep at most four
    (BEST_AHEAD) beside the one played."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    open_at(driver, "schafkopf.tbn board 1", 0)
    press = "document.activeElement.blur(); for (let i = 0; i < arguments[0]; i++) document.body.dispatchEvent(" \
            "new KeyboardEvent('keydown', { key: ' ', repeat: i > 0 && arguments[1], bubbles: true }))"
    driver.execute_script(press, 10, True)  # a held key: one press, nine repeats
    assert driver.execute_script("return [S.cursor, S.bestAhead]") == [1, 0]
    wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == 1, "card 1")
    # ten presses at once: one plays, four of the nine are kept (read in the same script, before any answer)
    assert driver.execute_script(press + "; return [S.cursor, S.bestAhead]", 10, False) == [2, 4]
    wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == 6, "four best cards more")
    assert driver.execute_script("return S.bestAhead") == 0


def test_enter_held_down_on_a_card_plays_one_card(driver, server):
    """Enter held down on a card plays one card: its repeats, reaching the next seat's card once the next table shows
    (the focus moves there), do not play that card too."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    open_at(driver, "schafkopf.tbn board 1", 0)
    press = "arguments[0].dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', repeat: arguments[1], " \
            "bubbles: true }))"
    card = driver.execute_script("const card = document.querySelector('#seat-1 .card.legal'); card.focus();"
                                 "return card")
    driver.execute_script(press, card, False)
    wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == 1, "card 1")
    focused = driver.execute_script("return document.activeElement")
    assert driver.execute_script("return arguments[0].matches('#seat-2 .card.legal')", focused)
    driver.execute_script(press, focused, True)  # the same press, repeated on the next seat's card
    assert driver.execute_script("return S.cursor") == 1


def test_a_space_kept_while_the_values_stop_drops_it_and_says_why(driver, server):
    """A space kept for values that come in stopped (the time limit ran out) plays nothing: it is dropped and the
    summary says the stop's reason. The ★ best button, with no best card, says it asks again, and a click does."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    open_at(driver, "schafkopf.tbn board 1", 0)
    reason = "the time limit (1 s) ran out"
    driver.execute_script("""window.unstubbedFetch = window.unstubbedFetch || window.fetch;
      window.fetch = (url, options) => url === "/api/values"
        ? Promise.resolve(new Response(
          '{"kind": "thinking"}\\n' + JSON.stringify({ kind: "stopped", reason: arguments[0] }) + '\\n'))
        : window.unstubbedFetch(url, options);""", reason)
    kept = driver.execute_script(  # one script: no answer comes in before the kept press is read
        "document.activeElement.blur(); document.querySelector('#seat-1 .card.legal').click();"
        "document.body.dispatchEvent(new KeyboardEvent('keydown', { key: ' ', bubbles: true }));"
        "return [S.cursor, S.bestAhead]")
    assert kept == [1, 1]
    said = f"{reason} · ★ ask again searches once more"
    wait_for(lambda: driver.find_element("id", "summary").text == said, "the stop's reason")
    assert driver.execute_script("return [S.cursor, S.bestAhead, S.values.kind]") == [1, 0, "stopped"]
    button = driver.find_element("id", "best")
    assert (button.text, button.get_attribute("aria-disabled")) == ("★ ask again", "false")
    asked = driver.execute_script("window.fetch = window.unstubbedFetch; $('best').click();"
                                  "return [S.values, busy.kinds.has('values'), $('best').textContent,"
                                  "  $('summary').textContent]")
    assert asked == [None, True, "★ best", ""]
    wait_for(lambda: settled(driver), "the values asked again")
    assert driver.execute_script("return [S.cursor, S.values.kind, $('best').getAttribute('aria-disabled')]") == [
        1, "values", "false"]
    driver.get(server)  # the page's own fetch again


def test_after_a_refused_position_a_card_plays_from_the_table_shown(driver, server):
    """While a refused position's error is said, a legal card of the table shown is played from that table (space
    and ★ best too: test_best_after_a_refused_position_plays_from_the_table_shown)."""
    bar = refused_position(driver, server)
    card = driver.execute_script("const card = document.querySelector('#seat-1 .card.legal:not([data-card=\"EO\"])');"
                                 "card.click(); return card.dataset.card")
    wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == 1, "the card played at card 0")
    assert driver.execute_script("return S.moves") == [card]
    assert not bar.is_displayed()


def test_a_values_error_goes_when_values_come_in_for_another_objective(driver, server):
    """The objective changed asks the values again without another position shown: an error of the values before goes
    once the values come in, not left said over them."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    open_at(driver, "schafkopf.tbn board 1", 0)
    driver.execute_script("S.objective = 'nonsense'; loadValues()")  # an objective the server refuses
    bar = driver.find_element("id", "error")
    wait_for(lambda: bar.is_displayed(), "the refusal")
    assert "not one of this contract's" in bar.text
    driver.execute_script("const box = $('objective'); box.value = box.options[box.options.length - 1].value;"
                          "box.dispatchEvent(new Event('change'))")
    wait_for(lambda: settled(driver), "the values for the objective chosen")
    assert not bar.is_displayed() and bar.text == ""


def test_space_after_a_values_error_asks_the_values_again(driver, server):
    """Values refused (a busy board's 503) leave no best card to play: space then asks the values of the table shown
    again, as another objective or a step does, rather than doing nothing press after press."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    open_at(driver, "schafkopf.tbn board 1", 0)
    busy = "the board is busy with other questions; ask again when they are answered"
    driver.execute_script("""window.unstubbedFetch = window.unstubbedFetch || window.fetch;
      window.valuesAsked = [];
      window.fetch = (url, options) => {
        if (url !== "/api/values") return window.unstubbedFetch(url, options);
        valuesAsked.push(JSON.parse(options.body).moves);
        return valuesAsked.length === 1 ? Promise.resolve(new Response(JSON.stringify({ error: arguments[0] }),
          { status: 503, headers: { "Content-Type": "application/json" } })) : window.unstubbedFetch(url, options);
      };
      loadValues();""", busy)
    bar = driver.find_element("id", "error")
    wait_for(lambda: bar.text == busy, "the refusal")
    wait_for(lambda: driver.find_element("id", "best").text == "★ ask again", "the button that asks again")
    asked = driver.execute_script(  # one script: the press and what it asked, before any answer
        "document.activeElement.blur();"
        "document.body.dispatchEvent(new KeyboardEvent('keydown', { key: ' ', bubbles: true }));"
        "return [valuesAsked, S.cursor, S.bestAhead]")
    assert asked == [[[], []], 0, 0]
    wait_for(lambda: settled(driver), "the values asked again")
    assert driver.execute_script("return [S.cursor, S.values.kind, S.values.best.length > 0]") == [0, "values", True]
    assert not bar.is_displayed()
    driver.get(server)  # the page's own fetch again


def test_an_objective_chosen_after_a_refused_position_values_the_table_shown(driver, server):
    """After a refused position the table shown is the last one accepted: an objective chosen then asks the values (and
    the graph) of the table shown, not of the refused line, which would be refused again."""
    refused_position(driver, server)
    asked = driver.execute_script("""window.unstubbedFetch = window.unstubbedFetch || window.fetch;
      window.asked = [];
      window.fetch = (url, options) => { asked.push([url, JSON.parse(options.body).moves]);
        return window.unstubbedFetch(url, options); };
      const box = $('objective'); box.value = box.options[box.options.length - 1].value;
      box.dispatchEvent(new Event('change'));
      return [asked, S.cursor, S.moves];""")
    # the line past it stays, as a card played or ← leaves it: its graph is asked, and says that line's refusal
    assert asked == [[["/api/values", []], ["/api/curve", ["EO", "EO"]]], 0, ["EO", "EO"]]
    wait_for(lambda: settled(driver), "the values of the table shown")
    assert driver.execute_script("return [S.values.kind, S.values.objective]")[0] == "values"
    assert not driver.find_element("id", "error").is_displayed()
    wait_for(lambda: "seat 2 does not hold EO" in driver.find_element("id", "curve-state").text, "the graph's refusal")
    driver.get(server)  # the page's own fetch again


# /api/position refused with no answer (the network dropped): a step the page could not take.
POSITION_UNANSWERED = """window.unstubbedFetch = window.unstubbedFetch || window.fetch;
window.fetch = (url, options) => url === "/api/position" ? Promise.reject(new TypeError("Failed to fetch"))
  : window.unstubbedFetch(url, options);"""


def test_an_objective_chosen_after_a_failed_step_keeps_the_records_line(driver, server):
    """End pressed with no answer, then an objective chosen: the table shown is valued, the moves stay a line ▶ goes on
    with, and the tab keeps the cursor shown; the record's play is not cut to the table shown (16 moves becoming 0,
    dropped by Save .tbn), nor does the tab keep a cursor it cannot reach."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    open_at(driver, "schafkopf.tbn board 1", 0)
    played = driver.execute_script("return S.moves.length")
    assert played > 2
    driver.execute_script(POSITION_UNANSWERED + "goTo(S.moves.length)")
    bar = driver.find_element("id", "error")
    wait_for(lambda: bar.is_displayed(), "the step's error")
    after = driver.execute_script("""window.fetch = window.unstubbedFetch;
      const box = $('objective'); box.value = box.options[box.options.length - 1].value;
      box.dispatchEvent(new Event('change'));
      const kept = JSON.parse(sessionStorage.getItem('stich-board'));
      return [S.cursor, S.moves.length, kept.cursor, kept.moves.length, S.stepError];""")
    assert after == [0, played, 0, played, False]
    wait_for(lambda: settled(driver), "the values of the table shown")
    driver.execute_script("goTo(S.moves.length)")  # the line is still there to go on with
    wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == played, "the record's end")


def test_best_after_a_refused_position_plays_from_the_table_shown(driver, server):
    """After a refused position ★ best and space play a best card of the table shown from its values, as a card clicked
    there is played, rather than looking usable and doing nothing."""
    refused_position(driver, server)
    state = ("return [S.cursor, S.shownAt, S.moves.slice(0, S.cursor), S.values.best, "
             "document.getElementById('best').getAttribute('aria-disabled')]")
    cursor, shown, _, best, disabled = driver.execute_script(state)
    assert (cursor, shown, disabled) == (2, 0, "false") and best
    pressed = driver.execute_script("document.activeElement.blur();"
                                    "document.body.dispatchEvent(new KeyboardEvent('keydown', { key: ' ', "
                                    "bubbles: true })); return [S.cursor, S.moves.slice(0, S.cursor), S.bestAhead]")
    assert pressed[0] == 1 and pressed[1][0] in best and pressed[2] == 0  # played at once, none kept
    wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == 1, "the best card played")
    assert not driver.find_element("id", "error").is_displayed()
    refused_position(driver, server)  # ★ best clicked, likewise
    clicked = driver.execute_script("const best = S.values.best; $('best').click();"
                                    "return [S.cursor, best.includes(S.moves[0])]")
    assert clicked == [1, True]
    wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == 1, "the best card played")


def test_best_after_a_refused_position_without_values_is_dimmed(driver, server):
    """A position refused before the values of the table shown were in: ★ best has no card to play there, and says
    so (aria-disabled) instead of looking usable."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    open_at(driver, "schafkopf.tbn board 1", 0)
    said = driver.execute_script("S.values = { kind: 'stopped', reason: 'replaced by a newer question' };"
                                 + POSITION_UNANSWERED + "goTo(1); return S.cursor")
    assert said == 1
    bar = driver.find_element("id", "error")
    wait_for(lambda: bar.is_displayed(), "the step's error")
    pressed = driver.execute_script("""window.fetch = window.unstubbedFetch;
      const before = document.getElementById('best').getAttribute('aria-disabled');
      $('best').click(); playBest();
      return [before, S.cursor, S.shownAt];""")
    assert pressed == ["true", 1, 0]


def test_ask_again_is_offered_only_where_it_asks(driver, server):
    """A board that is stopping answers a second question only with a 503, so the summary of stopped values offers
    "★ ask again searches once more", and ★ says "ask again", only where it can be answered, and ★ and space there
    ask nothing. The server marks a stopping board's answers ``stopping`` (the words are not read: a stop without the
    mark is asked again), and ask() keeps the mark of a refusal. Each case is set, drawn and read in one script, so
    that no answer of the live page redraws between."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    open_at(driver, "schafkopf.tbn board 1", 0)
    said = driver.execute_script("""const said = [], asked = [];
      const read = () => [$('summary').textContent, $('best').textContent, $('best').getAttribute('aria-disabled')];
      const stopping = { kind: 'stopped', reason: 'the board is stopping', stopping: true };
      for (const values of [stopping, { kind: 'stopped', reason: 'the time limit (60 s) ran out' },
                            { kind: 'stopped', reason: 'the board is stopping' }]) {
        S.values = values; renderValues();
        said.push(read());
      }
      window.fetch = (url) => { asked.push(url); return new Promise(() => {}); };
      S.values = stopping; renderValues();
      $('best').click(); bestKey();
      said.push([...read(), asked.length]);
      S.values = null; showStepError('the board is stopping: start stich board again to ask', true); renderButtons();
      $('best').click(); bestKey();
      said.push([$('best').textContent, $('best').getAttribute('aria-disabled'), asked.length]);
      showStepError('the board is busy: ask again when they are answered'); renderButtons();
      said.push([$('best').textContent, $('best').getAttribute('aria-disabled')]);
      return said;""")
    assert said == [["the board is stopping", "★ best", "true"],
                    ["the time limit (60 s) ran out · ★ ask again searches once more", "★ ask again", "false"],
                    ["the board is stopping · ★ ask again searches once more", "★ ask again", "false"],
                    ["the board is stopping", "★ best", "true", 0],
                    ["★ best", "true", 0],
                    ["★ ask again", "false"]]
    refusals = driver.execute_async_script("""const done = arguments[0], marks = [];
      const refusal = (answer) => () => Promise.resolve(new Response(JSON.stringify(answer), { status: 503 }));
      window.fetch = refusal({ error: 'the board is stopping: start stich board again to ask', stopping: true });
      ask('odds', '/api/odds', {}).catch((error) => {
        marks.push(error.stopping);
        window.fetch = refusal({ error: 'the board is busy' });
        return ask('odds', '/api/odds', {});
      }).catch((error) => { marks.push(error.stopping); done(marks); });""")
    assert refusals == [True, False]
    driver.get(server)


def test_the_graphs_note_before_the_first_card_has_no_empty_part(driver, server):
    """A record opened at its start (every Kratzen example, a deal dealt on the page) has no card to count: the
    note under the graph said "from each point; ; dashed"."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    open_at(driver, "kratzen.tbn board 1", 0)
    wait_for(lambda: driver.execute_script("return S.curve !== null"), "the graph")
    assert driver.find_element("id", "curve-note").text == (
        "tricks of seat 1 under best play from each point; dashed: target made at \u2265 2")


def test_click_a_play_list_card_then_space_plays_the_best_card(driver, server):
    """A click on the play list goes to its card and leaves the keys with the play: Space plays a best card and ↓
    does nothing (the focus left on the clicked card made Space go to the card already shown and ↓ jump a trick)."""
    from selenium.webdriver.common.keys import Keys

    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    open_record(driver, "zwanzigerrufen.tbn board 1")
    driver.execute_script("goTo(S.moves.length)")
    wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor === S.moves.length"), "the end")
    driver.find_element("css selector", '#play .move[data-move="8"]').click()
    wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == 8, "card 8")
    assert not driver.execute_script("return !!document.activeElement.closest('#play')")
    best = driver.execute_script("return S.values.best")
    driver.switch_to.active_element.send_keys(Keys.SPACE)
    wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == 9, "a best card played")
    assert driver.execute_script("return S.moves[8]") in best
    driver.switch_to.active_element.send_keys(Keys.ARROW_DOWN)
    assert wait_for(lambda: settled(driver), "values") and driver.execute_script("return S.cursor") == 9


def test_backspace_takes_a_card_back_with_the_focus_on_the_cards(driver, server):
    """Backspace takes a card back from the cards, and from elsewhere (★ best) too; on a card the focus stays with the
    cards, the seat to move again, and the card taken back is kept for ▶."""
    from selenium.webdriver.common.keys import Keys

    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    start = moves(driver)
    legal = driver.find_elements("css selector", ".seat.to-move .card.legal")
    mover, chosen = driver.execute_script("return S.view.to_move"), legal[0].get_attribute("data-card")
    legal[0].send_keys(Keys.ENTER)
    wait_for(lambda: settled(driver) and moves(driver) == start + [chosen], f"{chosen} played")
    focused = "const n = document.activeElement; return n.matches('.seat.to-move .card.legal') && n.dataset.card"
    wait_for(lambda: driver.execute_script(focused), "the next seat's card in focus")
    driver.switch_to.active_element.send_keys(Keys.BACKSPACE)
    wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == len(start), "the card taken back")
    assert driver.execute_script("return S.view.to_move") == mover
    assert wait_for(lambda: driver.execute_script(focused), "the focus on the cards again")
    assert driver.execute_script("return S.moves") == start + [chosen]  # kept: ▶ plays it again
    driver.find_element("id", "best").send_keys(Keys.BACKSPACE)  # off the cards too
    wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == len(start) - 1, "one more back")


def test_the_last_card_from_the_keyboard_leaves_the_focus_on_the_table(driver, server):
    """The last card played with Enter leaves the focus on the table, not on the page's body (the card gone and no seat
    to move), where Tab would start again at the header and Backspace bring the card back with the focus nowhere near
    it."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    open_record(driver, "schafkopf.tbn board 6")  # an ending: two tricks
    driver.execute_script("goTo(S.moves.length)")
    played = len(driver.execute_script("return S.moves"))
    for _ in range(20):
        if driver.execute_script("return S.view.is_over"):
            break
        driver.execute_script("document.querySelector('.seat.to-move .card.legal').focus()")
        # the key goes to the focused card as a player's would: no check that the element is "interactable", which
        # failed under load on a card still being laid out after the trick before
        ActionChains(driver).send_keys(Keys.ENTER).perform()
        played += 1
        wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == played, "a card played")
    assert driver.execute_script("return S.view.is_over")
    assert wait_for(lambda: driver.execute_script("return document.activeElement.id") == "table", "the table focused")
    driver.switch_to.active_element.send_keys(Keys.BACKSPACE)
    wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == played - 1, "the card back")
    assert wait_for(lambda: driver.execute_script(
        "return document.activeElement.matches('.seat.to-move .card.legal')"), "the focus on the cards again")


def test_a_grade_is_said_in_a_sign_not_in_colour_alone(driver, server):
    """The play list marks an inaccuracy, a mistake and a blunder by a sign, not by the colour of a wavy underline alone
    (nor the graph by its dots' colour), which a player with weak colour vision cannot tell apart."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    open_record(driver, "schafkopf.tbn board 7")  # two mistakes
    wait_for(lambda: driver.execute_script("return S.curve !== null"), "the graph")
    marked = driver.execute_script("return [...document.querySelectorAll('#play span.mistake')].map((n) => "
                                   "[n.textContent, n.querySelector('.grade').title])")
    assert marked == [["E7?", "mistake"], ["SO?", "mistake"]]
    sizes = driver.execute_script("return [...document.querySelectorAll('#graph .dot')].map((n) => "
                                  "[n.classList.contains('mistake'), n.getAttribute('r')])")
    assert {tuple(size) for size in sizes} == {(True, "5.2"), (False, "3.2")}  # a mistake's dot is larger
    assert "?! an inaccuracy, ? a mistake, ?? a blunder" in driver.find_element("id", "curve-note").text
    # the count is of the cards that lost value in the graph's measure (the library's words), not of the grades
    assert "; 2 cards lost game units (coloured and larger by grade" in driver.find_element("id", "curve-note").text


def test_the_arrow_keys_go_through_the_objectives_on_their_list(driver, server):
    """An arrow on the focused objective's list chooses the next objective and keeps the focus there, so a keyboard
    player can go on to the objective after it; the page says its keys."""
    from selenium.webdriver.common.keys import Keys

    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    assert "← → undo, redo" in driver.find_element("id", "keys").text
    cursor = driver.execute_script("return S.cursor")
    objective = driver.find_element("id", "objective")
    names = driver.execute_script("return S.view.objectives.map((o) => o.name)")
    objective.send_keys(Keys.ARROW_DOWN)
    wait_for(lambda: driver.execute_script("return S.objective") == names[1], "the second objective")
    objective.send_keys(Keys.ARROW_DOWN)
    wait_for(lambda: driver.execute_script("return S.objective") == names[2], "the third objective")
    assert driver.execute_script("return document.activeElement.id") == "objective"
    assert driver.execute_script("return S.cursor") == cursor  # the play stayed where it was
    # the view's radios alike: an arrow checks the next one and leaves the focus on it
    driver.find_element("css selector", 'input[name="mode"][value="dd"]').send_keys(Keys.ARROW_RIGHT)
    wait_for(lambda: driver.execute_script("return S.mode") == "sd", "single dummy")
    assert driver.execute_script("return document.activeElement.name + ' ' + document.activeElement.value") == "mode sd"


def test_a_button_keeps_the_focus_when_it_has_nothing_to_do(driver, server):
    """◀ pressed with Enter at the start keeps the focus (aria-disabled, not disabled), and ★ best pressed with Enter
    keeps it while the next values are searched, so Enter again plays a second best card."""
    from selenium.webdriver.common.keys import Keys

    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    driver.execute_script("goTo(1)")
    wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == 1, "one card in")
    undo = driver.find_element("id", "undo")
    undo.send_keys(Keys.ENTER)
    wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == 0, "the start")
    assert driver.execute_script("return document.activeElement.id") == "undo"
    assert undo.get_attribute("aria-disabled") == "true"
    # dimmed by its colours, its focus ring whole: an opacity of .45 dimmed the ring to a grey line
    ring = driver.execute_script("const s = getComputedStyle(document.activeElement);"
                                 "return [s.opacity, s.outlineStyle, s.color]")
    assert ring[:2] == ["1", "auto"] and ring[2] != "rgb(29, 29, 29)", ring
    best = driver.find_element("id", "best")
    best.send_keys(Keys.ENTER)
    wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == 1, "a best card")
    driver.switch_to.active_element.send_keys(Keys.ENTER)  # the same button, pressed again
    wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == 2, "a second best card")
    assert driver.execute_script("return document.activeElement.id") == "best"


def test_the_cards_to_play_are_one_tab_stop_and_the_arrows_choose(driver, server):
    """The playable cards are one tab stop (a roving tabindex, WAI-ARIA's toolbar pattern), not ten Tabs past a
    Zwanzigerrufen hand: Tab reaches the first, the arrow keys and Home, End move among them without undoing a card, Tab
    leaves and Shift+Tab comes back to the card chosen, Enter plays it. The seat's name is built from the view, not from
    its label's abbreviations."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    open_record(driver, "zwanzigerrufen.tbn board 1")
    driver.execute_script("goTo(0)")
    wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == 0, "the deal's start")
    legal = driver.execute_script("return [...document.querySelectorAll('.seat.to-move .card.legal')].map((n) => "
                                  "[n.dataset.card, n.tabIndex])")
    assert len(legal) > 3 and [stop for _, stop in legal] == [0] + [-1] * (len(legal) - 1)
    assert driver.find_element("css selector", ".seat.to-move .hand").aria_role == "toolbar"
    focused = "return document.activeElement.dataset.card || document.activeElement.id"
    driver.find_element("id", "save").send_keys(Keys.TAB)
    assert driver.execute_script(focused) == legal[0][0]
    keys = ActionChains(driver)
    keys.send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT).perform()
    assert driver.execute_script(focused) == legal[2][0]
    keys.send_keys(Keys.ARROW_LEFT).perform()
    assert driver.execute_script(focused) == legal[1][0]
    keys.send_keys(Keys.END).perform()
    assert driver.execute_script(focused) == legal[-1][0]
    keys.send_keys(Keys.ARROW_RIGHT).perform()  # round to the first
    assert driver.execute_script(focused) == legal[0][0]
    keys.send_keys(Keys.ARROW_DOWN).perform()
    assert driver.execute_script("return S.cursor") == 0  # the arrows chose a card, undid nothing
    keys.send_keys(Keys.TAB).perform()
    assert driver.execute_script(focused) == "objective"  # one Tab past all of them
    keys.key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()
    assert driver.execute_script(focused) == legal[1][0]  # back to the card chosen
    keys.send_keys(Keys.ENTER).perform()
    wait_for(lambda: settled(driver) and driver.execute_script("return S.moves.slice(0, S.cursor)") == [legal[1][0]],
             f"{legal[1][0]} played")
    assert driver.execute_script("return document.activeElement.matches('.seat.to-move .card.legal[tabindex=\"0\"]')")
    assert accessible_name(driver, "#seat-1") == "Seat 1 · declarer · 0 tricks · 0 points"
    open_record(driver, "kratzen.tbn board 1")  # every seat for itself: its tricks and chips, said in words
    names = [n.accessible_name for n in driver.find_elements("css selector", ".seat")]
    assert names and all(" · " in name and "trick" in name and " tr " not in name for name in names), names


#: How wide the page is, and every target a finger or a mouse taps that is under 24 by 24 CSS pixels: whatever is
#: focusable or clickable (buttons, lists and fields, a radio by its label, the cards to play, the play list's cards,
#: and with a coarse pointer the graph's points' columns; a mouse's may be narrower, the play list being the
#: equivalent target), a graph's point (its dot) measured by its column, which must hold it; how wide the graph is
#: drawn and its frame.
TAP_TARGETS = """const shown = (n) => n.getClientRects().length > 0;
const size = (n) => { const r = n.getBoundingClientRect();
  return [n.id || n.dataset.card || n.dataset.index || n.textContent.trim(), r.width, r.height]; };
const columnsToo = matchMedia('(pointer: coarse)').matches ? ', #graph .hit' : '';
const targets = [...document.querySelectorAll('button, select, input:not([type="radio"]), .modes label, a[href],'
  + ' summary, [tabindex], [role="button"]' + columnsToo)].filter((n) => shown(n) && !n.matches('#graph .dot'));
const small = targets.map(size).filter(([name, width, height]) => width < 24 || height < 24);
const columns = [...document.querySelectorAll('#graph .hit')].map((n) => n.getBoundingClientRect());
const outside = [...document.querySelectorAll('#graph .dot')].filter((n) => {
  const r = n.getBoundingClientRect(), c = columns[Number(n.dataset.index)], x = (r.left + r.right) / 2;
  return !c || x < c.left || x > c.right; }).map((n) => n.dataset.index);
return {width: document.scrollingElement.scrollWidth, window: innerWidth, small, outside,
        points: document.querySelectorAll('#graph .dot').length, columns: columns.length,
        graph: document.getElementById('graph').getBoundingClientRect().width,
        frame: document.getElementById('graph-frame').getBoundingClientRect().right,
        legal: document.querySelectorAll('#table .card.legal').length,
        cards: [...document.querySelectorAll('#table .card')].filter((n) => { const r = n.getBoundingClientRect();
          return r.left < 0 || r.right > innerWidth; }).map((n) => n.dataset.card)};"""


def test_a_phone_and_a_zoomed_window_have_no_sideways_scrolling_and_big_enough_targets(driver, server):
    """On a 375-pixel phone the lists, the radios and the play list's cards (each goes back to its moment) are at least
    WCAG 2.5.8's 24 pixels, and at 320 CSS pixels (a desktop at 400%, WCAG 1.4.10's reflow) the records' list stays on
    the page. Each game's table, on phones (emulated as such) and in a zoomed desktop window. With a finger's (coarse)
    pointer every point's column of the graph (a finger's target) is 24 pixels wide, the graph drawn wider than its
    panel where it must and scrolled in its frame, the page no wider than the window."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    with coarse_pointer(driver):
        phones_and_zoomed_windows_have_big_enough_targets(driver)


def phones_and_zoomed_windows_have_big_enough_targets(driver) -> None:
    """Each game's table at 375 and 360 pixels (phones) and 320 (a zoomed desktop): targets, the page's width."""
    try:
        for width, height, mobile in ((375, 667, True), (360, 740, True), (320, 640, False)):
            driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                   {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
            for label, moves in (("zwanzigerrufen.tbn board 1", 0), ("schafkopf.tbn board 7", 20),
                                 ("kratzen.tbn board 5", None)):
                open_record(driver, label)
                if moves is not None:  # ten cards a hand; a Schafkopf deal with its played cards in the play list
                    driver.execute_script("goTo(arguments[0])", moves)
                    wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == moves, "there")
                wait_for(lambda: driver.execute_script("return S.curve !== null"), "the play list's grades")
                page = wait_for(lambda: driver.execute_script(TAP_TARGETS), "the targets")
                assert page["window"] == width and page["width"] <= width, (width, label, page["width"])
                assert page["legal"] and page["small"] == [], (width, label, page["small"])
                assert page["points"] == page["columns"] > 1 and page["outside"] == [], (width, label, page)
                assert page["frame"] <= width, (width, label)  # a wide graph scrolls in its frame
                assert page["cards"] == [], (width, label)  # every hand's cards on the page
    finally:
        restore_window(driver)


def test_every_examples_record_fits_a_320_pixel_window(driver, server):
    """At 320 CSS pixels (a desktop at 400%, WCAG 1.4.10's reflow) every record of the three games' examples fits the
    page, Zwanzigerrufen board 2's contract panel too, whose [Variant] flag sagotrick=mond_skus_pagat is one word the
    panel's table must break."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    labels = driver.execute_script("return [...document.querySelectorAll('#records option')]"
                                   ".map((o) => o.textContent.split(':')[0])")
    assert len(labels) == 19
    try:
        driver.set_window_size(320, 800)
        wait_for(lambda: driver.execute_script("return innerWidth") == 320, "a 320-pixel window")
        for label in labels:
            open_record(driver, label)
            wide = driver.execute_script("return document.scrollingElement.scrollWidth")
            assert wide <= 320, (label, wide)
    finally:
        driver.set_window_size(1400, 900)


def test_a_sides_tricks_and_card_points_each_keep_one_line_at_320_pixels(driver, server):
    """At 320 pixels the contract panel's side rows broke "0 card points" after its 0 and "2 tricks" after its 2: each
    figure stays on one line (the side's name may break before its seats), and the largest pot's payments still fit.
    On a phone the table's payments of six seats began a line with "· pot 14 → 72": a line ends on its "·"."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    lines = ("return [...document.querySelectorAll('#contract .figure')].map((n) => {"
             " const r = document.createRange(); r.selectNodeContents(n);"
             " return [n.textContent, new Set([...r.getClientRects()].map((q) => q.top)).size]; })")
    try:
        driver.set_window_size(320, 800)
        wait_for(lambda: driver.execute_script("return innerWidth") == 320, "a 320-pixel window")
        open_at(driver, "zwanzigerrufen.tbn board 3", 8)
        figures = driver.execute_script(lines)
        assert figures == [["2 tricks", 1], ["17 card points", 1], ["0 tricks", 1], ["0 card points", 1]]
        assert driver.execute_script("return document.scrollingElement.scrollWidth") <= 320
        # a long variant flag breaks between its words, after a "=" or "_" ("mond_skus_p" / "agat" was read as two)
        open_at(driver, "zwanzigerrufen.tbn board 2", None)
        flags = driver.execute_script(
            "const cell = [...document.querySelectorAll('#contract th')].find((th) => th.textContent === 'Variant')"
            "  .nextElementSibling, lines = []; let top = null;"
            "const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);"
            "for (let node = walker.nextNode(); node; node = walker.nextNode())"
            " for (let i = 0; i < node.length; i++) {"
            "  const r = document.createRange(); r.setStart(node, i); r.setEnd(node, i + 1);"
            "  const at = r.getBoundingClientRect().top; if (top === null || at > top + 2) lines.push('');"
            "  top = at; lines[lines.length - 1] += node.data[i]; }"
            "return [cell.textContent, lines];")
        assert flags[0] == "solo_value=5, sagotrick=mond_skus_pagat" and len(flags[1]) >= 2, flags
        assert all(line[-1] in "=_ " for line in flags[1][:-1]), flags
        # the largest pot's payments, settled: "net" stands above its chips rather than push the page sideways
        text = ('[Game "Kratzen"]\n[Board "2"]\n[Seats "4"]\n[Deal "1: EA G7 HA HK / E7 HU HZ S9 / E9 SO SZ S7 / GA GZ'
                ' G8 SA"]\n[Contract "Trump H"]\n[Declarer "1"]\n[Pot "999999999"]\n[Play "1"]\n'
                'EA E7 E9 GA\nG7 HU SO GZ\nHZ SZ G8 HA\nHK S9 S7 SA\n*\n')
        paste_record(driver, server, text, "S.view.is_over === true", "the settled deal")
        assert [figure for figure, _ in driver.execute_script(lines)][1::2] == [
            "+749999997 chips", "+249999999 chips", "-999999999 chips", "-999999999 chips"]
        assert driver.execute_script("return document.scrollingElement.scrollWidth") <= 320
        # the table's payments wrap after a "·", so that no line of them begins with one: six seats' on a phone
        driver.set_window_size(390, 844)
        wait_for(lambda: driver.execute_script("return innerWidth") == 390, "a 390-pixel window")
        six = ('[Game "Kratzen"]\n[Board "5"]\n[Seats "6"]\n[Deal "1: S6 EA GA GU / E7 HK H8 S8 / HO HU SK SU / EK EO'
               ' G8 SZ / EU E8 H7 SO / E9 HA H9 S7"]\n[Contract "Trump G"]\n[Declarer "1"]\n[Pot "14"]\n[Play "1"]\n'
               'GA E7 HU G8 H7 S7\nS6 HK HO EK EU E9\nEA H8 SK EO E8 HA\nGU S8 SU SZ SO H9\n*\n')
        paste_record(driver, server, six, "S.view.is_over === true", "the six seats' settled deal")
        starts = driver.execute_script(
            "const text = document.getElementById('payments'), out = []; let top = null;"
            "const walker = document.createTreeWalker(text, NodeFilter.SHOW_TEXT);"
            "for (let node = walker.nextNode(); node; node = walker.nextNode())"
            " for (let i = 0; i < node.length; i++) { if (/\\s/.test(node.data[i])) continue;"
            "  const r = document.createRange(); r.setStart(node, i); r.setEnd(node, i + 1);"
            "  const at = r.getBoundingClientRect().top; if (top !== null && at > top + 2) out.push(node.data[i]);"
            "  top = at; }"
            "return out;")
        assert len(starts) >= 2 and "·" not in starts, starts
    finally:
        driver.set_window_size(1400, 900)


def test_the_deal_dialog_offers_a_choice_of_seats_only_where_the_game_has_one(driver, server):
    """Kratzen is played by 3 to 6 seats, Zwanzigerrufen and Schafkopf by 4 alone: those two say their 4 as a fact,
    not as a list of one, and a deal from the dialog has 4 seats."""
    from selenium.webdriver.support.select import Select

    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    find = lambda name: driver.find_element("id", name)  # noqa: E731
    find("deal-open").click()
    Select(find("deal-game")).select_by_value("Kratzen")
    assert find("deal-seats").is_displayed() and not find("deal-seats-fixed").is_displayed()
    assert [o.text for o in Select(find("deal-seats")).options] == ["3", "4", "5", "6"]
    for game in ("Zwanzigerrufen", "Schafkopf"):
        Select(find("deal-game")).select_by_value(game)
        assert not find("deal-seats").is_displayed(), game
        assert find("deal-seats-fixed").is_displayed() and find("deal-seats-fixed").text == "4", game
        assert find("deal-seats-fixed").find_element("xpath", "..").text.split() == ["Seats", "4"], game
    find("deal-go").click()
    wait_for(lambda: settled(driver) and driver.execute_script("return S.view.label") == "Schafkopf seed 1", "dealt")
    assert driver.execute_script("return S.view.seats") == 4


def redrawn(drawn):
    """The graph's shapes once its dots are round (a drawing at the window's width), else None: a drawing still at
    the old width stretches them until the resize observer draws again."""
    if not drawn or not drawn["shapes"]:
        return None
    round_dots = all(abs(width - height) <= 0.5 for tag, width, height, _ in drawn["shapes"] if tag == "circle")
    return drawn if round_dots else None


def test_the_graph_keeps_its_dots_round_at_any_width(driver, server):
    """The graph is drawn in its own pixels, and again when the window's width changes, so that on a tablet (768 pixels,
    the panels under the table) its dots stay round and its numbers unstretched (not drawn 400 units wide and stretched
    to the panel, dots twice as wide as high)."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    dots = ("const graph = document.getElementById('graph').getBoundingClientRect(); if (S.curve === null) return null;"
            "return {graph: graph.width, shapes: [...document.querySelectorAll('#graph .dot, #graph text')].map((n) =>"
            " { const r = n.getBoundingClientRect(); return [n.tagName, r.width, r.height, n.textContent]; })};")
    try:
        for width in (768, 1400):
            driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                   {"width": width, "height": 1024, "deviceScaleFactor": 1, "mobile": False})
            wait_for(lambda: driver.execute_script("return innerWidth") == width, f"{width} pixels")
            # the redraw follows the resize observer's callback: wait for it, then judge the last drawing
            drawn = wait_for(lambda: redrawn(driver.execute_script(dots)), f"the graph drawn at {width} pixels")
            wide = [shape for shape in drawn["shapes"] if shape[0] == "circle" and abs(shape[1] - shape[2]) > 0.5]
            assert drawn["shapes"] and wide == [], (width, drawn["graph"], wide[:3])
            numbers = [shape for shape in drawn["shapes"] if shape[0] == "text"]
            assert numbers and all(shape[1] < 2 * shape[2] for shape in numbers), (width, numbers)  # "4", "0", not wide
    finally:
        restore_window(driver)


#: Sets the graph's frame's width to each of the given widths in turn (CSS pixels), each once the resize observers have
#: seen the one before (they run in the frame after a change, before the second animation frame's callbacks), and
#: answers how often the graph was drawn again meanwhile, and the width it was drawn at last.
RESIZED_GRAPH = """const [widths, done] = arguments; const frame = document.getElementById('graph-frame');
const original = window.renderCurve; let drawn = 0;
window.renderCurve = function () { drawn += 1; return original.apply(this, arguments); };
const step = (i) => {
  if (i < widths.length) {
    frame.style.width = widths[i] + 'px';
    requestAnimationFrame(() => requestAnimationFrame(() => step(i + 1)));
    return;
  }
  window.renderCurve = original; done([drawn, S.curveWidth]);
};
step(0);"""


def test_a_graph_narrower_than_its_least_width_is_not_drawn_again_at_every_resize(driver, server):
    """The graph is drawn at a least width (24 pixels a point: 616 for the 24 cards of Zwanzigerrufen board 1): resizes
    under it draw nothing again, the graph scrolling in its frame, and a width above it still redraws."""
    driver.get(server)
    wait_for(lambda: settled(driver) and driver.execute_script("return S.curve !== null"), "the graph")
    assert driver.execute_script("return S.curve.curve.length") == 25
    with coarse_pointer(driver):  # a finger's least width; a mouse's graph fits its frame
        resize_a_narrow_graphs_frame(driver)


def resize_a_narrow_graphs_frame(driver) -> None:
    """The frame at widths under the graph's least width, then above it: how often it is drawn, at what width."""
    try:
        driver.execute_script("document.getElementById('graph-frame').style.width = '150px'")
        wait_for(lambda: driver.execute_script("return S.curveWidth") == 616, "the narrow graph drawn")
        # a draw still due (the pointer's change, the first resize) lands before the count starts: the same width
        # again draws nothing once the page is idle
        wait_for(lambda: driver.execute_async_script(RESIZED_GRAPH, [150]) == [0, 616], "the graph idle")
        assert driver.execute_async_script(RESIZED_GRAPH, [160, 150, 400, 140]) == [0, 616]
        frame = driver.execute_script("const f = document.getElementById('graph-frame');"
                                      "return [f.scrollWidth > f.clientWidth, document.getElementById('graph')"
                                      ".getBoundingClientRect().width]")
        assert frame == [True, 618]  # it scrolls in its frame, drawn one to one (its border aside)
        drawn, width = driver.execute_async_script(RESIZED_GRAPH, [700, 720])
        assert drawn >= 1 and width == 714  # the frame's width but its padding and the graph's border
    finally:
        driver.execute_script("document.getElementById('graph-frame').style.width = ''")


#: Asks for the graph again with the server's answer stubbed as a 409 of the given reason; the graph's state line.
STOPPED_GRAPH = """const [reason, done] = arguments; const fetched = window.fetch;
window.fetch = async () => new Response(JSON.stringify({kind: 'stopped', reason}),
                                        {status: 409, headers: {'Content-Type': 'application/json'}});
S.curve = null; S.curveKey = null;
loadCurve(false).finally(() => {
  window.fetch = fetched; done(document.getElementById('curve-state').textContent); });"""


def test_a_graph_the_time_limit_stopped_says_so(driver, server):
    """A graph the time limit stopped (409) says so, not an empty graph and no word, as if it were still to come; one
    stopped by the page's own newer question still says nothing (its own graph follows)."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    said = driver.execute_async_script(STOPPED_GRAPH, "the time limit (60 s) ran out")
    assert said == "stopped: the time limit (60 s) ran out"
    assert driver.execute_async_script(STOPPED_GRAPH, "replaced by a newer question") == ""


def test_the_graph_rings_the_cards_after_which_the_game_changed_hands(driver, server):
    """The graph says where the game changed hands, as ``stich postmortem`` names it, besides colouring the costly
    cards: Zwanzigerrufen board 2, graded by the score, loses the declarers' game at card 19 (its 45 points read on the
    card points' curve). That dot is ringed, its tooltip and the note under the graph say so."""
    driver.get(server)
    wait_for(lambda: settled(driver), "the page")
    open_record(driver, "zwanzigerrufen.tbn board 2")
    wait_for(lambda: settled(driver) and driver.execute_script(
        "return S.curve !== null && S.curve.measure === 'game units' && "
        "document.querySelectorAll('#graph .dot').length === S.curve.curve.length"), "the score's graph")
    assert driver.execute_script("return S.curve.game_changes") == [{"number": 19, "won": False}]
    rings = driver.find_elements("css selector", "#graph .game-change")
    assert len(rings) == 1
    dot = driver.execute_script("return document.querySelector('#graph .dot[data-index=\"19\"] title').textContent")
    assert dot.startswith("card 19: ") and dot.endswith("; game lost")  # the tooltip is the point's name
    assert "game changed hands after card 19 (" in driver.find_element("id", "curve-note").text
    # the rings are read on the card points' 45, not on the dashed line (the score's 0): the note says which
    assert "(ringed; the game: 45 card points)" in driver.find_element("id", "curve-note").text


#: The boxes of the table, the side panels, the panels' controls and contract, the first card, and how wide the page
#: is; which seats run off the table's sides, and whether the seats are stacked (a phone's) or around the table.
LAYOUT = """const box = (n) => n.getBoundingClientRect().toJSON();
const table = document.getElementById('table'), t = table.getBoundingClientRect();
return {table: box(table), aside: box(document.querySelector('aside')),
        controls: box(document.querySelector('aside .controls')), contract: box(document.getElementById('contract')),
        card: box(document.querySelector('#table .card')), width: document.scrollingElement.scrollWidth,
        window: innerWidth, stacked: getComputedStyle(document.getElementById('seat-1')).position === 'static',
        outside: [...document.querySelectorAll('.seat')].filter((n) => { const r = n.getBoundingClientRect();
          return r.left < t.left - 1 || r.right > t.right + 1; }).map((n) => n.id)};"""


@pytest.mark.parametrize("width, height, layout", [
    (390, 844, "phone"), (768, 1024, "upright"), (810, 1080, "upright"), (1024, 768, "beside"), (1366, 768, "beside"),
    (1920, 1080, "beside")])
def test_a_tablet_uses_its_width(driver, server, width, height, layout):
    """A tablet upright (768 by 1,024) has the table around its width and the panels under it in two columns, not the
    hands stacked as a phone's; sideways (1,024) the panels are beside the table, as on a desktop, not under it in one
    column a screen's height below the cards; a phone still stacks. At each size: no sideways scrolling, no card
    covering another, no seat off the table, no target under 24 by 24 pixels."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    try:
        emulate_window(driver, width, height, 1, True)
        for label, moves in (("zwanzigerrufen.tbn board 1", 0), ("kratzen.tbn board 5", None),
                             ("schafkopf.tbn board 7", 4)):
            open_at(driver, label, moves)
            page = driver.execute_script(LAYOUT)
            assert page["width"] <= width, (label, page["width"])
            assert not overlapping(driver.execute_script(TABLE_BOXES)["cards"]), label
            assert page["stacked"] == (layout == "phone"), label
            table, aside, controls, contract = page["table"], page["aside"], page["controls"], page["contract"]
            if layout == "beside":  # the panels right of the table, from its top
                assert table["right"] <= aside["left"] and abs(table["top"] - aside["top"]) <= 1, label
                assert table["width"] >= 640, (label, table["width"])
            else:  # the panels under the table
                assert aside["top"] >= table["bottom"], label
            if layout == "upright":  # in two columns: the buttons beside the contract, not over it
                assert controls["right"] <= contract["left"] and abs(controls["top"] - contract["top"]) <= 1, label
            if layout != "phone":
                assert page["outside"] == [], label
            wait_for(lambda: driver.execute_script("return S.curve !== null"), "the play list's grades")
            assert driver.execute_script(TAP_TARGETS)["small"] == [], label  # a finger's 24 by 24 at each size
    finally:
        restore_window(driver)


#: The widths of a card, of the side hands, of the line under the buttons' text, and how far the trick's cards are
#: from the table's middle; then the page's root font size is set back.
SIZES = """const width = (selector) => document.querySelector(selector).getBoundingClientRect().width;
const trick = [...document.querySelectorAll('#trick .card')].map((n) => Math.abs(parseFloat(getComputedStyle(n).left)));
return {card: width('#table .card'), height: document.querySelector('#table .card').getBoundingClientRect().height,
        hand: width('#seat-2 .hand'), text: parseFloat(getComputedStyle(document.getElementById('summary')).fontSize),
        value: parseFloat(getComputedStyle(document.querySelector('.card .value')).fontSize),
        ring: Math.max(...trick)};"""


def test_the_cards_grow_with_the_browsers_font_size(driver, server):
    """The cards are sized in rem, not pixels, so that a player who sets a larger font in the browser gets larger cards
    too: at twice the font size the cards, their values, the side hands and the trick's ring are twice as large; and
    never narrower than 24 pixels (WCAG 2.5.8's targets) at a small one."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    open_record(driver, "zwanzigerrufen.tbn board 1")
    driver.execute_script("goTo(2)")
    wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == 2, "two cards on the table")
    try:
        usual = driver.execute_script(SIZES)
        assert (usual["card"], usual["height"], usual["text"]) == (40, 58, 14)
        driver.execute_script("document.documentElement.style.fontSize = '32px'")
        large = driver.execute_script(SIZES)
        for measure in ("card", "height", "hand", "text", "value", "ring"):
            assert large[measure] == pytest.approx(2 * usual[measure], rel=0.05), measure  # the 3-pixel gaps stay
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": 1920, "height": 1080, "deviceScaleFactor": 1, "mobile": False})
        wait_for(lambda: driver.execute_script("return innerWidth") == 1920, "1,920 pixels")
        assert not overlapping(driver.execute_script(TABLE_BOXES)["cards"])
        driver.execute_script("document.documentElement.style.fontSize = '8px'")
        assert driver.execute_script(SIZES)["card"] == 24
    finally:
        driver.execute_script("document.documentElement.style.fontSize = ''")
        restore_window(driver)


#: The graph's targets a finger taps: each shown one's point and box, and the dots' boxes.
GRAPH_TARGETS = """const box = (n) => n.getBoundingClientRect().toJSON();
return {hits: [...document.querySelectorAll('#graph .hit')].filter((n) => n.getClientRects().length)
          .map((n) => Object.assign(box(n), {index: Number(n.dataset.index)})),
        dots: [...document.querySelectorAll('#graph .dot')].map((n) => Object.assign(box(n),
          {index: Number(n.dataset.index)}))};"""


def test_a_finger_taps_the_graphs_points_in_their_columns(driver, server):
    """The graph's points are not its dots alone, 6 to 13 pixels across, small for a finger: each point's target is its
    whole column, from halfway to the point before to halfway to the next, the graph's height, at least 24 pixels wide
    for a finger (a coarse pointer), and a tap there goes to that card; a mouse's window has the columns too, not a
    touch screen's alone. The touch screen is emulated."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    open_record(driver, "schafkopf.tbn board 7")
    graph = "return S.curve !== null && document.querySelectorAll('#graph .dot').length === S.curve.curve.length"
    wait_for(lambda: settled(driver) and driver.execute_script(graph), "the graph")
    mouse = driver.execute_script(GRAPH_TARGETS)  # a mouse's targets are the columns too
    assert [hit["index"] for hit in mouse["hits"]] == list(range(len(mouse["dots"])))
    with coarse_pointer(driver):
        wait_for(lambda: driver.execute_script(graph + " && S.curveWidth === 40 + 24 * (S.curve.curve.length - 1)"),
                 "the graph drawn for a finger")
        driver.execute_script("document.getElementById('graph-frame').scrollLeft = 0")  # its first points in view
        page = driver.execute_script(GRAPH_TARGETS)
        assert all(hit["width"] >= 24 for hit in page["hits"])
        hits, dots = page["hits"], page["dots"]
        assert [hit["index"] for hit in hits] == [dot["index"] for dot in dots] == list(range(len(dots)))
        assert all(hit["height"] >= 150 for hit in hits)  # the graph's height, where a dot is at most 13
        assert all(abs(a["right"] - b["left"]) < 0.5 for a, b in zip(hits, hits[1:]))  # no gaps between columns
        for hit, dot in zip(hits[1:-1], dots[1:-1]):
            middle = (dot["left"] + dot["right"]) / 2
            assert hit["left"] < middle < hit["right"]
        # a tap at the graph's top above the sixth card's dot goes to that card
        target = hits[6]
        tapped = driver.execute_script("const [x, y] = arguments; const n = document.elementFromPoint(x, y);"
                                       "n.dispatchEvent(new MouseEvent('click', {bubbles: true}));"
                                       " return n.dataset.index;",
                                       (target["left"] + target["right"]) / 2, target["top"] + 3)
        assert tapped == "6"
        wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == 6, "the sixth card")


#: The graph's frame's scrolling, its columns' boxes and its dots' centres, the width it is drawn at.
MOUSE_GRAPH = """const frame = document.getElementById('graph-frame');
const box = (n) => { const r = n.getBoundingClientRect();
  return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width}; };
return {scroll: frame.scrollWidth, client: frame.clientWidth, drawn: S.curveWidth, plot: box(document.getElementById(
          'graph')), hits: [...document.querySelectorAll('#graph .hit')].map(box),
        centres: [...document.querySelectorAll('#graph .dot')].map((n) => {
          const r = n.getBoundingClientRect(); return (r.left + r.right) / 2; })};"""


@pytest.mark.parametrize("label, moves, points", [("schafkopf.tbn board 7", 20, 33),
                                                   ("zwanzigerrufen.tbn board 1", None, 25)])
def test_a_mouses_graph_fits_its_panel_whole(driver, server, label, moves, points):
    """With a mouse (a fine pointer) the graph fits its panel, no sideways scrolling (24-pixel columns for every pointer
    would make a 1,400-pixel desktop's Schafkopf graph 808 pixels in a 380-pixel panel, the whole deal's evaluation not
    seen at a glance); each point's target is its whole column, from halfway to the point before to halfway to the next,
    the plot's height; where that is under 24 pixels the play list's cards (and the arrow keys) reach the same
    positions, every one of them and every other target at least 24 by 24 (WCAG 2.5.8's equivalent). Turning a touch
    screen's emulation on draws the graph for a finger without a reload, and off again whole; a narrower panel draws it
    again whole."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    assert driver.execute_script("return [innerWidth, matchMedia('(pointer: coarse)').matches]") == [1400, False]
    open_at(driver, label, moves)
    graph = "return S.curve !== null && document.querySelectorAll('#graph .dot').length === S.curve.curve.length"
    wait_for(lambda: settled(driver) and driver.execute_script(graph), "the graph")
    page = driver.execute_script(MOUSE_GRAPH)
    assert page["scroll"] <= page["client"] and page["drawn"] == page["client"] - 6, page["drawn"]  # one to one
    hits, centres = page["hits"], page["centres"]
    assert len(hits) == len(centres) == points  # the whole deal's 32 cards, the record's 24 (616 pixels a finger's)
    spacing = (centres[-1] - centres[0]) / (len(centres) - 1)
    for index, (hit, centre) in enumerate(zip(hits, centres)):
        assert abs(hit["width"] - spacing) < 0.5 and abs(hit["left"] - (centre - spacing / 2)) < 0.5, index
        assert hit["top"] <= page["plot"]["top"] + 1 and hit["bottom"] >= page["plot"]["bottom"] - 1, index
    assert all(abs(a["right"] - b["left"]) < 0.5 for a, b in zip(hits, hits[1:]))  # no gaps between columns
    targets = driver.execute_script(TAP_TARGETS)
    assert targets["small"] == [] and targets["outside"] == [], targets["small"]  # play list, buttons: 24 by 24
    entries = driver.execute_script("return [...document.querySelectorAll('#play [data-move]')].map((n) => {"
                                    " const r = n.getBoundingClientRect(); return [r.width, r.height]; })")
    assert entries and all(width >= 24 and height >= 24 for width, height in entries), entries
    least = "return S.curveWidth === 40 + 24 * (S.curve.curve.length - 1)"
    with coarse_pointer(driver):  # the media query's change, no reload: a finger's columns, scrolling in the frame
        wait_for(lambda: driver.execute_script(least), "the graph drawn for a finger")
        assert driver.execute_script("const f = document.getElementById('graph-frame');"
                                     "return f.scrollWidth > f.clientWidth")
        shown = ("const f = document.getElementById('graph-frame').getBoundingClientRect();"
                 "const d = document.querySelector('#graph .dot.current').getBoundingClientRect();"
                 "return [S.cursor, Number(document.querySelector('#graph .dot.current').dataset.index),"
                 " f.left <= d.left && d.right <= f.right]")
        assert driver.execute_script(shown) == [moves or points - 1, moves or points - 1, True]  # the point shown
    wait_for(lambda: driver.execute_script("return S.curveWidth") == page["drawn"], "the graph whole again")
    assert driver.execute_script(MOUSE_GRAPH)["scroll"] <= page["client"]
    try:  # a narrower panel (a window resized): drawn again at its width, whole
        driver.execute_script("document.getElementById('graph-frame').style.width = '300px'")
        wait_for(lambda: driver.execute_script("return S.curveWidth") == 294, "the graph drawn at 300 pixels")
        narrow = driver.execute_script(MOUSE_GRAPH)
        assert narrow["scroll"] <= narrow["client"] == 300 and len(narrow["hits"]) == points
    finally:
        driver.execute_script("document.getElementById('graph-frame').style.width = ''")


def test_a_mouses_graph_fits_the_narrowest_panel(driver, server):
    """A mouse's graph is drawn at the frame's width, not at least 200 pixels (which scrolls sideways in a frame under
    206 pixels: a window some 250 pixels wide, or a desktop zoomed to 500%), so it fits at any window width, while a
    finger's still gets its 24-pixel columns and scrolls."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    open_at(driver, "schafkopf.tbn board 7", 20)
    graph = "return S.curve !== null && document.querySelectorAll('#graph .dot').length === S.curve.curve.length"
    try:
        for width in (320, 240):
            driver.set_window_size(width, 900)
            wait_for(lambda: driver.execute_script("return innerWidth") == width, f"a {width}-pixel window")
            wait_for(lambda: settled(driver) and driver.execute_script(graph) and driver.execute_script(
                "return S.curveWidth === document.getElementById('graph-frame').clientWidth - 6"), "the graph redrawn")
            page = driver.execute_script(MOUSE_GRAPH)
            assert page["scroll"] <= page["client"], (width, page["scroll"], page["client"])
            assert len(page["hits"]) == 33
        assert page["client"] < 206  # the frame the floor of 200 scrolled in
        with coarse_pointer(driver):  # a finger's columns stay 24 pixels, scrolling in the same frame
            wait_for(lambda: driver.execute_script("return S.curveWidth === 40 + 24 * (S.curve.curve.length - 1)"),
                     "the graph drawn for a finger")
            assert driver.execute_script("const f = document.getElementById('graph-frame');"
                                         "return f.scrollWidth > f.clientWidth")
    finally:
        driver.set_window_size(1400, 900)


def test_a_mouses_graph_in_a_frame_narrower_than_its_margins_is_not_drawn_backwards(driver, server):
    """A frame under the margins' 40 pixels draws a mouse's graph at least a pixel a point wide, scrolling in its frame,
    not at its own width, which makes each point's column (the frame's width less 40, over the cards) negative, the
    points run right to left and the columns have negative widths."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    open_at(driver, "schafkopf.tbn board 7", 20)
    graph = "return S.curve !== null && document.querySelectorAll('#graph .dot').length === S.curve.curve.length"
    wait_for(lambda: settled(driver) and driver.execute_script(graph), "the graph")
    try:
        driver.execute_script("document.getElementById('graph-frame').style.width = '30px'")
        wait_for(lambda: driver.execute_script("return S.curveWidth") == 40 + 32, "the graph drawn in 30 pixels")
        wait_for(lambda: driver.execute_script(graph), "its points")
        columns = driver.execute_script("return [...document.querySelectorAll('#graph .hit')].map((n) =>"
                                        " [Number(n.getAttribute('x')), Number(n.getAttribute('width'))])")
        assert len(columns) == 33 and all(width == 1 for _, width in columns), columns
        assert all(a[0] < b[0] for a, b in zip(columns, columns[1:])), columns  # left to right
        assert driver.execute_script("const f = document.getElementById('graph-frame');"
                                     "return f.scrollWidth > f.clientWidth")
    finally:
        driver.execute_script("document.getElementById('graph-frame').style.width = ''")


@pytest.mark.parametrize("width, height", [(390, 844), (768, 1024), (1024, 768), (1366, 768)])
def test_a_large_default_font_takes_a_narrower_windows_layout(driver, server, width, height):
    """A reader who sets the browser's font to 24 pixels (a large default, as 200% zoom doubles it) gets larger cards
    (60 pixels, not 40), the layouts' widths are in em and so the window takes a narrower one's layout, and no size
    scrolls sideways (as a phone's panels in a two-column grid of 17rem a column, 408 pixels, would)."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    try:
        driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": 24}})
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height,
                                                                      "deviceScaleFactor": 1, "mobile": True})
        for label, moves in (("zwanzigerrufen.tbn board 1", 0), ("kratzen.tbn board 5", None)):
            open_at(driver, label, moves)
            page = driver.execute_script(LAYOUT)
            assert page["card"]["width"] == 60, label
            # a phone's window widens to what runs off its side
            assert page["window"] == width and page["width"] <= width, (label, page["window"], page["width"])
            assert not overlapping(driver.execute_script(TABLE_BOXES)["cards"]), label
            assert page["stacked"] == (width < 24 * 40), label  # a phone's layout under 40em
            if not page["stacked"]:
                assert page["outside"] == [], label
    finally:
        driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": 16}})
        restore_window(driver)


def test_two_quick_taps_are_two_taps_not_a_zoom(driver, server):
    """On a tablet's browser two quick taps on "★ best" (or on two cards) are a double tap, which would zoom the page
    where it should play two cards: what a finger taps again and again says ``touch-action: manipulation``, taps and
    scrolling, no double-tap zoom (the pinch still zooms)."""
    driver.get(server)
    wait_for(lambda: settled(driver) and driver.execute_script("return S.curve !== null"), "the graph")
    actions = driver.execute_script(
        "return [...document.querySelectorAll('button, #table .card.legal, #graph, #play li span')]"
        ".map((n) => [n.id || n.dataset.card || n.textContent.trim(), getComputedStyle(n).touchAction]);")
    assert {"best", "undo", "graph"} <= {name for name, _ in actions}
    assert [name for name, action in actions if action != "manipulation"] == []


#: The boxes of each seat's label, of the pot line and of the panels under or beside the table.
LABELS = """const box = (n) => n.getBoundingClientRect().toJSON();
return {labels: [...document.querySelectorAll('.seat .who')].map((n) => Object.assign(box(n),
          {name: n.closest('.seat').id})),
        pot: document.getElementById('pot') && box(document.getElementById('pot')),
        panels: [...document.querySelectorAll('aside > .panel')].filter((n) => n.getClientRects().length).map(box),
        width: document.scrollingElement.scrollWidth, window: innerWidth};"""


def apart(a: dict, b: dict, gap: float = 0) -> bool:
    """Whether two boxes are at least ``gap`` pixels apart, side by side or one over the other."""
    return (a["right"] + gap <= b["left"] or b["right"] + gap <= a["left"]
            or a["bottom"] + gap <= b["top"] or b["bottom"] + gap <= a["top"])


@pytest.mark.parametrize("width", [1024, 683])
def test_the_pot_line_keeps_off_the_seats_labels(driver, server, width):
    """In Kratzen board 5 (no [Pot] tag) at 1,024 by 768 and at 683 pixels the pot line keeps off seat 1's label: the
    table says "pot 0 chips · tricks and targets only", the contract panel (and the line's tooltip) how to give one, not
    the table three lines of how to give a pot, its last on the label with no gap."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    try:
        emulate_window(driver, width, 768, 1, False)
        open_record(driver, "kratzen.tbn board 5")
        pot = driver.find_element("id", "pot")
        assert pot.text == "pot 0 chips · tricks and targets only"
        assert pot.get_attribute("title") == ("pot 0 chips, no [Pot] tag: a record's [Pot] tag, or the Deal form's "
                                              "pot, gives one")
        assert "Pot 0 chips, no [Pot] tag: a record's [Pot] tag, or the Deal form's pot, gives one" in \
            driver.find_element("id", "contract").text
        page = driver.execute_script(LABELS)
        assert page["width"] <= page["window"]
        near = [label["name"] for label in page["labels"] if not apart(page["pot"], label, 4)]
        assert near == [], (width, page["pot"], page["labels"])
    finally:
        restore_window(driver)


@pytest.mark.parametrize("width, height, scale", [(960, 540, 2), (768, 1024, 1), (810, 1080, 1)])
def test_the_panels_under_the_table_flow_evenly(driver, server, width, height, scale):
    """At 960 pixels (a 1,920 by 1,080 desktop at 200%) the panels under the table are two columns, two panels a row,
    not three columns with the play list alone on the second row."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    try:
        emulate_window(driver, width, height, scale, False)
        open_record(driver, "schafkopf.tbn board 7")
        panels = driver.execute_script(LABELS)["panels"]
        columns = {round(panel["left"]) for panel in panels}
        rows = [sum(abs(panel["top"] - top) <= 1 for panel in panels) for top in {round(p["top"]) for p in panels}]
        assert len(panels) == 4 and len(columns) == 2 and rows == [2, 2], (width, panels)
    finally:
        restore_window(driver)


#: The boxes on the table: each seat's with its cards' values, each seat's label and cards, the trick's cards, and the
#: text of each of the centre's lines (a Range's box: the centre's own box is wider than its words).
SHORT_TABLE = """const box = (n) => n.getBoundingClientRect().toJSON();
const text = (n) => { const r = document.createRange(); r.selectNodeContents(n);
  return r.getBoundingClientRect().toJSON(); };
const seats = [...document.querySelectorAll('.seat')].map((n) => [n, ...n.querySelectorAll('.card, .value')].map(box)
  .reduce((a, b) => ({left: Math.min(a.left, b.left), top: Math.min(a.top, b.top), right: Math.max(a.right, b.right),
                      bottom: Math.max(a.bottom, b.bottom)})));
return {seat1: seats[[...document.querySelectorAll('.seat')].findIndex((n) => n.id === 'seat-1')],
        trick: [...document.querySelectorAll('#trick .card')].map(box),
        things: [...document.querySelectorAll('.seat .who')].map((n) => Object.assign(box(n),
            {name: n.closest('.seat').id}))
          .concat([...document.querySelectorAll('#table .card')].map((n) => Object.assign(box(n),
            {name: (n.closest('.seat') || n.closest('#trick')).id + ' ' + (n.dataset.card || 'back')})))
          .concat([...document.getElementById('centre').children].map((n) => Object.assign(text(n),
            {name: 'centre: ' + n.textContent}))),
        width: document.scrollingElement.scrollWidth, window: innerWidth, height: innerHeight};"""


@pytest.mark.parametrize("width, height, scale, mobile", [
    (844, 390, 1, True), (915, 412, 1, True), (667, 375, 2, True), (683, 384, 2, False), (960, 540, 2, False)])
def test_a_short_window_shows_the_trick_and_the_players_own_hand_at_once(driver, server, width, height, scale, mobile):
    """A short window (a phone held sideways: 844 by 390, 915 by 412, 667 by 375; a desktop at 200%: 1,366 by 768 is 683
    by 384, 1,920 by 1,080 is 960 by 540) shows the trick and the player's own cards at once, not a table 620 pixels
    high at any height with the hand a screen down. A short window has a one-line header, the table the window's height
    less it, the seats half their height from its edge and the trick a row with each card's seat under it. At each size
    and game: seat 1's hand (its values too) and the trick in the first screen, no label, card or line of the centre
    over another, no sideways scrolling, no target under 24 by 24 pixels."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    try:
        emulate_window(driver, width, height, scale, mobile)
        for label, moves in (("zwanzigerrufen.tbn board 1", 2), ("kratzen.tbn board 5", 0),
                             ("kratzen.tbn board 5", None), ("schafkopf.tbn board 7", 4)):
            open_at(driver, label, moves)
            page = driver.execute_script(SHORT_TABLE)
            what = (width, height, label, moves)
            assert page["width"] <= page["window"], what
            seat1 = page["seat1"]
            assert 0 <= seat1["top"] and seat1["bottom"] <= page["height"], (what, seat1)
            assert page["trick"] or moves == 0, what
            assert all(0 <= card["top"] and card["bottom"] <= page["height"] for card in page["trick"]), what
            things = page["things"]
            touching = [(a["name"], b["name"]) for i, a in enumerate(things) for b in things[i + 1:]
                        if not apart(a, b) and not (a["name"].startswith(b["name"] + " ")
                                                    or b["name"].startswith(a["name"] + " "))]
            assert touching == [], (what, touching)
            wait_for(lambda: driver.execute_script("return S.curve !== null"), "the play list's grades")
            assert driver.execute_script(TAP_TARGETS)["small"] == [], what
    finally:
        restore_window(driver)


#: The centre's box (its lines' box: the words, the pot line, a note) and the boxes of the seats' labels and cards.
CENTRE_AND_SEATS = """const box = (n) => n.getBoundingClientRect().toJSON();
return {centre: box(document.getElementById('centre')),
        seats: [...document.querySelectorAll('.seat .who, .seat .card')].map((n) => Object.assign(box(n),
          {name: n.closest('.seat').id + ' ' + (n.dataset.card || 'label')})),
        window: innerWidth};"""


@pytest.mark.parametrize("width, height, scale, mobile", [
    (1024, 768, 1, True), (1025, 768, 1, False), (641, 900, 1, False), (680, 900, 1, False), (720, 900, 1, False),
    (768, 1024, 1, True), (844, 390, 1, True), (683, 384, 2, False)])
def test_the_centre_keeps_off_six_and_five_seat_hands(driver, server, width, height, scale, mobile):
    """The centre's lines (whose turn, the pot) are as wide as the table leaves them between the side seats, not a box
    17.5rem wide on any table: the tablet layouts give the table 627-700 pixels, and at a deal's start in Kratzen board
    5 (six seats) and board 4 (five) the side seats' cards and labels, at 19.6% and 80.4% of the table's width, would
    lie over such a box at 1,024 pixels held sideways and at 641-720 upright."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    try:
        emulate_window(driver, width, height, scale, mobile)
        for label in ("kratzen.tbn board 5", "kratzen.tbn board 4"):
            open_record(driver, label)
            driver.execute_script("goTo(0)")
            wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == 0, "the deal's start")
            page = driver.execute_script(CENTRE_AND_SEATS)
            assert len(page["seats"]) > 20, label
            covered = [seat["name"] for seat in page["seats"] if not apart(page["centre"], seat)]
            assert covered == [], (width, label, page["centre"], covered)
    finally:
        restore_window(driver)


#: What is under each pixel along the graph's dashed line (its class, and its tooltip's text if it has one), and the
#: line's box.
UNDER_THE_GAME_LINE = """const line = document.querySelector('#graph .game-line'), r = line.getBoundingClientRect();
const f = document.getElementById('graph-frame').getBoundingClientRect();  // a wide graph: the part in view
const y = (r.top + r.bottom) / 2, under = [];
for (let x = Math.ceil(Math.max(r.left, f.left + 3)) + 1; x < Math.min(r.right, f.right - 3) - 1; x += 1) {
  const n = document.elementFromPoint(x, y);
  under.push({x: x, y: y, name: n.getAttribute('class').trim(), index: n.dataset.index,
              title: n.querySelector('title') ? n.querySelector('title').textContent : null}); }
return {under: under, title: line.querySelector('title').textContent};"""


def test_a_mouse_beside_a_touch_screen_reads_the_dashed_lines_tooltip(driver, server):
    """With a touch screen and a mouse (``any-pointer: coarse``) the finger's tap columns are drawn under the dashed
    game line, whose tooltip says where the game is won: the line (its dashes) is what the mouse finds, and a tap on it
    goes to the column under it."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    open_record(driver, "schafkopf.tbn board 7")
    graph = ("return S.curve !== null && document.querySelectorAll('#graph .dot').length === S.curve.curve.length"
             " && document.querySelector('#graph .game-line title') !== null")
    wait_for(lambda: settled(driver) and driver.execute_script(graph), "the graph and its dashed line")
    with touch_screen(driver):
        page = driver.execute_script(UNDER_THE_GAME_LINE)
        under, title = page["under"], page["title"]
        assert title.startswith("game won at \u2265 ")
        names = {point["name"].split()[0] for point in under}
        assert names <= {"game-line", "hit", "dot"}, names  # a dash, a gap between dashes (its column), a point
        on_line = [point for point in under if point["name"] == "game-line"]
        assert len(on_line) >= len(under) / 3 and all(point["title"] == title for point in on_line)
        # a tap on the line, past the middle, goes to the card whose column is under it
        point = on_line[len(on_line) * 2 // 3]
        at = (point["x"], point["y"])
        column = driver.execute_script("return document.elementsFromPoint(arguments[0], arguments[1])"
                                       ".find((n) => n.classList.contains('hit')).dataset.index", *at)
        assert int(column) > 0
        driver.execute_script("const [x, y] = arguments; document.elementFromPoint(x, y).dispatchEvent("
                              "new MouseEvent('click', {bubbles: true, clientX: x, clientY: y}));", *at)
        wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == int(column), "its card")


#: Each side seat's left and right edge (the seats at the table's sides are the ones the clamp moves).
SEAT_EDGES = """return Object.fromEntries([...document.querySelectorAll('.seat')].map((n) => {
  const box = n.getBoundingClientRect(); return [n.id, [Math.round(box.left), Math.round(box.right)]]; }));"""


def test_a_phone_turned_sideways_seats_the_table_as_a_page_opened_sideways(driver, server):
    """The side seats' clamp is measured in the layout the table is drawn in: a phone turned from upright (the stacked
    seats, almost the window's width) to sideways draws the table again, seats 2 and 4 land where a fresh page opened
    sideways puts them, and a focused card keeps focus and its values."""
    try:
        driver.get(server)
        wait_for(lambda: settled(driver), "values")
        emulate_window(driver, 844, 390, mobile=True)  # sideways
        open_at(driver, "schafkopf.tbn board 7", 4)  # the second trick's first card: seat 1 to play, 7 cards a hand
        fresh = driver.execute_script(SEAT_EDGES)
        emulate_window(driver, 390, 844, mobile=True)  # upright
        driver.execute_script("renderTable()")  # drawn upright, as a page opened upright is
        driver.execute_script("document.querySelector('#table .card.legal[tabindex=\"0\"]').focus()")
        focused = driver.execute_script("return document.activeElement.dataset.card")
        emulate_window(driver, 844, 390, mobile=True)  # sideways again
        wait_for(lambda: driver.execute_script(SEAT_EDGES) == fresh, "the seats where a fresh page puts them")
        assert driver.execute_script("return document.activeElement.dataset.card") == focused
        assert driver.execute_script("return document.querySelectorAll('#table .card.legal .value').length") == \
            driver.execute_script("return document.querySelectorAll('#table .card.legal').length") > 0  # values kept
    finally:
        restore_window(driver)


def test_the_graphs_points_are_one_tab_stop_the_arrows_choose_and_enter_goes_there(driver, server):
    """The graph's points, which a click returns to, are the keyboard's too. The graph is one tab stop (its point
    of the position shown), the arrow keys and Home, End move along its points without moving the table, Enter or
    space goes to the point focused, as a click does, the focus staying on it; each point is a button named by its
    card, grade and value, with a visible focus ring, and Tab leaves the graph at once."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    open_at(driver, "zwanzigerrufen.tbn board 1", 24)
    wait_for(lambda: driver.execute_script("return document.querySelectorAll('#graph .dot').length") == 25, "graph")
    stops = driver.find_elements("css selector", '#graph .dot[tabindex="0"]')
    assert [stop.get_attribute("data-index") for stop in stops] == ["24"]
    assert stops[0].aria_role == "button" and stops[0].get_attribute("aria-current") == "step"
    curve = driver.execute_script("return S.curve")
    last = curve["cards"][-1]
    assert stops[0].accessible_name.startswith(f"card 24: {last['card']} by seat {last['seat']}: {last['grade']}")
    assert f"; {curve['curve'][24]} game units after it for seats 1+2" in stops[0].accessible_name
    focused = "const n = document.activeElement; return n.matches('#graph .dot') ? Number(n.dataset.index) : n.id"
    driver.find_element("id", "best").send_keys(Keys.TAB)  # the buttons, then the graph: one stop
    assert driver.execute_script(focused) == 24
    keys = ActionChains(driver)
    keys.send_keys(Keys.ARROW_LEFT, Keys.ARROW_LEFT, Keys.ARROW_UP).perform()
    assert driver.execute_script(focused) == 21
    assert driver.execute_script("return S.cursor") == 24  # the arrows chose a point, the table stayed
    ring = driver.execute_script("const s = getComputedStyle(document.activeElement); "
                                 "return [s.outlineStyle, s.outlineWidth, s.opacity, "
                                 "getComputedStyle(document.getElementById('graph')).boxShadow]")
    assert ring[:3] == ["solid", "2px", "1"] and ring[3] != "none", ring  # a point after the cursor is dimmed, not it
    keys.send_keys(Keys.HOME).perform()
    assert driver.execute_script(focused) == 0
    assert driver.switch_to.active_element.accessible_name == \
        f"the start: {curve['curve'][0]} game units for seats 1+2"
    keys.send_keys(*[Keys.ARROW_RIGHT] * 5).perform()
    assert driver.execute_script(focused) == 5
    keys.send_keys(Keys.ENTER).perform()
    wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == 5, "the table at card 5")
    assert moves(driver) == curve_moves(driver)[:5]
    assert driver.find_element("id", "announce").get_attribute("textContent").startswith("After card 5. Seat ")
    assert wait_for(lambda: driver.execute_script(focused) == 5 and driver.execute_script(
        "return document.activeElement.getAttribute('aria-current')"), "the focus kept on point 5") == "step"
    keys.send_keys(Keys.ARROW_LEFT, Keys.ARROW_LEFT, Keys.SPACE).perform()
    wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == 3, "the table at card 3")
    keys.send_keys(Keys.END).perform()
    assert driver.execute_script(focused) == 24 and driver.execute_script("return S.cursor") == 3
    keys.send_keys(Keys.TAB).perform()  # one Tab past all of the points: the play list's card shown
    assert driver.execute_script("return document.activeElement.matches('#play .move[tabindex=\"0\"]')")
    keys.key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()
    assert driver.execute_script(focused) == 24  # back at the point chosen, as the cards' stop is


def test_tab_comes_back_to_the_point_chosen_until_the_table_moves(driver, server):
    """The graph's one tab stop is WAI-ARIA's roving tabindex as its toolbar example has it: the stop moves with the
    focus, so Tab (Shift+Tab) comes back to the point last chosen with the arrows; once the table shows another
    position while the focus is elsewhere, the graph is drawn again for it and its stop is that position's point
    (aria-current), as the play list's is its card shown (docs/board.md)."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    open_at(driver, "zwanzigerrufen.tbn board 1", 24)
    wait_for(lambda: driver.execute_script("return document.querySelectorAll('#graph .dot').length") == 25, "graph")
    focused = "const n = document.activeElement; return n.matches('#graph .dot') ? Number(n.dataset.index) : n.id"
    driver.find_element("id", "best").send_keys(Keys.TAB)
    keys = ActionChains(driver)
    keys.send_keys(Keys.ARROW_LEFT, Keys.ARROW_LEFT, Keys.ARROW_LEFT).perform()
    assert driver.execute_script(focused) == 21
    keys.send_keys(Keys.TAB).perform()  # to the play list's card shown
    assert driver.execute_script("return document.activeElement.matches('#play .move[tabindex=\"0\"]')")
    keys.key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()
    assert driver.execute_script(focused) == 21  # the point chosen, the table unmoved
    keys.send_keys(Keys.TAB, Keys.ARROW_LEFT, Keys.ARROW_LEFT).perform()  # the play list steps the table back
    wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == 22, "the table at card 22")
    stops = driver.find_elements("css selector", '#graph .dot[tabindex="0"]')
    assert [stop.get_attribute("data-index") for stop in stops] == ["22"]
    keys.key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()
    assert driver.execute_script(focused) == 22
    assert driver.switch_to.active_element.get_attribute("aria-current") == "step"


def curve_moves(driver) -> list[str]:
    """The cards of the line the graph is drawn for."""
    return driver.execute_script("return S.curve.cards.map((c) => c.card)")


def test_the_status_region_says_the_result_never_thinking(driver, server):
    """A screen reader is not told "thinking…" at every card: it is for the eye (aria-hidden, outside the status
    region), the region says it is busy with aria-busy, and what it says after a move is the card values' result."""
    from selenium.webdriver.common.keys import Keys

    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    open_at(driver, "schafkopf.tbn board 7", 0)
    assert driver.execute_script("const n = document.getElementById('thinking'); return n.getAttribute("
                                 "'aria-hidden') === 'true' && !n.closest('[role=status], [aria-live], [role=alert]')")
    driver.execute_script("""window.statusSaid = []; const status = document.getElementById('status');
      new MutationObserver(() => statusSaid.push([status.textContent, status.getAttribute('aria-busy'),
        !document.getElementById('thinking').hidden]))
        .observe(status, { childList: true, subtree: true, characterData: true, attributes: true });""")
    card = driver.find_element("css selector", '.seat.to-move .card.legal[tabindex="0"]')
    card.send_keys(Keys.ENTER)
    wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == 1, "a card played")
    said = driver.execute_script("return statusSaid")
    assert said and not any("thinking" in text for text, _, _ in said), said
    assert ["true", True] in [[busy, shown] for _, busy, shown in said]  # busy while "thinking…" showed
    status = driver.find_element("id", "status")
    assert status.get_attribute("aria-busy") == "false"
    assert status.get_attribute("textContent") == driver.find_element("id", "summary").get_attribute("textContent")
    assert status.get_attribute("textContent").startswith("Score: ")  # the card values' result


def test_a_board_with_variant_flags_plays_a_pasted_deal_under_them_and_says_so(driver):
    """A board started with --variant plays uploads and its own deals under its flags and says which are in force.
    A pasted Kratzen record is played under the board's
    must_undertrump=false (seat 3 may throw its G8), the contract panel says the flag and that it is the board's,
    the board's flags of each game are listed, and the Deal form says a deal is dealt under them."""
    record = '[Game "Kratzen"]\n[Deal "1: E9 EK / HA G7 / H7 G8"]\n[Contract "Trump H"]\n'
    with serving([], variant={"must_undertrump": "false"}) as address:
        driver.get(address)  # no file: the page waits for a record
        wait_for(lambda: driver.execute_script("return S.games.length > 0 && document.body.dataset.busy !== 'yes'"),
                 "the page's start")
        assert driver.find_element("id", "centre").text == "Open a .tbn file, paste a record or deal a new one."
        driver.execute_script("loaded(ask('load', '/api/load', { text: arguments[0] }), 'pasted')", record)
        wait_for(lambda: settled(driver) and driver.execute_script("return S.view.game") == "Kratzen", "the record")
        driver.execute_script("goTo(0); S.moves = ['E9', 'HA']; goTo(2)")
        wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == 2, "two cards in")
        legal = driver.execute_script("return [...document.querySelectorAll('#seat-3 .card.legal')]"
                                      ".map((n) => n.dataset.card)")
        assert legal == ["H7", "G8"]
        panel = driver.find_element("id", "contract").get_attribute("textContent")
        assert "Variantmust_undertrump=false · must_undertrump=false (--variant)" in panel
        assert driver.find_element("id", "board-variant").get_attribute("textContent").startswith(
            "Kratzen must_undertrump=false · every deal of its game")
        driver.execute_script("document.getElementById('deal-game').value = 'Kratzen'; fillDealForm()")
        assert driver.find_element("id", "deal-help").get_attribute("textContent").endswith(
            " · dealt under --variant must_undertrump=false")


def test_the_boards_variant_wins_over_a_records_tag_whether_named_or_uploaded(driver, tmp_path):
    """One file with [Variant "must_undertrump=true"] on a board started with --variant must_undertrump=false:
    named on the command line and uploaded through the page it is played the same way, the flag over the tag as
    in every command (seat 3 may throw its G8), and the contract panel says the flag won: the same file is never
    played under two rules."""
    path = tmp_path / "own.tbn"
    path.write_text('[Game "Kratzen"]\n[Deal "1: E9 EK / HA G7 / H7 G8"]\n[Contract "Trump H"]\n'
                    '[Variant "must_undertrump=true"]\n', encoding="utf-8")
    won = "--variant must_undertrump=false over the record's must_undertrump=true"

    def seat_3_may_play() -> list[str]:
        driver.execute_script("goTo(0); S.moves = ['E9', 'HA']; goTo(2)")
        wait_for(lambda: settled(driver) and driver.execute_script("return S.cursor") == 2, "two cards in")
        assert won in driver.find_element("id", "variant-note").get_attribute("textContent")
        return driver.execute_script("return [...document.querySelectorAll('#seat-3 .card.legal')]"
                                     ".map((n) => n.dataset.card)")

    with serving([path], variant={"must_undertrump": "false"}) as address:
        driver.get(address)
        wait_for(lambda: settled(driver) and driver.execute_script("return S.view && S.view.game") == "Kratzen",
                 "the named file's record")
        named = driver.execute_script("return S.board")
        assert seat_3_may_play() == ["H7", "G8"]
        driver.find_element("id", "upload").send_keys(str(path))
        wait_for(lambda: settled(driver) and driver.execute_script("return S.board") != named, "the upload")
        assert seat_3_may_play() == ["H7", "G8"]


def test_an_upload_of_a_named_file_adds_no_empty_group_to_the_list(driver, tmp_path, monkeypatch):
    """A file named on the command line by its relative name and uploaded under the same name is the same text from the
    same source: the upload answers the named file's boards, already listed. A group is made only for a record it gets,
    so no "uploaded" group is made before they are skipped, an empty heading in the list."""
    record = '[Game "Kratzen"]\n[Deal "1: E9 EK / HA G7 / H7 G8"]\n[Contract "Trump H"]\n'
    (tmp_path / "two.tbn").write_text(record + "\n" + record.replace("E9 EK", "EK E9"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    groups = "return [...document.querySelectorAll('#records optgroup')].map((g) => [g.label, g.children.length])"
    with serving([Path("two.tbn")]) as address:
        driver.get(address)
        wait_for(lambda: settled(driver) and driver.execute_script("return S.view && S.view.game") == "Kratzen",
                 "the named file's record")
        first, second = driver.execute_script("return [...document.querySelectorAll('#records option')]"
                                              ".map((o) => o.value)")
        driver.execute_script("openBoard(arguments[0])", second)
        wait_for(lambda: settled(driver) and driver.execute_script("return S.board") == second, "the second record")
        driver.find_element("id", "upload").send_keys(str(tmp_path / "two.tbn"))
        wait_for(lambda: settled(driver) and driver.execute_script("return S.board") == first, "the upload's first")
        assert driver.execute_script(groups) == [["two.tbn", 2]]
        # an upload of records the list has not: their group, as before
        (tmp_path / "other.tbn").write_text(record.replace("Trump H", "Trump G"), encoding="utf-8")
        driver.find_element("id", "upload").send_keys(str(tmp_path / "other.tbn"))
        wait_for(lambda: settled(driver) and driver.execute_script("return S.board") not in (first, second),
                 "the other upload")
        assert driver.execute_script(groups) == [["two.tbn", 2], ["uploaded", 1]]


def test_a_bad_character_in_a_cr_only_paste_is_said_at_its_line(driver, server):
    """A pasted old Mac record (lines ended by a CR alone) with a lone surrogate on its third line: the page says
    line 3, counted as the file reader counts lines, whether the text comes as pasted (the page's own request) or
    through the Paste dialog's text box (which turns every line end into an LF)."""
    text = '[Game "Schafkopf"]\r\r[Event "M?ller"]\r'  # the ? made a lone surrogate on the page (WebDriver's
    # JSON cannot carry one)
    said = "pasted text:3:10: a lone surrogate (U+DCFC), not a character (expected UTF-8 text)"
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    bad = "arguments[0].replace('?', String.fromCharCode(0xDCFC))"
    driver.execute_script(f"loaded(ask('load', '/api/load', {{ text: {bad} }}), 'pasted')", text)
    wait_for(lambda: driver.find_element("id", "error").text == said, "the message of the request")
    driver.execute_script("showError(''); document.getElementById('paste-open').click();"
                          f"document.getElementById('paste-text').value = {bad};"
                          "document.getElementById('paste-go').click()", text)
    wait_for(lambda: driver.find_element("id", "paste-error").text == said, "the message of the dialog")
    driver.execute_script("document.getElementById('paste-dialog').close()")


def _paste_refused(driver, server, text: str):
    """``text`` pasted on a fresh page and refused: the text box, the dialog's message, and the two characters from
    the caret (False where the focus is not in the text box)."""
    driver.get(server)
    wait_for(lambda: settled(driver), "values")
    driver.find_element("id", "paste-open").click()
    box = driver.find_element("id", "paste-text")
    driver.execute_script("arguments[0].value = arguments[1]", box, text)
    driver.find_element("id", "paste-go").click()
    said = wait_for(lambda: driver.find_element("id", "paste-error").text, "the refusal in the dialog")
    caret = driver.execute_script("const t = document.activeElement; return t.id === 'paste-text' && "
                                  "t.value.slice(t.selectionStart, t.selectionStart + 2)")
    return box, said, caret


def test_a_refused_paste_stays_in_its_dialog_with_the_caret_at_the_fault(driver, server):
    """A paste with a typo closed the dialog and said the fault in the page's bar: the player opened Paste again and
    hunted for line 2, column 32. The Deal dialog already kept a refusal inside itself."""
    text = ('[Game "Schafkopf"]\n[Deal "1: EA EO E9 GZ G8 HZ HK XX / EZ E8 G9 G7 H7 SZ S9 S7 / EU E7 GA GO GU HU SA SO'
            ' / EK GK HA HO H8 SK SU S8"]\n[Contract "Rufer G"]\n[Declarer "1"]\n')
    box, said, caret = _paste_refused(driver, server, text)
    assert said.startswith("pasted text:2:32: seat 1: not a card of the Schafkopf pack (got 'XX'")
    assert driver.execute_script("return document.getElementById('paste-dialog').open")
    assert not driver.find_element("id", "error").is_displayed()
    assert caret == "XX"
    assert box.get_attribute("aria-invalid") == "true"
    driver.execute_script("arguments[0].value = arguments[0].value.replace('XX', 'H9')", box)
    driver.find_element("id", "paste-go").click()  # mended: opened, and the dialog closes
    wait_for(lambda: settled(driver) and "pasted" in driver.find_element("id", "title").text
             and not driver.execute_script("return document.getElementById('paste-dialog').open"), "the mended paste")


def test_the_paste_caret_counts_a_card_sign_as_one_character(driver, server):
    """The page counts columns in characters, as the server does, not in UTF-16 units: a 🂡 before the fault does not put
    the caret one place early. A refusal with no line and column gives the focus to the message, the text box marked."""
    text = '[Game "Kratzen"]\n[Deal "1: E9 EK / HA G7 / H7 G8"]\n[Contract "Trump H"]\n[Event "🂡"] XX\n'
    box, said, caret = _paste_refused(driver, server, text)
    assert said.startswith("pasted text:4:13: unexpected text after a tag (got 'XX'")
    assert caret == "XX"
    driver.execute_script("arguments[0].value = ''", box)
    driver.find_element("id", "paste-go").click()
    wait_for(lambda: driver.find_element("id", "paste-error").text == f"pasted text: {NO_RECORDS}", "the empty paste")
    assert driver.execute_script("return document.activeElement.id") == "paste-error"
    assert box.get_attribute("aria-invalid") == "true"
    driver.execute_script("document.getElementById('paste-dialog').close()")
