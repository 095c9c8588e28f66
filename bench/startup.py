"""The bundle's size and start-up time beside the venv's (`make run`).

    .venv/bin/python bench/startup.py [--bundle dist-bundle/bme-desktop] [--runs 5] [--no-archive]

Size: the bundle folder (files and symlinks as stored) and the same folder as a .tar.gz (gzip -6,
what a release archive would weigh).

Start-up: wall time of ``--no-bridge --screenshot`` (start the program, open the main window on an
empty data folder, render it to a PNG, exit) for

- the bundle, *cold*: the bundle's files evicted from the page cache first (``posix_fadvise
  DONTNEED`` on each file: what a first start after download or reboot reads from disk; other
  programs' cache is left alone), and *warm*: a second start right after;
- the venv as ``make run`` starts it (``.venv/bin/python -m bme_desktop``), cold (the venv's and
  the base interpreter's files evicted) and warm (``make run``'s second start).

Runs alternate between the bundle and the venv so both see the same machine load; each figure is
the median of ``--runs`` (min and max beside it), with the CPU time (user + system) the start took,
which machine load changes far less than the wall time. Each run gets a new empty data folder, offscreen Qt,
a UTF-8 locale and the null keyring; the bundle's environment is otherwise empty (no PATH to the venv,
no PYTHONPATH). Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_common import ROOT

VENV_PYTHON = ROOT / ".venv" / "bin" / "python"


def folder_bytes(folder: Path) -> int:
    total = 0
    for path in folder.rglob("*"):
        total += path.lstat().st_size if path.is_symlink() or path.is_file() else 0
    return total


def targz_bytes(folder: Path) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        archive = Path(tmp) / "bundle.tar.gz"
        with tarfile.open(archive, "w:gz", compresslevel=6) as tar:
            tar.add(folder, arcname=folder.name)
        return archive.stat().st_size


def evict(folders: list[Path]) -> int:
    """Drop the page-cache pages of every file under ``folders`` (clean pages only); returns the count."""
    count = 0
    for folder in folders:
        for path in folder.rglob("*"):
            if path.is_symlink() or not path.is_file():
                continue
            try:
                fd = os.open(path, os.O_RDONLY)
            except OSError:
                continue
            try:
                os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
                count += 1
            finally:
                os.close(fd)
    return count


def child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed_screenshot(command: list[str], env: dict[str, str], work: Path) -> tuple[float, float]:
    """Wall time and CPU time (user + system, the program and its children) of one start."""
    data = Path(tempfile.mkdtemp(dir=work))
    shot = data / "shot.png"
    run_env = {**env, "BME_DATA_DIR": str(data / "data")}
    cpu0, t0 = child_cpu(), time.perf_counter()
    subprocess.run(
        [*command, "--no-bridge", "--screenshot", str(shot)],
        env=run_env,
        cwd=data,
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        timeout=600,
    )
    elapsed, cpu = time.perf_counter() - t0, child_cpu() - cpu0
    if not shot.is_file() or shot.stat().st_size == 0:
        raise SystemExit(f"{command[0]} wrote no screenshot")
    return elapsed, cpu


def summary(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} s (min {min(values):.2f}, max {max(values):.2f})"


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--bundle", type=Path, default=ROOT / "dist-bundle" / "bme-desktop")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--no-archive", action="store_true", help="skip the .tar.gz size (minutes under load)"
    )
    args = parser.parse_args()
    bundle = args.bundle.resolve()
    exe = bundle / "bme-desktop"
    if not exe.is_file():
        raise SystemExit(f"no bundle at {bundle}: run make bundle first")
    base_env = {
        "HOME": tempfile.mkdtemp(prefix="bme-startup-home-"),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "QT_QPA_PLATFORM": "offscreen",
        "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring",
    }
    bundle_env = {**base_env, "PATH": "/usr/bin:/bin"}
    venv_env = {**base_env, "PATH": f"{VENV_PYTHON.parent}:/usr/bin:/bin"}
    venv_files = [ROOT / ".venv", Path(sys.base_prefix) / "lib"]

    print(f"bundle: {bundle}")
    size = folder_bytes(bundle)
    print("| what | bytes | MB |")
    print("|---|---|---|")
    print(f"| bundle folder | {size} | {size / 1e6:.0f} |")
    if not args.no_archive:
        packed = targz_bytes(bundle)
        print(f"| bundle as .tar.gz (gzip -6) | {packed} | {packed / 1e6:.0f} |")
    venv_size = folder_bytes(ROOT / ".venv")
    print(
        f"| for comparison: the dev venv (.venv, with the test tools) | {venv_size} | {venv_size / 1e6:.0f} |"
    )
    print()

    kinds = ("bundle cold", "bundle warm", "venv cold", "venv warm")
    times: dict[str, list[float]] = {k: [] for k in kinds}
    cpu: dict[str, list[float]] = {k: [] for k in kinds}
    bundle_command, venv_command = [str(exe)], [str(VENV_PYTHON), "-m", "bme_desktop"]
    with tempfile.TemporaryDirectory(prefix="bme-startup-") as tmp:
        work = Path(tmp)
        for _ in range(args.runs):
            for kind, command, env, files in (
                ("bundle", bundle_command, bundle_env, [bundle]),
                ("venv", venv_command, venv_env, venv_files),
            ):
                evict(files)
                for start in ("cold", "warm"):
                    wall, used = timed_screenshot(command, env, work)
                    times[f"{kind} {start}"].append(wall)
                    cpu[f"{kind} {start}"].append(used)
    load = os.getloadavg()[0]
    print(
        f"Start to first window (--screenshot wall time, empty data folder), median of {args.runs} "
        f"(load average {load:.1f} at the end):"
    )
    print("| program | cold start | warm (second) start | CPU s cold / warm (median) |")
    print("|---|---|---|---|")
    for kind, name in (
        ("bundle", f"bundle ({exe.name})"),
        ("venv", "venv (make run: python -m bme_desktop)"),
    ):
        print(
            f"| {name} | {summary(times[f'{kind} cold'])} | {summary(times[f'{kind} warm'])} | "
            f"{statistics.median(cpu[f'{kind} cold']):.2f} / {statistics.median(cpu[f'{kind} warm']):.2f} |"
        )
    ratio = statistics.median(times["bundle warm"]) / statistics.median(times["venv warm"])
    print(f"bundle warm / venv warm (make run's second start): {ratio:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
