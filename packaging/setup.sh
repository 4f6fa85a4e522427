#!/usr/bin/env bash
# opbench set-up: installs exactly the Debian 12 packages the project needs.
# Idempotent: when everything is present it only checks and returns in about a second.
# Usage: packaging/setup.sh            (as root, or through sudo)
set -euo pipefail

PACKAGES=(
  # toolchain
  cmake g++ ninja-build ccache pkg-config git
  # Qt 6 (Core, Network, Widgets, Test come with qt6-base-dev; Charts needs libqt6opengl6-dev)
  qt6-base-dev qt6-httpserver-dev qt6-charts-dev libqt6opengl6-dev libqt6svg6 libxkbcommon-dev
  qt6-qpa-plugins
  # libraries
  qcoro-qt6-dev libyaml-cpp-dev libssl-dev openssl libsimdjson-dev
  # the allocator every executable links (cmake/OpbenchAllocator.cmake)
  libtcmalloc-minimal4
  # test and screenshot tooling
  xvfb xauth imagemagick python3 python3-kubernetes python3-prometheus-client curl procps
  # cost guard (bench/cost-guard.sh): instructions counted under callgrind
  valgrind
  # style checks (packaging/check-style.sh)
  clang-format-14 clang-tidy-14
)

die() { echo "setup: $*" >&2; exit 1; }

if [ -r /etc/os-release ]; then . /etc/os-release; fi
if [ "${ID:-}" != "debian" ] || [ "${VERSION_ID:-}" != "12" ]; then
  die "this script knows Debian 12 (bookworm) only; found '${PRETTY_NAME:-unknown system}'. Install the equivalent of: ${PACKAGES[*]}"
fi

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#PACKAGES[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || die "not root and no sudo: run as root to install ${missing[*]}"
  SUDO="sudo"
fi
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "setup: done"
