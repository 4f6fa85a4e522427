#!/usr/bin/env bash
# Quick start, command 2: set up, build, and run the whole test suite (ctest, every label).
set -euo pipefail
cd "$(dirname "$0")/.."
packaging/setup.sh
packaging/build.sh
BUILD_DIR=${OPBENCH_BUILD_DIR:-build}
cd "$BUILD_DIR"
ctest --no-tests=error --output-on-failure --timeout 300 -j2 "$@"
