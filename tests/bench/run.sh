#!/usr/bin/env bash
# Runs the benchmarks against a build folder (default: build). Extra arguments go to bench_detect,
# e.g. --real --peer "python3 -m torch.utils.collect_env" --peer-runs 3 on a GPU machine.
set -euo pipefail
build="${BUILD_DIR:-$(dirname "$0")/../../build}"
"$build/tests/bench/bench_detect" "$@"
