#!/bin/sh
# User and sys CPU time of bench cases (issue 21: sys must stay below 10% of user, i.e.
# no busy-waiting BLAS / thread-pool workers). Each case runs under /usr/bin/time; one
# table line per case. CPU times, not wall: the machine may be shared.
#
#   bench/cpu_time.sh [build-folder]          # default: build
#
# Cases: the cut-cell torus scene (40 steps, newton_iteration_cost_bench), every
# forward_step_bench configuration at 1.5k and 12k tets, grid_cuboid_bench, the static
# cantilever. Edit CASES below to add more (one command per line).
set -eu
B=${1:-build}
CASES="$B/bench/newton_iteration_cost_bench data/scenes/torus_drop_grid.json 40
$B/bench/forward_step_bench --benchmark_filter=tets:1536/
$B/bench/forward_step_bench --benchmark_filter=tets:12288/
$B/bench/grid_cuboid_bench
$B/bench/static_cantilever_bench exact_first clamp"
printf '%-70s %9s %9s %7s\n' case user_s sys_s sys/user
echo "$CASES" | while IFS= read -r c; do
  [ -n "$c" ] || continue
  out=$(mktemp)
  # shellcheck disable=SC2086
  /usr/bin/time -f '%U %S' -o "$out" sh -c "$c" > /dev/null 2>&1 || echo "  (exit $?)"
  read -r u s < "$out"
  rm -f "$out"
  printf '%-70s %9s %9s %7s\n' "$(echo "$c" | sed "s|^$B/bench/||" | cut -c1-70)" "$u" "$s" \
    "$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.1f%%", (u > 0 ? 100 * s / u : 0) }')"
done
