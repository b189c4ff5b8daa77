#!/usr/bin/env bash
# Runs the benchmarks against a build folder (default: build).
#   detect: extra arguments go to bench_detect, e.g. --real --peer "python3 -m torch.utils.collect_env"
#           --peer-runs 3 on a GPU machine.
#   extract: inspect + extract of a generated archive the size and layout of NVIDIA's
#           cudnn-windows-x86_64-8.9.7.29_cuda12-archive.zip (made once, into $BENCH_DIR, default
#           /tmp/cudnn-setup-bench), against whichever of bsdtar, unzip and 7z are installed.
#   verify: `cudnnctl verify` on this system (with a GPU: handle and convolution included) beside
#           the torch check a person would run by hand (tests/bench/torch_cudnn_check.py), when
#           PYTHON names an interpreter with a CUDA torch.
#   startup: cudnn-setup from its start until the first page is painted (offscreen unless
#           QT_QPA_PLATFORM says otherwise); goal 500 ms.
#   download: `cudnnctl download` of a 700 MB archive from a loopback mirror (Python's http.server),
#           checksum included, beside curl fetching the same URL; goal at most 1.1x curl's time.
#   errorlog: reading a 10 MB pasted log (`cudnnctl doctor --from-log`): decoding and every
#           signature found; goal 100 ms.
#   fleet:  `cudnnctl fleet summarize` of a share of 5,000 machine reports, beside jq (when
#           installed) and Python's json reading the same files; goal 2 s on 2 cores.
# usage: run.sh [detect|extract|verify|startup|download|errorlog|fleet|all] [bench_detect / bench_verify / bench_startup arguments...]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build="${BUILD_DIR:-$here/../../build}"
what="${1:-all}"
[ $# -gt 0 ] && shift

if [ "$what" = detect ] || [ "$what" = all ]; then
    "$build/tests/bench/bench_detect" "$@"
fi

if [ "$what" = extract ] || [ "$what" = all ]; then
    bench_dir="${BENCH_DIR:-/tmp/cudnn-setup-bench}"
    archive="$bench_dir/cudnn-windows-x86_64-8.9.7.29_cuda12-archive.zip"
    mkdir -p "$bench_dir"
    [ -f "$archive" ] || python3 "$here/make_bench_archive.py" "$archive"
    peers=()
    command -v bsdtar >/dev/null && peers+=(--peer 'bsdtar -xf "$ARCHIVE" -C "$OUT"')
    command -v unzip >/dev/null && peers+=(--peer 'unzip -q "$ARCHIVE" -d "$OUT"')
    command -v 7z >/dev/null && peers+=(--peer '7z x -bd -y "-o$OUT" "$ARCHIVE"')
    # The staging folder and the peers' folders on the archive's volume, as an install has them.
    "$build/tests/bench/bench_extract" "$archive" --runs "${RUNS:-5}" --out "$bench_dir" "${peers[@]}"
fi

if [ "$what" = verify ]; then
    peer=()
    [ -n "${PYTHON:-}" ] && peer=(--peer "\"$PYTHON\" \"$here/torch_cudnn_check.py\"" --peer-runs "${PEER_RUNS:-3}")
    "$build/tests/bench/bench_verify" --runs "${RUNS:-9}" "${peer[@]}" "$@"
fi

if [ "$what" = download ] || [ "$what" = all ]; then
    "$build/tests/bench/bench_download" --runs "${RUNS:-9}" --dir "${BENCH_DIR:-/tmp}"
fi

if [ "$what" = errorlog ] || [ "$what" = all ]; then
    "$build/tests/bench/bench_errorlog" --runs "${RUNS:-9}"
fi

if [ "$what" = fleet ] || [ "$what" = all ]; then
    peers=()
    command -v jq >/dev/null &&
        peers+=(--peer 'jq -s "[.[] | .items.driver.value] | group_by(.) | map([.[0], length])" "$SHARE"/*.json')
    peers+=(--peer 'python3 -c "import collections, glob, json, sys; print(collections.Counter(json.load(open(f))[\"items\"][\"driver\"][\"value\"] for f in glob.glob(sys.argv[1] + \"/*.json\")))" "$SHARE"')
    "$build/tests/bench/bench_fleet" --runs "${RUNS:-5}" "${peers[@]}"
fi

if [ "$what" = startup ]; then
    "$build/tests/bench/bench_startup" --runs "${RUNS:-9}" "$@"
elif [ "$what" = all ]; then
    "$build/tests/bench/bench_startup" --runs "${RUNS:-9}"
fi
