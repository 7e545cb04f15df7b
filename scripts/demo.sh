#!/usr/bin/env bash
# Installs dependencies, builds softfit (Release) and runs the main job, the raw-capture
# path (issue 20): a soft 0.3 m box on a cut-cell grid rests on the ground, is thrown, lands
# and bounces (bench/reconstruct_scenes/box_throw_grid.json; it starts at the penalty
# contact's equilibrium, so the floor does not push it at t = 0);
#   1. softfit synth: a raw capture of it by 4 simulated Kinect v1 cameras at 320 x 240
#      (16-bit depth PNGs with noise, holes and flying pixels, the floor, a wall and
#      clutter in view, no masks; 5 rest frames, 51 motion frames)  -> results/default/capture
#   2. softfit reconstruct: ground plane, segmentation, fused rest shape, initial
#      velocity; scene.json + observations + report (no true mesh used)
#                                                                  -> results/default/reconstruction
#   3. softfit fit: Young's modulus, Poisson ratio, both Rayleigh damping coefficients, the
#      initial velocity and the ground's offset (the object's unseen underside makes its
#      height above the contact plane uncertain by millimetres, and the floor's push depends
#      on it exponentially) from a wrong start (E 7000 vs 5000, nu 0.35 vs 0.3, alphas 1.5x),
#      L-BFGS preconditioned by a finite-difference Hessian at the start
#                                                                  -> results/default/fit
# and prints recovered vs true values. The result folders: reconstruction/report/
# (summary.json, rest_shape.png, segmented clouds, fused and true surfaces),
# fit/convergence.png, fit/history.csv, fit/result.json and
# fit/reconstruction/simulation.pvd (ParaView). Extra arguments go to `softfit fit`
# (e.g. --max-iterations 25).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build -j "$(nproc)" --target softfit
scene=bench/reconstruct_scenes/box_throw_grid.json
out=results/default
build/softfit synth "$scene" --sensor kinect --background --camera-count 4 --rest-frames 5 -o "$out/capture"
build/softfit reconstruct "$out/capture" --sensor kinect --cell-size 0.0375 --voxel 0.006 --truth-scene "$scene" \
  -o "$out/reconstruction"
build/softfit fit "$out/reconstruction/scene.json" --observations "$out/reconstruction/observations" \
  --params E,nu,alpha1,alpha2,velocity,ground_offset --start E=7000,nu=0.35,alpha1=0.15,alpha2=0.015 \
  --point-cost closest --precondition hessian --max-iterations 20 -o "$out/fit" "$@"
