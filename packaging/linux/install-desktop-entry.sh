#!/usr/bin/env bash
# Put BME Desktop in the desktop's application menu: run from the unpacked bundle folder (it holds
# this script). Writes ~/.local/share/applications/bme-desktop.desktop pointing at this folder's
# program and the icon into ~/.local/share/icons/hicolor/scalable/apps; --remove takes both away.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
apps="${XDG_DATA_HOME:-$HOME/.local/share}/applications"
icons="${XDG_DATA_HOME:-$HOME/.local/share}/icons/hicolor/scalable/apps"
if [ "${1:-}" = "--remove" ]; then
    rm -f "$apps/bme-desktop.desktop" "$icons/bme-desktop.svg"
    echo "removed the menu entry"
    exit 0
fi
test -x "$here/bme-desktop" || { echo "run this script from the bundle folder (no bme-desktop beside it)" >&2; exit 1; }
mkdir -p "$apps" "$icons"
cp "$here/bme-desktop.svg" "$icons/bme-desktop.svg"
sed "s|^Exec=.*|Exec=\"$here/bme-desktop\"|" "$here/bme-desktop.desktop" > "$apps/bme-desktop.desktop"
command -v update-desktop-database >/dev/null && update-desktop-database -q "$apps" || true
echo "added BME Desktop to the application menu ($apps/bme-desktop.desktop)"
