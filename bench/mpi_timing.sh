# bench/mpi_timing.sh: sourced by bench/sweep_mpi.sh and bench/bootstrap_mpi.sh (needs $work).
#   timed LABEL COMMAND...   runs COMMAND under /usr/bin/time and prints "LABEL wall W user U sys S"
#                            and, under mpirun with "${ranktime[@]}", each rank's CPU seconds
#   "${ranktime[@]}"         prefix for the program under mpirun: times each rank on its own
#                            (its user+sys seconds into $work/rankR.txt)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun=(mpirun --oversubscribe)

timed() {  # label, command...
  local label=$1
  shift
  rm -f "$work"/rank*.txt
  /usr/bin/time -f "$label wall %e user %U sys %S" -o "$work/time.txt" "$@" > "$work/log.txt" 2>&1 ||
    { cat "$work/log.txt"; exit 1; }
  local ranks=""
  for f in "$work"/rank*.txt; do
    [ -f "$f" ] && ranks="$ranks $(basename "$f" .txt) $(cat "$f")"
  done
  echo "$(cat "$work/time.txt")${ranks:+  cpu:$ranks}"
}
ranktime=(sh -c 'exec /usr/bin/time -f "%U+%S" -o "$0/rank$OMPI_COMM_WORLD_RANK.txt" "$@"' "$work")
