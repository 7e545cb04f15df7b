#!/usr/bin/env bash
# Installs dependencies, builds softfit (Release) and runs the main job on the bundled
# default scene: a synthetic capture of the Stanford bunny bouncing on the ground (9
# virtual depth cameras, 41 point-cloud frames), then the reconstruction of Young's
# modulus, Poisson ratio and Rayleigh damping from a wrong start. Prints recovered vs
# true values; writes results/default/{capture,fit}/ (fit: history.csv, result.json,
# convergence.png, reconstruction/simulation.pvd for ParaView).
# Extra arguments go to `softfit fit` (e.g. --optimizer ceres).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build -j "$(nproc)" --target softfit
build/softfit synth data/scenes/bunny_bounce.json -o results/default/capture
build/softfit fit data/scenes/bunny_bounce.json --observations results/default/capture \
  --params E,nu,alpha1,alpha2 --start E=7000,nu=0.35,alpha1=0.15,alpha2=0.015 \
  -o results/default/fit "$@"
