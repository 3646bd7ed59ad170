"""Veto, tooling, goal and standing-instruction matchers."""

from __future__ import annotations

import re

from userlore.extract.clauses import _Clause
from userlore.extract.cues import _ADV, _ADV_ZH, _I_BE, _I_SUBJ, _ME_ZH
from userlore.extract.lexical import (
    _CONF_PLAIN_DIRECTIVE,
    _CONF_STANDING,
    _CONF_WEAK,
    Rx,
    _alt,
    _rx,
)
from userlore.extract.match_identity import _Hit
from userlore.extract.match_style import _NOT_VERBS
from userlore.extract.values import _OBJ_REJECT_EN, _OBJ_TRAIL_ZH, _clean_object, _slug, _tools_in
from userlore.extract.vocab.languages import _LANGUAGES_EN, _LANGUAGES_ZH
from userlore.extract.vocab.tools import (
    _TOOL_CATEGORIES,
    _TOOL_CATEGORIES_ZH,
    _TOOL_INDEX,
    _TOOL_RE,
    _surface_key,
)

_VETO_EN = _rx(
    r"^(?:(?:please|pls|and|also|just|so)\s+)*"
    r"(?P<neg>never(?:\s+ever)?|don'?t(?:\s+ever)?|do\s+not(?:\s+ever)?|stop|quit|no\s+more|avoid|"
    r"i\s+(?:never|don'?t|do\s+not)\s+want\s+(?:you\s+to|to\s+see)|you\s+(?:should|must|may|can)"
    r"(?:\s+not|\s+never|n'?t)|you\s+(?:shouldn'?t|mustn'?t|can'?t))"
    r"\s+(?:(?:ever|again|please|any\s+more)\s+)?"
    r"(?P<verb>(?:suggest|recommend|mention|push|pitch|offer|insert)(?:s|ing|ed)?|"
    r"propos(?:e|es|ed|ing)|includ(?:e|es|ed|ing)|add(?:s|ed|ing)?|us(?:e|es|ed|ing)|"
    r"put(?:s|ting)?|bring(?:ing)?\s+up|talk(?:ing)?\s+about|(?:show|giv|send)(?:e|ing)?\s+me)?"
    r"\s*(?:me\s+|to\s+me\s+)?(?P<obj>.+)$"
)
_VETO_ZH = re.compile(
    r"^(?:请|以后|今后|从现在开始|从现在起|永远|再也|千万|一定|也|都|就)*"
    r"(?:不要|别|不准|不许|禁止|千万别|千万不要|请勿|勿|停止|不用再|不要再|别再|再也不要|永远不要)"
    r"(?:再|给我|跟我|向我|为我|对我|帮我)*"
    r"(?P<verb>推荐|建议|提到|提起|提|用|使用|写|加|添加|介绍|安利|说)(?:了|过)?\s*(?P<obj>.+)$"
)
_VETO_OBJ_REJECT = _rx(
    r"^(?:my|our|their|his|her|this|that|these|those|it|them|the\s+above|yourself|me|you|"
    r"anything|everything|something|any)\b"
)
_VETO_OBJ_TRAIL = _rx(
    r"(?:\s+(?:again|anymore|any\s+more|ever|ever\s+again|to\s+me|please|at\s+all|for\s+anything|"
    r"in\s+the\s+future|in\s+(?:your\s+)?(?:answers|responses|replies|code|suggestions|"
    r"examples)))+$"
)


def _match_veto(c: _Clause, directive: bool) -> list[_Hit]:
    if not directive or c.one_off:
        return []
    m = (_VETO_ZH if c.zh else _VETO_EN).match(c.body)
    if not m:
        return []
    neg = m.groupdict().get("neg") or ""
    verb = (m.group("verb") or "").lower()
    if not verb and neg.lower() not in {"no more", "avoid"} and not neg.lower().startswith("i "):
        return []
    raw = _VETO_OBJ_TRAIL.sub("", m.group("obj").strip())
    obj = _clean_object(raw)
    if not obj or (not c.zh and (_VETO_OBJ_REJECT.match(obj) or len(obj.split()) > 5)):
        return []
    tool = _TOOL_RE.fullmatch(obj.strip())
    slug = _TOOL_INDEX[_surface_key(tool.group())][1] if tool else obj
    slug = _slug(slug)
    if not slug:
        return []
    plain_use = verb.startswith("us") and not c.standing and not neg.lower().startswith("never")
    return [_Hit(f"veto/{slug}", "banned", _CONF_WEAK if plain_use else _CONF_STANDING)]


