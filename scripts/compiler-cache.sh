# Sourced by debian.sh and build-qt-mingw.sh: ccache's folder and settings, beside the static Qt in
# ${CUDNNSETUP_CACHE:-/var/cache/cudnn-setup}, so every build on this machine, CI's clean clones
# included, reuses the objects of the builds before it.
#   use_compiler_cache BASE_DIR   creates the folder and exports CCACHE_DIR and CCACHE_BASEDIR
#   compiler_cache_summary        prints the hits and misses since use_compiler_cache
# The caller has set `cache` (the folder) and `as_root` (empty, or sudo).

use_compiler_cache() {
    if ! command -v ccache >/dev/null; then
        echo "error: ccache is not installed" >&2
        return 1
    fi
    export CCACHE_DIR="${cache}/ccache"
    if [ ! -w "$cache" ]; then
        "${as_root[@]}" mkdir -p "$cache"
        "${as_root[@]}" chown "$(id -u):$(id -g)" "$cache"
    fi
    mkdir -p "$CCACHE_DIR"
    # Paths under BASE_DIR are hashed relative to the build folder, and the build folder itself is
    # not hashed: a clone in another folder hits the same entries. PCH needs the sloppiness (GCC's
    # .gch is made moments before the objects that use it).
    export CCACHE_BASEDIR="$1"
    cat >"$CCACHE_DIR/ccache.conf" <<'CONFIG'
max_size = 6G
hash_dir = false
sloppiness = pch_defines,time_macros,include_file_mtime,include_file_ctime
CONFIG
    compiler_cache_before="$(ccache --print-stats)"
}

compiler_cache_summary() {
    # ccache's counters are machine-wide: this run's share is the difference.
    { echo "$compiler_cache_before" | sed 's/^/before\t/'; ccache --print-stats; } | awk -F'\t' '
        $1 == "before" { stat[$2] -= $3; next }
        { stat[$1] += $2 }
        END {
            hits = stat["direct_cache_hit"] + stat["preprocessed_cache_hit"]
            total = hits + stat["cache_miss"]
            printf "Compiler cache (ccache) this run: %d of %d compilations were hits (%.1f %%)", hits, total, total ? 100 * hits / total : 0
            if (stat["could_not_use_precompiled_header"] > 0)
                printf "; %d could not use the precompiled header", stat["could_not_use_precompiled_header"]
            printf "\n"
        }'
}
