"""The ``export``, ``import``, ``backup``, ``restore`` and ``purge`` commands of ``bme-desktop``.

Bad input gives one clear line on stderr and exit status 2, with nothing changed:
documents are validated in full before the one import transaction starts.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Callable, Collection
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .core.backup.importer import ImportResult
    from .core.backup.validate import ChatDoc
    from .core.service import MemoryService

COMMANDS = ("export", "import", "backup", "restore", "purge")


class UsageProblem(Exception):
    """Something the user can fix; printed as one line, exit status 2."""


def add_commands(
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
    add_common: Callable[[argparse.ArgumentParser], None],
) -> None:
    export = sub.add_parser("export", help="export chats as open JSON, GraphML, GEXF or a Markdown vault")
    add_common(export)
    export.add_argument("--chat", metavar="ID", help="only this chat (default: all chats)")
    export.add_argument(
        "--format",
        choices=("json", "graphml", "gexf", "markdown", "st-worldinfo"),
        default="json",
        help="markdown: a folder of notes with wikilinks that Obsidian opens as a vault; "
        "st-worldinfo: a SillyTavern World Info file of one chat's memories (--chat)",
    )
    export.add_argument(
        "--memory",
        metavar="ID",
        action="append",
        help="st-worldinfo: only this memory (repeat for more; default: every memory of the chat)",
    )
    export.add_argument(
        "--scope",
        metavar="KIND",
        choices=("chat", "character", "persona", "world"),
        help="st-worldinfo: only memories of this scope",
    )
    export.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="write here (default: standard output; a folder, required, for markdown)",
    )

    imp = sub.add_parser(
        "import",
        help="import a bme-desktop-export JSON file, or a SillyTavern World Info "
        "file (or a character card's book) into a chat",
    )
    add_common(imp)
    imp.add_argument("file", metavar="FILE")
    imp.add_argument(
        "--chat", metavar="CHAT_ID", help="World Info: the chat whose memories the entries become"
    )
    imp.add_argument(
        "--scope",
        metavar="KIND",
        choices=("chat", "character", "persona", "world"),
        default="world",
        help="World Info: the scope of the new memories (default: world)",
    )
    imp.add_argument(
        "--book", metavar="NAME", help="World Info: the lorebook's name (default: the file's name)"
    )
    how = imp.add_mutually_exclusive_group()
    how.add_argument("--as", dest="as_chat", metavar="CHAT_ID", help="import the one chat under this new id")
    how.add_argument(
        "--mode",
        choices=("skip", "merge", "new", "replace"),
        help="for chats that exist here: skip memories already here (default; importing twice "
        "changes nothing), merge them into the ones here, add every memory as new, or replace "
        "the chat (needs --yes-replace)",
    )
    how.add_argument("--replace", action="store_true", help="the same as --mode replace")
    imp.add_argument(
        "--dry-run", action="store_true", help="print what the import would do and write nothing"
    )
    imp.add_argument("--yes-replace", action="store_true", help="confirm --mode replace")

    backup = sub.add_parser("backup", help="back up every chat (encrypted with a passphrase)")
    add_common(backup)
    backup.add_argument(
        "--passphrase-env", metavar="VAR", help="encrypt with the passphrase in this environment variable"
    )
    backup.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="write here (default: the data folder's backups/, keeping recent ones)",
    )
    backup.add_argument(
        "--incremental",
        action="store_true",
        help="only what changed (and was deleted) since the last backup: the next link of the "
        "chain the last full backup started",
    )

    rest = sub.add_parser(
        "restore",
        help="restore a backup, or a full backup and its increments in order "
        "(chats that exist are kept unless --replace)",
    )
    add_common(rest)
    rest.add_argument(
        "file",
        metavar="FILE",
        nargs="+",
        help="a backup; for a chain, the full backup first, then its increments in order",
    )
    rest.add_argument(
        "--passphrase-env", metavar="VAR", help="the passphrase is in this environment variable"
    )
    rest.add_argument("--replace", action="store_true", help="replace chats that already exist")

    purge = sub.add_parser("purge", help="delete every chat and memory for good, then compact the database")
    add_common(purge)
    purge.add_argument("--all", action="store_true", required=True, help="every chat (the only scope so far)")
    purge.add_argument(
        "--yes-purge",
        action="store_true",
        help="confirm: nothing goes to the recycle bin and nothing can be undone",
    )


def _passphrase(var: str | None) -> str | None:
    if var is None:
        return None
    value = os.environ.get(var)
    if not value:
        raise UsageProblem(f"the environment variable {var} holding the passphrase is not set")
    return value


def _export_json(service: MemoryService, chats: list[str] | None, output: str | None) -> None:
    """The export document written chat by chat (to a file renamed into place, or stdout)."""
    from .core.backup.export import write_document

    now = service.now()
    if output is None:
        service.read(lambda r: write_document(r, sys.stdout.buffer.write, chats, now=now))
        sys.stdout.flush()
        return
    from .core.backup.fileio import atomic_output

    with atomic_output(Path(output)) as out:
        service.read(lambda r: write_document(r, out.write, chats, now=now))


def _emit(data: bytes, output: str | None) -> None:
    if output is None:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    else:
        from .core.backup.fileio import write_atomically

        write_atomically(Path(output), data)


def _summary(result: ImportResult) -> str:
    parts = [
        f"imported {', '.join(result.imported) or 'nothing'}: {result.nodes} memories, "
        f"{result.edges} edges, {result.messages} messages"
    ]
    if result.skipped:
        parts.append(f"kept existing {', '.join(result.skipped)}")
    if result.deleted:
        parts.append(f"deleted {', '.join(result.deleted)} (deleted in the backup chain)")
    return "; ".join(parts)


# Sends a command to the bridge serving the data folder when one runs, else runs it here, and
# prints the result (maintain_cli.run_here_or_through_bridge, passed in by cli.py: the core
# knows no bridge).
Forward = Callable[[Path, Callable[[Any], dict[str, Any]], Callable[[], dict[str, Any]]], int]


def run(command: str, args: argparse.Namespace, data_dir: Path, forward: Forward | None = None) -> int:
    from .core.backup.format import BackupError
    from .core.errors import ServiceError
    from .core.store.reader import ChatNotFound

    try:
        return _run(command, args, data_dir, forward)
    except (BackupError, UsageProblem, ServiceError, ChatNotFound) as exc:
        print(f"bme-desktop {command}: {exc}", file=sys.stderr)
        return 2


def _run(command: str, args: argparse.Namespace, data_dir: Path, forward: Forward | None) -> int:
    from .core.backup.graph_formats import graph_of, to_gexf, to_graphml
    from .core.backup.stream import open_backup, open_chain
    from .core.service import MemoryService
    from .core.store.database import DB_FILENAME

    if command == "purge":
        return _purge(args, data_dir)
    passphrase = _passphrase(getattr(args, "passphrase_env", None))
    chats_in: Collection[ChatDoc] = []
    deleted: list[str] = []
    if command == "import":  # read, decrypt and validate before opening the store
        worldinfo = _worldinfo_document(Path(args.file))
        if worldinfo is not None:
            return _import_worldinfo(args, data_dir, worldinfo, forward)
        chats_in = open_backup(Path(args.file), passphrase)
    elif command == "restore":  # the full backup streamed, one chat at a time
        chain = open_chain([Path(f) for f in args.file], passphrase)
        chats_in, deleted = chain, chain.deleted_chats
    if (
        command in ("export", "backup")
        and args.database_url is None
        and not (data_dir / DB_FILENAME).exists()
    ):
        raise UsageProblem(f"there is no memory database in {data_dir}")
    service = MemoryService.open(data_dir, database_url=args.database_url, attach=False)
    try:
        if command == "export":
            chats = None if args.chat is None else [args.chat]
            if args.format == "markdown":
                from .core.backup.markdown import VaultError, vault_notes, write_vault

                if args.output is None:
                    raise UsageProblem("--format markdown writes a folder: name it with -o DIR")
                notes = service.read(lambda r: vault_notes(r, chats))
                try:
                    folder = write_vault(notes, Path(args.output))
                except VaultError as exc:
                    raise UsageProblem(str(exc)) from exc
                print(f"{folder}: {len(notes)} notes")
            elif args.format == "st-worldinfo":
                _emit(_worldinfo_export(service, args), args.output)
            elif args.format == "json":
                _export_json(service, chats, args.output)
            else:
                nodes, edges = service.read(lambda r: graph_of(r, chats))
                _emit((to_graphml if args.format == "graphml" else to_gexf)(nodes, edges), args.output)
            return 0
        if command == "import":
            if args.as_chat is not None:
                print(_summary(service.import_chats(chats_in, mode="new", as_chat=args.as_chat).value))
                return 0
            return _import_memories(
                service,
                chats_in,
                "replace" if args.replace else (args.mode or "skip"),
                dry_run=args.dry_run,
                confirmed=args.yes_replace,
            )
        if command == "restore":
            result = service.import_chats(
                chats_in, mode="replace" if args.replace else "merge", delete=deleted if args.replace else ()
            ).value
            print(_summary(result))
            return 0
        return _backup(service, args, data_dir, passphrase)
    finally:
        service.close()


_EXPORT_KEYS = re.compile(rb'\s*\{\s*"(app_version|chats|exported_at|format|format_version)"')


def _worldinfo_document(path: Path) -> object | None:
    """The World Info file (or character card) at ``path``, read whole; None for an export or
    a backup, which are streamed (an export starts with one of its own keys)."""
    from .core.backup.crypto import GZIP_MAGIC, MAGIC
    from .core.backup.format import BackupError
    from .core.errors import ValidationError
    from .core.worldinfo import load_document

    try:
        with path.open("rb") as f:
            head = f.read(4096)
    except OSError as exc:
        raise BackupError("", f"cannot read {path}: {exc.strerror or exc}") from None
    if head.startswith((MAGIC, GZIP_MAGIC)) or _EXPORT_KEYS.match(head.removeprefix(b"\xef\xbb\xbf")):
        return None
    from .core.backup.fileio import read_file

    try:
        return load_document(read_file(path))
    except ValidationError as exc:
        raise UsageProblem(f"not a SillyTavern World Info file or BME Desktop export: {exc}") from exc


def _import_worldinfo(args: argparse.Namespace, data_dir: Path, doc: object, forward: Forward | None) -> int:
    """A World Info file into one chat's memories: through the bridge serving the data folder
    when one runs (the running app sees them at once), else here. Validated whole first."""
    from .core.errors import ValidationError
    from .core.worldinfo import read_worldinfo

    if args.chat is None:
        raise UsageProblem(
            "this is a SillyTavern World Info file: name the chat whose memories its entries "
            "become with --chat CHAT_ID (and --scope, world by default)"
        )
    book = args.book or Path(args.file).stem
    try:
        parsed = read_worldinfo(doc, book)
    except ValidationError as exc:
        raise UsageProblem(f"{args.file}: {exc}; nothing was imported") from exc
    if args.dry_run:
        print(
            f"would import {len(parsed.entries)} entries of {book!r} into chat {args.chat!r} as {args.scope} "
            f"memories ({parsed.disabled} switched off, left out)"
        )
        print("dry run: nothing was written")
        return 0

    def here() -> dict[str, Any]:
        from .core.service import MemoryService

        service = MemoryService.open(data_dir, database_url=args.database_url, attach=False)
        try:
            report = service.import_worldinfo(args.chat, parsed.entries, args.scope, actor="cli").value
        finally:
            service.close()
        return {"chat_id": args.chat, **report.to_json(), "disabled": parsed.disabled}

    assert isinstance(doc, dict)
    if forward is None:
        import json

        print(json.dumps(here(), ensure_ascii=False, indent=1))
        return 0
    return forward(data_dir, lambda client: client.import_worldinfo(args.chat, doc, book, args.scope), here)


def _worldinfo_export(service: MemoryService, args: argparse.Namespace) -> bytes:
    import json

    from .core.worldinfo import write_worldinfo

    if args.chat is None:
        raise UsageProblem("--format st-worldinfo writes one chat's memories: name it with --chat")
    ids = args.memory or [
        n.id for n in service.all_nodes(args.chat) if args.scope is None or n.scope.kind == args.scope
    ]
    doc = write_worldinfo(service.worldinfo_entries(args.chat, ids))
    return (json.dumps(doc, ensure_ascii=False, indent=4) + "\n").encode("utf-8")


def _backup(service: MemoryService, args: argparse.Namespace, data_dir: Path, passphrase: str | None) -> int:
    from .core.backup.files import backup_dir, prune, write_full_backup, write_incremental_backup
    from .core.backup.retention import RetentionPolicy, backup_name

    output = None if args.output is None else Path(args.output)
    if args.incremental:
        run = write_incremental_backup(service, passphrase, data_dir=data_dir, path=output)
        path = run.path
        detail = f" (link {run.seq}: {run.changed} records new or changed, {run.deleted} deleted)"
    elif output is not None:
        path = write_full_backup(service, output, passphrase, data_dir=data_dir)
        detail = ""
    else:
        folder = backup_dir(data_dir)
        path = folder / backup_name(
            datetime.fromtimestamp(service.now(), tz=UTC), encrypted=passphrase is not None
        )
        write_full_backup(service, path, passphrase, data_dir=data_dir)
        prune(folder, RetentionPolicy())
        detail = ""
    if passphrase is None:
        print("bme-desktop backup: not encrypted (no --passphrase-env given)", file=sys.stderr)
    print(f"{path}{detail}")
    return 0


def _import_memories(
    service: MemoryService, chats: Collection[ChatDoc], mode: str, *, dry_run: bool, confirmed: bool
) -> int:
    from .core.backup.memory_import import MODES, preview_import

    memory_mode = next(m for m in MODES if m == mode)
    plan = preview_import(service, chats, memory_mode)
    print(f"preview ({mode}): " + "\n".join(plan.lines()))
    if dry_run:
        print("dry run: nothing was written")
        return 0
    if memory_mode == "replace" and not confirmed:
        raise UsageProblem(
            "--mode replace replaces the chats of the file that exist here (memories not in the "
            "file are deleted); add --yes-replace to confirm"
        )
    done = service.import_memories(chats, memory_mode).value
    print(
        f"imported ({mode}): " + done.lines()[0]
        if done.changes
        else "nothing to import: everything is here already"
    )
    return 0


def _size(n: int) -> str:
    return f"{n / (1024 * 1024):.1f} MB" if n >= 1024 * 1024 else f"{n / 1024:.1f} KB"


def _purge(args: argparse.Namespace, data_dir: Path) -> int:
    from .core.backup.purge import folder_size
    from .core.service import MemoryService
    from .core.store.database import DB_FILENAME

    if not args.yes_purge:
        raise UsageProblem(
            "purge deletes every chat and memory for good (no recycle bin, no undo); "
            "add --yes-purge to confirm (make a backup first if you may want them back)"
        )
    if args.database_url is None and not (data_dir / DB_FILENAME).exists():
        raise UsageProblem(f"there is no memory database in {data_dir}")
    before = folder_size(data_dir)
    service = MemoryService.open(data_dir, database_url=args.database_url, attach=False)
    try:
        result = service.purge_all().value
    finally:
        service.close()
    after = folder_size(data_dir)
    print(f"purged {len(result.chats)} chats ({result.rows} rows)")
    print(f"data folder {data_dir}: {_size(before)} before, {_size(after)} after")
    if service.store.backend != "sqlite":
        print(f"database: {_size(result.database_before)} before, {_size(result.database_after)} after")
    return 0
