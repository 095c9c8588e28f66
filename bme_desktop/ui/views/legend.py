"""GraphLegend: what the colours of a graph view mean, over the view's top-left corner.

One rich-text label (a swatch, the name and the count per colour); a click on a community's
line emits ``sigGroupClicked`` so the view can light that community up.
"""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from ..i18n import Retranslated
from ..theming import Theme
from ..theming.colors import rgba
from .graph_colors import BY_COMMUNITY, LegendEntry, legend_entries

MAX_LINES = 14
MAX_NAME = 30


class GraphLegend(Retranslated, QWidget):
    sigGroupClicked = Signal(int)  # a community's index (-1: none)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("graphLegend")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.title = QLabel(self)
        self.body = QLabel(self)
        self.body.setTextFormat(Qt.TextFormat.RichText)
        self.body.linkActivated.connect(lambda link: self.sigGroupClicked.emit(int(link)))
        box = QVBoxLayout(self)
        box.setContentsMargins(8, 6, 8, 6)
        box.setSpacing(2)
        box.addWidget(self.title)
        box.addWidget(self.body)
        self.entries: list[LegendEntry] = []
        self._text_colour = "#ffffff"
        self._followed: tuple[object, Theme] | None = None

    def retranslate(self) -> None:
        if self._followed is not None:
            self.follow(*self._followed)

    def restyle(self, theme: Theme) -> None:
        self._text_colour = theme.color("text")
        self.setStyleSheet(
            f"#graphLegend {{ background: {rgba(theme.color('background'), 0.78)};"
            f" border: 1px solid {theme.color('border')}; border-radius: 4px; }}"
            f" #graphLegend QLabel {{ background: transparent; color: {theme.color('text')}; }}"
        )
        self.set_entries(self.title.text(), self.entries)

    def set_entries(self, title: str, entries: list[LegendEntry]) -> None:
        self.entries = entries
        self.title.setText(f"<b>{html.escape(title)}</b>")
        lines = []
        for e in entries[:MAX_LINES]:
            name = e.text if len(e.text) <= MAX_NAME else e.text[: MAX_NAME - 1] + "…"
            text = (
                f"<span style='color:{e.colour}'>●</span>&nbsp;{html.escape(name)}"
                f"&nbsp;<span>{e.count:,}</span>"
            )
            if e.group >= 0:
                text = (
                    f"<a href='{e.group}' style='color:{self._text_colour}; text-decoration:none'>{text}</a>"
                )
            lines.append(text)
        if len(entries) > MAX_LINES:
            lines.append(f"… {sum(e.count for e in entries[MAX_LINES:]):,}")
        self.body.setText("<br>".join(lines))
        self.setVisible(bool(entries))
        self.adjustSize()

    def follow(self, state: object, theme: Theme) -> None:
        """Show what the colours of ``state`` (a GraphState) mean for the nodes it shows."""
        st: Any = state
        self._followed = (state, theme)
        by_community = st.color_by == BY_COMMUNITY
        title = self.tr("Communities") if by_community else self.tr("Types")
        if by_community and st.communities.of_chats:  # a character across its chats: a group is a chat
            title = self.tr("Chats")
        other = self.tr("Other and unlinked") if by_community else self.tr("Other")
        if by_community and st.communities.count == 0 and st.data.n:
            title = self.tr("Communities (finding…)")
        entries = (
            legend_entries(st.color_by, theme, st.data.type_idx, st.shown(), st.communities, st.group, other)
            if st.group.size == st.data.n
            else []
        )
        self.set_entries(title, entries)
        self.move(8, 8)
        self.raise_()
