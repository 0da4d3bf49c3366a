"""The engine's compiler flags, chosen by setup.py from the building processor's /proc/cpuinfo: bmi2 (pext and pdep)
only where they run in one instruction's time, every Intel with bmi2 and AMD from Zen 3 (family 25); Zen 1 and 2
(family 23) run them as microcode, slower than the portable C. setup.py is imported by path: its ``setup()`` runs only
as a script, so importing it builds nothing and needs no Cython."""

from __future__ import annotations

import importlib.util
import platform
from pathlib import Path
from types import ModuleType

import pytest

SETUP = Path(__file__).resolve().parent.parent / "setup.py"


@pytest.fixture(scope="module")
def setup_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("stich_setup", SETUP)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def cpuinfo(vendor: str, family: int, flags: str) -> str:
    """One processor's block of /proc/cpuinfo, as Linux writes it (tab, colon, value)."""
    return (f"processor\t: 0\nvendor_id\t: {vendor}\ncpu family\t: {family}\nmodel\t\t: 1\n"
            f"model name\t: a processor\nflags\t\t: fpu sse2 popcnt{flags} avx2\n\n")


@pytest.mark.parametrize(("vendor", "family", "flags", "fast"), [
    ("GenuineIntel", 6, " bmi1 bmi2", True),  # every Intel with bmi2
    ("AuthenticAMD", 23, " bmi1 bmi2", False),  # Zen 1 and 2: pext and pdep in microcode
    ("AuthenticAMD", 25, " bmi1 bmi2", True),  # Zen 3
    ("AuthenticAMD", 26, " bmi1 bmi2", True),  # Zen 5
    ("GenuineIntel", 6, " bmi1", False),  # no bmi2 at all
    ("AuthenticAMD", 25, "", False),
])
def test_fast_pext_is_every_intel_with_bmi2_and_amd_from_zen_3(setup_module: ModuleType, vendor: str, family: int,
                                                               flags: str, fast: bool) -> None:
    assert setup_module.fast_pext(cpuinfo(vendor, family, flags)) is fast


def test_an_amd_cpuinfo_without_a_family_line_is_not_taken_for_fast(setup_module: ModuleType) -> None:
    assert setup_module.fast_pext("vendor_id\t: AuthenticAMD\nflags\t\t: popcnt bmi2\n") is False


def test_x86_flags_always_ask_for_popcnt_and_for_bmi2_only_where_pext_is_fast(setup_module: ModuleType) -> None:
    flags = setup_module.x86_flags()
    if platform.machine().lower() not in ("x86_64", "amd64"):
        assert flags == []
        return
    assert flags[0] == "-mpopcnt"
    info = Path("/proc/cpuinfo")  # none on macOS: popcnt alone
    fast = info.exists() and setup_module.fast_pext(info.read_text())
    assert flags == (["-mpopcnt", "-mbmi2"] if fast else ["-mpopcnt"])


def test_x86_flags_are_empty_off_x86(setup_module: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(setup_module.platform, "machine", lambda: "aarch64")
    assert setup_module.x86_flags() == []
