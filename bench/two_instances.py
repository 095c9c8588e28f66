"""Two ``bme-desktop serve`` processes on one PostgreSQL database (issue 15, item 3).

    BME_TEST_POSTGRES_URL=postgresql+psycopg://postgres@127.0.0.1:55432/postgres \\
        .venv/bin/python bench/two_instances.py [--rounds 8]

Creates a fresh database on that server (dropped afterwards), starts two real ``serve``
processes on it (each its own data dir, port 0) and, from threads, makes them: create the
same new chat at the same moment, append to the same chat in lock step, and extend chats of
their own; recalls run alongside. When every request has answered, both instances sync
every chat once more (``wait``) until the database stops changing, and then it counts:
requests, 5xx, lost or extra messages, duplicated memories (same chat, type, title and
sources), extraction batches applied twice, whether each instance's recall finds what the
other wrote, and how long a write on one instance takes to reach the other's recall state
(which was loaded before the write). ``tests/bridge/test_two_instances.py`` runs the same
scenario and asserts the counts.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, select, text
from sqlalchemy.engine import make_url

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bme_desktop.core.store import tables as t  # noqa: E402

TOKEN = "two-instances-" + "t" * 40


# the database and the processes ------------------------------------------------------------
@contextmanager
def fresh_database(server_url: str) -> Iterator[str]:
    """A new, empty database on the server named by ``server_url``, dropped afterwards."""
    admin = create_engine(server_url, isolation_level="AUTOCOMMIT")
    name = f"bme_two_{uuid.uuid4().hex[:12]}"
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(server_url).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@dataclass
class Instance:
    name: str
    proc: subprocess.Popen[str]
    url: str
    client: httpx.Client


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BME_")}
    env.update(
        {
            "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring",
            "HOME": str(home / "home"),
            "XDG_DATA_HOME": str(home / "xdg"),
            "PYTHONPATH": str(ROOT),
            "BME_BRIDGE_TOKEN": TOKEN,
        }
    )
    return env


@contextmanager
def instances(
    database_url: str, root: Path, count: int = 2, startup_timeout: float = 60.0, together: bool = True
) -> Iterator[list[Instance]]:
    """``count`` serve processes on ``database_url``, each with its own data dir under ``root``,
    started at once (so they also create the fresh schema at once) or, without ``together``,
    each once the previous one is ready; stopped with SIGTERM."""
    procs: list[tuple[str, subprocess.Popen[str]]] = []
    lines: dict[str, str] = {}
    started: list[Instance] = []
    try:
        for i in range(count):
            name = "AB"[i] if count <= 2 else f"i{i}"
            data_dir = root / f"data-{name}"
            proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "bme_desktop",
                    "serve",
                    "--data-dir",
                    str(data_dir),
                    "--database-url",
                    database_url,
                    "--port",
                    "0",
                ],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                env=_env(root / f"home-{name}"),
                cwd=ROOT,
            )
            procs.append((name, proc))
            if not together:
                lines[name] = _read_line(proc, startup_timeout)
        for name, proc in procs:
            line = lines[name] if name in lines else _read_line(proc, startup_timeout)
            if not line:
                proc.kill()
                raise RuntimeError(f"serve {name} did not start: {proc.communicate()[1][-3000:]}")
            url = json.loads(line)["url"]
            client = httpx.Client(
                base_url=url,
                headers={"Authorization": f"Bearer {TOKEN}"},
                timeout=120.0,
                limits=httpx.Limits(max_connections=32, max_keepalive_connections=16),
            )
            started.append(Instance(name, proc, url, client))
        yield started
    finally:
        for inst in started:
            inst.client.close()
        for _, proc in procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for _, proc in procs:
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def _read_line(proc: subprocess.Popen[str], timeout: float) -> str:
    """The first stdout line, or '' if the process exits or says nothing within ``timeout``."""
    assert proc.stdout is not None
    out: list[str] = []
    reader = threading.Thread(
        target=lambda: out.append(proc.stdout.readline() if proc.stdout else ""), daemon=True
    )
    reader.start()
    reader.join(timeout)
    return out[0] if out else ""


# the chats ---------------------------------------------------------------------------------
def story(tag: str, n: int) -> list[dict[str, Any]]:
    """``n`` messages of a chat; every user turn names a person and a town of its own."""
    out: list[dict[str, Any]] = []
    for i in range(n):
        if i % 2 == 0:
            out.append(
                {
                    "index": i,
                    "role": "user",
                    "name": "Alex",
                    "text": f"Alex tells Sera that his cousin Name{tag}x{i} lives in the town of "
                    f"Town{tag}y{i} and was born on {i % 28 + 1} May.",
                }
            )
        else:
            out.append(
                {
                    "index": i,
                    "role": "assistant",
                    "name": "Sera",
                    "text": f"Sera promises to remember Name{tag}x{i - 1} from Town{tag}y{i - 1}; "
                    f"they walk to the old lighthouse together.",
                }
            )
    return out


def tag_of(chat_id: str) -> str:
    """Letters only, so the heuristic extractor reads a name (``a-only-0`` → ``Aonlya``)."""
    return "".join(
        ch if ch.isalpha() else "abcdefghij"[int(ch)] if ch.isdigit() else "" for ch in chat_id
    ).title()


@dataclass
class Counts:
    requests: int = 0
    statuses: Counter[int] = field(default_factory=Counter)
    server_errors: list[str] = field(default_factory=list)  # 5xx and transport failures, one line each
    lost_messages: int = 0
    extra_messages: int = 0
    memories: int = 0
    duplicated_memories: int = 0
    double_applied_batches: int = 0
    cross_recall_asked: int = 0
    cross_recall_found: int = 0
    visibility_s: list[float | None] = field(default_factory=list)  # None: not seen within the deadline
    quiesce_rounds: int = 0
    settled: bool = False  # the database stopped changing before the deadline
    elapsed_s: float = 0.0
    duplicates: list[str] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def note(self, what: str, response: httpx.Response | None, error: BaseException | None = None) -> None:
        with self._lock:
            self.requests += 1
            if response is not None:
                self.statuses[response.status_code] += 1
                if response.status_code >= 500:
                    self.server_errors.append(f"{what}: {response.status_code} {response.text[:300]}")
            else:
                self.statuses[0] += 1
                self.server_errors.append(f"{what}: {type(error).__name__}: {error}")

    def summary(self) -> dict[str, Any]:
        seen = [v for v in self.visibility_s if v is not None]
        return {
            "requests": self.requests,
            "5xx_or_failed": len(self.server_errors),
            "statuses": dict(sorted(self.statuses.items())),
            "lost_messages": self.lost_messages,
            "extra_messages": self.extra_messages,
            "memories": self.memories,
            "duplicated_memories": self.duplicated_memories,
            "double_applied_batches": self.double_applied_batches,
            "cross_recall": f"{self.cross_recall_found}/{self.cross_recall_asked}",
            "visible": f"{len(seen)}/{len(self.visibility_s)}",
            "visibility_max_s": round(max(seen), 3) if seen else None,
            "quiesce_rounds": self.quiesce_rounds,
            "settled": self.settled,
            "elapsed_s": round(self.elapsed_s, 1),
        }


class Driver:
    def __init__(self, insts: list[Instance], counts: Counts) -> None:
        self.insts = insts
        self.counts = counts

    def post(self, inst: Instance, path: str, body: dict[str, Any]) -> httpx.Response | None:
        try:
            response = inst.client.post(path, json=body)
        except httpx.HTTPError as exc:
            self.counts.note(f"{inst.name} POST {path}", None, exc)
            return None
        self.counts.note(f"{inst.name} POST {path}", response)
        return response

    def sync(
        self,
        inst: Instance,
        chat_id: str,
        messages: list[dict[str, Any]],
        *,
        complete: bool,
        wait: bool = False,
    ) -> httpx.Response | None:
        return self.post(
            inst, f"/v1/chats/{chat_id}/sync", {"messages": messages, "complete": complete, "wait": wait}
        )

    def recall(self, inst: Instance, chat_id: str, user_input: str) -> httpx.Response | None:
        return self.post(inst, f"/v1/chats/{chat_id}/recall", {"user_input": user_input, "top_k": 12})


def _together(barrier: threading.Barrier, fns: list[Callable[[], object]]) -> None:
    """Run each of ``fns`` on its own thread, released at one moment by ``barrier``."""

    def run(fn: Callable[[], object]) -> None:
        barrier.wait(timeout=60)
        fn()

    threads = [threading.Thread(target=run, args=(fn,)) for fn in fns]
    for th in threads:
        th.start()
    for th in threads:
        th.join()


def run_scenario(
    insts: list[Instance],
    database_url: str,
    *,
    rounds: int = 8,
    own_chats: int = 3,
    shared_new: int = 4,
    quiesce_deadline: float = 300.0,
    visibility_deadline: float = 5.0,
    check_visibility: bool = True,
) -> Counts:
    a, b = insts[0], insts[1]
    counts = Counts()
    drive = Driver(insts, counts)
    started = time.monotonic()
    final: dict[str, list[dict[str, Any]]] = {}

    def shared_new_chat(k: int) -> None:  # both create the same new chat at the same moment
        chat = f"both-new-{k}"
        msgs = final[chat] = story(tag_of(chat), 8)
        _together(
            threading.Barrier(2),
            [
                lambda: drive.sync(a, chat, msgs, complete=True),
                lambda: drive.sync(b, chat, msgs, complete=True),
            ],
        )

    def shared_append(k: int) -> None:  # both extend the same chat in lock step, A partially
        chat = f"both-append-{k}"
        msgs = final[chat] = story(tag_of(chat), 2 * rounds)
        for r in range(1, rounds + 1):
            upto = msgs[: 2 * r]
            _together(
                threading.Barrier(2),
                [
                    lambda u=upto: drive.sync(a, chat, u[-2:], complete=False),
                    lambda u=upto: drive.sync(b, chat, u, complete=True),
                ],
            )
            drive.recall(a if r % 2 else b, chat, f"Where does Name{tag_of(chat)}x0 live?")

    def own_chat(inst: Instance, k: int) -> None:  # each instance extends chats of its own
        chat = f"{inst.name.lower()}-only-{k}"
        msgs = final[chat] = story(tag_of(chat), 6)
        for r in range(1, 4):
            drive.sync(inst, chat, msgs[: 2 * r], complete=True)

    jobs: list[Callable[[], None]] = [lambda k=k: shared_new_chat(k) for k in range(shared_new)]
    jobs += [lambda k=k: shared_append(k) for k in range(2)]
    jobs += [lambda i=i, k=k: own_chat(i, k) for i in (a, b) for k in range(own_chats)]
    with ThreadPoolExecutor(max_workers=len(jobs)) as pool:
        for future in [pool.submit(job) for job in jobs]:
            future.result()

    # Quiet down: both sync every chat whole (waiting for their extraction) until nothing changes.
    engine = create_engine(database_url)
    try:
        previous: object = None
        deadline = time.monotonic() + quiesce_deadline
        while time.monotonic() < deadline:
            counts.quiesce_rounds += 1
            for inst in insts:
                for chat, msgs in sorted(final.items()):
                    drive.sync(inst, chat, msgs, complete=True, wait=True)
            now = _settled_state(engine)
            if now == previous:
                counts.settled = True
                break
            previous = now
        _count_database(engine, final, counts)
    finally:
        engine.dispose()

    # Each instance's recall finds what the other wrote (chats the asker never loaded).
    for asker, writer in ((a, b), (b, a)):
        for k in range(own_chats):
            chat = f"{writer.name.lower()}-only-{k}"
            tag = tag_of(chat)
            counts.cross_recall_asked += 1
            response = drive.recall(asker, chat, f"Where does Name{tag}x2 live?")
            if (
                response is not None
                and response.status_code == 200
                and f"Town{tag}y2" in response.json()["injection"]
            ):
                counts.cross_recall_found += 1

    if check_visibility:
        for asker, writer in ((b, a), (a, b)):
            counts.visibility_s.append(visibility(drive, writer, asker, visibility_deadline))
    counts.elapsed_s = time.monotonic() - started
    return counts


def visibility(drive: Driver, writer: Instance, asker: Instance, deadline: float) -> float | None:
    """Seconds from the end of a write on ``writer`` (sync + its extraction) until a recall on
    ``asker``, whose recall state for the chat was loaded before, finds it; None if not within
    ``deadline``."""
    chat = f"seen-by-{asker.name.lower()}"
    tag = tag_of(chat)
    msgs = story(tag, 4)
    drive.sync(writer, chat, msgs[:2], complete=True, wait=True)
    drive.recall(asker, chat, "Who is it about?")  # loads the asker's recall state for the chat
    drive.sync(writer, chat, msgs, complete=True, wait=True)
    written = time.monotonic()
    end = written + deadline
    while True:
        response = drive.recall(asker, chat, f"Where does Name{tag}x2 live?")
        if (
            response is not None
            and response.status_code == 200
            and f"Town{tag}y2" in response.json()["injection"]
        ):
            return time.monotonic() - written
        if time.monotonic() >= end:
            return None
        time.sleep(0.05)  # polling interval, not synchronisation: the deadline bounds it


def _settled_state(engine: Any) -> object:
    """What must stop changing: extraction progress per chat and the live memories."""
    with engine.connect() as conn:
        chats = sorted(
            (r.chat_id, json.dumps(r.state.get("extracted_to")))
            for r in conn.execute(select(t.chats.c.chat_id, t.chats.c.state))
        )
        nodes = sorted(
            conn.execute(
                select(t.nodes.c.chat_pk, t.nodes.c.type, t.nodes.c.title, t.nodes.c.source_indices).where(
                    t.nodes.c.deleted_at.is_(None)
                )
            ).all(),
            key=repr,
        )
    return chats, [repr(tuple(n)) for n in nodes]


def _count_database(engine: Any, final: dict[str, list[dict[str, Any]]], counts: Counts) -> None:
    with engine.connect() as conn:
        pks = {r.chat_id: r.pk for r in conn.execute(select(t.chats.c.chat_id, t.chats.c.pk))}
        names = {pk: chat for chat, pk in pks.items()}
        stored = {
            (names[r.chat_pk], r.idx): (r.role, r.text)
            for r in conn.execute(
                select(t.messages.c.chat_pk, t.messages.c.idx, t.messages.c.role, t.messages.c.text)
            )
        }
        expected = {(chat, m["index"]): (m["role"], m["text"]) for chat, msgs in final.items() for m in msgs}
        counts.lost_messages = sum(1 for key, value in expected.items() if stored.get(key) != value)
        counts.extra_messages = sum(1 for key in stored if key not in expected)
        live = conn.execute(
            select(t.nodes.c.chat_pk, t.nodes.c.type, t.nodes.c.title, t.nodes.c.source_indices).where(
                t.nodes.c.deleted_at.is_(None)
            )
        ).all()
        counts.memories = len(live)
        same = Counter(
            (names[r.chat_pk], r.type, r.title, json.dumps(sorted(r.source_indices))) for r in live
        )
        counts.duplicated_memories = sum(n - 1 for n in same.values() if n > 1)
        counts.duplicates = [f"{key} ×{n}" for key, n in same.items() if n > 1][:20]
        applied = Counter(
            (r.chat_pk, r.read_from, r.read_to)
            for r in conn.execute(
                select(t.batches.c.chat_pk, t.batches.c.read_from, t.batches.c.read_to).where(
                    t.batches.c.kind == "extract", t.batches.c.status == "applied"
                )
            )
        )
        counts.double_applied_batches = sum(n - 1 for n in applied.values() if n > 1)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--server",
        default=os.environ.get("BME_TEST_POSTGRES_URL"),
        help="a PostgreSQL server URL (default: $BME_TEST_POSTGRES_URL)",
    )
    parser.add_argument("--rounds", type=int, default=8, help="lock-step appends to each shared chat")
    parser.add_argument("--own-chats", type=int, default=3, help="chats of its own per instance")
    parser.add_argument(
        "--staggered",
        action="store_true",
        help="start the second instance once the first is ready (not both at once)",
    )
    args = parser.parse_args()
    if not args.server:
        print("set BME_TEST_POSTGRES_URL or pass --server postgresql+psycopg://…", file=sys.stderr)
        return 2
    import tempfile

    with (
        tempfile.TemporaryDirectory() as tmp,
        fresh_database(args.server) as url,
        instances(url, Path(tmp), together=not args.staggered) as insts,
    ):
        counts = run_scenario(insts, url, rounds=args.rounds, own_chats=args.own_chats)
    for key, value in counts.summary().items():
        print(f"{key:24} {value}")
    for line in counts.server_errors[:10]:
        print("  5xx:", line)
    for line in counts.duplicates[:10]:
        print("  duplicate:", line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
