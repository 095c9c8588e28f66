"""numpy's matrix products run on the calling thread alone.

OpenBLAS splits even a 10k × 384 matrix–vector product over every core. On a 2-core machine
where the other core is busy (embedding the query beside the lexical stage, or another
recall), the split waits for that core: measured on this project's machine, one product took
p50 0.13 ms but p95 8.2 ms with OpenBLAS's threads, and 0.29 / 0.36 ms on one thread. The
memory core's numpy work is small products like this one, and its parallelism comes from
running stages and recalls side by side, so one BLAS thread is faster where it counts.

This is a process-wide setting of the BLAS library (through ``threadpoolctl``); the entry
points apply it once at start-up (``bme_desktop/runtime_tuning.py``), not the recall pipeline.
"""

from __future__ import annotations

BLAS_THREADS = 1


def limit_blas_threads(limit: int = BLAS_THREADS) -> bool:
    """Cap the BLAS libraries numpy and scipy loaded at ``limit`` threads; True if any was found."""
    try:
        from threadpoolctl import threadpool_info, threadpool_limits
    except ImportError:  # an install without it: BLAS keeps its own default
        return False
    threadpool_limits(limits=limit, user_api="blas")
    return any(pool.get("user_api") == "blas" for pool in threadpool_info())
