"""Encrypted backups: a round trip, a wrong passphrase and a tampered file."""

from __future__ import annotations

import pytest

from bme_desktop.core.backup.crypto import KdfParams, decrypt, encrypt, is_encrypted
from bme_desktop.core.backup.format import BackupError

FAST = KdfParams(log2_n=12)  # tests only; real backups use 2**17
SECRET = "correct horse battery"


def test_encrypt_then_decrypt_gives_the_plaintext_back() -> None:
    data = "记忆 memory ".encode() * 1000
    sealed = encrypt(data, SECRET, FAST)
    assert is_encrypted(sealed) and data not in sealed
    assert decrypt(sealed, SECRET) == data


def test_wrong_passphrase_is_named() -> None:
    sealed = encrypt(b"{}", SECRET, FAST)
    with pytest.raises(BackupError, match="wrong passphrase"):
        decrypt(sealed, "not the passphrase")


@pytest.mark.parametrize("where", [-1, -20, 40])  # tag, ciphertext, header (salt)
def test_tampered_file_is_refused(where: int) -> None:
    sealed = bytearray(encrypt(b'{"a": 1}' * 50, SECRET, FAST))
    sealed[where] ^= 0x01
    with pytest.raises(BackupError, match=r"altered|wrong passphrase"):
        decrypt(bytes(sealed), SECRET)


def test_tampered_ciphertext_is_called_altered_not_a_wrong_passphrase() -> None:
    sealed = bytearray(encrypt(b"x" * 100, SECRET, FAST))
    sealed[-30] ^= 0x80
    with pytest.raises(BackupError, match="altered"):
        decrypt(bytes(sealed), SECRET)


def test_short_passphrase_and_foreign_files_are_refused() -> None:
    with pytest.raises(BackupError, match="at least 8"):
        encrypt(b"{}", "short", FAST)
    with pytest.raises(BackupError, match="not an encrypted"):
        decrypt(b'{"format": "bme-desktop-export"}', SECRET)
