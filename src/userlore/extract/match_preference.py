"""Preference matchers: likes, dislikes, diets and long-form preferences."""

from __future__ import annotations

import re

from userlore.extract.clauses import _Clause
from userlore.extract.cues import _ADV, _I_BE, _I_SUBJ, _ME_ZH, _TASK_TOPIC
from userlore.extract.lexical import (
    _CONF_EXPLICIT,
    _CONF_PLAIN_DIRECTIVE,
    _CONF_STANDING,
    _CONF_WEAK,
    Rx,
    _alt,
    _rx,
)
from userlore.extract.match_identity import _Hit
from userlore.extract.match_style import _META_VERBS, _style_hits
from userlore.extract.values import _OBJ_END_PREFER, _clean_object, _slug, _tools_in
from userlore.extract.vocab.identity import _DIETS_EN
from userlore.extract.vocab.tools import _TOOL_RE

_PREF_EN: tuple[tuple[Rx, str], ...] = (
    (_rx(r"^" + _I_SUBJ + r"(?:hate|dislike|detest|loathe|despise|abhor|can'?t\s+stand|cannot\s+"
         r"stand|can\s+not\s+stand|can'?t\s+bear|cannot\s+bear|don'?t\s+(?:really\s+)?(?:like|"
         r"enjoy|care\s+for|love)|do\s+not\s+(?:really\s+)?(?:like|enjoy|care\s+for|love))\s+"),
     "dislike"),
    (_rx(r"^" + _I_BE + r"(?:not\s+(?:a\s+)?(?:big\s+|huge\s+)?fan\s+of|not\s+into|not\s+keen\s+on|"
         r"not\s+fond\s+of|sick\s+of|tired\s+of|fed\s+up\s+with)\s+"),
     "dislike"),
    (_rx(r"^" + _I_SUBJ + r"(?:avoid|don'?t\s+eat|do\s+not\s+eat|don'?t\s+drink|do\s+not\s+drink|"
         r"never\s+eat|never\s+drink|can'?t\s+eat|cannot\s+eat|can'?t\s+have|cannot\s+have|"
         r"stay\s+away\s+from|steer\s+clear\s+of|(?:have\s+|'ve\s+)?given\s+up|gave\s+up|"
         r"(?:have\s+|'ve\s+)?cut\s+out|quit)\s+(?!(?:my|our|his|her|their|the|this|that)\b)"),
     "avoid"),
    (_rx(r"^" + _I_BE + r"(?:allergic\s+to|intolerant\s+(?:to|of)|sensitive\s+to)\s+"), "avoid"),
    (_rx(r"^i(?:'?d|\s+would)\s+(?:much\s+)?rather\s+(?:not\s+(?:have|eat|drink|use|do|go\s+to)|"
         r"avoid|not)\s+"), "avoid"),
    (_rx(r"^i(?:'?d|\s+would)\s+(?:much\s+)?rather\s+(?:have|eat|drink|use|go\s+with)\s+"), "like"),
    (_rx(r"^i\s+have\s+an?\s+(?:\w+\s+)?(?:allergy|intolerance)\s+to\s+"), "avoid"),
    (_rx(r"^i(?:'ve|\s+have)\s+" + _ADV + r"(?:hated|disliked|never\s+liked|never\s+been\s+a\s+"
         r"fan\s+of)\s+"),
     "dislike"),
    (_rx(r"^i(?:'ve|\s+have)\s+" + _ADV + r"(?:loved|enjoyed|liked|adored|been\s+" + _ADV
         + r"(?:into|loving|enjoying|obsessed\s+with|(?:a\s+)?(?:big\s+|huge\s+)?fan\s+of|"
         r"passionate\s+about))\s+"),
     "like"),
    (_rx(r"^" + _I_SUBJ + r"(?:love|like|enjoy|adore|prefer|fancy|dig|appreciate|treasure|"
         r"cherish)\s+"),
     "like"),
    (_rx(r"^" + _I_BE + r"(?:a\s+)?(?:big\s+|huge\s+|massive\s+|great\s+)?(?:fan\s+of|lover\s+of|"
         r"into|passionate\s+about|crazy\s+about|obsessed\s+with|keen\s+on|fond\s+of|"
         r"partial\s+to)\s+"),
     "like"),
    (_rx(r"^my\s+(?:all[\s\-]time\s+)?(?:favou?rite|fave|preferred)\s+(?:[\w\-]+\s+){1,3}?"
         r"(?:is|are)\s+"),
     "like"),
)  # fmt: skip
_PREF_STYLE_ONLY_EN = _rx(
    r"^(?:i(?:'?d|\s+would)\s+(?:like|prefer|love|appreciate)|" + _I_SUBJ + r"(?:want|need|"
    r"expect|appreciate))\s+"
)
# "我想要段落形式", "我要的是编号列表": a Chinese want is a preference only when it names a style.
_PREF_STYLE_ONLY_ZH = _rx(r"^我(?:更|还是|只)?(?:想要|要|需要|希望|想)(?:的是|是)?(?:用|以)?")
_DIET_EN = _rx(
    r"^(?:" + _I_BE + r"|as\s+)(?:an?\s+|strictly\s+|fully\s+)?(?P<diet>" + _alt(_DIETS_EN) + r")\b"
)
_PREF_ZH: tuple[tuple[Rx, str], ...] = (
    (_rx(r"^我(?:最)?喜欢的[^，,是]{1,6}是\s*"), "like"),
    (_rx(r"^" + _ME_ZH + r"(?:不(?:太|怎么|是很|大)?喜欢|不爱|讨厌|厌恶|受不了|忍受不了|"
         r"反感|不感冒|最烦|烦|不习惯)(?:吃|喝|看|听|玩)?\s*"),
     "dislike"),
    (_rx(r"^" + _ME_ZH + r"(?:不吃|不喝|不碰|不能吃|不能喝|吃不了|喝不了|忌口|戒了|戒掉了|"
         r"在戒|不沾)\s*"),
     "avoid"),
    (_rx(r"^" + _ME_ZH + r"(?:更喜欢|最喜欢|喜欢|热爱|喜爱|偏爱|钟爱|偏好|爱|迷上了?|着迷于|"
         r"痴迷于?)(?:吃|喝|看|听|玩)?\s*"),
     "like"),
)  # fmt: skip
# Frames where the object comes before the keyword: "I have a peanut allergy", "我对花生过敏".
_PREF_OBJECT_FIRST: tuple[tuple[Rx, str], ...] = (
    (_rx(r"^i\s+have\s+an?\s+(?:(?:severe|mild|bad|serious|slight|real)\s+)?"
         r"(?P<obj>[\w\-]+(?:\s+(?:and\s+|or\s+)?[\w\-]+){0,3})\s+(?:allergy|allergies|"
         r"intolerance)\b"), "avoid"),
    (_rx(r"^" + _ME_ZH + r"对(?P<obj>[^，,]{1,12}?)(?:过敏|不耐受)"), "avoid"),
)  # fmt: skip
# Long-form preferences as people write them when the point matters: "I have a strong aversion
# to X", "I refuse to X", "I prefer not to X", "I only wear X", "I follow a strict X diet",
# "I find X boring", "I'm not interested in X". General verbs and nouns of stance, no topic
# vocabulary; the object may be a longer phrase, cut at its reason ("due to", ", as I...").
_CONSUME_VERBS = (
    r"(?:use|eat|drink|consume|wear|buy|purchase|shop(?:\s+at|\s+for)?|watch|read|"
    r"listen\s+to|play|attend|visit|go\s+(?:to|on|near)|fly(?:\s+with)?|drive|ride|take|book|"
    r"stay\s+(?:at|in)|travel(?:\s+by|\s+on|\s+with|\s+to)?|participate\s+in|engage\s+(?:in|with)|"
    r"support|touch|own|smoke|tolerate|handle|trust|dine(?:\s+at|\s+in)?|consider|rent|"
    r"hire|choose|join|follow|install|cook(?:\s+with)?|work\s+(?:with|for)|live\s+in|do)"
)
_STANCE_ADJ = r"(?:[\w\-]+\s+){0,3}?"
_PREF_LONG_EN: tuple[tuple[Rx, str], ...] = (
    (_rx(r"^i\s+(?:have|'ve\s+got|have\s+got|feel)\s+(?:an?\s+|some\s+)?" + _STANCE_ADJ
         + r"(?:fear|phobia|terror|dread|allergy|allergies|intolerance|sensitivity)\s+"
         r"(?:to|for|of|towards?|around)\s+"), "avoid"),
    (_rx(r"^i\s+(?:have|'ve\s+got|have\s+got|feel|hold)\s+(?:an?\s+|some\s+)?" + _STANCE_ADJ
         + r"(?:aversion|dislike|distaste|disdain|disgust|hatred|loathing|contempt|objection|"
         r"opposition|resistance|bias|stance|prejudice)\s+(?:to|for|of|against|towards?)\s+"),
     "dislike"),
    (_rx(r"^i\s+(?:have|'ve\s+got|have\s+got|feel|hold)\s+(?:an?\s+|some\s+)?" + _STANCE_ADJ
         + r"(?:preference|fondness|love|passion|affinity|appreciation|soft\s+spot|weakness|"
         r"enthusiasm|liking|penchant|taste)\s+(?:for|of|towards?)\s+"), "like"),
    (_rx(r"^i\s+have\s+(?:no|little|zero)\s+(?:real\s+)?(?:interest|desire|patience|"
         r"tolerance|use|appetite)\s+(?:in|for)\s+"), "dislike"),
    (_rx(r"^" + _I_SUBJ + r"(?:refuse\s+to|prefer\s+not\s+to|(?:would|'d)\s+(?:much\s+)?"
         r"rather\s+not|try\s+(?:not\s+to|to\s+avoid|to\s+stay\s+away\s+from)|abstain\s+from|"
         r"shun|boycott|avoid|stay\s+away\s+from|steer\s+clear\s+of|(?:won'?t|will\s+not|"
         r"would\s+never|will\s+never|never|don'?t|do\s+not|cannot|can'?t|can\s+not)\s+"
         r"(?:ever\s+|even\s+)?" + _CONSUME_VERBS + r")\s+"), "avoid"),
    (_rx(r"^(?:" + _I_SUBJ + r"|" + _I_BE + r")(?:will\s+|would\s+|can\s+)?(?:only|exclusively|"
         r"solely)\s+" + _ADV + r"(?:" + _CONSUME_VERBS + r"|want|like|enjoy|prefer|"
         r"(?:interested|comfortable)\s+(?:in|with))\s+"), "like"),
    (_rx(r"^" + _I_BE + r"(?:(?:very|extremely|quite|rather|deeply|fundamentally|ethically|"
         r"morally|completely|totally|not\s+at\s+all|really)\s+)*(?:afraid|scared|terrified|"
         r"frightened|fearful|wary)\s+of\s+"), "avoid"),
    (_rx(r"^" + _I_BE + r"(?:(?:very|extremely|quite|rather|deeply|fundamentally|ethically|"
         r"morally|completely|totally|really|strongly|firmly|vehemently)\s+)*(?:not\s+"
         r"(?:interested|comfortable)\s+(?:in|with|around)|uninterested\s+in|"
         r"uncomfortable\s+(?:with|around|in)|opposed\s+to|against|averse\s+to|"
         r"put\s+off\s+by|turned\s+off\s+by|repulsed\s+by|disgusted\s+by|bored\s+(?:by|with))"
         r"\s+"), "dislike"),
    (_rx(r"^" + _I_BE + r"(?:(?:very|really|deeply|truly|always|especially)\s+)*(?:an?\s+)?"
         r"(?:(?:strong|big|huge|passionate|firm|staunch|avid|committed)\s+)?(?:fascinated\s+"
         r"(?:by|with)|devoted\s+to|committed\s+to|dedicated\s+to|drawn\s+to|"
         r"(?:advocate|supporter|proponent|champion)\s+(?:of|for)|believer\s+in)\s+"), "like"),
    (_rx(r"^" + _I_SUBJ + r"(?:prioriti[sz]e|value|favou?r|seek\s+out|gravitate\s+towards?)\s+"),
     "like"),
)  # fmt: skip
_DIET_PHRASE_EN = _rx(
    r"^(?:" + _I_SUBJ + r"|" + _I_BE + r")(?:follow(?:ing)?|adher(?:e|ing)\s+to|stick(?:ing)?\s+"
    r"to|keep(?:ing)?\s+to|maintain(?:ing)?|observ(?:e|ing)|practi[cs](?:e|ing)|on|eat(?:ing)?|"
    r"committed\s+to|dedicated\s+to|prioriti[sz](?:e|ing)|liv(?:e|ing)|lead(?:ing)?)\s+"
    r"(?P<obj>(?:an?\s+|the\s+|my\s+)?(?:[\w\-]+\s+){0,6}?(?:diet|lifestyle|regimen|"
    r"eating\s+plan|meal\s+plan|way\s+of\s+eating))\b"
)
_FIND_EN = _rx(
    r"^" + _I_SUBJ + r"find\s+(?P<obj>.+?)\s+(?:to\s+be\s+)?(?:(?:very|extremely|really|too|"
    r"quite|so|incredibly|highly|rather|pretty|a\s+bit|somewhat|utterly|deeply|unbearably|"
    r"particularly|overly|generally|always)\s+)*(?:(?P<neg>boring|tedious|dull|distracting|"
    r"annoying|irritating|off-?putting|unpleasant|uncomfortable|overwhelming|confusing|"
    r"frustrating|stressful|exhausting|draining|repetitive|slow|overrated|pointless|useless|"
    r"ineffective|cluttered|disgusting|gross|unappealing|vapid|cheesy|tacky|intimidating|scary|"
    r"terrifying|unbearable|insufferable|tiresome|cringe(?:y|worthy)?)|(?P<pos>relaxing|calming|"
    r"soothing|enjoyable|fun|engaging|inspiring|fascinating|rewarding|energizing|comforting|"
    r"satisfying|delightful|appealing|captivating))\b(?P<rest>.*)$"
)
_PREF_OBJ_END = _rx(
    r",?\s+(?:as|since)\s+(?:i|i'm|i've|my|it|it's|they|they're|this|that|these|those|we|"
    r"there)\b|\s+due\s+to\b|\s+for\s+(?:\w+\s+){0,2}reasons\b|,?\s+regardless\s+of\b|"
    r",?\s+even\s+(?:if|though|when|in|for)\b|\s+(?:whenever|wherever|if|when)\s+possible\b|"
    r"\s+as\s+much\s+as\s+(?:i\s+can|possible)\b|,?\s+and\s+(?:i\s+)?"
    + _ADV
    + r"(?:prefer|would|will|won'?t|only|avoid|refuse|never|cannot|can'?t|don'?t|do\s+not|am|"
    r"'m|have|try|tend|love|like|enjoy|find|want|opt|choose|stick|go\s+for|vastly|much|greatly)"
    r"\b|,?\s+(?:so|but|because)\b|,\s+(?:like|such\s+as|including|e\.g\.)\s|[;:]|"
    r"\s+[-\u2014]\s"
)


