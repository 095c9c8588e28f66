"""What a memory job costs on SillyTavern's lent model, compared with an endpoint.

    .venv/bin/python bench/model_jobs.py            # 200 jobs each way
    .venv/bin/python bench/model_jobs.py --jobs 500

In this process: a bridge over a core with no pipelines, an events socket that offers its
model and answers every ``model.job`` at once (the extension with an instant model), and the
fake OpenAI-compatible server (tests/fakes) answering the same JSON. Each job is one
``chat_json`` from the calling thread, as extraction makes it: through the lent model (thread →
bridge loop → socket → answer → thread), and through ``LLMClient`` to the fake over HTTP. The
two are interleaved so load affects both alike; the difference is what the socket path adds
(the model's own time is zero in both).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from bench_common import pct  # noqa: E402
from fakes.openai_server import FakeOpenAIServer, Reply  # noqa: E402

from bme_desktop.bridge.config import BridgeConfig  # noqa: E402
from bme_desktop.bridge.server import BridgeServer  # noqa: E402
from bme_desktop.core.providers import LLMClient, LLMConfig  # noqa: E402
from bme_desktop.core.service import MemoryService  # noqa: E402

TOKEN = "bench-token-" + "m" * 40
REPLY = (
    '{"operations": [{"action": "create", "type": "location", "ref": "n1", "fields": {"name": "Old Mill"}}]}'
)
ASK = [
    {"role": "system", "content": "Extract memories."},
    {"role": "user", "content": "Mira opened the gate. " * 40},
]


def extension(url: str, ready: threading.Event, stop: threading.Event) -> None:
    """An events socket that lends its model and answers every job at once."""

    async def run() -> None:
        async with (
            aiohttp.ClientSession() as session,
            session.ws_connect(
                url.replace("http", "ws", 1) + "/v1/events", headers={"Authorization": f"Bearer {TOKEN}"}
            ) as ws,
        ):
            await ws.send_json({"type": "model.offer", "enabled": True, "model": "bench"})
            while not stop.is_set():
                try:
                    message = await ws.receive_json(timeout=0.5)
                except TimeoutError:
                    continue
                if message.get("type") == "model.offer.accepted":
                    ready.set()
                elif message.get("type") == "model.job":
                    await ws.send_json({"type": "model.result", "job_id": message["job_id"], "text": REPLY})

    asyncio.run(run())


def main() -> int:
    from bme_desktop.runtime_tuning import limit_blas

    limit_blas()  # the process-wide BLAS cap, as the entry points apply it
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=200)
    args = parser.parse_args()
    with (
        tempfile.TemporaryDirectory() as tmp,
        FakeOpenAIServer(responder=lambda _r: Reply.text(REPLY)) as fake,
    ):
        service = MemoryService.open(Path(tmp) / "data", attach=False)
        # the budget is not what is measured (above the setting's bound: set in code only)
        service.settings.llm = replace(service.settings.llm, lent_jobs_per_minute=10**6)
        server = BridgeServer(service, TOKEN, BridgeConfig(port=0, rate_per_s=10_000, rate_burst=10_000))
        server.start()
        ready, stop = threading.Event(), threading.Event()
        thread = threading.Thread(target=extension, args=(server.url, ready, stop), daemon=True)
        thread.start()
        if not ready.wait(30):
            raise SystemExit("the socket's offer was not accepted")
        lent_ms: list[float] = []
        http_ms: list[float] = []
        with LLMClient(LLMConfig(base_url=fake.base_url, model="fake-chat")) as client:
            for _ in range(args.jobs):
                start = time.perf_counter()
                model = service.lenders.borrow(service.settings.llm, "extract")
                assert model is not None and model.chat_json(ASK)
                lent_ms.append((time.perf_counter() - start) * 1000)
                start = time.perf_counter()
                assert client.chat_json(ASK)
                http_ms.append((time.perf_counter() - start) * 1000)
        stop.set()
        thread.join(5)
        server.stop()
        service.close()
    print(f"{args.jobs} jobs each, interleaved, instant model")
    print(f"{'path':<34}{'p50 ms':>9}{'p95 ms':>9}")
    for name, values in (("lent (events socket)", lent_ms), ("endpoint (LLMClient over HTTP)", http_ms)):
        print(f"{name:<34}{pct(values, 50):>9.2f}{pct(values, 95):>9.2f}")
    print(f"lent / endpoint, p50: {pct(lent_ms, 50) / pct(http_ms, 50):.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
