"""The nebula's level of detail: which memories glow, which are dust, how dust is thinned (numpy only)."""

from __future__ import annotations

import numpy as np

from bme_desktop.ui.views.nebula._scene import level_of_detail


def test_small_graphs_draw_every_visible_memory_as_a_glow() -> None:
    size = np.array([10.0, 0.0, 30.0, 5.0], np.float32)
    glow, dust, gain = level_of_detail(size, np.zeros(4, bool), glow_budget=10)
    assert glow.tolist() == [0, 2, 3] and dust.size == 0 and gain == 1.0


def test_large_graphs_glow_the_largest_and_the_marked_and_draw_the_rest_as_dust() -> None:
    size = np.arange(1, 101, dtype=np.float32)  # row i has size i + 1
    size[50] = 0.0  # hidden
    must = np.zeros(100, bool)
    must[3] = True  # say, the selected memory
    glow, dust, gain = level_of_detail(size, must, glow_budget=5, dust_budget=1000)
    assert glow.tolist() == [3, 96, 97, 98, 99]  # the marked one counts against the budget
    assert sorted(np.concatenate((glow, dust)).tolist()) == [r for r in range(100) if r != 50]
    assert gain == 1.0


def test_dust_above_its_budget_is_thinned_to_the_same_rows_with_a_brightness_gain() -> None:
    size = np.full(20000, 8.0, np.float32)
    glow, dust, gain = level_of_detail(size, np.zeros(20000, bool), glow_budget=100, dust_budget=5000)
    again = level_of_detail(size * 1.1, np.zeros(20000, bool), glow_budget=100, dust_budget=5000)[1]
    assert 4500 < dust.size < 5500
    assert np.intersect1d(dust, glow).size == 0
    assert np.array_equal(dust, again), "the same rows every restyle (no flicker)"
    assert 3.0 < gain < 4.5


def test_the_scene_reports_the_drawn_size_of_each_memory_for_picking(qapp: object) -> None:
    from unittest.mock import MagicMock

    from bme_desktop.ui.views.nebula._scene import DUST_SIZE, NebulaScene

    scene = NebulaScene(MagicMock())  # no GL needed: items only keep arrays until painted
    n = 4000
    size = np.full(n, 10.0, np.float32)
    size[7] = 0.0
    scene.show(np.zeros((n, 3)), np.ones((n, 3), np.float32), np.ones(n, np.float32), size, np.zeros(n, bool))
    assert scene.drawn_size[7] == 0.0, "hidden"
    assert np.all(scene.drawn_size[scene.dust_rows] == DUST_SIZE)
    assert np.all(scene.drawn_size[scene.glow_rows] > DUST_SIZE)
    assert scene.glow_rows.size + scene.dust_rows.size == n - 1
