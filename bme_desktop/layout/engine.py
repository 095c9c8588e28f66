"""ForceLayout: the state of one force-directed layout and its step().

Nodes are the integers ``0 .. n-1`` (the caller maps its node ids to them);
edges are an ``(m, 2)`` integer array with an optional weight each. The
forces follow ForceAtlas2 (Jacomy et al., 2014): Barnes–Hut repulsion
``scaling * m_i * m_j / d`` with ``m = degree + 1``, attraction ``w * d``
along edges, gravity toward the origin, and an adaptive speed per node from
its *swing* (how much its force changes direction between steps) against the
graph's overall *traction* (how much of the force is kept).

The class is not thread-safe: one thread owns it at a time. ``LayoutRunner``
owns it while it runs and applies changes posted from other threads between
steps.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .barnes_hut import repulsion
from .forces import attraction, gravity, scatter_add

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

_MIN_SPEED = 1e-3


@dataclass(frozen=True)
class LayoutSettings:
    """Tunable parameters; the defaults suit graphs from ten to a few 100k nodes."""

    dim: int = 2
    #: Repulsion strength (ForceAtlas2's k_r): larger spreads the graph out.
    scaling: float = 2.0
    #: Pull toward the origin, times each node's mass.
    gravity: float = 1.0
    strong_gravity: bool = False
    #: Edge weights are raised to this power (0: ignore weights).
    edge_weight_influence: float = 1.0
    lin_log: bool = False
    dissuade_hubs: bool = False
    #: Barnes–Hut opening criterion; smaller is more exact and slower.
    theta: float = 1.0
    leaf_size: int = 32
    #: How much swinging is tolerated (ForceAtlas2's tau); higher is faster, less precise.
    jitter_tolerance: float = 1.0
    #: Node speed factor (ForceAtlas2's k_s).
    node_speed: float = 0.1
    #: Largest move of one node in one step (ForceAtlas2's k_s_max).
    max_displacement: float = 10.0
    #: The global speed may rise by at most this fraction per step.
    max_speed_rise: float = 0.5
    #: Converged when the mean move of the free nodes, relative to the layout's
    #: RMS radius, stays below this for ``convergence_patience`` steps.
    convergence_tol: float = 2e-3
    convergence_patience: int = 5
    #: Pull of each node toward the centre of its group (``set_groups``: e.g. its community),
    #: times its mass, like ``gravity``; 0 turns it off. Groups then lay out as separate clusters.
    group_gravity: float = 0.0

    def __post_init__(self) -> None:
        if self.dim not in (2, 3):
            raise ValueError("dim must be 2 or 3")
        if self.theta <= 0.0:
            raise ValueError("theta must be positive")
        if self.convergence_patience < 1:
            raise ValueError("convergence_patience must be at least 1")


@dataclass(frozen=True)
class StepInfo:
    """What one step did."""

    iteration: int
    #: Global speed (ForceAtlas2's s(G)).
    speed: float
    #: Mean displacement of the free nodes over the layout's RMS radius.
    displacement: float
    converged: bool


def _as_edges(edges: npt.ArrayLike | None) -> IntArray:
    if edges is None:
        return np.zeros((0, 2), dtype=np.int64)
    arr = np.asarray(edges, dtype=np.int64)
    if arr.size == 0:
        return np.zeros((0, 2), dtype=np.int64)
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise ValueError("edges must have shape (m, 2)")
    return arr


def _as_weights(weights: npt.ArrayLike | None, m: int) -> FloatArray:
    if weights is None:
        return np.ones(m, dtype=np.float64)
    arr = np.asarray(weights, dtype=np.float64).reshape(-1)
    if arr.shape[0] != m:
        raise ValueError("one weight per edge")
    if np.any(arr < 0.0) or not np.all(np.isfinite(arr)):
        raise ValueError("edge weights must be finite and non-negative")
    return arr


class ForceLayout:
    """A ForceAtlas2-style layout in 2D or 3D with Barnes–Hut repulsion.

    >>> lay = ForceLayout(3, [[0, 1], [1, 2]], seed=1)
    >>> info = lay.run(200)
    >>> lay.positions.shape
    (3, 2)
    """

    def __init__(
        self,
        n_nodes: int = 0,
        edges: npt.ArrayLike | None = None,
        weights: npt.ArrayLike | None = None,
        *,
        positions: npt.ArrayLike | None = None,
        settings: LayoutSettings | None = None,
        seed: int | None = 0,
    ) -> None:
        self.settings = settings or LayoutSettings()
        dim = self.settings.dim
        self._rng = np.random.default_rng(seed)
        if positions is not None:
            pos = np.array(positions, dtype=np.float64)
            if pos.ndim != 2 or pos.shape[1] != dim:
                raise ValueError(f"positions must have shape (n, {dim})")
            n_nodes = pos.shape[0]
        else:
            radius = max(1.0, float(np.sqrt(n_nodes)))
            pos = self._rng.uniform(-radius, radius, size=(n_nodes, dim))
        self._pos: FloatArray = pos
        self._pinned: BoolArray = np.zeros(n_nodes, dtype=bool)
        self._prev_force: FloatArray = np.zeros_like(pos)
        self._edges: IntArray = np.zeros((0, 2), dtype=np.int64)
        self._weights: FloatArray = np.zeros(0, dtype=np.float64)
        self._mass: FloatArray = np.ones(n_nodes, dtype=np.float64)
        self._speed = 1.0
        self._first_step = True
        self._calm_steps = 0
        self._converged = False
        self._check_overlap = True
        self.iteration = 0
        self._groups: IntArray = np.full(n_nodes, -1, dtype=np.int64)  # -1: in no group
        self.set_edges(edges, weights)

    # ------------------------------------------------------------------ state
    @property
    def n_nodes(self) -> int:
        return int(self._pos.shape[0])

    @property
    def dim(self) -> int:
        return self.settings.dim

    @property
    def positions(self) -> FloatArray:
        """A copy of the positions, shape ``(n, dim)``."""
        return self._pos.copy()

    @property
    def pinned(self) -> BoolArray:
        return self._pinned.copy()

    @property
    def edges(self) -> IntArray:
        return self._edges.copy()

    @property
    def weights(self) -> FloatArray:
        return self._weights.copy()

    @property
    def mass(self) -> FloatArray:
        return self._mass.copy()

    @property
    def converged(self) -> bool:
        return self._converged

    def reset_convergence(self) -> None:
        """Let the layout move again after a change (done by every mutator)."""
        self._converged = False
        self._calm_steps = 0

    # ---------------------------------------------------------------- editing
    def set_edges(self, edges: npt.ArrayLike | None, weights: npt.ArrayLike | None = None) -> None:
        """Replace all edges. Self-loops are dropped."""
        arr = _as_edges(edges)
        w = _as_weights(weights, arr.shape[0])
        if arr.size and (arr.min() < 0 or arr.max() >= self.n_nodes):
            raise IndexError("edge endpoint out of range")
        keep = arr[:, 0] != arr[:, 1]
        self._edges = arr[keep]
        self._weights = w[keep]
        self._update_mass()
        self.reset_convergence()

    def add_edges(self, edges: npt.ArrayLike, weights: npt.ArrayLike | None = None) -> None:
        arr = _as_edges(edges)
        w = _as_weights(weights, arr.shape[0])
        self.set_edges(np.concatenate((self._edges, arr)), np.concatenate((self._weights, w)))

    def add_nodes(
        self,
        count: int,
        edges: npt.ArrayLike | None = None,
        weights: npt.ArrayLike | None = None,
        *,
        positions: npt.ArrayLike | None = None,
    ) -> IntArray:
        """Append ``count`` nodes (indices ``n .. n+count-1``) and optional edges.

        ``edges`` may join new nodes to old ones or to each other. Unless
        ``positions`` are given, a new node goes to the mean of its already
        placed neighbours plus a small jitter (repeated outward so chains of
        new nodes follow), or near the centre if it has none. Existing nodes
        do not move. Returns the new indices.
        """
        if count < 0:
            raise ValueError("count must be non-negative")
        old_n = self.n_nodes
        new_edges = _as_edges(edges)
        new_weights = _as_weights(weights, new_edges.shape[0])
        if new_edges.size and (new_edges.min() < 0 or new_edges.max() >= old_n + count):
            raise IndexError("edge endpoint out of range")
        new = np.arange(old_n, old_n + count, dtype=np.int64)
        dim = self.dim
        if positions is not None:
            new_pos = np.array(positions, dtype=np.float64)
            if new_pos.shape != (count, dim):
                raise ValueError(f"positions must have shape ({count}, {dim})")
        else:
            new_pos = np.zeros((count, dim), dtype=np.float64)
        self._pos = np.concatenate((self._pos, new_pos))
        self._pinned = np.concatenate((self._pinned, np.zeros(count, dtype=bool)))
        self._prev_force = np.concatenate((self._prev_force, np.zeros((count, dim))))
        self._mass = np.concatenate((self._mass, np.ones(count)))
        self._groups = np.concatenate((self._groups, np.full(count, -1, dtype=np.int64)))
        if new_edges.shape[0]:
            self.add_edges(new_edges, new_weights)
        if positions is None and count:
            self._place(new, old_n)
        self._check_overlap = True
        self.reset_convergence()
        return new

    def remove_nodes(self, indices: npt.ArrayLike) -> IntArray:
        """Delete nodes and their edges; the others keep their positions.

        Returns ``remap``, of length the old node count: the new index of each
        old node, or -1 for a removed one.
        """
        idx = np.unique(np.asarray(indices, dtype=np.int64).reshape(-1))
        if idx.size and (idx[0] < 0 or idx[-1] >= self.n_nodes):
            raise IndexError("node index out of range")
        keep = np.ones(self.n_nodes, dtype=bool)
        keep[idx] = False
        remap = np.full(self.n_nodes, -1, dtype=np.int64)
        remap[keep] = np.arange(int(keep.sum()), dtype=np.int64)
        self._pos = self._pos[keep]
        self._pinned = self._pinned[keep]
        self._prev_force = self._prev_force[keep]
        self._groups = self._groups[keep]
        e = remap[self._edges] if self._edges.size else self._edges
        ok = (e >= 0).all(axis=1) if e.size else np.zeros(0, dtype=bool)
        self._mass = self._mass[keep]
        self.set_edges(e[ok], self._weights[ok])
        return remap

    def set_positions(self, indices: npt.ArrayLike, positions: npt.ArrayLike, *, pin: bool = True) -> None:
        """Move nodes (say, the ones the user dragged) and by default pin them there."""
        idx = np.asarray(indices, dtype=np.int64).reshape(-1)
        p = np.asarray(positions, dtype=np.float64).reshape(idx.shape[0], self.dim)
        if not np.all(np.isfinite(p)):
            raise ValueError("positions must be finite")
        self._pos[idx] = p
        self._prev_force[idx] = 0.0
        self._check_overlap = True
        if pin:
            self._pinned[idx] = True
        self.reset_convergence()

    def pin(self, indices: npt.ArrayLike, pinned: bool = True) -> None:
        """Pin (or unpin) nodes: a pinned node never moves but still pushes and pulls."""
        idx = np.asarray(indices, dtype=np.int64).reshape(-1)
        self._pinned[idx] = pinned
        self._prev_force[idx] = 0.0
        self.reset_convergence()

    def unpin(self, indices: npt.ArrayLike) -> None:
        self.pin(indices, False)

    # ---------------------------------------------------------------- forces
    def forces(self) -> FloatArray:
        """Total force on every node at the current positions (pinned nodes included)."""
        s = self.settings
        pos = self._pos
        total = repulsion(pos, self._mass, scale=s.scaling, theta=s.theta, leaf_size=s.leaf_size)
        if self._edges.shape[0]:
            w = self._weights
            if s.edge_weight_influence != 1.0:
                w = w**s.edge_weight_influence
            total += attraction(
                pos,
                self._edges[:, 0],
                self._edges[:, 1],
                w,
                lin_log=s.lin_log,
                mass=self._mass if s.dissuade_hubs else None,
            )
        total += gravity(pos, self._mass, s.gravity, strong=s.strong_gravity)
        if s.group_gravity and (self._groups >= 0).any():
            total += self._group_pull(pos, s.group_gravity)
        return total

    def set_groups(self, groups: npt.ArrayLike) -> None:
        """The group of every node (-1: none), e.g. its community: with ``group_gravity`` each
        node is pulled toward the mass centre of its group."""
        g = np.asarray(groups, dtype=np.int64).reshape(-1)
        if g.shape[0] != self.n_nodes:
            raise ValueError(f"groups must have one entry per node ({self.n_nodes})")
        self._groups = g.copy()
        self.reset_convergence()

    @property
    def groups(self) -> IntArray:
        return self._groups

    def _group_pull(self, pos: FloatArray, strength: float) -> FloatArray:
        member = self._groups >= 0
        g, m = self._groups[member], self._mass[member]
        count = int(g.max()) + 1
        weight = np.bincount(g, weights=m, minlength=count)
        centre = (
            np.stack(
                [np.bincount(g, weights=m * pos[member, d], minlength=count) for d in range(self.dim)], axis=1
            )
            / np.maximum(weight, 1e-12)[:, None]
        )
        pull = np.zeros_like(pos)
        pull[member] = gravity(pos[member], m, strength, center=centre[g])
        return pull

    def step(self) -> StepInfo:
        """Move every free node once; returns what happened."""
        s = self.settings
        n = self.n_nodes
        free = ~self._pinned
        if n == 0 or not free.any():
            self.iteration += 1
            self._converged = True
            return StepInfo(self.iteration, self._speed, 0.0, True)

        if self._check_overlap:
            self._separate_coincident()
        force = self.forces()
        force[self._pinned] = 0.0
        prev = self._prev_force
        swing = np.sqrt(np.einsum("ij,ij->i", force - prev, force - prev))
        both = force + prev
        traction = 0.5 * np.sqrt(np.einsum("ij,ij->i", both, both))
        g_swing = float(np.dot(self._mass[free], swing[free]))
        g_traction = float(np.dot(self._mass[free], traction[free]))

        # Global speed s(G) = tau * traction / swing, allowed to rise only slowly.
        if g_swing > 0.0:
            target = s.jitter_tolerance * g_traction / g_swing
        else:
            target = self._speed * (1.0 + s.max_speed_rise)
        if self._first_step:
            self._speed = target
            self._first_step = False
        else:
            self._speed = min(target, self._speed * (1.0 + s.max_speed_rise))
        # A floor, so that one step of pure oscillation (no traction) cannot freeze it for good.
        self._speed = max(self._speed, _MIN_SPEED)

        # Per-node speed: slower for nodes that swing, and no step longer than max_displacement.
        node_speed = s.node_speed * self._speed / (1.0 + self._speed * np.sqrt(swing))
        fnorm = np.sqrt(np.einsum("ij,ij->i", force, force))
        cap = s.max_displacement / np.where(fnorm > 0.0, fnorm, 1.0)
        np.minimum(node_speed, cap, out=node_speed)
        node_speed[self._pinned] = 0.0
        disp = force * node_speed[:, None]
        self._pos += disp
        self._prev_force = force
        self.iteration += 1

        radius = self._rms_radius_of(self._pos)
        moved = float(np.mean(np.sqrt(np.einsum("ij,ij->i", disp[free], disp[free]))))
        rel = moved / radius if radius > 0.0 else 0.0
        if rel < s.convergence_tol:
            self._calm_steps += 1
        else:
            self._calm_steps = 0
        self._converged = self._calm_steps >= s.convergence_patience
        return StepInfo(self.iteration, self._speed, rel, self._converged)

    def run(self, max_iterations: int = 1000) -> StepInfo:
        """Step until converged or ``max_iterations``; returns the last step's info."""
        info = StepInfo(self.iteration, self._speed, 0.0, self._converged)
        for _ in range(max_iterations):
            info = self.step()
            if info.converged:
                break
        return info

    # --------------------------------------------------------------- helpers
    def _update_mass(self) -> None:
        n = self.n_nodes
        deg = np.zeros(n, dtype=np.float64)
        if self._edges.shape[0]:
            deg = (
                np.bincount(self._edges[:, 0], minlength=n) + np.bincount(self._edges[:, 1], minlength=n)
            ).astype(np.float64)
        self._mass = 1.0 + deg

    def _place(self, new: IntArray, old_n: int) -> None:
        """Place new nodes at their placed neighbours' mean plus jitter, else near the centre."""
        dim = self.dim
        n = self.n_nodes
        placed = np.zeros(n, dtype=bool)
        placed[:old_n] = True
        if old_n:
            centre = self._pos[:old_n].mean(axis=0)
            spread = 0.1 * self._rms_radius_of(self._pos[:old_n]) if old_n > 1 else 1.0
        else:
            centre = np.zeros(dim)
            spread = max(1.0, float(np.sqrt(new.shape[0])))
        jitter = self._jitter_scale(old_n)
        src = self._edges[:, 0]
        dst = self._edges[:, 1]
        for _ in range(64):  # rounds outward from the placed nodes, each one vectorised
            a = ~placed[src] & placed[dst]
            b = placed[src] & ~placed[dst]
            if not (a.any() or b.any()):
                break
            tgt = np.concatenate((src[a], dst[b]))
            frm = np.concatenate((dst[a], src[b]))
            sums = np.zeros((n, dim))
            scatter_add(sums, tgt, self._pos[frm])
            cnt = np.bincount(tgt, minlength=n)
            got = np.flatnonzero(cnt)
            self._pos[got] = sums[got] / cnt[got, None] + self._rng.normal(scale=jitter, size=(got.size, dim))
            placed[got] = True
        rest = new[~placed[new]]
        if rest.size:
            self._pos[rest] = centre + self._rng.normal(scale=spread, size=(rest.size, dim))

    def _jitter_scale(self, old_n: int) -> float:
        e = self._edges
        if e.shape[0]:
            old = e[(e[:, 0] < old_n) & (e[:, 1] < old_n)]
            if old.shape[0]:
                d = self._pos[old[:, 0]] - self._pos[old[:, 1]]
                length = float(np.median(np.sqrt(np.einsum("ij,ij->i", d, d))))
                if length > 0.0:
                    return 0.1 * length
        return 0.1

    def _separate_coincident(self) -> None:
        """Nudge free nodes that share a position exactly: repulsion cannot part them.

        Run on the first step after positions came from outside (construction,
        ``add_nodes``, ``set_positions``), not on every step.
        """
        self._check_overlap = False
        n = self.n_nodes
        if n < 2:
            return
        order = np.lexsort(self._pos.T[::-1])
        sorted_pos = self._pos[order]
        same = np.all(sorted_pos[1:] == sorted_pos[:-1], axis=1)
        if not same.any():
            return
        dup = np.zeros(n, dtype=bool)
        dup[order[1:][same]] = True
        dup[order[:-1][same]] = True
        dup &= ~self._pinned
        idx = np.flatnonzero(dup)
        scale = 1e-3 * max(self._rms_radius_of(self._pos), 1.0)
        self._pos[idx] += self._rng.normal(scale=scale, size=(idx.size, self.dim))

    @staticmethod
    def _rms_radius_of(pos: FloatArray) -> float:
        """Root-mean-square distance from the centroid (1.0 for fewer than two nodes)."""
        if pos.shape[0] < 2:
            return 1.0
        centred = pos - pos.mean(axis=0)
        return max(float(np.sqrt(np.einsum("ij,ij->", centred, centred) / pos.shape[0])), 1e-9)
