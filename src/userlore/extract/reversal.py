"""Reversals and cessations: the user takes back something that was true of them.

"I'm not vegetarian anymore", "I no longer work at Google", "I stopped using Emacs", "I quit my
job at Stripe", "I moved out of Berlin", "I switched from npm to pnpm", "I used to live in
Berlin", "我不再用vim了", "我已经不吃素了", "我搬离了北京", "我从Java换成了Go", "我戒了咖啡",
"我以前住在北京". The explicit matchers read such a sentence as nothing (a negated or past fact
breaks their first-person anchor), so without this module the old record stays live for ever.

:func:`find_reversals` reports, per sentence, *what* was given up (the object phrase) with the
user's sentence as the receipt. Every form is anchored on the user as subject ("I", "we", "我",
"我们"), so "my sister moved out of Berlin" or "the build stopped working" is nothing. Which
record the object names is decided by :func:`naming` against the records the write path
holds: every content word of the object must appear in the record (its content, key or value),
so "I'm no longer confused about yarn workspaces" never ends "I use yarn", and "I stopped by the
office in Berlin" never ends "I live in Berlin". A switch with no old value named ("我换成了
pnpm", "I switched to pnpm") ends whatever the turn's new statement replaces under its key.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from userlore.extract.explicit import extract_statements
from userlore.extract.lexical import _CJK, _CONF_WEAK, Rx, _normalize, _rx, _words
from userlore.extract.statement import Statement
from userlore.extract.vocab.opposites import OPPOSITIONS

__all__ = ["Reversal", "ended_value", "find_reversals", "naming", "new_state"]


@dataclass(frozen=True, slots=True)
class Reversal:
    """One sentence in which the user gives something up.

    Attributes:
        form: Which form matched (``no_longer``, ``not_anymore``, ``stopped``, ``moved_out``,
            ``switched``, ``used_to``, ``buzai``, ``banli``, ``huancheng``, ``jie``,
            ``yiqian``): for tests and traces, never for behaviour.
        obj: What was given up, as the user put it ("drinking coffee", "北京"); empty for a
            switch that names only the new value.
        content: The user's sentence: the receipt of the record that states the new state.
        span: ``(start, end)`` of ``content`` in the input text.
        new: ``(start, end)`` of the new state's phrase in the input text, when named.
        resumes: The sentence names the state the user takes up again ("I eat meat again",
            "I'm back on coffee", "我又开始喝咖啡了"); ``obj`` is that state, and what ends is
            the record that *avoids* it (see :func:`naming`).
        opposes: For a resumption, the class (:data:`~userlore.extract.vocab.opposites.
            OPPOSITIONS`) whose avoidances the state ends, as ``(class, key)`` pairs.
    """

    form: str
    obj: str
    content: str
    span: tuple[int, int]
    new: tuple[int, int] | None = None
    resumes: bool = False
    opposes: tuple[tuple[str, str], ...] = ()


# What a switch moves to ("…to pnpm", "换成了Go"): read as a tool the user now uses.
_EN_TO = _rx(
    r"\bto\s+(?P<y>[^,;:.!?\n]{1,40}?)\s*(?=[,;:.!?\n]|$|\s+(?:now|instead|last|this|in)\b)"
)
_ZH_TO = re.compile(
    r"(?:换成|改成|改用|转到|切换到)了?(?P<y>[^，。,.;；!！?？\s]{1,20}?)了?(?=[，。,.;；!！?？\s]|$)"
)
# A following clause with its subject dropped ("我搬离了上海，现在住在杭州"): the user again.
_ZH_NEXT = re.compile(r"[，,]\s*(?P<y>(?:现在|目前|如今)[^，。,.;；!！?？\s]{1,20})")
# "I use pnpm, not npm" / "我用pnpm，不用npm": the option the user rejects beside the one used.
_EN_NOT = _rx(r",\s*(?:and\s+|but\s+)?(?:not|never)\s+(?P<x>[^,;:.!?\-\n]{1,30}?)\s*(?=[.!?;\n]|$)")
_ZH_NOT = re.compile(
    r"[，,]\s*(?:而)?(?:不用|不要用|不使用|从不用)(?P<x>[^，。,.;；!！?？\s]{1,20}?)\s*(?=[。.;；!！?？\n]|$)"
)


_SUBJ = r"(?:^|(?<=[\s,;:(\-]))(?:i|we)"
_HAVE = r"(?:'ve|\s+have|\s+had|'d)?"
_BE = r"(?:'m|\s+am|'re|\s+are|\s+was|\s+were)"
_DONT = r"(?:\s+(?:do|does|did)\s*n[o']?t|\s+don't|\s+didn't|\s+do\s+not)"
_ANYMORE = r"(?:any\s?more|any\s+longer)"
# An object phrase runs to the clause's end; trailing time words are trimmed later.
_OBJ = r"(?P<x>[^,;:.!?\n]{1,60}?)"
_END = r"\s*(?=[,;:.!?\n]|$)"
_EN_FORMS: tuple[tuple[str, Rx], ...] = (
    ("not_anymore", _rx(_SUBJ + _BE + r"\s+not\s+" + _OBJ + r"\s+" + _ANYMORE + _END)),
    ("not_anymore", _rx(_SUBJ + _DONT + r"\s+" + _OBJ + r"\s+" + _ANYMORE + _END)),
    ("no_longer", _rx(_SUBJ + r"(?:" + _BE + r"|" + _HAVE + r")?\s+no\s+longer\s+" + _OBJ + _END)),
    (
        "stopped",
        _rx(
            _SUBJ + _HAVE + r"\s+(?:stopped|quit|quitted|gave\s+up(?:\s+on)?|given\s+up(?:\s+on)?|"
            r"left|ditched|dropped|abandoned|kicked|said\s+goodbye\s+to)\s+" + _OBJ + _END
        ),
    ),
    (
        "moved_out",
        _rx(
            _SUBJ
            + _HAVE
            + r"\s+(?:moved|relocated)\s+(?:out\s+of|away\s+from|from)\s+"
            + _OBJ
            + _END
        ),
    ),
    (
        "switched",
        _rx(
            _SUBJ + _HAVE + r"\s+(?:switched|moved|migrated|changed|gone|went)\s+(?:over\s+)?"
            r"from\s+(?P<x>[^,;:.!?\n]{1,40}?)\s+to\b"
        ),
    ),
    ("switched", _rx(_SUBJ + _HAVE + r"\s+(?:switched|migrated)\s+(?:over\s+)?to\b(?P<x>)")),
    ("used_to", _rx(_SUBJ + r"\s+used\s+to\s+" + _OBJ + _END)),
    # Named cessations in other frames: "I'm done with Emacs", "Sushi and I are done", "No
    # more coffee for me", "Windows is behind me now".
    ("done_with", _rx(_SUBJ + _BE + r"\s+(?:done|through|finished)\s+with\s+" + _OBJ + _END)),
    ("off", _rx(_SUBJ + _BE + r"\s+(?:now\s+)?off\s+(?!to\b)" + _OBJ + _END)),
    (
        "done_with",
        _rx(
            r"(?:^|(?<=[,;:]))\s*" + r"(?P<x>[^,;:.!?\n]{1,40}?)\s+and\s+(?:i|we)\s+(?:are|'re)\s+"
            r"(?:done|through|over)" + _END
        ),
    ),
    ("no_more", _rx(r"(?:^|(?<=[,;:]))\s*no\s+more\s+" + _OBJ + r"\s+for\s+(?:me|us)" + _END)),
    (
        "behind_me",
        _rx(
            r"(?:^|(?<=[,;:]))\s*(?P<x>[^,;:.!?\n]{1,40}?)\s+(?:is|are|'s)\s+(?:all\s+|now\s+)?"
            r"(?:behind\s+(?:me|us)|in\s+the\s+past\s+for\s+(?:me|us)|over\s+for\s+(?:me|us))"
            r"(?:\s+now)?" + _END
        ),
    ),
)
# A one-off, not a standing change: "I'm done with Emacs for today", "No more coffee for me,
# thanks" (a refill declined).
_EVENT = _rx(
    r"\b(?:today|tonight|for\s+now|for\s+the\s+day|this\s+(?:morning|afternoon|evening)|"
    r"thanks|thank\s+you)\b"
)
_ONE_OFF_FORMS = frozenset({"done_with", "no_more", "behind_me", "off"})

# Resumptions: the sentence names the state the user takes up again, in words the record
# need not share ("I eat meat again" after "I'm vegetarian"). Adverbs and auxiliaries may sit
# between the subject and the verb ("I've now finally gone back to vim").
_AUX = (
    r"(?:'m|'ve|'re|\s+am|\s+are|\s+have|\s+has|\s+do|\s+now|\s+finally|\s+actually|"
    r"\s+just|\s+officially|\s+really|\s+also)*"
)
_EN_RESUME: tuple[tuple[str, Rx], ...] = (
    (
        "moved_back",
        _rx(
            _SUBJ + _AUX + r"\s+(?:moved|moving|relocated)\s+back\s+(?:to|into|in)\s+" + _OBJ + _END
        ),
    ),
    (
        "back_to",
        _rx(
            _SUBJ + _AUX + r"(?:\s+(?:gone|went|go|going|switched|switching|changed|migrated|come|"
            r"came|got|getting|been))?\s+back\s+(?:on|to|into)\s+" + _OBJ + _END
        ),
    ),
    (
        "started",
        _rx(
            _SUBJ + _AUX + r"\s+(?:started|starting|begun|began|resumed|restarted|took\s+up|"
            r"taken\s+up|picked\s+up|returned\s+to)\s+" + _OBJ + _END
        ),
    ),
    ("become", _rx(_SUBJ + _AUX + r"\s+(?:become|became|turned\s+into)\s+" + _OBJ + _END)),
    # "Sugar is back in my diet": the resumed thing is the subject, the user is "my".
    (
        "x_is_back",
        _rx(
            r"(?:^|(?<=[,;:]))\s*(?P<x>[^,;:.!?\n]{1,40}?)\s+(?:is|are|'s)\s+back\s+"
            r"(?:in|on|into)\s+(?:my|our)\s+(?:life|lives|diet|menu|routine|plate)" + _END
        ),
    ),
    ("again", _rx(_SUBJ + _AUX + r"\s+" + _OBJ + r"\s+(?:once\s+)?(?:again|once\s+more)\b")),
    (
        "these_days",
        _rx(
            _SUBJ + _AUX + r"\s+" + _OBJ + r"\s+(?:now|these\s+days|nowadays|lately|"
            r"at\s+the\s+moment)" + _END
        ),
    ),
)
# A resumption is a standing change: not one that is planned ("I'll eat meat again"), denied
# ("I don't eat meat again") or one event ("I ate meat again at the barbecue").
_NOT_YET = _rx(
    r"\b(?:will|would|might|may|could|should|going\s+to|want\s+to|wants\s+to|plan\s+to|"
    r"tomorrow|next\s+(?:week|month|year)|not|never|no)\b|'ll\b|n't\b"
)
_EVENT_VERBS = _words(
    """ate drank had used smoked tried went got did made took bought ordered was were forgot
    sat ran came saw"""
)
_RESUME_FILLER = _words(
    """again back now nowadays these days lately moment once more start started starting
    began begun resume resumed restarted took taken up picked returning returned lot lots bit
    little some much many plenty tons sadly finally officially also too bunch"""
)
# Qualifiers that say the object is *not* the class ("meat-free", "vegan cheese").
_NOT_CLASS = re.compile(r"free\b|\b(?:vegan|vegetarian|plant|meatless|fake|imitation|mock)\b")
# Chinese: the user (optionally after a time word: "去年我们…") then the form.
_ZH_SUBJ = (
    r"(?:^|(?<=[，。,.;；!！?？\s]))[^，。,.;；!！?？\s]{0,4}?"
    r"(?:我们|我)(?:已经|早就|早已|现在|都|也|刚刚|刚|最近|上个?月|上周|上星期|去年|今年|前年|"
    r"年初|年底|上半年|下半年)*"
)
_ZH_OBJ = r"(?P<x>[^，。,.;；!！?？\s]{1,20}?)"
_ZH_END = r"(?:了)?(?=[，。,.;；!！?？\s]|$)"
_ZH_FORMS: tuple[tuple[str, Rx], ...] = (
    (
        "buzai",
        re.compile(
            _ZH_SUBJ
            + r"(?:不再|再也不|不)(?:怎么|太|大|常|经常)?"
            + _ZH_OBJ
            + r"了"
            + r"(?=[，。,.;；!！?？\s]|$)"
        ),
    ),
    ("banli", re.compile(_ZH_SUBJ + r"(?:搬离|搬出|离开)(?:了)?" + _ZH_OBJ + _ZH_END)),
    ("huancheng", re.compile(_ZH_SUBJ + r"从" + _ZH_OBJ + r"(?:换成|改成|改用|转到|切换到)")),
    (
        "huancheng",
        re.compile(_ZH_SUBJ + r"(?:把[^，。,.;；!！?？\s]{1,8})?(?:换成|改用|切换到)了?(?P<x>)"),
    ),
    ("jie", re.compile(_ZH_SUBJ + r"戒(?:掉)?(?:了)?" + _ZH_OBJ + _ZH_END)),
    ("yiqian", re.compile(_ZH_SUBJ + r"(?:以前|过去|曾经)(?!不|没)" + _ZH_OBJ + _ZH_END)),
    # "我跟咖啡说再见了", "我告别了烟": a goodbye to what is given up.
    (
        "gaobie",
        re.compile(
            _ZH_SUBJ + r"(?:跟|和|与|向)" + _ZH_OBJ + r"(?:说)?(?:再见|拜拜|告别|分手)" + _ZH_END
        ),
    ),
    ("gaobie", re.compile(_ZH_SUBJ + r"告别了?" + _ZH_OBJ + _ZH_END)),
    # "可乐对我来说已经是过去式了": the thing given up is the subject.
    (
        "guoqu",
        re.compile(
            r"(?:^|(?<=[，。,.;；!！?？\s]))(?P<x>[^，。,.;；!！?？\s]{1,12}?)(?:对我们?(?:来说|而言))?"
            r"(?:已经|早就|早已)?(?:是|成了|成为)(?:过去式|过去)了?(?=[，。,.;；!！?？\s]|$)"
        ),
    ),
)
_ZH_LE = r"了(?=[，。,.;；!！?？\s]|$)"
# Resumptions (又…了, 重新用回, 开始…了, 现在…了): sentence-final 了 marks a change of state, so
# "我又吃了一块蛋糕" (one event, 了 after the verb) is not one.
_ZH_RESUME: tuple[tuple[str, Rx], ...] = (
    (
        "banhui",
        re.compile(_ZH_SUBJ + r"(?:又|重新|再次)?搬回(?:到)?了?" + _ZH_OBJ + _ZH_END),
    ),
    (
        "hui",
        re.compile(
            _ZH_SUBJ
            + r"(?:又|重新|再次)?(?:用回|换回|改回|切回|转回|回到|回归)(?:到)?了?"
            + _ZH_OBJ
            + _ZH_END
        ),
    ),
    (
        "you_le",
        re.compile(
            _ZH_SUBJ
            + r"(?:也|还)?(?:又|重新|再次|再度)(?:开始|恢复)?(?:能|可以)?"
            + _ZH_OBJ
            + _ZH_LE
        ),
    ),
    ("kaishi_le", re.compile(_ZH_SUBJ + r"(?:开始|恢复)" + _ZH_OBJ + _ZH_LE)),
    (
        "x_is_back",
        re.compile(
            r"(?:^|(?<=[，。,.;；!！?？\s]))(?P<x>[^，。,.;；!！?？\s]{1,12}?)(?:又|重新)?回到了?"
            r"我们?的(?:生活|饮食|日常)(?:中|里)?了?(?=[，。,.;；!！?？\s]|$)"
        ),
    ),
    (
        "xianzai_le",
        re.compile(
            r"(?:^|(?<=[，。,.;；!！?？\s]))(?:我们|我)(?:现在|如今|最近|这些天|这阵子)"
            r"(?:也|又|都|还)?(?:能|可以)?" + _ZH_OBJ + _ZH_LE
        ),
    ),
)
_ZH_NOT_YET = re.compile(r"明天|下周|下个月|明年|将要|打算|准备|想要|不|没")
# "I quit VS Code for Zed", "I left Google because…": what follows names no part of the object.
_TRAIL = _rx(r"\s+(?:for|because|since|after|when|and|but|so)\b.*$")
_TRAIL_RESUME = _rx(r"\s+(?:because|since|after|when|and|but|so)\b.*$")
# "We relocated from Sydney to Perth": the place after "to" is where the user lives now.
_MOVED_TO = _rx(r"\s+to\s+.*$")
_SENTENCE = re.compile(r"[^.!?;。！？；\n]+[.!?;。！？；]*")

# Words that carry no object of their own ("I stopped *using* Emacs", "my *job* at Stripe",
# "in the *spring*"): dropped before the object is matched against a record.
_EN_FILLER = _words(
    """a an the my our of at in on to for from into with by as be being been am is are was
    were use using used drink drinking eat eating live living work working job do doing have
    having go going like liking love loving enjoy enjoying prefer preferring into anymore
    longer now today yesterday last this next year years month months week weeks ago since
    spring summer autumn fall winter january february march april may june july august
    september october november december for good ever again completely entirely totally
    really actually already just all that it them days phase era habit habits"""
)
_ZH_LEAD = re.compile(r"^(?:在|用|使用|住在|住|喝|吃|做|当|是|去|开|也|都|还|玩|打|看|听|抽|吸)+")
_ZH_TAIL = re.compile(r"(?:工作|上班|了|的)+$")
_WORD = re.compile(r"[a-z0-9][a-z0-9+#.\-]*", re.IGNORECASE)


def find_reversals(text: str) -> list[Reversal]:
    """The reversals of one user turn, one per sentence and form, in order of position.

    A sentence is first read for a cessation (what the user gives up), then for a resumption
    (the state the user takes up again, :attr:`Reversal.resumes`).
    """
    norm = _normalize(text)
    out: list[Reversal] = []
    for sentence in _SENTENCE.finditer(norm):
        start, end = sentence.start(), sentence.end()
        body = norm[start:end]
        if "?" in body or "？" in body:
            continue  # a question takes nothing back
        lead = len(body) - len(body.lstrip())
        span = (start + lead, start + len(body.rstrip()))
        rev = _cessation(text, body, start, span) or _resumption(text, body, start, span)
        if rev is not None:
            out.append(rev)
    return out


def _cessation(text: str, body: str, start: int, span: tuple[int, int]) -> Reversal | None:
    zh = _CJK.search(body) is not None
    for form, pattern in _ZH_FORMS if zh else _EN_FORMS:
        m = pattern.search(body)
        if m is None:
            continue
        obj = _TRAIL.sub("", m.group("x")).strip()
        if form == "moved_out":
            obj = _MOVED_TO.sub("", obj)
        if _CJK.search(obj) is None and obj and not _content_words(obj):
            continue  # "I'm not sure anymore": nothing given up
        if form in _ONE_OFF_FORMS and _EVENT.search(body):
            continue  # "I'm done with Emacs for today": a one-off
        new = None
        to = (_ZH_TO if zh else _EN_TO).search(body, m.start())
        nxt = _ZH_NEXT.search(body, m.end()) if zh else None
        if form in ("switched", "huancheng", "moved_out") and to and to.start() < m.end():
            new = (start + to.start("y"), start + to.end("y"))
        elif nxt is not None:
            new = (start + nxt.start("y"), start + nxt.end("y"))
        return Reversal(form, obj, text[span[0] : span[1]], span, new)
    return None


def _resumption(text: str, body: str, start: int, span: tuple[int, int]) -> Reversal | None:
    zh = _CJK.search(body) is not None
    for form, pattern in _ZH_RESUME if zh else _EN_RESUME:
        m = pattern.search(body)
        if m is None:
            continue
        said = body[: m.end()]
        if (_ZH_NOT_YET if zh else _NOT_YET).search(said[m.start() :] if zh else said):
            continue  # planned, denied or not the user's own change
        # "I'm running for office again": for a resumption, "for …" is part of the object.
        obj = m.group("x") if zh else _TRAIL_RESUME.sub("", m.group("x")).strip()
        if not zh:
            first = obj.split()[0].lower() if obj.split() else ""
            if first in _EVENT_VERBS or (form in ("again", "these_days") and first.endswith("ed")):
                continue  # "I ate meat again at the barbecue": one event
        if not obj or "了" in obj:
            continue
        x0 = start + m.start("x")
        opposes = _opposes(obj)
        return Reversal(
            form, obj, text[span[0] : span[1]], span, (x0, x0 + len(obj)), True, opposes
        )
    return None


def _resumed_words(obj: str) -> list[str]:
    """The object's words without fillers, in order ("a lot of coffee" → ["coffee"])."""
    words = [w.lower() for w in _WORD.findall(obj)]
    return [w for w in words if w not in _EN_FILLER and w not in _RESUME_FILLER]


