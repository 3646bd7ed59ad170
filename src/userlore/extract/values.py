"""Values out of a clause: slugs, cleaned objects, names, time zones, roles, pronouns."""

from __future__ import annotations

import re
import unicodedata

from userlore.extract.lexical import _CJK, _CJK_CLASS, _SLUG_CHARS, _alt, _rx, _words
from userlore.extract.vocab.formats import FORMAT_INDEX
from userlore.extract.vocab.identity import (
    _NOT_NAMES,
    _ROLE_HEADS,
    _ROLE_HEADS_ZH,
    _TZ_ABBREVIATIONS,
    _TZ_NAMED,
    _TZ_RE,
    _ZH_NOT_PLACE,
    _ZH_NUMERALS,
    _ZH_PLACE_SUFFIX,
    _ZH_PLACES,
    _ZH_TZ_RE,
)
from userlore.extract.vocab.tools import (
    _AMBIGUOUS_TOOLS,
    _CHANNEL_INDEX,
    _CHANNEL_RE,
    _TOOL_INDEX,
    _TOOL_RE,
    _surface_key,
)

# --------------------------------------------------------------------------------------------
# Value helpers
# --------------------------------------------------------------------------------------------

_SLUG_STOP = frozenset({"a", "an", "the", "some", "to"})
_SPACE_NEAR_CJK = re.compile(rf"(?<=[{_CJK_CLASS}])\s+|\s+(?=[{_CJK_CLASS}])")
_NON_WORD = re.compile(r"[\W_]+")
_ASCII_WORD = re.compile(r"[a-z0-9]+")
_LATIN_START = re.compile(r"[A-Za-z]")
_LETTER = re.compile(r"[^\W\d_]")
_LEADING_ARTICLE = _rx(r"(?:the|a|an|my)\s+")


def _slug(phrase: str) -> str:
    """``preference/<slug>``: lowercase ASCII words joined by ``_``; CJK text is kept as is."""
    phrase = phrase.strip()
    if _CJK.search(phrase):
        compact = _SPACE_NEAR_CJK.sub("", phrase.lower())
        return _NON_WORD.sub("_", compact).strip("_")[:_SLUG_CHARS].strip("_")
    lowered = phrase.lower().replace("c++", "cpp").replace("c#", "csharp").replace("f#", "fsharp")
    ascii_text = unicodedata.normalize("NFKD", lowered).encode("ascii", "ignore").decode()
    words = [w for w in _ASCII_WORD.findall(ascii_text) if w not in _SLUG_STOP]
    slug = ""
    for word in words:
        candidate = f"{slug}_{word}" if slug else word
        if len(candidate) > _SLUG_CHARS:
            break
        slug = candidate
    if not slug and not words:
        slug = _NON_WORD.sub("_", lowered).strip("_")[:_SLUG_CHARS].strip("_")
    return slug or (words[0][:_SLUG_CHARS] if words else "")


_FORMAT_FILLER = _rx(r"^(?:(?:a|an|the|some|plain|simple|clean|nice|proper|short|just)\s+)+|的$")


def _format_value(phrase: str) -> str | None:
    """Canonical ``style/format`` value of a format phrase; an unlisted format keeps its slug."""
    surface = " ".join(phrase.lower().split()).strip(" .,!")
    if surface in FORMAT_INDEX:
        return FORMAT_INDEX[surface]
    bare = _FORMAT_FILLER.sub("", surface).strip()
    if bare in FORMAT_INDEX:
        return FORMAT_INDEX[bare]
    return _slug(bare) or None


