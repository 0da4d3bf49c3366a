"""The board's static page read as files, no browser: what a screen reader needs in its HTML (names for the buttons
that show only signs, a language, live regions, a text alternative for the graph) and the contrast of its CSS
colours against their backgrounds (WCAG 2.1 AA: 4.5:1 for text, 3:1 for a focus ring or a graph's marks)."""

from __future__ import annotations

import itertools
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parent.parent / "solver" / "board" / "static"
CSS = (STATIC / "board.css").read_text(encoding="utf-8")


class _Elements(HTMLParser):
    """Every start tag with its attributes, and each button's text."""

    def __init__(self) -> None:
        super().__init__()
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self.button_text: dict[str, str] = {}
        self._button: str | None = None

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))
        if tag == "button":
            self._button = dict(attrs).get("id") or f"button {len(self.button_text)}"
            self.button_text[self._button] = ""

    def handle_endtag(self, tag):
        if tag == "button":
            self._button = None

    def handle_data(self, data):
        if self._button is not None:
            self.button_text[self._button] += data


@pytest.fixture(scope="module")
def page() -> _Elements:
    parser = _Elements()
    parser.feed((STATIC / "index.html").read_text(encoding="utf-8"))
    return parser


def test_every_button_has_a_name_in_words(page):
    """A button whose text has no word (|◀ ◀ ▶ ▶|, otherwise read as "vertical line black left-pointing triangle") has
    an aria-label, and the keys that do the same are said (aria-keyshortcuts)."""
    buttons = {attrs.get("id") or text: (attrs, text) for (tag, attrs), text in
               zip([e for e in page.elements if e[0] == "button"], page.button_text.values())}
    assert len(buttons) >= 12
    for name, (attrs, text) in buttons.items():
        words = attrs.get("aria-label") or text
        assert re.search(r"[A-Za-z]{3}", words or ""), f"{name}: no name in words ({text!r})"
    assert buttons["undo"][0]["aria-label"] == "Undo" and buttons["undo"][0]["aria-keyshortcuts"] == \
        "ArrowLeft Backspace"
    assert buttons["best"][0]["aria-keyshortcuts"] == "Space"


def test_the_page_says_its_language_and_announces_what_changes(page):
    attrs = {tag: a for tag, a in page.elements if tag in ("html", "svg")}
    assert attrs["html"]["lang"] == "en"
    # a group, not an image: an image's parts are hidden from a screen reader, and the graph's points are buttons
    assert attrs["svg"]["role"] == "group" and attrs["svg"]["aria-label"] and attrs["svg"]["aria-describedby"]
    by_id = {a.get("id"): a for _, a in page.elements if a.get("id")}
    assert by_id["error"]["role"] == "alert"
    assert by_id["status"]["role"] == "status"  # the card values' line
    assert by_id["status"]["aria-busy"] == "false"  # board.js sets it while the values are searched
    assert by_id["announce"]["aria-live"] == "polite"  # the card played and whose turn it is
    assert "keys" in by_id  # the keyboard's keys, said on the page


def test_thinking_is_for_the_eye_not_said_by_the_status_region():
    """"thinking…" is not said at every card by a screen reader: it is hidden from screen readers and outside every
    live region; the region is aria-busy while the engine works."""
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    thinking = re.search(r'<span id="thinking"[^>]*>', html)
    assert thinking and 'aria-hidden="true"' in thinking.group(0)
    status = re.search(r'<div id="status"[^>]*>(.*?)</div>', html, re.S)
    assert status and "thinking" not in status.group(1) and 'id="summary"' in status.group(1)
    live = re.findall(r'<(\w+)[^>]*(?:role="(?:status|alert)"|aria-live=)[^>]*>(.*?)</\1>', html, re.S)
    # the page's error bar, the status line, the announcements, the Paste and Deal dialogs' refusals and what Copy did
    assert len(live) == 6 and not any("thinking" in inside for _, inside in live)
    script = (STATIC / "board.js").read_text(encoding="utf-8")
    assert '$("status").setAttribute("aria-busy", String(busy.kinds.has("values")))' in script


