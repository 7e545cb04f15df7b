"""softfit.FaceModel: the face model's solve and activation fits (on `softfit face generate`'s face)."""
import json
import subprocess

import numpy as np
import pytest

import softfit


@pytest.fixture
def face_folder(tmp_path, cli):
    subprocess.run([cli, "face", "generate", "-o", str(tmp_path / "face"), "--targets", "1"], check=True,
                   capture_output=True)
    return tmp_path / "face"


def test_solve_and_fit(face_folder):
    face = softfit.FaceModel(str(face_folder / "model.json"))
    assert face.tet_count > 0 and len(face.muscle_names) > 0
    rest = np.tile([1.0, 0, 0, 1, 0, 1], (len(face.muscle_names), 1))
    x_rest = face.solve(rest)
    assert x_rest.shape == (face.node_count, 3)
    contracted = rest.copy()
    contracted[0] = [0.8, 0, 0, 1.1, 0, 1.1]
    x = face.solve(contracted)
    assert np.abs(x - x_rest).max() > 1e-5
    assert np.array_equal(x, face.solve(contracted))
    per_tet = face.solve(np.tile([1.0, 0, 0, 1, 0, 1], (face.tet_count, 1)), per_tet=True)
    assert np.allclose(per_tet, x_rest, atol=1e-9)
    fits = face.fit_activations(str(face_folder / "targets"))
    assert [f["name"] for f in fits] == ["expression_0"]
    assert fits[0]["activations"].shape == (len(face.muscle_names), 6)
    assert fits[0]["mean_error"] < 1e-3  # metres; the CLI test's limit is 1% of the face's size


def test_face_bad_input(face_folder, tmp_path):
    with pytest.raises(softfit.InputError, match="model.json"):
        softfit.FaceModel(str(tmp_path / "model.json"))
    face = softfit.FaceModel(str(face_folder / "model.json"))
    with pytest.raises(softfit.InputError, match=r"activations: shape \(1, 6\)"):
        face.solve(np.ones((1, 6)))
    with pytest.raises(softfit.InputError, match="jaw"):
        face.solve(np.tile([1.0, 0, 0, 1, 0, 1], (len(face.muscle_names), 1)), jaw=np.zeros(3))


def test_fit_geometry_keeps_the_fitted_s(face_folder):
    face = softfit.FaceModel(str(face_folder / "model.json"))
    rounds = []
    fit = face.fit_geometry(str(face_folder / "targets"), rounds=1, geometry_iterations=3, max_iterations=10,
                            callback=rounds.append)
    assert len(fit["history"]) == 1 and rounds == fit["history"]
    assert [t["name"] for t in fit["targets"]] == ["expression_0"]
    assert fit["targets"][0]["mean_error"] < 1e-3
    assert fit["targets"][0]["positions"].shape == (face.node_count, 3)
    with pytest.raises(softfit.InputError, match="rounds"):
        face.fit_geometry(str(face_folder / "targets"), rounds=0)

    def stop(_):
        raise RuntimeError("stop here")
    with pytest.raises(RuntimeError, match="stop here"):
        face.fit_geometry(str(face_folder / "targets"), rounds=2, geometry_iterations=2, max_iterations=5, callback=stop)


def test_ply_scans_fit_like_obj_scans(face_folder):
    # Targets may be PLY point clouds, as in `softfit face solve` (face_io readScanPoints).
    targets = face_folder / "targets"
    spec = json.loads((targets / "targets.json").read_text())
    for t in spec["targets"]:
        vertices = [line.split()[1:4] for line in (targets / t["file"]).read_text().splitlines()
                    if line.startswith("v ")]
        ply = targets / (t["name"] + ".ply")
        ply.write_text("ply\nformat ascii 1.0\nelement vertex %d\nproperty double x\nproperty double y\n"
                       "property double z\nend_header\n" % len(vertices) + "".join(" ".join(v) + "\n" for v in vertices))
        t["file"] = ply.name
    (targets / "targets.json").write_text(json.dumps(spec))
    face = softfit.FaceModel(str(face_folder / "model.json"))
    fits = face.fit_activations(str(targets), max_iterations=10)
    assert fits[0]["name"] == "expression_0" and fits[0]["mean_error"] < 1e-3
