import copy
import os
import pathlib

import pytest

SOURCE_DIR = pathlib.Path(os.environ.get("SOFTFIT_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))

# gradcheck_cube_bounce.json, shorter: a corotated 2x1x1-cell box (12 nodes) thrown at a
# tilted ground plane, in contact from the first steps; Newton converged tightly so that
# finite differences of the trajectory are accurate.
SMALL_SCENE = {
    "box": {"min": [-0.2, 0.03, -0.2], "max": [0.2, 0.33, 0.2], "cells": [2, 1, 1]},
    "material": {"model": "corotated", "youngs_modulus": 3e3, "poisson_ratio": 0.3, "density": 100},
    "gravity": [0.3, -9.81, 0.1],
    "damping": {"alpha1": 0.2, "alpha2": 0.01},
    "ground": {"normal": [0.05, 1.0, 0.0], "offset": 0.0, "stiffness": 1.5e5, "sharpness": 100},
    "initial": {"velocity": [0.2, -3.0, 0.1], "angular_velocity": [0.5, 0.3, 2.0]},
    "integrator": {"type": "backward_euler", "tolerance": 1e-13, "max_iterations": 200},
    "time": {"dt": 0.01, "steps": 8},
}


@pytest.fixture
def small_scene_dict():
    return copy.deepcopy(SMALL_SCENE)


@pytest.fixture
def small_scene(small_scene_dict):
    import softfit
    return softfit.scene_from_dict(small_scene_dict)


@pytest.fixture
def source_dir():
    return SOURCE_DIR


@pytest.fixture
def cli():
    path = os.environ.get("SOFTFIT_BINARY")
    if not path or not os.path.exists(path):
        pytest.skip("the softfit CLI is not built (SOFTFIT_BINARY unset)")
    return path
