"""Backups read as a stream, one chat at a time, so memory is bounded by the largest chat and
not the whole file.

A file (an encrypted backup, a gzip backup or a plain export) is turned into a stream of its
JSON text (:class:`BackupSource`): decrypted with the streaming GCM decryptor, inflated with
a streaming ``zlib`` object. :func:`iter_document` walks the top-level object and hands out
each element of ``chats`` as soon as it is complete; no single value may exceed ``bound``
characters (``MAX_RECORD_BYTES``: a chat, with all its memories, is the record). The
standard library's JSON decoder parses each value, so the rules are those of
``checks.parse_json``.

:func:`open_backup` reads the file twice (an encrypted one first decrypted once more, only to
check its GCM tag, so that any change is refused as such): the first pass validates every
chat and keeps nothing but ids; only then can
:meth:`StreamedBackup.__iter__` be used, which reads it again and yields validated chats one
at a time — for the import transaction, which a failure at the end of the second pass (the
file changed in between) rolls back whole.
"""

from __future__ import annotations

import codecs
import hashlib
import json
import zlib
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from cryptography.exceptions import InvalidTag

from ..ingest.text import without_surrogates
from .crypto import ALTERED, GZIP_MAGIC, HEADER_SIZE, MAGIC, TAG_SIZE, decryptor, open_header
from .fileio import read_file
from .format import MAX_RECORD_BYTES, MAX_STREAM_BYTES, BackupError, size_text
from .incremental import apply_to_chat, read_links
from .validate import ChatDoc, DocumentCheck

CHUNK = 1 << 20
KEEP_BYTES = 32 * 1024 * 1024  # a file with less JSON text than this is validated once and kept in memory
_WS = " \t\r\n"


class BackupSource:
    """The JSON text of a backup file, as a stream of byte chunks (any number of times; an
    encrypted file's key is derived once)."""

    def __init__(self, path: Path, passphrase: str | None, *, chunk: int = CHUNK) -> None:
        self.path, self.passphrase, self.chunk = path, passphrase, chunk
        self._key: tuple[bytes, bytes] | None = None
        self.read = 0
        with self._open() as f:
            head = f.read(len(MAGIC))
        self.encrypted = head.startswith(MAGIC)
        self.gzipped = head.startswith(GZIP_MAGIC)
        if self.encrypted and passphrase is None:
            raise BackupError("", "this backup is encrypted; a passphrase is needed")
        if self.encrypted:  # the tag first (decryption is cheap): a changed byte is "altered", not bad gzip
            with self._open() as f:
                for _ in self._decrypted(f):
                    pass

    def _open(self) -> BinaryIO:
        try:
            return self.path.open("rb")
        except OSError as exc:
            raise BackupError("", f"cannot read {self.path}: {exc.strerror or exc}") from None

    def _raw(self, f: BinaryIO, end: int) -> Iterator[bytes]:
        while (left := end - f.tell()) > 0:
            block = f.read(min(self.chunk, left))
            if not block:
                raise BackupError("", f"{self.path} changed while it was read")
            yield block

    def _decrypted(self, f: BinaryIO) -> Iterator[bytes]:
        size = f.seek(0, 2)
        if size < HEADER_SIZE + TAG_SIZE:
            raise BackupError("", "not an encrypted BME Desktop backup")
        f.seek(0)
        header = f.read(HEADER_SIZE)
        if self._key is None:
            assert self.passphrase is not None
            self._key = open_header(header, self.passphrase)
        f.seek(size - TAG_SIZE)
        tag = f.read(TAG_SIZE)
        f.seek(HEADER_SIZE)
        ctx = decryptor(header, *self._key, tag)
        for block in self._raw(f, size - TAG_SIZE):
            yield ctx.update(block)
        try:
            ctx.finalize()
        except InvalidTag:
            raise BackupError("", ALTERED) from None

    def ident(self) -> str:
        """The SHA-256 of the file's bytes (its id in a chain)."""
        sha = hashlib.sha256()
        with self._open() as f:
            size = f.seek(0, 2)
            f.seek(0)
            for block in self._raw(f, size):
                sha.update(block)
        return sha.hexdigest()

    def chunks(self) -> Iterator[bytes]:
        """The JSON text; ``self.read`` counts its bytes as they go."""
        self.read = 0
        for block in self._text():
            self.read += len(block)
            yield block

    def _text(self) -> Iterator[bytes]:
        with self._open() as f:
            packed: Iterator[bytes]
            if self.encrypted:
                packed = self._decrypted(f)
            else:
                size = f.seek(0, 2)
                f.seek(0)
                packed = self._raw(f, size)
            if self.encrypted or self.gzipped:
                yield from _gunzip(packed, self.chunk)
            else:
                yield from packed


