"""The examples in examples/python/ run (small sizes) and do what they say."""
import os
import re
import subprocess
import sys

import pytest

EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "python")


def run_example(name, *args):
    run = subprocess.run([sys.executable, os.path.join(EXAMPLES, name)] + list(args), capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    return run.stdout


def relative_errors(output):
    return {m.group(1): float(m.group(2)) for m in re.finditer(r"^(\w+)\s+= .*rel\. error (\S+)\)", output, re.M)}


def test_simulate_and_plot_writes_a_png(tmp_path):
    pytest.importorskip("matplotlib", reason="the plot example needs matplotlib (python3-matplotlib)")
    png = tmp_path / "plot.png"
    run_example("simulate_and_plot.py", "-o", str(png), "--steps", "10")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_lbfgs_fit_against_a_capture():
    pytest.importorskip("torch", reason="the LBFGS example needs PyTorch (python3-torch)")
    errors = relative_errors(run_example("fit_lbfgs_capture.py", "--steps", "10"))
    assert set(errors) == {"E", "nu"}
    assert all(abs(e) < 1e-6 for e in errors.values()), errors


def test_keypoint_loss_fit():
    pytest.importorskip("torch", reason="the keypoint example needs PyTorch (python3-torch)")
    errors = relative_errors(run_example("keypoint_loss_fit.py", "--steps", "12"))
    assert set(errors) == {"E", "alpha1"}
    assert all(abs(e) < 1e-4 for e in errors.values()), errors
