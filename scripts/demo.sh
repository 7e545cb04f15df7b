#!/usr/bin/env bash
# Installs dependencies, builds softfit (Release) and runs the main job on the bundled
# default scene. Results (ParaView .pvd/.vtu frames, final surface .obj) go to
# results/default/. Extra arguments are passed to `softfit simulate`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build -j "$(nproc)" --target softfit
build/softfit simulate data/scenes/bunny_drop.json -o results/default "$@"
