"""A loss the C++ side does not have, written in torch and fitted through the adjoint:
2D keypoints (a few tracked nodes) seen by a pinhole camera, robust (Huber) residuals in
pixels.

    PYTHONPATH=build/python python3 examples/python/keypoint_loss_fit.py [--steps 20]

The "video" is synthetic: the scene simulated at its own E and damping alpha1, its
keypoints projected. The fit starts elsewhere and recovers both. Gradients of the torch
loss flow back through softfit.torch.simulate's adjoint backward.
"""
import argparse
import pathlib

import numpy as np
import torch

import softfit
import softfit.torch as st

ROOT = pathlib.Path(__file__).resolve().parents[2]


def look_at(eye, target, up=(0.0, 1.0, 0.0)):
    """World -> camera rotation (rows: right, down, forward) and the eye."""
    f = np.asarray(target, float) - eye
    f /= np.linalg.norm(f)
    r = np.cross(f, up)
    r /= np.linalg.norm(r)
    d = np.cross(f, r)
    return torch.tensor(np.stack([r, d, f])), torch.tensor(eye, dtype=torch.float64)


def project(points, rotation, eye, focal=500.0, centre=(320.0, 240.0)):
    """Pinhole projection of (..., 3) world points to (..., 2) pixels, in torch."""
    c = (points - eye) @ rotation.T
    return focal * c[..., :2] / c[..., 2:3] + torch.tensor(centre, dtype=torch.float64)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("scene", nargs="?", default=str(ROOT / "data/scenes/gradcheck_cube_bounce.json"))
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--keypoints", type=int, default=6)
    parser.add_argument("--iterations", type=int, default=60)
    args = parser.parse_args()

    scene = softfit.Scene(args.scene)
    scene.steps = args.steps
    names = ["E", "alpha1"]
    truth = torch.from_numpy(scene.get_parameters(names))
    rest = scene.rest_positions
    keypoints = np.linspace(0, scene.node_count - 1, args.keypoints).astype(int)
    centre = rest.mean(axis=0)
    rotation, eye = look_at(centre + np.array([0.3, 0.4, 1.5]), centre)

    with torch.no_grad():
        x, _ = st.simulate(scene, names, truth)
        observed = project(x[:, keypoints], rotation, eye)

    q = torch.tensor([np.log(2.0 * float(truth[0])), np.log(0.5 * float(truth[1]))], dtype=torch.float64,
                     requires_grad=True)
    optimizer = torch.optim.LBFGS([q], lr=1, max_iter=args.iterations, tolerance_grad=1e-12,
                                  tolerance_change=1e-30, line_search_fn="strong_wolfe")

    def closure():
        optimizer.zero_grad()
        x, _ = st.simulate(scene, names, q.exp())
        pixels = project(x[:, keypoints], rotation, eye)
        loss = torch.nn.functional.huber_loss(pixels, observed, delta=2.0, reduction="sum")
        loss.backward()
        return loss

    start = q.detach().exp().numpy()
    optimizer.step(closure)
    loss = float(closure())
    fitted = q.detach().exp().numpy()
    print("softfit: keypoint fit, %d keypoints x %d frames, final Huber loss %.3e px^2" %
          (len(keypoints), scene.steps + 1, loss))
    for name, s, f, t in zip(names, start, fitted, truth.numpy()):
        print("%-6s = %.9g (start %.6g, truth %.6g, rel. error %.2e)" % (name, f, s, t, f / t - 1))


if __name__ == "__main__":
    main()
