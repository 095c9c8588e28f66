"""Memory beyond one chat (issue 18), through a real ``bme-desktop serve``.

    .venv/bin/python bench/scopes.py

1. The scenario of issue 18.2, in English and Chinese: chat A with Mira (the user's birthday,
   Mira's fear of the sea, a red stone found in a cave); a new chat B with Mira must find the
   birthday and the fear but not the stone; chat C with Garrick must find the birthday but
   not Mira's fear.
2. A group chat of three characters, each absent from one scene (scenes split by narration,
   SillyTavern's /sys messages): a recall for the character about to speak (``for_character``)
   must bring what it witnessed and nothing from the scene it missed.

For each question it prints what was injected of the expected memory and whether it should
have been; the last line counts the misses. Nothing is asserted (tests/bridge/test_scopes_bridge.py
holds the asserted version).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx

TOKEN = "bench-scopes-token"

SOLO: dict[str, dict[str, Any]] = {
    "en": {
        "user": "Alex",
        "mira": "Mira",
        "garrick": "Garrick",
        "a": [
            ("assistant", "Welcome back, traveller. The tide is low tonight."),
            ("user", "By the way, my birthday is the ninth of March."),
            ("assistant", "I will remember it. I have feared the sea since my brother drowned."),
            ("user", "Let's explore the cave by the cliffs."),
            ("assistant", "Deep in the cave we find a red stone glowing faintly on the wet rock."),
        ],
        "b": [("assistant", "Good morning. The market is busy today."), ("user", "Let's buy some bread.")],
        "c": [("assistant", "The forge is hot. What do you need?"), ("user", "A new sword.")],
        "questions": [
            ("B", "Do you remember when my birthday is?", "ninth of March", True),
            ("B", "What are you afraid of, Mira?", "feared the sea", True),
            ("B", "What did we find in the cave?", "red stone", False),
            ("C", "Do you remember when my birthday is?", "ninth of March", True),
            ("C", "Is Mira afraid of the sea?", "feared the sea", False),
        ],
    },
    "zh": {
        "user": "阿明",
        "mira": "米拉",
        "garrick": "加里克",
        "a": [
            ("assistant", "欢迎回来，旅人。今晚退潮了。"),
            ("user", "对了，我的生日是三月九日。"),
            ("assistant", "我会记住的。自从我哥哥淹死以后，我就一直害怕大海。"),
            ("user", "我们去悬崖边的山洞看看吧。"),
            ("assistant", "在山洞深处，我们发现了一块在湿岩上微微发光的红色石头。"),
        ],
        "b": [("assistant", "早上好。今天集市很热闹。"), ("user", "我们去买些面包吧。")],
        "c": [("assistant", "炉火正旺。你需要什么？"), ("user", "一把新剑。")],
        "questions": [
            ("B", "你还记得我的生日是哪天吗？", "三月九日", True),
            ("B", "米拉，你害怕什么？", "害怕大海", True),
            ("B", "我们在山洞里找到了什么？", "红色石头", False),
            ("C", "你还记得我的生日是哪天吗？", "三月九日", True),
            ("C", "米拉害怕大海吗？", "害怕大海", False),
        ],
    },
}

# Three scenes; Tomas misses the first, Mira the second, Garrick the third.
GROUP = [
    ("user", "Alex", "Mira, Garrick, what did you do with the map?"),
    ("assistant", "Mira", "I hid the map under the loose floorboard in the chapel."),
    ("assistant", "Garrick", "Your secret is safe with me, Mira."),
    ("system", None, "Scene: the forge at noon. Mira has gone to the market."),
    ("user", "Alex", "Tomas, you look nervous."),
    ("assistant", "Tomas", "I broke the captain's brass compass last night."),
    ("assistant", "Garrick", "I can mend the compass before he notices."),
    ("system", None, "Scene: the docks at dusk. Garrick stays at the forge."),
    ("user", "Alex", "Any news from the harbour?"),
    ("assistant", "Tomas", "The smugglers arrive on the night of the new moon."),
    ("assistant", "Mira", "Then we wait for them behind the salt barrels."),
]
GROUP_QUESTIONS = [  # (speaker about to answer, question, expected text, should be injected)
    ("Garrick", "Where did Mira hide the map?", "loose floorboard", True),
    ("Tomas", "Where did Mira hide the map?", "loose floorboard", False),
    ("Garrick", "Who broke the compass?", "brass compass", True),
    ("Mira", "Who broke the compass?", "brass compass", False),
    ("Mira", "When do the smugglers arrive?", "new moon", True),
    ("Garrick", "When do the smugglers arrive?", "new moon", False),
]


def sync(api: httpx.Client, chat_id: str, body: dict[str, Any]) -> None:
    r = api.post(f"/v1/chats/{chat_id}/sync", json={**body, "complete": True, "wait": True})
    r.raise_for_status()


def solo(api: httpx.Client, lang: str, s: dict[str, Any]) -> list[tuple[str, str, str, bool, bool]]:
    def body(character: str, turns: list[tuple[str, str]]) -> dict[str, Any]:
        return {
            "character": character,
            "user": s["user"],
            "character_id": f"{lang}-{character}.png",
            "persona_id": f"{lang}-user",
            "messages": [
                {
                    "index": i,
                    "role": role,
                    "name": character if role == "assistant" else s["user"],
                    "text": text,
                }
                for i, (role, text) in enumerate(turns)
            ],
        }

    sync(api, f"{lang}-A", body(s["mira"], s["a"]))
    sync(api, f"{lang}-B", body(s["mira"], s["b"]))
    sync(api, f"{lang}-C", body(s["garrick"], s["c"]))
    rows = []
    for chat, question, expected, should in s["questions"]:
        r = api.post(f"/v1/chats/{lang}-{chat}/recall", json={"user_input": question})
        r.raise_for_status()
        injected = expected in r.json()["injection"]
        rows.append((f"{lang} chat {chat}", question, expected, should, injected))
    return rows


def group(api: httpx.Client) -> list[tuple[str, str, str, bool, bool]]:
    messages = [
        {"index": i, "role": role, "text": text, **({"name": name} if name else {})}
        for i, (role, name, text) in enumerate(GROUP)
    ]
    sync(
        api,
        "group",
        {
            "character": "Harbour crew",
            "character_id": "group:harbour",
            "user": "Alex",
            "persona_id": "en-user",
            "messages": messages,
        },
    )
    rows = []
    for who, question, expected, should in GROUP_QUESTIONS:
        r = api.post("/v1/chats/group/recall", json={"user_input": question, "for_character": who})
        r.raise_for_status()
        rows.append((f"group, for {who}", question, expected, should, expected in r.json()["injection"]))
    return rows


def main() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_common import start_bridge

    with tempfile.TemporaryDirectory() as tmp:
        proc, url = start_bridge(Path(tmp) / "data", TOKEN, __file__, bare=False)
        try:
            with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {TOKEN}"}, timeout=300) as api:
                rows = solo(api, "en", SOLO["en"]) + solo(api, "zh", SOLO["zh"]) + group(api)
        finally:
            proc.terminate()
            proc.wait(60)
    print("| where | question | memory | should be injected | injected | ok |")
    print("|---|---|---|---|---|---|")
    misses = 0
    for where, question, expected, should, injected in rows:
        ok = should == injected
        misses += not ok
        print(
            f"| {where} | {question} | {expected} | {'yes' if should else 'no'} | "
            f"{'yes' if injected else 'no'} "
            f"| {'ok' if ok else 'MISS'} |"
        )
    wanted = sum(1 for r in rows if r[3])
    print(
        f"\nshould-be injected: {sum(1 for r in rows if r[3] and r[4])}/{wanted}; "
        f"should-not injected: {sum(1 for r in rows if not r[3] and r[4])}/{len(rows) - wanted}; misses: "
        f"{misses}"
    )


if __name__ == "__main__":
    main()
