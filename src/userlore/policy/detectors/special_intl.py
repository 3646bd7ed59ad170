"""Special-category self statements in Spanish, German, French and Chinese."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from userlore.policy.detectors.common import _Hit
from userlore.policy.findings import _SPECIAL, _words

# Other-language self statements (Spanish, German, French): compact frames.
_INTL_TERMS: Final = {
    "health": r"diabetes|diabète|diabetico|diabética|diabético|diabétique|depresión|depression"
    r"|dépression|cáncer|krebs|cancer|vih|hiv|asma|asthma|asthme|embarazada|schwanger|enceinte"
    r"|alérgic[oa]|allergisch|allergique|epilepsia|epilepsie|ansiedad|angststörung|insulina"
    r"|insulin|insuline|tdah|adhs|autismo|autismus|bipolar|bipolaire|esquizofrenia"
    r"|schizophrenie|celíac[oa]|zöliakie|cœliaque|migraña|migräne|migraine",
    "religion": r"musulm[aá]n[a]?|muslim[a]?|musulman[e]?|cat[oó]lic[oa]|katholisch|catholique"
    r"|jud[ií][oa]|jüdisch|juif|juive|cristian[oa]|christ(?:in)?|chrétien(?:ne)?|budista"
    r"|buddhist(?:in)?|bouddhiste|ateo|atea|atheist(?:in)?|athée|evangélic[oa]|evangelisch"
    r"|hind[uú]|hindou(?:e)?",
    "sexual_orientation": r"gay|lesbiana|lesbisch|lesbienne|bisexual|bisexuell|bisexuel(?:le)?"
    r"|homosexual|homosexuell|homosexuel(?:le)?|trans|transgénero|transgender|queer",
    "political_opinion": r"comunista|kommunist(?:in)?|communiste|socialista|sozialist(?:in)?"
    r"|socialiste|del\s+pp|del\s+psoe|de\s+vox|afd-mitglied|spd-mitglied|cdu-mitglied",
}
_INTL_RE = re.compile(
    r"(?i)\b(?P<subj>tengo|padezco(?:\s+de)?|sufro\s+de|soy|estoy|me\s+diagnosticaron"
    r"|ich\s+habe|ich\s+leide\s+an|ich\s+bin|bei\s+mir\s+wurde|ich\s+nehme|j'ai|je\s+suis"
    r"|je\s+souffre\s+d[e']|on\s+m'a\s+diagnostiqué(?:\s+une?)?|je\s+prends)\s+"
    r"(?:(?:un|una|el|la|muy|eine?n?|sehr|seit|une?|du|de\s+la|de|d'|tipo\s+\d|typ\s+\d|type\s+\d"
    r"|practicante|praticante|pratiquant(?:e)?|gläubige[rn]?|überzeugte[rn]?|\d+)\s+){0,3}"
    r"(?P<term>" + "|".join(f"(?P<{c}>{p})" for c, p in _INTL_TERMS.items()) + r")\b"
)
_INTL_GATE_WORDS: Final = _words("tengo padezco sufro soy estoy diagnosticaron ich j'ai je m'a bei")


def _intl_special(t: str) -> Iterator[_Hit]:
    for m in _INTL_RE.finditer(t):
        category = next(c for c in _INTL_TERMS if m.group(c) is not None)
        yield (_SPECIAL, category, m.start(), m.end("term"), category)


# Chinese: subject 我/本人/用户 followed directly by adverbs and a verb, then the term.
_ZH_TERMS_SRC: Final = {
    ("health", "cond"): """
        糖尿病|高血压|低血压|心脏病|冠心病|癌症|肺癌|乳腺癌|肝癌|胃癌|肠癌|宫颈癌|白血病|淋巴瘤|肿瘤|艾滋病
        |艾滋|HIV|乙肝|丙肝|肝炎|哮喘|癫痫|抑郁症|抑郁|焦虑症|双相情感障碍|双相|躁郁症|精神分裂症|强迫症
        |自闭症|多动症|ADHD|PTSD|阿尔茨海默|帕金森|中风|痛风|甲亢|甲减|贫血|不孕|不育|偏头痛|失眠症
        |厌食症|暴食症|进食障碍|创伤后应激障碍|过敏|过敏症|乳糖不耐受|不耐受|乳糜泻|怀孕|孕期|流产
        |残疾|截肢|耳聋|失明|视障|听障|盲人|听力障碍|视力障碍|助听器|轮椅|人工耳蜗|假肢|红斑狼疮|类风湿|克罗恩病|肾病|尿毒症|透析|化疗|放疗|胰岛素
        |二甲双胍|抗抑郁药|安眠药|降压药|心理咨询|心理治疗|精神科|湿疹|银屑病|结核|性病|梅毒|疱疹
        |心律不齐|脂肪肝|痔疮|慢性病|重病|绝症|病|药
    """,
    ("religion", "ident"): """
        穆斯林|伊斯兰教|基督徒|基督教|天主教徒|天主教|佛教徒|佛教|佛|道教|犹太教|犹太人|印度教|锡克教
        |无神论者|教徒|信徒|基督|伊斯兰|主|真主|上帝
    """,
    ("religion", "cond"): "清真|斋月|礼拜|受洗|教会|清真寺|教堂",
    (
        "sexual_orientation",
        "ident",
    ): "同性恋|双性恋|异性恋|男同|女同|拉拉|跨性别|变性人|无性恋|酷儿|gay|GAY|les|LGBT",
    ("ethnicity", "ident"): """
        回族|维吾尔族|藏族|蒙古族|壮族|满族|苗族|彝族|土家族|朝鲜族|哈萨克族|少数民族|汉族|黑人|白人|混血
        |亚裔|华裔|拉丁裔|非裔
    """,
    ("political_opinion", "ident"): """
        党员|共产党员|中共党员|预备党员|共青团员|民主党人|共和党人|民主党|共和党|民进党|国民党|左派|右派
        |自由派|保守派|社会主义者|共产主义者|无政府主义者
    """,
    ("biometric", "poss"): "指纹|虹膜|声纹|人脸数据|面部数据|掌纹|人脸信息|面部识别数据",
    ("trade_union", "ident"): "工会会员|工会成员",
}
_ZH_TERM_INFO: Final = {
    term.strip(): (category, kind)
    for (category, kind), src in _ZH_TERMS_SRC.items()
    for term in src.split("|")
    if term.strip()
}
_ZH_TERMS = re.compile("|".join(sorted(map(re.escape, _ZH_TERM_INFO), key=len, reverse=True)))
# Group subjects (我们, 我们全家, 咱们家...) disclose the user's identity too, except for health:
# "我们医院治疗糖尿病" is about an institution far more often than about the user.
_ZH_GROUP = r"(?:我们|咱们)(?:全家|一家|家)?人?|我家|咱家|我和家人|我们夫妻"
_ZH_SUBJ = r"(?:(?P<grp>" + _ZH_GROUP + r")|我|本人|用户|该用户)"
_ZH_ADV = (
    r"(?:自己|也|还|都|一直|从小就?|小时候就?|前几年|去年|今年|上个月|上周|最近|近来|已经|曾经|目前|现在"
    r"|正在|刚刚?|早就|其实|确实|本身|就|才|又|有点|比较|非常|特别|严重|长期|常年|每天|平时|天天|长年|要"
    r"|一直在|在|会|得|是个|算是)"
)
_ZH_VERB = (
    r"(?:有|得了|得过|患有|患了|患上了?|罹患|确诊(?:了|为|出)?|被确诊(?:为|出|了)?|被诊断(?:为|出了?|患有)?"
    r"|诊断(?:为|出)|查出(?:了|来)?|检查出(?:了)?|在吃|吃|在服用|服用|在用|用|打|在打|注射|需要|靠|做过"
    r"|做了|在做|接受(?:了)?|在接受|怀了|有过|对[^，。！？；\s]{1,10}|信|信仰|信奉|皈依了?|加入了?"
    r"|入了|坐|是|是个|是一个|是一名|是一位|是名|是位|属于|去|常去|每周去|每周都去|做|戴|过|只吃)"
)
_ZH_MOD = (
    r"(?:一点|点|轻度|中度|重度|严重的?|轻微的?|慢性|急性|晚期|早期|[0-9一二三四]+型|[0-9一二三四]+期"
    r"|I型|II型|先天性|遗传性|产后|季节性|的|些|一些|种|个|了|一名|一个|名|位|虔诚的|忠实的|坚定的"
    r"|骄傲的|公开的|出柜的|老|资深|正式|预备|个人|过)"
)
_ZH_FRAME = re.compile(
    "(?:" + _ZH_SUBJ + _ZH_ADV + "*(?:" + _ZH_VERB + _ZH_MOD + "*|的" + _ZH_MOD + "*)?"
    r"|(?:作为|身为)" + _ZH_MOD + "*)$"
)
_ZH_POSS_FRAME = re.compile(_ZH_SUBJ + "的" + _ZH_MOD + "*$")
_ZH_POL_FRAME = re.compile(
    _ZH_SUBJ + _ZH_ADV + "*(?:支持|投票给|投给了?|投了|拥护|把票投给了?)" + _ZH_MOD + "*$"
)
_ZH_BLOCK_AFTER = re.compile(
    r"朋友|同事|邻居|同学|家人|亲戚|研究|专家|医生|护士|科普|知识|文章|论文|报告|书|电影|纪录片|餐厅|饭店"
    r"|菜|食品|社区|群体|人群|历史|文化|协会|基金会|项目|相关|话题|患者们|病人|的人|朋友们|教授|学者"
    r"|方面的|的书|的文章|的电影|的知识|的历史|的资料|的新闻|的论文|的研究|的药物|的治疗方法|的症状"
    r"|的病因|小说|题材|游戏|名词|这个词|患者"
)
_ZH_GENERIC: Final = frozenset({"病", "药", "佛", "主", "基督", "伊斯兰", "les"})
_ZH_FAITH_TERMS: Final = frozenset({"佛", "主", "基督", "伊斯兰"})
_ZH_TAKES = re.compile(_ZH_SUBJ + _ZH_ADV + r"*(?:在吃|吃|服用|在服用|得了|生了|患了)$")
_ZH_BELIEVES = re.compile(_ZH_SUBJ + _ZH_ADV + r"*(?:信|信仰|信奉|皈依了?)$")
_ZH_CLAUSE_BREAK = re.compile(r"[，,。！？；;!?\n]")


def _zh_special(t: str) -> Iterator[_Hit]:
    for m in _ZH_TERMS.finditer(t):
        term = m.group(0)
        category, kind = _ZH_TERM_INFO[term]
        window_start = max(0, m.start() - 24)
        breaks = list(_ZH_CLAUSE_BREAK.finditer(t, window_start, m.start()))
        clause_start = breaks[-1].end() if breaks else window_start
        prefix = t[clause_start : m.start()]
        if _ZH_BLOCK_AFTER.match(t, m.end()):
            continue
        if term in _ZH_GENERIC and not (
            _ZH_TAKES.search(prefix) or (term in _ZH_FAITH_TERMS and _ZH_BELIEVES.search(prefix))
        ):
            # 病/药/佛/主 alone need a clear verb: "我在吃药", "我信佛"; "我有病" is an insult.
            continue
        if kind == "poss":
            fm = _ZH_POSS_FRAME.search(prefix)
        else:
            fm = _ZH_FRAME.search(prefix)
            if fm is None and category == "political_opinion":
                fm = _ZH_POL_FRAME.search(prefix)
        if fm is None or (category == "health" and fm.group("grp")):
            continue
        yield (_SPECIAL, category, clause_start + fm.start(), m.end(), category)
