#!/usr/bin/env bash
# System libraries Qt (and OpenGL under Xvfb) needs on Debian/Ubuntu.
# Installed when running as root; otherwise printed as one sudo line.
set -euo pipefail
PKGS="libgl1 libegl1 libglib2.0-0 libfontconfig1 libxkbcommon0 libdbus-1-3 fonts-dejavu-core fonts-wqy-microhei \
xvfb xauth libgl1-mesa-dri libxkbcommon-x11-0 libx11-xcb1 libxcb-cursor0 libxcb-icccm4 libxcb-image0 \
libxcb-keysyms1 libxcb-randr0 libxcb-render-util0 libxcb-shape0 libxcb-xfixes0 libxcb-xkb1 libxcb-glx0"
if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "Not a Debian/Ubuntu system: install Qt's runtime libraries and Xvfb with your package manager." >&2
    exit 0
fi
missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = "0" ]; then
    echo "Installing system libraries:$missing"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
else
    echo "BME Desktop needs these system libraries. Install them with:" >&2
    echo "  sudo apt-get install -y$missing" >&2
fi