def _opposes(obj: str) -> tuple[tuple[str, str], ...]:
    """The ``(class, key)`` pairs whose avoidance the resumed ``obj`` ends (data:
    :data:`~userlore.extract.vocab.opposites.OPPOSITIONS`)."""
    if _CJK.search(obj):
        core = _zh_core(obj)
        hits = [o for o in OPPOSITIONS if any(core.endswith(t) for t in o.zh)]
    else:
        low = obj.lower()
        if _NOT_CLASS.search(low):
            return ()  # "meat-free burgers", "vegan cheese": not the class
        words = _resumed_words(obj)
        raw = {v.lower() for v in _WORD.findall(obj)} - _RESUME_FILLER
        hits = [
            o
            for o in OPPOSITIONS
            if (words and words[-1] in o.en)
            or (raw & o.bare and not (raw - o.bare - _EN_FILLER))  # "drinking again last year"
        ]
    return tuple((o.name, key) for o in hits for key in o.ends)


def _content_words(obj: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(obj)} - _EN_FILLER


def _zh_core(obj: str) -> str:
    core = _ZH_TAIL.sub("", _ZH_LEAD.sub("", obj))
    return core or obj


def naming(rev: Reversal, key: str, value: str | None, content: str) -> float:
    """How closely the reversal's object names this record: 0 when it does not name it.

    Every content word of the object must be in the record (its content, key or value; "VS
    Code" also names ``vscode``); a Chinese object names a record that holds its core ("吃素" →
    "素", "在谷歌工作" → "谷歌"). Above 0, the share of the record's own words the object
    covers: "I no longer work at Google" names "I work at Google" more closely than "I want a
    promotion at Google", and the write path ends only the closest.
    """
    if rev.resumes:
        return _resumed(rev, key, value)
    if not rev.obj:
        return 0.0
    hay = f"{content} {key.replace('/', ' ').replace('_', ' ')} {value or ''}".lower()
    obj = _zh_core(rev.obj) if _CJK.search(rev.obj) else rev.obj
    if _CJK.search(obj):
        return len(obj) / max(len(content), 1) if obj.lower() in hay else 0.0
    ordered = [w.lower() for w in _WORD.findall(obj) if w.lower() not in _EN_FILLER]
    if not ordered:
        return 0.0
    have = _content_words(hay)
    if not (set(ordered) <= have or "".join(ordered) in have):
        return 0.0
    return len(ordered) / max(len(_content_words(content)), 1)


