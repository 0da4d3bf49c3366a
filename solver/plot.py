"""The picture of a post-mortem: the double-dummy value over the course of the play, drawn with matplotlib.

x is the number of cards played, every card named below the axis in its seat's colour, the tricks numbered along the
top and separated by dashed lines; y is the series the post-mortem holds (``PlayAnalysis.curve``: the declaring side's
total, what it has won plus the double-dummy value of the rest; without card points, the declarer's tricks), labelled
from its ``measure`` and ``declaring_side``. A perfect play is a flat line. The contract's thresholds are drawn as
horizontal lines (taken from the analysis, which reads them from the game's objectives), every card graded worse than
``ok`` is a marker in its grade's colour, a card that threw away or handed over a bonus is a cross with the bonus
named, and the bonuses still made at the end are named at the line's end.

matplotlib is imported on the first plot only (``import solver`` stays quick) and draws with its Agg backend, so
no display is needed; the format follows the file's suffix: PNG, SVG or PDF. Every mark carries a ``gid`` (in the
SVG, the ``id`` of its group: ``mistake-N``, ``bonus-N``, ``threshold-NAME``) so that programs can find it.
"""

from __future__ import annotations

from pathlib import Path

from .errors import StichError
from .postmortem import PlayAnalysis

#: The formats matplotlib writes for us, by file suffix.
PLOT_FORMATS = {".png": "png", ".svg": "svg", ".pdf": "pdf"}

GRADE_COLOURS = {"inaccuracy": "#e6a000", "mistake": "#e65a00", "blunder": "#c80000"}
SEAT_COLOURS = ("#1f4fb4", "#2a8a2a", "#8a2a8a", "#b45f06", "#117a8b", "#6b6b6b")
LINE_COLOUR = "#1e5ac8"
THRESHOLD_COLOUR = "#777777"


