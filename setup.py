"""Builds the compiled engine, solver._engine, from src_ext/. Everything else is in pyproject.toml."""

import platform
import sys

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

def x86_flags() -> list[str]:
    """popcnt: a single instruction instead of a library call (every x86-64 processor since 2008 has it). bmi2
    (pext, for the table's rank-relative keys) only when the processor building the engine has it: the engine is
    built where it runs (``pip install`` compiles it); without it a portable C loop does the same."""
    if platform.machine().lower() not in ("x86_64", "amd64") or sys.platform == "win32":
        return []
    flags = ["-mpopcnt"]
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            if " bmi2" in cpuinfo.read():
                flags.append("-mbmi2")
    except OSError:
        pass
    return flags


extensions = [
    Extension(
        "solver._engine",
        ["src_ext/_engine.pyx"],
        include_dirs=["src_ext", numpy.get_include()],
        # popcnt: a single instruction instead of a library call (every x86-64 processor since 2008 has it)
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
