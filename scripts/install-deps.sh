#!/usr/bin/env bash
# Installs the Debian packages the project needs, only those missing.
# Idempotent: when everything is installed it changes nothing and is quiet.
set -euo pipefail

packages=(
  build-essential cmake pkg-config
  llvm-19-dev clang-19 libffi-dev libcmocka-dev libgc-dev
  zlib1g-dev libzstd-dev graphviz
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
