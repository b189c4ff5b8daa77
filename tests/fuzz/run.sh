#!/usr/bin/env bash
# Builds the libFuzzer targets (the "sanitize" preset: clang, AddressSanitizer, UBSan) and runs each
# from the seeds fuzz_seeds writes, plus the corpus earlier runs grew (in $FUZZ_DIR, default
# /tmp/cudnn-setup-fuzz, outside the tree). Each target prints its executions, coverage (cov:) and
# features (ft:); a crash stops the script with the input saved beside it as crash-*.
#   run.sh [SECONDS|-runs=N] [TARGET...]   default: 30 seconds each, every target
# CI runs it for 30 s a target; the README's figures come from runs of -runs=10000000.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$here/../.."
limit="${1:-30}"
[ $# -gt 0 ] && shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(fuzz_pe fuzz_elf fuzz_archive fuzz_tar fuzz_tool_output fuzz_path fuzz_state_files)
case "$limit" in
    -runs=*) budget=("$limit") ;;
    *) budget=("-max_total_time=$limit") ;;
esac

cd "$repo"
if [ -z "${FUZZ_NO_BUILD:-}" ]; then
    cmake --preset sanitize >/dev/null
    cmake --build --preset sanitize --target fuzz_targets
fi
build="$repo/build-sanitize/tests/fuzz"
work="${FUZZ_DIR:-/tmp/cudnn-setup-fuzz}"
mkdir -p "$work"
"$build/fuzz_seeds" "$work/seeds"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
# The log lines would cost more than the code under test.
export QT_LOGGING_RULES="${QT_LOGGING_RULES:-cudnnsetup.*=false}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
for target in "${targets[@]}"; do
    corpus="$work/corpus/$target"
    mkdir -p "$corpus" "$work/crashes"
    echo "== $target (${budget[*]})"
    # The grown corpus first: libFuzzer adds what it finds to the first folder.
    "$build/$target" "$corpus" "$work/seeds/$target" "${budget[@]}" -max_len=262144 -rss_limit_mb=2048 \
        -timeout=20 -print_final_stats=1 "-artifact_prefix=$work/crashes/$target-" 2>&1 |
        grep -E '^(#[0-9]+[[:space:]]+(INITED|DONE)|stat::number_of_executed_units|stat::peak_rss_mb|==[0-9]+==ERROR|SUMMARY|.*runtime error)' || true
    status=${PIPESTATUS[0]}
    if [ "$status" -ne 0 ]; then
        echo "$target failed (exit $status); inputs in $work/crashes" >&2
        exit 1
    fi
done
