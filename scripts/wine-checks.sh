# Sourced by the installer checks (check-windows-installer.sh, check-windows-msi.sh): how they fail,
# and how they read the Apps & features entry under Wine. The caller sets `key`, the entry's
# registry key.

fail() {
    echo "FAIL: $*" >&2
    exit 1
}
# One value of the Uninstall key, empty when the key or the value is missing. A failed query is
# asked again a few times and never ends the script by itself: in a CI run right after the Wine
# suites, one ended it here without a word (set -e, pipefail), though the key was written.
registry_value() {
    local output='' attempt
    for attempt in 1 2 3 4 5; do
        if output="$(wine reg query "$key" /v "$1" 2>/dev/null)"; then
            break
        fi
        echo "  (wine reg query $1 failed, attempt $attempt)" >&2
        sleep 1
    done
    printf '%s\n' "$output" | tr -d '\r' |
        awk -v name="$1" '$1 == name { sub(/^[ \t]*[^ \t]+[ \t]+[^ \t]+[ \t]+/, ""); print }'
}

check_value() {
    local actual
    actual="$(registry_value "$1")"
    [ "$actual" = "$2" ] || fail "$key\\$1 is '$actual', expected '$2'"
}
