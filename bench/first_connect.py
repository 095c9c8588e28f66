"""First connect of a long chat (issue 22): the whole history in one ``complete: true`` sync,
as the SillyTavern extension sends it, through a real ``bme-desktop serve``.

    .venv/bin/python bench/first_connect.py [--messages 10000] [--locomo 5] [--locomo-path PATH]
        [--floor-sample 600] [--settings JSON]

Chats: a seeded synthetic role-play of ``--messages`` messages (English and Chinese scenes in
turn, many named people and places, preferences, rules, quests, travel), then the first
``--locomo`` LoCoMo dev conversations, each pushed as one sync (``wait: false``). For each
chat it prints messages/s until fully extracted (a later empty sync with ``wait: true``
returns) and until fully embedded (``GET /v1/chats/{id}`` says no vectors are pending and
recall skips no stage for lack of vectors), recall latency p50/p95 during the import (one
recall every ``--recall-every`` seconds on the chat being imported) and after it (20 recalls),
how long the history's sync took to answer and the first recall after it (the extension's
first generation after connecting), and the server's peak RSS (VmHWM) and CPU time (on a shared machine,
messages per CPU second is the
figure that compares runs). Beside them, the floor measured in the same run: the
default local embedder alone on the same texts the server embedded (the memories' embedding
texts, a sample of ``--floor-sample``), with one thread and with two, as messages/s.
Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import secrets
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_common import pct, start_bridge  # noqa: E402
from locomo_recall import locomo_messages  # noqa: E402

from bme_desktop.bridge.client import BridgeClient, chat_path  # noqa: E402
from bme_desktop.core.model import MessageIn  # noqa: E402

LOCOMO = ROOT.parent / "shared" / "data" / "locomo-dev.json"

EN_PEOPLE = [
    "Mara Quill",
    "Tobin Reed",
    "Elsa Varn",
    "Captain Roderick Vale",
    "Nana Ada",
    "Wren Ashdown",
    "Lord Hadrian Mercer",
    "Sera Holt",
    "Jonah Pike",
    "Maestra Lucia",
    "Old Finch",
    "Ivo Brandt",
    "Lady Corra",
    "Brother Anselm",
    "Pell Marrow",
    "Dagny Frost",
]
EN_PLACES = [
    "the Crooked Lantern",
    "Greyfen Marsh",
    "Harlow Keep",
    "the Saltmarket",
    "Ember Bridge",
    "the Whispering Library",
    "Kestrel Tower",
    "Millbrook",
    "the Ashen Road",
    "Blackwater Docks",
    "Thornfield Abbey",
    "the Copper Mine",
]
EN_THINGS = [
    "the silver key",
    "a sealed letter",
    "the star map",
    "her grandmother's ring",
    "the ledger",
    "a broken compass",
    "the relic sword",
    "a jar of honey",
]
EN_FOODS = ["plum tea", "smoked fish", "honey cakes", "black coffee", "lentil stew", "apple pie"]
ZH_PEOPLE = [
    "沈念",
    "陆沉",
    "林福",
    "周航",
    "晴晴",
    "玄机真人",
    "陈教授",
    "王老板",
    "苏婉",
    "赵小桃",
    "韩青",
    "叶孤舟",
]
ZH_PLACES = [
    "悦来客栈",
    "落霞谷",
    "清河镇",
    "后山寒潭",
    "京城",
    "藏经阁",
    "明德大学图书馆",
    "樱花大道",
    "青石码头",
    "断魂崖",
]
ZH_THINGS = ["剑谱", "玉佩", "一封密信", "青铜钥匙", "地图", "药方"]
ZH_FOODS = ["桂花糕", "龙井茶", "红烧肉", "小笼包", "酸梅汤"]


def synthetic_chat(count: int, seed: int = 22) -> list[MessageIn]:
    """A role-play of ``count`` messages (user Alex / narrator), English and Chinese scenes of
    60 messages in turn, built from templates over many named people and places."""
    rng = random.Random(seed)
    out: list[MessageIn] = []
    scene = 0
    while len(out) < count:
        chinese = scene % 3 == 2
        for _ in range(30):
            if len(out) >= count:
                break
            user, reply = (_zh_turn if chinese else _en_turn)(rng, len(out))
            out.append(MessageIn(index=len(out), role="user", text=user, name="Alex"))
            if len(out) < count:
                out.append(MessageIn(index=len(out), role="assistant", text=reply, name="Narrator"))
        scene += 1
    return out


def _en_turn(rng: random.Random, n: int) -> tuple[str, str]:
    a, b = rng.sample(EN_PEOPLE, 2)
    p, q = rng.sample(EN_PLACES, 2)
    thing, food = rng.choice(EN_THINGS), rng.choice(EN_FOODS)
    users = [
        f"I follow {a} into {p}. What do we find there?",
        f"Ask {a} about {thing}.",
        f"Remember, {a} hates {food} and never eats it.",
        f"We ride to {q} before nightfall. Is {b} with us?",
        f"I promise {a} that I will bring back {thing}.",
        f"Who stole {thing} from {p}?",
        f"I tell {b} my sister's birthday is on the {rng.randint(2, 28)}th of May.",
        f"Let's rest at {p} tonight and order {food}.",
    ]
    replies = [
        f'{a} smiled and led you through {p}. "Mind the steps," she said. {b} waited by the door.',
        f'At {p}, {a} unrolled {thing} on the table. "This came from {q}," {a} said quietly.',
        f'{b} frowned. "No one may enter {q} after dark. The guards will hang anyone who tries."',
        f"Three days later you reach {q}. {a} thinks {b} is hiding something about {thing}.",
        f'{a} nods. "We must find {thing} before the council meets at {q}." The fire crackles.',
        f"The innkeeper of {p}, {b}, brings {food} and news: someone stole {thing} last night.",
        f'"I swear I will keep your secret," {b} told {a}, glancing toward {q}.',
        f"Rain falls over {p}. {a} laughs, remembering the summer at {q} years ago, then sips {food}.",
    ]
    return rng.choice(users), rng.choice(replies)


def _zh_turn(rng: random.Random, n: int) -> tuple[str, str]:
    a, b = rng.sample(ZH_PEOPLE, 2)
    p, q = rng.sample(ZH_PLACES, 2)
    thing, food = rng.choice(ZH_THINGS), rng.choice(ZH_FOODS)
    users = [
        f"我跟着{a}来到{p}，那里有什么？",
        f"问问{a}关于{thing}的事。",
        f"记住，{a}不吃{food}。",
        f"我们今晚赶去{q}，{b}也一起去吗？",
        f"我答应你，一定帮{a}找回{thing}。",
        f"到底是谁偷了{p}的{thing}？",
        f"{b}的生日是三月初{rng.randint(2, 9)}。",
        f"在{p}歇一晚吧，点一份{food}。",
    ]
    replies = [
        f"{a}笑了笑，带你走进{p}。{b}在门口等着，手里拿着{thing}。",
        f"在{p}里，{a}把{thing}摊在桌上：“这是从{q}带来的。”",
        f"{b}皱眉道：“{q}的规矩：入夜后严禁出入，违者重罚。”",
        f"三日后，你们到了{q}。{a}觉得{b}在隐瞒{thing}的下落。",
        f"{a}点头：“我们得想办法在长老会之前找到{thing}。”",
        f"{p}的掌柜{b}端来{food}，说昨夜{thing}不见了。",
        f"“我说到做到，”{b}对{a}说，望向{q}。",
        f"雨落在{p}。{a}想起十年前在{q}的那个雪夜，喝了一口{food}。",
    ]
    return rng.choice(users), rng.choice(replies)


@dataclass
class Imported:
    name: str
    messages: int
    extracted_s: float = float("nan")
    embedded_s: float = float("nan")
    memories: int = 0
    cpu_s: float = float("nan")  # the server's CPU time for the whole import
    during_ms: list[float] = field(default_factory=list)
    skipped_during: int = 0
    sync_ms: float = float("nan")  # the ``wait: false`` sync of the whole history, until it answered
    after_ms: list[float] = field(default_factory=list)


QUESTIONS_EN = [
    "Who stole the silver key?",
    "What does Mara Quill never eat?",
    "Where is Kestrel Tower?",
    "What did Tobin promise?",
    "When is my sister's birthday?",
]
QUESTIONS_ZH = ["谁偷了剑谱？", "沈念不吃什么？", "落霞谷在哪里？", "晴晴的生日是哪天？"]


def recall_once(client: BridgeClient, chat_id: str, question: str) -> tuple[float, list[str]]:
    start = time.perf_counter()
    body = client.request(
        "POST",
        chat_path(chat_id, "recall"),
        body={"user_input": question, "top_k": 8, "last_reply": "", "previous_input": ""},
    )
    return (time.perf_counter() - start) * 1000, list(body.get("skipped_stages", []))


def vectors_done(client: BridgeClient, chat_id: str) -> bool:
    stats = client.chat(chat_id)
    vectors = stats.get("vectors") or {}
    if vectors.get("pending") or vectors.get("embedded") is None:
        return False
    _, skipped = recall_once(client, chat_id, "status probe")
    return not any("embedded" in s or "embedder busy" in s for s in skipped)


def import_chat(
    client: BridgeClient,
    name: str,
    messages: list[MessageIn],
    user: str,
    character: str,
    recall_every: float,
    questions: list[str],
) -> Imported:
    out = Imported(name, len(messages))
    start = time.monotonic()
    client.sync(name, messages, complete=True, wait=False, character=character, user=user)
    out.sync_ms = (time.monotonic() - start) * 1000
    extracted = threading.Event()

    def wait_extracted() -> None:
        # A waiting sync answers when a pass over the chat that began after it has finished, or
        # after 600 s (``done``: the batches extracted meanwhile). A pass that extracted
        # nothing means nothing was left.
        with BridgeClient(client.url, client.token, timeout=900.0) as waiting:
            while waiting.sync(name, [], wait=True).get("extraction", {}).get("done"):
                out.extracted_s = time.monotonic() - start
        if out.extracted_s != out.extracted_s:  # nan: everything was extracted during the first wait
            out.extracted_s = time.monotonic() - start
        extracted.set()

    waiter = threading.Thread(target=wait_extracted, daemon=True)
    waiter.start()
    with BridgeClient(client.url, client.token, timeout=600.0) as probe:
        k = 0
        while True:
            ms, skipped = recall_once(probe, name, questions[k % len(questions)])
            k += 1
            out.during_ms.append(ms)
            out.skipped_during += any(stage.startswith("vector") for stage in skipped)
            if extracted.is_set() and vectors_done(probe, name):
                break
            time.sleep(recall_every)
    out.embedded_s = time.monotonic() - start
    waiter.join()
    out.memories = int(client.chat(name).get("node_count", 0))
    for k in range(20):
        out.after_ms.append(recall_once(client, name, questions[k % len(questions)])[0])
    return out


def memory_texts(client: BridgeClient, chat_id: str) -> list[str]:
    from bme_desktop.core.model import Node
    from bme_desktop.core.recall.documents import embed_text

    texts: list[str] = []
    offset = 0
    while True:
        page = client.nodes(chat_id, limit=500, offset=offset)
        for n in page["items"]:
            texts.append(
                embed_text(
                    Node(
                        id=n["id"],
                        chat_id=chat_id,
                        type=n["type"],
                        title=n["title"],
                        fields=dict(n.get("fields") or {}),
                    )
                )
            )
        offset += len(page["items"])
        if not page["items"] or offset >= page["total"]:
            return texts


def floor(texts: list[str]) -> tuple[float, float]:
    """Seconds the default local embedder takes for ``texts`` (in batches of 64, length-sorted),
    on one thread and on two threads sharing the same session."""
    from bme_desktop.core.providers.local_embedder import make_default_local_embedder

    embedder = make_default_local_embedder()
    embedder.embed(["warm up"])
    ordered = sorted(texts, key=len)
    chunks = [ordered[i : i + 64] for i in range(0, len(ordered), 64)]
    start, cpu = time.perf_counter(), time.process_time()
    for chunk in chunks:
        embedder.embed(chunk)
    one = time.perf_counter() - start
    print(
        f"floor, one thread: {one:.1f} s wall, {time.process_time() - cpu:.1f} s CPU for {len(texts)} texts"
    )
    halves = [chunks[0::2], chunks[1::2]]
    start = time.perf_counter()
    threads = [
        threading.Thread(target=lambda part=part: [embedder.embed(c) for c in part]) for part in halves
    ]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    two = time.perf_counter() - start
    return one, two


def cpu_s(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far (all its threads)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=2000, help="synthetic chat length (the issue: 10000)")
    parser.add_argument("--locomo", type=int, default=5, help="LoCoMo dev conversations to import after it")
    parser.add_argument("--locomo-path", type=Path, default=LOCOMO)
    parser.add_argument("--recall-every", type=float, default=0.5)
    parser.add_argument("--floor-sample", type=int, default=600, help="memory texts the floor embeds")
    parser.add_argument("--settings", default="{}", help="JSON merged into the serve's settings.json")
    args = parser.parse_args(argv)
    chats: list[tuple[str, list[MessageIn], str, str, list[str]]] = []
    if args.messages > 0:
        chats.append(
            ("synthetic", synthetic_chat(args.messages), "Alex", "Narrator", QUESTIONS_EN + QUESTIONS_ZH)
        )
    if args.locomo > 0:
        samples = json.loads(args.locomo_path.read_text(encoding="utf-8"))[: args.locomo]
        for sample in samples:
            messages, _, a, b = locomo_messages(sample)
            questions = [q["question"] for q in sample["qa"] if q.get("evidence")][:20] or ["What happened?"]
            chats.append((f"locomo-{sample['sample_id']}", messages, a, b, questions))
    token = secrets.token_urlsafe(24)
    results: list[Imported] = []
    texts: list[str] = []
    with tempfile.TemporaryDirectory(prefix="bme-first-") as data_dir:
        proc, url = start_bridge(
            Path(data_dir), token, __file__, bare=False, settings=json.loads(args.settings)
        )
        try:
            with BridgeClient(url, token, timeout=600.0) as client:
                for name, messages, user, character, questions in chats:
                    cpu0 = cpu_s(proc.pid)
                    result = import_chat(
                        client, name, messages, user, character, args.recall_every, questions
                    )
                    result.cpu_s = cpu_s(proc.pid) - cpu0
                    results.append(result)
                    print(
                        json.dumps(
                            {
                                "chat": name,
                                "messages": result.messages,
                                "memories": result.memories,
                                "extracted_s": round(result.extracted_s, 1),
                                "embedded_s": round(result.embedded_s, 1),
                                "server_cpu_s": round(result.cpu_s, 1),
                            }
                        ),
                        flush=True,
                    )
                    texts += memory_texts(client, name)
            rss = peak_rss_mb(proc.pid)
        finally:
            proc.terminate()
            proc.wait(60)
    sample = random.Random(1).sample(texts, min(len(texts), args.floor_sample))
    one, two = floor(sample)
    scale = len(texts) / max(1, len(sample))
    total_messages = sum(r.messages for r in results)
    print(
        "\n| chat | messages | memories | extracted msg/s | embedded msg/s | server CPU s (msg per CPU s) | "
        "recall p50/p95 during (ms) | during, vector stage partial or skipped | recall p50/p95 after (ms) | "
        "sync answered (ms) | first recall (ms) |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        print(
            f"| {r.name} | {r.messages} | {r.memories} | {r.messages / r.extracted_s:.1f} | "
            f"{r.messages / r.embedded_s:.1f} | {r.cpu_s:.0f} ({r.messages / r.cpu_s:.1f}) | "
            f"{pct(r.during_ms, 50):.0f}/{pct(r.during_ms, 95):.0f} | "
            f"{r.skipped_during}/{len(r.during_ms)} | {pct(r.after_ms, 50):.0f}/{pct(r.after_ms, 95):.0f} | "
            f"{r.sync_ms:.0f} | {r.during_ms[0] if r.during_ms else float('nan'):.0f} |"
        )
    extracted = sum(r.extracted_s for r in results)
    embedded = sum(r.embedded_s for r in results)
    during = [ms for r in results for ms in r.during_ms]
    after = [ms for r in results for ms in r.after_ms]
    cpu = sum(r.cpu_s for r in results)
    print(
        f"| all | {total_messages} | {sum(r.memories for r in results)} | {total_messages / extracted:.1f} | "
        f"{total_messages / embedded:.1f} | {cpu:.0f} ({total_messages / cpu:.1f}) | "
        f"{pct(during, 50):.0f}/{pct(during, 95):.0f} | "
        f"{sum(r.skipped_during for r in results)}/{len(during)} | {pct(after, 50):.0f}/{pct(after, 95):.0f} "
        "| | |"
    )
    print(f"\npeak RSS of serve: {rss:.0f} MB")
    print(
        f"floor (embedder alone on {len(sample)} of the {len(texts)} memory texts, scaled): "
        f"1 thread {total_messages / (one * scale):.1f} msg/s ({len(sample) / one:.1f} texts/s), "
        f"2 threads {total_messages / (two * scale):.1f} msg/s ({len(sample) / two:.1f} texts/s)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