_OBJ_END_EN = _rx(
    r"\s*,?\s*\b(?:because|since|but|so\s+that|so|when|whenever|while|though|although|"
    r"as\s+long\s+as|unless|if|except|especially|particularly|which|who|whereas|rather\s+than|"
    r"instead\s+of|more\s+than|than|versus|vs\.?|and\s+(?:i|i'm|my|we|you)|not)\b"
    r"|\s+-\s|\s*[;:()\[\]\"!?]|\s*\.(?:\s|$)"
)
_OBJ_END_PREFER = _rx(r"\s+(?:over|to)\s+(?!\w+ing\b)")
_OBJ_TRAIL_EN = _rx(
    r"(?:\s+(?:a\s+lot|lots|so\s+much|very\s+much|too\s+much|too|as\s+well|also|though|really|"
    r"a\s+bunch|the\s+most|most|these\s+days|lately|nowadays|in\s+general|generally|anyway|"
    r"honestly|actually|now|right\s+now|currently|please|thanks|thank\s+you|ok|okay|btw|lol|"
    r"haha|anymore|in\s+particular|personally|a\s+ton|more|ever|again|at\s+all|either|"
    r"at\s+work|at\s+home|daily|every\s+day|for\s+work|forever|(?:last|this|next)\s+(?:year|"
    r"month|week|summer|winter|spring|fall)|for\s+(?:years|ages|a\s+long\s+time|a\s+while)))+"
    r"[\s.,!]*$"
)
_OBJ_REJECT_EN = _words(
    "it that this these those them him her you your yours what how when where why who which "
    "whatever everything anything nothing something everyone anyone someone one ones so too "
    "there here if not no"
)
# "I hate to say it", "I love the way you..." are idioms about the moment, not preferences.
_OBJ_IDIOM_EN = _rx(
    r"^(?:the\s+way|to\s+(?:say|admit|ask|bother|interrupt|break|tell|be\s+that|do\s+this|"
    r"complain|disappoint|hear|see\s+(?:you|that|it))\b)"
)
_OBJ_END_ZH = re.compile(
    r"因为|但是|不过|可是|所以|而且|并且|而不是|而非|胜过|多过|超过|的时候|[，,;；：:()（）]"
)
_OBJ_TRAIL_ZH = re.compile(r"[了的啦呀哦呢吧啊嘛哈呗么~\s!.。]+$")
_OBJ_REJECT_ZH = re.compile(r"^(?:这|那|它|你|他|她|什么|啥|哪|谁|自己)")


def _clean_object(
    raw: str, *, prefer: bool = False, max_words: int = 12, lenient: bool = False
) -> str | None:
    """Trim an object phrase to the thing itself, or ``None`` when it is not a concrete thing.

    ``lenient`` keeps a phrase led by "anything", "everything" or a demonstrative when it says
    what ("anything involving animal products"); ``max_words`` bounds the phrase.
    """
    if _CJK.search(raw[:2]) or (_CJK.search(raw) and not _LATIN_START.match(raw)):
        obj = _OBJ_END_ZH.split(raw, maxsplit=1)[0]
        obj = _OBJ_TRAIL_ZH.sub("", obj).strip()
        if not obj or len(obj) > 20 or _OBJ_REJECT_ZH.match(obj):
            return None
        return obj
    raw = _OBJ_TRAIL_ZH.sub("", raw) if _CJK.search(raw) else raw
    m = _OBJ_END_EN.search(raw, 1)
    obj = raw[: m.start()] if m else raw
    if prefer:
        m = _OBJ_END_PREFER.search(obj, 1)
        obj = obj[: m.start()] if m else obj
    obj = _OBJ_TRAIL_EN.sub("", obj).strip(" .,!'\"")
    words = obj.split()
    if not words or len(words) > max_words or not _LETTER.search(obj):
        return None
    vague = (
        lenient
        and len(words) >= 3
        and words[0].lower() in ("anything", "everything", "those", "these", "that", "this")
    )
    if (words[0].lower() in _OBJ_REJECT_EN and not vague) or _OBJ_IDIOM_EN.match(obj):
        return None
    return obj


def _tools_in(obj: str, *, first_only: bool = False) -> list[tuple[str, str]]:
    """Known tools named in an object phrase, as ``(facet key, canonical value)``."""
    found: list[tuple[str, str]] = []
    lead = len(obj) - len(obj.lstrip())
    lead += len(m.group()) if (m := _LEADING_ARTICLE.match(obj, lead)) else 0
    for m in _TOOL_RE.finditer(obj):
        surface = m.group()
        key = _surface_key(surface)
        if key in _AMBIGUOUS_TOOLS and not (surface[0].isupper() or m.start() == lead):
            continue
        hit = _TOOL_INDEX.get(key)
        if hit and hit not in found:
            found.append(hit)
        if first_only:
            break
    return found


def _channel_in(text: str) -> str | None:
    m = _CHANNEL_RE.search(text)
    return _CHANNEL_INDEX.get(_surface_key(m.group())) if m else None


_PROPER_CONNECTORS = _words("of and & de la del am upon on")
_ZH_PROPER = re.compile(rf"[{_CJK_CLASS}A-Za-z0-9·]{{1,12}}")
_TOKENS = re.compile(r"[^\s,]+|,")


