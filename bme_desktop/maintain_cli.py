"""``bme-desktop maintain CHAT TASK [--from N] [--to M]``: a maintenance task or one of ST-BME's
operations (``core.chat_ops``) from the command line.

When a bridge serves the data folder (the app or ``serve`` is running), the task goes to it
(``POST /v1/chats/{chat}/maintenance``), so the running instance's extraction and vector index
see it; otherwise the memory is opened here. Progress goes to stderr, the result as JSON to
stdout. Bad input (unknown chat or task, a bad range, nothing to do) is one line on stderr and
exit status 2, with nothing changed.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .bridge.client import BridgeClient


def add_command(
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
    add_common: Callable[[argparse.ArgumentParser], None],
) -> None:
    from .core.chat_ops import OPERATIONS
    from .core.service import MAINTENANCE_TASKS

    tasks = tuple(dict.fromkeys((*MAINTENANCE_TASKS, *OPERATIONS)))
    maintain = sub.add_parser(
        "maintain",
        help="run a maintenance task or operation on a chat (extract_pending, reextract, "
        "rebuild_summaries, rebuild_vectors, evolve, summarize, …); one undo step each",
    )
    add_common(maintain)
    maintain.add_argument("chat", metavar="CHAT", help="the chat's id")
    maintain.add_argument("task", metavar="TASK", choices=tasks, help=f"one of {', '.join(tasks)}")
    maintain.add_argument(
        "--from",
        dest="start",
        type=int,
        metavar="N",
        help="first message of the range (reextract, rebuild_vectors, evolve)",
    )
    maintain.add_argument("--to", dest="end", type=int, metavar="M", help="last message of the range")


def _progress(done: int, total: int) -> None:
    print(f"{done}/{total}", file=sys.stderr, flush=True)


def run(args: argparse.Namespace, data_dir: Path) -> int:
    def through_bridge(client: BridgeClient) -> dict[str, Any]:
        body = client.maintenance(args.chat, args.task, start=args.start, end=args.end)
        if isinstance(body.get("retention"), dict):
            _say_retention(body["retention"])
        return body

    return run_here_or_through_bridge(data_dir, through_bridge, lambda: _in_process(args, data_dir))


def _say_retention(retention: dict[str, Any]) -> None:
    """Upkeep's retention in a line on stderr (the JSON on stdout carries it too)."""
    if retention.get("refused_text"):
        print(f"bme-desktop: {retention['refused_text']}", file=sys.stderr)
    total, expiring = int(retention.get("total", 0)), int(retention.get("bin_expiring", 0))
    if total or expiring:
        rules = ", ".join(
            f"{n} by {rule.replace('_', ' ')}" for rule, n in dict(retention.get("by_rule", {})).items()
        )
        print(
            f"retention: {total} memories to the recycle bin{f' ({rules})' if rules else ''}; "
            f"{expiring} deleted for good from the bin",
            file=sys.stderr,
        )


def run_here_or_through_bridge(
    data_dir: Path,
    through_bridge: Callable[[BridgeClient], dict[str, Any]],
    in_process: Callable[[], dict[str, Any]],
) -> int:
    """Send a command to the bridge serving ``data_dir`` (so the running instance sees it), or
    run it here when none does; print the result as JSON, or a core error on stderr (exit 2)."""
    from .bridge.client import BridgeClient, BridgeError
    from .bridge.serve import running_bridge
    from .core.errors import ServiceError

    try:
        if running_bridge(data_dir) is not None:
            try:
                with BridgeClient.from_data_dir(data_dir, timeout=3600.0) as client:
                    body = through_bridge(client)
            except BridgeError as exc:
                raise ServiceError(exc.message) from exc
        else:
            body = in_process()
    except ServiceError as exc:
        print(f"bme-desktop: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(body, ensure_ascii=False, indent=1))
    return 0


def _in_process(args: argparse.Namespace, data_dir: Path) -> dict[str, Any]:
    import time

    from .bridge.render import changes_json
    from .core.chat_ops import OPERATIONS
    from .core.service import MemoryService

    service = MemoryService.open(data_dir, database_url=args.database_url)
    try:
        started = time.perf_counter()
        ranged = args.start is not None or args.end is not None
        body: dict[str, Any] = {"task": args.task}
        if args.task in OPERATIONS and (args.task != "rebuild_vectors" or ranged):
            op = service.run_chat_operation(
                args.chat, args.task, start=args.start, end=args.end, progress=_progress
            ).value
            body["changes"], body["result"] = changes_json(op.change), op.to_json()
        else:
            if ranged:
                from .core.errors import ValidationError

                raise ValidationError("from", f"{args.task} takes no message range")
            if args.task == "upkeep":  # what retention retires, said before it acts
                body["retention"] = service.retention_preview(args.chat)
                _say_retention(body["retention"])
            body["changes"] = changes_json(service.run_recorded(args.chat, args.task).value)
        body["elapsed_ms"] = round((time.perf_counter() - started) * 1000, 3)
        return body
    finally:
        service.close()
