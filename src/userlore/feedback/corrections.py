"""Conservative detection of explicit corrections of what the assistant understood about the user.

Seed 000: "你记错了我的偏好" or "I never said that about me" mark the previous
selected-understanding trace as not helpful before the correction turn is planned; generic task
feedback ("the command failed", "this code doesn't compile") must not. The detector is
deliberately narrow:

- *Strong* phrases are about the user by construction: "that's not my timezone", "you've got my
  name wrong", "that's not true about me", "那不是我的时区", "你搞错了我的偏好".
- *Weak* phrases ("I never said that", "you misremembered", "你记错了", "我没说过这个") count only
  when the same turn also refers to the user: a named profile topic ("my timezone", "我的偏好"),
  "about me" / "关于我", or a concrete explicit statement ("我更喜欢详细解释"). So "你记错了，这个
  API 是 v2 的" (a fact about an API) is not an understanding correction.

A correction is *concrete* when it also says what is true now; those statements come from
:func:`userlore.extract.explicit.extract_statements`, plus one narrow correction-only frame for
"that's not my timezone any more, I'm in Berlin now" (a place, resolved to its IANA zone when the
topic is the timezone). Otherwise it is a pure *denial* and creates no replacement content.

Nothing here stores anything; the caller writes only a fixed reason code to traces.
"""

from __future__ import annotations

import functools
import re
import unicodedata
import zoneinfo
from dataclasses import dataclass, replace

from userlore.extract.corrective import is_corrective
from userlore.extract.explicit import Statement, extract_statements

__all__ = ["TOPICS", "Correction", "Topic", "detect_correction"]


@dataclass(frozen=True, slots=True)
class Topic:
    """A profile topic a correction can name, and the records it covers."""

    keys: frozenset[str] = frozenset()
    kinds: frozenset[str] = frozenset()
    key_prefixes: tuple[str, ...] = ()

    def covers(self, canonical_key: str | None, kind: str) -> bool:
        key = canonical_key or ""
        return (
            kind in self.kinds or key in self.keys or key.startswith(self.key_prefixes or ("\0",))
        )


_PLACE = frozenset({"identity/timezone", "identity/location"})
TOPICS: dict[str, Topic] = {
    "timezone": Topic(keys=_PLACE),
    "location": Topic(keys=_PLACE),
    "name": Topic(keys=frozenset({"identity/name"})),
    "pronouns": Topic(keys=frozenset({"identity/pronouns"})),
    "role": Topic(keys=frozenset({"identity/role"})),
    "employer": Topic(keys=frozenset({"identity/employer"})),
    "language": Topic(keys=frozenset({"style/language"}), key_prefixes=("tooling/lang",)),
    "preference": Topic(kinds=frozenset({"preference", "style"})),
    "tooling": Topic(kinds=frozenset({"tooling"})),
    "goal": Topic(kinds=frozenset({"goal"})),
    "format": Topic(keys=frozenset({"style/format"})),
    # A self-correction in ordinary speech ("actually, not X, Y") names no topic: it covers
    # only the records holding a key it states, which ``keys`` already selects.
    "stated": Topic(),
}
"""Topic code → the records it covers (by canonical key, key prefix or kind)."""

_TOPIC_EN: dict[str, str] = {
    "timezone": "timezone",
    "time zone": "timezone",
    "time-zone": "timezone",
    "location": "location",
    "city": "location",
    "hometown": "location",
    "home town": "location",
    "country": "location",
    "name": "name",
    "first name": "name",
    "last name": "name",
    "nickname": "name",
    "pronouns": "pronouns",
    "job": "role",
    "role": "role",
    "job title": "role",
    "occupation": "role",
    "profession": "role",
    "employer": "employer",
    "company": "employer",
    "language": "language",
    "preferred language": "language",
    "preference": "preference",
    "preferences": "preference",
    "style": "preference",
    "taste": "preference",
    "editor": "tooling",
    "ide": "tooling",
    "shell": "tooling",
    "package manager": "tooling",
    "tooling": "tooling",
    "goal": "goal",
    "goals": "goal",
    "format": "format",
    "formatting": "format",
}
_TOPIC_ZH: dict[str, str] = {
    "时区": "timezone",
    "位置": "location",
    "所在地": "location",
    "城市": "location",
    "居住地": "location",
    "住址": "location",
    "名字": "name",
    "姓名": "name",
    "称呼": "name",
    "代词": "pronouns",
    "职业": "role",
    "职位": "role",
    "岗位": "role",
    "公司": "employer",
    "单位": "employer",
    "雇主": "employer",
    "语言": "language",
    "偏好": "preference",
    "喜好": "preference",
    "习惯": "preference",
    "风格": "preference",
    "口味": "preference",
    "编辑器": "tooling",
    "工具": "tooling",
    "技术栈": "tooling",
    "目标": "goal",
    "格式": "format",
}


def _alt(words: dict[str, str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=lambda w: (-len(w), w)))


