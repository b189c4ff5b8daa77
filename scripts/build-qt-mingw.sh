#!/usr/bin/env bash
# Builds the static Qt 6 (qtbase) and minizip that the Windows cross build links, for
# x86_64-w64-mingw32 with Debian's MinGW-w64 (posix threads), from Debian's own source packages.
#   scripts/build-qt-mingw.sh            build once; later runs exit at once
# An interrupted build resumes where it stopped: the sources and the build folder are kept until the
# result is complete, and only a changed recipe (the options below) starts over. Compilations go
# through ccache (scripts/compiler-cache.sh), so even a new recipe recompiles only what it changes.
# The result lives outside the work tree, keyed by versions:
#   ${CUDNNSETUP_CACHE:-/var/cache/cudnn-setup}/qt-6.4.2-mingw-w64-10-static
#     bin/ lib/ include/ plugins/ ...    Qt (Core Gui Widgets Network Concurrent Test; qwindows,
#                                        qoffscreen, qwindowsvistastyle, qschannelbackend)
#     minizip/include/minizip/*.h        zlib contrib/minizip 1.1: unzip, ioapi, iowin32
#     minizip/lib/libminizip.a
#     lib/cmake/minizip/minizipConfig.cmake  (imported target minizip::minizip)
#     .complete                          written last: versions and a hash of the build options;
#                                        a prefix without it, or built with other options, is rebuilt
# Sources, build trees and the log (build.log) are under ${CUDNNSETUP_CACHE}/src/<key>-<recipe>.
# Packages are installed with apt-get as root, or through sudo; deb-src entries are added when
# apt has none. The host Qt tools (moc, rcc, uic) come from Debian's qt6-base-dev-tools, which
# has to be the same Qt version.
set -euo pipefail

qt_version=6.4.2
mingw_major=10
cache="${CUDNNSETUP_CACHE:-/var/cache/cudnn-setup}"
key="qt-${qt_version}-mingw-w64-${mingw_major}-static"
prefix="${CUDNNSETUP_QT_MINGW_PREFIX:-${cache}/${key}}"
stamp="${prefix}/.complete"
jobs="${CUDNNSETUP_JOBS:-$(nproc)}"

# qtbase. Debian removed the wintab headers (tablet events). OpenGL and Direct2D stay on: 6.4's
# Windows plugin does not build without them. PCRE2's JIT is off: with JIT, QRegularExpression
# keeps a thread_local JIT stack, and MinGW-w64 10 / GCC 12 free a worker thread's emulated TLS
# before running its thread_local destructors; the access violation in the thread-exit TLS
# callback leaves winpthreads' key lock held, and the program hangs in exit().
# Left out because nothing here uses them (a sixth fewer compilations): the Direct2D platform
# plugin (it compiles the whole Windows plugin a second time; Gui keeps DirectWrite), the JPEG, GIF
# and ICO image plugins (PNG, in Gui, is what the screenshots use), QGraphicsView and Qt Xml (the
# XML stream classes are in Core), and the Qt OpenGL module (qt-mingw-without-opengl-module.patch).
# FreeType stays: the offscreen plugin draws with it on Windows. Qt Network downloads the archives
# (cudnnctl download): TLS through Windows' own Schannel (no OpenSSL to ship), proxies from the
# system's settings (WinHTTP); no disk cache, no network-change plugin, no top-level-domain list. The rest is compiled in unity
# batches (qt-mingw-unity.cmake): a fresh build went from 861 compilations to 205.
qt_options=(
    -DCMAKE_BUILD_TYPE=Release
    -DBUILD_SHARED_LIBS=OFF
    -DQT_QMAKE_TARGET_MKSPEC=win32-g++
    -DQT_HOST_PATH=/usr
    -DQT_HOST_PATH_CMAKE_DIR=/usr/lib/x86_64-linux-gnu/cmake
    -DCMAKE_C_FLAGS=-DPCRE2_DISABLE_JIT
    -DQT_BUILD_EXAMPLES=OFF
    -DQT_BUILD_TESTS=OFF
    -DFEATURE_system_zlib=ON
    -DFEATURE_icu=OFF
    -DFEATURE_tabletevent=OFF
    -DFEATURE_opengl=ON
    -DFEATURE_direct2d=ON
    -DFEATURE_direct2d1_1=OFF
    -DFEATURE_sql=OFF
    -DFEATURE_network=ON
    -DFEATURE_ssl=ON
    -DFEATURE_schannel=ON
    -DFEATURE_openssl=OFF
    -DFEATURE_dtls=OFF
    -DFEATURE_sctp=OFF
    -DFEATURE_gssapi=OFF
    -DFEATURE_brotli=OFF
    -DFEATURE_libproxy=OFF
    -DFEATURE_system_proxies=ON
    -DFEATURE_networkdiskcache=OFF
    -DFEATURE_networklistmanager=OFF
    -DFEATURE_topleveldomain=OFF
    -DFEATURE_dbus=OFF
    -DFEATURE_printsupport=OFF
    -DFEATURE_vulkan=OFF
    -DFEATURE_xml=OFF
    -DFEATURE_jpeg=OFF
    -DFEATURE_gif=OFF
    -DFEATURE_ico=OFF
    -DFEATURE_graphicsview=OFF
    -DFEATURE_concurrent=ON
    -DFEATURE_testlib=ON
    -DFEATURE_widgets=ON
)
minizip_units=(unzip ioapi iowin32)
qt_patch="$(cd "$(dirname "$0")" && pwd)/qt-mingw-without-opengl-module.patch"
# Unity batches of 16 files, with the files that cannot share one compiled alone.
qt_unity_batch=16
qt_unity_rules="$(cd "$(dirname "$0")" && pwd)/qt-mingw-unity.cmake"
# A prefix built with other options, another patch or other unity rules is rebuilt: the stamp
# records them.
recipe="$({
    printf '%s\n' "${qt_options[@]}" "${minizip_units[@]}" "unity ${qt_unity_batch}"
    cat "$qt_patch" "$qt_unity_rules"
} | sha256sum | cut -c1-16)"

