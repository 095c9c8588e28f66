"""The LLM path on roleplay-dev: rp_eval with the fake OpenAI server scripted as a *good model*.

    .venv/bin/python bench/llm_path.py [--set ../shared/data/roleplay-dev] [--offline] [--json out.json]

Issue 17 asks for the rp_eval table "with the fake OpenAI server scripted as a good model, to
show the LLM path builds the same kinds of memories". This script starts the fake server
(``tests/fakes/openai_server.py``, real HTTP on loopback) with a responder that answers every
extraction prompt with the JSON the prompt asks for, derived **only from the batch it is sent**
(the chat excerpt and the existing memories in the user message) by simple, fixed rules: no
dataset labels, nothing per chat. It then runs ``../shared/tools/rp_eval.py`` with settings that
point ``llm`` at the fake server, so ``serve`` extracts through ``LLMExtractor`` (prompt, JSON
reply, ``plan_from_json``, ``validate_plan``, ``apply``). ``--offline`` runs the default offline
setup right after, for the table beside it (same machine, same period).

The "model" is deliberately simple — a rule-following stand-in, not a real LLM: speakers and
names with person/place cues (jieba's nr/ns tags in Chinese) become characters and locations;
general prohibitions and costs become rules; goals and quests open threads; "X thinks/以为…"
makes a point of view owned by X; "I promise/我答应…" a promised thread owned by the speaker;
likes and dislikes facts (a "now / no longer / 不再" one supersedes the existing fact about the
same thing, named by its label); one event per assistant reply. What it shows is that the LLM
path parses and builds every kind; its quality figures are the rules', not a model's.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tests.fakes.openai_server import FakeOpenAIServer, Reply  # noqa: E402

RP_EVAL = ROOT.parent / "shared" / "tools" / "rp_eval.py"
DEFAULT_SET = ROOT.parent / "shared" / "data" / "roleplay-dev"
CJK = re.compile(r"[\u4e00-\u9fff]")
SENTENCE = re.compile(r"[^。！？!?.\n]+[。！？!?.]?")
DECOR = re.compile(r"[*\"“”「」『』]")

# English cues ------------------------------------------------------------------------------
_NOT_NAMES = """I I'm I'll I've I'd A An The This That These Those He She It We You They His Her Its Our Your
Their My Me Him Them Us What Who Why How When Where Which Yes No Oh Ah Aye Well Then But And Or So If Now Here
There
Not Do Does Did Is Are Was Were Be Been Let Please Thank Thanks Good Fine Sorry Hello Hi Welcome Sir Madam
Come Go
Tell Look Listen Wait Stop Maybe Perhaps Still Just Only Every Each Before After Once Done Okay OK Right Sure
Enough
Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April May June July August
September October November December Mr Mrs Ms Dr God Lord Lady"""
NOT_NAMES = frozenset(_NOT_NAMES.split())
TITLES = (
    "Captain",
    "Mother",
    "Father",
    "Brother",
    "Sister",
    "Master",
    "Lord",
    "Lady",
    "Sir",
    "Aunt",
    "Uncle",
    "Professor",
    "Doctor",
    "Dr",
    "Mr",
    "Mrs",
    "Ms",
    "Miss",
    "Old",
)
PERSON_VERBS = (
    "said",
    "says",
    "asks",
    "asked",
    "smiles",
    "smiled",
    "nods",
    "nodded",
    "grins",
    "leans",
    "mutters",
    "laughs",
    "whispers",
    "sighs",
    "shrugs",
    "frowns",
    "replies",
    "answers",
    "thinks",
    "believes",
    "looks",
    "turns",
    "walks",
    "stands",
    "sits",
    "keeps",
    "vanished",
    "told",
    "tells",
    "promised",
)
PLACE_PREPS = (
    "in",
    "at",
    "to",
    "from",
    "into",
    "toward",
    "towards",
    "across",
    "through",
    "near",
    "reach",
    "past",
)
PLACE_NOUNS = (
    "Inn",
    "Tavern",
    "Lantern",
    "Marsh",
    "Temple",
    "Road",
    "River",
    "Hall",
    "Tower",
    "Gate",
    "Street",
    "Market",
    "Forest",
    "Wood",
    "Woods",
    "Mill",
    "Bridge",
    "Castle",
    "Keep",
    "Harbour",
    "Harbor",
    "Port",
    "Library",
    "Cafe",
    "Café",
    "Park",
    "Station",
    "Office",
    "Hospital",
    "School",
    "Academy",
    "Square",
    "Valley",
    "Hills",
    "Mountain",
    "Lake",
    "Bay",
    "Village",
    "City",
    "Town",
    "Shop",
    "Bakery",
    "Bar",
    "Chapel",
    "Pass",
    "Church",
    "Abbey",
    "Fort",
    "Cave",
    "Ruins",
    "Garden",
    "Farm",
    "House",
    "Manor",
)
CAP_SPAN = re.compile(r"\b(?:[A-Z][a-z'’]+)(?:\s+(?:of\s+)?[A-Z][a-z'’]+){0,2}\b")
EN_RULE = re.compile(
    r"\b(?:no one|nobody|anyone who|everyone|every spell|never|cannot|can't|can not|must not|"
    r"mustn't|is forbidden|are forbidden|not allowed|the law|the rule|first law|costs?)\b",
    re.I,
)
EN_GOAL = re.compile(
    r"\b(?:we|i|you)(?: really)? (?:must|need to|have to|are going to|am going to|"
    r"want to|plan to|hope to|mean to|intend to|need) (?:a |an |the )?\w+"
    r"|\b(?:our|my|the) (?:goal|quest|task|plan|job) is\b|\bthe trail leads\b|\bstole\b|"
    r"\bwho (?:stole|took|killed|did)\b|\bwhere (?:is|did|are)\b.*\b[A-Z][a-z]+",
    re.I,
)
EN_POV = re.compile(
    r"\b([A-Z][a-z]+|she|he|I)\s+(?:thinks|believes|is sure|is convinced|assumes|suspects|"
    r"think|believe|am sure|thought|believed)\b",
    re.I,
)
EN_PROMISE = re.compile(
    r"\b(?:I promise|I swear|I'll make sure|you have my word|I give you my word|"
    r"I'll bring|I will bring|I'll tell|I will tell|I'll teach|I will teach)\b",
    re.I,
)
EN_LIKE = re.compile(
    r"\b(?:I|I'm|I am|my)\s+(?:really\s+|now\s+|also\s+)?(?:love|like|hate|adore|can't stand|"
    r"cannot stand|prefer|no longer \w+|don't \w+ \w+ anymore|favou?rite|allergic to|live in|"
    r"work at|work as|moved to|drink|eat|quit|switched to|gave up|started)\s*([^.,!?;]*)",
    re.I,
)
EN_NOW = re.compile(
    r"\b(?:now|no longer|anymore|any more|these days|moved|switched|quit|gave up|changed)\b", re.I
)
_STOP = (
    "the and for that this with from have your you are was were will just what when then them they "
    "there their about into only also very much more some like love hate now longer anymore"
)
STOP = frozenset(_STOP.split())

# Chinese cues ------------------------------------------------------------------------------
ZH_RULE = re.compile(r"规定|不得|禁止|不许|不准|必须|只能|严禁|会消耗|代价|门规|规矩|不可")
ZH_GOAL = re.compile(
    r"(?:我们|咱们|我|你)(?:要|得|必须|一定要|准备|打算|想)(?:去|找|寻找|查|查明|找到|救|夺回|拿到|考|参加|"
    r"完成|赢|学|问|告诉|见|回)|寻找|目标是|是谁(?:偷|拿|干)|被偷|失窃|下落"
)
ZH_POV = re.compile(r"([\u4e00-\u9fff]{1,4}?)(?:以为|觉得|认定|误会|怀疑|认为|坚信)")
ZH_PROMISE = re.compile(r"我(?:答应|保证|发誓|一定会|会帮|会给|会带)")
ZH_LIKE = re.compile(
    r"我(?:现在|也|最|已经)?(?:喜欢|爱|讨厌|不喜欢|受不了|不再|不爱|住在|搬到|搬去|在.{1,6}工作|戒了|改喝|改吃|开始)"
    r"([^，。！？,.!?]{1,12})"
)
ZH_NOW = re.compile(r"不再|现在|如今|已经不|搬到|搬去|戒了|改")
ZH_PLACE_SUFFIX = re.compile(
    r"[\u4e00-\u9fff]{1,4}(?:城|镇|村|山|阁|楼|殿|街|馆|寺|谷|院|峰|宫|洞|湖|岛|店|室|堂|亭|园|场|站)"
)
_ZH_NOT_NAMES = (
    "我们 你们 他们 她们 什么 怎么 这里 那里 这个 那个 自己 大家 师父 师兄 师姐 师妹 师弟 老师 同学"
)
ZH_NOT_NAMES = frozenset(_ZH_NOT_NAMES.split())


def sentences(text: str) -> list[str]:
    return [s.strip() for s in SENTENCE.findall(DECOR.sub("", text)) if s.strip()]


def _posseg(text: str) -> list[tuple[str, str]]:
    import jieba.posseg as pseg

    return [(w.word, w.flag) for w in pseg.cut(text)]


def names_en(text: str, speaker: str | None) -> tuple[set[str], set[str]]:
    people: set[str] = set()
    places: set[str] = set()
    clean = DECOR.sub("", text)
    for m in CAP_SPAN.finditer(clean):
        span = m.group(0)
        first = span.split()[0]
        before = clean[: m.start()].rstrip()
        after = clean[m.end() :].lstrip()
        prev = before.split()[-1].lower() if before.split() else ""
        at_start = not before or before[-1] in '.!?"“'
        if first in NOT_NAMES and first not in TITLES:
            continue
        nxt = after.split()[0].lower().strip(",.;:!?") if after.split() else ""
        last = span.split()[-1]
        span = re.sub(r"['’]s$", "", span)
        if span in TITLES:
            continue
        if last in PLACE_NOUNS or first in PLACE_NOUNS or (prev in PLACE_PREPS and not at_start):
            places.add(span)
        else:
            titled = first in TITLES and len(span.split()) > 1
            if titled or (
                (nxt in PERSON_VERBS or (not at_start and prev not in PLACE_PREPS)) and len(span.split()) <= 3
            ):
                people.add(span)
    if speaker:
        people.add(speaker)
    return people - places, places


def names_zh(text: str, speaker: str | None) -> tuple[set[str], set[str]]:
    people, places = set(), set()
    for word, flag in _posseg(DECOR.sub("", text)):
        if len(word) < 2 or word in ZH_NOT_NAMES:
            continue
        if flag == "nr" and len(word) <= 4:
            people.add(word)
        elif flag == "ns" or (flag.startswith("n") and ZH_PLACE_SUFFIX.fullmatch(word) and len(word) <= 5):
            places.add(word)
    if speaker:
        people.add(speaker)
    return people - places, places


def good_model(request: dict[str, Any]) -> Reply:
    """Answer an extraction prompt with operations from its own batch; anything else: ``{}``."""
    system = request["messages"][0]["content"]
    user = request["messages"][-1]["content"]
    if '"operations"' not in system:  # not the extraction prompt
        return Reply.text("{}")
    try:
        excerpt = json.JSONDecoder().raw_decode(user[user.rindex("\n[") + 1 :])[0]
        memories = _existing(user)
    except ValueError:
        return Reply.text("{}")
    return Reply.json(extract(excerpt, memories))


def _existing(user: str) -> list[dict[str, Any]]:
    start = user.find("\n[", user.find("Existing memories") if "Existing memories" in user else 0)
    try:
        value = json.JSONDecoder().raw_decode(user[start + 1 :])[0] if start >= 0 else []
    except ValueError:
        return []
    return [m for m in value if isinstance(m, dict) and "label" in m] if isinstance(value, list) else []


def extract(excerpt: list[dict[str, Any]], memories: list[dict[str, Any]]) -> dict[str, Any]:
    ops: list[dict[str, Any]] = []
    refs: dict[tuple[str, str], str] = {}
    region = None

    def ref_for(type_: str, name: str, index: int) -> str:
        key = (type_, name.lower())
        if key not in refs:
            refs[key] = f"n{len(refs) + 1}"
            ops.append(
                {
                    "action": "create",
                    "type": type_,
                    "ref": refs[key],
                    "fields": {"name": name},
                    "importance": 6,
                    "source": [index],
                }
            )
        return refs[key]

    for msg in excerpt:
        if msg.get("context_only"):
            continue
        text, index, speaker = str(msg.get("text", "")), int(msg["index"]), msg.get("name")
        zh = bool(CJK.search(text))
        people, places = (names_zh if zh else names_en)(text, speaker)
        known = {str(m.get("text", "")).split(":")[0].split("；")[0].strip(): m.get("type") for m in memories}
        moved = {p for p in people if known.get(p) == "location"}  # the existing memories say what a name is
        people, places = (
            (people - moved) | {p for p in places if known.get(p) == "character"},
            (places | moved) - {p for p in places if known.get(p) == "character"},
        )
        person_refs = [ref_for("character", p, index) for p in sorted(people)]
        place_refs = [ref_for("location", p, index) for p in sorted(places)]
        if places:
            region = sorted(places)[-1]
        said = sentences(text)
        for n, sentence in enumerate(said):
            first_person = sentence.lower().startswith(("i ", "i'", "we ", "my ")) or sentence.startswith(
                "我"
            )
            question = "?" in sentence or "？" in sentence
            if (ZH_GOAL if zh else EN_GOAL).search(sentence):
                ops.append(
                    {
                        "action": "create",
                        "type": "thread",
                        "importance": 7,
                        "source": [index],
                        "fields": {"title": sentence[:60], "summary": sentence[:300], "status": "open"},
                    }
                )
            if question:
                continue
            if (ZH_RULE if zh else EN_RULE).search(sentence) and not first_person:
                ops.append(
                    {
                        "action": "create",
                        "type": "rule",
                        "importance": 8,
                        "source": [index],
                        "fields": {"title": sentence[:40], "constraint": sentence[:300]},
                    }
                )
            pov = (ZH_POV if zh else EN_POV).search(sentence)
            if pov:
                owner = pov.group(1)
                if owner.lower() in ("i", "我") or (zh and owner.startswith("我")):
                    owner = speaker or owner
                elif owner.lower() in ("she", "he") or owner in ZH_NOT_NAMES:
                    owner = next(iter(sorted(people - {speaker or ""})), speaker or owner)
                ops.append(
                    {
                        "action": "create",
                        "type": "pov_memory",
                        "owner": owner,
                        "importance": 6,
                        "source": [index],
                        "fields": {
                            "summary": sentence[:300],
                            "belief": sentence[:300],
                            "certainty": "unsure",
                        },
                    }
                )
            if speaker and (ZH_PROMISE if zh else EN_PROMISE).search(sentence):
                ops.append(
                    {
                        "action": "create",
                        "type": "thread",
                        "owner": speaker,
                        "importance": 7,
                        "source": [index],
                        "fields": {
                            "title": f"{speaker}: {sentence}"[:80],
                            "summary": sentence[:300],
                            "status": "promised",
                        },
                    }
                )
            like = (ZH_LIKE if zh else EN_LIKE).search(sentence)
            if like and speaker:
                # "It's my favourite": the sentences before say what "it" is
                told = (
                    " ".join([*said[max(0, n - 2) : n], sentence])
                    if n and re.match(r"(?i)(?:it|this|that)\b", sentence)
                    else sentence
                )
                op: dict[str, Any] = {
                    "action": "create",
                    "type": "fact",
                    "importance": 7,
                    "source": [index],
                    "fields": {
                        "statement": f"{speaker}: {told}"[:300],
                        "subject": speaker,
                        "category": "preference",
                    },
                }
                if (ZH_NOW if zh else EN_NOW).search(sentence):
                    old = replaced_fact(sentence, speaker, memories, zh)
                    if old:
                        op["supersedes"] = old
                ops.append(op)
        if msg.get("role") == "assistant":
            first = next(iter(sentences(text)), text[:160])
            links = [{"to": r, "relation": "involved_in"} for r in person_refs[:4]]
            links += [{"to": r, "relation": "occurred_at"} for r in place_refs[:1]]
            ops.append(
                {
                    "action": "create",
                    "type": "event",
                    "importance": 4,
                    "source": [index],
                    "fields": {"summary": first[:200]},
                    "links": links,
                }
            )
    out: dict[str, Any] = {"operations": ops[:40]}
    if region:
        out["regions"] = {"active": region}
    return out


def _words(text: str, zh: bool) -> set[str]:
    if zh:
        runs = re.findall(r"[\u4e00-\u9fff]+", text)
        return {r[i : i + 2] for r in runs for i in range(len(r) - 1)} - {
            "现在",
            "不再",
            "喜欢",
            "我们",
            "已经",
        }
    return {w for w in re.findall(r"[a-z]{4,}", text.lower()) if w not in STOP}


def replaced_fact(sentence: str, speaker: str, memories: list[dict[str, Any]], zh: bool) -> str | None:
    """The label of the existing fact about the same person and thing that ``sentence`` replaces."""
    words = _words(sentence, zh)
    best, label = 0, None
    for m in memories:
        text = str(m.get("text", ""))
        if m.get("type") != "fact" or speaker.lower() not in text.lower():
            continue
        shared = len(words & _words(text, zh))
        if shared > best:
            best, label = shared, str(m["label"])
    return label


def run_eval(data_set: Path, settings: dict[str, Any], out: Path | None) -> str:
    bme = ROOT / ".venv" / "bin" / "bme-desktop"
    cmd = [
        sys.executable,
        str(RP_EVAL),
        "--bme",
        str(bme),
        "--set",
        str(data_set),
        "--settings",
        json.dumps(settings),
    ]
    if out is not None:
        cmd += ["--json", str(out)]
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--set", type=Path, default=DEFAULT_SET)
    ap.add_argument("--offline", action="store_true", help="also run the default offline setup, right after")
    ap.add_argument(
        "--json", type=Path, help="write rp_eval's full results here (…-llm.json, …-offline.json)"
    )
    a = ap.parse_args()
    with FakeOpenAIServer(responder=good_model) as server:
        settings = {
            "llm": {"enabled": True, "base_url": server.base_url, "model": "fake-chat", "max_retries": 0}
        }
        table = run_eval(a.set, settings, a.json.with_suffix(".llm.json") if a.json else None)
        asked = len(server.requests_to("/chat/completions"))
    print(f"## LLM path (fake OpenAI server scripted as a good model; {asked} model calls)\n")
    print(table)
    if a.offline:
        print("## offline defaults (no LLM), same period\n")
        print(run_eval(a.set, {}, a.json.with_suffix(".offline.json") if a.json else None))
    return 0


if __name__ == "__main__":
    tempfile.tempdir = None
    raise SystemExit(main())
