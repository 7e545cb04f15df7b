#!/usr/bin/env bash
# bench/bootstrap_mpi.sh: issue 24, `softfit fit --bootstrap-steps` serial vs under mpirun.
#
#   synth bench/sweep_scenes/box_bounce_sweep.json --noise 0.005 -> WORK/cap (once)
#   fit E,nu from E=4500,nu=0.36 (one start), then 1 bootstrap step of M refits
#   (--bootstrap-refits M, default 4, 1 noise draw per point), serial on one thread
#   (OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1, what each rank gets) and under mpirun -n K;
#   result.json (without its wall-clock seconds) must be the same bytes; and the plain fit
#   alone (no bootstrap), serial on one thread: the part no rank count shortens.
#
# The plain fit is one task (one start), so it runs on rank 0 while the others wait;
# the step's M refits are spread over the ranks. Timing lines as in bench/sweep_mpi.sh
# (bench/mpi_timing.sh): wall, user, sys, and under mpirun each rank's CPU seconds.
#
# Usage: bench/bootstrap_mpi.sh WORK [--repeat N] [--softfit PATH] [--ranks K] [--refits M]
# Run from the repository root.
set -euo pipefail

work=${1:?usage: bench/bootstrap_mpi.sh WORK [--repeat N] [--softfit PATH] [--ranks K] [--refits M]}
shift
repeat=2 softfit=build/softfit ranks=2 refits=4
while [ $# -gt 0 ]; do
  case "$1" in
    --repeat) repeat=$2; shift 2 ;;
    --softfit) softfit=$2; shift 2 ;;
    --ranks) ranks=$2; shift 2 ;;
    --refits) refits=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 1 ;;
  esac
done
scene=bench/sweep_scenes/box_bounce_sweep.json
mkdir -p "$work"
if [ ! -f "$work/cap/run_complete.txt" ]; then
  "$softfit" synth "$scene" -o "$work/cap" --resolution 48 --noise 0.005 > /dev/null
fi
fit=(fit "$scene" --observations "$work/cap" --params E,nu --start E=4500,nu=0.36 --max-iterations 10
     --noise-sigma 0.005 -q)
boot=(--bootstrap-steps 1 --bootstrap-refits "$refits" --bootstrap-replicates 1)
one_thread=(env OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1)

source "$(dirname "$0")/mpi_timing.sh"  # timed, ranktime, mpirun

echo "nproc $(nproc), load $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq 1 "$repeat"); do
  timed "plain fit alone (the part that runs on one rank), serial, 1 thread" "${one_thread[@]}" "$softfit" \
    "${fit[@]}" -o "$work/plain"
  timed "fit + 1 bootstrap step of $refits refits, serial, 1 thread" "${one_thread[@]}" "$softfit" "${fit[@]}" \
    "${boot[@]}" -o "$work/serial1"
  timed "fit + 1 bootstrap step of $refits refits, mpirun -n $ranks   " "${mpirun[@]}" -n "$ranks" "${ranktime[@]}" \
    "$softfit" "${fit[@]}" "${boot[@]}" -o "$work/mpi"
  cmp <(grep -v '"seconds"' "$work/serial1/result.json") <(grep -v '"seconds"' "$work/mpi/result.json") ||
    { echo "result.json differs from serial1" >&2; exit 1; }
done
echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
