"""``bme-desktop serve``: the memory core and the bridge without a window."""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
from pathlib import Path
from types import FrameType
from typing import Any

from . import PROTOCOL
from .config import BridgeConfig, is_loopback_host
from .server import BridgeError, BridgeServer
from .tokens import TokenError, TokenSource, TokenStore

BRIDGE_FILE = "bridge.json"


def _fail(message: str, code: int = 2) -> int:
    print(f"bme-desktop serve: {message}", file=sys.stderr)
    sys.stderr.flush()
    return code


def _pid_alive(pid: Any) -> bool:
    if not isinstance(pid, int) or pid <= 0 or pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # exists, owned by someone else
    return True


def running_bridge(data_dir: Path) -> dict[str, Any] | None:
    """The ``bridge.json`` of another live bridge on this data dir, if any."""
    try:
        info = json.loads((data_dir / BRIDGE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return info if isinstance(info, dict) and _pid_alive(info.get("pid")) else None


def write_bridge_file(data_dir: Path, url: str) -> Path:
    path = data_dir / BRIDGE_FILE
    tmp = path.with_name(f".{BRIDGE_FILE}.{os.getpid()}.tmp")
    tmp.write_text(
        json.dumps({"url": url, "pid": os.getpid(), "protocol": PROTOCOL}) + "\n", encoding="utf-8"
    )
    os.replace(tmp, path)
    return path


def remove_bridge_file(data_dir: Path) -> None:
    """Remove ``bridge.json`` if it is still ours."""
    path = data_dir / BRIDGE_FILE
    try:
        info = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    if isinstance(info, dict) and info.get("pid") == os.getpid():
        path.unlink(missing_ok=True)


def serve_main(
    data_dir: Path, *, database_url: str | None, host: str | None, port: int | None, allow_remote: bool
) -> int:
    from ..core.errors import StoreError
    from ..core.paths import data_dir_problem
    from ..core.service import MemoryService
    from ..core.settings import SettingsError, load_settings

    problem = data_dir_problem(data_dir)
    if problem is not None:
        return _fail(problem)
    try:
        settings = load_settings(data_dir)
    except SettingsError as exc:
        return _fail(str(exc))
    if port is not None and not 0 <= port <= 65535:
        return _fail(f"--port must be from 0 to 65535 (got {port})")
    config = BridgeConfig.from_settings(settings.bridge, host=host, port=port, allow_remote=allow_remote)
    if not is_loopback_host(config.host):
        if not allow_remote:
            return _fail(
                f"{config.host} is not a loopback address; other machines could reach the bridge. "
                "Pass --allow-remote if that is what you want"
            )
        print(
            f"bme-desktop serve: WARNING: listening on {config.host}, reachable from other machines; "
            "anyone with the token can read and change your memories",
            file=sys.stderr,
        )
    other = running_bridge(data_dir)
    if other is not None:
        return _fail(
            f"another bridge (pid {other.get('pid')}) already serves {data_dir} at {other.get('url')}"
        )
    try:
        tokens = TokenSource(TokenStore(data_dir))
    except TokenError as exc:
        return _fail(str(exc))
    try:
        service = MemoryService.open(data_dir, database_url=database_url, settings=settings)
    except (StoreError, SettingsError) as exc:
        return _fail(str(exc))
    stop = threading.Event()

    def on_signal(signum: int, _frame: FrameType | None) -> None:
        stop.set()

    previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
    server = BridgeServer(service, tokens, config)
    try:
        try:
            server.start()
        except BridgeError as exc:
            return _fail(str(exc), 3)
        write_bridge_file(data_dir, server.url)
        service.warm_up()  # the word list and the embedding model, before the first chat connects
        print(json.dumps({"event": "ready", "url": server.url, "data_dir": str(data_dir)}), flush=True)
        while not stop.wait(0.5):
            pass
        return 0
    finally:
        server.stop()
        remove_bridge_file(data_dir)
        service.close()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
