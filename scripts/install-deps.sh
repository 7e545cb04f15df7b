#!/usr/bin/env bash
# Installs softfit's build dependencies from Debian packages. Idempotent: packages
# already present are skipped by apt-get, and apt-get update runs only when needed.
# `--test` adds what only the test suite needs (clang with libFuzzer for the ctest
# fuzz_text_readers; pytest, torch and matplotlib for the Python tests and examples;
# Sphinx and its furo theme for scripts/docs.sh, Chromium for its render check); scripts/test.sh passes it,
# scripts/demo.sh does not.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  libeigen3-dev libsuitesparse-dev libopenblas-dev
  liblbfgspp-dev libceres-dev nlohmann-json3-dev libcli11-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  tetgen libpng-dev libcairo2-dev libopen3d-dev
  libopenmpi-dev openmpi-bin
  pybind11-dev python3-dev python3-numpy
)
test_packages=(clang libclang-rt-dev python3-pytest python3-torch python3-matplotlib python3-sphinx furo chromium)

for arg in "$@"; do
  case "$arg" in
    --test) packages+=("${test_packages[@]}") ;;
    *) echo "install-deps: unknown argument '$arg' (expected --test)" >&2; exit 1 ;;
  esac
done

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
