"""Builds the compiled engine, solver._engine, from src_ext/. Everything else is in pyproject.toml."""

import platform
import sys

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

extensions = [
    Extension(
        "solver._engine",
        ["src_ext/_engine.pyx"],
        include_dirs=["src_ext", numpy.get_include()],
        # popcnt: a single instruction instead of a library call (every x86-64 processor since 2008 has it)
        extra_compile_args=["-O3"] + (["-mpopcnt"] if platform.machine().lower() in ("x86_64", "amd64")
                                      and sys.platform != "win32" else []),
    )
]

setup(
    ext_modules=cythonize(
        extensions,
        include_path=["src_ext"],
        compiler_directives={"language_level": 3, "boundscheck": False, "wraparound": False, "cdivision": True},
    )
)