def _avoids(value: str | None) -> bool:
    """Whether a record's value holds the user *off* something (what a resumption ends)."""
    v = (value or "").strip().lower()
    return v in ("avoid", "banned") or v.startswith("no longer ")


def _resumed(rev: Reversal, key: str, value: str | None) -> float:
    """How closely a resumption names a record that avoids what it resumes: 0 when not.

    Only an avoidance ends ("I quit coffee", "I'm vegetarian", a record already ended as "no
    longer …"); "I hate being late" is a taste, and "I'm late again" never ends it. The class
    data names it (``preference/meat`` for "I eat chicken now": 1.0), or the object's last word
    is the record's own subject ("I'm back on coffee" → ``preference/coffee``), matched
    against the key and value, never the content ("I'm vegetarian again" restates
    ``preference/meat = avoid``, it does not end it).
    """
    if not _avoids(value):
        return 0.0
    if any(k == key for _, k in rev.opposes):
        return 1.0
    tail = key.rsplit("/", 1)[-1].replace("_", " ").replace("-", " ")
    rest = (value or "").lower().removeprefix("no longer ")
    hay = f"{tail} {rest}".lower()
    if _CJK.search(rev.obj):
        # The avoided thing must be in what is resumed: "我又吃牛肉了" ends "我不吃肉", but
        # "我又吃肉了" never ends "我不吃牛肉".
        core = _zh_core(rev.obj).lower()
        said = [w for w in (tail.lower(), rest.strip()) if _CJK.search(w)]
        return 0.9 if core and any(w in core for w in said) else 0.0
    words = _resumed_words(rev.obj)
    have = _content_words(hay) | set(hay.split())
    if not words or words[-1] not in have:
        return 0.0
    return 0.9 * sum(w in have for w in words) / len(words)


