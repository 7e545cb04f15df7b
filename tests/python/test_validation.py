"""One validation per kind of value: the CLI and Python refuse the same out-of-range
parameter values with the same message, and Python's arguments are checked like the CLI's
options (TypeError for names of the wrong type, no NaN gradients, no NUL in paths)."""
import json
import math
import subprocess

import numpy as np
import pytest

import softfit


@pytest.fixture(scope="module")
def capture(tmp_path_factory):
    from conftest import SMALL_SCENE
    folder = tmp_path_factory.mktemp("validation")
    scene = folder / "scene.json"
    scene.write_text(json.dumps(SMALL_SCENE))
    softfit.synth(str(scene), str(folder / "capture"), resolution=16, camera_count=2)
    return scene, folder / "capture"


def outside(name):
    lower, upper, lower_open, upper_open = softfit.parameter_range(name)
    values = [float("nan"), upper * 10 if upper > 0 else upper + 1.0]
    values.append(lower if lower_open else lower - (1.0 + abs(lower)))
    return values


def number(v):
    return repr(v) if not math.isnan(v) else "nan"


def test_every_parameter_has_a_range_and_the_cli_and_python_refuse_the_same_values(capture, cli):
    scene_path, observations = capture
    names = softfit.parameter_names()
    assert {"E", "nu", "density", "alpha1", "alpha2", "gravity_y", "ground_offset", "velocity_x",
            "angular_velocity_z"} <= set(names)
    for name in names:
        for value in outside(name):
            scene = softfit.Scene(str(scene_path))
            with pytest.raises(softfit.InputError) as python_error:
                scene.set_parameters(name, [value])
            message = str(python_error.value)
            assert message.startswith("parameter " + name + " = "), message
            tail = message[len("parameter "):]
            run = subprocess.run([cli, "fit", str(scene_path), "--observations", str(observations), "--params", name,
                                  "--start", name + "=" + number(value), "--max-iterations", "1", "-q",
                                  "-o", str(observations.parent / "fit")], capture_output=True, text=True)
            assert run.returncode == 2, (name, value, run.stdout, run.stderr)
            if math.isnan(value):  # refused where --start is parsed: not a finite number
                assert "--start" in run.stderr and name in run.stderr, run.stderr
            else:
                assert "--start " + tail in run.stderr, (name, value, tail, run.stderr)


def test_the_scene_reader_uses_the_same_ranges(small_scene_dict):
    bad = dict(small_scene_dict, damping={"alpha1": -50, "alpha2": 0.01})
    with pytest.raises(softfit.InputError, match=r"damping.alpha1 = -50: must lie in \[0, 1e\+06\]"):
        softfit.scene_from_dict(bad)
    material = dict(small_scene_dict["material"], youngs_modulus=1e-300)
    with pytest.raises(softfit.InputError, match=r"material.youngs_modulus = 1e-300: must lie in \[1e-06, 1e\+15\]"):
        softfit.scene_from_dict(dict(small_scene_dict, material=material))


def test_regions_that_do_not_exist_are_refused(small_scene):
    with pytest.raises(softfit.InputError, match="E@5: no element in material region 5"):
        small_scene.set_parameters("E@5", [3000.0])
    x = small_scene.simulate()["x"]
    with pytest.raises(softfit.InputError, match="E@5: no element in material region 5"):
        small_scene.trajectory_gradient("E@5", np.zeros_like(x))


def test_names_of_the_wrong_type_raise_a_type_error_naming_the_argument(small_scene):
    for names in (5, 3.0, [1, 2], {"E": 1}):
        with pytest.raises(TypeError, match="names"):
            small_scene.set_parameters(names, [3000.0])
    with pytest.raises(TypeError, match="names"):
        small_scene.get_parameters(7)


def test_non_finite_loss_gradients_are_refused(small_scene):
    x = small_scene.simulate()["x"]
    dl_dx = np.zeros_like(x)
    dl_dx[1, 0, 0] = float("nan")
    with pytest.raises(softfit.InputError, match="dl_dx: holds a value that is not finite"):
        small_scene.trajectory_gradient("E", dl_dx)
    with pytest.raises(softfit.InputError, match="dl_dv"):
        small_scene.trajectory_gradient("E", np.zeros_like(x), np.full_like(x, float("inf")))


def test_fit_tolerances_are_checked(small_scene, capture):
    _, observations = capture
    for value in (float("nan"), -1.0, float("inf")):
        with pytest.raises(softfit.InputError, match="gradient_tolerance"):
            softfit.fit(small_scene, str(observations), "E", gradient_tolerance=value)
        with pytest.raises(softfit.InputError, match="cost_tolerance"):
            softfit.fit(small_scene, str(observations), "E", cost_tolerance=value)
    with pytest.raises(softfit.InputError, match="max_iterations"):
        softfit.fit(small_scene, str(observations), "E", max_iterations=0)


def test_a_path_with_a_nul_character_is_refused(tmp_path):
    with pytest.raises(softfit.InputError, match="NUL"):
        softfit.Scene(str(tmp_path / "scene.json") + "\0.txt")