if [ -f "$stamp" ] && grep -qx "recipe: ${recipe}" "$stamp"; then
    echo "Qt ${qt_version} for MinGW-w64 is ready: ${prefix}"
    exit 0
fi

repo="$(cd "$(dirname "$0")/.." && pwd)"
toolchain="${repo}/cmake/toolchain-mingw-w64.cmake"
work="${cache}/src/${key}-${recipe}"
log="${work}/build.log"
sources_ready="${work}/.sources"

as_root=()
if [ "$(id -u)" -ne 0 ]; then
    as_root=(sudo)
fi
apt_get() {
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "$@"
}

packages=(
    build-essential cmake ninja-build pkg-config perl dpkg-dev xz-utils patch ccache
    mingw-w64 g++-mingw-w64-x86-64-posix gcc-mingw-w64-x86-64-posix libz-mingw-w64-dev
    qt6-base-dev qt6-base-dev-tools qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools
    qt6-translations-l10n
)
missing=()
for package in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done
updated=false
if [ "${#missing[@]}" -gt 0 ]; then
    echo "Installing: ${missing[*]}"
    apt_get update -q
    updated=true
    apt_get install -y -q --no-install-recommends "${missing[@]}"
fi

# The cache key has to tell the truth about what is built.
host_qt="$(dpkg-query -W -f='${Version}' qt6-base-dev-tools)"
case "$host_qt" in
    "${qt_version}"+*) ;;
    *)
        echo "error: host Qt tools are ${host_qt}, this script builds Qt ${qt_version}" >&2
        exit 1
        ;;
esac
mingw_runtime="$(dpkg-query -W -f='${Version}' mingw-w64-x86-64-dev)"
case "$mingw_runtime" in
    "${mingw_major}".*) ;;
    *)
        echo "error: MinGW-w64 runtime is ${mingw_runtime}, expected ${mingw_major}.x" >&2
        exit 1
        ;;
esac

# shellcheck source=scripts/compiler-cache.sh
source "${repo}/scripts/compiler-cache.sh"
use_compiler_cache "$work"

# What another recipe left (its build folder, a half-installed prefix) goes; this recipe's own
# folder stays, so ninja resumes an interrupted build.
for other in "${cache}/src/${key}" "${cache}/src/${key}"-*; do
    if [ -e "$other" ] && [ "$other" != "$work" ]; then
        echo "Removing the build of another recipe: ${other}"
        rm -rf "$other"
    fi
done
rm -rf "$prefix"
mkdir -p "$work"
exec > >(tee -a "$log") 2>&1
started=$(date +%s)
echo "Building ${key} (recipe ${recipe}) with ${jobs} jobs; log: ${log}"
printf '  %s\n' "${qt_options[@]}" "unity batches of ${qt_unity_batch}, exceptions: ${qt_unity_rules}"

if [ ! -f "$sources_ready" ]; then
    # Debian's source packages: add deb-src next to the existing deb entries when there are none.
    # shellcheck disable=SC2016 # $(CREATED_BY) is apt's field name, not a shell expansion
    if ! apt-get indextargets --format '$(CREATED_BY)' 2>/dev/null | grep -q '^Sources$'; then
        echo "Adding deb-src entries for Debian's source packages"
        cat <<SOURCES | "${as_root[@]}" tee /etc/apt/sources.list.d/cudnn-setup-deb-src.sources >/dev/null
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
        updated=false
    fi
    if [ "$updated" = false ]; then
        apt_get update -q
    fi
    find "$work" -mindepth 1 -maxdepth 1 ! -name build.log -exec rm -rf {} +
    (cd "$work" && apt-get source -q qt6-base minizip)
    patch -d "$work"/qt6-base-*/ -p1 <"$qt_patch"
    touch "$sources_ready"
