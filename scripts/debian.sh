#!/usr/bin/env bash
# Sets up a Debian 12 machine for cuDNN Setup, builds it, and runs the wizard or the tests.
#   scripts/debian.sh run    install packages, build, start the wizard
#   scripts/debian.sh test   install packages, build, run every test suite: natively, then the same
#                            suites (and the Windows-only ones) cross-built with MinGW-w64 and run
#                            under Wine against real Windows APIs; then builds the Windows
#                            installer and installs and uninstalls it silently under Wine
# Packages are installed with apt-get as root, or through sudo. The Windows leg builds a static Qt
# for MinGW-w64 once (about a quarter of an hour) into a cache outside the work tree.
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

packages=(
    build-essential cmake ninja-build pkg-config
    qt6-base-dev qt6-base-dev-tools qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools
    qt6-translations-l10n libquazip1-qt6-dev libminizip-dev libisal-dev zlib1g-dev libssl-dev libgl-dev
    fonts-wqy-microhei python3
)
if [ "$mode" = test ]; then
    packages+=(mingw-w64 libz-mingw-w64-dev wine wine64 xvfb xauth nsis)
fi

missing=()
for package in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done
if [ "${#missing[@]}" -gt 0 ]; then
    as_root=()
    if [ "$(id -u)" -ne 0 ]; then
        as_root=(sudo)
    fi
    echo "Installing: ${missing[*]}"
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

cmake --preset linux
cmake --build --preset linux

if [ "$mode" = run ]; then
    exec ./build/app/cudnn-setup
fi
# Each suite's own count of test functions and rows, from ctest's log.
test_counts() {
    awk '/ Testing: /{name=$3} /^Totals:/{sub(/^Totals: /, ""); printf "  %-34s %s\n", name, $0}' \
        "$1/Testing/Temporary/LastTest.log" | sort
}

ctest --preset linux -j "$(nproc)"
echo "Native suites:"
test_counts build

scripts/build-qt-mingw.sh
cmake --preset windows-cross
cmake --build --preset windows-cross
# Wine gets a prefix of its own inside the build folder; the Windows suites that show windows
# (screenshots) need a display, which Xvfb gives.
export WINEPREFIX="$PWD/build-windows-cross/wineprefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
# Create the prefix once, before parallel tests race to create it (no Mono or Gecko prompts).
wineboot --init
wineserver --wait
xvfb-run -a ctest --preset windows-cross -j "$(nproc)"
echo "Windows suites under Wine:"
test_counts build-windows-cross

cmake --build --preset windows-cross --target windows_installer
scripts/check-windows-installer.sh build-windows-cross
