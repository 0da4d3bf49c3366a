"""The engine's bit compression (``compress``/``expand``, the table keys' packing, src_ext/cardset.pxd) and its n-th
set bit against plain Python definitions, on random words and masks of every density: built without BMI2 they are
Hacker's Delight's six-round shifts and a loop, whose every bit must land where pext and pdep would put it. The
portable versions are compiled into every build (``stich_soft_*``) and the hooks take ``portable``, so both paths
are tested wherever the engine is built."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from typing import NamedTuple

import pytest

from solver import _engine

WORDS = 64


def reference_compress(word: int, mask: int) -> int:
    """The bits of ``word`` under ``mask``, packed down from bit 0 in the mask's order (pext)."""
    packed = place = 0
    for bit in range(WORDS):
        if mask >> bit & 1:
            packed |= (word >> bit & 1) << place
            place += 1
    return packed


def reference_expand(word: int, mask: int) -> int:
    """The low bits of ``word`` placed at ``mask``'s set bits, lowest first (pdep)."""
    spread = place = 0
    for bit in range(WORDS):
        if mask >> bit & 1:
            spread |= (word >> place & 1) << bit
            place += 1
    return spread


def random_words(seed: str, count: int) -> list[tuple[int, int]]:
    """(word, mask) pairs whose masks run from nearly empty to nearly full, plus the edge masks."""
    rng = random.Random(seed)
    full = (1 << WORDS) - 1
    pairs = [(full, 0), (full, full), (0, full), (full, 1 << 63), (full, 1), (0x5555555555555555, full)]
    for _ in range(count):
        density = rng.random()
        mask = sum(1 << bit for bit in range(WORDS) if rng.random() < density)
        pairs.append((rng.getrandbits(WORDS), mask))
    return pairs


class Bits(NamedTuple):
    """One build path's hooks: the engine's own (pext and pdep with BMI2) or the portable C."""

    compress: Callable[[int, int], int]
    compress_words: Callable[[list[int], int], list[int]]
    expand: Callable[[int, int], int]
    nth: Callable[[int, int], int]


def path_hooks(portable: bool) -> Bits:
    """The engine's hooks on one path: ``portable`` the C rounds every build compiles, else the build's own."""
    return Bits(partial(_engine.compress_bits, portable=portable), partial(_engine.compress_words, portable=portable),
                partial(_engine.expand_bits, portable=portable), partial(_engine.nth_bit, portable=portable))


ENGINE = path_hooks(portable=False)
PORTABLE = path_hooks(portable=True)
PATHS = pytest.mark.parametrize("bits", [ENGINE, PORTABLE], ids=["engine", "portable"])


@PATHS
def test_compress_matches_pext(bits: Bits) -> None:
    pairs = random_words("compress", 3000)
    results = [bits.compress(word, mask) for word, mask in pairs]
    assert results == [reference_compress(word, mask) for word, mask in pairs]
    assert bits.compress(0b1011_0110, 0b1111_0000) == 0b1011
    assert bits.compress(1 << 63, 1 << 63 | 1) == 0b10


@PATHS
def test_one_prepared_mask_packs_many_words(bits: Bits) -> None:
    rng = random.Random("words")
    for _, mask in random_words("prepared", 200):
        words = [rng.getrandbits(WORDS) for _ in range(8)] + [0, (1 << WORDS) - 1, mask]
        assert bits.compress_words(words, mask) == [reference_compress(word, mask) for word in words]


@PATHS
def test_expand_matches_pdep_and_undoes_compress(bits: Bits) -> None:
    pairs = random_words("expand", 3000)
    results = [bits.expand(word, mask) for word, mask in pairs]
    assert results == [reference_expand(word, mask) for word, mask in pairs]
    assert all(bits.expand(bits.compress(word, mask), mask) == word & mask for word, mask in pairs)
    assert bits.expand(0b1011, 0b1111_0000) == 0b1011_0000


@PATHS
def test_nth_bit_is_the_nth_set_bit_alone(bits: Bits) -> None:
    for _, mask in random_words("nth", 300):
        places = [bit for bit in range(WORDS) if mask >> bit & 1]
        for n in range(WORDS):
            assert bits.nth(mask, n) == (1 << places[n] if n < len(places) else 0)
