"""The board's click-to-values round trip in headless Chromium: ``python bench/board_roundtrip.py [DEALS]``.

Serves the board, deals whole Zwanzigerrufen deals with seeds 1..DEALS (default 10) on the page and plays each to
the end by clicking the first legal card as soon as the card values of the position have arrived; the page's own
clock measures each click to the values (``S.roundTrip``). Prints the medians, the 90th percentile and the largest.
Needs Chromium and chromedriver (``apt-get install chromium chromium-driver``).
"""

from __future__ import annotations

import shutil
import socket
import statistics
import sys
import threading
import time

import uvicorn
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from solver.board import create_app

READY = "return S.ready === true && S.view.moves.length === S.cursor"


def wait(driver, script: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not driver.execute_script(script):
        if time.monotonic() > deadline:
            raise TimeoutError(script)
        time.sleep(0.005)


def main(deals: int) -> None:
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app([], port=port), log_level="warning"))
    threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--window-size=1400,900"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"),
                              options=options)
    try:
        driver.get(f"http://127.0.0.1:{port}/")
        wait(driver, "return typeof S === 'object' && S.games.length > 0")
        first: list[float] = []
        later: list[float] = []
        searches = []
        for seed in range(1, deals + 1):
            driver.execute_script(f"loaded(ask('deal', '/api/deal', {{game: 'Zwanzigerrufen', seed: {seed}}}), 'x')")
            wait(driver, READY + f" && S.cursor === 0 && S.view.label.endsWith(' seed {seed}')")
            for number in range(40):
                if driver.execute_script("return S.view.is_over"):
                    break
                card = driver.execute_script("return document.querySelector('.seat.to-move .card.legal').dataset.card")
                driver.find_element("css selector", f'.seat.to-move .card[data-card="{card}"]').click()
                wait(driver, READY)
                (first if number == 0 else later).append(driver.execute_script("return S.roundTrip"))
                if number == 0:
                    searches.append(1000 * driver.execute_script("return S.values.seconds"))
        later.sort()
        print(f"after the first card of {len(first)} whole deals: median {statistics.median(first):.0f} ms, "
              f"max {max(first):.0f} ms (the search alone: median {statistics.median(searches):.0f} ms)")
        print(f"every later card ({len(later)}): median {statistics.median(later):.0f} ms, "
              f"p90 {later[int(0.9 * len(later))]:.0f} ms, max {later[-1]:.0f} ms")
    finally:
        driver.quit()
        server.should_exit = True


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10)
