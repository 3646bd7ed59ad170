"""Cues that qualify a clause: standing, session-only, temporary, hedged, hypothetical, reported."""

from __future__ import annotations

import re
from dataclasses import dataclass

from userlore.extract.lexical import Rx, _rx, _words

# --------------------------------------------------------------------------------------------
# Shared regex fragments
# --------------------------------------------------------------------------------------------

_WORDS_RE = re.compile(r"[a-z']+")


@dataclass(frozen=True, slots=True)
class _Trigger:
    """A clause-level cue regex plus the words that can start a match.

    Big alternations are slow to scan in ``re``; a set lookup on the clause's words first lets
    most English clauses skip them. Chinese clauses always run the regex (no word split).
    """

    pattern: Rx
    words: frozenset[str]


def _cue(trigger: _Trigger, text: str, words: frozenset[str], zh: bool) -> bool:
    if not zh and trigger.words.isdisjoint(words):
        return False
    return bool(trigger.pattern.search(text))


def _is_hypothetical(text: str, words: frozenset[str], zh: bool) -> bool:
    """A conditional or counterfactual; courtesy forms ("if possible") do not count."""
    if not zh and _HYPOTHETICAL.words.isdisjoint(words):
        return False
    return any(m.group("hypo") for m in _HYPOTHETICAL.pattern.finditer(text))


_ADV = (
    r"(?:(?:really|truly|absolutely|totally|definitely|genuinely|honestly|actually|also|just|"
    r"mostly|mainly|primarily|usually|generally|typically|normally|always|still|currently|now|"
    r"kinda|kind\s+of|sort\s+of|personally|very\s+much|much|do|strongly|often|frequently|"
    r"largely|pretty\s+much|recently|already|happily|proudly|officially|basically|certainly|"
    r"seriously|literally|deeply|especially|particularly|exclusively|only|both|all|daily|"
    r"regularly|tend\s+to|prefer\s+to|like\s+to|normally|even|strictly|completely|firmly|"
    r"actively|adamantly|greatly|vastly|entirely|categorically|consistently|deliberately|"
    r"religiously|simply|far|try\s+to)\s+)*"
)
_I_SUBJ = r"i\s+" + _ADV
_I_BE = r"(?:i'?m|i\s+am)\s+" + _ADV
_ADV_ZH = (
    r"(?:一般|平时|平常|主要|通常|都|也|还|现在|目前|经常|常常|一直|基本上?|比较|很|非常|特别|"
    r"超级?|最|真的|挺|蛮|相当|十分|更|还是|可能|大概|也许|好像|应该|其实|确实|本身|从小|向来|"
    r"一向|总是|已经|就|本来|习惯|日常|天天|每天|平日)*"
)
_ME_ZH = r"我(?!们)" + _ADV_ZH

_NEGATOR_EN = _rx(
    r"\b(?:don'?t|do\s+not|never|no|not|without|stop|quit|avoid|skip|omit|drop|cut(?:\s+out)?|"
    r"less|fewer|ditch|lose|hate|dislike|can'?t\s+stand|instead\s+of|rather\s+than|over|minus|"
    r"none)\b"
)
_NEGATOR_ZH = re.compile(
    r"不要|不用|别|不必|禁止|不许|不准|去掉|省略|避免|免|不喜欢|讨厌|而不是|而非|不想|无需|"
    r"没必要|少|(?<![能可要是好会])不(?![能可要是好会])"
)
_POLARITY_BOUNDARY = _rx(r"[,;，；]|\bbut\b|\bjust\b|但|只")

