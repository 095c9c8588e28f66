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

The plaintext is the gzip-compressed export document.
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
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

from .format import MAX_FILE_BYTES, BackupError

MAGIC = b"BMEBAK\r\n"
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
    key = Scrypt(salt=salt, length=64, n=2 ** params.log2_n, r=params.r, p=params.p).derive(
        passphrase.encode("utf-8"))
    return key[:32], hashlib.sha256(key[32:]).digest()[:16]


def encrypt(plaintext: bytes, passphrase: str, params: KdfParams | None = None) -> bytes:
    if len(passphrase) < MIN_PASSPHRASE:
        raise BackupError("", f"the passphrase must have at least {MIN_PASSPHRASE} characters")
    params = params or KdfParams()
    salt, nonce = os.urandom(16), os.urandom(12)
    key, check = _derive(passphrase, salt, params)
    header = _HEADER.pack(MAGIC, VERSION, KDF_SCRYPT, params.log2_n, params.r, params.p, salt, nonce, check)
    return header + AESGCM(key).encrypt(nonce, gzip.compress(plaintext, mtime=0), header)


def decrypt(data: bytes, passphrase: str, *, limit: int = MAX_FILE_BYTES) -> bytes:
    if len(data) > limit:
        raise BackupError("", f"the file is larger than {limit // (1024 * 1024)} MB")
    if not is_encrypted(data) or len(data) < _HEADER.size + 16:
        raise BackupError("", "not an encrypted BME Desktop backup")
    header = data[:_HEADER.size]
    _, version, kdf, log2_n, r, p, salt, nonce, check = _HEADER.unpack(header)
    if version != VERSION:
        raise BackupError("", f"backup format version {version} is not supported (this version reads {VERSION})")
    if kdf != KDF_SCRYPT or not (10 <= log2_n <= 22 and 1 <= r <= 32 and 1 <= p <= 16):
        raise BackupError("", "the backup header is damaged (unknown key derivation settings)")
    key, expected = _derive(passphrase, salt, KdfParams(log2_n, r, p))
    if not hmac.compare_digest(check, expected):
        raise BackupError("", "wrong passphrase")
    try:
        packed = AESGCM(key).decrypt(nonce, data[_HEADER.size:], header)
    except InvalidTag:
        raise BackupError("", "the backup file was altered or is damaged (authentication failed)") from None
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