_PREFER_VERB = _rx(r"^" + _I_SUBJ + r"prefer\s+")
# "As someone who follows a strict diet" says "I follow a strict diet".
_AS_SOMEONE_WHO = _rx(
    r"^as\s+(?:someone|somebody|a\s+person|one|an?\s+[\w\-]+(?:\s+[\w\-]+)?)\s+who\s+"
    r"(?P<adv>(?:\w+ly\s+|also\s+|always\s+|still\s+|tends?\s+to\s+)*)(?P<verb>[a-z]+)\b"
)


def _first_person(body: str) -> str:
    """Rewrite "as someone who prefers X" as "I prefer X" (third person to first)."""
    m = _AS_SOMEONE_WHO.match(body)
    if not m:
        return body
    verb = m.group("verb").lower()
    if verb in ("is", "has", "was"):
        verb = {"is": "am", "has": "have", "was": "was"}[verb]
    elif verb.endswith("ies"):
        verb = verb[:-3] + "y"
    elif verb.endswith(("sses", "shes", "ches", "xes", "oes")):
        verb = verb[:-2]
    elif verb.endswith("s") and not verb.endswith("ss"):
        verb = verb[:-1]
    adv = re.sub(r"\btends\b", "tend", m.group("adv"))
    return f"I {adv}{verb}{body[m.end() :]}"


