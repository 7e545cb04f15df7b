"""The committed type stubs (python/softfit/_softfit.pyi) match the compiled module:
scripts/make_python_stubs.py --check regenerates them from its signatures and compares."""
import os
import pathlib
import subprocess
import sys

import softfit

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "make_python_stubs.py"


def test_the_stubs_match_the_compiled_module():
    package_parent = os.path.dirname(os.path.dirname(softfit.__file__))
    env = dict(os.environ, PYTHONPATH=package_parent)
    run = subprocess.run([sys.executable, str(SCRIPT), "--check"], capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_stubs_are_installed_beside_the_module():
    folder = pathlib.Path(softfit.__file__).parent
    assert (folder / "_softfit.pyi").is_file()
    assert (folder / "py.typed").is_file()
    text = (folder / "_softfit.pyi").read_text()
    for name in ("class Scene:", "def fit(", "def reconstruct(", "def parameter_range("):
        assert name in text, name
