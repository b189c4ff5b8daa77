#!/bin/sh
# The MinGW-w64 build's CMAKE_CROSSCOMPILING_EMULATOR: runs a Windows program under Wine, its output
# going to a file that is printed once the program has ended. Whatever Wine starts on the
# program's behalf (a service, a device host, a child still running) inherits that file rather
# than CTest's pipe, so CTest sees a test end when its program does, instead of waiting for the
# last of those processes, past the test's timeout.
#   run-under-wine.sh PROGRAM.exe [ARGUMENT...]
set -u
output="$(mktemp)" || exit 125
wine "$@" >"$output" 2>&1 </dev/null
status=$?
cat "$output"
rm -f "$output"
exit "$status"
