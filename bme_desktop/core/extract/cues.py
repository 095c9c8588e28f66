"""Cue words for the heuristic extractor: rules, stable facts and one-off chores (English and
Chinese), after the stable-fact / one-off markers of dsh-memory-curve."""

from __future__ import annotations

import re

RULE = re.compile(
    r"\b(?:always|never|must(?:n't| not)?|forbidden|not allowed|prohibited|the rule|rules? (?:is|are|say)|"
    r"the law)\b|规则|规定|不能|必须|禁止|不准|不许|永远不|一定要|绝对不", re.I)

# (category, importance, pattern); the first match wins.
FACT_CUES: tuple[tuple[str, float, re.Pattern[str]], ...] = (
    ("fact", 8.0, re.compile(r"\b(?:remember (?:that|this)|don'?t forget|keep in mind)\b|记住|别忘了|记得", re.I)),
    ("fact", 7.0, re.compile(
        r"\b(?:birthday|born (?:on|in)|anniversary|lives? in|works? as|my name is|is named)\b|生日|出生|纪念日|住在|名字叫",
        re.I)),
    ("preference", 7.0, re.compile(
        r"\b(?:likes?|loves?|hates?|dislikes?|favou?rite|prefers?|can'?t stand|never (?:eats?|drinks?)|"
        r"(?:doesn'?t|don'?t|won'?t) (?:eat|drink))\b|喜欢|爱吃|爱喝|讨厌|不吃|不喝|最爱|偏爱|受不了", re.I)),
    ("trait", 7.0, re.compile(
        r"\b(?:allergic|afraid of|scared of|habit|usually|personality|tends? to)\b|过敏|害怕|习惯|性格|总是|向来",
        re.I)),
    ("goal", 6.5, re.compile(
        r"\b(?:wants? to|plans? to|dreams? of|my goal|hopes? to|determined to)\b|想要|目标|梦想|打算|希望|决心", re.I)),
)

ONE_OFF = re.compile(
    r"\b(?:tomorrow|tonight|later today|this (?:morning|afternoon|evening)|remind me|pick up|errand|"
    r"need to buy|have to buy)\b|明天|今晚|今天|提醒我|待会|一会儿|帮我买|顺便", re.I)
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
    if ONE_OFF.search(sentence) and re.search(r"\b(?:need to|have to|must|remind)\b|要|得|提醒", sentence, re.I):
        return "event", ONE_OFF_IMPORTANCE
    return None


def is_rule(sentence: str) -> bool:
    return RULE.search(sentence) is not None and not is_question(sentence)