_STANDING_EN_RE = _rx(
    r"\b(?:always|never|from\s+now\s+on|going\s+forward|moving\s+forward|in\s+(?:the\s+)?future|"
    r"from\s+here\s+on(?:\s+out)?|henceforth|hereafter|whenever|every\s+time|each\s+time|"
    r"any\s*time|by\s+default|as\s+a\s+rule|at\s+all\s+times|all\s+the\s+time|"
    r"(?:all|every|each)\s+(?:of\s+)?(?:your\s+)?(?:future\s+)?(?:answers|responses|replies)|"
    r"until\s+i\s+say\s+otherwise|until\s+further\s+notice|from\s+this\s+point(?:\s+on)?|"
    r"remember\s+to|stop|no\s+more|don'?t\s+ever|do\s+not\s+ever|ever\s+again)\b"
)
_STANDING_ZH = re.compile(
    r"以后|今后|往后|之后都|从现在(?:开始|起)|从今(?:天|以后)|每次|每当|总是|始终|一律|永远|默认|"
    r"一直|任何时候|所有(?:的)?(?:回答|回复)|再也不|不要再|别再|记住|记得"
)
_SESSION_RE = _rx(
    r"\b(?:for|in|during|throughout)\s+(?:the\s+rest\s+of\s+)?(?:this|our|the\s+current)\s+"
    r"(?:conversation|chat|session|thread|discussion|exchange)\b|"
    r"\buntil\s+(?:the\s+end\s+of\s+)?(?:this|the|our)\s+(?:conversation|chat|session)\b|"
    r"(?:本次|这次|这个|这轮|本轮|接下来的|当前|在这次)(?:对话|会话|聊天)|接下来"
)
_TEMPORARY_RE = _rx(
    r"\b(?:today|tonight|tomorrow|this\s+(?:week|weekend|month|morning|afternoon|evening)|"
    r"for\s+now|for\s+the\s+(?:next|coming)\s+(?:few\s+|couple\s+(?:of\s+)?)?"
    r"(?:days?|weeks?|hours?|months?)|until\s+(?:monday|tuesday|wednesday|thursday|friday|"
    r"saturday|sunday|tomorrow|next\s+week)|for\s+a\s+(?:while|bit|few\s+days)|temporarily|"
    r"at\s+the\s+moment|right\s+now)\b|今天|今晚|明天|这周|本周|这个月|这几天|暂时|目前先|"
    r"这段时间|最近几天"
)
_ONE_OFF_RE = _rx(
    r"\b(?:for|in|on)\s+(?:this|that|the\s+next|the\s+above|the\s+following|your\s+next)\s+"
    r"(?:one|answer|reply|response|message|question|task|email|post|draft|paragraph|section|"
    r"list|case|function|file|snippet|example|query|request|essay|poem|story|summary|"
    r"translation|code|script|text|document|doc|page|slide|table|part|project|repo|codebase|"
    r"app|pr|commit)\b|"
    r"\bthis\s+(?:time|once)\b|\bjust\s+(?:this\s+)?once\b|\b(?:here|below)\b|"
    r"\b(?:a|an|this|that|the|your)\s+(?:[a-z]+\s+){0,2}?(?:answer|reply|response|explanation|"
    r"summary|version|message|email|draft)\b(?!s)|"
    r"这次(?!对话|会话|聊天)|这一次|这个|这些|那些|这份|这张|这段|这篇|这里|下面|以下|上面|如下|本题|"
    r"这道题|这条|一下"
)
# A request for one deliverable now ("write the … code", "fix this", "帮我写…"): its sentence's
# "always" belongs to the task, not to every future answer (issue 23).
_TASK_REQUEST = _rx(
    r"^(?:(?:please|pls|kindly|now|can\s+you|could\s+you|would\s+you|help\s+me|"
    r"i\s+(?:need|want)\s+you\s+to|i(?:'ll|\s+will)?\s+(?:need|have)\s+to|i\s+want\s+to)\s+)*"
    r"(?:write|fix|debug|translate|summari[sz]e|rewrite|draft|create|generate|implement|build|"
    r"refactor|convert|design|compose|edit|proofread|complete|finish|hide|disable|enable|"
    r"turn\s+(?:off|on)|add|remove|explain|make|give|show|send|list|code)"
    r"(?:\s+me)?\s+(?:a|an|the|this|that|these|those|my|our|some|it|following|below)\b|"
    r"^(?:请|麻烦你?|你)?(?:帮我|给我|替我|为我)(?:写|翻译|总结|修改|改|实现|生成|做|转换|把|检查|"
    r"解释|优化|重写|画|列|一个|一份|一段|一篇|一封)|"
    r"^(?:请)?(?:把|将)[^，,。]{1,30}?(?:翻译|转换|改写|改成|总结)|"
    r"^我(?:需要|要|得)(?:隐藏|关闭|去掉|实现|写|做|修|改|添加|加)"
)
# A task whose object is the answer itself ("give it to me as bullets", "write the answers as a
# table", "把它改成…"): in a correction or switch it re-formats every answer, so it is standing.
_TASK_ON_ANSWER = _rx(
    r"^(?:(?:please|pls|kindly|now|just|can\s+you|could\s+you|would\s+you)\s+)*"
    r"(?:write|give|show|make|send|list|put|format|render|turn|present|do)(?:\s+me)?\s+"
    r"(?:it|them|that|those|(?:the|your|all|all\s+the|all\s+your)\s+"
    r"(?:answers?|repl(?:y|ies)|responses?))\b|"
    r"^(?:请)?(?:给我|帮我)?(?:把|将)(?:它|它们|回答|答案|回复)"
)
# A turn that switches what it asked for ("actually", "instead", "rather", 还是…吧, 改成…).
_SWITCH = _rx(r"\b(?:actually|instead|rather)\b|还是|改成|改为|换成|改用")
# A style request about a topic is a task ("give me bullets about X"), not a standing style.
_TASK_TOPIC = _rx(r"\b(?:about|regarding|on\s+the\s+topic\s+of)\b|关于")
_DEICTIC_GOAL = _rx(
    r"\b(?:this|that|these|those|it)\b(?!\s+(?:year|month|week|summer|spring|fall|autumn|winter|"
    r"semester|quarter|decade))|这个|那个|这段|这篇|这道"
)
_PAST_OR_NEGATED_RE = _rx(
    r"\b(?:anymore|any\s+more|any\s+longer|no\s+longer|used\s+to|formerly|previously|"
    r"not\s+anymore)\b|以前|曾经|过去|原来|不再|已经不|小时候"
)
_HEDGE_RE = _rx(
    r"\b(?:i\s+think|i\s+guess|i\s+believe|i\s+suppose|i\s+reckon|i\s+feel\s+like|maybe|"
    r"perhaps|probably|possibly|i'?d\s+say|not\s+sure|kind\s+of|sort\s+of|kinda|i\s+might|"
    r"might|i\s+may)\b|我觉得|我感觉|我猜|可能|大概|也许|好像|或许"
)

