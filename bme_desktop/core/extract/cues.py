"""Cue words for the heuristic extractor: rules, stable facts and one-off chores (English and
Chinese), after the stable-fact / one-off markers of dsh-memory-curve."""

from __future__ import annotations

import re

RULE = re.compile(
    r"\b(?:always|never|must(?:n't| not)?|forbidden|not allowed|prohibited|the rule|rules? (?:is|are|say)|"
    r"the law)\b|规则|规定|不能|必须|禁止|不准|不许|永远不|一定要|绝对不",
    re.I,
)

# (category, importance, pattern); the first match wins.
FACT_CUES: tuple[tuple[str, float, re.Pattern[str]], ...] = (
    (
        "fact",
        8.0,
        re.compile(r"\b(?:remember (?:that|this)|don'?t forget|keep in mind)\b|记住|别忘了|记得", re.I),
    ),
    (
        "fact",
        7.0,
        re.compile(
            r"\b(?:birthday|born (?:on|in)|anniversary|lives? in|works? as|my name is|is named)\b|生日|出生|"
            r"纪念日|住在|名字叫",
            re.I,
        ),
    ),
    (
        "preference",
        7.0,
        re.compile(
            r"\b(?:likes?|loves?|hates?|dislikes?|favou?rite|prefers?|can'?t stand|never (?:eats?|drinks?)|"
            r"(?:doesn'?t|don'?t|won'?t) (?:eat|drink))\b|喜欢|爱吃|爱喝|讨厌|不吃|不喝|最爱|偏爱|受不了",
            re.I,
        ),
    ),
    (
        "trait",
        7.0,
        re.compile(
            r"\b(?:allergic|afraid of|scared of|fears?|feared|frightened of|terrified of|habit|usually|"
            r"personality|"
            r"tends? to)\b|过敏|害怕|恐惧|(?<!恐)怕|习惯|性格|总是|向来",
            re.I,
        ),
    ),
    (
        "goal",
        6.5,
        re.compile(
            r"\b(?:wants? to|plans? to|dreams? of|my goal|hopes? to|determined to)\b|想要|目标|梦想|打算|"
            r"希望|决心",
            re.I,
        ),
    ),
)

ONE_OFF = re.compile(
    r"\b(?:tomorrow|tonight|later today|this (?:morning|afternoon|evening)|remind me|pick up|errand|"
    r"need to buy|have to buy)\b|明天|今晚|今天|提醒我|待会|一会儿|帮我买|顺便",
    re.I,
)
ONE_OFF_IMPORTANCE = 3.0

FIRST_PERSON = re.compile(r"^(?:i|i'm|i've|i'd|i'll|my|me)\b|^我", re.I)
SECOND_PERSON = re.compile(r"^(?:you|you're|your)\b|^你", re.I)


QUESTION = re.compile(r"[?？]\s*[\"'”’)）]*\s*$|[吗呢么][\s。！!~～…]*$")


CLAUSE = re.compile(r"[,，;；]")
ASKING = re.compile(r"(?:what|which|who|where|when|why|how|do|does|did|are|is|can|could|would|will)\b", re.I)
TAG_WORDS, TAG_CHARS = 4, 6  # a tag question: "don't you?", "and you?", "你呢？", "对吧？"


def is_question(sentence: str) -> bool:
    """A question ("Do you like jazz?", "你喜欢哪种电影呢"): it asks, it states nothing. A
    statement with a short question tagged on ("我很喜欢看电影，你呢？", "I love jazz, don't
    you?") is judged by its statement."""
    text = sentence.strip()
    if QUESTION.search(text) is None:
        return False
    clauses = CLAUSE.split(text)
    tag, head = clauses[-1].strip(), "，".join(clauses[:-1]).strip()
    if len(head) > len(tag) and (len(tag.split()) <= TAG_WORDS if " " in tag else len(tag) <= TAG_CHARS):
        return QUESTION.search(head) is not None or ASKING.match(head) is not None
    return True


