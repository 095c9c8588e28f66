"""The hybrid recaller: query → candidates (vectors, BM25, name anchors) → graph diffusion →
hybrid score with lifecycle, point-of-view, region and time weights → MMR diversity →
optional LLM rerank → archive messages on "remember when" → bucketed injection.

Each stage that cannot run (no embedder, an endpoint down or slow, no time left, a rerank
reply that makes no sense) is skipped and named in ``skipped_stages``; recall still answers
from what remains and never waits on a model longer than ``settings.recall.timeout_s``.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from ..background import yield_to_foreground
from ..cancel import CancellableTask
from ..errors import NotFound
from ..extract.textutil import has_han
from ..index.vector_index import VectorIndex
from ..lifecycle.recall_hits import record_hits_in
from ..lifecycle.tiers import is_held, is_sleeping
from ..lifecycle.working_memory import KEY as WORKING_KEY
from ..lifecycle.working_memory import todo_lines_in
from ..ports import ReportsBusy
from ..providers.tokens import estimate_tokens
from ..scopes import fold
from ..secrets import EMBEDDING_KEY, api_key
from .aliases import named_entities
from .api import RecalledNode, RecallRequest, RecallResult
from .archive import archive_hits
from .buckets import bucket_of
from .candidates import Candidates, VectorScorer, anchors, lexical_candidates, lexical_part, named
from .chat_state import ChatState, RecallCache
from .cues import Cues, DayRef, looks_binary, read_cues
from .diffusion import Graph, build_graph, diffuse
from .diversity import mmr
from .embedding import RecallEmbedder, make_embedder
from .injection import render_buckets
from .lexical import normalise_name
from .prefetch import RecallWarmer
from .query import Query, build_query, context_from_messages
from .rerank import rerank
from .scopes import Witnesses, for_character, knows_span, mark_mistaken, weigh_scopes, witnesses
from .scoring import W_LEXICAL, W_VECTOR, ScoreContext, asked_for, score_node
from .tokenize import shared_jieba
from .validity import apply_validity, current_text, replaced_statements
from .vocative import Addressed, addressee

if TYPE_CHECKING:
    from ..index.maintainer import VectorMaintainer
    from ..model import Node, Summary
    from ..ports import Core
    from ..store.reader import Reader

log = logging.getLogger(__name__)
SEEDS = 8
POOL_FACTOR = 3
REPEAT_PENALTY = 0.85
REPEAT_WINDOW = 2  # turns
EMBED_IN_FLIGHT = 6
# Messages not extracted yet beyond which recall searches them as messages: a long history's
# first import (a turn leaves a few for its next batch, and busy clients a few dozen; searching
# those too cost bench/bridge_load's closed loop a quarter of its turns a second)
IMPORT_BACKLOG = 200


class HybridRecaller:
    def __init__(self, service: Core, vectors: VectorMaintainer | None) -> None:
        self.service = service
        self.cache = RecallCache(service)
        self.vectors = vectors
        # Concurrent recalls embed at once (each local engine handle on its own core); a slow
        # endpoint can hold at most ``EMBED_IN_FLIGHT`` threads before recalls skip vectors.
        self._pool = ThreadPoolExecutor(max_workers=EMBED_IN_FLIGHT, thread_name_prefix="bme-recall-embed")
        self._in_flight = threading.Semaphore(EMBED_IN_FLIGHT)
        self._lock = threading.Lock()  # guards what the chat states keep for the recaller
        self._warm_due: dict[str, int] = {}  # chat → the last change the warmer will build the graph for

    # ------------------------------------------------------------------------------------
    def knows_chat(self, chat_id: str) -> bool:
        """Whether this chat's state is loaded; its recall then checks the chat still exists."""
        return self.cache.loaded(chat_id)

    def recall(self, request: RecallRequest) -> RecallResult:
        started = time.perf_counter()
        state = self.cache.state(request.chat_id)
        with state.rw.reading():  # recalls of a chat run together; a refresh waits for them
            return self._recall(request, state, started)

    def _recall(self, request: RecallRequest, state: ChatState, started: float) -> RecallResult:
        settings = self.service.settings.recall
        deadline = started + settings.timeout_s
        skipped: list[str] = []
        gate = self.service.settings.lifecycle.review_gate
        core_nodes = sorted((state.nodes[i] for i in state.core_ids), key=lambda n: (-n.importance, n.id))
        held = sum(1 for n in core_nodes if is_held(n, gate))
        seen = witnesses(state.messages.values(), state.members) if request.for_character else None
        core = weigh_scopes(
            [
                RecalledNode(n, n.importance / 10.0, bucket_of(n), {"core": 1.0})
                for n in core_nodes
                if not is_held(n, gate)
            ],
            request.chat_id,
            settings,
        )
        if seen is not None:
            core = for_character(core, request.for_character, seen, state.knowledge)
        last_reply, previous = request.last_reply, request.previous_input
        if last_reply is None and previous is None:
            last_reply, previous = context_from_messages(list(state.messages.values()), request.index)
        binary = looks_binary(request.user_input)
        said = Addressed("", None) if binary else self._addressed(state, request.user_input)
        query = build_query(said.text, last_reply, previous, settings)
        cues = read_cues(query.text, self._today(state))
        stale = [] if cues.past else replaced_statements(state.replaced_ids, state.nodes)
        if binary or cues.noise:
            skipped.append("recall (binary input)" if binary else "recall (greeting or empty input)")
            context = self._context(request.chat_id, stale, request.for_character, seen)
            return self._finish(request, state, started, core, [], context, skipped, held)

        # The query is embedded on another thread (the engine releases the GIL) while the
        # lexical stage, the name anchors and the database reads run here.
        with self._lock:
            table = state.name_table()
        aliased = named_entities(table, query.text)  # named by another of their names
        embedding = self._start_embedding(request.chat_id, query, skipped)
        context = self._context(request.chat_id, stale, request.for_character, seen)
        lexical = lexical_candidates(state, query)
        titled = named(state, query.text) | aliased
        anchored = anchors(state, titled)
        scorer = self._vector_scorer(embedding, query, deadline, skipped, state)
        vector = scorer.candidates() if scorer is not None else {}
        found = Candidates(lexical, vector, anchored)

        diffusion = self._diffuse(state, found, scorer is not None, deadline, skipped)
        extra = [i for i in diffusion if i not in found.lexical and i not in found.vector]
        if scorer is not None and extra:
            vector.update(scorer.scores_for(extra))
        ctx = ScoreContext(
            lexical=lexical,
            vector=vector,
            diffusion=diffusion,
            anchors=found.anchors,
            cues=cues,
            character=state.character,
            active_region=(region := self._active_region(state, found.anchors, cues)),
            adjacent_regions=state.regions.adjacency.get((region or "").lower(), frozenset()),
            region_weights=(settings.region_current, settings.region_adjacent, settings.region_global),
            owners=self._owners(state, titled | self._addressee_ids(state, said)),
            vectors_available=scorer is not None,
            message_days=state.message_days,
            now=self.service.now(),
            lifecycle=self.service.settings.lifecycle,
        )
        core_ids = state.core_ids
        scored: list[RecalledNode] = []
        sleeping: list[RecalledNode] = []
        held_scores: list[float] = []
        for node_id in found.ids() | set(diffusion):
            node = state.nodes.get(node_id)
            if node is None or node_id in core_ids:
                continue
            score, components = score_node(node, ctx)
            if score <= 0:
                continue
            if is_held(node, gate):
                held_scores.append(score)
            else:
                (sleeping if is_sleeping(node) else scored).append(
                    RecalledNode(node, score, bucket_of(node), components)
                )
        scored += asked_for(sleeping, scored, ctx, titled)
        scored = weigh_scopes(scored, request.chat_id, settings)  # other chats' memories: by scope kind
        if seen is not None:  # a group chat: what the character about to speak knows
            scored = for_character(scored, request.for_character, seen, state.knowledge)
        scored = apply_validity(scored, state.nodes, cues.past, query.text, core)
        self._suppress_repeats(request, state, scored)
        scored.sort(key=lambda r: (-r.score, r.node.id))
        cited = {i for r in core if tells(r.node) for i in r.node.source_indices}
        chosen = self._diversify(request.chat_id, scored, request.top_k, deadline, skipped, cited)
        floor = chosen[-1].score if len(chosen) >= request.top_k else 0.0
        held += sum(1 for score in held_scores if score > floor)
        if settings.rerank_with_llm:
            outcome = rerank(
                query.text,
                chosen,
                self.service.settings.llm,
                deadline - time.perf_counter(),
                self.service.lenders,
            )
            chosen = outcome.items
            if not outcome.used:
                skipped.append(f"rerank ({outcome.reason}; score order kept)")
        else:
            skipped.append("rerank (off)")
        covered = {i for r in chosen for i in r.node.source_indices}
        archived = archive_hits(
            state, query.text, cues, max(1, request.top_k // 2), covered, before=request.index
        )
        if self.importing(request.chat_id):
            skipped.append(
                f"memories (partial: messages {state.extracted_to + 1}–{state.message_end - 1} "
                "not extracted yet; searched as messages)"
            )
            if not (cues.remember or cues.days):  # (the archive was searched whole otherwise)
                archived = archive_hits(
                    state,
                    query.text,
                    cues,
                    max(1, request.top_k // 2),
                    covered,
                    before=request.index,
                    after=state.extracted_to,
                )
        if seen is not None:
            archived = for_character(archived, request.for_character, seen, state.knowledge)
        recalled = _merge(chosen, archived)[: request.top_k]
        recalled += _riders(recalled, scored[: request.top_k * POOL_FACTOR], cited, request.top_k)
        return self._finish(request, state, started, core, recalled, context, skipped, held)

    # stages ----------------------------------------------------------------------------
    def _start_embedding(self, chat_id: str, query: Query, skipped: list[str]) -> _Embedding | None:
        """Start embedding the query parts (None, with the reason in ``skipped``, when the
        vector stage cannot run)."""
        if self.vectors is None:
            skipped.append("vector (no embedder)")
            return None
        embedder = self.vectors.embedder(wait=False)  # not while another thread loads the model
        if embedder is None and self.vectors.embedder_loading():
            skipped.append("vector (the embedding model is loading)")
            return None
        index = self.vectors.index(chat_id) if embedder is not None else None
        if embedder is None or index is None:
            skipped.append(f"vector ({self.vectors.last_error or 'no embedder'})")
            return None
        if self.vectors.pending(chat_id):
            skipped.append("vector (partial: memories still being embedded)")
        if len(index) == 0:
            skipped.append("vector (no memory embedded yet)")
            return None
        if index.model != embedder.name:
            skipped.append("vector (the memories are being embedded again for another model)")
            return None
        texts = [p.text for p in query.parts]
        cached = getattr(embedder, "cached", None)
        if callable(cached) and all(cached(text) for text in texts):
            # Embedded before (a prefetch, a swipe, the last turn's input): no other thread to
            # wake, which under load (an import embedding and extracting) costs more than the lookup.
            ready: Future[npt.NDArray[np.float32]] = Future()
            try:
                ready.set_result(embedder.embed_query(texts))
            except Exception as exc:  # the embedder's own errors, reported as a pool's would be
                ready.set_exception(exc)
            return _Embedding(index, texts, ready)
        if not self._in_flight.acquire(blocking=False):
            skipped.append("vector (embedder busy)")
            return None
        return _Embedding(index, texts, self._pool.submit(_embed_release, embedder, texts, self._in_flight))

    def _vector_scorer(
        self,
        embedding: _Embedding | None,
        query: Query,
        deadline: float,
        skipped: list[str],
        state: ChatState,
    ) -> VectorScorer | None:
        if embedding is None:
            return None
        index, texts = embedding.index, embedding.texts
        try:
            vectors = embedding.future.result(timeout=max(0.0, deadline - time.perf_counter()) * 0.6)
        except FutureTimeout:
            skipped.append("vector (embedding timed out)")
            return None
        except Exception as exc:  # endpoint down, bad reply: lexical and graph recall go on
            skipped.append(f"vector (embedding failed: {type(exc).__name__})")
            return None
        if vectors.ndim != 2 or vectors.shape != (len(texts), index.dim):
            skipped.append(f"vector (query vectors of shape {tuple(vectors.shape)}, index holds {index.dim})")
            return None
        return VectorScorer.create(index, query, vectors, state.vector_parts)

    def prepare(
        self,
        chat_id: str,
        user_input: str,
        index: int | None = None,
        last_reply: str | None = None,
        previous_input: str | None = None,
    ) -> int:
        """Get ready for a recall of ``user_input`` (the input being typed): bring the chat's
        state up to date and embed the query parts in the background. The context is taken
        as the recall will take it (given, or from the stored messages). Returns how many
        texts were queued for embedding."""
        state = self.cache.state(chat_id)
        with state.rw.reading():
            if last_reply is None and previous_input is None:
                last_reply, previous = context_from_messages(list(state.messages.values()), index)
            else:
                previous = previous_input
            said = self._addressed(state, user_input)
            query = build_query(said.text, last_reply, previous, self.service.settings.recall)
            for part in query.parts:  # BM25 per part now; the recall finds it ready
                lexical_part(state, part.text)
        return self._prefetch(query)

    def prefetch_next(self, chat_id: str) -> int:
        """After a sync: embed the context the next recall of this chat will blend in (the last
        reply, the previous input), and a user message just synced as the likely input."""
        state = self.cache.state(chat_id)
        with state.rw.reading():
            messages = sorted(state.messages.values(), key=lambda m: m.index)[-8:]
        if not messages:
            return 0
        last_reply, previous = context_from_messages(messages, None)
        queued = self._prefetch(build_query("", last_reply, previous, self.service.settings.recall))
        newest = messages[-1]
        if newest.role == "user":  # a frontend that syncs the input before it recalls
            last_reply, previous = context_from_messages(messages, newest.index)
            queued += self._prefetch(
                build_query(newest.text, last_reply, previous, self.service.settings.recall)
            )
        return queued

    def _prefetch(self, query: Query) -> int:
        if self.vectors is None or self.service.closed:
            return 0
        embedder = self.vectors.embedder()
        prefetch = getattr(embedder, "prefetch", None)
        if not callable(prefetch):
            return 0
        texts = [p.text for p in query.parts if p.text]
        return int(prefetch(texts)) if texts else 0

    def _graph(self, state: ChatState, *, wait: bool = True) -> Graph:
        """The chat's diffusion graph for its current state, built once per version. While
        another thread builds it (the warmer, at low priority), a recall (``wait=False``) uses
        the previous version rather than wait: a turn-old graph beats a late answer."""
        with self._lock:
            cached = state.graph
            due = state.chat_id in self._warm_due
        building = state.graph_build
        if cached is not None and (
            cached[0] == state.graph_version or (not wait and (building.locked() or due))
        ):
            return cached[1]
        with building:
            with self._lock:
                cached = state.graph
            if cached is not None and cached[0] == state.graph_version:
                return cached[1]
            graph = build_graph(state.nodes, state.edges)
            with self._lock:
                state.graph = (state.graph_version, graph)
        return graph

    def refresh(self, chat_id: str) -> None:
        """Bring the chat's recall state up to date (after a change, so the next recall
        finds it ready)."""
        self.cache.state(chat_id)

    def warm(self, chat_id: str) -> None:
        """Build the graph of the chat's current state (background work after a change)."""
        with self._lock:
            announced = self._warm_due.get(chat_id)
        try:
            yield_to_foreground()  # a running recall goes first (it uses the previous graph)
            state = self.cache.state(chat_id)
            with state.rw.reading():
                self._graph(state)
        finally:
            with self._lock:  # built for every change announced so far (not one announced since)
                if self._warm_due.get(chat_id) == announced:
                    self._warm_due.pop(chat_id, None)

    def importing(self, chat_id: str) -> bool:
        """Whether the chat is being extracted with more than ``IMPORT_BACKLOG`` messages still
        to read (a long chat's first import), as of its state's last refresh."""
        return self.cache.backlog(chat_id) > IMPORT_BACKLOG and self.extracting(chat_id)

    def extracting(self, chat_id: str) -> bool:
        """Whether the chat is being extracted or waits for it (an import under way; a chat whose
        extraction is off or paused is recalled as usual)."""
        extraction = self.service.extraction
        return isinstance(extraction, ReportsBusy) and extraction.busy(chat_id)

    def warm_up(self) -> None:
        """Load the Chinese word list and the embedding model on a thread of its own (at normal
        priority: a first recall may wait for the word list), so neither falls on the first
        recall or on a first import's refresh."""

        def load() -> None:
            try:
                shared_jieba()
                if self.vectors is not None:
                    self.vectors.embedder()
            except Exception:  # recall reports what is missing when it needs it
                log.debug("warming up recall failed", exc_info=True)

        threading.Thread(target=load, name="bme-warm-up", daemon=True).start()

    def expect_warm(self, chat_id: str) -> None:
        """The warmer will build the chat's graph after a change: until then a recall uses the
        previous graph rather than build it (an import changes the graph every batch)."""
        with self._lock:
            self._warm_due[chat_id] = self._warm_due.get(chat_id, 0) + 1

    def warm_done(self, chat_id: str) -> None:
        """The builds ``expect_warm`` announced will not run (the refresh failed, stopping)."""
        with self._lock:
            self._warm_due.pop(chat_id, None)

    def _diffuse(
        self, state: ChatState, found: Candidates, with_vectors: bool, deadline: float, skipped: list[str]
    ) -> dict[str, float]:
        if time.perf_counter() > deadline:
            skipped.append("diffusion (no time left)")
            return {}
        pre: dict[str, float] = {}
        for node_id in found.ids():
            lex = found.lexical.get(node_id, 0.0)
            pre[node_id] = (
                W_VECTOR * found.vector.get(node_id, 0.0) + W_LEXICAL * lex
                if with_vectors
                else (W_VECTOR + W_LEXICAL) * lex
            )
        top = sorted(pre.items(), key=lambda kv: (-kv[1], kv[0]))[:SEEDS]
        best = top[0][1] if top and top[0][1] > 0 else 1.0
        seeds = {node_id: s / best for node_id, s in top if s > 0}
        for node_id in found.anchors:
            seeds[node_id] = max(seeds.get(node_id, 0.0), 1.0)
        if not seeds:
            return {}
        return diffuse(self._graph(state, wait=False), seeds)

    def _diversify(
        self,
        chat_id: str,
        scored: list[RecalledNode],
        k: int,
        deadline: float,
        skipped: list[str],
        cited: set[int],
    ) -> list[RecalledNode]:
        """MMR over the best ``k × POOL_FACTOR``; ``cited``: the messages the core memories
        (rules, open threads) already bring."""
        pool = scored[: k * POOL_FACTOR]
        if len(pool) <= 1:
            return pool[:k]
        sources = [r.node.source_indices for r in pool]
        has = [False] * len(pool)
        if time.perf_counter() > deadline:  # by shared messages only (no vectors to read)
            skipped.append("diversity (no time left: by source messages only)")
            return [
                pool[i]
                for i in mmr(
                    [r.score for r in pool],
                    None,
                    has,
                    sources,
                    k,
                    covered=cited,
                    covers=[tells(r.node) for r in pool],
                )
            ]
        index = self.vectors.index(chat_id) if self.vectors is not None else None
        vectors = None
        if index is not None and len(index):
            ids = [r.node.id for r in pool]
            found, rows = index.vectors_of(ids)
            at = {node_id: i for i, node_id in enumerate(found)}
            vectors = np.zeros((len(pool), index.dim), dtype=np.float32)
            for i, node_id in enumerate(ids):
                if node_id in at:
                    vectors[i] = rows[at[node_id]]
                    has[i] = True
        order = mmr(
            [r.score for r in pool],
            vectors,
            has,
            sources,
            k,
            covered=cited,
            covers=[tells(r.node) for r in pool],
        )
        return [pool[i] for i in order]

    def _today(self, state: ChatState) -> DayRef:
        """The story's latest day (its newest dated message), else the clock's, for "last May"."""
        if state.message_days:
            return state.message_days[max(state.message_days)]
        now = datetime.fromtimestamp(self.service.now(), UTC)
        return DayRef(now.month, now.day, now.year)

    @staticmethod
    def _active_region(state: ChatState, anchored: set[str], cues: Cues) -> str | None:
        """The place the input names, else where the story is now (extraction's active region)
        unless the input is a question or a "remember when": those reach beyond the scene."""
        named = sorted(
            state.nodes[i].title for i in anchored if i in state.nodes and state.nodes[i].type == "location"
        )
        if named:
            return named[0]
        return None if cues.question or cues.remember or cues.days else state.regions.active

    def _addressed(self, state: ChatState, text: str) -> Addressed:
        """``text`` without the character it calls out to (recall/vocative.py)."""
        return addressee(text, lambda name: bool(self._characters_named(state, name)))

    def _characters_named(self, state: ChatState, name: str) -> set[str]:
        """The characters whose title or one of whose aliases is exactly ``name``."""
        key = normalise_name(name)
        with self._lock:
            table = state.name_table()
        found = {
            i
            for i in state.lexical.exact_name_hits(name)
            if i in state.nodes and normalise_name(state.nodes[i].title) == key
        }
        found |= table.names.get(key, frozenset())
        return {i for i in found if i in state.nodes and state.nodes[i].type == "character"}

    def _addressee_ids(self, state: ChatState, said: Addressed) -> set[str]:
        """The character spoken to, when the input asks about them ("Sera, what do you think…")."""
        return self._characters_named(state, said.name) if said.name and said.about_addressee else set()

    @staticmethod
    def _owners(state: ChatState, titled: set[str]) -> frozenset[str]:
        """Every name of the characters the input names (a point of view is recalled for its owner)."""
        table = state.names[1] if state.names is not None else None
        out: set[str] = set()
        for node_id in titled:
            node = state.nodes.get(node_id)
            if node is not None and node.type == "character":
                names = table.all_names.get(node_id, (node.title,)) if table is not None else (node.title,)
                out.update(n.strip().lower() for n in names)
        return frozenset(out)

    def _suppress_repeats(self, request: RecallRequest, state: ChatState, scored: list[RecalledNode]) -> None:
        if request.index is None:
            return
        with self._lock:
            last = state.last_shown
        if last is None or not 0 < request.index - last[0] <= REPEAT_WINDOW:
            return
        for item in scored:
            if item.node.id in last[1]:
                item.score *= REPEAT_PENALTY
                item.components["w_repeat"] = REPEAT_PENALTY

    def _context(
        self, chat_id: str, stale: list[frozenset[str]], who: str | None = None, seen: Witnesses | None = None
    ) -> _Context:
        """What recall injects besides memories: active summaries (without the sentences that
        state a replaced memory, ``stale``; for a group generation, only those of scenes the
        character ``who`` was in) and open to-dos."""
        now, lifecycle = self.service.now(), self.service.settings.lifecycle

        def read(r: Reader) -> tuple[list[Summary], list[str]]:  # one transaction, two queries
            row = r.chat_row(chat_id)  # its key and its state (the to-dos)
            if row is None:  # deleted meanwhile (by another app on a shared database)
                raise NotFound(f"no chat named {chat_id!r}")
            r.pin_chat(chat_id, row["pk"])  # (every query a recall saves is a GIL hand-over saved)
            try:
                todos = todo_lines_in((row["state"] or {}).get(WORKING_KEY), now, lifecycle)
                return r.summaries(chat_id, status="active"), todos
            finally:
                r.pin_chat()

        found, todos = self.service.read(read)
        if who is not None and seen is not None:
            found = [s for s in found if knows_span(s.start_index, s.end_index, fold(who), seen)]
        summaries = [
            text
            for s in sorted(found, key=lambda s: (-s.level, s.start_index or 0, s.id))[:3]
            if (text := current_text(s.text, stale))
        ]
        return _Context(summaries, todos)

    def _finish(
        self,
        request: RecallRequest,
        state: ChatState,
        started: float,
        core: list[RecalledNode],
        recalled: list[RecalledNode],
        context: _Context,
        skipped: list[str],
        held: int,
    ) -> RecallResult:
        mark_mistaken([*core, *recalled], state.knowledge)  # a belief the story showed wrong says so
        text, shown, more = render_buckets(
            core,
            recalled,
            context.summaries,
            request.budget_tokens,
            context.todos,
            state.story_time,
            _chinese(state),
        )
        if request.index is not None:
            ids = {r.node.id for r in shown if r.bucket != "archive" and "core" not in r.components}
            with self._lock:
                state.last_shown = (request.index, ids)
            hits = self._new_hits(
                state,
                request.index,
                [r.node.id for r in shown if r.bucket != "archive" and r.node.chat_id == request.chat_id],
            )
            if hits:  # a recall on a real turn counts as a review (life cycle), written after the answer
                settings, now, chat_id = self.service.settings.lifecycle, self.service.now(), request.chat_id
                self.service.write_later(lambda uow: record_hits_in(uow, chat_id, hits, now, settings))
        return RecallResult(
            injection=text,
            token_estimate=estimate_tokens(text),
            elapsed_ms=(time.perf_counter() - started) * 1000,
            nodes=shown,
            skipped_stages=skipped,
            more_not_shown=more,
            held_for_review=held,
        )

    def _new_hits(self, state: ChatState, index: int, hits: list[str]) -> list[str]:
        """The hits not yet counted for this message: recalling one index again (a swipe, a
        script recalling on every keystroke) reviews nothing twice."""
        with self._lock:
            last = state.counted
            counted = last[1] if last is not None and last[0] == index else set()
            fresh = [node_id for node_id in hits if node_id not in counted]
            state.counted = (index, counted | set(fresh))
        return fresh


@dataclass(frozen=True)
class _Context:
    summaries: list[str]
    todos: list[str]


@dataclass(frozen=True)
class _Embedding:
    index: VectorIndex
    texts: list[str]
    future: Future[npt.NDArray[np.float32]]


def _chinese(state: ChatState) -> bool | None:
    """Whether the chat is in Chinese (its last messages), None when it has none."""
    texts = [m.text for i in range(state.message_end - 4, state.message_end) if (m := state.messages.get(i))]
    return any(has_han(t) for t in texts) if texts else None


TELLS_MAX = 4  # a memory citing more messages (a summary, a character's every scene) tells none of them


def tells(node: Node) -> bool:
    """Whether ``node`` tells what its source messages say (an event, a fact, a thread, a rule of a
    few messages), rather than naming who or where appears in them (a character, a place) or
    summing up many (a synopsis)."""
    return (
        node.type not in ("character", "location", "synopsis") and 0 < len(node.source_indices) <= TELLS_MAX
    )


def _riders(
    recalled: list[RecalledNode], pool: list[RecalledNode], cited: set[int], most: int
) -> list[RecalledNode]:
    """The memories that share a slot with the recalled ones: they cite only messages already
    cited (by a recalled memory or ``cited``, the core's) and ranked at least as high as the last
    recalled memory, so they had a place by score (a plot thread beside the event it was read
    from: the thread's words, the event's detail). They come after the slots, at most ``most``."""
    slots = [r for r in recalled if r.bucket != "archive"]
    if not slots:
        return []
    floor = min(r.score for r in slots)
    have = {r.node.id for r in recalled}
    sources = cited | {i for r in recalled if tells(r.node) for i in r.node.source_indices}
    out: list[RecalledNode] = []
    for item in pool:
        if len(out) >= most:
            break
        if (
            item.node.id not in have
            and item.score >= floor
            and item.node.source_indices
            and set(item.node.source_indices) <= sources
        ):
            item.components["shares_slot"] = 1.0
            out.append(item)
    return out


def _merge(chosen: list[RecalledNode], archived: list[RecalledNode]) -> list[RecalledNode]:
    """Archived messages slotted in by score; the memories keep their (diversified or
    reranked) order."""
    out: list[RecalledNode] = []
    rest = list(archived)
    for item in chosen:
        while rest and rest[0].score > item.score:
            out.append(rest.pop(0))
        out.append(item)
    return out + rest


def _embed_release(
    embedder: RecallEmbedder, texts: list[str], gate: threading.Semaphore
) -> npt.NDArray[np.float32]:
    try:
        return embedder.embed_query(texts)
    finally:
        gate.release()


def attach(service: Core, embedder_factory: Callable[[], RecallEmbedder] | None = None) -> HybridRecaller:
    """Attach the hybrid recaller and its vector maintainer (``rebuild_vectors``) to ``service``."""
    from ..index.maintainer import VectorMaintainer

    def default_factory() -> RecallEmbedder:
        key = api_key(service.data_dir, EMBEDDING_KEY, "BME_EMBEDDING_API_KEY")
        return make_embedder(service.settings.embedding, service.settings.recall.timeout_s, key)

    vectors = VectorMaintainer(service, embedder_factory or default_factory)
    recaller = HybridRecaller(service, vectors)
    service.use_recaller(recaller)
    RecallWarmer(service, recaller)
    service.add_maintenance_task("rebuild_vectors", CancellableTask(vectors.rebuild))
    return recaller