def _proper_prefix(rest: str, *, allow_comma: bool = False) -> str | None:
    """The leading proper noun of ``rest`` ("Berlin", "Bank of America", "Portland, Oregon")."""
    rest = rest.strip()
    if _CJK.match(rest):
        m = _ZH_PROPER.match(rest)
        value = _OBJ_TRAIL_ZH.sub("", m.group()) if m else ""
        return value or None
    tokens = _TOKENS.findall(rest)
    out: list[str] = []
    for i, tok in enumerate(tokens):
        word = tok.strip(".!?;:'\"()")
        if tok == ",":
            if allow_comma and out and i + 1 < len(tokens) and tokens[i + 1][:1].isupper():
                out[-1] += ","
                continue
            break
        connector = word.lower() in _PROPER_CONNECTORS and bool(out)
        leading_the = i == 0 and word.lower() == "the"
        if connector or leading_the or word[:1].isupper() or (word[:1].isdigit() and out):
            out.append(word)
        else:
            break
        if tok != word:
            break
    while out and out[-1].lower() in _PROPER_CONNECTORS:
        out.pop()
    if out and out[0].lower() == "the" and len(out) == 1:
        return None
    if len(out) > 1 and out[0].lower() == "the":
        out.pop(0)  # "the University of Toronto" -> "University of Toronto"
    value = " ".join(out).rstrip(",")
    return value or None


_NAME_RE = _rx(
    r"(?P<title>(?:dr|mr|mrs|ms|mx|prof)\.?\s+)?"
    r"(?P<name>[^\W\d_][\w'\-]*(?:\s+[^\W\d_][\w'\-]*){0,2})"
)
_NAME_TAIL_OK = _rx(
    r"\s*(?:$|[,.!;:(]|(?:please|instead|from\s+now\s+on|going\s+forward|thanks|and|but|btw|"
    r"for\s+short)\b)"
)
_ZH_NAME_TAIL_OK = re.compile(r"\s*(?:就好|就行|就可以|吧|哦|呀|即可|$)")
_ZH_NAME = re.compile(rf"[{_CJK_CLASS}]{{1,4}}")
_NAME_WORD = re.compile(r"[^\W\d_][\w'\-]*")


def _name_value(rest: str, *, strict: bool, whole: bool = False) -> str | None:
    """A personal name at the start of ``rest``.

    ``strict`` requires a capital letter (after "I'm", "I go by"); ``whole`` requires the name
    to end the clause, so "call me back later" is not a name.
    """
    rest = rest.strip()
    if _CJK.match(rest):
        m = _ZH_NAME.match(rest)
        if not m or len(m.group()) < 2 or m.group()[-1] in "了的吗呢吧啊呀" or m.group() == "外卖":
            return None  # one character is a pronoun or a slip ("叫我我"), not a name
        return m.group() if _ZH_NAME_TAIL_OK.fullmatch(rest[m.end() :]) else None
    m = _NAME_RE.match(rest)
    if not m:
        return None
    words = list(_NAME_WORD.finditer(m.group("name")))
    first = words[0].group()
    if first.lower() in _NOT_NAMES or (
        not m.group("title") and first.lower().endswith(("ing", "ed"))
    ):
        return None
    if strict and not first[0].isupper():
        return None
    end = words[0].end()
    for word in words[1:]:
        if not word.group()[0].isupper() or word.group().lower() in _NOT_NAMES:
            break
        end = word.end()
    if whole and not _NAME_TAIL_OK.match(rest[m.start("name") + end :]):
        return None
    name = m.group("name")[:end]
    name = name.title() if name.islower() else name
    title = m.group("title")
    return f"{title.strip()} {name}" if title else name


def _timezone_value(rest: str, *, loose: bool) -> str | None:
    rest = rest.strip()
    zm = _ZH_TZ_RE.match(rest)
    if zm:
        if zm.group("zero"):
            return "UTC"
        if zm.group("bj"):
            return "UTC+8"
        sign = "+" if zm.group("dir") == "东" else "-"
        return f"UTC{sign}{_ZH_NUMERALS[zm.group('num')]}"
    m = _TZ_RE.match(rest)
    if not m:
        return None
    if m.group("offset"):
        offset = _SPACES.sub("", m.group("offset")).replace("\u2212", "-")
        return "UTC" + offset[3:]
    if m.group("iana"):
        return m.group("iana")
    if m.group("named"):
        return _TZ_NAMED[_SPACES.sub(" ", m.group("named").lower())]
    abbr = m.group("abbr")
    if abbr.isupper() and abbr in _TZ_ABBREVIATIONS and len(abbr) > 2:
        return abbr  # two letters only after "my timezone is": "I'm in CT" is Connecticut
    if loose and abbr.upper() in _TZ_ABBREVIATIONS:
        return abbr.upper()
    return None


