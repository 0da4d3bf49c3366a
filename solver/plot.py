"""The picture of a post-mortem: the double-dummy value over the course of the play, drawn with matplotlib.

x is the number of cards played, every card named below the axis in its seat's colour (as the tables name it:
``♠G``), the tricks numbered along the top and separated by dashed lines; y is the series the post-mortem holds
(``PlayAnalysis.curve``: the declaring side's total, what it has won plus the double-dummy value of the rest; without
card points, the declarer's tricks), labelled from its ``measure`` and ``declaring_side``. A perfect play is a flat
line. The contract's thresholds are drawn as horizontal lines (taken from the analysis, which reads them from the
game's objectives), the one that decides the game (``PlayAnalysis.winning``) drawn apart and named, with a diamond on
every card after which the line crossed it; every card graded worse than ``ok`` is a marker in its grade's colour, a
card that threw away or handed over a bonus is a cross with the bonus named, and the bonuses still made at the end
are named at the line's end.

matplotlib is imported on the first plot only (``import solver`` stays quick) and the figure draws itself with
Agg, so no display is needed and no backend is chosen (pyplot's, a notebook's inline one, is left alone); the format
follows the file's suffix: PNG, SVG or PDF. Every mark carries a ``gid`` (in the SVG, the ``id`` of its group:
``mistake-N``, ``bonus-N``, ``game-N``, ``threshold-NAME``) so that programs can find it.
"""

from __future__ import annotations

import os
import sys
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from .diagram import SIGNS, card_names
from .errors import StichError, shown_name
from .files import atomic_path

if TYPE_CHECKING:  # the post-mortem draws itself in a notebook with this module: it is below postmortem.py
    from numpy.typing import ArrayLike

    from .figure import PlotFigure
    from .postmortem import PlayAnalysis

#: The formats matplotlib writes for us, by file suffix.
PLOT_FORMATS = {".png": "png", ".svg": "svg", ".pdf": "pdf"}

GRADE_COLOURS = {"inaccuracy": "#e6a000", "mistake": "#e65a00", "blunder": "#c80000"}
SEAT_COLOURS = ("#1f4fb4", "#2a8a2a", "#8a2a8a", "#b45f06", "#117a8b", "#6b6b6b")
LINE_COLOUR = "#1e5ac8"
THRESHOLD_COLOUR = "#777777"
WINNING_COLOUR = "#7a1fa2"  # the game's threshold and the cards that crossed it
#: The name of the score's 0 where it is not the game's line (Zwanzigerrufen by the score, Kratzen without a pot).
ZERO_NAME = "0: neither side pays"
#: How far (points up or down) a card's label may sit from its marker without a leader line to it.
NEAR_LABEL = 15
LEADER_COLOUR = "#999999"
#: The characters a line of a card's label folds at where the label is wider than half the axes (a small ending's).
FOLD_WIDTH = 22
#: Where a threshold's name may go, tried in order while it covers another's (lines a few points apart in a small
#: ending): (axes fraction, offset x, offset y, ha, va): above its line on the right, below it, then on the left.
NAME_PLACES = ((1, -4, 2, "right", "bottom"), (1, -4, -2, "right", "top"), (0, 4, 2, "left", "bottom"),
               (0, 4, -2, "left", "top"))


def _same_x(x: ArrayLike) -> ArrayLike:
    """The trick axis's scale, the cards' own, as a named function: matplotlib's default is a lambda, which cannot
    be pickled, and a figure sent to another process (multiprocessing, Dask) is pickled."""
    return x


def fonts_draw_suit_signs() -> bool:
    """Whether the fonts the plot names cards in (the axis's monospace, the notes' default) hold the suit signs, so
    that it names them as the post-mortem's tables do (``♠G``); a font without them would draw empty boxes, so the
    cards are then named as the record writes them (``SG``)."""
    from matplotlib import font_manager
    from matplotlib.ft2font import FT2Font

    for family in ("monospace", None):  # None: the default family, matplotlib's rcParams
        charmap = FT2Font(font_manager.findfont(font_manager.FontProperties(family=family))).get_charmap()
        if not all(ord(sign) in charmap for sign in SIGNS.values()):
            return False
    return True


