#!/usr/bin/env bash
# Installs cuDNN Setup's MSI silently under Wine (msiexec /i … /qn), as Group Policy or SCCM would,
# checks what it left (the two programs, a working cudnnctl, the Start-menu shortcut, the Apps &
# features entry), installs a newer MSI over it (one entry left, the newer version), uninstalls
# (msiexec /x … /qn) and checks that all of it is gone.
#   scripts/check-windows-msi.sh BUILD_DIR
# BUILD_DIR is a Windows build folder where the target windows_msi has been built
# (BUILD_DIR/installer/cudnn-setup-<version>-x64.msi, its programs in installer/msi-stage). Wine
# uses $WINEPREFIX (default ~/.wine).
set -euo pipefail

if [ "$#" -ne 1 ]; then
    echo "usage: $0 BUILD_DIR" >&2
    exit 2
fi
build="$(cd "$1" && pwd)"
repo="$(cd "$(dirname "$0")/.." && pwd)"
version="$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")"
msi="$build/installer/cudnn-setup-$version-x64.msi"
if [ -z "$version" ] || [ ! -f "$msi" ]; then
    echo "no MSI $msi: build the target windows_msi in $1 first" >&2
    exit 1
fi

# shellcheck source=scripts/wine-checks.sh
source "$repo/scripts/wine-checks.sh"

export WINEDEBUG="${WINEDEBUG:--all}"
export WINEDLLOVERRIDES="${WINEDLLOVERRIDES:+$WINEDLLOVERRIDES;}winemenubuilder.exe=d"

product_code() {
    msiinfo export "$1" Property | tr -d '\r' | awk '$1 == "ProductCode" { print $2 }'
}
uninstall_key() {
    echo "HKLM\\Software\\Microsoft\\Windows\\CurrentVersion\\Uninstall\\$1"
}
install_dir="$(winepath -u 'C:\Program Files\cuDNN Setup' | tr -d '\r')"
# Windows puts a per-machine MSI's shortcut in the common Start menu; Wine's msi in the user's.
shortcuts=("$(winepath -u 'C:\ProgramData\Microsoft\Windows\Start Menu\Programs\cuDNN Setup.lnk' | tr -d '\r')"
    "$(winepath -u "$(wine cmd /c echo '%APPDATA%' 2>/dev/null | tr -d '\r')\\Microsoft\\Windows\\Start Menu\\Programs\\cuDNN Setup.lnk" | tr -d '\r')")
shortcut_present() {
    [ -f "${shortcuts[0]}" ] || [ -f "${shortcuts[1]}" ]
}

# The folder is fixed: a public INSTALLDIR on the command line (what an all-users shortcut to a
# folder under C:\ that users may change would need) is no property of this MSI.
# The machine state folder is made by the MSI (as SYSTEM, through cudnnctl prepare-state), before any
# user could make it.
state_dir="$(winepath -u 'C:\ProgramData\cuDNN Setup' | tr -d '\r')"
rm -rf "$state_dir"
echo "Installing silently: msiexec /i $(basename "$msi") /qn INSTALLDIR=C:\Tools\cuDNNSetup"
elsewhere="$(winepath -u 'C:\Tools\cuDNNSetup' | tr -d '\r')"
wine msiexec /i "$(winepath -w "$msi" | tr -d '\r')" /qn 'INSTALLDIR=C:\Tools\cuDNNSetup' ||
    fail "msiexec /i exited with status $?"
[ ! -e "$elsewhere" ] || fail "INSTALLDIR moved the programs to $elsewhere"
for program in cudnn-setup.exe cudnnctl.exe; do
    [ -f "$install_dir/$program" ] || fail "$install_dir/$program is missing"
done
shortcut_present || fail "the Start-menu shortcut is missing (${shortcuts[*]})"
for folder in receipts custody exchange; do
    [ -d "$state_dir/$folder" ] || fail "the MSI did not make the state folder's $folder ($state_dir)"
done
reported="$(wine "$install_dir/cudnnctl.exe" --version | tr -d '\r')" || fail "cudnnctl --version failed"
[ "$reported" = "cudnnctl $version" ] || fail "cudnnctl --version says '$reported', expected 'cudnnctl $version'"
echo "  $reported"
first="$(product_code "$msi")"
key="$(uninstall_key "$first")"
check_value DisplayName 'cuDNN Setup'
check_value DisplayVersion "$version"
check_value Publisher 'cuDNN Setup'
check_value WindowsInstaller 0x1
echo "  files, shortcut and $key are in place"

# A newer MSI of the same UpgradeCode replaces this one: the same programs, built as a later version.
newer_version="${version%.*}.$((${version##*.} + 1))"
newer="$(mktemp -d)/cudnn-setup-$newer_version-x64.msi"
(cd "$build/installer/msi-stage" && wixl -a x64 -D "Version=$newer_version" -o "$newer" \
    "$repo/installer/cudnn-setup.wxs" 2>/dev/null) || fail "wixl could not build $newer"
echo "Upgrading silently: msiexec /i $(basename "$newer") /qn"
wine msiexec /i "$(winepath -w "$newer" | tr -d '\r')" /qn || fail "the upgrade exited with status $?"
! wine reg query "$key" >/dev/null 2>&1 || fail "$key ($version) is still there after the upgrade"
key="$(uninstall_key "$(product_code "$newer")")"
check_value DisplayVersion "$newer_version"
[ -f "$install_dir/cudnnctl.exe" ] || fail "$install_dir/cudnnctl.exe is missing after the upgrade"
echo "  one entry, version $newer_version"

echo "Uninstalling silently: msiexec /x … /qn"
wine msiexec /x "$(winepath -w "$newer" | tr -d '\r')" /qn || fail "msiexec /x exited with status $?"
[ ! -e "$install_dir" ] || fail "$install_dir is still there after uninstalling: $(ls -A "$install_dir")"
! shortcut_present || fail "the Start-menu shortcut is still there after uninstalling"
! wine reg query "$key" >/dev/null 2>&1 || fail "$key is still there after uninstalling"
rm -rf "$(dirname "$newer")"
echo "  files, shortcut and $key are gone"
echo "Windows MSI: OK"