def _long_object(raw: str, *, prefer: bool = False) -> str | None:
    """The object of a long-form frame: cut at its reason or second clause, up to 20 words."""
    m = _PREF_OBJ_END.search(raw, 1)
    if prefer:
        m = _OBJ_END_PREFER.search(raw, 1) or m
    return _clean_object(raw[: m.start()] if m else raw, max_words=20, lenient=True)


def _long_preference_hits(c: _Clause, body: str) -> list[_Hit] | None:
    """Long-form frames; ``None`` when none applies (so the short frames are tried)."""
    m = _DIET_PHRASE_EN.match(body)
    if m:
        obj = _clean_object(m.group("obj"), max_words=20)
        return [_Hit(f"preference/{_slug(obj)}", "like")] if obj else []
    m = _FIND_EN.match(body)
    if m:
        obj = m.group("obj")
        rest = m.group("rest") or ""
        if obj.lower() in ("it", "them", "that") and re.match(r"\s+to\s+\w", rest):
            obj = rest.strip()[3:]
        found = _long_object(obj)
        polarity = "dislike" if m.group("neg") else "like"
        return [_Hit(f"preference/{_slug(found)}", polarity)] if found else []
    if c.durability == "temporary":
        return None  # "I can't go to the party tomorrow" is a plan, not a preference
    for frame, polarity in _PREF_LONG_EN:
        m = frame.match(body)
        if not m:
            continue
        rest = body[m.end() :]
        styles = _style_hits(rest, directive=False, flip=polarity != "like", conf=_CONF_EXPLICIT)
        if styles:
            return styles
        obj = _long_object(rest)
        if not obj:
            return []
        tools = _tools_in(obj, first_only=True)
        if tools and _TOOL_RE.fullmatch(obj.strip()):
            if polarity == "like":
                return [_Hit(key, value) for key, value in tools]
            return [_Hit(f"preference/{tools[0][1]}", polarity)]
        return [_Hit(f"preference/{_slug(obj)}", polarity)]
    return None