_TOOLING_FRAMES: tuple[Rx, ...] = (
    _rx(r"^(?:" + _I_SUBJ + r"|i(?:'ve|\s+have)\s+" + _ADV + r")(?:use|been\s+using|work\s+with|"
        r"develop\s+(?:with|on)|build\s+(?:with|on)|rely\s+on|(?:switched|moved|migrated)\s+"
        r"(?:over\s+)?(?:from\s+[\w.+#\- ]{1,30}?\s+)?to|run|stick\s+(?:with|to)|code\s+with|"
        r"program\s+with)\s+"),
    _rx(r"^" + _I_BE + r"(?:on|using|running)\s+(?:an?\s+)?"),
    _rx(r"^" + _I_SUBJ + r"(?:code|program|develop|write\s+code|work|build\s+(?:things|stuff|apps|"
        r"software)?)\s+(?:mostly\s+|mainly\s+|primarily\s+|exclusively\s+)?(?:in|with|on)\s+"),
    _rx(r"^" + _I_SUBJ + r"write\s+(?:mostly\s+|mainly\s+)?"),
    _rx(r"^(?:we\s+" + _ADV + r"(?:use|run|build\s+(?:with|on)|work\s+with|deploy\s+(?:on|to)|"
        r"standardized\s+on|switched\s+to|rely\s+on|host\s+on)|we(?:'re|\s+are)\s+" + _ADV
        + r"(?:using|running|on|building\s+(?:with|on)|deploying\s+(?:on|to)))\s+"),
    _rx(r"^our\s+(?:[\w\-]+\s+){0,2}?(?:stack|codebase|backend|frontend|app|project|team|company|"
        r"infra|infrastructure|services?|product|repo|monorepo)\s+(?:is\s+(?:built\s+(?:on|with)|"
        r"written\s+in|on)|uses|runs\s+on|is)\s+"),
    _rx(r"^" + _ME_ZH + r"(?:用|使用|采用|在用|改用|换成了?|换到了?|转到了?|用的是|"
        r"使用的是|写)\s*"),
    _rx(r"^我们(?:团队|公司|组|这边|项目)?" + _ADV_ZH + r"(?:用|使用|采用|在用|用的是)\s*"),
)  # fmt: skip
_TOOL_CATEGORY_EN = _rx(
    r"^my\s+(?:(?:favou?rite|preferred|main|primary|default|go-to|daily|usual)\s+)?"
    r"(?P<cat>" + _alt(_TOOL_CATEGORIES) + r")\s+(?:of\s+choice\s+)?is\s+"
)
_TOOL_CATEGORY_ZH = _rx(
    r"^我(?:们)?(?:的)?(?:主力|常用|默认)?(?P<cat>"
    + _alt(_TOOL_CATEGORIES_ZH)
    + r")(?:是|用的是)\s*"
)
_TOOL_IMPERATIVE = _rx(
    r"^(?:(?:please|always|only|just|also)\s+)*(?:use|stick\s+(?:with|to)|prefer|default\s+to|"
    r"go\s+with)\s+|^(?:以后|今后|请|都|一律|默认|统一|总是|始终)*(?:用|使用)\s*"
)
_TOOL_OBJ_CUT = _rx(
    r"\b(?:instead\s+of|rather\s+than|not|over|than|but|because|since|except|unlike|versus)\b|"
    r"而不是|不是|代替|替代|因为|但是"
)


def _tool_object(rest: str) -> str:
    cut = _TOOL_OBJ_CUT.search(rest)
    return rest[: cut.start()] if cut else rest


