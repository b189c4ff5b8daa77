#!/usr/bin/env bash
# Installs cuDNN Setup with its Windows installer silently under Wine, checks what it left (the two
# programs, a working cudnnctl, the Start-menu shortcut, the Add/Remove Programs entry), uninstalls
# it silently and checks that all of it is gone; before that, that it refuses any folder but Program
# Files (/D=).
#   scripts/check-windows-installer.sh BUILD_DIR
# BUILD_DIR is a Windows build folder where the target windows_installer has been built
# (BUILD_DIR/installer/cudnn-setup-<version>-x64-setup.exe). Wine uses $WINEPREFIX (default ~/.wine).
set -euo pipefail

if [ "$#" -ne 1 ]; then
    echo "usage: $0 BUILD_DIR" >&2
    exit 2
fi
version="$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$1/CMakeCache.txt")"
installer="$1/installer/cudnn-setup-$version-x64-setup.exe"
if [ -z "$version" ] || [ ! -f "$installer" ]; then
    echo "no installer $installer: build the target windows_installer in $1 first" >&2
    exit 1
fi

# shellcheck source=scripts/wine-checks.sh
source "$(dirname "$0")/wine-checks.sh"

export WINEDEBUG="${WINEDEBUG:--all}"
# No menu entries or file associations for the Linux desktop from the shortcut the installer makes.
export WINEDLLOVERRIDES="${WINEDLLOVERRIDES:+$WINEDLLOVERRIDES;}winemenubuilder.exe=d"

key='HKLM\Software\Microsoft\Windows\CurrentVersion\Uninstall\cuDNN Setup'
install_dir="$(winepath -u 'C:\Program Files\cuDNN Setup' | tr -d '\r')"
shortcut="$(winepath -u 'C:\ProgramData\Microsoft\Windows\Start Menu\Programs\cuDNN Setup.lnk' | tr -d '\r')"

elsewhere='C:\Tools\cuDNNSetup'
echo "Refusing a folder other than Program Files: /D=$elsewhere"
status=0
wine "$installer" /S "/D=$elsewhere" || status=$?
[ "$status" -eq 2 ] || fail "the installer given /D=$elsewhere exited with status $status, expected 2"
[ ! -e "$(winepath -u "$elsewhere" | tr -d '\r')" ] || fail "the installer created $elsewhere"
! wine reg query "$key" >/dev/null 2>&1 || fail "the refused install wrote $key"
echo "  refused, nothing written"

echo "Installing silently: $installer (version $version)"
wine "$installer" /S || fail "the installer exited with status $?"
for program in cudnn-setup.exe cudnnctl.exe uninstall.exe; do
    [ -f "$install_dir/$program" ] || fail "$install_dir/$program is missing"
done
[ -f "$shortcut" ] || fail "the Start-menu shortcut $shortcut is missing"
reported="$(wine "$install_dir/cudnnctl.exe" --version | tr -d '\r')" || fail "cudnnctl --version failed"
[ "$reported" = "cudnnctl $version" ] || fail "cudnnctl --version says '$reported', expected 'cudnnctl $version'"
echo "  $reported"

check_value DisplayName 'cuDNN Setup'
check_value DisplayVersion "$version"
check_value Publisher 'cuDNN Setup'
check_value InstallLocation 'C:\Program Files\cuDNN Setup'
check_value UninstallString '"C:\Program Files\cuDNN Setup\uninstall.exe"'
check_value QuietUninstallString '"C:\Program Files\cuDNN Setup\uninstall.exe" /S'
check_value DisplayIcon 'C:\Program Files\cuDNN Setup\cudnn-setup.exe,0'
check_value NoModify 0x1
check_value NoRepair 0x1
# EstimatedSize is in KiB: within a tenth of what du counts.
size="$(registry_value EstimatedSize)"
installed_kib="$(du -sk "$install_dir" | cut -f1)"
if [ -z "$size" ] || [ $((size)) -lt $((installed_kib * 9 / 10)) ] || [ $((size)) -gt $((installed_kib * 11 / 10)) ]; then
    fail "EstimatedSize is '$size', the folder holds $installed_kib KiB"
fi
echo "  files, shortcut and $key are in place"

echo "Uninstalling silently"
# The uninstaller copies itself to the temporary folder, starts the copy and returns at once: wait
# for the copy to finish its work.
wine "$install_dir/uninstall.exe" /S || fail "the uninstaller exited with status $?"
for _ in $(seq 120); do
    if [ ! -e "$install_dir" ] && ! wine reg query "$key" >/dev/null 2>&1; then
        break
    fi
    sleep 1
done
[ ! -e "$install_dir" ] || fail "$install_dir is still there after uninstalling: $(ls -A "$install_dir")"
[ ! -e "$shortcut" ] || fail "the Start-menu shortcut $shortcut is still there after uninstalling"
if wine reg query "$key" >/dev/null 2>&1; then
    fail "$key is still there after uninstalling"
fi
echo "  files, shortcut and $key are gone"
echo "Windows installer: OK"