def ended_value(value: str | None, *, resumed: bool) -> str | None:
    """The value of the record that ends ``value``: "no longer vim" for a cessation, and for a
    resumption of a record already ended ("no longer vim") the value itself ("vim")."""
    if not value:
        return None
    if resumed and value.lower().startswith("no longer "):
        return value[len("no longer ") :]
    return f"no longer {value}"


def new_state(text: str, reversals: list[Reversal], found: list[Statement]) -> list[Statement]:
    """Statements of the new state a reversal names, beyond those ``found`` in the turn.

    A switch's target is read as a tool ("switched from MySQL to Postgres" → ``postgres``
    under the key MySQL had); a Chinese clause whose subject was dropped after the reversal
    ("…，现在住在杭州") is read with the user as its subject. The option rejected beside the
    one used ("I use pnpm, not npm", "我用pnpm，不用npm") becomes a veto of its own.
    """
    taken = {s.canonical_key for s in found}
    out: list[Statement] = []
    for rev in reversals:
        if rev.new is None:
            continue
        s, e = rev.new
        phrase = text[s:e]
        zh = _CJK.search(rev.content) is not None
        if rev.resumes:
            picks = _resumed_statements(rev, phrase)
        elif rev.form == "moved_out":
            picks = [s for s in extract_statements(f"I live in {phrase}.") if s.kind == "identity"]
        elif rev.form in ("switched", "huancheng"):
            probe = f"我用{phrase}" if zh else f"I use {phrase}."
            old = _tool_key(rev.obj)
            picks = [
                st
                for st in extract_statements(probe)
                if st.kind == "tooling" and (old is None or st.canonical_key == old)
            ]
        else:
            picks = extract_statements(f"我{phrase}")
        for st in picks[:1]:
            if st.canonical_key not in taken:
                taken.add(st.canonical_key)
                # A resumption's receipt is the user's sentence ("I've gone back to vim.").
                out.append(_receipt(st, text, rev.span if rev.resumes else (s, e)))
    return out + _vetoes(text, found)