_ROLE_RE = _rx(
    r"(?P<role>(?:[a-z][\w\-/]*\s+){0,3}?(?:" + _alt(_ROLE_HEADS) + r"))s?\b(?P<tail>.*)$"
)
_ROLE_TAIL_ORG = _rx(r"^\s*(?:at|for|with)\s+(?P<org>.+)$")
_ROLE_TAIL_PLACE = _rx(r"\b(?:based|living|located)\s+in\s+(?P<place>.+)$|^\s*in\s+(?P<city>.+)$")
_ROLE_ANY_END = _rx(
    r"\s+(?:at|for|with|in|on|and|but|since|because|based|where|who)\b|\s*[,;(]|\s*$"
)
_ROLE_NOT = _words("fan lover bit little lot huge big")


def _role_values(rest: str, *, vocab: bool) -> list[tuple[str, str]]:
    """``identity/role`` (+ employer / location from an "at X" / "based in Y" tail)."""
    rest = rest.strip()
    out: list[tuple[str, str]] = []
    if vocab:
        m = _ROLE_RE.match(rest)
        if not m or any(w.lower() in _ROLE_NOT for w in m.group("role").split()):
            return []
        role, tail = m.group("role"), m.group("tail")
    else:
        end = _ROLE_ANY_END.search(rest, 1)
        role, tail = (rest[: end.start()], rest[end.start() :]) if end else (rest, "")
        if not role or len(role.split()) > 5 or role.split()[0].lower() in _OBJ_REJECT_EN:
            return []
    out.append(("identity/role", role.strip().lower()))
    org = _ROLE_TAIL_ORG.match(tail)
    if org and "student" not in role.lower():
        value = _proper_prefix(org.group("org"))
        if value:
            out.append(("identity/employer", value))
    place = _ROLE_TAIL_PLACE.search(tail)
    if place:
        value = _proper_prefix(place.group("place") or place.group("city"), allow_comma=True)
        if value and not _timezone_value(value, loose=False):
            out.append(("identity/location", value))
    return out


_ZH_ROLE_RE = re.compile(
    r"(?P<role>[" + _CJK_CLASS + r"A-Za-z ]{0,8}?(?:" + _alt(_ROLE_HEADS_ZH) + r"|CEO|CTO))"
    r"(?:[的了。!]*$|[，,])"
)
_ZH_WHERE_RE = re.compile(
    r"(?P<x>[" + _CJK_CLASS + r"A-Za-z0-9&·.\- ]{1,20}?)(?P<verb>工作|上班|任职|实习|生活|定居|"
    r"读书|上学)"
)
_ZH_INDEFINITE = re.compile(r"^(?:一家|一个)")


def _zh_role(rest: str) -> list[tuple[str, str]]:
    m = _ZH_ROLE_RE.match(rest.strip())
    return [("identity/role", m.group("role").strip())] if m else []


def _zh_place_or_org(rest: str) -> list[tuple[str, str]]:
    """ "我在X工作": X is a location when it looks like a place, else the employer."""
    m = _ZH_WHERE_RE.match(rest.strip())
    if not m:
        return []
    x = m.group("x").strip()
    if not x or x in _ZH_NOT_PLACE or _ZH_INDEFINITE.match(x):
        return []  # "我在家工作" (at home), "我在一家公司工作" (some company)
    is_place = (
        x in _ZH_PLACES
        or bool(_ZH_PLACE_SUFFIX.search(x))
        or any(x.startswith(p) for p in _ZH_PLACES)
    )
    if is_place:
        return [("identity/location", x)]
    if m.group("verb") in {"工作", "上班", "任职", "实习"}:
        return [("identity/employer", x)]
    return []


_PRONOUNS_RE = _rx(
    r"(?:she|he|they|xe|ze|ey|it)\s*/\s*(?:her|him|them|hers|his|theirs|xem|xir|zir|hir|em|its)"
    r"(?:\s*/\s*[a-z]+)?|她|他|ta"
)
_SPACES = re.compile(r"\s+")


def _pronouns_value(rest: str) -> str | None:
    m = _PRONOUNS_RE.match(rest.strip())
    return _SPACES.sub("", m.group()).lower() if m else None
