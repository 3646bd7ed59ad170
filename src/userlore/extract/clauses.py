"""Sentences and clauses: where a statement can start and end, questions, lead-ins."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from userlore.extract.cues import (
    _CONTRAST_START,
    _HEDGE,
    _ONE_OFF,
    _PAST_OR_NEGATED,
    _QUOTE,
    _REPORTED_EN,
    _REPORTED_ZH,
    _SESSION,
    _STANDING_EN,
    _STANDING_FRAME,
    _STANDING_ZH,
    _TASK_ON_ANSWER,
    _TASK_REQUEST,
    _TEMPORARY,
    _WORDS_RE,
    _cue,
    _is_hypothetical,
)
from userlore.extract.lexical import _CJK, _CJK_CLASS, _MAX_CLAUSE_CHARS, _rx
from userlore.policy.detectors.special_lang import (
    may_be_the_speakers,
    opens_with_an_implied_speaker,
    reported_about_the_speaker,
)

# --------------------------------------------------------------------------------------------
# Segmentation
# --------------------------------------------------------------------------------------------

_SENTENCE_END = re.compile(
    r"[!?;。！？；…]+|\n"
    r"|(?<!\bDr)(?<!\bMr)(?<!\bMs)(?<!\bMrs)(?<!\bProf)(?<!\bSt)(?<!\be\.g)(?<!\bi\.e)(?<!\bvs)"
    r"\.(?:\.\.)?(?=\s|$|[\"')\]]|[" + _CJK_CLASS + r"])"
)
_OPENER_EN = (
    r"(?:i|i'm|im|i've|i'd|i'll|my|we|we're|our|you|your|please|pls|don'?t|do\s+not|never|"
    r"always|also|stop|no\s+more|from\s+now\s+on|going\s+forward|btw|by\s+the\s+way|and|but|"
    r"so|oh|actually|honestly|plus|though|because|since|just|remember|note|call\s+me|what|how|"
    r"which|where|why|who|do|does|did|can|could|should|would|will|is|are|am|any|if|unless|"
    r"imagine|suppose|when|whenever|while|although|however|it|it's|that|that's|this|which|she|"
    r"he|they|there|there's|as(?=\s+(?:i|i'm|my)\b))\b"
)
_SUBJECT_OPENER = (
    r"(?:i|i'm|im|i've|i'd|i'll|my|we|we're|our|please|don'?t|never|always|call\s+me|you)\b"
)
_CLAUSE_SPLIT = _rx(
    r",(?=\s*" + _OPENER_EN + r")"
    r"|(?<=[" + _CJK_CLASS + r"]),|,(?=\s*[" + _CJK_CLASS + r"])"
    r"|\s+(?=(?:and|but|so|because|since|although|though|while|whereas|plus)\s+"
    + _SUBJECT_OPENER
    + r")"
    r"|(?<=\S)(?=但是|不过|而且|并且|可是|所以|因为|然后|同时|但(?=我|你|请|以后|不要|别))"
)

# Discourse fillers, hedges and framing phrases that may precede the statement proper.
_LEAD_EN = _rx(
    r"(?:[-*\u2022]\s+|\d{1,2}[.)]\s+|"  # a list item marker, or
    r"(?:and\s+also|and|but|so|also|plus|oh|ok|okay|well|hi|hey|hello|yeah|yep|yes|sure|"
    r"actually|honestly|basically|anyway|anyways|btw|by\s+the\s+way|fyi|just\s+so\s+you\s+know|"
    r"just\s+fyi|for\s+context|for\s+the\s+record|for\s+reference|for\s+your\s+information|"
    r"please\s+note(?:\s+that)?|note(?:\s+that)?|(?:please\s+)?remember(?:\s+that)?(?=[\s,:]+(?:i|my|"
    r"we|our)\b)|keep\s+in\s+mind(?:\s+that)?|bear\s+in\s+mind(?:\s+that)?|as\s+i\s+(?:said|"
    r"mentioned)|like\s+i\s+said|as\s+you\s+know|you\s+know|in\s+general|generally\s+speaking|"
    r"personally|these\s+days|nowadays|at\s+work|at\s+home|at\s+the\s+moment|right\s+now|"
    r"however|because|since|as(?=\s+(?:i|i'm|my)\b)|although|though|thanks|thank\s+you|cool|"
    r"great|nice|alright|"
    r"all\s+right|got\s+it|hmm+|um+|uh+|i\s+think(?:\s+that)?|i\s+guess|i\s+believe(?:\s+that)?|"
    r"i\s+suppose|i\s+reckon|i\s+feel\s+like|maybe|perhaps|probably|i'?d\s+say|"
    r"not\s+sure\s+but|if\s+possible|if\s+you\s+can|if\s+you\s+don'?t\s+mind|when(?:ever)?\s+"
    r"possible|where\s+possible|from\s+now\s+on|going\s+forward|moving\s+forward|"
    r"in\s+(?:the\s+)?future|from\s+here\s+on(?:\s+out)?|henceforth|by\s+default|as\s+a\s+rule|"
    r"for\s+(?:the\s+rest\s+of\s+)?(?:this|our)\s+(?:conversation|chat|session|thread)|"
    r"in\s+this\s+(?:conversation|chat|session|thread)|for\s+now|today|this\s+week|"
    r"(?:whenever|every\s+time|each\s+time|any\s*time|when)\s+(?:i|you)\s+[^,]{1,80},)"
    r"(?:\s*[,:;.!\-]+\s*|\s+|$))+"
)
_LEAD_ZH = re.compile(
    r"(?:(?:另外|还有|顺便(?:说一下|提一下|一提)?|其实|说实话|老实说|对了|嗯+|哦+|啊|好的?|是的|"
    r"而且|并且|但是|不过|可是|所以|因为|同时|然后|但|总之|平时|一般来说|总的来说|工作中|"
    r"在工作上|记住|请记住|你要记住|记一下|今天|今晚|这周|本周|暂时|最近|(?:在)?(?:本次|这次|这个|这轮|"
    r"本轮|接下来的|当前)(?:对话|会话|聊天)(?:中|里面?)?|我觉得|我感觉|我猜|我想说|可能|大概|也许|比起[^，,]"
    r"{1,12}?(?=我)|相比[^，,]{1,12}?(?=我)|在这次对话中|本次对话中|这次对话中|接下来|"
    r"从现在开始|从现在起|以后|今后)[，,:：\s]*)+"
)


@dataclass(frozen=True, slots=True)
class _Clause:
    """One clause, its position and the flags that gate extraction."""

    text: str  # normalized clause text (same length as the input slice)
    start: int  # receipt bounds in the input: the clause, plus a standing lead it inherits
    end: int
    body: str  # text after leads (discourse words, hedges, framing phrases)
    zh: bool
    hedged: bool
    standing: bool  # a standing marker anywhere in the clause, or inherited from a lone lead
    framed: bool  # the clause opens with a standing frame ("from now on, ...", "以后…")
    durability: str
    one_off: bool
    past_or_negated: bool  # "anymore", "used to", "以前": not a current fact
    polite_question: bool  # "can you always ...?" is a request, not a question
    # Someone's words about the user ("the doctor told me I have …"): only a special-category
    # fact is read from it, never a preference or an instruction.
    reported_self: bool = False
    # The sentence's text before this clause when the clause does not open it: an opening noun
    # phrase there may be the clause's subject ("Works of art, …, always carry …").
    before: str = ""
    # The sentence opens with a request for one deliverable ("write the … code and always …").
    task: bool = False


def _sentences(norm: str) -> Iterator[tuple[int, int, bool]]:
    """Yield ``(start, end, is_question)`` per sentence of the normalized text."""
    pos = 0
    for m in _SENTENCE_END.finditer(norm):
        if m.start() > pos:
            yield pos, m.start(), "?" in m.group()
        pos = m.end()
    if pos < len(norm):
        yield pos, len(norm), False


def _clause_spans(norm: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    pos = start
    for m in _CLAUSE_SPLIT.finditer(norm, start, end):
        if m.start() > pos:
            yield pos, m.start()
        pos = max(pos, m.end())
    if end > pos:
        yield pos, end


_QUESTION_START_EN = _rx(
    r"^\s*(?:(?:do|does|did|am|is|are|was|were|should|shall|can|could|will|would|may|might|"
    r"must|have|has)\s+(?:i|you|we|my)\b|(?:what|which|who|whom|whose|where|why|how)\b)"
)
_QUESTION_ZH = re.compile(
    r"什么|哪|谁|为什么|怎么|几点|多少|是否|是不是|有没有|对不对|能不能|可不可以|要不要|会不会|"
    r"好不好|[吗呢么]\s*$"
)
_POLITE_REQUEST = _rx(
    r"^\s*(?:please\s+)?(?:can|could|would|will)\s+you\b|能不能|可不可以|能否|可以|麻烦"
)


def _is_question(body: str, zh: bool) -> bool:
    if zh and _QUESTION_ZH.search(body):
        return True
    return bool(_QUESTION_START_EN.match(body))


def _strip_lead(text: str) -> str:
    prev = None
    while prev != text:
        prev = text
        m = _LEAD_EN.match(text)
        if m and m.end() > 0:
            text = text[m.end() :]
        m = _LEAD_ZH.match(text)
        if m and m.end() > 0:
            text = text[m.end() :]
    return text.strip()


_ZH_ME = re.compile(r"我(?!们)")
# Every frame below needs one of these: a first person, a directive verb or a standing marker.
_WORTH_A_LOOK = _rx(
    r"\b(?:i|i'm|im|i've|i'd|my|me|we|we're|our|please|pls|kindly|always|never|don'?t|do\s+not|"
    r"stop|no|avoid|call|address|from\s+now\s+on|going\s+forward|future|whenever|every\s+time|"
    r"by\s+default|be|keep|use|answer|reply|respond|write|skip|get|go|give|show|cut|drop|omit|"
    r"limit|less|more|only|speak|talk|format|start|lead|begin|reach|contact|ping|message|dm|text|"
    r"email|best\s+way|as|remember|make\s+sure|you|can|could|would|will|it)\b|"
    r"[我请以今从不别用回答尽直多少每总始一永默务记麻希你接这本]"
)
# A Chinese clause with a dropped subject continues the previous clause's "我".
_ZH_SUBJECTLESS = re.compile(
    r"(?:也|还|平时|一般|主要|现在|目前)*(?:是|在|住|用|喜欢|不喜欢|讨厌|更喜欢|爱|不吃|不喝|对|想|"
    r"打算|计划|正在|搬到)"
)


def _clauses(norm: str, *, switch: bool = False) -> Iterator[_Clause]:
    """Split into clauses and drop the ones that cannot carry an explicit statement.

    ``switch``: the turn corrects or switches what it asked for (``_SWITCH``, a correction
    marker): a task on the answer itself ("give it to me as bullets") then re-formats every
    answer and is not a one-off request.
    """
    # Quoted speech (two words or more) is someone's words; a quoted single token is a mention.
    quotes = [
        (m.start(), m.end())
        for m in _QUOTE.finditer(norm)
        if len(m.group().split()) > 1 or len(_CJK.findall(m.group())) > 3
    ]
    for s_start, s_end, question in _sentences(norm):
        spans = list(_clause_spans(norm, s_start, s_end))
        hypothetical = reported = standing_carry = first_person_zh = False
        carry_start = s_start
        task = False
        first = True
        for index, (c_start, c_end) in enumerate(spans):
            raw = norm[c_start:c_end]
            text = raw.strip(" \t\r,;:，；：、")
            if not text or len(text) > _MAX_CLAUSE_CHARS:
                continue
            c_start += raw.index(text)
            c_end = c_start + len(text)
            zh = bool(_CJK.search(text))
            words = frozenset(_WORDS_RE.findall(text.lower()))
            if first:  # the sentence's first clause with words (a blanked marker has none)
                first = False
                head = _strip_lead(text)
                task = bool(_TASK_REQUEST.match(head)) and not (
                    _cue(_STANDING_EN, text, words, False)
                    or (zh and _STANDING_ZH.search(text))
                    or (switch and _TASK_ON_ANSWER.match(head))
                )
            if _is_hypothetical(text, words, zh):
                hypothetical = True  # the conditional and everything after it in the sentence
            if reported and _CONTRAST_START.match(text):
                reported = False  # "my boss says X, but I prefer Y"
            if _cue(_REPORTED_EN, text, words, False) or (zh and _REPORTED_ZH.search(text)):
                reported = True
            if not (
                _WORTH_A_LOOK.search(text)
                or may_be_the_speakers(text)
                or (index == 0 and opens_with_an_implied_speaker(text))
            ):
                # Cheap exit: no English or Chinese first person or directive cue, and no
                # first-person or "as a …" form of any special-category vocabulary, nor its
                # implied-subject opener at the sentence's start (``policy/data/special/*.json``:
                # "tengo", "ich", "je", "として", "Seit Mai auf Insulin"…).
                continue
            if any(q_start < c_end and c_start < q_end for q_start, q_end in quotes):
                continue  # quoted words are someone's speech, not the user's statement
            body = _strip_lead(text)
            lead = text[: len(text) - len(body)]
            if zh and first_person_zh and _ZH_SUBJECTLESS.match(body):
                body = "我" + body  # "我叫王小明，是一名产品经理": the subject carries over
            first_person_zh = zh and bool(_ZH_ME.match(body))
            standing = _cue(_STANDING_EN, text, words, False) or bool(
                zh and _STANDING_ZH.search(text)
            )
            carried = standing_carry
            if standing and len(body) < 4 and not standing_carry:
                # "From now on, ..." / "以后，..." on its own governs the clauses that follow it.
                standing_carry, carry_start = True, c_start
            polite = False
            if (question and index == len(spans) - 1) or _is_question(body, zh):
                polite = bool(standing and _POLITE_REQUEST.search(text))
                if not polite:
                    continue
            reported_self = reported and reported_about_the_speaker(text)
            if hypothetical or (reported and not reported_self) or not body:
                continue
            if _cue(_SESSION, text, words, zh):
                durability = "session"
            elif _cue(_TEMPORARY, text, words, zh):
                durability = "temporary"
            else:
                durability = "durable"
            yield _Clause(
                text=text,
                start=carry_start if carried else c_start,
                end=c_end,
                body=body,
                zh=zh,
                hedged=_cue(_HEDGE, text, words, zh),
                standing=standing or carried,
                framed=carried or _cue(_STANDING_FRAME, lead, words, zh),
                durability=durability,
                one_off=_cue(_ONE_OFF, text, words, zh) and durability != "session",
                past_or_negated=_cue(_PAST_OR_NEGATED, text, words, zh),
                polite_question=polite,
                reported_self=reported_self,
                before=norm[s_start:c_start] if index else "",
                task=task and not carried,
            )
