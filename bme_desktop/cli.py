"""Command line: ``bme-desktop [gui|serve|mcp|sillytavern|token|doctor|export|import|backup|restore|purge|
maintain|scope] [--data-dir DIR]``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from . import __version__
from .ui.panel_tabs import SETTINGS_TABS


def _add_common(parser: argparse.ArgumentParser, *, top: bool = False) -> None:
    """The options every command takes, before or after the subcommand: a subcommand's copy has
    no default (``SUPPRESS``), so ``bme-desktop --data-dir X token`` keeps X instead of the
    subparser writing None over it."""
    default = None if top else argparse.SUPPRESS
    parser.add_argument(
        "--data-dir",
        metavar="DIR",
        default=default,
        help="folder holding the memory database and settings (default: the platform's "
        "user data folder, or $BME_DATA_DIR)",
    )
    parser.add_argument(
        "--database-url",
        metavar="URL",
        default=default,
        help="SQLAlchemy URL of the database (e.g. postgresql+psycopg://user@host/db); "
        "default: a SQLite file in the data folder",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="bme-desktop", description="BME Desktop: memory for long LLM chats."
    )
    parser.add_argument("--version", action="version", version=f"bme-desktop {__version__}")
    _add_common(parser, top=True)
    sub = parser.add_subparsers(dest="command")

    gui = sub.add_parser("gui", help="open the desktop app (the default)")
    _add_common(gui)
    for p in (parser, gui):
        default: object = None if p is parser else argparse.SUPPRESS  # as in _add_common
        flag: object = False if p is parser else argparse.SUPPRESS
        p.add_argument(
            "--screenshot", metavar="PATH", default=default, help="render the window to a PNG and exit"
        )
        p.add_argument(
            "--theme", default=default, help="crimson-synth, neon-cyan, amber-console or violet-haze"
        )
        p.add_argument(
            "--panel",
            default=default,
            help="the panel to show (overview, memories, review, patrol, injection, actions, "
            "persona, settings, graph2d, nebula); settings:TAB also opens one tab "
            f"of Settings, TAB one of {', '.join(SETTINGS_TABS)}",
        )
        p.add_argument("--lang", choices=("zh", "en"), default=default, help="interface language")
        p.add_argument(
            "--demo", action="store_true", default=flag, help="fill an empty data folder with a demo story"
        )
        p.add_argument(
            "--no-bridge", action="store_true", default=flag, help="do not start the bridge with the window"
        )

    serve = sub.add_parser("serve", help="run the memory core and the bridge without a window")
    _add_common(serve)
    serve.add_argument("--host", help="address to bind (default 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port to bind (default 7317; 0 picks a free one)")
    serve.add_argument(
        "--allow-remote", action="store_true", help="allow binding an address other machines can reach"
    )

    token = sub.add_parser("token", help="print the bridge token")
    _add_common(token)
    token.add_argument("--rotate", action="store_true", help="replace the token with a new one")

    mcp = sub.add_parser("mcp", help="serve the memory to agent clients (Claude Desktop, Cursor…) over MCP")
    _add_common(mcp)
    mcp.add_argument(
        "--http",
        action="store_true",
        help="streamable HTTP on loopback (behind the bridge token) instead of stdio",
    )
    mcp.add_argument("--host", help="address to bind with --http (default 127.0.0.1; loopback only)")
    mcp.add_argument("--port", type=int, help="port with --http (default 7318; 0 picks a free one)")
    mcp.add_argument("--chat", help="the chat the tools use when a call names none (default: agent)")

    doctor = sub.add_parser("doctor", help="print what this installation uses and whether it works")
    _add_common(doctor)
    doctor.add_argument("--gl-probe", action="store_true", help=argparse.SUPPRESS)  # doctor's own subprocess

    from .sillytavern.cli import add_commands as add_sillytavern_commands

    add_sillytavern_commands(sub, _add_common)

    # export / import / backup / restore / purge (bme_desktop.core.backup)
    from .backup_cli import add_commands as add_backup_commands

    add_backup_commands(sub, _add_common)

    from .maintain_cli import add_command as add_maintain_command

    add_maintain_command(sub, _add_common)

    from .scope_cli import add_command as add_scope_command

    add_scope_command(sub, _add_common)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from .core.paths import resolve_data_dir

    data_dir: Path = resolve_data_dir(args.data_dir)
    command = args.command or "gui"
    try:
        if command == "doctor" and args.gl_probe:
            from .doctor import gl_probe

            return gl_probe()
        if command == "doctor":
            from .doctor import run_doctor

            return int(run_doctor(data_dir, args.database_url))
        from .runtime_tuning import limit_blas, tune_interpreter

        if command in ("serve", "gui", "mcp"):
            tune_interpreter()  # long-running: the switch interval and the BLAS cap, once
        else:
            limit_blas()  # a command that attaches recall ranks as the app does
        if command == "serve":
            from .bridge.serve import serve_main

            return int(
                serve_main(
                    data_dir,
                    database_url=args.database_url,
                    host=args.host,
                    port=args.port,
                    allow_remote=args.allow_remote,
                )
            )
        if command == "mcp":
            from .mcp.main import mcp_main

            return int(
                mcp_main(
                    data_dir,
                    database_url=args.database_url,
                    http=args.http,
                    host=args.host,
                    port=args.port,
                    chat=args.chat,
                )
            )
        if command == "sillytavern":
            from .sillytavern.cli import run as run_sillytavern_command

            return run_sillytavern_command(args, data_dir)
        from .backup_cli import COMMANDS as BACKUP_COMMANDS

        if command in BACKUP_COMMANDS:
            from .backup_cli import run as run_backup_command
            from .maintain_cli import run_here_or_through_bridge

            return run_backup_command(command, args, data_dir, run_here_or_through_bridge)
        if command == "maintain":
            from .maintain_cli import run as run_maintain

            return run_maintain(args, data_dir)
        if command == "scope":
            from .scope_cli import run as run_scope

            return run_scope(args, data_dir)
        if command == "token":
            from .bridge.tokens import token_main

            return int(token_main(data_dir, rotate=args.rotate))
        from .ui.app import gui_main

        return int(gui_main(data_dir, args))
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # a clear one-line message for problems users can fix
        from .core.errors import StoreError
        from .core.settings import SettingsError

        if isinstance(exc, StoreError | SettingsError):
            print(f"bme-desktop: {exc}", file=sys.stderr)
            return 2
        raise