_LIST_SPLIT = _rx(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+|、|和|以及|还有")
_ZH_DIET = _rx(r"^" + _ME_ZH + r"(?:吃素|是素食(?:主义)?者|是吃素的|只吃素|乳糖不耐(?:受)?)")


def _preference_hits(c: _Clause) -> list[_Hit]:
    """``preference/<slug>`` like|dislike|avoid, or a style/tooling facet when the object is one."""
    body = c.body if c.zh else _first_person(c.body)
    m = _DIET_EN.match(body)
    if m:
        return [_Hit(f"preference/{_DIETS_EN[m.group('diet').lower()]}", "avoid")]
    m = _ZH_DIET.match(body)
    if m:
        return [_Hit("preference/lactose" if "乳糖" in m.group() else "preference/meat", "avoid")]
    for frame, polarity in _PREF_OBJECT_FIRST:
        m = frame.match(body)
        if m:
            obj = _clean_object(m.group("obj"))
            return [_Hit(f"preference/{_slug(obj)}", polarity)] if obj else []
    if not c.zh:
        long_hits = _long_preference_hits(c, body)
        if long_hits is not None:
            return long_hits
    m = _PREF_STYLE_ONLY_ZH.match(body) if c.zh else _PREF_STYLE_ONLY_EN.match(body)
    if m:
        return _style_hits(body[m.end() :], directive=False, flip=False, conf=_CONF_WEAK)
    for frame, polarity in (*_PREF_EN, *_PREF_ZH):
        m = frame.match(body)
        if not m:
            continue
        rest = body[m.end() :]
        styles = _style_hits(rest, directive=False, flip=polarity != "like", conf=_CONF_EXPLICIT)
        if styles:
            return styles
        obj = _clean_object(rest, prefer=True)
        if not obj and (polarity != "like" or _PREFER_VERB.match(body)):
            obj = _long_object(rest, prefer=True)  # "I strongly dislike X that ..., as I ..."
        if not obj:
            return []
        tools = _tools_in(obj, first_only=True)
        if tools and polarity == "like" and _TOOL_RE.fullmatch(obj.strip()):
            return [_Hit(key, value) for key, value in tools]
        return [_Hit(f"preference/{slug}", polarity) for slug in _list_slugs(obj)]
    return []


def _list_slugs(obj: str) -> list[str]:
    """One slug per item of an enumeration ("hiking, biking and swimming"), else one slug.

    Only a comma or "、" marks a list: "mac and cheese" stays one thing.
    """
    parts = _LIST_SPLIT.split(obj) if ("," in obj or "、" in obj) else [obj]
    if len(parts) > 1 and all(0 < len(p.split()) <= 4 for p in parts):
        items = [item for p in parts if (item := _clean_object(p))]
        return [slug for item in items if (slug := _slug(item))]
    slug = _slug(obj)
    return [slug] if slug else []


def _match_preference(c: _Clause) -> list[_Hit]:
    if c.past_or_negated:
        return []
    return _preference_hits(c)


def _match_style(c: _Clause, directive: bool, verb: str) -> list[_Hit]:
    if not directive:
        return []
    if not c.standing and (c.one_off or _TASK_TOPIC.search(c.body)):
        return []
    if not c.standing and not c.zh and verb not in _META_VERBS:
        return []
    conf = _CONF_STANDING if c.standing else _CONF_PLAIN_DIRECTIVE
    return _style_hits(c.body, directive=True, flip=False, conf=conf)
