"""Plot threads, promises and points of view, offline (English and Chinese).

- **Plot threads** (``thread``, status ``open``): a quest or goal ("we must find the chalice",
  寻回剑谱, 得想办法), a loss that asks to be undone ("someone stole…", 不见了, 失踪) or an
  open question ("nobody knows who…", 到底是谁). A later message that says it is over ("that
  quest is finished", 总算了结了, "we did it") closes the open thread it talks about (status
  ``resolved``).
- **Promises** (``thread``, status ``promised``; ``done`` once kept): "I promise…", "I swear
  I'll…", 我答应你…, 说到做到, from either side, titled with the one who promised ("I" is the
  speaker, "you" the one spoken to). "Kept my word", 说话算话 … closes the promise it names.
- **Points of view** (``pov_memory`` in the ``pov`` scope of the believer): "She thinks you're
  the tax collector", "I thought you'd forgotten", 掌门认定…, 晴晴觉得…, 我还以为…. Certainty
  ``certain`` (is sure, 认定, 坚信), ``unsure`` (thinks, 觉得, 怀疑) or ``mistaken`` (wrongly,
  误以为, or a later message that contradicts it: "I've never collected a coin…", 其实…).
  Present-tense opinions of the speaker ("I think it's great", 我觉得挺好) are not kept.

Open threads, promises and beliefs already in the graph come in as :class:`OpenItem` (with
the label an update names them by), so closing one is an ``update`` operation, as the model
path writes it. Same window and open items, same operations.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..model import Scope
from .cleaning import PreparedMessage
from .cues import is_question
from .names import Mention
from .operations import CognitionOp, LinkOp, NodeOp, Plan
from .textutil import clip, has_han, sentences, squeeze, term_set

MAX_THREADS = 2
MAX_PROMISES = 2
MAX_BELIEFS = 2
OPEN, RESOLVED, PROMISED, DONE = "open", "resolved", "promised", "done"
MISTAKEN, UNSURE, CERTAIN = "mistaken", "unsure", "certain"


@dataclass(frozen=True)
class OpenItem:
    """An open thread, an open promise or a belief not known to be wrong, already in the graph."""

    label: str
    type: str  # "thread" | "pov_memory"
    status: str  # open / promised for threads; the certainty for beliefs
    text: str
    owner: str | None = None

    @property
    def kind(self) -> str:
        if self.type == "pov_memory":
            return "belief"
        return "promise" if self.status == PROMISED else "thread"


# ----------------------------------------------------------------------------- cues
_QUEST_VERB = (
    r"find|track down|search for|look for|hunt (?:for|down)|rescue|save|free|recover|retrieve|"
    r"get (?:\w+ )?back|bring (?:\w+ )?back|win (?:\w+ )?back|stop|defeat|catch|solve|figure out|uncover|"
    r"investigate|prove|escape|protect|break the|destroy|deliver|return (?:it|the)|reach|"
    r"throw (?:\w+ )?(?:a )?party|keep (?:him|her|it|them)|convince|cure|heal|avenge|clear (?:my|his|her) "
    r"name"
)
GOAL = re.compile(
    r"\b(?:we|i|you|they)(?:['’]ve| have)?\s+(?:really\s+|still\s+|all\s+)?(?:must|need to|have to|got to|"
    r"gotta|"
    r"(?:are|am|['’]re|['’]m) going to|set out to|swore to|vow(?:ed)? to|mean to|intend to|"
    r"(?:are|am|['’]re|['’]m) trying to|want to|plan to|hope to|keep hoping)\s+"
    rf"(?:\w+\s+){{0,2}}?(?:{_QUEST_VERB})\b"
    r"|\bi need (?:a|an) (?:guide|healer|way|map|key|ship|boat|escort)\b"
    r"|(?:我们|咱们|我|你)(?:一定|必须|得|要|想|还得|需要|准备|决定|发誓)(?:要|得)?(?:去)?"
    r"(?:寻找|找到|找回|寻回|追查|查清|查明|查出|救出|营救|夺回|阻止|打败|击败|解开|弄清|揭开|治好|救回|抓住|想办法)"
    r"|想办法(?:帮|救|找|查|治)|只要(?:能)?(?:拿到|找到|取得|得到|救出)"
    r"|\b(?:audition|exam|interview|competition|tournament|trial|wedding|duel|recital|concert|match|"
    r"race)(?:['’]s| is)"
    r" (?:coming|next|on|this|tomorrow|soon)\b|\b(?:upcoming|next week['’]s) (?:audition|exam|interview|"
    r"competition|trial)"
    r"|(?:参加|准备|报名|带你们?组?|一起|做)[^。！？]{0,10}(?:比赛|竞赛|考试|面试|选拔|演出|比武|大会|答辩)",
    re.I,
)
LOSS = re.compile(
    r"\b(?:stole|stolen|vanished|disappeared|went missing|(?:is|are|was|were|has gone|have gone) missing|"
    r"was taken|were taken|kidnapped|abducted|was murdered|poisoned|imprisoned|(?:was|were|been) captured|"
    r"held captive|"
    r"(?:threw|thrown|locked|cast) (?:\w+ )?(?:into|in) (?:the )?(?:cells?|prison|dungeon|jail|gaol))\b"
    r"|不见了|失踪|被偷|失窃|被盗|偷走|下落不明|被抓|被绑|被囚|被关|关进|中毒|遇害|失传|阴谋",
    re.I,
)
OPEN_QUESTION = re.compile(
    r"\b(?:nobody|no one) knows (?:who|why|where|what|how)\b|\bi wonder (?:who|why|where|what)\b"
    r"|\bwho (?:could have|would have|took|stole)\b|到底是谁|究竟是谁|不知道是谁|谜团|还没完|没解决|没查清",
    re.I,
)
RESOLVED_CUE = re.compile(
    r"\b(?:(?:quest|mission|task|job|search|matter|case|mystery) (?:is|was) (?:over|finished|done|solved|"
    r"complete)|"
    r"is finished|it['’]s over|we did it|mystery solved|case closed|(?:found|rescued|freed|saved) (?:him|her|"
    r"them|it) at last|"
    r"(?:got|brought) (?:him|her|them|it) back|(?:is|are) (?:safe|home|legal) (?:now|at last)|gone home|came "
    r"home|"
    r"all settled|resolved at last)\b"
    r"|了结|圆满结束|总算结束|终于结束|解决了|找到了|找回来了|寻回来了|大功告成|真相大白|水落石出|救回来了|治好了|"
    r"一命|好起来了|落下帷幕|告一段落",
    re.I,
)
_THAT_QUEST = re.compile(
    r"\b(?:that|this|the|our) (?:quest|mission|task|job|search|matter|case|mystery)\b", re.I
)
# "剑谱的事要查个水落石出", "until it's over": an end wished for, not reached
_INTENT = re.compile(
    r"\b(?:will|going to|must|have to|need to|want to|until|when|if|once)\b|要|得|想|会|将|直到|等到", re.I
)
_THREAD_NOUN = re.compile(
    r"\b(?:quest|mission|task|job|search|matter|case|mystery)\b|这件事|这事|任务|案子", re.I
)

PROMISE = re.compile(
    r"\b(?P<who>i|we|you|he|she|they|[A-Z][a-z]+)\s+(?:(?:do|really|solemnly|already)\s+)?"
    r"(?:promise[ds]?|swear|swore|vow(?:ed)?|give you my word|gave (?:you|me) (?:my|his|her|their) word)\b"
    r"(?:\s+(?:you|me|him|her|them))?(?:\s+(?:that|to))?[,:]?\s*(?P<what>[^.!?]*)"
    r"|(?P<zwho>我|你|他|她)(?:也|都|一定|已经|早就)?(?:答应(?:过|了)?|保证|发誓|向你保证|承诺)(?:你|我|他|她)?[，,：:]?"
    r"(?P<zwhat>[^。！？!?]*)"
    r"|(?P<zkeep>说到做到|一言为定|包在我身上)"
    r"|(?P<zwho2>我)一定(?:帮你|替你|给你|会帮你)(?P<zwhat2>[^。！？!?]*)",
    re.I,
)
KEPT = re.compile(
    r"\b(?:kept (?:my|his|her|your|our|their) (?:word|promise)|keeps (?:his|her|my|their) word|as I (?:swore|"
    r"promised)|"
    r"promise kept|(?:lesson|word) kept|as promised|like I promised|the word I swore|did what I promised|"
    r"I (?:keep|kept) my promises?)\b|说话算话|言而有信|兑现|如约|说到做到|守信",
    re.I,
)

KEPT_MINE = re.compile(
    r"\b(?:as I (?:swore|promised)|kept my (?:word|promise)|like I promised|I (?:keep|kept) my promises?)\b"
    r"|我说到做到|我做到了",
    re.I,
)
_EN_BELIEF = re.compile(
    r"(?P<owner>\b(?:I|you|he|she|they|[A-Z][\w'’.-]+(?: [A-Z][\w'’-]+){0,2}))\s+"
    r"(?:(?:still|honestly|really|truly|always|firmly|actually|genuinely|wrongly|mistakenly|even|must "
    r"have)\s+)?"
    r"(?P<verb>thinks|believes|is sure|is convinced|is certain|assumes|suspects|reckons|imagines|"
    r"thought|believed|was sure|was convinced|was certain|assumed|suspected|had assumed|had thought|"
    r"took (?:me|you|him|her|us|them) for|takes (?:me|you|him|her|us|them) for)\b"
    r"(?:\s+that)?\s+(?P<belief>[^.!?]{4,})"
)
_ZH_BELIEF = re.compile(
    r"(?P<verb>误以为|错以为|还以为|原以为|本以为|(?<![可所难])以为|认定|认准|断定|觉得|认为|相信|坚信|确信|怀疑|误会|"
    r"当成|当作|肯定是|一定是|就知道|一看就是|一看就知道)(?P<belief>[^。！？!?]{3,})"
)
_MISTAKE_CUE = re.compile(r"\b(?:wrongly|mistakenly|falsely)\b|误以为|错以为|还以为|原以为|本以为|误会", re.I)
_CERTAIN_CUE = re.compile(
    r"\b(?:is sure|is convinced|is certain|was sure|was convinced|was certain|firmly)\b"
    r"|认定|认准|断定|坚信|确信|肯定是|一定是|就知道"
)
_PAST_FIRST = re.compile(
    r"^(?:thought|believed|was sure|was convinced|was certain|assumed|had assumed|had thought|"
    r"suspected|took)",
    re.I,
)
_ZH_FIRST_OK = re.compile(r"误以为|错以为|还以为|原以为|本以为|以为|认定|坚信|确信|肯定是|就知道|一看就")
_SELF_HELP = re.compile(
    r"一些(?:方法|方式|办法|建议)|\bsome ways?\b|\ba (?:better |good )?way to\b|\bways to\b", re.I
)
_NOT_A_NAME = re.compile(r"[我你您他她它们的了是在但可就都也还很总些一这那个么吗呢吧啊哦要会能想说]")
CONTRADICTS = re.compile(
    r"\b(?:actually|in fact|turns out|not true|wrong|never|wasn['’]t|isn['’]t|aren['’]t|didn['’]t|not a|no "
    r"[a-z]+ at all|"
    r"I['’]m no|I['’]m not|it['’]s not|it was not|he's not|she's not)\b"
    r"|其实|原来|并不是|并没有|根本不|根本没|不是|误会|搞错|冤枉|其实是|真相",
    re.I,
)
_ZH_ADVERBS = re.compile(r"(?:还|一直|总|也|都|就|始终|心里|一口|竟然|居然|早就|真的)+$")
_ZH_PRONOUN_OWNER = {"我": "speaker", "你": "other", "他": "third", "她": "third"}
_FIRST = frozenset({"i", "we"})


@dataclass(frozen=True)
class Turn:
    """One message as the story readers see it."""

    message: PreparedMessage
    speaker: str | None
    other: str | None
    mentions: list[Mention]


def _owner_of(word: str, turn: Turn, recent: Callable[[Turn, int], str | None], at: int) -> str | None:
    low = word.lower()
    if low in _FIRST or word == "我":
        return turn.speaker
    if low == "you" or word == "你":
        return turn.other
    if low in ("he", "she", "they") or word in ("他", "她"):
        return recent(turn, at)
    names = [m.name for m in turn.mentions if m.kind == "character"]
    names += [n for n in (turn.speaker, turn.other) if n]
    for name in names:
        if (
            name == word
            or name.split()[-1] == word
            or word in name.split()
            or name.endswith(word)
            or word.endswith(name)
        ):
            return name
    return None


def _same_person(name: str, people: set[str]) -> bool:
    """ "Sera" is the speaker "Sera Ashdown"; 青衣 is 苏青衣."""
    return any(
        name == p or name in p.split() or (has_han(name) and len(name) >= 2 and name in p) for p in people
    )


def _shared(a: str, b: str) -> float:
    ta, tb = term_set(a), term_set(b)
    return len(ta & tb) / max(1, min(len(ta), len(tb))) if ta and tb else 0.0


def _asks(sentence: str) -> bool:
    """A question; "我还以为学姐都很高冷呢。" ends in a full stop and states a belief."""
    return is_question(sentence) and not re.search(r"[。.][\"'”’」』)）*]*$", sentence.strip())


def _clean(text: str) -> str:
    return squeeze(text.strip(" *\"'“”‘’「」『』()（）,，:："))


class StoryReader:
    """Reads one batch's messages for threads, promises and beliefs and adds the operations to a plan."""

    def __init__(self, plan: Plan, open_items: Sequence[OpenItem], event_of: dict[int, str]) -> None:
        self.plan = plan
        self.open = list(open_items)
        self.event_of = event_of
        self.created: list[tuple[str, OpenItem]] = []  # this batch's own new threads, promises, beliefs
        self.threads = self.promises = self.beliefs = 0
        self.turns: list[Turn] = []

    # -------------------------------------------------------------------------- helpers
    def _recent_other(self, turns: Sequence[Turn]) -> Callable[[Turn, int], str | None]:
        def pick(turn: Turn, at: int) -> str | None:
            """The character last named before position ``at`` (this message first, then the
            earlier ones), other than the speaker and the one spoken to."""
            skip = {n for n in (turn.speaker, turn.other) if n}
            text = turn.message.text[:at]
            best: tuple[int, str] | None = None
            for m in turn.mentions:
                if m.kind != "character" or _same_person(m.name, skip):
                    continue
                pos = text.rfind(m.name.split()[-1])
                if pos >= 0 and (best is None or pos > best[0]):
                    best = (pos, m.name)
            if best:
                return best[1]
            for earlier in reversed([t for t in turns if t.message.index < turn.message.index]):
                names = [
                    m.name
                    for m in earlier.mentions
                    if m.kind == "character" and not _same_person(m.name, skip)
                ]
                if names:
                    return max(names, key=lambda n: earlier.message.text.rfind(n.split()[-1]))
            return None

        return pick

    def _update(self, item: OpenItem, fields: dict[str, str], index: int) -> None:
        if any(op.action == "update" and op.target == item.label for op in self.plan.ops):
            return
        self.plan.ops.append(NodeOp("update", item.type, fields, target=item.label, source_indices=[index]))
        self.open = [i for i in self.open if i.label != item.label]

    def _close_own(self, ref: str, fields: dict[str, str], index: int) -> None:
        op = next(o for o in self.plan.ops if o.ref == ref)
        op.fields.update(fields)
        if index not in op.source_indices:
            op.source_indices.append(index)
        self.created = [(r, i) for r, i in self.created if r != ref]

    def _reply(self, turn: Turn) -> int | None:
        """The batch's answer to a user message: a thread opened in a question to the character
        is taken up (and usually explained) by the reply."""
        if turn.message.role != "user":
            return None
        later = [
            t.message.index
            for t in self.turns
            if t.message.index > turn.message.index and t.message.role == "assistant"
        ]
        return later[0] if later else None

    def _create(
        self,
        type_id: str,
        fields: dict[str, str],
        index: int,
        item: OpenItem,
        importance: float,
        scope: Scope | None = None,
        reply: int | None = None,
    ) -> str:
        ref = f"{type_id}@{index}.{len(self.created) + 1}"
        sources = [index] if reply is None else [index, reply]
        op = NodeOp(
            "create",
            type_id,
            fields,
            ref=ref,
            importance=importance,
            source_indices=sources,
            scope=scope or Scope(),
        )
        event = self.event_of.get(index)
        if event:
            op.links.append(LinkOp(event, "related", 0.6))
        self.plan.ops.append(op)
        self.created.append((ref, item))
        return ref

    # -------------------------------------------------------------------------- the reader
    def read(self, turns: Sequence[Turn]) -> None:
        self.turns = list(turns)
        recent = self._recent_other(turns)
        for turn in turns:
            said = sentences(turn.message.text)
            kept = self._closures(turn, said)
            for n, sentence in enumerate(said):
                if _asks(sentence):
                    continue
                if n not in kept and not (
                    KEPT.search(sentence) and not re.search("说到做到|一言为定", sentence)
                ):
                    self._promise(turn, said, n, sentence, recent)
                self._belief(turn, sentence, recent)
            self._thread(turn, said)
            self._contradictions(turn)

    def _thread(self, turn: Turn, said: list[str]) -> None:
        """One thread per message at most: its sentences that open one, the first that names a
        loss or a quest as the title."""
        if self.threads >= MAX_THREADS:
            return
        opening = [
            _clean(x)
            for x in said
            if not is_question(x)
            and not PROMISE.search(x)
            and not RESOLVED_CUE.search(x)
            and (GOAL.search(x) or LOSS.search(x) or OPEN_QUESTION.search(x))
        ]
        opening = [x for x in opening if len(term_set(x)) >= 2 and not _SELF_HELP.search(x)]
        if not opening:
            return
        text = " ".join(opening)
        if any(_shared(i.text, text) >= 0.6 for i in self.open if i.kind == "thread") or any(
            _shared(i.text, text) >= 0.6 for _, i in self.created if i.kind == "thread"
        ):
            return  # the thread is already open
        title = max(opening, key=lambda x: (LOSS.search(x) is not None, len(term_set(x))))
        self.threads += 1
        item = OpenItem("", "thread", OPEN, text)
        self._create(
            "thread",
            {"title": clip(title, 80), "summary": clip(text, 300), "status": OPEN},
            turn.message.index,
            item,
            7.0,
            reply=self._reply(turn),
        )

    def _closures(self, turn: Turn, said: list[str]) -> set[int]:
        """Close what the message says is over; the positions of sentences that kept a promise."""
        index = turn.message.index
        kept: set[int] = set()
        for n, sentence in enumerate(said):
            if is_question(sentence):
                continue
            cue = RESOLVED_CUE.search(sentence)
            if cue and not _INTENT.search(sentence[: cue.start()]):
                self._close_thread(sentence, index)
            if KEPT.search(sentence) and self._close_promise(sentence, index, turn.speaker):
                kept.add(n)
        return kept

    def _close_thread(self, sentence: str, index: int) -> None:
        """Close the open threads the sentence shares the most words with; "that quest is
        finished" (这件事总算了结了) naming nothing else closes the oldest open thread, the main one;
        "剑谱这件事…" names what it closes. The rest of the
        message is not read: it names the people of every thread ("玄机真人…这鱼救了我一命" is no
        end of the stolen-manual thread that 玄机真人 once believed in)."""
        closing = term_set(RESOLVED_CUE.sub(" ", sentence))
        own = [(ref, i) for ref, i in self.created if i.kind == "thread"]
        threads = [i for i in self.open if i.kind == "thread"]
        counts = [(len(closing & term_set(i.text)), n) for n, i in enumerate(threads)]
        mine = [(len(closing & term_set(i.text)), ref) for ref, i in own]
        best = max([c for c, _ in counts] + [c for c, _ in mine] + [0])
        if best:
            for count, n in counts:
                if count == best:
                    self._update(threads[n], {"status": RESOLVED}, index)
            for count, ref in mine:
                if count == best:
                    self._close_own(ref, {"status": RESOLVED}, index)
        elif threads and _THREAD_NOUN.search(sentence):
            rest = term_set(_THREAD_NOUN.sub(" ", RESOLVED_CUE.sub(" ", sentence)))
            if not rest or (len(rest) <= 1 and _THAT_QUEST.search(sentence)):
                self._update(threads[0], {"status": RESOLVED}, index)  # the main one

    def _close_promise(self, sentence: str, index: int, speaker: str | None) -> bool:
        """Close the open promise the sentence shares the most words with (one at least), else,
        for a first-person "as I swore", the speaker's oldest open promise."""
        promises = [i for i in self.open if i.kind == "promise"]
        words = term_set(KEPT.sub(" ", sentence))
        counts = [(len(words & term_set(i.text)), -n) for n, i in enumerate(promises)]
        best = max(counts, default=(0, 0))
        if best[0] >= 1:
            self._update(promises[-best[1]], {"status": DONE}, index)
            return True
        mine = [i for i in promises if i.owner and i.owner == speaker]
        if mine and KEPT_MINE.search(sentence):
            self._update(mine[0], {"status": DONE}, index)  # "as I swore": the speaker's oldest open promise
            return True
        return False

    def _promise(
        self, turn: Turn, said: list[str], n: int, sentence: str, recent: Callable[[Turn, int], str | None]
    ) -> None:
        if self.promises >= MAX_PROMISES:
            return
        match = PROMISE.search(sentence)
        if match is None:
            return
        if match.group("zkeep"):
            what = _clean(said[n - 1]) if n > 0 and len(sentence) < 12 else _clean(sentence[: match.start()])
            who: str | None = turn.speaker
        elif match.group("zwho2"):
            what, who = _clean(match.group("zwhat2") or ""), turn.speaker
        elif match.group("who"):
            what = _clean(match.group("what") or "")
            who = _owner_of(match.group("who"), turn, recent, match.start())
        else:
            what = _clean(match.group("zwhat") or "")
            word = match.group("zwho") or "我"
            who = _owner_of(word, turn, recent, match.start())
            if who is None and word not in _ZH_PRONOUN_OWNER:
                who = turn.speaker  # "…答应": a word before it that names nobody
        if not who or not term_set(what):
            return
        self.promises += 1
        zh = has_han(what)
        if len(term_set(what)) < 3:
            what = _clean(sentence)  # "…, I swear I'll tell you": the sentence says what
        title = f"{who}答应：{what}" if zh else f"{who} promised: {what}"
        item = OpenItem("", "thread", PROMISED, _clean(sentence), who)
        summary = _clean(sentence) if len(sentence) > len(what) + 8 else what
        self._create(
            "thread",
            {"title": clip(title, 80), "summary": clip(summary, 300), "status": PROMISED},
            turn.message.index,
            item,
            6.5,
            Scope(owner=who),
            reply=self._reply(turn),
        )

    def _belief(self, turn: Turn, sentence: str, recent: Callable[[Turn, int], str | None]) -> None:
        if self.beliefs >= MAX_BELIEFS:
            return
        owner: str | None = None
        belief = verb = ""
        at = turn.message.text.find(sentence[:12])
        match = _EN_BELIEF.search(sentence)
        if match is not None:
            word, verb, belief = match.group("owner"), match.group("verb"), match.group("belief")
            if word.lower() in _FIRST and not _PAST_FIRST.match(verb):
                return  # "I think it's great": an opinion, not a belief worth keeping
            owner = _owner_of(word, turn, recent, max(0, at) + match.start())
        else:
            zh = _ZH_BELIEF.search(sentence)
            if zh is None:
                return
            verb, belief = zh.group("verb"), zh.group("belief")
            head = _ZH_ADVERBS.sub("", sentence[: zh.start()])
            tail = head[-4:]
            if (
                verb in ("肯定是", "一定是", "就知道", "一看就是", "一看就知道")
                or not tail
                or tail.endswith("我")
                or tail.endswith("我们")
            ):
                if not _ZH_FIRST_OK.search(verb) or belief.startswith(("你", "您", "自己")):
                    return  # 我觉得挺好 / 我相信你: an opinion or encouragement
                owner = turn.speaker
            elif tail.endswith("你"):
                if not _ZH_FIRST_OK.search(verb):
                    return  # 你觉得…: the speaker guessing the other's opinion
                owner = turn.other
            elif tail.endswith(("他", "她")):
                owner = recent(turn, max(0, at) + zh.start())
            else:
                names = [m.name for m in turn.mentions if m.kind == "character"]
                names += [x for x in (turn.speaker, turn.other) if x]
                owner = next(
                    (
                        name
                        for name in sorted(names, key=len, reverse=True)
                        if head.endswith(name) or head[-6:].find(name) >= 0
                    ),
                    None,
                )
                clause = re.split(r"[，,。：:；;“”\"*…]", head)[-1]
                if (
                    owner is None
                    and 2 <= len(clause) <= 4
                    and all("\u4e00" <= ch <= "\u9fff" for ch in clause)
                    and not _NOT_A_NAME.search(clause)
                ):
                    owner = clause  # "晴晴觉得…": a short subject of its own clause names the believer
        belief = _clean(belief)
        if not owner or not term_set(belief):
            return
        certainty = (
            MISTAKEN
            if _MISTAKE_CUE.search(sentence)
            else CERTAIN
            if _CERTAIN_CUE.search(sentence)
            else UNSURE
        )
        self.beliefs += 1
        about = next((m.name for m in turn.mentions if m.name != owner and m.name in belief), None)
        fields = {
            "summary": clip(_clean(sentence), 300),
            "belief": clip(belief, 300),
            "certainty": certainty,
            "about": about or clip(belief, 60),
        }
        item = OpenItem("", "pov_memory", certainty, belief, owner)
        ref = self._create(
            "pov_memory", fields, turn.message.index, item, 6.0, Scope(layer="pov", owner=owner)
        )
        cognition = (
            CognitionOp(owner, mistaken=[ref]) if certainty == MISTAKEN else CognitionOp(owner, known=[ref])
        )
        self.plan.cognition.append(cognition)

    def _contradictions(self, turn: Turn) -> None:
        """A belief the message contradicts ("I've never collected a coin…", 其实是…) was mistaken."""
        text = turn.message.text
        if not CONTRADICTS.search(text):
            return
        index = turn.message.index
        for ref, item in list(self.created):
            op = next(o for o in self.plan.ops if o.ref == ref)
            if item.kind == "belief" and index not in op.source_indices and _shared(item.text, text) >= 0.3:
                self._close_own(ref, {"certainty": MISTAKEN}, index)
                self.plan.cognition.append(CognitionOp(item.owner or "", mistaken=[ref]))
        for item in [i for i in self.open if i.kind == "belief" and i.status != MISTAKEN]:
            if _shared(item.text, text) >= 0.3:
                self._update(item, {"certainty": MISTAKEN}, index)
                if item.owner:
                    self.plan.cognition.append(CognitionOp(item.owner, mistaken=[item.label]))
