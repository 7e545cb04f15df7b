#!/usr/bin/env bash
# Runs the text-reader fuzzer (fuzz/README.md) for SECONDS (default 600) with a random
# seed, building it with clang in build/fuzz first. A crashing input: build/fuzz/crash-*.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
cmake -S fuzz -B build/fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++ >/dev/null
cmake --build build/fuzz
mkdir -p build/fuzz/work_corpus
exec build/fuzz/text_reader_fuzzer -max_total_time="$seconds" -max_len=4096 -artifact_prefix=build/fuzz/ \
  build/fuzz/work_corpus fuzz/corpus
