"""Second-order local (Taylor) expansions of the repulsion field, per tree cell.

The repulsion field of a mass ``M`` at ``y`` is ``F(x) = M (x - y) / |x - y|**2``,
the gradient of ``M log|x - y|`` in any dimension. Around a cell centre ``z``
it is expanded as

    F_a(z + d) ~ f_a + J_ab d_b + 1/2 T_abc d_b d_c

with ``J`` and ``T`` the (symmetric) second and third derivatives of the
potential. Only the unique components are stored: a cell's expansion is one
column of ``dim + dim(dim+1)/2 + dim(dim+1)(dim+2)/6`` numbers (9 in 2D, 19
in 3D); arrays of expansions are component-major, shape ``(width, m)``, so
that every component is one contiguous row. Expansions add, and move exactly from a parent's centre to a
child's
(:func:`translate`), so each point evaluates one expansion however many levels
contributed to it.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations_with_replacement

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]


class Layout:
    """Column indices of the unique components for one dimension."""

    def __init__(self, dim: int) -> None:
        self.dim = dim
        pairs = list(combinations_with_replacement(range(dim), 2))
        triples = list(combinations_with_replacement(range(dim), 3))
        self.width = dim + len(pairs) + len(triples)
        self.pairs = pairs
        self.triples = triples
        self.j: dict[tuple[int, int], int] = {}
        for k, (a, b) in enumerate(pairs):
            self.j[(a, b)] = self.j[(b, a)] = dim + k
        self.t: dict[tuple[int, int, int], int] = {}
        for k, tri in enumerate(triples):
            col = dim + len(pairs) + k
            a, b, c = tri
            for perm in ((a, b, c), (a, c, b), (b, a, c), (b, c, a), (c, a, b), (c, b, a)):
                self.t[perm] = col


@cache
def layout(dim: int) -> Layout:
    return Layout(dim)


def coefficients(r: FloatArray, mass: FloatArray) -> FloatArray:
    """Expansions of sources of ``mass`` seen at offset ``r = centre - source``.

    ``r`` has shape ``(dim, m)`` (component-major); the result ``(width, m)``.
    """
    dim, m = r.shape
    lay = layout(dim)
    s = np.einsum("ij,ij->j", r, r)
    inv_s = 1.0 / s
    ms = mass * inv_s  # M / s
    msr_2 = -2.0 * ms * inv_s  # -2 M / s^2
    ms3_8 = -4.0 * msr_2 * inv_s  # 8 M / s^3
    out = np.empty((lay.width, m), dtype=np.float64)
    for a in range(dim):
        np.multiply(ms, r[a], out=out[a])
    for a, b in lay.pairs:
        row = out[lay.j[(a, b)]]
        np.multiply(r[a] * r[b], msr_2, out=row)
        if a == b:
            row += ms
    # T_abc = 8 M r_a r_b r_c / s^3 - 2 M / s^2 (d_ab r_c + d_ac r_b + d_bc r_a), a <= b <= c
    for a, b, c in lay.triples:
        row = out[lay.t[(a, b, c)]]
        np.multiply(r[a] * r[b] * r[c], ms3_8, out=row)
        if a == b == c:
            row += 3.0 * msr_2 * r[a]
        elif a == b:
            row += msr_2 * r[c]
        elif b == c:
            row += msr_2 * r[a]
    return out


def evaluate(coef: FloatArray, d: FloatArray) -> FloatArray:
    """Field at offsets ``d`` (shape ``(dim, m)``) from the centres; returns ``(dim, m)``."""
    dim = d.shape[0]
    lay = layout(dim)
    out = coef[:dim].copy()
    half_dd = {(b, c): 0.5 * d[b] * d[c] for b in range(dim) for c in range(b, dim)}
    for a in range(dim):
        row = out[a]
        for b in range(dim):
            row += coef[lay.j[(a, b)]] * d[b]
        for (b, c), dd in half_dd.items():
            mult = 1.0 if b == c else 2.0
            row += (mult * coef[lay.t[(a, b, c)]]) * dd
    return out


def translate(coef: FloatArray, delta: FloatArray) -> FloatArray:
    """Re-centre expansions by ``delta`` (new centre = old centre + delta); exact."""
    dim = delta.shape[0]
    lay = layout(dim)
    out = coef.copy()
    out[:dim] = evaluate(coef, delta)
    for a, b in lay.pairs:
        row = out[lay.j[(a, b)]]
        for c in range(dim):
            row += coef[lay.t[(a, b, c)]] * delta[c]
    return out