def _match_tooling(c: _Clause, directive: bool) -> list[_Hit]:
    if c.past_or_negated:
        return []
    body = c.body
    frame: Rx
    for frame in (_TOOL_CATEGORY_EN, _TOOL_CATEGORY_ZH):
        m = frame.match(body)
        if m:
            cat = m.group("cat").lower()
            key = _TOOL_CATEGORIES.get(cat) or _TOOL_CATEGORIES_ZH.get(cat, "")
            obj = _clean_object(_tool_object(body[m.end() :]))
            if not key or not obj or obj.lower() in _LANGUAGES_EN or obj in _LANGUAGES_ZH:
                return []
            tools = _tools_in(obj, first_only=True)
            value = tools[0][1] if tools else _slug(" ".join(obj.split()[:3]))
            return [_Hit(key, value)] if value else []
    frames = _TOOLING_FRAMES
    if directive and c.standing:
        frames = (*frames, _TOOL_IMPERATIVE)
    for frame in frames:
        m = frame.match(body)
        if m:
            tools = _tools_in(_tool_object(body[m.end() :]))
            if tools:
                return [_Hit(key, value) for key, value in tools]
    return []


_GOAL_VERBS = (
    r"(?:learn|master|become|get\s+better\s+at|improve|lose|gain|run|finish|complete|launch|ship|"
    r"save(?:\s+up)?|pay\s+off|pass|get\s+into|get\s+fit|get\s+in\s+shape|get\s+promoted|retire|"
    r"move\s+to|publish|speak|grow|reach|achieve|switch\s+careers|transition\s+(?:into|to)|"
    r"start\s+(?:a|my\s+own)|build\s+(?:a|my\s+own)|compete|qualify|travel|visit|quit|read|"
    r"write\s+(?:a\s+book|my\s+(?:book|thesis|novel))|earn|buy\s+a\s+(?:house|home)|climb|"
    r"land\s+a|find\s+a\s+(?:new\s+)?job|study|graduate|get\s+(?:a|my)\s+(?:degree|phd|masters?|"
    r"license|certification))\b"
)
_GOALS_EN: tuple[Rx, ...] = (
    _rx(r"^my\s+(?:(?:main|big|biggest|primary|long[\s\-]term|short[\s\-]term|current|personal|"
        r"ultimate|new\s+year'?s?|\d{4}|career|fitness|only)\s+)*(?:goal|aim|objective|ambition|"
        r"dream|resolution|target|mission)s?(?:\s+(?:for|this|in)\s+(?:the\s+|this\s+|next\s+)?"
        r"(?:year|month|week|quarter|summer|semester|\d{4}))?\s+(?:is|are|'s)\s+(?:to\s+)?"),
    _rx(r"^" + _I_BE + r"(?:trying|working|aiming|hoping|planning|striving|determined|looking)\s+"
        r"to\s+"),
    _rx(r"^" + _I_BE + r"(?=(?:(?:training|preparing|studying|saving(?:\s+up)?|applying|"
        r"competing)\s+(?:for|to)|working\s+towards?|learning)\s+\S)"),
    _rx(r"^(?:" + _I_SUBJ + r"(?:want|hope|plan|aim|intend|wish)|i(?:'?d|\s+would)\s+(?:really\s+)?"
        r"(?:like|love))\s+to\s+(?=" + _GOAL_VERBS + r")"),
    _rx(r"^i(?:'ve|\s+have)?\s+(?:set\s+)?(?:myself\s+)?(?:a\s+)?goal\s+(?:of|to)\s+"),
    _rx(r"^我(?:的)?[^，,是]{0,6}?(?:目标|梦想|愿望|心愿|计划|理想)(?:之一)?(?:是|就是)\s*"),
    _rx(r"^" + _ME_ZH + r"(?:想|想要|希望|打算|计划|准备|决定|立志|争取|要)"
        r"(?:在[^，,]{1,8}?|今年内?|明年|年底(?:之?前)?|这个月|下个月|尽快|早日|以后|将来|未来|"
        r"这学期|下学期)?(?:能|能够)?(?=(?:学|学习|学会|掌握|精通|成为|当上?|减肥|减掉|减重|瘦|"
        r"增肌|健身|跑|跑完|完成|考|考上|考过|考取|拿到|通过|提高|提升|攻读|申请|转行|转型|"
        r"换工作|找到|创业|存钱|攒钱|存够|买房|买车|搬到|搬去|出国|留学|戒|养成|坚持|读完|写完|发表|出版|参加)\S)"),
    _rx(r"^" + _ME_ZH + r"(?:正在|在|最近在)(?=(?:学|学习|准备|备考|备战|练|训练|攻读|减肥|健身|"
        r"努力)\S)"),
    _rx(r"^" + _ME_ZH + r"努力(?=\S)"),
)  # fmt: skip
_GOAL_END = _rx(r"\s*,?\s*\b(?:because|since|but|so\s+that|although|though)\b|\s*[;:(]|[，,;；]")
_GOAL_SLUG_TRIM = _rx(
    r"\s+(?:(?:this|next)\s+(?:year|month|week|summer|spring|fall|autumn|winter|semester)|"
    r"by\s+\w+(?:\s+\d{4})?|someday|eventually|one\s+day|soon|in\s+\d+\s+(?:years?|months?|"
    r"weeks?)|before\s+\w+)$|(?:今年|明年|年底|之前|以前)$"
)


