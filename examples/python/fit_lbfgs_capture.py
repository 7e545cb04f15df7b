"""Fit Young's modulus and Poisson's ratio with torch.optim.LBFGS against a capture.

    PYTHONPATH=build/python python3 examples/python/fit_lbfgs_capture.py \
        [--observations DIR] [--steps 20] [--start-E 7000 --start-nu 0.35]

The capture is node displacement observations (DIR/displacements.json, what `softfit
synth` writes next to the point clouds). Without --observations the example writes a
noise-free synthetic one first (the scene simulated at its own E and nu). The loss, the
squared distance of the observed nodes to the simulated ones, is written in torch; its
gradient with respect to (E, nu) comes from one adjoint pass per evaluation.
"""
import argparse
import json
import pathlib
import tempfile

import numpy as np
import torch

import softfit
import softfit.torch as st

ROOT = pathlib.Path(__file__).resolve().parents[2]


def write_synthetic_capture(scene, folder):
    run = scene.simulate()
    # every second step: observation frame j is simulation step 2 j
    frames = [{"frame": j, "positions": run["x"][2 * j].tolist()} for j in range(scene.steps // 2 + 1)]
    path = pathlib.Path(folder) / "displacements.json"
    path.write_text(json.dumps({"dt": 2 * scene.dt, "frames": frames}))
    return path


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("scene", nargs="?", default=str(ROOT / "data/scenes/gradcheck_cube_bounce.json"))
    parser.add_argument("--observations", help="capture folder with displacements.json")
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--start-E", type=float, default=4500.0)
    parser.add_argument("--start-nu", type=float, default=0.36)
    parser.add_argument("--iterations", type=int, default=60)
    args = parser.parse_args()

    scene = softfit.Scene(args.scene)
    scene.steps = args.steps
    truth = scene.get_parameters("E,nu")
    with tempfile.TemporaryDirectory() as tmp:
        path = pathlib.Path(args.observations or tmp) / "displacements.json"
        if not args.observations:
            write_synthetic_capture(scene, tmp)
        capture = softfit.load_displacements(str(path))
    stride = round(capture["dt"] / scene.dt) if capture["dt"] > 0 else 1
    frames = [f["frame"] * stride for f in capture["frames"]]
    scene.steps = max(frames)
    target = torch.from_numpy(np.stack([f["positions"] for f in capture["frames"]]))
    weights = torch.tensor([f["weight"] for f in capture["frames"]], dtype=torch.float64)

    # Internal coordinates: log E and atanh(4 nu - 1), so that nu stays in (0, 0.5).
    def physical(q):
        return torch.stack([q[0].exp(), 0.25 * (1 + q[1].tanh())])

    q = torch.tensor([np.log(args.start_E), np.arctanh(4 * args.start_nu - 1)], dtype=torch.float64,
                     requires_grad=True)
    optimizer = torch.optim.LBFGS([q], lr=1, max_iter=args.iterations, tolerance_grad=1e-14,
                                  tolerance_change=1e-30, line_search_fn="strong_wolfe")
    evaluations = []

    def closure():
        optimizer.zero_grad()
        x, _ = st.simulate(scene, ["E", "nu"], physical(q))
        residual = x[frames] - target
        loss = 1e4 * (weights[:, None, None] * residual.square()).sum() / len(frames)
        loss.backward()
        evaluations.append(float(loss))
        return loss

    optimizer.step(closure)
    optimizer.step(closure)  # a restart polishes the last digits
    E, nu = physical(q).tolist()
    print("softfit: %d evaluations, final loss %.3e" % (len(evaluations), evaluations[-1]))
    print("E  = %.9g (start %.6g, capture truth %.6g, rel. error %.2e)" % (E, args.start_E, truth[0], E / truth[0] - 1))
    print("nu = %.9g (start %.6g, capture truth %.6g, rel. error %.2e)" % (nu, args.start_nu, truth[1], nu / truth[1] - 1))


if __name__ == "__main__":
    main()
