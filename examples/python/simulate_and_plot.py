"""Simulate a scene from Python and plot it with matplotlib (PNG, Agg backend).

    PYTHONPATH=build/python python3 examples/python/simulate_and_plot.py \
        data/scenes/bunny_bounce.json -o bunny.png [--steps 40]

Left: the height of the lowest node and of the centre of mass over time; right: the
surface at three frames.
"""
import argparse
import pathlib

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import softfit  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("scene", nargs="?", default=str(ROOT / "data/scenes/bunny_bounce.json"))
    parser.add_argument("-o", "--output", default="simulation.png")
    parser.add_argument("--steps", type=int, default=None, help="override the scene's step count")
    args = parser.parse_args()

    scene = softfit.Scene(args.scene)
    if args.steps is not None:
        scene.steps = args.steps
    run = scene.simulate()
    x, t, triangles = run["x"], run["t"], run["triangles"]
    masses = scene.masses
    up = np.argmax(np.abs(scene.get_parameters("gravity")))  # the axis gravity acts along
    centre = (x[:, :, up] * masses).sum(axis=1) / masses.sum()

    fig = plt.figure(figsize=(10, 4))
    ax = fig.add_subplot(1, 2, 1)
    ax.plot(t, x[:, :, up].min(axis=1), label="lowest node")
    ax.plot(t, centre, label="centre of mass")
    ax.set_xlabel("time (s)")
    ax.set_ylabel("height (m)")
    ax.legend()
    ax3 = fig.add_subplot(1, 2, 2, projection="3d")
    for frame, colour in zip((0, len(t) // 2, len(t) - 1), ("tab:blue", "tab:orange", "tab:green")):
        if scene.is_grid:
            points = scene.surface_positions(x[frame])
        else:
            points = x[frame]
        ax3.plot_trisurf(points[:, 0], points[:, 2], points[:, 1], triangles=triangles, color=colour, alpha=0.5)
    ax3.set_title("frames 0, %d, %d" % (len(t) // 2, len(t) - 1))
    fig.tight_layout()
    fig.savefig(args.output, dpi=80)
    print("softfit: %s, %d steps, %d nodes -> %s" % (scene.source, scene.steps, scene.node_count, args.output))


if __name__ == "__main__":
    main()