_EN = _alt(_TOPIC_EN)
_ZH = _alt(_TOPIC_ZH)
_END = r"(?=\s*(?:$|[.!?,;:)]))"
_ZH_END = r"(?=$|[,.!?;:，。！？；：]|关于我)"
_BE = r"(?:'?s|\s+is|\s+was)"
# A topic must end its noun phrase: "not my timezone any more", not "not my company's API".
_TOPIC_END = r"(?=\s*(?:$|[.!?,;:)\-]|any\s*more\b|now\b|either\b|at\s+all\b|though\b))"

_STRONG: tuple[re.Pattern[str], ...] = tuple(
    re.compile(p)
    for p in (
        # "that's not my timezone (any more)", "that is no longer my job", "this isn't my name"
        rf"\b(?:that|this|it)(?:{_BE}\s+(?:not|no\s+longer)|\s+(?:isn't|wasn't))\s+my\s+"
        rf"(?P<topic>{_EN})" + _TOPIC_END,
        # "you've got my name wrong", "you have my timezone mixed up"
        rf"\byou(?:'ve|\s+have)?\s+(?:got|gotten|have|remembered)\s+my\s+(?P<topic>{_EN})\s+"
        r"(?:wrong|mixed\s+up|confused)\b",
        rf"\byou\s+(?:mixed|got)\s+up\s+my\s+(?P<topic>{_EN})\b",
        # "my timezone is not what you think"
        rf"\bmy\s+(?P<topic>{_EN})\s+(?:is|was)(?:n't|\s+not)\s+what\s+you\b",
        # "that's not true about me", "that's outdated about me"
        rf"\b(?:that|this|it){_BE}\s+(?:not\s+(?:true|right|correct|accurate)|wrong|incorrect|"
        r"outdated|out\s+of\s+date|no\s+longer\s+true)\s+about\s+(?:me|myself)\b",
        # "what you remember about me is wrong"
        r"\b(?:what\s+you\s+(?:remember|know|have\s+saved|stored)|your\s+memory)\s+about\s+"
        r"(?:me|myself)\s+(?:is|was)\s+(?:wrong|incorrect|outdated|out\s+of\s+date|not\s+right)\b",
        # 你搞错了我的偏好 / 你记混了我的名字
        rf"你(?:又|好像|可能)?(?:搞|弄|记|想|理解|听)(?:错|混)了?我的(?P<topic>{_ZH})",
        # 那不是我的时区 / 这已经不是我的工作了
        rf"(?:这|那)(?:个)?(?:已经|早就|并|根本)?不(?:再)?是我的(?P<topic>{_ZH})",
        # 我的时区已经不是这个了 / 我的偏好变了
        rf"我的(?P<topic>{_ZH})(?:已经|早就)?(?:不是这个|不是那个|不是这样|变了|改了)",
        # 关于我的记忆不对
        r"关于我的(?:记忆|信息|资料|偏好|情况)(?:是)?(?:不对|错的?|有误|过时)",
    )
)

_WEAK: tuple[re.Pattern[str], ...] = tuple(
    re.compile(p)
    for p in (
        # "I never said that (about me)", "I didn't tell you that" - but not "I never said the..."
        r"\bi\s+(?:have\s+)?(?:never|didn't|did\s+not)\s+(?:said|say|told\s+you|tell\s+you|"
        r"mentioned|mention)\s+(?:that|this|so|anything\s+like\s+that)(?:\s+about\s+(?:me|myself))?"
        + _END,
        # "you misremembered", "you remembered that wrong"
        r"\byou(?:'ve|\s+have)?\s+(?:mis-?remember(?:ed|s)?|remember(?:ed)?\s+(?:that|this|it)\s+"
        r"wrong(?:ly)?)\b",
        r"\b(?:your\s+memory|what\s+you\s+remember)\s+(?:is|was)\s+(?:wrong|incorrect|outdated)\b",
        # 你记错了 / 你是不是记错了 / 你记得不对
        r"你(?:是不是|好像|可能|又)?记错了?",
        r"你(?:的)?记(?:得|忆)(?:不对|有误|错了)",
        # 我从没说过这个 / 我没这么说过 / 我不是这么说的
        r"我(?:从来|根本|压根)?(?:没有?|从未|未曾|从没有?)(?:说过|讲过|提过|告诉过你)(?:这|那)"
        r"(?:个|种|样|些)?(?:话|事)?(?:吧|啊|呀)?" + _ZH_END,
        r"我(?:从来|根本)?没(?:有)?(?:这么|这样|那么|那样)说过",
        r"我不是(?:这么|这样|那么|那样)说的",
    )
)

_SELF_REF = re.compile(r"\babout\s+(?:me|myself)\b|关于我")
_MY_TOPIC = re.compile(rf"\bmy\s+(?P<en>{_EN})\b(?!')|我的(?P<zh>{_ZH})")