def load_matplotlib() -> None:
    """Import matplotlib, or say why it cannot be: its import reads ``MPLBACKEND`` and fails on a name it does not
    know, although the plot draws itself with Agg whatever the variable names. That is the environment's error, not
    the analysis's, so it is said as one line a user can act on instead of matplotlib's traceback. The failed
    import's half-loaded modules are dropped, so that a call after the variable is mended imports it afresh."""
    try:
        import matplotlib  # noqa: F401  # the import is the check
    except ValueError as error:  # an unknown MPLBACKEND (a bad matplotlibrc only warns)
        for name in [name for name in sys.modules if name == "matplotlib" or name.startswith("matplotlib.")]:
            del sys.modules[name]
        backend = os.environ.get("MPLBACKEND")
        hint = f" (MPLBACKEND is {backend!r}: unset it, or name a backend matplotlib knows)" if backend else ""
        raise StichError(f"matplotlib, which draws the plot, cannot be loaded: {error}{hint}") from None


def plot_figure(analysis: PlayAnalysis) -> PlotFigure:
    """The matplotlib Figure of the post-mortem (what :func:`write_plot` saves), for a program to add to or show; a
    notebook shows it as its picture (:class:`solver.figure.PlotFigure`). No backend is chosen: the figure draws
    itself with Agg, so a notebook's or a program's pyplot backend stays as it was, and a notebook's own
    ``plt.show()`` still shows its figures after a post-mortem has drawn this one."""
    load_matplotlib()
    from matplotlib.lines import Line2D
    from matplotlib.ticker import MaxNLocator

    from .figure import PlotFigure

    cards = analysis.cards
    count = len(cards)
    typed = [card.card for card in cards]
    signed = card_names(analysis.game, typed) != " ".join(typed)  # Schafkopf's and Kratzen's names carry no signs
    shown_game = analysis.game if signed and fonts_draw_suit_signs() else ""  # "": the cards by their names, as typed

    def shown(card: str) -> str:
        return card_names(shown_game, [card])

    figure = PlotFigure(figsize=(max(8.0, 0.28 * count + 3), 5.2), dpi=110, layout="constrained")
    axes = figure.add_subplot()
    unit = "payment in chips" if analysis.measure == "chips" else analysis.measure  # Kratzen: the attacker's own
    from .games import get_game
    from .games.outcome import role_text, side_text

    whose = side_text(analysis.declaring_side)  # ``1+3``, ``seat 2``: as the text and every command write a side

    title = get_game(analysis.game).declarer_title  # the Kratzen attacker, as the text's header names him
    contract = get_game(analysis.game).contract_in_words(analysis.contract)
    figure.suptitle(f"{analysis.game} {contract}, {title} {analysis.declarer}: double-dummy {unit} "
                    f"of {whose}", fontweight="bold")

    # the value line and its scale
    x = list(range(len(analysis.curve)))
    axes.plot(x, analysis.curve, color=LINE_COLOUR, linewidth=2, marker="o", markersize=3,
              label=f"{unit} of {whose} (won + double-dummy rest)", gid="value")
    marks = [] if analysis.winning is None else [analysis.winning[1]]  # the game's line is always in sight
    top = max([analysis.maximum, *analysis.curve, *marks, 1])
    bottom = min([0, *analysis.curve, *marks])
    span = top - bottom
    # a score can fall below 0: room under the lowest point for its label, which would sit on the cards' names; the
    # game's line at the bottom (a score's 0 under a curve that never falls below it) is lifted off the frame's edge
    low, high = (bottom - 0.1 * span if bottom < 0 else bottom - 0.04 * span if bottom in marks else bottom,
                 top + 0.06 * span)
    axes.set_ylim(low, high)
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))  # points, tricks, game units and chips are whole
    axes.set_xlim(-0.5, max(count, 1) + 0.5)
    axes.set_ylabel(f"{unit} of {whose}")
    axes.set_xlabel("card played (seat: card)")

    # the contract's thresholds, the game's own drawn apart; their names are staggered where they meet
    winning = analysis.winning
    names, levels = [], []  # the names, and the heights of the lines drawn across (labels keep off them)
    for name, value in analysis.thresholds:
        # an ending's marks above its points (Schneider's 91 of 33) would put their names over the title
        if (name, value) == winning or not low <= value <= high:
            continue
        axes.axhline(value, color=THRESHOLD_COLOUR, linestyle=":", linewidth=1, gid=f"threshold-{name}")
        levels.append(value)
        names.append(axes.annotate(f"{threshold_title(analysis.game, name)} {value}", (1, value),
                                   xycoords=("axes fraction", "data"), xytext=(-4, 2), textcoords="offset points",
                                   ha="right", va="bottom", fontsize=8, color=THRESHOLD_COLOUR,
                                   gid=f"threshold-name-{name}"))
    if analysis.graded_by_score and (winning is None or winning[1] != 0) and low < 0 <= high:
        # the score's 0 (Zwanzigerrufen scores the game apart from its bonuses, so 0 is not its game line): named, or
        # the grid's 0 read as a mark nobody explained; where the scale starts at 0 it is the frame, no line
        axes.axhline(0, color=THRESHOLD_COLOUR, linestyle="--", linewidth=1, gid="threshold-zero", zorder=1)
        levels.append(0)
        names.append(axes.annotate(ZERO_NAME, (1, 0), xycoords=("axes fraction", "data"), xytext=(-4, 2),
                                   textcoords="offset points", ha="right", va="bottom", fontsize=8,
                                   color=THRESHOLD_COLOUR, gid="threshold-name-zero"))
    made = "made" if winning is not None and winning[0] == "target" else "won"
    if winning is not None:
        name, value = winning
        axes.axhline(value, color=WINNING_COLOUR, linestyle="-.", linewidth=1.3, gid=f"threshold-{name}", zorder=1)
        levels.append(value)
        # an ending's line is the whole deal's, on the ending's own cards (docs/scoring.md)
        where = "" if analysis.whole_deal else " (on the ending's own cards)"
        names.append(axes.annotate(f"{name} {made} at \u2265 {value}{where}", (1, value),
                                   xycoords=("axes fraction", "data"), xytext=(-4, 2), textcoords="offset points",
                                   ha="right", va="bottom", fontsize=8, fontweight="bold", color=WINNING_COLOUR,
                                   gid="winning-label"))

    # the tricks: dashed boundaries, numbered along the top
    starts = [0, *analysis.trick_ends]
    for end in analysis.trick_ends:
        axes.axvline(end + 0.5, color="#cccccc", linestyle="--", linewidth=0.8, zorder=0)
    tricks = axes.secondary_xaxis("top", functions=(_same_x, _same_x))
    ends = [*analysis.trick_ends, count][:len(starts)]
    middles = [(start + 1 + end) / 2 for start, end in zip(starts, ends) if start < count]
    tricks.set_xticks(middles, [str(i + 1) for i in range(len(middles))], fontsize=8)
    tricks.tick_params(length=0)
    tricks.set_xlabel("trick", fontsize=9)

    # every card named, in its seat's colour
    axes.set_xticks([0, *(card.number for card in cards)],
                    ["start", *(f"{card.seat}: {shown(card.card)}" for card in cards)],
                    rotation=90, fontsize=8, fontfamily="monospace")
    for label, card in zip(axes.get_xticklabels()[1:], cards):
        label.set_color(SEAT_COLOURS[(card.seat - 1) % len(SEAT_COLOURS)])

    # mistakes and bonuses, and the cards after which the game changed hands: one label a card
    crossed = dict(analysis.game_changes)
    # the game can change hands where no line is drawn (Zwanzigerrufen by the score: read on the points' curve)
    changed = analysis.game_line
    missed = "missed" if made == "made" else "lost"
    notes: dict[int, str] = {}
    for card in analysis.mistakes:
        value = analysis.curve[card.number]
        axes.plot([card.number], [value], "o", markersize=9, color=GRADE_COLOURS[card.grade], zorder=3,
                  gid=f"mistake-{card.number}")
        # a card that cost nothing but a bonus says only the bonus, as a game change alone does: no "(-0)"
        note = f"{shown(card.card)} (-{card.cost})" if card.cost else shown(card.card)
        if card.bonuses_lost:
            axes.plot([card.number], [value], "x", markersize=13, markeredgewidth=2.5, color="black", zorder=4,
                      gid=f"bonus-{card.number}")
            # a seat's own target (Kratzen) says whose: the line is another seat's tricks
            # in the table's words (``Valat against + Pagat Ultimo together``), not the JSON's
            # ``valat_against+pagat_ultimo``
            bonus_title = get_game(card.game).lost_bonus_title if card.game else str
            named = {name: f"seat {card.seat}'s target" if name == "target" else bonus_title(name)
                     for name in card.bonuses_lost}
            thrown = [named[name] for name in card.bonuses_lost if name not in card.bonuses_handed_over]
            handed = [named[name] for name in card.bonuses_handed_over]
            note += ": " + "; ".join(part for part in (", ".join(thrown) + " lost" if thrown else "",
                                                       ", ".join(handed) + " handed over" if handed else "") if part)
        notes[card.number] = note
    for number, now_won in crossed.items():
        assert changed is not None  # (only a threshold is crossed)
        axes.plot([number], [analysis.curve[number]], "D", markersize=15, markerfacecolor="none",
                  markeredgecolor=WINNING_COLOUR, markeredgewidth=2, zorder=4, gid=f"game-{number}")
        card = cards[number - 1]
        change = f"{changed[0]} {made if now_won else missed}"
        if card.seat == analysis.declarer and changed[0] in card.bonuses_lost:
            continue  # the Kratzen attacker's own target, named lost already
        # a card graded ok can move it: a Kratzen seat's card that costs its own tricks nothing
        notes[number] = f"{notes[number]}; {change}" if number in notes else f"{shown(card.card)}: {change}"
    labels = [axes.annotate(notes[number], (number, analysis.curve[number]), xytext=(6, 7), textcoords="offset points",
                            fontsize=8, fontweight="bold" if number in crossed or cards[number - 1].bonuses_lost
                            else "normal", color=WINNING_COLOUR if number in crossed else "black",
                            gid=f"label-{number}", zorder=5) for number in sorted(notes)]
    fixed = [annotation for annotation in axes.texts if annotation not in labels]
    if analysis.bonuses_kept and analysis.curve:
        fixed.append(axes.annotate("kept: " + ", ".join(analysis.bonuses_kept),
                                   (len(analysis.curve) - 1, analysis.curve[-1]), xytext=(-4, -14),
                                   textcoords="offset points", ha="right", fontsize=8, color="#2a7a2a",
                                   gid="bonuses-kept"))

    # the legend: the line, the grades found, the bonus cross, the seats
    handles = [Line2D([], [], color=LINE_COLOUR, linewidth=2, label=f"{unit} of {whose}")]
    if any(mark != winning and low <= mark[1] <= high for mark in analysis.thresholds):
        handles.append(Line2D([], [], color=THRESHOLD_COLOUR, linestyle=":", label="contract thresholds"))
    for grade in ("inaccuracy", "mistake", "blunder"):
        if any(card.grade == grade for card in cards):
            handles.append(Line2D([], [], marker="o", linestyle="", color=GRADE_COLOURS[grade], label=grade))
    if any(card.cost for card in analysis.mistakes):  # a label's (-N): whose loss it is, not the line's move
        handles.append(Line2D([], [], linestyle="", label=cost_sign_note(analysis)))
    if any(card.bonuses_lost for card in cards):
        # Kratzen has no bonuses: its cross is a seat's own trick target lost (RULES.md 3.3), as its label says
        targets = all(name == "target" for card in cards for name in card.bonuses_lost)
        handles.append(Line2D([], [], marker="x", linestyle="", color="black", markeredgewidth=2.5,
                              label="the player's own target lost" if targets else "bonus thrown away or handed over"))
    if winning is not None:
        handles.append(Line2D([], [], color=WINNING_COLOUR, linestyle="-.", linewidth=1.3,
                              label=f"{winning[0]} {made} at or above this line"))
    if crossed:
        handles.append(Line2D([], [], marker="D", linestyle="", markerfacecolor="none", markeredgewidth=2,
                              markeredgecolor=WINNING_COLOUR,
                              label=f"{changed[0] if changed else ''} {made} or {missed} by this card"))
    for summary in analysis.players:
        handles.append(Line2D([], [], marker="s", linestyle="", color=SEAT_COLOURS[(summary.seat - 1) % 6],
                              label=role_text(title, [summary.seat]) if summary.seat == analysis.declarer
                              else side_text([summary.seat])))
    axes.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=8, frameon=False)
    axes.grid(axis="y", color="#eeeeee")
    _place_labels(figure, axes, labels, sorted(notes), fixed, analysis, names, levels)
    return figure