def fact_cue(sentence: str) -> tuple[str, float] | None:
    """(category, importance) of a fact-like sentence, or None. One-off chores get the
    ``event`` category and a low importance, so they fade and never outrank stable facts.
    A question is never a fact ("What kind of films do you like?" holds no preference)."""
    if is_question(sentence):
        return None
    for category, importance, pattern in FACT_CUES:
        if pattern.search(sentence):
            if category != "fact" and ONE_OFF.search(sentence):
                return "event", ONE_OFF_IMPORTANCE
            return category, importance
    if ONE_OFF.search(sentence) and re.search(
        r"\b(?:need to|have to|must|remind)\b|要|得|提醒", sentence, re.I
    ):
        return "event", ONE_OFF_IMPORTANCE
    return None


def is_rule(sentence: str) -> bool:
    return RULE.search(sentence) is not None and not is_question(sentence)


# A statement that replaces an earlier one ("I hate mushrooms now", "he's leaving Chicago",
# "我戒奶茶了", "从7号楼搬到12号楼"). Strong cues say so alone; a bare "now"/"现在"/"these days"
# counts only in a statement of state (a fact cue, a negation, "lives", "I'm a … person").
CHANGE = re.compile(
    r"\b(?:no longer|not any ?more|anymore|any more|nowadays|from now on|(?:gone|went) off|quit|"
    r"gave up|given up|switched (?:to|over)|(?:moved|moving|relocat\w*) (?:to|out|away|into)|"
    r"(?:has|have|'s|'ve|just|already|since) moved|leaving|left for|changed (?:my|his|her|their) mind|"
    r"(?:is|are|am|'m|'s|'re) (?:now|these days) )\b|"
    r"不再|再也不|已经不|戒[^，,。！!？?]{0,4}了|戒掉|改成|换成|改吃|改喝|改住|改用|搬到|搬去|搬家|搬走|搬离|搬进|搬宿舍|如今|从此|"
    r"现在(?:只|不|改|换|住|在|是|开始|已经|变)|不(?:再|吃|喝|住|抽|玩|用|做|去|喜欢|爱)[^，,。！!？?]{0,6}了",
    re.I,
)
WEAK_CHANGE = re.compile(r"\b(?:now|these days|lately|anymore)\b|现在|以后|最近", re.I)
_STATE_VERB = re.compile(
    r"\b(?:lives?|living|i'?m an?|i am an?|(?:he|she|they)(?:'s| is| are) an?|works? (?:at|as|in|for))\b|住",
    re.I,
)

# A statement of a lasting state, the kind a later change replaces: likes and habits, where
# someone lives or works, who someone is.
STATE = re.compile(
    r"\b(?:always|every (?:day|night|morning|evening|week)|can'?t (?:start|live|go|get through|do)\b.{0,30}"
    r"\bwithout|lives?|living|keeps? a (?:room|house|place|flat|shop)|stays? (?:at|in)|works? (?:at|as|in|"
    r"for)|"
    r"usually|personality|favou?rite|i'?m an?|is an?)\b|"
    r"住在|住|每天|总是|离不开|活不下去|不欢|我是|他是|她是|在.{1,8}(?:开|工作|上班|读书)",
    re.I,
)


def change_cue(sentence: str) -> bool:
    """Whether ``sentence`` states that something changed ("no longer", "now" in a statement
    of state, "不再", "戒了", "搬到"…). A question never does."""
    if is_question(sentence):
        return False
    if CHANGE.search(sentence):
        return True
    if not WEAK_CHANGE.search(sentence):
        return False
    from .textutil import negated  # textutil imports the recall tokenizer; keep this module light

    cue = fact_cue(sentence)
    return (
        (cue is not None and cue[0] != "event")
        or negated(sentence)
        or _STATE_VERB.search(sentence) is not None
    )


def is_state(sentence: str) -> bool:
    """Whether ``sentence`` states a lasting state or preference (a candidate for being
    replaced by a later change)."""
    if is_question(sentence):
        return False
    cue = fact_cue(sentence)
    return (cue is not None and cue[0] != "event") or STATE.search(sentence) is not None
