"""The package ships ``py.typed``, so its annotations are a promise to every user who type-checks code calling it:
mypy must find none of them wrong (``[tool.mypy]`` in pyproject.toml says what it checks)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow  # a cold mypy run of the whole package, run apart as `mypy solver cli` while working
def test_solver_and_cli_type_check(tmp_path):
    result = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache")], cwd=ROOT,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Success: no issues found" in result.stdout
