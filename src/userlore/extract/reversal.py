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
from userlore.extract.lexical import _CJK, _CONF_WEAK, _normalize, _rx, _words
from userlore.extract.statement import Statement

__all__ = ["Reversal", "find_reversals", "naming", "new_state"]


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
    """

    form: str
    obj: str
    content: str
    span: tuple[int, int]
    new: tuple[int, int] | None = None


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
_EN_FORMS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("not_anymore", _rx(_SUBJ + _BE + r"\s+not\s+" + _OBJ + r"\s+" + _ANYMORE + _END)),
    ("not_anymore", _rx(_SUBJ + _DONT + r"\s+" + _OBJ + r"\s+" + _ANYMORE + _END)),
    ("no_longer", _rx(_SUBJ + r"(?:" + _BE + r"|" + _HAVE + r")?\s+no\s+longer\s+" + _OBJ + _END)),
    (
        "stopped",
        _rx(
            _SUBJ + _HAVE + r"\s+(?:stopped|quit|quitted|gave\s+up|given\s+up|left|ditched|"
            r"dropped|abandoned)\s+" + _OBJ + _END
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
)
# Chinese: the user (optionally after a time word: "去年我们…") then the form.
_ZH_SUBJ = (
    r"(?:^|(?<=[，。,.;；!！?？\s]))[^，。,.;；!！?？\s]{0,4}?"
    r"(?:我们|我)(?:已经|早就|早已|现在|都|也|刚刚|刚|最近|上个?月|上周|上星期|去年|今年|前年|"
    r"年初|年底|上半年|下半年)*"
)
_ZH_OBJ = r"(?P<x>[^，。,.;；!！?？\s]{1,20}?)"
_ZH_END = r"(?:了)?(?=[，。,.;；!！?？\s]|$)"
_ZH_FORMS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "buzai",
        re.compile(
            _ZH_SUBJ + r"(?:不再|再也不|不)" + _ZH_OBJ + r"了" + r"(?=[，。,.;；!！?？\s]|$)"
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
)
# "I quit VS Code for Zed", "I left Google because…": what follows names no part of the object.
_TRAIL = _rx(r"\s+(?:for|because|since|after|when|and|but|so)\b.*$")
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
    really actually already just all that it them"""
)
_ZH_LEAD = re.compile(r"^(?:在|用|使用|住在|住|喝|吃|做|当|是|去|开)+")
_ZH_TAIL = re.compile(r"(?:工作|上班|了|的)+$")
_WORD = re.compile(r"[a-z0-9][a-z0-9+#.\-]*", re.IGNORECASE)


def find_reversals(text: str) -> list[Reversal]:
    """The reversals of one user turn, one per sentence and form, in order of position."""
    norm = _normalize(text)
    out: list[Reversal] = []
    for sentence in _SENTENCE.finditer(norm):
        start, end = sentence.start(), sentence.end()
        body = norm[start:end]
        if "?" in body or "？" in body:
            continue  # a question takes nothing back
        forms = _ZH_FORMS if _CJK.search(body) else _EN_FORMS
        for form, pattern in forms:
            m = pattern.search(body)
            if m is None:
                continue
            obj = _TRAIL.sub("", m.group("x")).strip()
            if form == "moved_out":
                obj = _MOVED_TO.sub("", obj)
            if _CJK.search(obj) is None and obj and not _content_words(obj):
                continue  # "I'm not sure anymore": nothing given up
            lead = len(body) - len(body.lstrip())
            s, e = start + lead, start + len(body.rstrip())
            new = None
            to = (_ZH_TO if forms is _ZH_FORMS else _EN_TO).search(body, m.start())
            nxt = _ZH_NEXT.search(body, m.end()) if forms is _ZH_FORMS else None
            if form in ("switched", "huancheng", "moved_out") and to and to.start() < m.end():
                new = (start + to.start("y"), start + to.end("y"))
            elif nxt is not None:
                new = (start + nxt.start("y"), start + nxt.end("y"))
            out.append(Reversal(form, obj, text[s:e], (s, e), new))
            break
    return out


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
        if rev.form == "moved_out":
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
                out.append(_receipt(st, text, (s, e)))
    return out + _vetoes(text, found)


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
