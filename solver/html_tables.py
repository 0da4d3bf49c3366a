"""The HTML that Jupyter shows for the API's results (their ``_repr_html_``): tables and lines of text, every text
escaped. One builder, so that a result, a settlement, an analysis and a match look alike in a notebook; it sits on
the ground floor because results of every layer use it (a game's ``DealtBonus`` too)."""

from __future__ import annotations

import re
from html import escape
from typing import Collection, Iterable, Sequence

#: A cell's style: a little padding, aligned left or right.
CELL = 'style="padding:2px 8px;text-align:{}"'


#: A figure kept whole by its no-break spaces (``100%\u00a0(68-100%)``, ``+1.63\u00a0±\u00a01.48``): the words
#: around a no-break space, up to the ordinary spaces on either side.
WHOLE_FIGURE = re.compile(r"[^ \n]*\u00a0[^ \n]*")


def html_table(head: Sequence[str], rows: Iterable[Sequence[object]], *, right: Collection[int] = ()) -> str:
    """A table with a row of column names (empty: no header row) above ``rows``; the columns numbered in ``right``
    are aligned right (numbers), the others left; every cell escaped, its lines kept apart (``<br>``), and a figure
    kept whole by its no-break spaces set unwrapped, since a browser would break it after an interval's hyphen."""
    def text(cell: object) -> str:
        whole = WHOLE_FIGURE.sub(lambda figure: f'<span style="white-space:nowrap">{figure.group()}</span>',
                                 escape(str(cell)))
        return whole.replace("\n", "<br>")

    def row(cells: Sequence[object], tag: str) -> str:
        return "<tr>" + "".join(f"<{tag} {CELL.format('right' if column in right else 'left')}>{text(cell)}</{tag}>"
                                for column, cell in enumerate(cells)) + "</tr>"
    lines = ([row(head, "th")] if head else []) + [row(cells, "td") for cells in rows]
    return f'<table style="border-collapse:collapse">{"".join(lines)}</table>'


def html_titled_table(title: str, head: Sequence[str], rows: Iterable[Sequence[object]], *,
                      right: Collection[int] = ()) -> str:
    """:func:`html_table` under its title in bold, as every command prints its tables under theirs."""
    return html_lines([title], bold=True) + html_table(head, rows, right=right)


def html_lines(lines: Iterable[str], *, bold: bool = False, small: bool = False) -> str:
    """Each line a paragraph, escaped (``bold``: a heading; ``small``: a note)."""
    def one(line: str) -> str:
        text = f"<small>{escape(line)}</small>" if small else escape(line)
        return f'<p style="font-weight:bold">{text}</p>' if bold else f"<p>{text}</p>"
    return "".join(one(line) for line in lines)


__all__ = ["CELL", "html_lines", "html_table", "html_titled_table"]
