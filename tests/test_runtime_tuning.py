"""``bme-desktop serve`` and the app hand the GIL over every millisecond, not every 5."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bme_desktop import cli
from bme_desktop.runtime_tuning import SWITCH_INTERVAL_S


@pytest.fixture
def default_interval() -> Iterator[None]:
    before = sys.getswitchinterval()
    sys.setswitchinterval(0.005)
    yield
    sys.setswitchinterval(before)


def test_serve_sets_the_switch_interval(
    default_interval: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    seen: list[float] = []

    def fake_serve(*args: object, **kwargs: object) -> int:
        seen.append(sys.getswitchinterval())
        return 0

    monkeypatch.setattr("bme_desktop.bridge.serve.serve_main", fake_serve)
    assert cli.main(["serve", "--data-dir", str(tmp_path)]) == 0
    assert seen == [pytest.approx(SWITCH_INTERVAL_S)]


def test_a_one_shot_command_leaves_the_interpreter_alone(default_interval: None, tmp_path: Path) -> None:
    cli.main(["token", "--data-dir", str(tmp_path)])
    assert sys.getswitchinterval() == pytest.approx(0.005)


def test_serve_caps_blas_at_one_thread_before_anything_attaches(
    default_interval: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from threadpoolctl import threadpool_info, threadpool_limits

    original = threadpool_limits(limits=None)
    try:
        threadpool_limits(limits=2, user_api="blas")
        monkeypatch.setattr("bme_desktop.bridge.serve.serve_main", lambda *a, **k: 0)
        assert cli.main(["serve", "--data-dir", str(tmp_path)]) == 0
        blas = [pool for pool in threadpool_info() if pool["user_api"] == "blas"]
        assert blas and all(pool["num_threads"] == 1 for pool in blas)
    finally:
        original.restore_original_limits()


class _Cycle:
    def __init__(self) -> None:
        self.me = self


def test_the_long_lived_objects_stay_out_of_later_collections_until_thawed() -> None:
    """Issue 19, "never freeze": a full collection walks every container holding the GIL; what the
    app's start-up made is frozen out of them (garbage collected first), and thawed at exit."""
    import gc
    import weakref

    from bme_desktop.runtime_tuning import freeze_long_lived, thaw_long_lived

    garbage = weakref.ref(_Cycle())  # unreachable already: collected before the freeze, not frozen
    kept = _Cycle()
    try:
        assert freeze_long_lived() > 0 and garbage() is None
        assert not any(o is kept for o in gc.get_objects())  # no generation holds it: never walked
        dropped = weakref.ref(kept)
        del kept
        gc.collect()
        assert dropped() is not None  # a frozen cycle waits for the thaw
    finally:
        thaw_long_lived()
    assert gc.get_freeze_count() == 0
    gc.collect()
    assert dropped() is None
