#!/usr/bin/env bash
# Sets up a Debian 12 machine for cuDNN Setup, builds it, and runs the wizard or the tests.
#   scripts/debian.sh run    install packages, build, start the wizard
#   scripts/debian.sh test   install packages, build, run every test suite: natively, the unit suites
#                            again under ASan and UBSan with the fuzz targets briefly, then the same
#                            suites (and the Windows-only ones) cross-built with MinGW-w64 and run
#                            under Wine against real Windows APIs; then builds the Windows
#                            installer and the MSI and installs (the MSI: upgrades too) and
#                            uninstalls each silently under Wine
# Packages are installed with apt-get as root, or through sudo. The Windows leg builds a static Qt
# for MinGW-w64 once into a cache outside the work tree, ${CUDNNSETUP_CACHE:-/var/cache/cudnn-setup},
# where ccache keeps every compiled object too, so later builds on this machine (CI's clean clones
# included) compile only what changed. Each phase's time is printed at the end.
set -euo pipefail

mode="${1:-}"
case "$mode" in
    run | test) ;;
    *)
        echo "usage: $0 run|test" >&2
        exit 2
        ;;
esac

cd "$(dirname "$0")/.."
repo="$PWD"
cache="${CUDNNSETUP_CACHE:-/var/cache/cudnn-setup}"
as_root=()
if [ "$(id -u)" -ne 0 ]; then
    as_root=(sudo)
fi

# phase NAME COMMAND...: runs COMMAND and remembers how long it took.
phases=()
phase() {
    local name="$1" started
    shift
    started=$(date +%s)
    "$@"
    phases+=("$(printf '%-44s %4d s' "$name" "$(($(date +%s) - started))")")
}
print_phases() {
    echo "Time per phase:"
    printf '  %s\n' "${phases[@]}"
    compiler_cache_summary
}

packages=(
    build-essential cmake ninja-build pkg-config ccache
    qt6-base-dev qt6-base-dev-tools qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools
    qt6-translations-l10n libquazip1-qt6-dev libminizip-dev libarchive-dev libisal-dev zlib1g-dev libssl-dev libgl-dev
    fonts-wqy-microhei python3
)
if [ "$mode" = test ]; then
    packages+=(ansible-core) # the native e2e suite tst_ansible_role runs deploy/ansible's role
    packages+=(mingw-w64 libz-mingw-w64-dev wine wine64 xvfb xauth nsis wixl msitools clang libclang-rt-14-dev)
fi

install_packages() {
    local missing=() package
    for package in "${packages[@]}"; do
        if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
            missing+=("$package")
        fi
    done
    if [ "${#missing[@]}" -gt 0 ]; then
        echo "Installing: ${missing[*]}"
        "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
        "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
    fi
}
phase "Debian packages" install_packages

# shellcheck source=scripts/compiler-cache.sh
source scripts/compiler-cache.sh
use_compiler_cache "$repo"
# build PRESET [BUILD OPTIONS...]: configure (compilations through ccache) and build.
build() {
    local preset="$1"
    shift
    cmake --preset "$preset" -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache
    cmake --build --preset "$preset" "$@"
}

if [ "$mode" = run ]; then
    # The wizard and what it links, not the suites: the window shows in half the time.
    phase "Native build of the wizard (build/)" build linux --target cudnn-setup
    print_phases
    exec ./build/app/cudnn-setup
fi
phase "Native build (build/)" build linux
# Each suite's own count of test functions and rows, from ctest's log.
test_counts() {
    awk '/ Testing: /{name=$3} /^Totals:/{sub(/^Totals: /, ""); printf "  %-34s %s\n", name, $0}' \
        "$1/Testing/Temporary/LastTest.log" | sort
}

phase "Native suites" ctest --preset linux -j "$(nproc)"
echo "Native suites:"
test_counts build

# The unit suites again under AddressSanitizer and UBSan (clang), and each libFuzzer target briefly
# from the project's own seeds (tests/fuzz/run.sh runs them longer).
phase "Sanitizer build (build-sanitize/)" build sanitize
phase "Native unit suites under ASan and UBSan" ctest --preset sanitize -j "$(nproc)"
phase "Fuzz targets, 30 s each" env FUZZ_NO_BUILD=1 tests/fuzz/run.sh 30

phase "Static Qt for MinGW-w64 (once a machine)" scripts/build-qt-mingw.sh
phase "Windows cross build (build-windows-cross/)" build windows-cross
# Wine gets a prefix of its own inside the build folder; the Windows suites that show windows
# (screenshots) need a display, which Xvfb gives.
export WINEPREFIX="$PWD/build-windows-cross/wineprefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
wine_suites() {
    # One wineserver and one set of Wine's own processes (the desktop, services) for the whole run,
    # started before the tests with their output going nowhere: a test that started them would
    # hand them its output pipe, and CTest would wait for that test until the last one ended, or
    # until its timeout. wineboot also creates the prefix before parallel tests race to.
    # shellcheck disable=SC2016 # expanded by the inner shell
    xvfb-run -a bash -c '
        wineserver --persistent </dev/null >/dev/null 2>&1
        trap "wineserver --kill" EXIT
        wineboot --init </dev/null >/dev/null 2>&1
        ctest --preset windows-cross -j "$(nproc)"'
}
phase "Windows suites under Wine" wine_suites
echo "Windows suites under Wine:"
test_counts build-windows-cross

windows_installer() {
    cmake --build --preset windows-cross --target windows_installer
    scripts/check-windows-installer.sh build-windows-cross
}
phase "Windows installer, installed and removed under Wine" windows_installer

windows_msi() {
    cmake --build --preset windows-cross --target windows_msi
    scripts/check-windows-msi.sh build-windows-cross
}
phase "Windows MSI, installed, upgraded and removed under Wine" windows_msi
print_phases
