"""The post-mortem's matplotlib Figure (:class:`PlotFigure`), apart from solver/plot.py because it imports matplotlib
at its top: solver.plot is imported by ``stich postmortem`` whether it plots or not, and this module only by
:func:`solver.plot.plot_figure`."""

from __future__ import annotations

import io

from matplotlib.figure import Figure


class PlotFigure(Figure):
    """The post-mortem's Figure, which a notebook shows as its picture (``_repr_png_``): it is made without pyplot,
    so that no backend is chosen, and a plain Figure made so has no picture for Jupyter unless pyplot's inline
    backend is loaded; pyplot's own figures are drawn by that backend, not by this method."""

    def _repr_png_(self) -> bytes:
        buffer = io.BytesIO()
        self.savefig(buffer, format="png")
        return buffer.getvalue()


__all__ = ["PlotFigure"]
