"""Builds the compiled engine, solver._engine, from src_ext/. Everything else is in pyproject.toml."""

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

extensions = [
    Extension(
        "solver._engine",
        ["src_ext/_engine.pyx"],
        include_dirs=["src_ext", numpy.get_include()],
        extra_compile_args=["-O3"],
    )
]

setup(
    ext_modules=cythonize(
        extensions,
        include_path=["src_ext"],
        compiler_directives={"language_level": 3, "boundscheck": False, "wraparound": False, "cdivision": True},
    )
)
