"""``--panel KEY:TAB``: the tabs a panel can be opened on, by stable English keys. No Qt here, so
the command line can list them in its help without loading Qt."""

from __future__ import annotations

# The Settings panel's tabs, in order: one per settings section (``core/settings.py``).
SETTINGS_TABS: tuple[str, ...] = (
    "llm",
    "embedding",
    "extraction",
    "recall",
    "lifecycle",
    "bridge",
    "proxy",
    "backup",
    "appearance",
)
PANEL_TABS: dict[str, tuple[str, ...]] = {"settings": SETTINGS_TABS}


def split_panel(value: str) -> tuple[str, str | None]:
    """``"settings:bridge"`` → ``("settings", "bridge")``, ``"memories"`` → ``("memories", None)``.

    Raises ``ValueError`` naming the valid choices for a tab of a panel without tabs or an
    unknown tab. Panel keys alone are not checked here: the window says when it has no such panel.
    """
    key, colon, tab = value.partition(":")
    if not colon:
        return key, None
    if key not in PANEL_TABS:
        with_tabs = ", ".join(f"{panel}:TAB" for panel in PANEL_TABS)
        raise ValueError(f"--panel {value}: the {key!r} panel has no tabs to choose (only {with_tabs} has)")
    if tab not in PANEL_TABS[key]:
        raise ValueError(
            f"--panel {value}: unknown {key} tab {tab!r}; choose one of {', '.join(PANEL_TABS[key])}"
        )
    return key, tab
