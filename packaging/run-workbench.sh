#!/usr/bin/env bash
# Quick start, command 1: set up, build, and start the workbench on its embedded cluster.
# With no display, runs the headless demo (opbench-operator --embedded) instead and says so.
set -euo pipefail
cd "$(dirname "$0")/.."
packaging/setup.sh
packaging/build.sh
BUILD_DIR=${OPBENCH_BUILD_DIR:-build}
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  exec "$BUILD_DIR/app/opbench" "$@"
fi
echo "run-workbench: no display (DISPLAY/WAYLAND_DISPLAY unset): running the headless demo instead:"
echo "  $BUILD_DIR/app/opbench-operator --embedded --zap-encoder console"
exec "$BUILD_DIR/app/opbench-operator" --embedded --zap-encoder console "$@"
