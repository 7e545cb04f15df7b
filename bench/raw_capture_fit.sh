#!/usr/bin/env bash
# bench/raw_capture_fit.sh: issue 20 "parameters from raw captures", end to end.
#
#   synth SCENE --sensor S [--background] --camera-count C --rest-frames K  -> WORK/cap
#   reconstruct WORK/cap [--cell-size H]                                    -> WORK/rec
#   fit WORK/rec/scene.json --observations WORK/rec/observations            -> WORK/fit
#
# and prints, from WORK/fit/result.json and WORK/cap/truth.json, a table
# (parameter, start, recovered, true, error), the ground-normal angle error of the
# reconstruction (RANSAC; it is the fit's ground unless --params includes ground) and of
# the fit, and the wall time of each stage. The true mesh / SDF is used only by synth and
# by reconstruct's report (--truth-scene), never by the fit.
#
# Usage: bench/raw_capture_fit.sh SCENE WORK [options]
#   --sensor kinect|ideal      (kinect)        --cameras C        (4)
#   --rest-frames K            (5)             --stride K         (1; synth and reconstruct)
#   --cell-size H              (reconstruct's default: object size / 8)
#   --voxel V                  (reconstruct's default: object size / 48; the demo: 0.006)
#   --params LIST              (E,nu,alpha1,alpha2,velocity)
#   --start LIST               (E=1.4 E_true,nu=nu_true+0.05,alpha1/alpha2 = 1.5 x true)
#   --max-iterations N         (25)            --fit-args "..."   (more fit options, e.g. "--point-cost closest")
#   --softfit PATH             (build/softfit)
#   --velocity-frames V        (3: reconstruct registers frames 1..V for the initial velocity)
# Run from the repository root. One fit at a time on a shared machine.
set -euo pipefail

scene=${1:?usage: bench/raw_capture_fit.sh SCENE WORK [options]}
work=${2:?usage: bench/raw_capture_fit.sh SCENE WORK [options]}
shift 2
sensor=kinect cameras=4 rest=5 stride=1 cell="" params="E,nu,alpha1,alpha2,velocity" start="" iters=25
fitargs="" softfit=build/softfit vframes=3 voxel=""
while [ $# -gt 0 ]; do
  case "$1" in
    --sensor) sensor=$2; shift 2 ;;
    --cameras) cameras=$2; shift 2 ;;
    --rest-frames) rest=$2; shift 2 ;;
    --stride) stride=$2; shift 2 ;;
    --cell-size) cell=$2; shift 2 ;;
    --voxel) voxel=$2; shift 2 ;;
    --params) params=$2; shift 2 ;;
    --start) start=$2; shift 2 ;;
    --max-iterations) iters=$2; shift 2 ;;
    --fit-args) fitargs=$2; shift 2 ;;
    --softfit) softfit=$2; shift 2 ;;
    --velocity-frames) vframes=$2; shift 2 ;;
    *) echo "raw_capture_fit.sh: unknown option $1" >&2; exit 2 ;;
  esac
done

mkdir -p "$work"
rm -rf "$work/cap" "$work/rec" "$work/fit"
now() { date +%s.%N; }

t0=$(now)
"$softfit" synth "$scene" --sensor "$sensor" --background --camera-count "$cameras" \
  --rest-frames "$rest" --stride "$stride" -o "$work/cap" > "$work/synth.log" 2>&1 \
  || { echo "synth failed:"; tail -5 "$work/synth.log"; exit 1; }
t1=$(now)

if [ -z "$start" ]; then
  start=$(python3 - "$work/cap/truth.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
print("E=%g,nu=%g,alpha1=%g,alpha2=%g" % (1.4 * t["E"], t["nu"] + 0.05, 1.5 * t["alpha1"], 1.5 * t["alpha2"]))
PY
)
fi

# reconstruct estimates the initial velocity (ICP of the rest cloud to frames 1..V,
# reconstruct/initial_motion.h) into scene.json: the fit's start for velocity.
recargs=(--sensor "$sensor" --stride "$stride" --truth-scene "$scene" --velocity-frames "$vframes")
[ -n "$cell" ] && recargs+=(--cell-size "$cell")
[ -n "$voxel" ] && recargs+=(--voxel "$voxel")
"$softfit" reconstruct "$work/cap" -o "$work/rec" "${recargs[@]}" > "$work/reconstruct.log" 2>&1 \
  || { echo "reconstruct failed:"; tail -5 "$work/reconstruct.log"; exit 1; }
t2=$(now)

echo "fit start: $start (velocity: reconstruct's)"; grep "initial motion" "$work/reconstruct.log" || true

set +e
# shellcheck disable=SC2086
"$softfit" fit "$work/rec/scene.json" --observations "$work/rec/observations" --params "$params" \
  --start "$start" --max-iterations "$iters" $fitargs -o "$work/fit" > "$work/fit.log" 2>&1
fitrc=$?
set -e
t3=$(now)
[ "$fitrc" -ne 0 ] && { echo "fit exited $fitrc:"; tail -5 "$work/fit.log"; }

python3 - "$work" "$t0" "$t1" "$t2" "$t3" "$fitrc" <<'PY'
import json, math, os, sys
work, t0, t1, t2, t3, rc = sys.argv[1], *map(float, sys.argv[2:6]), int(sys.argv[6])
truth = json.load(open(os.path.join(work, "cap/truth.json")))
summ = json.load(open(os.path.join(work, "rec/report/summary.json")))
res_path = os.path.join(work, "fit/result.json")
res = json.load(open(res_path)) if os.path.exists(res_path) else {}
def angle(a, b):
    c = sum(x * y for x, y in zip(a, b)) / math.sqrt(sum(x * x for x in a) * sum(y * y for y in b))
    return math.degrees(math.acos(max(-1.0, min(1.0, c))))
def normal(theta, phi):
    return [math.sin(theta) * math.cos(phi), math.sin(theta) * math.sin(phi), math.cos(theta)]
true_n = normal(truth["ground_theta"], truth["ground_phi"])
print("capture: %s" % work)
t = summ.get("truth", {})
print("rest shape: volume error %+.2f%%, Chamfer %.2f mm = %.3f cells (cell %.4f m)" % (
    t.get("volume_error_percent", float("nan")), 1000 * t.get("chamfer", float("nan")),
    t.get("chamfer_cells", float("nan")), summ["cell_size"]))
print("%-20s %12s %12s %12s %10s" % ("parameter", "start", "recovered", "true", "error"))
params = {k: v["result"] for k, v in res.get("parameters", {}).items()}
start = {k: v["start"] for k, v in res.get("parameters", {}).items()}
for name, val in params.items():
    tv = truth.get(name)
    s = start.get(name, float("nan"))
    if name == "nu":
        err = "%+.4f abs" % (val - tv)
    elif tv:
        err = "%+.2f%%" % (100 * (val - tv) / tv)
    else:
        err = "%+.4g abs" % (val - tv)
    print("%-20s %12.6g %12.6g %12.6g %10s" % (name, s, val, tv, err))
print("ground normal angle error: reconstruct (RANSAC) %.4f deg" % angle(summ["ground"]["normal"], true_n), end="")
if "ground_theta" in params:
    print(", fit %.4f deg" % angle(normal(params["ground_theta"], params["ground_phi"]), true_n))
else:
    print(" (ground not fitted: the fit used it as is)")
print("wall: synth %.1f s, reconstruct %.1f s, fit %.1f s (exit %d), reconstruct + fit %.1f s" % (
    t1 - t0, t2 - t1, t3 - t2, rc, t3 - t1))
PY