def _luminance(colour: str) -> float:
    digits = colour.lstrip("#")
    if len(digits) == 3:
        digits = "".join(c * 2 for c in digits)
    channels = [int(digits[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    """WCAG 2.1's contrast ratio of two colours."""
    light, dark = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def css_colour(selector: str, prop: str) -> str:
    """The colour a rule of board.css gives ``prop``, its custom properties resolved."""
    rule = re.search(re.escape(selector) + r"\s*(?:,[^{]*)?\{([^}]*)\}", CSS)
    assert rule, f"no rule for {selector}"
    value = re.search(rf"(?:^|[;\s]){re.escape(prop)}:\s*([^;}}]+)", rule.group(1))
    assert value, f"{selector} sets no {prop}"
    found = re.search(r"#[0-9a-fA-F]{3,6}\b|var\(--[\w-]+\)", value.group(1))
    assert found, f"{selector} {prop}: {value.group(1)}"
    colour = found.group(0)
    if colour.startswith("var("):
        colour = re.search(rf"{re.escape(colour[4:-1])}:\s*(#[0-9a-fA-F]+)", CSS).group(1)
    return colour


WHITE, GRAPH, FELT = "#fff", css_colour(".graph", "background"), css_colour(":root", "--felt")

#: (what, foreground, background, the least ratio): the text at 4.5:1, the graph's marks and the focus ring at 3:1
PAIRS = [
    ("a Schellen card's face (gold was 2.9:1)", css_colour(".card.c-gold", "color"), WHITE, 4.5),
    ("an Eichel card's face", css_colour(".card.c-brown", "color"), WHITE, 4.5),
    ("a Gras card's face", css_colour(".card.c-green", "color"), WHITE, 4.5),
    ("a red card's face", css_colour(".card.c-red", "color"), WHITE, 4.5),
    ("a tarock's numeral", css_colour(".card.c-trump", "color"), css_colour(".card.c-trump", "background"), 4.5),
    ("a hint", css_colour(".hint", "color"), WHITE, 4.5),
    ("the graph's numbers (were 3.4:1)", css_colour(".graph text", "fill"), GRAPH, 4.5),
    ("the play list's later cards (were 2.3:1)", css_colour(".play li span.ahead", "color"), WHITE, 4.5),
    ("the play list's current card (was 3.7:1)", css_colour(".play li span.current", "color"),
     css_colour(".play li span.current", "background"), 4.5),
    ("a value on a card", css_colour(".card .value", "color"), css_colour(".card .value", "background"), 4.5),
    ("a best card's value", css_colour(".card.best .value", "color"),
     css_colour(".card.best .value", "background"), 4.5),
    ("a good yes/no", css_colour(".card .value.good", "color"), css_colour(".card .value.good", "background"), 4.5),
    ("a bad yes/no", css_colour(".card .value.bad", "color"), css_colour(".card .value.bad", "background"), 4.5),
    ("an error", css_colour(".error", "color"), css_colour(".error", "background"), 4.5),
    ("thinking…", css_colour(".thinking", "color"), WHITE, 4.5),
    ("a focused card's ring on the felt (blue was 1.8:1)", css_colour(".card.legal:focus-visible", "outline"), FELT, 3),
    ("a best card's outline on the felt", css_colour(".card.best", "outline"), FELT, 3),
    ("a focused play list card's ring", css_colour(".play li span.move:focus-visible", "outline"), WHITE, 3),
    ("a focused play list card's ring on the card shown (blue on its blue was 1:1)",
     css_colour(".play li span.move:focus-visible", "outline"), css_colour(".play li span.current", "background"), 3),
    ("a focused point's ring in the graph", css_colour(".graph .dot:focus-visible", "outline"), GRAPH, 3),
    ("the graph's frame while a point has the focus", css_colour(".graph:focus-within", "border-color"), GRAPH, 3),
    ("an inaccuracy's dot (was 1.9:1)", css_colour(".graph .dot.inaccuracy", "fill"), GRAPH, 3),
    ("a mistake's dot", css_colour(".graph .dot.mistake", "fill"), GRAPH, 3),
    ("a blunder's dot", css_colour(".graph .dot.blunder", "fill"), GRAPH, 3),
    ("the graph's game line (was 1.8:1)", css_colour(".graph .game-line", "stroke"), GRAPH, 3),
]


@pytest.mark.parametrize("what, foreground, background, least", PAIRS, ids=[p[0] for p in PAIRS])
def test_colours_have_the_contrast_wcag_asks(what, foreground, background, least):
    assert contrast(foreground, background) >= least, f"{what}: {contrast(foreground, background):.2f}:1"


#: Machado, Oliveira and Fernandes (2009): what a dichromat sees of a linear-light colour (severity 1).
COLOUR_BLINDNESS = {
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
}


def _lab(colour: str, seen_by: str | None = None) -> tuple[float, float, float]:
    """CIELAB (D65) of an sRGB colour, as a dichromat sees it where ``seen_by`` names one."""
    digits = colour.lstrip("#")
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
              for c in (int(digits[i:i + 2], 16) / 255 for i in (0, 2, 4))]
    if seen_by:  # simulated in linear light, clipped to what a screen shows
        linear = [min(1.0, max(0.0, sum(m * c for m, c in zip(row, linear)))) for row in COLOUR_BLINDNESS[seen_by]]
    xyz = [sum(m * c for m, c in zip(row, linear)) / white for row, white in zip(
        ((0.4124564, 0.3575761, 0.1804375), (0.2126729, 0.7151522, 0.0721750), (0.0193339, 0.1191920, 0.9503041)),
        (0.95047, 1.0, 1.08883))]
    fx, fy, fz = (t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116 for t in xyz)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def colour_difference(first: tuple[float, float, float], second: tuple[float, float, float]) -> float:
    """CIEDE2000's colour difference (about 2 is the least the eye notices side by side; 10 and more, two
    colours that are not taken for each other)."""
    from math import atan2, cos, degrees, exp, hypot, radians, sin, sqrt

    (l1, a1, b1), (l2, a2, b2) = first, second
    mean_chroma = (hypot(a1, b1) + hypot(a2, b2)) / 2
    g = 0.5 * (1 - sqrt(mean_chroma ** 7 / (mean_chroma ** 7 + 25 ** 7)))
    c1, c2 = hypot((1 + g) * a1, b1), hypot((1 + g) * a2, b2)
    h1, h2 = (degrees(atan2(b, (1 + g) * a)) % 360 for a, b in ((a1, b1), (a2, b2)))
    dh = 0.0 if c1 * c2 == 0 else (h2 - h1 + 180) % 360 - 180
    big_dh = 2 * sqrt(c1 * c2) * sin(radians(dh / 2))
    mean_l, mean_c = (l1 + l2) / 2, (c1 + c2) / 2
    mean_h = h1 + h2 if c1 * c2 == 0 else ((h1 + h2) / 2 + (180 if abs(h1 - h2) > 180 else 0)) % 360
    t = (1 - 0.17 * cos(radians(mean_h - 30)) + 0.24 * cos(radians(2 * mean_h)) + 0.32 * cos(radians(3 * mean_h + 6))
         - 0.20 * cos(radians(4 * mean_h - 63)))
    s_l = 1 + 0.015 * (mean_l - 50) ** 2 / sqrt(20 + (mean_l - 50) ** 2)
    s_c, s_h = 1 + 0.045 * mean_c, 1 + 0.015 * mean_c * t
    r_t = -sin(radians(60 * exp(-((mean_h - 275) / 25) ** 2))) * 2 * sqrt(mean_c ** 7 / (mean_c ** 7 + 25 ** 7))
    dl, dc, dhh = (l2 - l1) / s_l, (c2 - c1) / s_c, big_dh / s_h
    return sqrt(dl ** 2 + dc ** 2 + dhh ** 2 + r_t * dc * dhh)


def test_the_colour_difference_formula():
    """Sharma, Wu and Dalal's test pairs for CIEDE2000 (13 and 15 across the hue's wrap), sRGB's white and red in
    CIELAB, and a grey that a dichromat sees as it is (each simulation keeps the neutral axis). The last check
    compared a colour with itself (``_lab(x)`` against ``_lab(x, None)``, the same call), which any formula passes."""
    assert colour_difference((50, 2.6772, -79.7751), (50, 0, -82.7485)) == pytest.approx(2.0425, abs=1e-4)
    assert colour_difference((50, 2.5, 0), (73, 25, -18)) == pytest.approx(27.1492, abs=1e-4)
    assert colour_difference((50, -1, 2), (50, 0, 0)) == pytest.approx(2.3669, abs=1e-4)
    assert colour_difference((50, 2.49, -0.001), (50, -2.49, 0.0009)) == pytest.approx(7.1792, abs=1e-4)
    assert colour_difference((50, 2.49, -0.001), (50, -2.49, 0.0011)) == pytest.approx(7.2195, abs=1e-4)
    assert colour_difference((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387)) \
        == pytest.approx(1.2644, abs=1e-4)
    assert _lab("#ffffff") == pytest.approx((100, 0, 0), abs=1e-3)
    assert _lab("#ff0000") == pytest.approx((53.2408, 80.0925, 67.2032), abs=1e-3)
    for seen_by in COLOUR_BLINDNESS:
        assert colour_difference(_lab("#808080"), _lab("#808080", seen_by)) < 0.01
    assert colour_difference(_lab("#ff0000"), _lab("#ff0000", "deuteranopia")) > 10  # red is not seen as red


def test_the_four_german_suits_are_told_apart_by_colour_too():
    """The four German suits are told apart by colour, not only by the small signs (♥ ♦, ♠ ♦): every pair differs by at
    least 20 (CIEDE2000), and by 10 as a deuteranope or protanope sees them (Machado et al.'s simulation), where a gold
    of #946500 is 16.8 from Eichel's brown, 3.5 from Herz's red to a deuteranope and 3.6 from Gras's green to a
    protanope."""
    suits = {name: css_colour(f".card.c-{name}", "color") for name in ("brown", "green", "red", "gold")}
    for seen_by, least in ((None, 20), ("deuteranopia", 10), ("protanopia", 10)):
        for first, second in itertools.combinations(suits, 2):
            a, b = suits[first], suits[second]
            difference = colour_difference(_lab(a, seen_by), _lab(b, seen_by))
            assert difference >= least, f"{first} and {second} as {seen_by or 'most'} see them: {difference:.1f}"


def test_the_contrast_formula():
    assert contrast("#000", "#fff") == pytest.approx(21)
    assert contrast("#767676", "#fff") == pytest.approx(4.54, abs=0.01)  # the known least grey on white


def test_the_headings_go_down_one_level_at_a_time(page):
    """The page has one h1 and its headings go down one level at a time, so a screen reader's list of headings has no
    gap; the panels the page draws (the odds) are h2."""
    levels = [int(tag[1]) for tag, _ in page.elements if re.fullmatch(r"h[1-6]", tag)]
    assert levels[0] == 1 and levels.count(1) == 1
    assert all(later <= earlier + 1 for earlier, later in zip(levels, levels[1:])), levels
    script = (STATIC / "board.js").read_text(encoding="utf-8")
    drawn = re.findall(r'el\("h([1-6])"', script)
    assert drawn and set(drawn) <= {"2"}


def test_the_spinner_keeps_still_for_who_asks_for_no_motion():
    """Every animation of the page, the "thinking…" spinner too, stops under prefers-reduced-motion (WCAG 2.3.3)."""
    css = re.sub(r"/\*.*?\*/", "", CSS, flags=re.S)
    reduced = re.search(r"@media \(prefers-reduced-motion: reduce\) \{(.*?)\n\}", css, re.S)
    assert reduced, "no prefers-reduced-motion block"
    rules = lambda text: re.findall(r"([^{}]+)\{([^{}]*)\}", text)  # noqa: E731 (selector, declarations)
    animated = {selector.strip() for selector, body in rules(css.replace(reduced.group(0), ""))
                if re.search(r"\banimation:\s*(?!none)", body)}
    stilled = {selector.strip() for selector, body in rules(reduced.group(1)) if "animation: none" in body}
    assert animated == {".thinking::before"} and animated <= stilled


def test_a_touch_screen_hides_the_key_hints():
    """The key hints are hidden on touch screens, where there are no keys to press: where the primary pointer is coarse
    and cannot hover (a phone, a tablet), not on a narrow window that has a mouse."""
    css = re.sub(r"/\*.*?\*/", "", CSS, flags=re.S)
    touch = re.search(r"@media \(hover: none\) and \(pointer: coarse\) \{(.*?)\n\}", css, re.S)
    assert touch and re.search(r"\.keys \{ display: none; \}", touch.group(1))
    narrow = re.findall(r"@media \(max-width: [\d.]+(?:px|em)\) \{(.*?)\n\}", css, re.S)
    assert narrow and not any(".keys" in block for block in narrow)


def test_a_touch_screen_keeps_no_card_lifted_after_a_tap():
    """A tapped card stays "hovered" on a touch screen until the next tap elsewhere, so the lift a mouse gives the card
    under it would stick to whatever a finger touched last: every :hover rule is for a pointer that hovers (``@media
    (hover: hover)``)."""
    css = re.sub(r"/\*.*?\*/", "", CSS, flags=re.S)
    hovering = re.findall(r"@media \(hover: hover\) \{(.*?)\n\}", css, re.S)
    assert hovering and all(":hover" in block for block in hovering)
    for block in hovering:
        css = css.replace(block, "")
    assert ":hover" not in css