# Correction-only frame: "..., I'm in Berlin now" / "我现在在柏林" (the extractor reads "I'm in X"
# only as a timezone abbreviation, so a place given as the new truth needs this).
_IN_PLACE_EN = re.compile(
    r"(?i:\b(?:i'?m|i\s+am)\s+(?:now\s+|currently\s+|actually\s+)?(?:in|based\s+in|living\s+in|"
    r"located\s+in)\s+)(?P<place>[A-Z][\w'.-]*(?:[ -][A-Z][\w'.-]*){0,2})"
)
_IN_PLACE_ZH = re.compile(
    r"我(?:现在|目前|如今|已经)(?:人)?在(?P<place>[\u4e00-\u9fff]{2,6}?)(?:了|呢|啦)?"
    r"(?=$|[,.!?;，。！？；])"
)
_CLAUSE_BREAK = re.compile(r"[,.;!?，。；！？\n]")

_TRANSLATE = {0x2018: "'", 0x2019: "'", 0x201C: '"', 0x201D: '"', 0x00A0: " ", 0x3000: " "}


@dataclass(frozen=True, slots=True)
class Correction:
    """One detected correction.

    Attributes:
        form: ``concrete`` (it also states the new truth) or ``denial`` (it only denies).
        topic: Topic code from :data:`TOPICS` the correction names, if any.
        statements: Explicit statements of the new truth (empty for a denial).
    """

    form: str
    topic: str | None
    statements: tuple[Statement, ...]

    @property
    def keys(self) -> frozenset[str]:
        return frozenset(s.canonical_key for s in self.statements)


def detect_correction(text: str) -> Correction | None:
    """A :class:`Correction` when ``text`` explicitly corrects the user's understanding, else
    ``None`` (generic task feedback, questions about code, everything else)."""
    if not isinstance(text, str) or not text.strip():
        return None
    norm = unicodedata.normalize("NFKC", text).translate(_TRANSLATE)
    low = norm.lower()
    topic: str | None = None
    strong = False
    for pattern in _STRONG:
        m = pattern.search(low)
        if m:
            strong = True
            topic = _topic(m.groupdict().get("topic"))
            break
    weak = strong or any(p.search(low) for p in _WEAK)
    if not weak:
        return _self_correction(norm)
    if topic is None:
        mine = _MY_TOPIC.search(low)
        if mine:
            topic = _topic(mine.group("en") or mine.group("zh"))
    statements = tuple(extract_statements(norm, role="user"))
    if not statements and topic in ("timezone", "location"):
        statements = _place_statement(norm, topic)
    if not (strong or topic or statements or _SELF_REF.search(low)):
        return None  # a weak phrase with nothing tying it to the user: not conservative enough
    return Correction("concrete" if statements else "denial", topic, statements)


# What a self-correction may restate: facts and preferences about the user, not a task request.
_ABOUT_USER = frozenset({"style", "identity", "tooling", "preference", "veto", "channel"})


def _self_correction(norm: str) -> Correction | None:
    """ "actually, not X, Y", "no, I meant ...", "scratch that", "不是X，是Y", "我说错了…",
    "更正一下…": a correction only when it also states something about the user, and then only
    of the records holding a key it states (topic ``stated``)."""
    if not is_corrective(norm):
        return None
    statements = tuple(s for s in extract_statements(norm) if s.kind in _ABOUT_USER)
    if not statements:
        return None  # "actually, the test fails", "不对，重新写": task talk, not about the user
    return Correction("concrete", "stated", statements)


def _topic(word: str | None) -> str | None:
    if not word:
        return None
    word = re.sub(r"\s+", " ", word)
    return _TOPIC_EN.get(word) or _TOPIC_ZH.get(word)


def _place_statement(text: str, topic: str) -> tuple[Statement, ...]:
    m = _IN_PLACE_EN.search(text)
    zh = None if m else _IN_PLACE_ZH.search(text)
    match = m or zh
    if match is None:
        return ()
    place = match.group("place").strip()
    zone = _iana_zone(place) if m and topic == "timezone" else None
    if zone:
        probe = f"My timezone is {zone}"
    elif m:
        probe = f"I live in {place}"
    else:
        probe = f"我住在{place}"
    found = [s for s in extract_statements(probe, role="user") if s.canonical_key in _PLACE]
    if not found:
        return ()
    start, end = _clause(text, match.start())
    # The receipt is the user's own clause, never the probe sentence.
    return (
        replace(
            found[0],
            content=text[start:end].strip(),
            span=(start, end),
            confidence=min(found[0].confidence, 0.8),
        ),
    )


def _clause(text: str, at: int) -> tuple[int, int]:
    start = 0
    for b in _CLAUSE_BREAK.finditer(text, 0, at):
        start = b.end()
    nxt = _CLAUSE_BREAK.search(text, at)
    return start, nxt.start() if nxt else len(text)


@functools.cache
def _zones_by_city() -> dict[str, str]:
    try:
        zones = zoneinfo.available_timezones()
    except Exception:  # pragma: no cover - a host without tz data simply resolves nothing
        return {}
    out: dict[str, str] = {}
    for zone in sorted(zones):
        head, _, city = zone.rpartition("/")
        if head.split("/")[0] in {
            "Africa",
            "America",
            "Asia",
            "Atlantic",
            "Australia",
            "Europe",
            "Indian",
            "Pacific",
        }:
            out.setdefault(city.lower(), zone)
    return out


def _iana_zone(place: str) -> str | None:
    return _zones_by_city().get(re.sub(r"[\s-]+", "_", place.strip()).lower())
