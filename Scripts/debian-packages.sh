# Sourced by the scripts that need a Debian package at run time (Scripts/callgrind.sh,
# Scripts/targets.sh):
#
#   source Scripts/debian-packages.sh
#   install_debian_packages valgrind libxml2-utils
#
# Installs the packages named, as root or through `sudo -n`; a failure stops the calling script
# (under `set -e`). Scripts/install-test-tools.sh is the soft variant for the test suite's tools.
install_debian_packages() {
    [ "$#" -gt 0 ] || return 0
    echo "installing $*" >&2
    local sudo=()
    [ "$(id -u)" = 0 ] || sudo=(sudo -n)
    "${sudo[@]}" apt-get update -qq >/dev/null
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}
