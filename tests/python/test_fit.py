"""softfit.fit (the `softfit fit` driver) with a per-iteration callback; captures."""
import json
import subprocess

import numpy as np
import pytest

import softfit


def write_displacements(scene, folder):
    run = scene.simulate()
    frames = [{"frame": k, "positions": run["x"][k].tolist()} for k in range(scene.steps + 1)]
    (folder / "displacements.json").write_text(json.dumps({"dt": scene.dt, "frames": frames}))


def test_fit_with_callback_recovers_E_and_nu(tmp_path, small_scene):
    write_displacements(small_scene, tmp_path)
    assert softfit.load_displacements(str(tmp_path / "displacements.json"))["frames"][3]["positions"].shape == (
        small_scene.node_count, 3)
    records = []
    result = softfit.fit(small_scene, str(tmp_path), "E,nu", start={"E": 4000.0, "nu": 0.25},
                         callback=records.append, max_iterations=50)
    assert result["names"] == ["E", "nu"]
    assert result["start"] == pytest.approx([4000.0, 0.25])
    assert result["params"] == pytest.approx([3e3, 0.3], rel=1e-6)
    assert len(records) >= 2 and records[0]["iteration"] == 0
    assert records[0]["params"] == pytest.approx([4000.0, 0.25])
    assert records[-1]["cost"] < records[0]["cost"]
    # the scene keeps the fitted values
    assert small_scene.get_parameters("E,nu") == pytest.approx(result["params"], rel=1e-12)  # through the Lame parameters


def test_hessian_preconditioned_fit_recovers_E_and_nu(tmp_path, small_scene):
    write_displacements(small_scene, tmp_path)
    records = []
    result = softfit.fit(small_scene, str(tmp_path), "E,nu", start={"E": 4000.0, "nu": 0.25},
                         precondition="hessian", callback=records.append, max_iterations=50)
    assert result["params"] == pytest.approx([3e3, 0.3], rel=1e-6)
    # iteration 0 comes after the start and one evaluation per parameter for the Hessian
    assert records[0]["iteration"] == 0 and records[0]["evaluations"] == 3
    with pytest.raises(softfit.InputError, match="precondition"):
        softfit.fit(small_scene, str(tmp_path), "E", precondition="newton")


def test_gauss_newton_fit_recovers_E_and_nu(tmp_path, small_scene):
    write_displacements(small_scene, tmp_path)
    result = softfit.fit(small_scene, str(tmp_path), "E,nu", start={"E": 4000.0, "nu": 0.25},
                         precondition="gauss-newton", max_iterations=12)
    assert result["params"] == pytest.approx([3e3, 0.3], rel=1e-6)
    # each iteration's J: one forward run at the point and one per parameter
    assert result["forward_runs_for_jacobian"] >= 3 * result["iterations"]
    assert result["forward_runs_for_jacobian"] > 0


def test_an_exception_in_the_callback_stops_the_fit(tmp_path, small_scene):
    write_displacements(small_scene, tmp_path)

    def stop(record):
        if record["iteration"] == 1:
            raise StopIteration("enough")

    with pytest.raises(StopIteration, match="enough"):
        softfit.fit(small_scene, str(tmp_path), "E", start={"E": 4000.0}, callback=stop)


def test_fit_bad_input(tmp_path, small_scene):
    with pytest.raises(softfit.InputError, match="not a folder"):
        softfit.fit(small_scene, str(tmp_path / "missing"), "E")
    with pytest.raises(softfit.InputError, match="displacements.json"):
        softfit.fit(small_scene, str(tmp_path), "E")
    write_displacements(small_scene, tmp_path)
    with pytest.raises(softfit.InputError, match="not among params"):
        softfit.fit(small_scene, str(tmp_path), "E", start={"nu": 0.2})
    with pytest.raises(softfit.InputError, match="capture.json"):
        softfit.load_capture(str(tmp_path))


def test_capture_from_synth_loads_and_fits(tmp_path, small_scene_dict, cli):
    small_scene_dict["time"]["steps"] = 4
    scene_path = tmp_path / "scene.json"
    scene_path.write_text(json.dumps(small_scene_dict))
    capture_dir = tmp_path / "capture"
    subprocess.run([cli, "synth", str(scene_path), "-o", str(capture_dir), "--camera-count", "3", "--resolution", "32"],
                   check=True, capture_output=True)
    capture = softfit.load_capture(str(capture_dir))
    assert len(capture["frames"]) == 5 and capture["dt"] == pytest.approx(0.01)
    assert all(f["points"].shape[1] == 3 and len(f["points"]) > 0 for f in capture["frames"])
    scene = softfit.Scene(str(scene_path))
    result = softfit.fit(scene, str(capture_dir), "E", start={"E": 3300.0}, max_iterations=3)
    assert result["cost"] >= 0 and result["iterations"] >= 1
    assert abs(result["params"][0] - 3e3) < 300.0  # moved towards the truth
    # The closest-point cost is a least-squares cost: standard errors and correlations.
    assert result["standard_errors"].shape == (1,) and result["standard_errors"][0] > 0.0
    assert result["correlation"].shape == (1, 1) and result["correlation"][0, 0] == 1.0
    assert result["sigma"] > 0.0
    robust = softfit.fit(scene, str(capture_dir), "E", start={"E": 3300.0}, huber=0.01, max_iterations=1)
    assert robust["standard_errors"] is None and "least-squares" in robust["uncertainty_unavailable"]


def _assert_point_cost_recovers_e(scene, capture_dir, point_cost):
    # The noise-aware point costs fit E from 3300 to within 5% of 3000 with the
    # gradient-only L-BFGS, and refuse to run without noise_sigma.
    result = softfit.fit(scene, str(capture_dir), "E", start={"E": 3300.0}, point_cost=point_cost,
                         noise_sigma=0.003, max_iterations=10)
    assert result["optimizer"] == "gradient-only-lbfgs"
    assert abs(result["params"][0] - 3e3) < 150.0
    with pytest.raises(softfit.InputError, match="point_cost .* needs the points' noise sigma \\(noise_sigma > 0\\)"):
        softfit.fit(scene, str(capture_dir), "E", point_cost=point_cost)


def test_mixture_cost_fits_a_noisy_capture(tmp_path, small_scene_dict, cli):
    # point_cost="mixture": the points' likelihood under noise_sigma, rendered with the
    # capture's cameras.json (written by synth); it needs the sigma.
    small_scene_dict["time"]["steps"] = 4
    scene_path = tmp_path / "scene.json"
    scene_path.write_text(json.dumps(small_scene_dict))
    capture_dir = tmp_path / "capture"
    subprocess.run([cli, "synth", str(scene_path), "-o", str(capture_dir), "--camera-count", "3", "--resolution", "32",
                    "--noise", "0.003"], check=True, capture_output=True)
    _assert_point_cost_recovers_e(softfit.Scene(str(scene_path)), capture_dir, "mixture")


def test_pixel_cost_fits_one_depth_camera(tmp_path, small_scene_dict):
    # point_cost="pixel": each point against the model's point at its camera pixel; a
    # Kinect-like camera's depth images keep the pixels (one depth image per frame).
    small_scene_dict["time"]["steps"] = 6
    scene_path = tmp_path / "scene.json"
    scene_path.write_text(json.dumps(small_scene_dict))
    capture_dir = tmp_path / "raw"
    softfit.synth(str(scene_path), str(capture_dir), sensor="kinect", rest_frames=0, camera_count=1, resolution=40)
    _assert_point_cost_recovers_e(softfit.Scene(str(scene_path)), capture_dir, "pixel")
