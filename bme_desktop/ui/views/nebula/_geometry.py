"""Nebula geometry without Qt: type clusters on a sphere, projection to screen, picking."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..graph_data import FloatArray, IntArray

CLUSTER_RADIUS = 12.0  # distance of each type's cluster centre from the origin
CLOUD_RADIUS = 2.4  # RMS radius of one type's cloud


def sphere_points(k: int) -> FloatArray:
    """``k`` evenly spread unit vectors (a Fibonacci sphere)."""
    i = np.arange(k) + 0.5
    phi = np.arccos(1.0 - 2.0 * i / max(k, 1))
    theta = np.pi * (1.0 + 5.0**0.5) * i
    return np.stack((np.cos(theta) * np.sin(phi), np.sin(theta) * np.sin(phi), np.cos(phi)), axis=1)


def clustered(layout_pos: FloatArray, type_idx: IntArray, n_types: int) -> FloatArray:
    """Each type's nodes around their own centre on a sphere, shaped by the 3D layout."""
    n = type_idx.size
    if n == 0:
        return np.zeros((0, 3))
    centres = sphere_points(n_types) * CLUSTER_RADIUS
    count = np.bincount(type_idx, minlength=n_types).astype(np.float64)
    mean = (
        np.stack(
            [np.bincount(type_idx, weights=layout_pos[:, d], minlength=n_types) for d in range(3)], axis=1
        )
        / np.maximum(count, 1.0)[:, None]
    )
    local = layout_pos - mean[type_idx]
    sq = np.bincount(type_idx, weights=np.einsum("ij,ij->i", local, local), minlength=n_types)
    rms = np.sqrt(sq / np.maximum(count, 1.0))
    # bigger clusters get a bigger cloud (cube root of their share), all readable
    size = CLOUD_RADIUS * np.cbrt(np.maximum(count, 1.0) / max(float(count.max()), 1.0)) + 0.6
    scale = size / np.where(rms > 0, rms, 1.0)
    return centres[type_idx] + local * scale[type_idx, None]


def project(
    points: FloatArray, mvp: npt.ArrayLike, width: float, height: float
) -> tuple[FloatArray, npt.NDArray[np.bool_]]:
    """Screen positions (px, y down) of 3D points under a row-major 4×4 MVP, and which are in front."""
    m = np.asarray(mvp, dtype=np.float64).reshape(4, 4)
    homo = np.concatenate((points, np.ones((points.shape[0], 1))), axis=1) @ m.T
    w = homo[:, 3]
    front = w > 1e-9
    safe = np.where(front, w, 1.0)
    ndc = homo[:, :3] / safe[:, None]
    screen = np.stack(((ndc[:, 0] + 1.0) * 0.5 * width, (1.0 - ndc[:, 1]) * 0.5 * height), axis=1)
    return screen, front


def pick(
    screen: FloatArray, usable: npt.NDArray[np.bool_], x: float, y: float, radius: FloatArray | float
) -> int:
    """Index of the usable point nearest to (x, y) within ``radius`` px, or -1."""
    d = np.hypot(screen[:, 0] - x, screen[:, 1] - y) - radius
    d[~usable] = np.inf
    if d.size == 0:
        return -1
    i = int(np.argmin(d))
    return i if d[i] <= 0 else -1


def depth_of(points: FloatArray, mvp: npt.ArrayLike) -> FloatArray:
    """Distance of each point in front of the camera (clip w; larger is farther, <= 0 behind)."""
    m = np.asarray(mvp, dtype=np.float64).reshape(4, 4)
    return np.asarray(
        np.concatenate((points, np.ones((points.shape[0], 1))), axis=1) @ m[3], dtype=np.float64
    )


NAME_GAP = 3  # px between two names


def name_spots(
    at: FloatArray,
    depth: FloatArray,
    named: npt.NDArray[np.bool_],
    sizes: IntArray,
    blocked: list[tuple[int, int, int, int]],
    width: int,
    height: int,
) -> list[tuple[int, int] | None]:
    """Where each cloud's name goes (top-left, px), or None: over its own cloud or never.

    ``at``: each cloud's centre on screen; ``depth``: its distance from the camera (nearest named
    first); ``named``: which clouds get a name (the others still own their part of the screen);
    ``sizes``: each name's (w, h). A name sits on its cloud's centre, else a little above or below
    it, but only where that spot is nearer to its own cloud's centre than to any other cloud's
    (so it never floats over another cloud) and touches no other name nor a ``blocked`` box."""
    taken = [(x - NAME_GAP, y - NAME_GAP, w + 2 * NAME_GAP, h + 2 * NAME_GAP) for x, y, w, h in blocked]
    spots: list[tuple[int, int] | None] = [None] * at.shape[0]
    sites = np.flatnonzero(depth > 0)
    for g in sites[np.argsort(depth[sites], kind="stable")]:
        if not named[g]:
            continue
        w, h = int(sizes[g, 0]), int(sizes[g, 1])
        cx, cy = float(at[g, 0]), float(at[g, 1])
        for dx, dy in ((0.0, 0.0), (0.0, -1.0), (0.0, 1.0), (-0.3, 0.0), (0.3, 0.0), (0.0, -2.0), (0.0, 2.0)):
            x = int(min(max(cx - w / 2 + dx * w, 2), width - w - 2))
            y = int(min(max(cy - h / 2 + dy * h, 2), height - h - 2))
            mid = np.array([x + w / 2, y + h / 2])
            d = np.hypot(*(at[sites] - mid).T)
            if d.size and sites[int(np.argmin(d))] != g and float(d.min()) < float(np.hypot(*(at[g] - mid))):
                continue  # nearer to another cloud: it would name the wrong one
            if any(x < ox + ow and ox < x + w and y < oy + oh and oy < y + h for ox, oy, ow, oh in taken):
                continue
            spots[g] = (x, y)
            taken.append((x - NAME_GAP, y - NAME_GAP, w + 2 * NAME_GAP, h + 2 * NAME_GAP))
            break
    return spots
