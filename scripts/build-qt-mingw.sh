#!/usr/bin/env bash
# Builds the static Qt 6 (qtbase) and minizip that the Windows cross build links, for
# x86_64-w64-mingw32 with Debian's MinGW-w64 (posix threads), from Debian's own source packages.
#   scripts/build-qt-mingw.sh            build once; later runs exit at once
# The result lives outside the work tree, keyed by versions:
#   ${CUDNNSETUP_CACHE:-/var/cache/cudnn-setup}/qt-6.4.2-mingw-w64-10-static
#     bin/ lib/ include/ plugins/ ...    Qt (Core Gui Widgets Concurrent Test; qwindows, qwindowsvistastyle)
#     minizip/include/minizip/*.h        zlib contrib/minizip 1.1: unzip, ioapi, iowin32
#     minizip/lib/libminizip.a
#     lib/cmake/minizip/minizipConfig.cmake  (imported target minizip::minizip)
#     .complete                          written last: versions and a hash of the build options;
#                                        a prefix without it, or built with other options, is rebuilt
# Sources, build trees and the log (build.log) are under ${CUDNNSETUP_CACHE}/src/<key>.
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
jobs="${CUDNNSETUP_JOBS:-2}"

# qtbase. Debian removed the wintab headers (tablet events). OpenGL and Direct2D stay on: 6.4's
# Windows plugin does not build without them. PCRE2's JIT is off: with JIT, QRegularExpression
# keeps a thread_local JIT stack, and MinGW-w64 10 / GCC 12 free a worker thread's emulated TLS
# before running its thread_local destructors; the access violation in the thread-exit TLS
# callback leaves winpthreads' key lock held, and the program hangs in exit().
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
    -DFEATURE_sql=OFF
    -DFEATURE_network=OFF
    -DFEATURE_dbus=OFF
    -DFEATURE_printsupport=OFF
    -DFEATURE_vulkan=OFF
    -DFEATURE_concurrent=ON
    -DFEATURE_testlib=ON
    -DFEATURE_widgets=ON
)
minizip_units=(unzip ioapi iowin32)
# A prefix built with other options is rebuilt: the stamp records them.
recipe="$(printf '%s\n' "${qt_options[@]}" "${minizip_units[@]}" | sha256sum | cut -c1-16)"

if [ -f "$stamp" ] && grep -qx "recipe: ${recipe}" "$stamp"; then
    echo "Qt ${qt_version} for MinGW-w64 is ready: ${prefix}"
    exit 0
fi

repo="$(cd "$(dirname "$0")/.." && pwd)"
toolchain="${repo}/cmake/toolchain-mingw-w64.cmake"
work="${cache}/src/${key}"
log="${work}/build.log"

as_root=()
if [ "$(id -u)" -ne 0 ]; then
    as_root=(sudo)
fi
apt_get() {
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "$@"
}

packages=(
    build-essential cmake ninja-build pkg-config perl dpkg-dev xz-utils
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

"${as_root[@]}" mkdir -p "$cache"
"${as_root[@]}" chown "$(id -u):$(id -g)" "$cache"
rm -rf "$prefix" "$work"
mkdir -p "$work"
echo "Building ${key}; log: ${log}"
exec > >(tee -a "$log") 2>&1
started=$(date +%s)

cd "$work"
apt-get source -q qt6-base minizip
qt_src="$(find "$work" -maxdepth 1 -type d -name "qt6-base-*" | head -n1)"
minizip_src="$(find "$work" -maxdepth 1 -type d -name "minizip-*" | head -n1)"
if [ -z "$qt_src" ] || [ -z "$minizip_src" ]; then
    echo "error: unpacked sources not found in ${work}" >&2
    exit 1
fi

cmake -S "$qt_src" -B "$work/qtbase-build" -G Ninja \
    -DCMAKE_TOOLCHAIN_FILE="$toolchain" \
    -DCUDNNSETUP_QT_MINGW_PREFIX="$prefix" \
    -DCMAKE_INSTALL_PREFIX="$prefix" \
    "${qt_options[@]}"
ninja -C "$work/qtbase-build" -j "$jobs"
ninja -C "$work/qtbase-build" install

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
echo "Qt ${qt_version} for MinGW-w64 is ready: ${prefix}"
