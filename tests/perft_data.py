"""Reads tests/data/perft.txt (python-chess style: one block per position, ``perft DEPTH COUNT`` lines)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

PERFT_FILE = Path(__file__).parent / "data" / "perft.txt"


@dataclass
class PerftCase:
    id: str
    game: str = ""
    deal: str = ""
    contract: str = ""
    variant: str = ""
    play: list[str] = field(default_factory=list)
    counts: dict[int, int] = field(default_factory=dict)
    divide_depth: int = 0
    divide: dict[str, int] = field(default_factory=dict)


def load_perft_cases(path: Path = PERFT_FILE) -> list[PerftCase]:
    cases: list[PerftCase] = []
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        key, _, rest = line.partition(" ")
        if key == "id":
            cases.append(PerftCase(rest))
            continue
        case = cases[-1]
        if key in ("game", "deal", "contract", "variant"):
            setattr(case, key, rest)
        elif key == "play":
            case.play = rest.split()
        elif key == "perft":
            depth, count = rest.split()
            case.counts[int(depth)] = int(count)
        elif key == "divide":
            depth, *pairs = rest.split()
            case.divide_depth = int(depth)
            case.divide = {name: int(n) for name, n in (p.split(":") for p in pairs)}
        else:
            raise ValueError(f"{path}: unknown key {key!r}")
    return cases
