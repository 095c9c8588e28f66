"""``bme-desktop scope CHAT MEMORY KIND``: move a memory to another scope from the command line
(``chat``: this chat alone; ``character``, ``persona``, ``world``: shared with every chat of the
chat's character, persona or world). One undoable edit, as in the app and the bridge.

When a bridge serves the data folder the move goes to it (``POST /v1/chats/{chat}/nodes/{id}/scope``),
so the running instance's recall sees it at once; otherwise the memory is opened here. The moved
memory is printed as JSON; bad input (unknown chat or memory, a kind the chat has nothing for,
an isolated chat) is one line on stderr and exit status 2, with nothing changed.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any


def add_command(
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
    add_common: Callable[[argparse.ArgumentParser], None],
) -> None:
    from .core.scopes import SCOPE_KINDS

    scope = sub.add_parser(
        "scope", help="move a memory to another scope (chat, character, persona, world); one undo step"
    )
    add_common(scope)
    scope.add_argument("chat", metavar="CHAT", help="the chat's id")
    scope.add_argument("memory", metavar="MEMORY", help="the memory's id")
    scope.add_argument("kind", metavar="KIND", choices=SCOPE_KINDS, help=f"one of {', '.join(SCOPE_KINDS)}")


def run(args: argparse.Namespace, data_dir: Path) -> int:
    from .maintain_cli import run_here_or_through_bridge

    return run_here_or_through_bridge(
        data_dir,
        lambda client: client.move_scope(args.chat, args.memory, args.kind),
        lambda: _in_process(args, data_dir),
    )


def _in_process(args: argparse.Namespace, data_dir: Path) -> dict[str, Any]:
    from .bridge.render import node_json
    from .core.service import MemoryService

    service = MemoryService.open(data_dir, database_url=args.database_url, attach=False)
    try:
        return node_json(service.move_scope(args.chat, args.memory, args.kind, actor="cli").value)
    finally:
        service.close()