def threshold_title(game: str, name: str) -> str:
    """A threshold's name as players say it and ``stich check`` names its rows (``Game.row_title``: ``Schneider
    against`` for ``schneider_against``, whose line is the other side's, beside the declarers' ``Schneider``), its
    note kept (``Valat (all tricks)``); the SVG's ids keep the identifiers, which programs look for."""
    from .games import get_game

    objective, space, note = name.partition(" ")
    return (get_game(game).row_title(objective) if game else objective) + space + note


def cost_sign_note(analysis: PlayAnalysis) -> str:
    """The legend's words on a label's ``(-N)``: the cost to the card's player (its side), which the line shows as a
    drop only for the declaring side's cards: a defender's card that costs 16 raises the declarers' line by 16, and
    read against the line ``SA (-16)`` said the opposite of what it drew. In Kratzen the line is the attacker's and
    the cost another seat's own tricks, or by the score what its card added to the attacker's payment."""
    if analysis.measure == "chips":
        return "(-N): what the card cost the attacker,\nor what another seat's card added\nto the attacker's payment"
    if analysis.measure == "tricks":
        return "(-N): the tricks the card cost its player\n(the line is the attacker's)"
    return "(-N): what the card cost its player's side\n(a defender's raises the line)"


#: Where a mistake's label may go, in points from its card's marker, tried in order: beside it above and below,
#: then further out, then on its left (near the right edge).
LABEL_OFFSETS = tuple((dx, dy, ha) for dx, ha in ((6, "left"), (-6, "right"))
                      for dy in (7, -15, 21, -29, 35, -43, 49, -57))


