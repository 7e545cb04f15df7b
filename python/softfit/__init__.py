"""softfit: differentiable simulation of elastic solids and parameter estimation.

NumPy float64 API over the C++ core (the compiled module softfit._softfit):

    import softfit
    scene = softfit.Scene("data/scenes/bunny_bounce.json")   # or softfit.scene_from_dict({...})
    run = scene.simulate()                  # {"x": (T+1, N, 3), "v": ..., "t": ..., "triangles": (M, 3)}
    scene.set_parameters("E,nu", [6000.0, 0.3])   # the CLI's --params names
    g = scene.trajectory_gradient("E,nu", dl_dx)  # one adjoint pass -> g["gradient"]

softfit.torch holds the torch.autograd.Function. Bad input raises softfit.InputError (a
ValueError), a failed solve softfit.SolveError (a RuntimeError), with the CLI's messages.
"""
import json as _json
import os as _os

from ._softfit import InputError, SolveError, Scene  # noqa: F401
from ._softfit import *  # noqa: F401,F403


def scene_from_dict(document, base_dir=".", source="<dict>"):
    """A Scene from a dict with the scene JSON's keys; relative paths resolve against base_dir."""
    return Scene.from_json(_json.dumps(document), source, _os.fspath(base_dir))


def load_scene(scene, base_dir="."):
    """A Scene from a path (str or os.PathLike) or a dict."""
    if isinstance(scene, dict):
        return scene_from_dict(scene, base_dir)
    return Scene(_os.fspath(scene))
