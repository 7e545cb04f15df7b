#!/usr/bin/env bash
# bench/sweep_mpi.sh: issue 24, `softfit sweep` serial vs under mpirun.
#
#   synth bench/sweep_scenes/box_bounce_sweep.json           -> WORK/cap (once)
#   sweep, 32 points (E 8 x nu 4, cost and gradient), serial (default threads, and
#     OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1: one thread, what each rank gets)  -> WORK/serial, WORK/serial1
#   the same under mpirun -n K                                -> WORK/mpi (must equal serial1's sweep.csv:
#     the ranks pin OpenBLAS to cores / K threads, and OpenBLAS' last bits depend on its thread count)
#   1 point: serial, mpirun -n 1 and mpirun -n 2 (rank 1 has no task: the empty rank's overhead)
#
# Each configuration runs REPEAT times (alternating); every line gives wall, user and
# system seconds from /usr/bin/time (user + sys of mpirun include its ranks) and, under
# mpirun, each rank's own CPU seconds (user + sys). On a shared machine the wall figures
# are disturbed by the other load: compare CPU times; serial1 CPU / the busiest rank's
# CPU is the speed-up the ranks would give with a core each.
#
# Usage: bench/sweep_mpi.sh WORK [--repeat N] [--softfit PATH] [--ranks K]
# Run from the repository root.
set -euo pipefail

work=${1:?usage: bench/sweep_mpi.sh WORK [--repeat N] [--softfit PATH] [--ranks K]}
shift
repeat=3 softfit=build/softfit ranks=2
while [ $# -gt 0 ]; do
  case "$1" in
    --repeat) repeat=$2; shift 2 ;;
    --softfit) softfit=$2; shift 2 ;;
    --ranks) ranks=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 1 ;;
  esac
done
scene=bench/sweep_scenes/box_bounce_sweep.json
mkdir -p "$work"
if [ ! -f "$work/cap/run_complete.txt" ]; then
  "$softfit" synth "$scene" -o "$work/cap" --resolution 48 > /dev/null
fi
grid32="E=2000:4000:8,nu=0.25:0.35:4"
grid1="E=3000:3000:1,nu=0.3:0.3:1"
sweep=(sweep "$scene" --observations "$work/cap" --gradient -q)

source "$(dirname "$0")/mpi_timing.sh"  # timed, ranktime, mpirun

echo "nproc $(nproc), load $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq 1 "$repeat"); do
  timed "32 points serial             " "$softfit" "${sweep[@]}" --grid "$grid32" -o "$work/serial"
  timed "32 points serial, 1 thread   " env OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 "$softfit" "${sweep[@]}" \
    --grid "$grid32" -o "$work/serial1"
  timed "32 points mpirun -n $ranks         " "${mpirun[@]}" -n "$ranks" "${ranktime[@]}" "$softfit" "${sweep[@]}" \
    --grid "$grid32" -o "$work/mpi"
  cmp "$work/serial1/sweep.csv" "$work/mpi/sweep.csv" || { echo "sweep.csv differs from serial1" >&2; exit 1; }
done
for r in $(seq 1 "$repeat"); do
  timed " 1 point  serial, 1 thread   " env OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 "$softfit" "${sweep[@]}" \
    --grid "$grid1" -o "$work/one_serial"
  timed " 1 point  mpirun -n 1         " "${mpirun[@]}" -n 1 "${ranktime[@]}" "$softfit" "${sweep[@]}" \
    --grid "$grid1" -o "$work/one_mpi1"
  timed " 1 point  mpirun -n 2         " "${mpirun[@]}" -n 2 "${ranktime[@]}" "$softfit" "${sweep[@]}" \
    --grid "$grid1" -o "$work/one_mpi2"
done
echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