def _stagger_names(names, renderer, obstacles=()) -> None:
    """Move each threshold's name (lowest line first) to the first place of :data:`NAME_PLACES` where it covers no name
    placed before it and none of the ``obstacles`` (the bonuses kept, the labelled cards' markers): in a small ending,
    lines a point apart (Valat's top at 29, Absolut against at 30) would write their names over each other, and a line
    near the last card's value its name over the bonuses kept. Where no place is free, the first."""
    placed: list = list(obstacles)
    for name in sorted(names, key=lambda annotation: annotation.xy[1]):
        for fraction, dx, dy, ha, va in (*NAME_PLACES, NAME_PLACES[0]):
            name.xy = (fraction, name.xy[1])
            name.xyann = (dx, dy)
            name.set_horizontalalignment(ha)
            name.set_verticalalignment(va)
            extent = name.get_window_extent(renderer)
            if not any(extent.overlaps(other) for other in placed):
                break
        placed.append(extent)


def _place_labels(figure, axes, labels, numbers: list[int], fixed, analysis: PlayAnalysis, names=(),
                  levels: Sequence[int] = ()) -> None:
    """Move each card's label (``numbers``: their cards), in the order of the play, to the first place of
    :data:`LABEL_OFFSETS` where it stays inside the axes and covers no label placed before it, no fixed text (the
    thresholds' names, the bonuses kept) and no other labelled card's marker; where the line allows, not the line
    either, nor the thresholds' lines (``levels``). Where no place is free, the one that covers least. The
    thresholds' ``names`` are staggered first (:func:`_stagger_names`). Measured on the figure as drawn (the layout
    is then frozen so that it holds)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.transforms import Bbox

    if not labels and not names:
        return
    canvas = FigureCanvasAgg(figure)
    canvas.draw()  # the constrained layout places the axes; labels are kept inside them, so it stays so
    figure.set_layout_engine("none")
    renderer = canvas.get_renderer()
    frame = axes.get_window_extent(renderer)
    points = figure.dpi / 72  # display pixels a point

    def box(x: float, y: float, radius: float) -> Bbox:
        centre = axes.transData.transform((x, y))
        return Bbox.from_extents(*(centre - radius * points), *(centre + radius * points))

    markers = [box(number, analysis.curve[number], 7) for number in numbers]
    kept = [annotation.get_window_extent(renderer) for annotation in fixed if annotation not in names]
    # (first: the cards' labels keep clear of the names where they end up)
    _stagger_names(names, renderer, kept + markers)
    if not labels:
        return
    # the line itself, its points and every tenth of each step between them (a label across a steep step hides it)
    curve = analysis.curve
    vertices = [box(x + step / 10, curve[x] + (curve[x + 1] - curve[x]) * step / 10, 2)
                for x in range(len(curve) - 1) for step in range(10)] + [box(len(curve) - 1, curve[-1], 2)]
    for level in levels:  # the thresholds' lines too: a label they cross (the game's at 61) is struck through
        height = axes.transData.transform((0, level))[1]
        vertices.append(Bbox.from_extents(frame.x0, height - points, frame.x1, height + points))
    taken = [annotation.get_window_extent(renderer) for annotation in fixed]

    def covered(extent: Bbox, obstacles: list[Bbox]) -> float:
        return sum(max(0.0, min(extent.x1, o.x1) - max(extent.x0, o.x0)) *
                   max(0.0, min(extent.y1, o.y1) - max(extent.y0, o.y0)) for o in obstacles)

    for label in labels:  # a label wider than half the axes (a pair of bonuses named) folds after its card
        if label.get_window_extent(renderer).width > frame.width / 2 and ": " in label.get_text():
            card, said = label.get_text().split(": ", 1)
            label.set_text("\n".join([f"{card}:", *textwrap.wrap(said, FOLD_WIDTH, break_on_hyphens=False)]))
    for number, label in enumerate(labels):
        others = markers[:number] + markers[number + 1:]  # the offsets are measured from its own marker
        choices = []
        for dx, dy, ha in LABEL_OFFSETS:
            label.xyann = (dx, dy)
            label.set_horizontalalignment(ha)
            extent = label.get_window_extent(renderer)
            outside = (max(0.0, frame.x0 - extent.x0) + max(0.0, extent.x1 - frame.x1) +
                       max(0.0, frame.y0 - extent.y0) + max(0.0, extent.y1 - frame.y1)) * extent.height
            hits = outside + covered(extent, taken + others)
            choices.append((hits, covered(extent, vertices), (dx, dy, ha), extent))
            if not hits and not choices[-1][1]:
                break
        free = [choice for choice in choices if not choice[0]]
        _, _, (dx, dy, ha), extent = min(free or choices, key=lambda choice: choice[:2])
        label.xyann = (dx, dy)
        label.set_horizontalalignment(ha)
        taken.append(extent)
        if abs(dy) > NEAR_LABEL:  # set apart from its card (the line was in the way): a thin line leads to it
            leader = axes.annotate("", label.xy, xytext=(dx, dy), textcoords="offset points",
                                   gid=f"leader-{numbers[number]}", zorder=2,
                                   arrowprops=dict(arrowstyle="-", color=LEADER_COLOUR, linewidth=0.7, shrinkA=0,
                                                   shrinkB=6))
            leader.arrow_patch.set_gid(leader.get_gid())  # (the SVG writes no group for an empty text)


def write_plot(analysis: PlayAnalysis, path: str | Path) -> Path:
    """Write the plot as PNG, SVG or PDF, chosen by the file's suffix; another suffix is bad input. A file that
    cannot be written raises the OSError every output of the API raises (a missing folder: "cannot be written: the
    folder ... does not exist"), and leaves nothing behind."""
    if not all(hasattr(analysis, name) for name in ("curve", "cards", "trick_ends")):  # (not imported: see above)
        raise StichError(f"the plot is of a PlayAnalysis (from analyse_play), not {type(analysis).__name__}")
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in PLOT_FORMATS:
        raise StichError(f"{shown_name(path)}: the plot is written as .png, .svg or .pdf, not "
                         f"{suffix or 'a file without suffix'}")
    figure = plot_figure(analysis)
    from .games import get_game

    contract = get_game(analysis.game).contract_in_words(analysis.contract)  # as the figure's title says it
    metadata = {"Title": f"{analysis.game} {contract}: post-mortem"}
    with atomic_path(path) as temporary:  # a missing folder said as every output's, and no half-written plot
        figure.savefig(temporary, format=PLOT_FORMATS[suffix], metadata=metadata)
    return path


__all__ = ["GRADE_COLOURS", "PLOT_FORMATS", "cost_sign_note", "load_matplotlib", "plot_figure", "write_plot"]
