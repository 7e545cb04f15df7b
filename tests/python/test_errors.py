"""Bad input raises softfit.InputError (a ValueError) with the CLI's message; a failed
solve raises softfit.SolveError (a RuntimeError)."""
import json
import subprocess

import numpy as np
import pytest

import softfit


def test_exception_classes():
    assert issubclass(softfit.InputError, ValueError)
    assert issubclass(softfit.SolveError, RuntimeError)


def test_missing_scene_file_names_it(tmp_path):
    with pytest.raises(softfit.InputError, match="no_such_scene.json"):
        softfit.Scene(str(tmp_path / "no_such_scene.json"))


def test_unknown_key_names_the_field(small_scene_dict):
    small_scene_dict["material"]["youngs_modulos"] = 1.0
    with pytest.raises(ValueError, match="youngs_modulos"):
        softfit.scene_from_dict(small_scene_dict)


def test_same_message_as_the_cli(tmp_path, small_scene_dict, cli):
    small_scene_dict["material"]["poisson_ratio"] = 0.7
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(small_scene_dict))
    with pytest.raises(softfit.InputError) as error:
        softfit.Scene(str(path))
    run = subprocess.run([cli, "simulate", str(path), "-o", str(tmp_path / "out"), "-q"], capture_output=True, text=True)
    assert run.returncode == 2
    assert str(error.value) in run.stderr, (str(error.value), run.stderr)
    assert "poisson_ratio" in str(error.value)


def test_bad_parameters(small_scene):
    with pytest.raises(softfit.InputError, match='unknown parameter "Young"'):
        small_scene.get_parameters("Young")
    with pytest.raises(softfit.InputError, match="nu"):
        small_scene.set_parameters("nu", [0.7])
    with pytest.raises(softfit.InputError, match="2 values for 1 parameters"):
        small_scene.set_parameters("E", [1.0, 2.0])
    with pytest.raises(softfit.InputError, match=r"parameter E = 1e[+]20: must lie in \[1e-06, 1e[+]15\]"):
        small_scene.set_parameters("E", [1e20])
    with pytest.raises(softfit.InputError, match="parameter velocity_x"):
        small_scene.set_parameters("velocity_x", [float("nan")])
    # a refused value leaves the scene as it was
    assert small_scene.get_parameters("nu") == pytest.approx([0.3])


def test_bad_gradient_shapes(small_scene):
    with pytest.raises(softfit.InputError, match=r"dl_dx: shape \(2, 3\)"):
        small_scene.trajectory_gradient("E", np.zeros((2, 3)))
    with pytest.raises(softfit.InputError, match="x0"):
        small_scene.set_initial_state(x0=np.zeros((1, 3)))


def test_failed_solve_raises_solve_error(small_scene_dict):
    small_scene_dict["integrator"]["max_iterations"] = 1
    scene = softfit.scene_from_dict(small_scene_dict)
    with pytest.raises(softfit.SolveError, match="step"):
        scene.simulate()
