# Card sets as 64-bit masks: bit i is card i of the game's pack. The primitives every engine file uses.
#
# Counting, the lowest card and dropping it are one instruction each (popcnt, tzcnt). ``compress`` packs the bits of
# a word that lie under a mask down to the low bits (the table keys are written this way, search.pxd): the pext
# instruction where the processor building the engine has it (setup.py), else a loop over the mask's bits;
# ``expand`` undoes it (pdep).
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

cdef extern from *:
    """
    #include <stdint.h>
    #if defined(__BMI2__)
    #include <immintrin.h>
    #define STICH_FAST_PEXT 1
    static inline uint64_t stich_pext(uint64_t x, uint64_t m) { return _pext_u64(x, m); }
    static inline uint64_t stich_pdep(uint64_t x, uint64_t m) { return _pdep_u64(x, m); }
    #else
    #define STICH_FAST_PEXT 0
    static inline uint64_t stich_pdep(uint64_t x, uint64_t m) {
        uint64_t r = 0, b = 1;
        for (; m; m &= m - 1, b <<= 1)
            if (x & b) r |= m & (~m + 1);
        return r;
    }
    static inline uint64_t stich_pext(uint64_t x, uint64_t m) {
        uint64_t r = 0, b = 1;
        for (; m; m &= m - 1, b <<= 1)
            if (x & m & (~m + 1)) r |= b;
        return r;
    }
    #endif
    """
    uint64_t stich_pext(uint64_t x, uint64_t m) nogil
    uint64_t stich_pdep(uint64_t x, uint64_t m) nogil
    const int STICH_FAST_PEXT                 # 1: compress and expand are one instruction each


cdef inline uint64_t expand(uint64_t x, uint64_t mask) noexcept nogil:
    """The low bits of ``x`` spread to the places of ``mask``'s set bits (compress undone; BMI2's pdep)."""
    return stich_pdep(x, mask)


cdef inline uint64_t compress(uint64_t x, uint64_t mask) noexcept nogil:
    """The bits of ``x`` at the places of ``mask``'s set bits, packed together from bit 0 up (one instruction where
    the processor has BMI2's pext)."""
    return stich_pext(x, mask)


cdef inline uint64_t nth(uint64_t mask, int n) noexcept nogil:
    """The ``n``-th set bit of ``mask`` (from 0, the lowest) alone, 0 when it has fewer (BMI2's pdep: one
    instruction)."""
    return stich_pdep((<uint64_t>1) << n, mask)
