import json
import os
import subprocess

import pytest

import softfit

# The box of tests/apps/reconstruct_command_test.cpp, thrown off the floor.
BOX = {
    "box": {"min": [-0.15, 0.0, -0.15], "max": [0.15, 0.3, 0.15], "cells": [1, 1, 1]},
    "material": {"model": "warped_corotated", "youngs_modulus": 3000, "poisson_ratio": 0.3, "density": 100},
    "gravity": [0, -10, 0],
    "ground": {"normal": [0, 1, 0], "offset": 0},
    "initial": {"velocity": [1.5, 2.0, 0.0]},
    "integrator": {"type": "newmark_theta", "theta": 0.6},
    "time": {"dt": 0.01, "steps": 4},
}


@pytest.fixture
def raw_capture(tmp_path):
    scene = tmp_path / "box.json"
    scene.write_text(json.dumps(BOX))
    capture = tmp_path / "capture"
    made = softfit.synth(str(scene), str(capture), sensor="kinect", background=True, resolution=32, camera_count=4,
                         rest_frames=2)
    assert made["frames"] == 5 and made["cameras"] == 4 and made["points"] > 0
    for name in ("capture.json", "cameras.json", "displacements.json", "truth.json", "run_complete.txt"):
        assert os.path.exists(capture / name), name
    return scene, capture


def test_synth_matches_the_cli(tmp_path, raw_capture, cli):
    scene, capture = raw_capture
    subprocess.run([cli, "synth", str(scene), "--sensor", "kinect", "--background", "--resolution", "32",
                    "--camera-count", "4", "--rest-frames", "2", "-o", str(tmp_path / "cli")], check=True,
                   capture_output=True)
    for name in ("capture.json", "cameras.json", "truth.json"):
        assert (capture / name).read_bytes() == (tmp_path / "cli" / name).read_bytes(), name


def test_synth_point_clouds_and_bad_input(tmp_path, raw_capture):
    scene, _ = raw_capture
    made = softfit.synth(str(scene), str(tmp_path / "points"), camera_count=3, resolution=24, noise=0.001, steps=2)
    assert made["frames"] == 3
    assert len(softfit.load_capture(str(tmp_path / "points"))["frames"]) == 3
    # Python's argument names, not the CLI's options.
    with pytest.raises(softfit.InputError, match="^sensor"):
        softfit.synth(str(scene), str(tmp_path / "bad"), sensor="lidar")
    with pytest.raises(softfit.InputError, match="^noise: .* with sensor / background"):
        softfit.synth(str(scene), str(tmp_path / "bad"), sensor="kinect", noise=0.01)
    with pytest.raises(softfit.InputError, match="missing.json"):
        softfit.synth(str(tmp_path / "missing.json"), str(tmp_path / "bad"))
    assert not os.path.exists(tmp_path / "bad" / "run_complete.txt")


def test_synth_reconstruct_fit_chain(tmp_path, raw_capture):
    scene, capture = raw_capture
    out = tmp_path / "rec"
    summary = softfit.reconstruct(str(capture), str(out), truth_scene=str(scene))
    assert summary["rest_frames"] == 2 and summary["frames"] == 5
    assert summary["ground_normal"][1] == pytest.approx(1.0, abs=1e-3)
    assert summary["volume"] == pytest.approx(0.027, rel=0.3)  # a 30 cm box seen at 32 x 32 pixels
    assert "volume_error_percent" in summary
    for name in ("scene.json", "scene_tets.json", "observations/capture.json", "report/summary.json"):
        assert os.path.exists(out / name), name
    # The reconstructed scene and observations feed the fit as they are.
    fitted = softfit.Scene(str(out / "scene.json"))
    result = softfit.fit(fitted, str(out / "observations"), "E", start={"E": 4000.0}, max_iterations=1)
    assert result["iterations"] >= 1 and result["cost"] >= 0


def test_reconstruct_bad_input_names_the_file(tmp_path, raw_capture):
    _, capture = raw_capture
    with pytest.raises(softfit.InputError, match="missing: capture folder: does not exist"):
        softfit.reconstruct(str(tmp_path / "missing"), str(tmp_path / "out"))
    # Data loss: an output folder holding the capture is refused before any work.
    with pytest.raises(softfit.InputError, match="output .*: holds the input"):
        softfit.reconstruct(str(capture), str(capture.parent))
    with pytest.raises(softfit.InputError, match="output .*: is the input"):
        softfit.reconstruct(str(capture), str(capture))
    assert os.path.exists(capture / "capture.json")
    for bad in (0.0, -1.0, float("nan")):  # as the CLI's --voxel and --cell-size
        with pytest.raises(softfit.InputError, match="voxel = "):
            softfit.reconstruct(str(capture), str(tmp_path / "out"), voxel=bad)
        with pytest.raises(softfit.InputError, match="cell_size = "):
            softfit.reconstruct(str(capture), str(tmp_path / "out"), cell_size=bad)
    with pytest.raises(softfit.InputError, match="sensor"):
        softfit.reconstruct(str(capture), str(tmp_path / "out"), sensor="lidar")
    for frames in (-1, 1001):  # as the CLI's --velocity-frames
        with pytest.raises(softfit.InputError, match="velocity_frames = "):
            softfit.reconstruct(str(capture), str(tmp_path / "out"), velocity_frames=frames)
    with pytest.raises(TypeError):
        softfit.reconstruct(str(capture), str(tmp_path / "out"), angular_velocity="yes")
    assert not os.path.exists(tmp_path / "out")
