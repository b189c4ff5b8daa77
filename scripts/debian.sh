#!/usr/bin/env bash
# Sets up a Debian 12 machine for cuDNN Setup, builds it, and runs the wizard or the tests.
#   scripts/debian.sh run    install packages, build, start the wizard
#   scripts/debian.sh test   install packages, build, run every test suite
# Packages are installed with apt-get as root, or through sudo.
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
    qt6-translations-l10n libquazip1-qt6-dev zlib1g-dev libgl-dev
    fonts-wqy-microhei python3
)

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
ctest --preset linux -j "$(nproc)"
