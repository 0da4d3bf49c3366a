# Card sets as 64-bit masks: bit i is card i of the game's pack. The primitives every engine file uses.
from libc.stdint cimport uint64_t

cdef inline int popcount(uint64_t mask) noexcept nogil:
    return __builtin_popcountll(mask)

cdef inline int lowest(uint64_t mask) noexcept nogil:
    """Index of the lowest set bit; mask must not be 0."""
    return __builtin_ctzll(mask)

cdef inline uint64_t drop_lowest(uint64_t mask) noexcept nogil:
    return mask & (mask - 1)

cdef extern from *:
    int __builtin_popcountll(unsigned long long) nogil
    int __builtin_ctzll(unsigned long long) nogil