def _figure(analysis: PlayAnalysis):
    import matplotlib

    matplotlib.use("Agg", force=False)  # (a program that chose its backend keeps it; Agg needs no display)
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D

    cards = analysis.cards
    count = len(cards)
    figure = Figure(figsize=(max(8.0, 0.28 * count + 3), 5.2), dpi=110, layout="constrained")
    axes = figure.add_subplot()
    unit = analysis.measure
    side = "+".join(str(seat) for seat in analysis.declaring_side)
    whose = f"seat {side}" if len(analysis.declaring_side) == 1 else f"seats {side}"
    figure.suptitle(f"{analysis.game} {analysis.contract}, declarer {analysis.declarer}: double-dummy {unit} "
                    f"of {whose}", fontweight="bold")

    # the value line and its scale
    x = list(range(len(analysis.curve)))
    axes.plot(x, analysis.curve, color=LINE_COLOUR, linewidth=2, marker="o", markersize=3,
              label=f"{unit} of {whose} (won + double-dummy rest)", gid="value")
    top = max([analysis.maximum, *analysis.curve, 1])
    bottom = min(0, *analysis.curve)
    span = top - bottom
    # a score can fall below 0: room under the lowest point for its label, which would sit on the cards' names
    low, high = (bottom - 0.1 * span if bottom < 0 else bottom), top + 0.06 * span
    axes.set_ylim(low, high)
    axes.set_xlim(-0.5, max(count, 1) + 0.5)
    axes.set_ylabel(f"{unit} of {whose}")
    axes.set_xlabel("card played (seat: card)")

    # the contract's thresholds
    for name, value in analysis.thresholds:
        axes.axhline(value, color=THRESHOLD_COLOUR, linestyle=":", linewidth=1, gid=f"threshold-{name}")
        axes.annotate(f"{name} {value}", (1, value), xycoords=("axes fraction", "data"), xytext=(-4, 2),
                      textcoords="offset points", ha="right", va="bottom", fontsize=8, color=THRESHOLD_COLOUR)

    # the tricks: dashed boundaries, numbered along the top
    starts = [0, *analysis.trick_ends]
    for end in analysis.trick_ends:
        axes.axvline(end + 0.5, color="#cccccc", linestyle="--", linewidth=0.8, zorder=0)
    tricks = axes.secondary_xaxis("top")
    ends = [*analysis.trick_ends, count][:len(starts)]
    middles = [(start + 1 + end) / 2 for start, end in zip(starts, ends) if start < count]
    tricks.set_xticks(middles, [str(i + 1) for i in range(len(middles))], fontsize=8)
    tricks.tick_params(length=0)
    tricks.set_xlabel("trick", fontsize=9)

    # every card named, in its seat's colour
    axes.set_xticks([0, *(card.number for card in cards)], ["start", *(f"{card.seat}: {card.card}" for card in cards)],
                    rotation=90, fontsize=8, fontfamily="monospace")
    for label, card in zip(axes.get_xticklabels()[1:], cards):
        label.set_color(SEAT_COLOURS[(card.seat - 1) % len(SEAT_COLOURS)])

    # mistakes and bonuses
    for turn, card in enumerate(analysis.mistakes):
        value = analysis.curve[card.number]
        axes.plot([card.number], [value], "o", markersize=9, color=GRADE_COLOURS[card.grade], zorder=3,
                  gid=f"mistake-{card.number}")
        note = f"{card.card} (-{card.cost})"
        if card.bonuses_lost:
            axes.plot([card.number], [value], "x", markersize=13, markeredgewidth=2.5, color="black", zorder=4,
                      gid=f"bonus-{card.number}")
            # a seat's own target (Kratzen) says whose: the line is another seat's tricks
            named = {name: f"seat {card.seat}'s target" if name == "target" else name for name in card.bonuses_lost}
            thrown = [named[name] for name in card.bonuses_lost if name not in card.bonuses_handed_over]
            handed = [named[name] for name in card.bonuses_handed_over]
            note += ": " + "; ".join(part for part in (", ".join(thrown) + " lost" if thrown else "",
                                                       ", ".join(handed) + " handed over" if handed else "") if part)
        # neighbours' labels alternate above and below the line, but not below a point too near the bottom of the
        # scale (the label would sit on the cards' names) nor above one too near the top
        lift = 14 if card.bonuses_lost else 0  # the long bonus labels clear the short ones beside them
        room, need = (value - low) / (high - low), 0.16 if lift else 0.1  # of the axes' height, for the label
        above = turn % 2 == 0 if need < room < 1 - need else room <= need
        axes.annotate(note, (card.number, value), xytext=(6, 7 + lift if above else -15 - lift),
                      textcoords="offset points",
                      fontsize=8, fontweight="bold" if card.bonuses_lost else "normal")
    if analysis.bonuses_kept and analysis.curve:
        axes.annotate("kept: " + ", ".join(analysis.bonuses_kept), (len(analysis.curve) - 1, analysis.curve[-1]),
                      xytext=(-4, -14), textcoords="offset points", ha="right", fontsize=8, color="#2a7a2a",
                      gid="bonuses-kept")

    # the legend: the line, the grades found, the bonus cross, the seats
    handles = [Line2D([], [], color=LINE_COLOUR, linewidth=2, label=f"{unit} of {whose}")]
    if analysis.thresholds:
        handles.append(Line2D([], [], color=THRESHOLD_COLOUR, linestyle=":", label="contract thresholds"))
    for grade in ("inaccuracy", "mistake", "blunder"):
        if any(card.grade == grade for card in cards):
            handles.append(Line2D([], [], marker="o", linestyle="", color=GRADE_COLOURS[grade], label=grade))
    if any(card.bonuses_lost for card in cards):
        handles.append(Line2D([], [], marker="x", linestyle="", color="black", markeredgewidth=2.5,
                              label="bonus thrown away or handed over"))
    for summary in analysis.players:
        handles.append(Line2D([], [], marker="s", linestyle="", color=SEAT_COLOURS[(summary.seat - 1) % 6],
                              label=f"seat {summary.seat}" + (" (declarer)" if summary.seat == analysis.declarer
                                                              else "")))
    axes.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=8, frameon=False)
    axes.grid(axis="y", color="#eeeeee")
    return figure


def write_plot(analysis: PlayAnalysis, path: str | Path) -> Path:
    """Write the plot as PNG, SVG or PDF, chosen by the file's suffix; another suffix is bad input."""
    if not isinstance(analysis, PlayAnalysis):
        raise StichError(f"the plot is of a PlayAnalysis (from analyse_play), not {type(analysis).__name__}")
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in PLOT_FORMATS:
        raise StichError(f"{path}: the plot is written as .png, .svg or .pdf, not {suffix or 'a file without suffix'}")
    figure = _figure(analysis)
    metadata = {"Title": f"{analysis.game} {analysis.contract}: post-mortem"}
    figure.savefig(path, format=PLOT_FORMATS[suffix], metadata=metadata)
    return path


__all__ = ["GRADE_COLOURS", "PLOT_FORMATS", "write_plot"]
