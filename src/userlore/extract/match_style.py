"""Style matchers and the directive test (is a clause an instruction to the assistant)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from userlore.extract.clauses import _Clause, _strip_lead
from userlore.extract.cues import _NEGATOR_EN, _NEGATOR_ZH, _POLARITY_BOUNDARY
from userlore.extract.lexical import Rx, _rx, _words
from userlore.extract.match_identity import _Hit
from userlore.extract.values import _format_value
from userlore.extract.vocab.formats import FORMAT_INDEX, NAMED_FORMATS
from userlore.extract.vocab.languages import _LANG_EN, _LANG_ZH, _LANGUAGES_EN, _LANGUAGES_ZH


@dataclass(frozen=True, slots=True)
class _Style:
    """One style concept: affirmed gives ``pos``, negated gives ``neg``.

    ``directive_only`` terms are too generic outside an instruction ("short" in "I like short
    stories"). ``veto`` names the veto slug used when a directive negates a term that has no
    opposite value ("no tables").
    """

    pattern: Rx
    key: str
    pos: str | None
    neg: str | None
    directive_only: bool = False
    veto: str | None = None


_FORMAT = "=format"
"""``pos`` of a style whose value is the format phrase it matched (group ``fmt``)."""
_NAMED = "|".join(
    re.escape(surface)
    for surface, canonical in sorted(FORMAT_INDEX.items(), key=lambda kv: (-len(kv[0]), kv[0]))
    if canonical in NAMED_FORMATS
)


_ANSWERS = r"(?:answers?|responses?|replies|reply|explanations?|messages?|outputs?|summaries|text)"
_ANSWERS_ZH = r"(?:回答|回复|答案|解释|说明|输出|风格|表达|内容)"
_STYLES: tuple[_Style, ...] = (
    _Style(_rx(r"\bnested\s+(?:bullets?|bullet\s+points|lists)\b|嵌套(?:列表|要点)"),
           "style/format", None, None, veto="nested_bullets"),
    _Style(_rx(r"\b(?:brief|briefer|concise|terse|succinct|short|shorter|compact|tight|crisp)\s+"
               + _ANSWERS + r"\b"),
           "style/verbosity", "terse", "detailed"),
    _Style(_rx(r"\bbe\s+(?:more\s+|very\s+|extremely\s+|super\s+)?(?:brief|concise|terse|"
               r"succinct|short|laconic)\b|\b(?:keep|kept|keeping)\s+(?:it|things|them|everything|"
               r"(?:your\s+|the\s+)?(?:answers|responses|replies|explanations))\s+(?:short|brief|concise|tight|"
               r"succinct|to\s+the\s+point)\b|\b(?:brevity|briefly|concisely)\b|\bfewer\s+words\b|"
               r"\bless\s+(?:verbose|wordy|text)\b"),
           "style/verbosity", "terse", "detailed", directive_only=True),
    _Style(_rx(r"\b(?:long|longer|lengthy|detailed|thorough|in-depth|comprehensive|verbose|wordy|"
               r"long-winded|rambling|elaborate)\s+" + _ANSWERS + r"\b"),
           "style/verbosity", "detailed", "terse"),
    _Style(_rx(r"\bbe\s+(?:more\s+|very\s+)?(?:detailed|thorough|comprehensive|verbose|wordy|"
               r"long-winded|elaborate)\b|\bin\s+(?:more\s+|great\s+|full\s+)?detail\b|"
               r"\bgo\s+(?:into|in)\s+(?:more\s+)?(?:depth|detail)\b|\b(?:ramble|verbose|wordy|"
               r"long-winded)\b"),
           "style/verbosity", "detailed", "terse", directive_only=True),
    _Style(_rx(r"(?:简短|简洁|简明|精简|简练)(?:一点|一些|些|的)?" + _ANSWERS_ZH + "|"
               + _ANSWERS_ZH + r"(?:要|尽量|请|都)*(?:简短|简洁|简明|精简|简练)"),
           "style/verbosity", "terse", "detailed"),
    _Style(_rx(r"简短|简洁|简明|精简|简练|短一点|短一些|言简意赅|长话短说"),
           "style/verbosity", "terse", "detailed", directive_only=True),
    _Style(_rx(r"(?:详细|具体|深入)(?:一点|一些|些|的)?" + _ANSWERS_ZH + "|" + _ANSWERS_ZH
               + r"(?:要|尽量|请|都)*(?:详细|具体|深入)|(?:冗长|啰嗦)的?" + _ANSWERS_ZH),
           "style/verbosity", "detailed", "terse"),
    _Style(_rx(r"详细|具体一点|具体些|展开(?:讲|说)|啰嗦|冗长|长篇大论|废话"),
           "style/verbosity", "detailed", "terse", directive_only=True),
    _Style(_rx(r"\b(?:numbered|ordered|enumerated|numeric)\s+(?:lists?|steps|points|items|bullets)\b|"
               r"\bnumber(?:ed)?\s+(?:the\s+)?(?:steps|points|items)\b|\bnumbered\b|编号列表|有序列表|"
               r"数字列表|编号|序号"),
           "style/format", "numbered", None, veto="numbered_lists"),
    _Style(_rx(r"(?<![\w-])(?P<fmt>" + _NAMED + r")(?![\w-])"), "style/format", _FORMAT, None),
    _Style(_rx(r"\bbullet(?:ed)?[\s\-]*(?:points?|lists?)\b|\bbullets\b|\bbulleted\b|"
               r"\bin\s+points\b|要点|分点|列表|条目|列点|项目符号"),
           "style/format", "bullets", "prose"),
    _Style(_rx(r"\btables?\b|\btabular\b|表格"), "style/format", "tables", None, veto="tables"),
    _Style(_rx(r"\bprose\b|\bin\s+(?:full\s+|complete\s+)?(?:paragraphs|sentences)\b|"
               r"\bfull\s+sentences\b|成段|段落"),
           "style/format", "prose", "bullets"),
    _Style(_rx(r"\bcode[\s\-]+first\b|\b(?:lead|start|begin|open)\s+with\s+(?:the\s+)?code\b|"
               r"\b(?:show|give)\s+(?:me\s+)?(?:the\s+)?code\s+first\b|\bcode\s+before\s+"
               r"(?:the\s+)?(?:explanation|prose|text)\b|先(?:给|上|贴|写|展示|放)?代码|代码优先"),
           "style/format", "code_first", None),
    # The open set: any format named in a format frame ("in FAQ format", "as a mind map").
    _Style(_rx(r"\b(?:in|as)\s+(?:an?\s+|the\s+)?(?P<fmt>[a-z][\w\-]*(?:\s+[a-z][\w\-]*){0,2}?)\s+"
               r"(?:format|form|layout)\b|\b(?:format|formatted|structure|structured|lay\s+out)\s+"
               r"(?:it|them|everything|(?:the\s+|your\s+)?(?:answers|responses|replies|output))\s+"
               r"(?:as|in(?:to)?)\s+(?:an?\s+)?(?P<fmt2>[a-z][\w\-]*(?:\s+[a-z][\w\-]*){0,2})\b|"
               r"(?:用|以|按|按照)(?P<fmt3>[\u4e00-\u9fffA-Za-z]{1,8}?)的?(?:格式|形式)"),
           "style/format", _FORMAT, None, directive_only=True),
    _Style(_rx(r"\b(?:answer|respond|reply|write|talk|speak|communicate|chat|converse|answers|"
               r"responses|replies|everything)\s+(?:to\s+me\s+|back\s+)?(?:only\s+|always\s+|"
               r"exclusively\s+|strictly\s+)?in\s+(?P<lang>" + _LANG_EN + r")\b|\b(?P<lang2>"
               + _LANG_EN + r")\s+(?:answers|responses|replies)\b"),
           "style/language", "*", None),
    _Style(_rx(r"\b(?:use|speak)\s+(?P<lang>" + _LANG_EN + r")\b|^in\s+(?P<lang2>" + _LANG_EN
               + r")\b"),
           "style/language", "*", None, directive_only=True),
    _Style(_rx(r"(?:用|使用|说|讲)(?P<lang>" + _LANG_ZH + r")|(?:回答|回复|交流)(?:请|都|尽量|必须|"
               r"一律)*(?:用|使用|是)(?P<lang2>" + _LANG_ZH + r")"),
           "style/language", "*", None, directive_only=True),
    _Style(_rx(r"\b(?:preambles?|intros?|introductions?|pleasantries|small\s+talk|fluff|filler|"
               r"niceties|throat[\s\-]clearing)\b|开场白|客套(?:话)?|寒暄|铺垫|前言|引言"),
           "style/preamble", None, "skip"),
    _Style(_rx(r"\b(?:get|go|cut|jump|skip)\s+(?:straight\s+|right\s+|directly\s+)?to\s+the\s+"
               r"(?:point|chase|answer)\b|\bstraight\s+to\s+the\s+point\b|\banswer\s+(?:directly|"
               r"straight\s+away|right\s+away)\b|\bjust\s+(?:give\s+me\s+)?the\s+answer\b|"
               r"\bdirect\s+answers\b|直接(?:给|说|回答|讲|上|给出)|开门见山|直奔主题|直入主题"),
           "style/preamble", "skip", None),
    _Style(_rx(r"\bemojis?\b|\bemoticons?\b|\bsmileys?\b|表情符号|表情包|表情|颜文字|emoji"),
           "style/emoji", "use", "skip"),
)  # fmt: skip


def _negated(text: str, at: int) -> bool:
    """Is the term at ``at`` under a negator in its own comma-delimited stretch?"""
    window = text[:at]
    bounds = list(_POLARITY_BOUNDARY.finditer(window))
    if bounds:
        window = window[bounds[-1].end() :]
    return bool(_NEGATOR_EN.search(window) or _NEGATOR_ZH.search(window))


def _style_hits(text: str, *, directive: bool, flip: bool, conf: float) -> list[_Hit]:
    """Style facets named in ``text``; ``flip`` inverts polarity (dislike verbs)."""
    hits: dict[str, _Hit] = {}
    for style in _STYLES:
        if style.directive_only and not directive:
            continue
        m = style.pattern.search(text)
        if not m:
            continue
        negative = _negated(text, m.start()) != flip
        if style.pos == "*":
            if negative:
                continue
            lang = m.group("lang") or m.group("lang2")
            value: str | None = _LANGUAGES_EN.get(lang.lower()) or _LANGUAGES_ZH.get(lang)
        elif style.pos == _FORMAT:
            if negative:
                continue
            phrase = next(
                g
                for g in (m.group(n) for n in ("fmt", "fmt2", "fmt3") if n in m.re.groupindex)
                if g
            )
            value = _format_value(phrase)
        else:
            value = style.neg if negative else style.pos
        if value is None:
            if negative and style.veto and directive:
                key = f"veto/{style.veto}"
                hits.setdefault(key, _Hit(key, "banned", conf))
            continue
        hits.setdefault(style.key, _Hit(style.key, value, conf))
    return list(hits.values())


_DIRECTIVE_EN = _rx(
    r"(?:(?:please|pls|plz|kindly|just|also|and|now|so)\s+)*"
    r"(?:(?:i\s+(?:want|need|expect|ask|require)\s+(?:you\s+to|that\s+you)|"
    r"i(?:'?d|\s+would)\s+(?:like|prefer|love)\s+(?:you\s+to|that\s+you|it\s+if\s+you)|"
    r"i(?:'?d|\s+would)\s+(?:appreciate|prefer|like|love)\s+it\s+"
    r"if\s+you(?:\s+(?:could|would|can))?|it\s+would\s+be\s+(?:great|nice|helpful|better)\s+if\s+"
    r"you(?:\s+(?:could|would|can))?|you\s+(?:should|must|need\s+to|have\s+to|can|could|will|'ll|"
    r"ought\s+to|are\s+to|may)|(?:can|could|would|will)\s+you|make\s+sure\s+(?:to|you|that\s+you)|"
    r"remember\s+to|try\s+to|be\s+sure\s+to)\s+)?"
    r"(?:(?:please|pls|kindly|just|always|never|only|also|consistently|ever)\s+)*"
    r"(?P<verb>[a-z']+)"
)
_DIRECTIVE_VERBS = _words(
    "answer reply respond write use be keep give show explain format include add put start "
    "begin end finish lead open stop skip avoid call address refer speak talk communicate "
    "cite mention ask tell list summarize summarise provide send check make remind remember "
    "assume treat default stick limit go get drop cut omit structure organize organise "
    "number sign stay try consider confirm focus prefer suggest recommend offer propose "
    "return output print spell translate reference link quote highlight bold wrap split "
    "break sort label greet say switch don't dont do no never quit double-check write use "
    "respond less more only"
)
_NOT_VERBS = _words(
    "i i'm im i've i'd i'll my me we we're our us you you're your he she they it it's its "
    "this that these those there here the a an what which who where when why how is are "
    "was were am been has have had"
)
# Style directives without a standing marker must use a "meta" verb: "explain X in detail" is
# a task about X, "be detailed" / "answer in detail" is about every answer.
_META_VERBS = _words(
    "be keep answer reply respond use format structure stick default switch talk speak "
    "communicate write stop skip avoid don't dont do no never less more get go cut drop omit "
    "limit prefer lead start begin open give only please kept used wrote gave answered "
    "replied responded stopped skipped avoided spoke"
)
_DIRECTIVE_ZH = re.compile(
    r"^(?:以后|今后|往后|之后|接下来|从现在(?:开始|起)?|从今(?:天|以后)?(?:开始|起)?|每次|总是|始终|"
    r"一律|永远|默认|一直|务必|一定要|记得|记住|请|麻烦(?:你)?|我?(?:希望|想要|想让|要|需要|要求)你|"
    r"你(?=以后|今后|要|应该|得|必须|可以|能|就|请|一定|务必|别|不要|尽量|回答|回复|说话|用)|回答|回复|"
    r"说话|输出|尽量|不要|别(?!人|的)|不用|不必|禁止|不许|不准|千万|用|直接|多|少|你?能不能|你?可不可以|"
    r"你?能否|你?可以|麻烦)"
)
_DIRECTIVE_ZH_ANYWHERE = re.compile(r"请|尽量|务必|不要|别(?!人|的)|禁止|一律")


_ZH_THIRD_PARTY = re.compile(r"[我他她它]|别人")


def _directive(c: _Clause) -> tuple[bool, str]:
    """Is the clause an instruction to the assistant? Also returns its main verb (EN)."""
    if c.zh:
        if c.before and _said_of_others_zh(c.before, c.body):
            return False, ""
        third_party = _ZH_THIRD_PARTY.match(c.body)
        return bool(
            _DIRECTIVE_ZH.match(c.body)
            or _DIRECTIVE_ZH_ANYWHERE.search(c.body)
            or (c.framed and not third_party)
        ), ""
    m = _DIRECTIVE_EN.match(c.body)
    if not m:
        return False, ""
    verb = m.group("verb").lower()
    prefixed = m.start("verb") > 0
    if c.before and _said_of_others(c.before, c.body, verb):
        return False, verb
    if verb in _DIRECTIVE_VERBS or (prefixed and verb not in _NOT_VERBS):
        return True, verb
    return False, verb


# A sentence that opens with these is an adverbial or a lead-in ("For code, always …"), not the
# subject of the clause after the comma.
_FRONTED_EN = _rx(
    r"^(?:for|in|on|at|by|with|without|within|when|whenever|if|unless|after|before|during|from|"
    r"to|once|while|as|since|about|regarding|across|under|over|per|except|every|each|outside|"
    r"inside|whatever|wherever|whichever|regardless|no\s+matter|please|pls|kindly|and|so|also|"
    r"ok|okay|oh|well|now|then|again|otherwise|generally|usually|honestly|seriously)\b"
)
_PERSON_EN = _rx(r"\b(?:i|i'm|me|my|mine|we|our|us|you|your|yours)\b")
_NP_END = _rx(
    r"\s(?:of|in|on|at|from|with|for|by|about|like|unlike|across|under|over|during|to|"
    r"regardless|especially|even|no)\b"
)
_PLURAL_EN = _words("children people men women mice geese feet teeth folks")
_NOT_PLURAL_S = ("ss", "us", "is", "'s")


_HABIT_ZH = re.compile(r"^(?:总是|总会|从来|从不|永远|一直|始终|往往|通常|常常|经常)")
_FRONTED_ZH = re.compile(
    r"^(?:在|当|对于|对|关于|如果|要是|每|以后|今后|从|除了|无论|不管|凡是|回答|回复)|"
    r"(?:时|时候|的话|之后|以后|之前|中|里|上)$"
)
_PERSON_ZH = re.compile(r"[我你您请]")


def _said_of_others_zh(before: str, body: str) -> bool:
    """The Chinese form of :func:`_said_of_others`: a clause that opens with a habitual adverb
    (总是, 从来, 一直…) after a noun phrase that opens the sentence ("艺术作品，…，总是带有…"),
    naming neither the user nor the assistant, describes others."""
    first = re.split(r"[，,]", before, maxsplit=1)[0].strip()
    if not first or not _HABIT_ZH.match(body) or _FRONTED_ZH.search(first):
        return False
    return not (_PERSON_ZH.search(first) or _PERSON_ZH.search(body))


def _plural(word: str) -> bool:
    """A plural head noun: an irregular plural, or -s that is not -ss, -us, -is or 's."""
    return word in _PLURAL_EN or (word.endswith("s") and not word.endswith(_NOT_PLURAL_S))


def _said_of_others(before: str, body: str, verb: str) -> bool:
    """The clause is the predicate of the noun phrase that opens its sentence: a statement
    about others, not an instruction ("Works of art, regardless of their theme, always carry a
    piece of reality"; "Cats, unlike dogs, never come"). Subject and verb agree (a plural
    subject and a plain verb, a singular one and a verb in -s); a singular topic before a
    plain verb is an imperative ("Python code, always use type hints"), and a sentence that
    names the user or the assistant is addressed to the assistant."""
    first = before.split(",", 1)[0].strip()
    if not first or _FRONTED_EN.match(first) or not _strip_lead(first):
        return False
    if _PERSON_EN.search(first) or _PERSON_EN.search(body):
        return False
    words = _NP_END.split(first, maxsplit=1)[0].split()
    if not words or len(words) > 4:
        return False  # not a short noun phrase: a clause of its own
    third_person = verb.endswith("s") and not verb.endswith(_NOT_PLURAL_S)
    return _plural(words[-1].lower()) != third_person
