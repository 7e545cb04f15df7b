"""softfit.Scene: loading, simulate, parameters by name (numpy API)."""
import json

import numpy as np
import pytest

import softfit


def test_load_file_and_dict_give_the_same_trajectory(source_dir):
    path = source_dir / "data/scenes/gradcheck_cube_bounce.json"
    from_file = softfit.Scene(str(path))
    from_dict = softfit.scene_from_dict(json.loads(path.read_text()), base_dir=path.parent)
    from_file.steps = from_dict.steps = 5
    a, b = from_file.simulate(), from_dict.simulate()
    assert np.array_equal(a["x"], b["x"]) and np.array_equal(a["v"], b["v"])


def test_simulate_shapes_and_determinism(small_scene):
    n = small_scene.node_count
    run = small_scene.simulate()
    T = small_scene.steps
    assert run["x"].shape == (T + 1, n, 3) and run["v"].shape == (T + 1, n, 3)
    assert run["x"].dtype == np.float64
    assert run["t"].shape == (T + 1,) and run["t"][-1] == pytest.approx(T * small_scene.dt)
    assert run["triangles"].shape[1] == 3 and run["triangles"].max() < n
    assert np.array_equal(run["x"][0], small_scene.initial_x)
    again = small_scene.simulate()
    assert np.array_equal(run["x"], again["x"]), "two runs differ in their bits"
    assert small_scene.simulate(steps=3)["x"].shape == (4, n, 3)
    assert np.all(np.isfinite(run["x"]))
    # the box falls and is thrown sideways: it moves
    assert np.abs(run["x"][-1] - run["x"][0]).max() > 1e-3


def test_parameters_by_cli_names(small_scene):
    assert small_scene.parameter_names("gravity") == ["gravity_x", "gravity_y", "gravity_z"]
    values = small_scene.get_parameters(["E", "nu", "alpha1", "gravity"])
    assert values == pytest.approx([3e3, 0.3, 0.2, 0.3, -9.81, 0.1])
    before = small_scene.simulate()["x"]
    small_scene.set_parameters("E,nu", [4000.0, 0.25])
    assert small_scene.get_parameters("E,nu") == pytest.approx([4000.0, 0.25])
    assert not np.array_equal(before, small_scene.simulate()["x"])
    small_scene.set_parameters("velocity", [1.0, 0.0, 0.0])
    assert small_scene.get_parameters("velocity") == pytest.approx([1.0, 0.0, 0.0])
    # the rigid initial velocity reaches the initial state (plus the spin)
    assert small_scene.initial_v.mean(axis=0)[0] == pytest.approx(1.0, abs=1e-9)


def test_initial_state_can_be_replaced(small_scene):
    x0 = small_scene.initial_x + np.array([0.0, 0.1, 0.0])
    small_scene.set_initial_state(x0=x0, v0=np.zeros_like(x0))
    run = small_scene.simulate(steps=1)
    assert np.array_equal(run["x"][0], x0) and np.array_equal(run["v"][0], np.zeros_like(x0))
    small_scene.reset_initial_state()
    assert not np.array_equal(small_scene.initial_x, x0)


def test_trajectory_gradient_matches_finite_differences(small_scene):
    """dL/dp from one adjoint pass for L = sum_k w_k . x_k (numpy API, no torch)."""
    names = ["E", "nu", "alpha1", "gravity_y", "velocity_x"]
    T, n = small_scene.steps, small_scene.node_count
    rng = np.random.default_rng(3)
    wx, wv = rng.standard_normal((T + 1, n, 3)), rng.standard_normal((T + 1, n, 3))
    p0 = small_scene.get_parameters(names)

    def loss(p):
        small_scene.set_parameters(names, p)
        run = small_scene.simulate()
        return float((wx * run["x"]).sum() + (wv * run["v"]).sum())

    small_scene.set_parameters(names, p0)
    g = small_scene.trajectory_gradient(names, wx, wv)
    assert g["names"] == names
    assert g["loss"] == pytest.approx(loss(p0), rel=1e-12)
    for i in range(len(names)):
        h = 1e-6 * max(abs(p0[i]), 1.0)
        up, down = p0.copy(), p0.copy()
        up[i] += h
        down[i] -= h
        fd = (loss(up) - loss(down)) / (2 * h)
        assert g["gradient"][i] == pytest.approx(fd, rel=1e-5, abs=1e-7 * max(1.0, abs(fd))), names[i]


def test_gradient_without_parameters_gives_initial_state_gradients(small_scene):
    T, n = small_scene.steps, small_scene.node_count
    wx = np.zeros((T + 1, n, 3))
    wx[0] = 1.0  # L = sum of the initial positions: dL/dx0 = 1, dL/dv0 = 0
    g = small_scene.trajectory_gradient(None, wx)
    assert g["gradient"].shape == (0,)
    assert np.allclose(g["initial_x"], 1.0) and np.allclose(g["initial_v"], 0.0)


def test_trial_parameters_do_not_depend_on_earlier_trials(small_scene):
    small_scene.set_parameters("E,nu,ground", small_scene.get_parameters("E,nu,ground"))  # the base
    values = [3456.7, 0.2345678]
    small_scene.set_parameters("E,nu", values, trial=True)
    first = small_scene.simulate()["x"]
    for other in ([5000.1, 0.41], [1234.5, 0.05]):
        small_scene.set_parameters("E,nu", other, trial=True)
        small_scene.set_parameters("ground_theta", [0.1], trial=True)
    small_scene.set_parameters("E,nu", values, trial=True)
    assert np.array_equal(first, small_scene.simulate()["x"])
    assert small_scene.get_parameters("ground_theta")[0] != 0.1  # the trial ground was undone
