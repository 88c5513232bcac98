#!/usr/bin/env bash
# Installs what the AArch64 cross build needs (docs/aarch64.md), only what is
# missing; quiet when everything is there.
#
#   - on the host, with apt-get: qemu-user-static (runs AArch64 programs),
#     lld-19 (links them), and what scripts/install-deps.sh installs
#     (clang-19, cmake, the host's llvm-19-dev for llvm-config-19);
#   - the arm64 packages the build links and the programs load, downloaded
#     with `apt-get download` and unpacked with `dpkg-deb -x` into SYSROOT,
#     never installed: llvm-19-dev cannot be installed for two architectures
#     at once. The arm64 architecture is added to dpkg so that apt knows them.
#
# SYSROOT/.packages lists the packages and versions unpacked there: the same
# list again changes nothing, another one (a new version, a package added to
# the list below) unpacks the sysroot anew.
#
# usage: scripts/install-aarch64-deps.sh SYSROOT
set -euo pipefail

if [ $# -ne 1 ] || [ "${1#-}" != "$1" ]; then
  echo "usage: $0 SYSROOT" >&2
  exit 2
fi
sysroot=$1
here=$(cd "$(dirname "$0")" && pwd)

# The arm64 packages: the C library and the compiler's run time (crt files,
# libgcc, libstdc++ for LLVM), the collector, libffi, cmocka, Z3 (the proof
# tests), zlib and zstd (LLVM's compression), LLVM's static libraries and
# headers (llvm-19-dev; its configuration header says AArch64 is native).
arm64_packages=(
  libc6 libc6-dev linux-libc-dev libgcc-s1 libgcc-12-dev libstdc++6 libstdc++-12-dev
  libgc1 libgc-dev libffi8 libffi-dev libcmocka0 libcmocka-dev libz3-4 libz3-dev
  zlib1g zlib1g-dev libzstd1 libzstd-dev llvm-19-dev
)
host_packages=(qemu-user-static lld-19)

"$here/install-deps.sh"

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive

missing=()
for p in "${host_packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
updated=0
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
  echo "install-aarch64-deps: adding the arm64 architecture to dpkg"
  $sudo dpkg --add-architecture arm64
  $sudo apt-get update -qq
  updated=1
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-aarch64-deps: installing ${missing[*]}"
  [ "$updated" = 1 ] || $sudo apt-get update -qq
  updated=1
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The versions apt would download now (one apt-cache call: each costs a
# second or more): the sysroot is up to date when it holds exactly these.
versions() {
  local list
  list=$(apt-cache policy "${arm64_packages[@]/%/:arm64}" 2>/dev/null |
    awk '/^[^ ].*:$/ {name = substr($0, 1, length($0) - 1)}
         /^  Candidate:/ && $2 != "(none)" {print name "=" $2}')
  [ "$(echo "$list" | grep -c .)" -eq ${#arm64_packages[@]} ] || return 1
  echo "$list"
}
if ! wanted=$(versions); then
  [ "$updated" = 1 ] || $sudo apt-get update -qq
  if ! wanted=$(versions); then
    echo "install-aarch64-deps: apt has no candidate for one of: ${arm64_packages[*]} (arm64)" >&2
    exit 1
  fi
fi
if [ -f "$sysroot/.packages" ] && [ "$(cat "$sysroot/.packages")" = "$wanted" ]; then
  exit 0
fi

echo "install-aarch64-deps: unpacking ${#arm64_packages[@]} arm64 packages into $sysroot"
debs="$sysroot.debs"
rm -rf "$sysroot" "$debs"
mkdir -p "$sysroot" "$debs"
# apt-get download writes into the current folder; as root it hands the
# download to the _apt user, who must be able to write there
chmod 777 "$debs"
# shellcheck disable=SC2086
(cd "$debs" && apt-get download -qq $wanted)
for deb in "$debs"/*.deb; do
  dpkg-deb -x "$deb" "$sysroot"
done
rm -rf "$debs"
# Absolute symbolic links inside the packages (e.g. a library's .so naming
# /lib/aarch64-linux-gnu/...) would point at the host: make them relative
# to the sysroot.
find "$sysroot" -type l -lname '/*' | while read -r link; do
  target=$(readlink "$link")
  rel=$(realpath -m --relative-to="$(dirname "$link")" "$sysroot$target")
  ln -sfn "$rel" "$link"
done
echo "$wanted" >"$sysroot/.packages"