def _gunzip(packed: Iterator[bytes], chunk: int) -> Iterator[bytes]:
    inflater = zlib.decompressobj(wbits=31)
    try:
        for block in packed:
            data = inflater.decompress(block, chunk)
            while data:
                yield data
                data = inflater.decompress(inflater.unconsumed_tail, chunk)
        if not inflater.eof:
            raise BackupError("", "the backup content is cut short (the gzip stream does not end)")
    except zlib.error as exc:
        raise BackupError("", f"the backup content is not valid gzip ({exc})") from None


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not allowed")


_DECODER = json.JSONDecoder(parse_constant=_no_constants)


class _Text:
    """A window on the decoded text with the position of its start in the whole document."""

    def __init__(self, chunks: Iterator[bytes], bound: int) -> None:
        self.chunks, self.bound = chunks, bound
        self.utf8 = codecs.getincrementaldecoder("utf-8")()
        self.buf, self.pos, self.eof = "", 0, False
        self.line, self.col = 1, 1  # of buf[0]
        self.read = 0  # bytes so far

    def more(self) -> bool:
        if self.eof:
            return False
        block = next(self.chunks, None)
        try:
            text = self.utf8.decode(block or b"", final=block is None)
        except UnicodeDecodeError as exc:
            raise BackupError("", f"not UTF-8 text (byte {self.read + exc.start})") from None
        if block is None:
            self.eof = True
        else:
            self.read += len(block)
            if self.read > MAX_STREAM_BYTES:
                raise BackupError("", f"the document is larger than {size_text(MAX_STREAM_BYTES)}")
        self._drop()
        self.buf += text
        return True

    def _drop(self) -> None:
        done = self.buf[: self.pos]
        newlines = done.count("\n")
        if newlines:
            self.line += newlines
            self.col = len(done) - done.rfind("\n")
        else:
            self.col += len(done)
        self.buf, self.pos = self.buf[self.pos :], 0

    def peek(self) -> str | None:
        while True:
            while self.pos < len(self.buf) and self.buf[self.pos] in _WS:
                self.pos += 1
            if self.pos < len(self.buf):
                return self.buf[self.pos]
            if not self.more():
                return None

    def expect(self, chars: str) -> str:
        found = self.peek()
        if found is None or found not in chars:
            self.fail(self.pos, f"Expecting {' or '.join(repr(c) for c in chars)}")
        self.pos += 1
        return found  # type: ignore[return-value]

    def fail(self, at: int, message: str) -> None:
        before = self.buf[:at]
        newlines = before.count("\n")
        line = self.line + newlines
        col = at - before.rfind("\n") if newlines else self.col + at
        raise BackupError("", f"not valid JSON: line {line} column {col}: {message}")

    def too_large(self, what: str) -> None:
        raise BackupError(
            what, f"is larger than {size_text(self.bound)} of JSON text (the most one chat may have)"
        )

    def value(self, what: str) -> Any:
        """The next JSON value, once its whole text is here (at most ``bound`` characters)."""
        if self.peek() is None:
            self.fail(self.pos, "Expecting value")
        while True:
            try:
                value, end = _DECODER.raw_decode(self.buf, self.pos)
                if end < len(self.buf) or self.eof:  # a number could go on in the next chunk
                    if end - self.pos > self.bound:
                        self.too_large(what)
                    start, self.pos = self.pos, end
                    return without_surrogates(value, self.buf[start:end])
            except json.JSONDecodeError as exc:
                cut = exc.msg.startswith("Unterminated string") or exc.pos >= len(self.buf) - 8
                if self.eof or not cut:
                    self.fail(exc.pos, exc.msg)
            except (ValueError, RecursionError) as exc:  # NaN, Infinity, too deep, a key twice
                raise BackupError("", f"not valid JSON: {exc}") from None
            if len(self.buf) - self.pos > self.bound:
                self.too_large(what)
            want = 2 * (len(self.buf) - self.pos) + 1
            while len(self.buf) - self.pos < want and self.more():
                pass


Event = tuple[str, Any]  # ("chats[", None) then ("chat", raw chat) for each, or (top-level key, value)


def iter_document(chunks: Iterator[bytes], bound: int = MAX_RECORD_BYTES) -> Iterator[Event]:
    """The top-level object's members in file order; ``chats`` item by item."""
    text = _Text(chunks, bound)
    if text.peek() != "{":
        text.value("")
        raise BackupError("", "must be an object")
    text.pos += 1
    if text.peek() == "}":
        text.pos += 1
    else:
        while True:
            key = text.value("")
            if not isinstance(key, str):
                text.fail(text.pos, "Expecting property name enclosed in double quotes")
            text.expect(":")
            if key == "chats" and text.peek() == "[":
                text.pos += 1
                yield "chats[", None
                if text.peek() == "]":
                    text.pos += 1
                else:
                    n = 0
                    while True:
                        yield "chat", text.value(f"chats[{n}]")
                        n += 1
                        if text.expect(",]") == "]":
                            break
            else:
                yield key, text.value(key)
            if text.expect(",}") == "}":
                break
    if text.peek() is not None:
        text.fail(text.pos, "Extra data")


