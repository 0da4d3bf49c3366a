# cython: language_level=3
"""solver._engine: the compiled engine. At this stage: the card-set primitives, exposed for tests."""

from libc.stdint cimport uint64_t
from cardset cimport popcount, lowest, drop_lowest


def card_count(uint64_t mask):
    """Number of cards in a mask."""
    return popcount(mask)


def card_indices(uint64_t mask):
    """The card indices of a mask, lowest first."""
    result = []
    while mask:
        result.append(lowest(mask))
        mask = drop_lowest(mask)
    return result
