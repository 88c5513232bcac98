#!/usr/bin/env bash
# Installs the Debian packages the project needs, only those missing.
# Idempotent: when everything is installed it changes nothing and is quiet.
#
# usage: scripts/install-deps.sh [--bench]
#   --bench  also the benchmark peers and the plot (docs/benchmarks.md):
#            luajit, lua5.4, pypy3, gnuplot, and nodejs unless a `node` is on PATH
set -euo pipefail

bench=0
for arg in "$@"; do
  case $arg in
  --bench) bench=1 ;;
  -h | --help)
    echo "usage: $0 [--bench]"
    exit 0
    ;;
  *)
    echo "usage: $0 [--bench]" >&2
    exit 2
    ;;
  esac
done

packages=(
  build-essential cmake pkg-config
  llvm-19-dev clang-19 libclang-rt-19-dev libffi-dev libcmocka-dev libgc-dev
  zlib1g-dev libzstd-dev graphviz libz3-dev
)
if [ "$bench" = 1 ]; then
  # gnuplot-nox satisfies gnuplot's dependency without Qt or X11 (the plot
  # uses the pngcairo terminal, which gnuplot-nox has).
  packages+=(luajit lua5.4 pypy3 gnuplot gnuplot-nox)
  # any node will do (the harness runs the one on PATH); Debian's otherwise
  if ! command -v node >/dev/null 2>&1; then
    packages+=(nodejs)
  fi
fi

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