def _walk(
    source: BackupSource,
    bound: int,
    name: str,
    links: Sequence[dict[str, Any]] = (),
    ever: set[str] | None = None,
) -> Iterator[ChatDoc]:
    """The file's chats, validated one at a time; with ``links`` (checked increments), each
    brought to its final state first (chats the increments add come last, by id). ``ever``
    collects the id of every chat the chain had."""
    check = DocumentCheck(streamed=True, name=name)
    entries = [{e["chat_id"]: e for e in link["chats"]} for link in links]
    seen: set[str] = set()

    def final(chat_id: str, raw: object) -> ChatDoc | None:
        state = raw if isinstance(raw, dict) else None
        for link, by_id in zip(links, entries, strict=True):
            state = apply_to_chat(state, chat_id, link, by_id)
        return None if state is None else check.chat(state)

    for key, value in iter_document(source.chunks(), bound):
        if key == "chats[":
            check.saw_chats = True
        elif key == "chat":
            chat_id = value.get("chat_id") if isinstance(value, dict) else None
            if not links or not isinstance(chat_id, str):
                doc = check.chat(value)
            else:
                seen.add(chat_id)
                doc = final(chat_id, value)
            if ever is not None and isinstance(chat_id, str):
                ever.add(chat_id)
            if doc is not None:
                yield doc
        else:
            check.top_key(key, value)
    for chat_id in sorted({c for by_id in entries for c in by_id} - seen):  # chats the increments add
        if ever is not None:
            ever.add(chat_id)
        if (doc := final(chat_id, None)) is not None:
            yield doc
    check.finish()


@dataclass
class StreamedBackup(Collection[ChatDoc]):
    """A backup file (or a chain: a full backup and its increments) whose every chat was
    validated; iterating reads and validates it again, one chat at a time."""

    source: BackupSource
    bound: int
    chat_ids: list[str]
    name: str = ""  # named in "a chain starts with a full backup" (restore)
    links: list[dict[str, Any]] = field(default_factory=list)  # a chain's increments, checked
    deleted_chats: list[str] = field(default_factory=list)  # a chain's chats its final state no longer has
    kept: list[ChatDoc] | None = None  # a small file's chats, validated (not read again)

    def __len__(self) -> int:
        return len(self.chat_ids)

    def __iter__(self) -> Iterator[ChatDoc]:
        if self.kept is not None:
            return iter(self.kept)
        return _walk(self.source, self.bound, self.name, self.links)

    def __contains__(self, item: object) -> bool:
        return isinstance(item, ChatDoc) and item.chat_id in self.chat_ids


def open_backup(
    path: Path,
    passphrase: str | None,
    *,
    bound: int = MAX_RECORD_BYTES,
    name: str = "",
    keep: int = KEEP_BYTES,
) -> StreamedBackup:
    """Validate the whole file, keeping nothing but chat ids — unless its JSON text is at most
    ``keep`` bytes: then the validated chats are kept and not read again (a second pass costs
    as much as the first; for small files memory is no concern). A damaged, altered,
    malformed or oversized file raises :class:`BackupError`."""
    source = BackupSource(path, passphrase)
    ids = []
    kept: list[ChatDoc] | None = []
    for chat in _walk(source, bound, name):
        ids.append(chat.chat_id)
        if kept is not None and source.read <= keep:
            kept.append(chat)
        else:
            kept = None
    return StreamedBackup(
        source, bound, ids, name, kept=kept if kept is not None and source.read <= keep else None
    )


def open_chain(
    paths: Sequence[Path], passphrase: str | None, *, bound: int = MAX_RECORD_BYTES
) -> StreamedBackup:
    """A full backup and its increments, in order: every link checked (the increments are read
    whole, the full backup streamed) and the final state of every chat validated."""
    if not paths:
        raise BackupError("", "no backup file given")
    source, name = BackupSource(paths[0], passphrase), str(paths[0])
    try:
        links = read_links(source.ident(), [(str(p), read_file(p)) for p in paths[1:]], passphrase)
    except BackupError:
        for _ in _walk(source, bound, name):  # a first file that is no full backup says so first
            pass
        raise
    ever: set[str] = set()
    ids = [chat.chat_id for chat in _walk(source, bound, name, links, ever)]
    return StreamedBackup(source, bound, ids, name, links, sorted(ever - set(ids)))