else
    echo "Resuming in ${work}"
fi
qt_src="$(find "$work" -maxdepth 1 -type d -name "qt6-base-*" | head -n1)"
minizip_src="$(find "$work" -maxdepth 1 -type d -name "minizip-*" | head -n1)"
if [ -z "$qt_src" ] || [ -z "$minizip_src" ]; then
    echo "error: unpacked sources not found in ${work}" >&2
    rm -f "$sources_ready"
    exit 1
fi

phase_started=$(date +%s)
# CMake writes build.ninja last: when it is there, the configuration is complete and ninja reruns
# CMake by itself if anything it read has changed.
if [ ! -f "$work/qtbase-build/build.ninja" ]; then
    rm -rf "$work/qtbase-build"
    cmake -S "$qt_src" -B "$work/qtbase-build" -G Ninja \
        -DCMAKE_TOOLCHAIN_FILE="$toolchain" \
        -DCUDNNSETUP_QT_MINGW_PREFIX="$prefix" \
        -DCMAKE_INSTALL_PREFIX="$prefix" \
        -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
        -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE="$qt_unity_batch" \
        -DCMAKE_PROJECT_INCLUDE="$qt_unity_rules" \
        "${qt_options[@]}"
    echo "Configured in $(($(date +%s) - phase_started)) s"
fi
phase_started=$(date +%s)
echo "qtbase: $(ninja -C "$work/qtbase-build" -n | grep -c '^\[') of $(ninja -C "$work/qtbase-build" -t commands | wc -l) steps to do"
ninja -C "$work/qtbase-build" -j "$jobs"
echo "Compiled in $(($(date +%s) - phase_started)) s"
ninja -C "$work/qtbase-build" install >/dev/null

# minizip (zlib contrib/minizip 1.1): unzip with the Win32 file API; the core library's minizip
# backend links it (cmake/Minizip.cmake).
minizip_dir="$minizip_src"
[ -f "$minizip_dir/unzip.c" ] || minizip_dir="$(dirname "$(find "$minizip_src" -name unzip.c | head -n1)")"
mkdir -p "$work/minizip-build" "$prefix/minizip/include/minizip" "$prefix/minizip/lib" \
    "$prefix/lib/cmake/minizip"
for unit in "${minizip_units[@]}"; do
    x86_64-w64-mingw32-gcc-posix -O2 -Wall -c "$minizip_dir/$unit.c" \
        -I"$minizip_dir" -o "$work/minizip-build/$unit.o"
done
x86_64-w64-mingw32-ar rcs "$prefix/minizip/lib/libminizip.a" "$work"/minizip-build/*.o
cp "$minizip_dir"/{unzip.h,ioapi.h,iowin32.h,crypt.h} "$prefix/minizip/include/minizip/"
cat >"$prefix/lib/cmake/minizip/minizipConfig.cmake" <<'CONFIG'
# zlib contrib/minizip 1.1 (unzip, ioapi, iowin32), static, built by scripts/build-qt-mingw.sh.
include(CMakeFindDependencyMacro)
find_dependency(ZLIB)
if(NOT TARGET minizip::minizip)
    get_filename_component(_minizip_prefix "${CMAKE_CURRENT_LIST_DIR}/../../../minizip" ABSOLUTE)
    add_library(minizip::minizip STATIC IMPORTED)
    set_target_properties(minizip::minizip PROPERTIES
        IMPORTED_LOCATION "${_minizip_prefix}/lib/libminizip.a"
        INTERFACE_INCLUDE_DIRECTORIES "${_minizip_prefix}/include"
        INTERFACE_LINK_LIBRARIES ZLIB::ZLIB)
    unset(_minizip_prefix)
endif()
CONFIG

{
    echo "qt6-base source: $(basename "$qt_src")"
    echo "minizip source: $(basename "$minizip_src")"
    echo "host Qt tools: ${host_qt}"
    echo "MinGW-w64 runtime: ${mingw_runtime}"
    echo "compiler: $(x86_64-w64-mingw32-g++-posix --version | head -n1)"
    echo "recipe: ${recipe}"
    echo "built: $(date -u +%Y-%m-%dT%H:%M:%SZ) in $(($(date +%s) - started)) s"
} >"$stamp"
cat "$stamp"
compiler_cache_summary
echo "Qt ${qt_version} for MinGW-w64 is ready: ${prefix}"
