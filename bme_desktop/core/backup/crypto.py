"""Encrypted backup files: passphrase → scrypt → AES-256-GCM.

Layout (all integers big-endian)::

    magic   8 bytes  b"BMEBAK\\r\\n"
    version 1 byte   1
    kdf     1 byte   1 = scrypt
    log2 n  1 byte, r 1 byte, p 1 byte
    salt    16 bytes
    nonce   12 bytes
    check   16 bytes SHA-256 of the second half of the derived key (tells a wrong passphrase
                     from a damaged file)
    ciphertext with the 16-byte GCM tag; the header above is its associated data

The plaintext is the gzip-compressed export document. It is one GCM message (not chunked),
so a large backup is written and read through the streaming GCM encryptor and decryptor
(:func:`encryptor` / :func:`decryptor`): the tag at the end of the file is only checked once
all of it was read, so readers (``stream.py``) use nothing they decrypted before the tag
checked out — a first pass validates the whole file, a second imports inside one transaction
that the tag failing at its end rolls back.
"""

from __future__ import annotations

import gzip
import hashlib
import hmac
import os
import struct
import zlib
from dataclasses import dataclass

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers import (
    AEADDecryptionContext,
    AEADEncryptionContext,
    Cipher,
    algorithms,
    modes,
)
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

from .format import MAX_FILE_BYTES, BackupError

MAGIC = b"BMEBAK\r\n"
GZIP_MAGIC = b"\x1f\x8b"
VERSION = 1
KDF_SCRYPT = 1
_HEADER = struct.Struct(">8sBBBBB16s12s16s")
MIN_PASSPHRASE = 8


@dataclass(frozen=True)
class KdfParams:
    log2_n: int = 17  # 2**17 * 8 * 128 bytes = 128 MB of memory, about half a second
    r: int = 8
    p: int = 1


def is_encrypted(data: bytes) -> bool:
    return data.startswith(MAGIC)


def _derive(passphrase: str, salt: bytes, params: KdfParams) -> tuple[bytes, bytes]:
    key = Scrypt(salt=salt, length=64, n=2**params.log2_n, r=params.r, p=params.p).derive(
        passphrase.encode("utf-8")
    )
    return key[:32], hashlib.sha256(key[32:]).digest()[:16]


def encrypt(plaintext: bytes, passphrase: str, params: KdfParams | None = None) -> bytes:
    header, ctx = encryptor(passphrase, params)
    return header + ctx.update(gzip.compress(plaintext, mtime=0)) + ctx.finalize() + ctx.tag


HEADER_SIZE = _HEADER.size
TAG_SIZE = 16


def encryptor(passphrase: str, params: KdfParams | None = None) -> tuple[bytes, AEADEncryptionContext]:
    """The header of a new encrypted file and the GCM encryptor for what follows it (its
    ``tag`` ends the file)."""
    if len(passphrase) < MIN_PASSPHRASE:
        raise BackupError("", f"the passphrase must have at least {MIN_PASSPHRASE} characters")
    params = params or KdfParams()
    salt, nonce = os.urandom(16), os.urandom(12)
    key, check = _derive(passphrase, salt, params)
    header = _HEADER.pack(MAGIC, VERSION, KDF_SCRYPT, params.log2_n, params.r, params.p, salt, nonce, check)
    ctx = Cipher(algorithms.AES(key), modes.GCM(nonce)).encryptor()
    ctx.authenticate_additional_data(header)
    return header, ctx


def open_header(header: bytes, passphrase: str) -> tuple[bytes, bytes]:
    """The AES key and nonce of a file starting with ``header``; a wrong passphrase is refused."""
    if not is_encrypted(header) or len(header) < _HEADER.size:
        raise BackupError("", "not an encrypted BME Desktop backup")
    _, version, kdf, log2_n, r, p, salt, nonce, check = _HEADER.unpack(header[: _HEADER.size])
    if version != VERSION:
        raise BackupError(
            "", f"backup format version {version} is not supported (this version reads {VERSION})"
        )
    if kdf != KDF_SCRYPT or not (10 <= log2_n <= 22 and 1 <= r <= 32 and 1 <= p <= 16):
        raise BackupError("", "the backup header is damaged (unknown key derivation settings)")
    key, expected = _derive(passphrase, salt, KdfParams(log2_n, r, p))
    if not hmac.compare_digest(check, expected):
        raise BackupError("", "wrong passphrase")
    return key, nonce


def decryptor(header: bytes, key: bytes, nonce: bytes, tag: bytes) -> AEADDecryptionContext:
    """The streaming GCM decryptor; its ``finalize`` raises :class:`BackupError` when the file
    was altered (nothing it returned before may be used then)."""
    ctx = Cipher(algorithms.AES(key), modes.GCM(nonce, tag)).decryptor()
    ctx.authenticate_additional_data(header[: _HEADER.size])
    return ctx


ALTERED = "the backup file was altered or is damaged (authentication failed)"


def decrypt(data: bytes, passphrase: str, *, limit: int = MAX_FILE_BYTES) -> bytes:
    if len(data) > limit:
        raise BackupError("", f"the file is larger than {limit // (1024 * 1024)} MB")
    if not is_encrypted(data) or len(data) < _HEADER.size + 16:
        raise BackupError("", "not an encrypted BME Desktop backup")
    header = data[: _HEADER.size]
    key, nonce = open_header(header, passphrase)
    try:
        packed = AESGCM(key).decrypt(nonce, data[_HEADER.size :], header)
    except InvalidTag:
        raise BackupError("", ALTERED) from None
    return gunzip_bounded(packed, limit)


def gunzip_bounded(packed: bytes, limit: int) -> bytes:
    """Decompress, refusing output larger than ``limit`` (no gzip bombs)."""
    inflater = zlib.decompressobj(wbits=31)
    try:
        out = inflater.decompress(packed, limit + 1)
    except zlib.error as exc:
        raise BackupError("", f"the backup content is not valid gzip ({exc})") from None
    if len(out) > limit or inflater.unconsumed_tail:
        raise BackupError("", f"the backup unpacks to more than {limit // (1024 * 1024)} MB")
    return out
