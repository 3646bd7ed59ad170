"""Identity and channel matchers: a clause to identity/* and channel/* hits."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from userlore.extract.clauses import _Clause
from userlore.extract.cues import _ADV, _I_BE, _I_SUBJ, _ME_ZH
from userlore.extract.lexical import _CONF_EXPLICIT, _CONF_WEAK, Rx, _rx
from userlore.extract.values import (
    _channel_in,
    _name_value,
    _pronouns_value,
    _proper_prefix,
    _role_values,
    _timezone_value,
    _zh_place_or_org,
    _zh_role,
)

# --------------------------------------------------------------------------------------------
# Matchers. Each takes a clause and returns hits; tables drive them.
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Hit:
    key: str
    value: str | None
    confidence: float = _CONF_EXPLICIT


_Extractor = Callable[[str], list[tuple[str, str]]]


def _one(key: str, fn: Callable[[str], str | None]) -> _Extractor:
    def extract(rest: str) -> list[tuple[str, str]]:
        value = fn(rest)
        return [(key, value)] if value else []

    return extract


_BARE_NAME_RE = _rx(
    r"\s*(?P<name>[^\W\d_][\w'\-]*(?:\s+[^\W\d_][\w'\-]*)?)\s*(?P<tail>$|[,(].*$|\s+(?:and|"
    r"from|here|btw|by\s+the\s+way|nice\s+to)\b.*$)"
)
_APPOSITIVE_ROLE = _rx(r"\s*,\s*(?:an?|the)\s+(?P<rest>.+)$")


def _name_then_role(rest: str) -> list[tuple[str, str]]:
    """ "I'm Sam" (followed by nothing, a comma, "and"...), optionally "Sam, a data engineer"."""
    m = _BARE_NAME_RE.match(rest)
    if not m:
        return []
    name = _name_value(m.group("name"), strict=True)
    if not name or " ".join(name.split()) != " ".join(m.group("name").split()):
        return []
    out = [("identity/name", name)]
    appositive = _APPOSITIVE_ROLE.match(m.group("tail"))
    if appositive:
        out.extend(_role_values(appositive.group("rest"), vocab=True))
    return out


# Identity: (frame regex ending where the value starts, value extractor). Order matters: the
# first extractor that yields a value for a key wins within a clause.
_IDENTITY: tuple[tuple[Rx, _Extractor], ...] = (
    (_rx(r"^my\s+(?:first\s+|full\s+|real\s+)?name(?:'s|\s+is)\s+"),
     _one("identity/name", lambda r: _name_value(r, strict=False))),
    (_rx(r"^(?:i'?m|i\s+am)\s+(?:called|named)\s+"),
     _one("identity/name", lambda r: _name_value(r, strict=False))),
    (_rx(r"^i\s+go\s+by\s+(?!(?:she|he|they|xe|ze)\s*/)"),
     _one("identity/name", lambda r: _name_value(r, strict=True, whole=True))),
    (_rx(r"^(?:you\s+(?:can|may|should|could)\s+)?(?:please\s+)?(?:just\s+)?(?:call|address)\s+"
         r"me(?:\s+as)?\s+"),
     _one("identity/name", lambda r: _name_value(r, strict=False, whole=True))),
    (_rx(r"^my\s+time\s*zone\s+is\s+"),
     _one("identity/timezone", lambda r: _timezone_value(r, loose=True))),
    (_rx(r"^" + _I_BE + r"(?:in|on|using|based\s+in)\s+(?:the\s+)?"),
     _one("identity/timezone", lambda r: _timezone_value(r, loose=False))),
    (_rx(r"^my\s+(?:local\s+)?time\s+is\s+"),
     _one("identity/timezone", lambda r: _timezone_value(r, loose=False))),
    (_rx(r"^my\s+(?:preferred\s+)?pronouns\s+are\s+"), _one("identity/pronouns", _pronouns_value)),
    (_rx(r"^i\s+(?:use|go\s+by)\s+(?=(?:she|he|they|xe|ze|ey|it)\s*/)"),
     _one("identity/pronouns", _pronouns_value)),
    (_rx(r"^" + _I_SUBJ + r"(?:work|am\s+working|'m\s+working)\s+as\s+(?:an?\s+|the\s+)?"),
     lambda r: _role_values(r, vocab=False)),
    (_rx(r"^my\s+(?:current\s+)?(?:job|role|position|job\s+title|title|occupation|profession|"
         r"day\s+job)\s+is\s+(?:an?\s+|the\s+)?"),
     lambda r: _role_values(r, vocab=False)),
    (_rx(r"^(?:" + _I_BE + r"|i(?:'ve|\s+have)\s+been\s+|as\s+)(?:an?|the)\s+"),
     lambda r: _role_values(r, vocab=True)),
    (_rx(r"^(?:" + _I_SUBJ + r"(?:work|am\s+working|'m\s+working)|i(?:'ve|\s+have)\s+been\s+"
         r"working)\s+(?:remotely\s+|full[\s\-]time\s+|"
         r"part[\s\-]time\s+)?(?:at|for)\s+"),
     _one("identity/employer", _proper_prefix)),
    (_rx(r"^" + _I_BE + r"employed\s+(?:at|by)\s+"), _one("identity/employer", _proper_prefix)),
    (_rx(r"^my\s+(?:company|employer)\s+is\s+"), _one("identity/employer", _proper_prefix)),
    (_rx(r"^(?:" + _I_SUBJ + r"(?:live|reside)|i(?:'ve|\s+have)\s+" + _ADV + r"(?:lived|been\s+"
         r"living)|" + _I_BE + r"(?:living|residing))\s+in\s+(?=\S)"),
     _one("identity/location", lambda r: _proper_prefix(r, allow_comma=True))),
    (_rx(r"^" + _I_BE + r"(?:based|located|living|settled)\s+(?:in|out\s+of)\s+"),
     _one("identity/location", lambda r: _proper_prefix(r, allow_comma=True))),
    (_rx(r"^i(?:'ve|\s+have)?\s+" + _ADV + r"(?:moved|relocated)\s+to\s+"),
     _one("identity/location", lambda r: _proper_prefix(r, allow_comma=True))),
    (_rx(r"^my\s+home\s+is\s+in\s+"),
     _one("identity/location", lambda r: _proper_prefix(r, allow_comma=True))),
    (_rx(r"^(?:i'?m|i\s+am)\s+(?=[^\W\d_])"), _name_then_role),
    # Chinese
    (_rx(r"^我(?:的)?(?:名字|姓名|英文名(?:字)?|中文名(?:字)?)(?:是|叫)\s*"),
     _one("identity/name", lambda r: _name_value(r, strict=False))),
    (_rx(r"^我叫(?!了)\s*"), _one("identity/name", lambda r: _name_value(r, strict=False))),
    (_rx(r"^(?:你|您)?(?:可以|就|以后|请)?(?:叫|称呼)我(?:为)?\s*"),
     _one("identity/name", lambda r: _name_value(r, strict=False))),
    (_rx(r"^我是\s*(?=[A-Z])", 0), _name_then_role),
    (_rx(r"^我(?:的)?时区是\s*"),
     _one("identity/timezone", lambda r: _timezone_value(r, loose=True))),
    (_rx(r"^我(?:这边|这里)?(?:在|是|用|处于)\s*(?=东|西|零时区|北京时间|utc|gmt)"),
     _one("identity/timezone", lambda r: _timezone_value(r, loose=True))),
    (_rx(r"^我(?:的)?(?:人称)?代词是\s*"), _one("identity/pronouns", _pronouns_value)),
    (_rx(r"^" + _ME_ZH + r"是(?:一名|一个|一位|个|名)?\s*"), _zh_role),
    (_rx(r"^我(?:的)?(?:工作|职业|职位)是\s*"), _zh_role),
    (_rx(r"^" + _ME_ZH + r"在\s*"), _zh_place_or_org),
    (_rx(r"^" + _ME_ZH + r"(?:住在|住|生活在|居住在|定居在|定居于|定居|现居|常住|搬到了?|搬去了?|"
         r"移居到?)\s*"),
     _one("identity/location", lambda r: _proper_prefix(r))),
    (_rx(r"^我(?:的)?(?:公司|单位|雇主)是\s*"), _one("identity/employer", _proper_prefix)),
)  # fmt: skip


def _match_identity(c: _Clause) -> list[_Hit]:
    if c.past_or_negated:
        return []
    hits: dict[str, _Hit] = {}
    for frame, extract in _IDENTITY:
        m = frame.match(c.body)
        if not m:
            continue
        for key, value in extract(c.body[m.end() :]):
            if key not in hits:
                conf = _CONF_WEAK if extract is _name_then_role else _CONF_EXPLICIT
                hits[key] = _Hit(key, value, conf)
    return list(hits.values())


# (frame, client): client frames name the device the user talks to the assistant from.
_CHANNEL_FRAMES: tuple[tuple[Rx, bool], ...] = (
    (_rx(r"^(?:you\s+can\s+|please\s+|feel\s+free\s+to\s+|best\s+to\s+|always\s+|just\s+)*"
        r"(?:reach|contact|ping|message|dm|text|email|e-mail|call|find|notify|page|hit)\s+me\s+"
        r"(?:up\s+)?(?:on|via|through|over|by|at|in|using)\s+"), False),
    (_rx(r"^(?:the\s+)?best\s+way\s+to\s+(?:reach|contact|get\s+(?:a\s+)?hold\s+of)\s+me\s+is\s+"
        r"(?:via\s+|on\s+|by\s+|through\s+|over\s+)?"), False),
    (_rx(r"^(?:" + _I_SUBJ + r"|" + _I_BE + r")(?:use|using|chat\s+(?:with\s+you\s+)?(?:from|on|"
        r"via|through)|talk\s+to\s+you\s+(?:from|on|via)|access\s+you\s+(?:from|on|via|through)|"
        r"use\s+you\s+(?:from|on|via|through))\s+(?:the\s+|my\s+|your\s+)?(?=(?:desktop|mobile|phone|web|browser|ios|android|"
        r"iphone|ipad|laptop|computer)(?:\s+(?:app|application|client|version))?\b)"), True),
    (_rx(r"^" + _I_BE + r"(?:usually\s+|mostly\s+)?on\s+(?:my\s+)?(?=(?:phone|mobile|desktop|"
        r"laptop|computer)\b)"), True),
    (_rx(r"^" + _I_SUBJ + r"prefer\s+(?:to\s+be\s+contacted\s+|being\s+contacted\s+|contact\s+|"
        r"communication\s+|messages\s+)?(?:via|on|by|through|over)\s+"), False),
    (_rx(r"^(?:有事)?(?:请|可以|就|麻烦|最好)?(?:用|通过|在|走)\s*(?=\S{1,8}?\s*(?:上)?(?:联系|找|"
        r"通知|告诉|发消息给|发给|留言给|私信)我)"), False),
    (_rx(r"^(?:有事)?(?:请|可以|就)?(?:发|打)(?=(?:邮件|短信|电话|微信)"
         r"(?:给|联系|通知)我)"), False),
    (_rx(r"^" + _ME_ZH + r"(?:用|在|使用)\s*(?=(?:手机|电脑|桌面端|桌面版|客户端|网页版|"
        r"网页端|浏览器|移动端|手机端|手机版|电脑端)\s*(?:上)?"
        r"(?:跟你|和你|聊天|用你|找你|使用|$))"), True),
)  # fmt: skip
_CLIENT_OF = {"phone": "mobile-app", "sms": "mobile-app"}


def _match_channel(c: _Clause) -> list[_Hit]:
    for frame, client in _CHANNEL_FRAMES:
        m = frame.match(c.body)
        if m:
            value = _channel_in(c.body[m.end() : m.end() + 40])
            value = _CLIENT_OF.get(value, value) if client and value else value
            if value:
                return [_Hit("channel/preference", value)]
    return []