def _resumed_statements(rev: Reversal, phrase: str) -> list[Statement]:
    """A resumed tool or home as a statement ("gone back to vim" → ``tooling/editor = vim``,
    "搬回北京" → ``identity/location = 北京``); a diet or habit has no statement of its own
    (the record that ends it says so)."""
    zh = _CJK.search(phrase) is not None
    if rev.form in ("moved_back", "banhui"):
        probe = f"我住在{phrase}" if zh else f"I live in {phrase}."
        home = [s for s in extract_statements(probe) if s.canonical_key == "identity/location"]
        if home:
            return home  # else "We've moved back to npm": a tool
    bare = _zh_core(phrase) if zh else _LEAD_EN.sub("", phrase)
    probe = f"我用{bare}" if zh else f"I use {bare}."
    return [s for s in extract_statements(probe) if s.kind == "tooling"]


_LEAD_EN = _rx(r"^(?:(?:on|to|using|use|the|my|our)\s+)+")


def _tool_key(obj: str) -> str | None:
    if not obj:
        return None
    probe = f"我用{obj}" if _CJK.search(obj) else f"I use {obj}."
    return next((s.canonical_key for s in extract_statements(probe) if s.kind == "tooling"), None)


def _vetoes(text: str, found: list[Statement]) -> list[Statement]:
    norm = _normalize(text)
    out: list[Statement] = []
    for st in found:
        if st.kind != "tooling":
            continue
        rest = norm[st.span[0] :]
        sentence = _SENTENCE.match(rest)
        if sentence is None:
            continue
        body = sentence.group(0)
        m = (_ZH_NOT if _CJK.search(body) else _EN_NOT).search(body)
        if m is None or _tool_key(m.group("x").strip()) != st.canonical_key:
            continue  # "I use yarn, not for this repo": not an option of the same kind
        alt = m.group("x").strip()
        veto = next((v for v in extract_statements(f"Never use {alt}.") if v.kind == "veto"), None)
        if veto is not None:
            end = st.span[0] + len(body.rstrip())
            out.append(_receipt(veto, text, (st.span[0], end)))
    return out


def _receipt(st: Statement, text: str, span: tuple[int, int]) -> Statement:
    return Statement(
        kind=st.kind,
        canonical_key=st.canonical_key,
        value=st.value,
        content=text[span[0] : span[1]],
        memory_type=st.memory_type,
        confidence=min(st.confidence, _CONF_WEAK),
        importance=st.importance,
        durability=st.durability,
        span=span,
    )
