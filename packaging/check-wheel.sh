#!/usr/bin/env bash
# Install the built wheel into a fresh venv outside the source tree and run the installed program:
# --version, doctor (on a throwaway data folder) and a screenshot of the demo (offscreen Qt), so a
# file missing from the wheel (themes, translations, prompts) shows here rather than on a user's machine.
# Usage: packaging/check-wheel.sh DIST_DIR [SCREENSHOT.png]   (the second argument keeps the screenshot)
set -euo pipefail
dist=$(cd "${1:-dist}" && pwd)
wheel=$(ls "$dist"/bme_desktop-*.whl | head -n 1)
work=$(mktemp -d /tmp/bme-wheel-check.XXXXXX)
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install -q "$wheel"
cd "$work"   # nothing of the source tree on the path
export BME_DATA_DIR="$work/data" QT_QPA_PLATFORM=offscreen PYTHON_KEYRING_BACKEND=keyring.backends.null.Keyring
"$work/venv/bin/bme-desktop" --version
"$work/venv/bin/bme-desktop" doctor
"$work/venv/bin/bme-desktop" --demo --no-bridge --lang zh --screenshot "$work/demo.png"
test -s "$work/demo.png"
if [ -n "${2:-}" ]; then cp "$work/demo.png" "$2"; fi
echo "wheel check passed: $(basename "$wheel")"
