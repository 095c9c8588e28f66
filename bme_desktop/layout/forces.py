"""Attraction along edges and gravity toward the centre (ForceAtlas2's forms).

All functions take positions of shape ``(n, dim)`` and return forces of the
same shape; nothing is done per node or per edge in Python.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


def scatter_add(out: FloatArray, idx: IntArray, values: FloatArray) -> None:
    """``out[idx] += values`` row-wise with repeated indices, via ``np.bincount``."""
    n = out.shape[0]
    for axis in range(out.shape[1]):
        out[:, axis] += np.bincount(idx, weights=values[:, axis], minlength=n)


def attraction(
    pos: FloatArray,
    src: IntArray,
    dst: IntArray,
    weight: FloatArray,
    *,
    lin_log: bool = False,
    mass: FloatArray | None = None,
) -> FloatArray:
    """Spring force along each edge, proportional to its length times its weight.

    ``lin_log`` uses ``log(1 + d)`` instead of ``d`` (tighter clusters).
    With ``mass`` given, each end's pull is divided by its mass ("dissuade
    hubs": hubs drift to the periphery, authorities to the centre).
    """
    out = np.zeros_like(pos)
    if src.shape[0] == 0:
        return out
    delta = pos[dst] - pos[src]
    factor = np.asarray(weight, dtype=np.float64)
    if lin_log:
        dist = np.sqrt(np.einsum("ij,ij->i", delta, delta))
        safe = np.where(dist > 0.0, dist, 1.0)
        factor = factor * np.log1p(dist) / safe
    if mass is None:
        pull = delta * factor[:, None]
        scatter_add(out, src, pull)
        scatter_add(out, dst, -pull)
    else:
        scatter_add(out, src, delta * (factor / mass[src])[:, None])
        scatter_add(out, dst, -delta * (factor / mass[dst])[:, None])
    return out


def gravity(
    pos: FloatArray,
    mass: FloatArray,
    strength: float,
    *,
    strong: bool = False,
    center: FloatArray | None = None,
) -> FloatArray:
    """Pull toward ``center`` (the origin by default), ``strength * mass``.

    The ordinary form has constant magnitude (unit vector times
    ``strength * mass``) and keeps disconnected components from drifting away;
    ``strong`` grows linearly with distance and makes a rounder, tighter layout.
    """
    rel = pos if center is None else pos - center
    if strength == 0.0 or pos.shape[0] == 0:
        return np.zeros_like(pos)
    if strong:
        return -(strength * mass)[:, None] * rel
    dist = np.sqrt(np.einsum("ij,ij->i", rel, rel))
    safe = np.where(dist > 0.0, dist, 1.0)
    return -(strength * mass / safe)[:, None] * rel