def _match_goal(c: _Clause) -> list[_Hit]:
    if c.past_or_negated:
        return []
    for frame in _GOALS_EN:
        m = frame.match(c.body)
        if not m:
            continue
        rest = c.body[m.end() :]
        end = _GOAL_END.search(rest, 1)
        goal = (rest[: end.start()] if end else rest).strip(" .!。！")
        goal = _OBJ_TRAIL_ZH.sub("", goal) if c.zh else goal
        words = goal.split()
        if not goal or len(words) > 14 or (words and words[0].lower() in _OBJ_REJECT_EN):
            return []
        slug = _slug(_GOAL_SLUG_TRIM.sub("", goal))
        return [_Hit(f"goal/{slug}", goal)] if slug else []
    return []


# Politeness and framing around an instruction, dropped from its slug and value.
_INSTR_STRIP_EN = _rx(
    r"^(?:(?:please|pls|kindly|just|also|always|and|so|don'?t\s+forget(?:\s+to|\s+that)?:?|"
    r"you\s+(?:should|must|need\s+to|have\s+to|will|can|could)|i\s+(?:want|need)\s+you\s+to|"
    r"i(?:'?d|\s+would)\s+like\s+you\s+to|make\s+sure\s+(?:to|you|that\s+you)|remember\s+to|"
    r"be\s+sure\s+to|(?:can|could|would|will)\s+you)\s+)*"
)
_INSTR_STRIP_ZH = re.compile(
    r"^(?:以后|今后|往后|之后|接下来|从现在(?:开始|起)?|从今(?:天|以后)?(?:开始|起)?|请|麻烦你?|"
    r"我?(?:希望|想要|想让|要|需要|要求)你|你|都|一律|总是|始终|永远|默认|一直|务必|一定要|记得|记住|"
    r"要|每次)*"
)
_DO_NOT = _rx(r"^do\s+not\b")
_INSTR_TRAIL = _rx(r",?\s*(?:from\s+now\s+on|going\s+forward|in\s+(?:the\s+)?future|please)$")
_INSTR_IDIOM = _rx(
    r"^(?:never\s+mind|don'?t\s+worry|no\s+worries|stop\s+(?:it|that|there)|never\s+again|"
    r"don'?t\s+forget|always\s+happy|没关系|算了|别担心|不用谢|不要紧)\b"
)


def _match_instruction(c: _Clause, directive: bool) -> list[_Hit]:
    """A standing instruction that no facet recognized: ``instruction/<slug>``."""
    if not directive or not c.standing or (c.one_off and c.durability != "session"):
        return []
    framing = (_INSTR_STRIP_ZH if c.zh else _INSTR_STRIP_EN).match(c.body)
    text = c.body[framing.end() if framing else 0 :].strip(" .!。！")
    text = _DO_NOT.sub("don't", text)
    text = _INSTR_TRAIL.sub("", text)
    words = text.split()
    if len(text) < 2 or len(words) > 20 or (not c.zh and len(words) < 2):
        return []
    if _INSTR_IDIOM.match(text):
        return []
    if not c.zh and words[0].lower() in _NOT_VERBS:
        return []
    slug = _slug(text.replace("'", ""))
    conf = _CONF_PLAIN_DIRECTIVE if c.polite_question else _CONF_STANDING
    return [_Hit(f"instruction/{slug}", text, conf)] if slug else []
