"""Builds the compiled engine, solver._engine, from src_ext/. Everything else is in pyproject.toml."""

import platform
import sys


def fast_pext(cpuinfo: str) -> bool:
    """Whether the processor described by /proc/cpuinfo has bmi2 with pext and pdep in one instruction's time: every
    Intel processor with bmi2, AMD from family 0x19 (Zen 3). Zen 1 and 2 run them as microcode, hundreds of cycles
    on a pack's worth of bits, slower than the branch-free C that replaces them (src_ext/cardset.pxd)."""
    if " bmi2" not in cpuinfo:
        return False
    if "AuthenticAMD" not in cpuinfo:
        return True
    for line in cpuinfo.splitlines():
        if line.startswith("cpu family"):
            return int(line.split(":")[1]) >= 0x19
    return False


def x86_flags() -> list[str]:
    """popcnt: a single instruction instead of a library call (every x86-64 processor since 2008 has it). bmi2
    (pext and pdep, for the table's rank-relative keys and the equivalent cards' groups) only when the processor
    building the engine runs them fast (``fast_pext``): the engine is built where it runs (``pip install`` compiles
    it); without it the table keys use portable branch-free C (cardset.pxd) and the equivalent cards' groups a loop over
    the cards (movegen.pxd)."""
    if platform.machine().lower() not in ("x86_64", "amd64") or sys.platform == "win32":
        return []
    flags = ["-mpopcnt"]
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            if fast_pext(cpuinfo.read()):
                flags.append("-mbmi2")
    except (OSError, ValueError):
        pass
    return flags


# a test imports fast_pext and x86_flags without building, where Cython is not installed (tests/test_setup_flags.py);
# pip's build backend runs this file as __main__, in an environment with pyproject.toml's build requirements
if __name__ == "__main__":
    from Cython.Build import cythonize
    from setuptools import Extension, setup

    extensions = [
        Extension(
            "solver._engine",
            ["src_ext/_engine.pyx"],
            include_dirs=["src_ext"],
            extra_compile_args=["-O3"] + x86_flags(),
        )
    ]

    setup(
        ext_modules=cythonize(
            extensions,
            include_path=["src_ext"],
            compiler_directives={"language_level": 3, "boundscheck": False, "wraparound": False, "cdivision": True},
        )
    )