# Hypotheticals and conditionals. Courtesy forms ("if possible", "I'd appreciate it if you")
# come first in the alternation so finditer consumes them before the bare "if" can match.
_HYPOTHETICAL_RE = _rx(
    r"(?P<courtesy>\bif\s+(?:possible|you\s+can|you\s+could|you\s+don'?t\s+mind|you\s+do\s+not"
    r"\s+mind|that'?s\s+(?:ok|okay|alright|fine)|you\s+please|necessary|needed|at\s+all\s+"
    r"possible|it'?s\s+not\s+too\s+much)\b|\b(?:appreciate\s+it|be\s+(?:great|nice|helpful|"
    r"better|good)|prefer\s+it|like\s+it|love\s+it)\s+if\s+you\b|如果可以|如果可能|如果方便|"
    r"可以的话|方便的话|可能的话|如果你能|如果能)"
    r"|(?P<hypo>\b(?:if|imagine|imagining|suppose|supposing|pretend|hypothetically|"
    r"what\s+if|let'?s\s+say|assuming|in\s+a\s+world\s+where|were\s+i|had\s+i|i\s+wish|"
    r"wish\s+i|would\s+be\s+nice|in\s+my\s+dreams|unless)\b|如果|假如|假设|(?<!主)要是|万一|倘若|"
    r"若是|假使|设想|想象一下|想象|假装|的话)"
)

