"""Rules of the world, offline: prohibitions, obligations and costs that hold for everyone in
the setting, never a character's own wish, an order to one person or a comforting phrase.

A sentence is a rule when it carries a *strong* cue (a prohibition — "forbidden", "no one may",
"No pets anywhere", 不得, 严禁, 违者 —, or a sanction — "will be expelled", 逐出, 挂科 —, or names
a rule and states it after a colon: "the first law of the marsh: magic costs life force"), or a
*weak* cue (must, cannot, never, only … can, 必须, 不能, 只能, 会折损…) whose subject is generic:
not I / you / we / he / she / it, nobody's possessions, no character the chat names ("Staff can't
take from the tip jar" is a rule; "It must be tough", "I can't wait", "你必须好好休息" are not).
"Must be" + adjective says what someone supposes ("must be tough"), not what is required. A
sentence that only names a rule ("You know the building rule.") joins the rule that follows it.
Questions are never rules. Same text, same answer: plain regular expressions, no state.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .cues import is_question
from .textutil import squeeze

# A rule named as such: "the building rule", "house rule number one", "the first law of the marsh", 规矩.
RULE_NOUN = re.compile(
    r"\b(?:rules?|laws?|customs?|taboos?|edicts?|decrees?|commandments?|code of conduct)\b"
    r"|规则|规矩|规定|门规|戒律|律法|法则|禁令|校规|家规|铁律|守则|条例",
    re.I,
)

# Prohibitions and sanctions: a rule whoever says them.
_EN_PROHIBITION = (
    r"\b(?:curfew|forbidden|prohibited|not allowed|not permitted|banned|(?:is|are) against the law|on pain "
    r"of)\b"
    r"|\b(?:no one|nobody|none of (?:us|you|them)) (?:may|shall|can ever|is allowed|is permitted|must|"
    r"dares)\b"
    r"|\b(?:may not|shall not|must never|must not|mustn['’]t) be\b"
    r"|\bwhoever\b|\banyone who\b[^.!?]*\b(?:will|shall|is|gets|must)\b"
)
_NO_THING = re.compile(  # "No pets anywhere in Maple Court.", "No blade or arrow may be drawn…"
    r"^\W*no\s+(?!one\b|way\b|problem|worries|idea\b|matter\b|doubt\b|wonder\b|thanks?\b|kidding\b|big "
    r"deal\b|joke\b)"
    r"[a-z'-]+(?:\s+(?:or|and|nor)\s+[a-z'-]+)?\s+"
    r"(?:may|shall|can|allowed|permitted|past|beyond|after|before|inside|within|anywhere|indoors|outside)\b",
    re.I,
)
_ZH_PROHIBITION = (
    r"门禁|宵禁|不得(?![了不])|严禁|禁止|违者|一律不|不准私自|不许私自|谁也不许|谁都不许|谁也不准|任何人不"
)
_SANCTION = (
    r"\b(?:(?:will|shall|would) (?:be )?(?:evict|expel|exile|banish|execut|fin|arrest|fir)(?:e|ed|s)?"
    r"|(?:gets?|be) (?:evicted|expelled|exiled|banished|executed|fined|arrested|fired)|on pain of)\b"
    r"|逐出|开除|挂科|记过|处分|除名|废去修为|罚款|取消资格"
)
STRONG = re.compile(f"{_EN_PROHIBITION}|{_ZH_PROHIBITION}|{_SANCTION}", re.I)

# Obligations, impossibilities and costs: a rule only with a generic subject.
_EN_WEAK = re.compile(
    r"\b(?:must|have to|has to|cannot|can['’]?t|can never|could never|never|may only|can only|only \w+ can|"
    r"costs?|requires?|demands?|takes (?:a|one|your|the) (?:year|life|day|price|toll))\b",
    re.I,
)
_ZH_WEAK = re.compile(
    r"必须|不能|只能|不可|不许|不准|永远不|绝不|须有|才能|会折损|会消耗|会损耗|折寿|代价|会被|就会"
)

_EN_PERSONAL = re.compile(
    r"\b(?:i|i['’]m|i['’]ve|i['’]d|i['’]ll|me|my|we|we['’]re|we['’]ll|our|us|you|you['’]re|you['’]ll|your|u|ya|"
    r"he|he['’]s|she|she['’]s|his|her|it|it['’]s|its)\b"
    r"|\b(?:this|that|these|those|there|which|what|something|everything|anything|nothing)\W*$",
    re.I,
)
_ZH_PERSONAL = re.compile(r"[我你您咱他她它]|这个|那个|人家")
_EPISTEMIC = re.compile(
    r"\bmust (?:be|feel|know|think|mean|say|admit|confess)\b(?!\s+\w+ed\b)"
    r"|\bmust(?:['’]ve| have)\b|\ba must\b|\b(?:don['’]t|doesn['’]t|didn['’]t|won['’]t) (?:cost|require|"
    r"demand)",
    re.I,
)
_FILLER = frozenset(
    {
        "really",
        "just",
        "nope",
        "yeah",
        "yes",
        "well",
        "oh",
        "so",
        "also",
        "plus",
        "still",
        "honestly",
        "totally",
        "definitely",
        "sometimes",
        "usually",
        "probably",
        "maybe",
        "seriously",
        "sure",
        "but",
        "and",
        "then",
        "now",
        "even",
        "though",
        "ok",
        "okay",
        "wow",
        "haha",
        "lol",
        "hey",
        "man",
    }
)
_CHATTY = re.compile(
    r"\b(?:wait|believe|imagine|help it|stop (?:thinking|smiling)|thank|tell)\b"
    r"|[哦呀啊吧啦嘛哈呢]\W*$|[!！~～]\W*$"
)


def _generic_subject(sentence: str, cue: re.Match[str], names: Sequence[str]) -> bool:
    head = sentence[: cue.start()]  # the subject stands in front; so does "I should have warned you, …"
    if _EN_PERSONAL.search(head) or _ZH_PERSONAL.search(head):
        return False
    words = [w for w in re.findall(r"[a-z]{3,}", head.lower()) if w not in _FILLER]
    if not words and len(re.findall(r"[\u4e00-\u9fff]", head)) < 2:
        return False  # "Never saw this coming.", "Really can't beat that": no subject, a remark
    lowered = head.lower()
    return not any(name.lower() in lowered for name in names if name)


def _weak_rule(sentence: str, names: Sequence[str]) -> bool:
    if _EPISTEMIC.search(sentence) or _CHATTY.search(sentence):
        return False
    for pattern in (_EN_WEAK, _ZH_WEAK):
        for cue in pattern.finditer(sentence):
            if cue.group().lower().startswith(("cost", "require", "demand", "take")) and re.search(
                r"\d|\$|dollars?|bucks?|euros?|pounds?|yuan|元|块", sentence, re.I
            ):
                continue  # a price, not a law of the world
            if _generic_subject(sentence, cue, names):
                return True
    return False


def _strong_rule(sentence: str) -> bool:
    return STRONG.search(sentence) is not None or _NO_THING.search(_narration_free(sentence)) is not None


def _narration_free(sentence: str) -> str:
    return sentence.strip(" *\"'“”‘’「」『』()（）")


def _names_rule(sentence: str) -> bool:
    """ "…the first law of the marsh: magic costs life force." — a rule named and stated."""
    noun = RULE_NOUN.search(sentence)
    colon = max(sentence.find(":"), sentence.find("："))
    return noun is not None and colon > noun.start() and len(sentence) - colon > 8


def is_rule(sentence: str, names: Sequence[str] = ()) -> bool:
    """Whether one sentence states a rule of the world (``names``: characters of the chat, who
    as a subject make a sentence about someone, not a rule)."""
    if is_question(sentence):
        return False
    return _strong_rule(sentence) or _names_rule(sentence) or _weak_rule(sentence, names)


_TAG = re.compile(r"[,，;；]\s*[^,，;；]{1,12}[?？]\W*$")


def rule_text(sentence: str) -> str:
    """The rule as said, without narration marks or a question tagged on ("宿舍十一点门禁，你住哪栋？")."""
    return squeeze(_TAG.sub("", _narration_free(sentence)))


def rules_in(sentences: Sequence[str], names: Sequence[str] = ()) -> list[tuple[int, str]]:
    """(position, rule text) for the rules among a message's sentences. A short sentence that
    names a rule without stating it joins the sentence after it when that one is rule-like."""
    out: list[tuple[int, str]] = []
    taken: set[int] = set()
    for n, sentence in enumerate(sentences):
        if n in taken:
            continue
        if is_rule(sentence, names):
            out.append((n, rule_text(sentence)))
            continue
        if RULE_NOUN.search(sentence) and not is_question(sentence) and n + 1 < len(sentences):
            following = sentences[n + 1]
            if not is_question(following) and (
                _strong_rule(following)
                or _weak_rule(following, names)
                or _NO_THING.search(_narration_free(following))
            ):
                out.append((n, rule_text(f"{_narration_free(sentence)} {following}")))
                taken.add(n + 1)
    return out


def overrides_fact(sentence: str) -> bool:
    """A prohibition, a sanction or a named rule is a rule even with a fact cue in it
    ("记住，陈教授的课迟到三次直接挂科" is not a thing to remember about someone)."""
    return _strong_rule(sentence) or _names_rule(sentence) or RULE_NOUN.search(sentence) is not None
