#!/usr/bin/env bash
# Fig. 5.6 and 5.7a,b of the thesis: cost landscapes of the Fig. 5.4 bar and, for the
# ground plane, of the Fig. 5.5 collision case (displacement cost) with the optimizer's
# path on them, made with `softfit fit` and `softfit sweep --path` (bench/README.md,
# "thesis_landscapes").
#   bench/thesis_landscapes.sh [--quick] [OUT]     (default OUT: results/thesis_landscapes)
# Needs build/softfit and build/bench/thesis_reproduction (BUILD=dir to use another build).
# Writes OUT/fig5.6_{E,nu,alpha1,alpha2,ground_theta_phi}.png, OUT/fig5.7a_E_nu.png,
# OUT/fig5.7b_alpha1_alpha2.png, and the fits and sweeps they come from.
set -euo pipefail
quick=()
n1=16 n2=16  # even counts over ranges centred on the truth: no point exactly on it (cost 0)
if [[ "${1:-}" == --quick ]]; then
  quick=(--quick)
  n1=5 n2=4
  shift
fi
out=${1:-results/thesis_landscapes}
build=${BUILD:-build}
mkdir -p "$out"
"$build/bench/thesis_reproduction" "${quick[@]}" --write-bar-case="$out/case"
"$build/bench/thesis_reproduction" "${quick[@]}" --write-collision-case="$out/collision_case"
use_case() {  # use_case DIR SCENE: the scene and observations that fit and sweep use
  scene=$out/$1/$2
  inputs=(--observations "$out/$1/observations" --loss displacements -q)
}
use_case case bar.json

fit() {  # fit NAME ARGS...: softfit fit into OUT/NAME
  local name=$1
  shift
  "$build/softfit" fit "$scene" "${inputs[@]}" -o "$out/$name" "$@" |
    grep -E "after|^  (E|nu|alpha1|alpha2|ground_theta|ground_phi) " || true
}
sweep() {  # sweep NAME GRID PNG PATHS...: softfit sweep into OUT/NAME, its plot copied to OUT/PNG
  local name=$1 grid=$2 png=$3
  shift 3
  local paths=()
  for p in "$@"; do paths+=(--path "$out/$p/history.csv"); done
  "$build/softfit" sweep "$scene" "${inputs[@]}" --grid "$grid" "${paths[@]}" -o "$out/$name" | grep -E "lowest|points in"
  cp "$out/$name/sweep.png" "$out/$png"
}

# Fig. 5.6: each parameter alone (the others at the truth), L-BFGS from the thesis' start.
for spec in E:2500:1000:3000 nu:0.35:0.2:0.4 alpha1:0.15:0.02:0.18 alpha2:0.015:0.002:0.018; do
  IFS=: read -r p start lo hi <<<"$spec"
  echo "== $p alone"
  fit "fit_$p" --params "$p" --start "$p=$start"
  sweep "sweep_$p" "$p=$lo:$hi:$n1" "fig5.6_$p.png" "fit_$p"
done

# Fig. 5.7a,b: two parameters jointly (the other two at the truth), from the thesis' start:
# its Barzilai-Borwein, 8 steps, L-BFGS in the coordinates of the start's Hessian, and
# Gauss-Newton steps (J^T J of the displacement residuals, re-taken every iteration).
for spec in E,nu:E=2500,nu=0.35:E=1000:3000:$n2,nu=0.2:0.4:$n2:fig5.7a_E_nu \
            alpha1,alpha2:alpha1=0.15,alpha2=0.015:alpha1=0.02:0.18:$n2,alpha2=0.002:0.018:$n2:fig5.7b_alpha1_alpha2; do
  IFS=: read -r params start g1 g2 g3 g4 g5 png <<<"$spec"
  grid="$g1:$g2:$g3:$g4:$g5"
  tag=${params/,/_}
  echo "== $params jointly"
  fit "fit_${tag}_bb" --params "$params" --start "$start" --optimizer bb --max-iterations 8
  fit "fit_${tag}_hessian" --params "$params" --start "$start" --precondition hessian
  fit "fit_${tag}_gn" --params "$params" --start "$start" --precondition gauss-newton
  sweep "sweep_$tag" "$grid" "$png.png" "fit_${tag}_bb" "fit_${tag}_hessian" "fit_${tag}_gn"
done

# Fig. 5.6, ground plane: theta and phi together on the Fig. 5.5 collision case (truth
# 1.65 / 1.50, a plane tilted 6.1 deg), L-BFGS from a nearly level plane 8.1 deg off.
echo "== ground_theta,ground_phi (collision case)"
use_case collision_case collision.json
fit fit_ground --params ground_theta,ground_phi --start ground_theta=1.55,ground_phi=1.60
sweep sweep_ground "ground_theta=1.45:1.85:$n2,ground_phi=1.30:1.70:$n2" fig5.6_ground_theta_phi.png fit_ground
echo "wrote $out/fig5.6_{E,nu,alpha1,alpha2,ground_theta_phi}.png, $out/fig5.7a_E_nu.png, $out/fig5.7b_alpha1_alpha2.png"