# Reported speech: a third party's words or beliefs. The user's own "I said" is not reported.
_REPORTED_EN_RE = _rx(
    r"\b(?:he|she|they|someone|somebody|people|everyone|everybody|you|(?:my|his|her|their|our|"
    r"the)\s+[a-z]+(?:\s+[a-z]+)?|(?-i:[A-Z][a-z]+))\s+(?:[a-z]+\s+)?(?:said|says|told|tells|"
    r"asked|asks|thinks|believes|wrote|writes|mentioned|mentions|claims|claimed|insists|"
    r"insisted|wants|wanted|suggested|suggests|recommended|recommends|reckons|keeps\s+saying|"
    r"always\s+says|would\s+say)\b"
)
_REPORTED_ZH = re.compile(
    r"(?:他|她|它|他们|她们|别人|有人|大家|人家|我(?:的)?(?:老板|同事|朋友|领导|老师|经理|家人|"
    r"孩子|儿子|女儿|哥哥|姐姐|弟弟|妹妹|室友|队友|妈妈|爸爸|妈|爸|老婆|老公|妻子|丈夫|太太|先生|"
    r"女朋友|男朋友|对象|上司|客户)|老板|同事|朋友|领导|老师|经理|妈妈|爸爸|客户)"
    r"(?:也|还|总是|一直|曾经|经常|跟我|对我|之前)?(?:说(?!得)|讲|告诉|觉得|认为|以为|提到|表示|建议|"
    r"要求|让我|要我|希望我)|听说"
)
# Standing markers that frame a whole clause when they open it (and are stripped as a lead).
_STANDING_FRAME_RE = _rx(
    r"\b(?:from\s+now\s+on|going\s+forward|moving\s+forward|in\s+(?:the\s+)?future|"
    r"from\s+here\s+on|henceforth|by\s+default|as\s+a\s+rule|whenever|every\s+time|each\s+time)\b|"
    r"以后|今后|从现在(?:开始|起)|接下来"
)
_STANDING_EN = _Trigger(
    _STANDING_EN_RE,
    _words(
        "always never from going moving future here henceforth hereafter whenever every each "
        "any anytime default rule times time all until remember stop no don't dont do ever"
    ),
)
_SESSION = _Trigger(_SESSION_RE, _words("conversation chat session thread discussion exchange"))
_TEMPORARY = _Trigger(
    _TEMPORARY_RE,
    _words(
        "today tonight tomorrow week weekend month morning afternoon evening now next coming "
        "until while bit days temporarily moment"
    ),
)
_ONE_OFF = _Trigger(
    _ONE_OFF_RE,
    _words(
        "one answer reply response message question task email post draft paragraph section list "
        "case function file snippet example query request essay poem story summary translation "
        "code script text document doc page slide table part project repo codebase app pr commit "
        "time once here below explanation version"
    ),
)
_PAST_OR_NEGATED = _Trigger(
    _PAST_OR_NEGATED_RE, _words("anymore any longer no used formerly previously not")
)
_HEDGE = _Trigger(
    _HEDGE_RE,
    _words(
        "think guess believe suppose reckon feel maybe perhaps probably possibly say i'd id sure "
        "kind sort kinda might may"
    ),
)
_HYPOTHETICAL = _Trigger(
    _HYPOTHETICAL_RE,
    _words(
        "if imagine imagining suppose supposing pretend hypothetically what let's lets say "
        "assuming world were had wish would dreams unless"
    ),
)
_REPORTED_EN = _Trigger(
    _REPORTED_EN_RE,
    _words(
        "said says told tells asked asks thinks believes wrote writes mentioned mentions claims "
        "claimed insists insisted wants wanted suggested suggests recommended recommends reckons "
        "saying say"
    ),
)
_STANDING_FRAME = _Trigger(
    _STANDING_FRAME_RE,
    _words("from going moving future henceforth default rule whenever every each"),
)
_CONTRAST_START = _rx(r"^\s*(?:but|however|though|although|whereas|yet|但是|不过|可是|但)")

_QUOTE = re.compile(
    r"\"[^\"\n]{1,300}\"|(?<!\w)'[^'\n]{1,300}'(?!\w)|「[^」\n]{1,300}」|『[^』\n]{1,300}』"
)
