"""Student's t quantile for the 95% intervals of sampled means (single-dummy analysis, advice; other levels for
advice's comparisons with the best, corrected for their number) and the Wilson interval of a share: a mean over few
samples estimates its spread from those samples too, so the normal quantile would make its interval too narrow.
No scipy needed; a match's intervals over its boards (``solver.match``) use it too."""

from __future__ import annotations

import functools
import math
from statistics import NormalDist

from .errors import is_whole_number


#: Up to this many degrees of freedom the t quantile is solved from the exact distribution; beyond, A&S 26.7.5's
#: expansion in 1/df is within 1e-10 of it.
_EXACT_T_DF = 100
#: The normal quantile of a two-sided 95% interval, to double precision (the expansion starts from it).
_Z975 = 1.959963984540054


def _t_within(t: float, degrees_of_freedom: int) -> float:
    """P(|T| <= t) for Student's t with a whole number of degrees of freedom, from the finite series of
    Abramowitz & Stegun 26.7.3 (odd) and 26.7.4 (even): exact up to rounding, and no scipy needed."""
    theta = math.atan(t / math.sqrt(degrees_of_freedom))
    cos2 = math.cos(theta) ** 2
    if degrees_of_freedom % 2:
        term = math.cos(theta)
        series = term if degrees_of_freedom > 1 else 0.0
        for j in range(1, (degrees_of_freedom - 1) // 2):
            term *= cos2 * (2 * j) / (2 * j + 1)
            series += term
        return 2 / math.pi * (theta + math.sin(theta) * series)
    term = series = 1.0
    for j in range(1, degrees_of_freedom // 2):
        term *= cos2 * (2 * j - 1) / (2 * j)
        series += term
    return math.sin(theta) * series


def t_quantile(degrees_of_freedom: int, confidence: float = 0.95) -> float:
    """The two-sided quantile of Student's t for a ``confidence`` interval (0.95: 12.706 for 1 degree of freedom,
    4.303 for 2, 2.042 for 30, towards the normal's 1.960; 0.99: 63.657 for 1). Other levels than 95% are for
    intervals corrected for several comparisons at once (Bonferroni: each at 1 - 0.05 / m)."""
    if not is_whole_number(degrees_of_freedom) or degrees_of_freedom < 1:
        raise ValueError(f"degrees of freedom are a whole number from 1, not {degrees_of_freedom!r}")
    if not isinstance(confidence, float) or not 0.5 <= confidence < 1:
        raise ValueError(f"a confidence level is from 0.5 up to 1, not {confidence!r}")
    df = int(degrees_of_freedom)
    if df <= _EXACT_T_DF:
        return _exact_t_quantile(df, confidence)
    z = _Z975 if confidence == 0.95 else NormalDist().inv_cdf((1 + confidence) / 2)
    return (z + (z ** 3 + z) / 4 / df + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96 / df ** 2
            + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384 / df ** 3
            + (79 * z ** 9 + 776 * z ** 7 + 1482 * z ** 5 - 1920 * z ** 3 - 945 * z) / 92160 / df ** 4)


def t_quantile_95(degrees_of_freedom: int) -> float:
    """The two-sided 95% quantile of Student's t (12.706 for 1 degree of freedom, 4.303 for 2, 2.042 for 30,
    towards the normal's 1.960): a mean over few values estimates its spread from those values too, and the
    normal quantile would make its interval too narrow (3 values: 1.96 where 4.30 is right)."""
    return t_quantile(degrees_of_freedom, 0.95)


@functools.lru_cache(maxsize=None)  # a few levels of at most _EXACT_T_DF entries; a match's progress asks often
def _exact_t_quantile(degrees_of_freedom: int, confidence: float) -> float:
    """The quantile solved by bisection on the exact distribution (to the last bits of a float)."""
    low, high = 0.0, 64.0  # t(1) = 12.7 at 95%; the quantile falls as the degrees of freedom grow
    while _t_within(high, degrees_of_freedom) < confidence:  # 99.5% at 1 degree of freedom: 127
        low, high = high, 2 * high
    for _ in range(100):
        middle = (low + high) / 2
        if _t_within(middle, degrees_of_freedom) < confidence:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def wilson_interval_95(successes: int, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a share ``successes / n``: it stays within 0..1 and has width at 0 of n and
    n of n, where the normal approximation gives none (10 wins in 10 samples: 0.72 .. 1, not 1 .. 1). The end at 0
    of n is 0 and at n of n is 1 exactly (the formula's rounding left 2.8e-17 and 0.9999999999999999 in the JSON)."""
    if n < 1 or not 0 <= successes <= n:
        raise ValueError(f"a share needs 0 <= successes <= n and n >= 1, not {successes} of {n}")
    z = _Z975
    share = successes / n
    centre = (share + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (0.0 if successes == 0 else max(0.0, centre - half)), (1.0 if successes == n else min(1.0, centre + half))


__all__ = ["t_quantile", "t_quantile_95", "wilson_interval_95"]
