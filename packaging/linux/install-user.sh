#!/usr/bin/env bash
# Install the desktop integration for ONE user (no root): the menu entry, the
# icon, the MIME type of Communicator logs (so a file manager opens
# NAME-hublog.xml with the annotator) and the AppStream metadata, all under
# ~/.local/share (or $XDG_DATA_HOME).
#
#   bash packaging/linux/install-user.sh                  # finds the app (see below)
#   bash packaging/linux/install-user.sh --exec /path/to/annotator-gui
#   bash packaging/linux/install-user.sh --uninstall
#
# The app it starts, first found: --exec PATH; the standalone build this script
# was copied into (dist/annotator/desktop/ -> dist/annotator/annotator);
# `annotator-gui` on PATH (pip or pipx install); the checkout's dist/annotator/annotator.
set -euo pipefail

APP_ID="io.github.communicator_annotator"
MIME_TYPE="application/x-communicator-log+xml"
HERE="$(cd "$(dirname "$0")" && pwd)"
DATA="${XDG_DATA_HOME:-$HOME/.local/share}"
SIZES=(16 32 48 64 128 256)

usage() { sed -n '2,14s/^# \{0,1\}//p' "$0"; exit "${1:-0}"; }

exec_path=""
action="install"
while [ $# -gt 0 ]; do
  case "$1" in
    --exec) [ $# -ge 2 ] || usage 2; exec_path="$2"; shift 2 ;;
    --uninstall) action="uninstall"; shift ;;
    -h|--help) usage 0 ;;
    *) echo "install-user: unknown option $1" >&2; usage 2 ;;
  esac
done

# Icons and desktop files sit beside this script in a standalone build, in the checkout otherwise.
if [ -f "$HERE/icons/annotator.svg" ]; then ICONS="$HERE/icons"; else ICONS="$HERE/../../resources/icons"; fi

refresh() {
  # Each tool is optional: desktops also notice the files at the next login.
  command -v update-mime-database >/dev/null && update-mime-database "$DATA/mime" >/dev/null || true
  command -v update-desktop-database >/dev/null && update-desktop-database "$DATA/applications" >/dev/null 2>&1 || true
  command -v gtk-update-icon-cache >/dev/null && [ -f "$DATA/icons/hicolor/index.theme" ] \
    && gtk-update-icon-cache --quiet --force "$DATA/icons/hicolor" || true
  touch "$DATA/icons/hicolor" 2>/dev/null || true
}

if [ "$action" = "uninstall" ]; then
  rm -f "$DATA/applications/$APP_ID.desktop" "$DATA/mime/packages/communicator-log.xml" \
    "$DATA/metainfo/$APP_ID.metainfo.xml" "$DATA/icons/hicolor/scalable/apps/$APP_ID.svg"
  for size in "${SIZES[@]}"; do rm -f "$DATA/icons/hicolor/${size}x${size}/apps/$APP_ID.png"; done
  mimeapps="${XDG_CONFIG_HOME:-$HOME/.config}/mimeapps.list"
  [ ! -f "$mimeapps" ] || sed -i "\|^$MIME_TYPE=$APP_ID.desktop;\{0,1\}\$|d" "$mimeapps"
  mkdir -p "$DATA/mime" "$DATA/applications" "$DATA/icons/hicolor"
  refresh
  echo "install-user: removed the Communicator Annotator's desktop files from $DATA"
  exit 0
fi

if [ -z "$exec_path" ]; then
  if [ -x "$HERE/../annotator" ] && [ -d "$HERE/../_internal" ]; then exec_path="$HERE/../annotator"
  elif command -v annotator-gui >/dev/null; then exec_path="$(command -v annotator-gui)"
  elif [ -x "$HERE/../../dist/annotator/annotator" ]; then exec_path="$HERE/../../dist/annotator/annotator"
  else
    echo "install-user: no app found: install it (pipx install .) or build it (bash packaging/build.sh), or pass --exec PATH" >&2
    exit 1
  fi
fi
[ -x "$exec_path" ] || { echo "install-user: $exec_path is not an executable program" >&2; exit 1; }
# Absolute, since a desktop session's PATH often lacks ~/.local/bin.
exec_path="$(cd "$(dirname "$exec_path")" && pwd)/$(basename "$exec_path")"

desktop_exec() {
  # The Desktop Entry spec's quoting: a quoted argument escapes \ " ` $ with a backslash, the
  # file's string escaping doubles every backslash, and a literal % is %%.
  local arg="$1" b='\'
  arg="${arg//"$b"/"$b$b$b$b"}"
  arg="${arg//'"'/"$b$b"'"'}"
  arg="${arg//'`'/"$b$b"'`'}"
  arg="${arg//'$'/"$b$b"'$'}"
  arg="${arg//%/%%}"
  printf '"%s"' "$arg"
}

install -d "$DATA/applications" "$DATA/mime/packages" "$DATA/metainfo" "$DATA/icons/hicolor/scalable/apps"
while IFS= read -r line; do
  case "$line" in
    TryExec=*) printf 'TryExec=%s\n' "${exec_path//'\'/'\\'}" ;;
    Exec=*) printf 'Exec=%s %s\n' "$(desktop_exec "$exec_path")" "${line#* }" ;;
    *) printf '%s\n' "$line" ;;
  esac
done <"$HERE/$APP_ID.desktop" >"$DATA/applications/$APP_ID.desktop"
install -m 644 "$HERE/communicator-log.xml" "$DATA/mime/packages/communicator-log.xml"
install -m 644 "$HERE/$APP_ID.metainfo.xml" "$DATA/metainfo/$APP_ID.metainfo.xml"
install -m 644 "$ICONS/annotator.svg" "$DATA/icons/hicolor/scalable/apps/$APP_ID.svg"
for size in "${SIZES[@]}"; do
  install -d "$DATA/icons/hicolor/${size}x${size}/apps"
  install -m 644 "$ICONS/annotator-$size.png" "$DATA/icons/hicolor/${size}x${size}/apps/$APP_ID.png"
done
refresh
# Communicator logs open in the annotator by default; other XML keeps its own default.
command -v xdg-mime >/dev/null && xdg-mime default "$APP_ID.desktop" "$MIME_TYPE" 2>/dev/null || true

echo "install-user: installed for $(id -un) under $DATA; the menu entry starts $exec_path"
