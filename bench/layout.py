"""Benchmark of the force layout (bme_desktop.layout) against networkx.spring_layout.

    python bench/layout.py            # full set (a few minutes on 2 cores)
    python bench/layout.py --quick    # reduced set, under 40 s

Random graphs with edges = 2 x nodes. Reports ms per iteration (median of the
measured iterations, after warm-up iterations so the layout has left its random
start), the Barnes–Hut error against the exact sum, networkx.spring_layout's
time per iteration (if networkx is installed; it is not a dependency of the
app), the speed-up, and layout quality (neighbourhood preservation, higher is
better; normalised stress, lower is better) beside a random layout and
networkx. Exits non-zero with --check if a target is missed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bme_desktop.layout import ForceLayout, LayoutSettings, layout_quality, repulsion

TARGET_10K_2D_MS = 70.0
TARGET_100K_2D_MS = 1000.0
TARGET_SPEEDUP_5K = 20.0


def random_edges(n: int, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, n, size=(2 * n, 2))


def time_ours(n: int, dim: int, warmup: int, measure: int) -> dict[str, Any]:
    edges = random_edges(n)
    t0 = time.perf_counter()
    lay = ForceLayout(n, edges, settings=LayoutSettings(dim=dim), seed=1)
    setup = time.perf_counter() - t0
    for _ in range(warmup):
        lay.step()
    cpu, wall = [], []
    for _ in range(measure):
        c0, t0 = time.process_time(), time.perf_counter()
        lay.step()
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - t0)
    return {
        "n": n,
        "dim": dim,
        "ms_per_iteration": 1000 * float(np.median(cpu)),
        "wall_ms": 1000 * float(np.median(wall)),
        "setup_ms": 1000 * setup,
        "iterations": warmup + measure,
        "positions": lay.positions,
        "mass": lay.mass,
    }


def bh_error(pos: np.ndarray, mass: np.ndarray, sample: int = 400) -> dict[str, float]:
    """Relative error of the Barnes–Hut forces against the exact sum on sampled nodes."""
    n = pos.shape[0]
    idx = np.random.default_rng(0).choice(n, size=min(sample, n), replace=False)
    approx = repulsion(pos, mass)[idx]
    diff = pos[idx][:, None, :] - pos[None, :, :]
    d2 = np.einsum("ijk,ijk->ij", diff, diff)
    d2[d2 == 0.0] = np.inf
    exact = np.einsum("ij,ijk->ik", mass[None, :] / d2, diff) * mass[idx, None]
    rel = np.linalg.norm(approx - exact, axis=1) / np.linalg.norm(exact, axis=1)
    return {"median": float(np.median(rel)), "p95": float(np.quantile(rel, 0.95)), "max": float(rel.max())}


def time_networkx(nx: Any, n: int, few: int, many: int, method: str) -> float:
    """CPU seconds per spring_layout iteration: (t(many) - t(few)) / (many - few) cancels the setup.

    ``method`` is networkx's: "force" (classic Fruchterman-Reingold) or "energy"
    (L-BFGS on the FR energy, the default from 500 nodes). ``threshold=0`` keeps
    either from stopping early.
    """
    graph = nx.Graph()
    graph.add_nodes_from(range(n))
    graph.add_edges_from(random_edges(n).tolist())

    def run(iterations: int) -> float:
        t0 = time.process_time()
        nx.spring_layout(graph, iterations=iterations, seed=1, threshold=0.0, method=method)
        return time.process_time() - t0

    t_few = run(few)
    t_many = run(many)
    return max(t_many - t_few, 1e-9) / (many - few)


def quality_rows(
    nx: Any, n: int, nx_iterations: int, dims: tuple[int, ...]
) -> list[tuple[str, float, float, str]]:
    edges = random_edges(n, seed=5)
    rows = []
    for dim in dims:
        lay = ForceLayout(n, edges, settings=LayoutSettings(dim=dim), seed=2)
        t0 = time.perf_counter()
        info = lay.run(3000)
        secs = time.perf_counter() - t0
        q = layout_quality(lay.positions, edges)
        note = f"{info.iteration} it, {'converged' if info.converged else 'not converged'}, {secs:.1f} s"
        rows.append((f"bme ForceLayout {dim}D", q.neighborhood, q.stress, note))
    rng = np.random.default_rng(9)
    q = layout_quality(rng.uniform(-1, 1, size=(n, 2)), edges)
    rows.append(("random 2D", q.neighborhood, q.stress, ""))
    if nx is not None:
        graph = nx.Graph()
        graph.add_nodes_from(range(n))
        graph.add_edges_from(edges.tolist())
        t0 = time.perf_counter()
        p = nx.spring_layout(graph, iterations=nx_iterations, seed=1)
        secs = time.perf_counter() - t0
        pos = np.array([p[i] for i in range(n)])
        q = layout_quality(pos, edges)
        rows.append(
            ("networkx spring_layout 2D", q.neighborhood, q.stress, f"{nx_iterations} it, {secs:.1f} s")
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="reduced set, under 40 s")
    ap.add_argument("--check", action="store_true", help="exit 1 if a target is missed")
    ap.add_argument("--json", type=Path, help="also write the numbers to this file")
    args = ap.parse_args(argv)
    started = time.perf_counter()

    try:
        import networkx as nx
    except ImportError:
        nx = None

    if args.quick:
        cases = [
            (1000, 2, 5, 5),
            (5000, 2, 3, 3),
            (10_000, 2, 3, 3),
            (100_000, 2, 1, 2),
            (1000, 3, 5, 5),
            (10_000, 3, 1, 2),
        ]
        nx_cases = [(1000, 2, 6), (5000, 1, 2)]
        quality_n, nx_quality_iterations, quality_dims = 1000, 30, (2,)
    else:
        cases = [
            (1000, 2, 20, 20),
            (5000, 2, 20, 10),
            (10_000, 2, 20, 10),
            (100_000, 2, 5, 5),
            (1000, 3, 20, 20),
            (5000, 3, 10, 5),
            (10_000, 3, 10, 5),
            (100_000, 3, 3, 3),
        ]
        nx_cases = [(1000, 2, 10), (5000, 1, 5)]
        quality_n, nx_quality_iterations, quality_dims = 2000, 50, (2, 3)

    print(f"bme_desktop.layout bench ({'quick' if args.quick else 'full'}), numpy {np.__version__}")
    print("random graphs, edges = 2 x nodes; ms per iteration = median after warm-up, CPU time of")
    print("this process (wall-clock beside it: other work on a shared machine inflates it)\n")
    print(f"{'nodes':>8} {'dim':>3} {'ms/iter':>9} {'wall':>8} {'BH err med':>11} {'p95':>7}")
    results: dict[str, Any] = {"ours": [], "networkx": [], "quality": []}
    ours: dict[tuple[int, int], float] = {}
    for n, dim, warmup, measure in cases:
        r = time_ours(n, dim, warmup, measure)
        err = bh_error(r["positions"], r["mass"]) if n <= 10_000 else None
        ours[(n, dim)] = r["ms_per_iteration"]
        err_txt = f"{100 * err['median']:10.2f}% {100 * err['p95']:6.2f}%" if err else f"{'-':>11} {'-':>7}"
        print(f"{n:>8} {dim:>3} {r['ms_per_iteration']:>9.1f} {r['wall_ms']:>8.1f} {err_txt}")
        results["ours"].append(
            {k: v for k, v in r.items() if k not in ("positions", "mass")} | {"bh_error": err}
        )

    print()
    if nx is None:
        print("networkx not installed: skipping the spring_layout baseline (pip install networkx)")
    else:
        print(f"networkx {nx.__version__} spring_layout (2D), CPU time per iteration")
        print("('force': classic Fruchterman-Reingold; 'energy': L-BFGS, its default from 500 nodes;")
        print(" the speed-up is taken against the faster of the two):")
        for n, few, many in nx_cases:
            per = {m: time_networkx(nx, n, few, many, m) for m in ("force", "energy")}
            best = min(per.values())
            mine = ours.get((n, 2))
            ratio = (1000 * best / mine) if mine else float("nan")
            results["networkx"].append(
                {"n": n, "ms_force": 1000 * per["force"], "ms_energy": 1000 * per["energy"], "speedup": ratio}
            )
            print(
                f"{n:>8} nodes: force {1000 * per['force']:8.1f} ms  energy {1000 * per['energy']:8.1f} ms"
                f"   bme {mine:7.1f} ms   speed-up {ratio:6.1f}x"
            )

    print(
        f"\nlayout quality, random graph of {quality_n} nodes (neighbourhood: higher is better; stress: "
        "lower)"
    )
    for name, nb, stress, note in quality_rows(nx, quality_n, nx_quality_iterations, quality_dims):
        results["quality"].append({"layout": name, "neighborhood": nb, "stress": stress, "note": note})
        print(f"  {name:<28} neighbourhood {nb:6.3f}   stress {stress:6.3f}   {note}")

    checks = [
        ("10k nodes 2D <= 70 ms/iteration", ours.get((10_000, 2), np.inf) <= TARGET_10K_2D_MS),
        ("100k nodes 2D <= 1 s/iteration", ours.get((100_000, 2), np.inf) <= TARGET_100K_2D_MS),
    ]
    nx5 = [x for x in results["networkx"] if x["n"] == 5000]
    if nx5:
        checks.append(("5k nodes >= 20x faster than networkx", nx5[0]["speedup"] >= TARGET_SPEEDUP_5K))
    print("\ntargets:")
    for name, ok in checks:
        print(f"  {'PASS' if ok else 'MISS'}  {name}")
    print(f"\ntotal {time.perf_counter() - started:.1f} s")
    if args.json:
        results["checks"] = dict(checks)
        args.json.write_text(json.dumps(results, indent=2))
    return 0 if (not args.check or all(ok for _, ok in checks)) else 1


if __name__ == "__main__":
    sys.exit(main())
