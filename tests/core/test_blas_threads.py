"""The BLAS cap the entry points apply at start-up: numpy's BLAS runs one thread."""

from __future__ import annotations

import numpy as np  # noqa: F401 - loads the BLAS library that is capped
from threadpoolctl import threadpool_info, threadpool_limits

from bme_desktop.core.blas_threads import limit_blas_threads


def test_the_blas_library_runs_one_thread_after_the_limit() -> None:
    original = threadpool_limits(limits=None)  # remembers the current limits
    try:
        threadpool_limits(limits=2, user_api="blas")
        assert limit_blas_threads() is True
        blas = [pool for pool in threadpool_info() if pool["user_api"] == "blas"]
        assert blas and all(pool["num_threads"] == 1 for pool in blas)
    finally:
        original.restore_original_limits()
