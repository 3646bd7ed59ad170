"""Genetic data and criminal records stated about the user, in English and Chinese.

Both are told in frames rather than single words ("I carry the BRCA1 mutation", "I served two
years", "我坐过牢"), and their words have everyday senses ("a record of the meetings", "I served
two years as team lead", "on probation at my new job"), so each frame names the self subject and
the grammar around the term. A third party ("my sister carries...", "我哥哥坐过牢") or a
negation ("我没有犯罪记录") never fits a frame: only fillers may stand between the subject and
the verb.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from userlore.policy.detectors.common import _Hit
from userlore.policy.findings import _SPECIAL, _words

_ADV = r"(?:(?:also|still|actually|currently|now|just|recently|once|already|even|both)\s+)*"
_GENE_NAME = (
    r"(?:brca\s*[12]?|apoe\s*[234](?:/[234])?|mthfr|tp53|lynch|huntington(?:'s)?|factor\s+v"
    r"(?:\s+leiden)?|hla-b27|cftr|lrrk2|pten|[a-z]{2,6}\d{1,3}[a-z]?)"
)
_EN_GENETIC: Final = (
    # "I carry the BRCA1 mutation", "I inherited a BRCA1 mutation", "I have two copies of APOE4"
    re.compile(
        r"(?i)\bI\s+" + _ADV + r"(?:carry|have|had|'ve\s+got|inherited|tested\s+positive\s+for"
        r"|was\s+found\s+to\s+(?:have|carry)|got)\s+(?:(?!for\b|about\b|on\b|in\b)[\w'\-/]+\s+)"
        r"{0,4}?(?:(?:" + _GENE_NAME + r"|genetic|pathogenic|germline|heritable|inherited"
        r"|sickle\s+cell|disease-causing)(?:\s+[\w'\-]+){0,2}?\s+(?:mutations?|variants?"
        r"|deletions?|trait|alleles?)|(?-i:[A-Z][A-Z0-9]{1,7})\s+(?:mutations?|deletions?)|(?:genes?|alleles?)(?!\s+(?:expression|editing|therapy|data"
        r"|dataset|list|names?|sets?|panel|ontology|annotations?|sequences?|models?|files?"
        r"|tables?|ids?|pool|drive))|copies\s+of\s+" + _GENE_NAME + r")\b"
    ),
    # "I'm APOE4 positive", "I'm heterozygous for factor V Leiden", "I'm a carrier of the CF gene"
    re.compile(
        r"(?i)\bI(?:\s*'m|\s+am)\s+" + _ADV + r"(?:an?\s+)?(?:" + _GENE_NAME + r"[\s\-]*positive"
        r"|(?:hetero|homo)zygous\b|(?:genetic\s+)?carrier\s+(?:of|for)\s+(?:the\s+)?"
        r"(?:[\w'\-]+\s+){0,3}?(?:gene|mutation|variant|trait|tay-sachs|cystic\s+fibrosis"
        r"|sickle\s+cell|thalassemia|huntington's|" + _GENE_NAME + r")\b)"
    ),
    # "my 23andMe results say...", "my genetic test showed...", "my genome sequencing found..."
    re.compile(
        r"(?i)\bmy\s+(?:23andme|ancestry\s*dna|dna|genetic|genome|whole[\s\-]genome|exome)"
        r"(?:\s+(?:test|testing|results?|report|screening|panel|sequencing|data|profile))*"
        r"(?:\s+[\w']+){0,3}?\s+(?:says?|said|shows?|showed|found|came\s+back|revealed?"
        r"|reveals|confirmed|flagged)\b"
    ),
)
_EN_GENETIC_GATE: Final = _words(
    "mutation mutations variant variants gene genes allele alleles trait copies positive"
    " heterozygous homozygous carrier 23andme dna genetic genome exome"
)

_CRIME = (
    r"(?:fraud|theft|shoplifting|assault|battery|burglary|robbery|possession|dui|dwi|drunk\s+driving"
    r"|a\s+felony|a\s+misdemeanou?r|drug\s+\w+|drugs|manslaughter|murder|arson|vandalism"
    r"|embezzlement|tax\s+evasion|trespassing|domestic\s+violence|stalking|a\s+crime|crimes?)"
)
_DURATION = (
    r"(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen"
    r"|eighteen|twenty|a\s+few|several|half\s+a)\s+(?:years?|months?|weeks?|days?)"
    r"(?:\s+and\s+a\s+half)?"
)
_PLACE = (
    r"(?:in\s+(?:a\s+)?(?:federal\s+|state\s+|county\s+)?(?:prison|jail|juvie|custody|lockup)"
    r"|behind\s+bars|inside)"
)
_EN_CRIMINAL: Final = (
    # "I was convicted of fraud", "I got sentenced to two years", "I've been arrested twice"
    re.compile(
        r"(?i)\bI(?:\s+was|\s+got|\s+have\s+been|'ve\s+been|\s+had\s+been)\s+"
        + _ADV
        + r"(?:convicted|sentenced|jailed|imprisoned|incarcerated|locked\s+up|arrested"
        r"|charged\s+with|indicted|put\s+on\s+(?:probation|parole)|released\s+from\s+(?:prison"
        r"|jail)|paroled)\b"
    ),
    # "I have a record for shoplifting", "I have a criminal record", "I've got a prior conviction"
    re.compile(
        r"(?i)\bI(?:\s+" + _ADV + r"have|'ve\s+got|\s+got|\s+have\s+got)\s+(?:an?\s+|two\s+|three"
        r"\s+|several\s+|some\s+)?(?:(?:criminal|police|prison|arrest|juvenile)\s+record"
        r"|record\s+for\s+" + _CRIME + r"|(?:(?:prior|previous|past|felony|misdemeanou?r|dui|dwi"
        r"|drug|assault|fraud)\s+)+convictions?|convictions?\s+for|rap\s+sheet"
        r"|(?:dui|dwi|felony)\s+on\s+my\s+record)\b"
    ),
    # "I served two years", "I served 18 months in prison" (not "served two years as lead")
    re.compile(
        r"(?i)\bI(?:\s+"
        + _ADV
        + r"served|'ve\s+served)\s+"
        + _DURATION
        + r"(?:\s+"
        + _PLACE
        + r"|\s+for\s+"
        + _CRIME
        + r")?(?=\s*(?:[.,;!?\n]|$|and\b|but\b|so\b))"
    ),
    # "I spent 18 months in jail", "I did eighteen months for possession": the place is named
    re.compile(
        r"(?i)\bI(?:\s+"
        + _ADV
        + r"(?:spent|did|served)|'ve\s+(?:spent|done))\s+"
        + _DURATION
        + r"\s+(?:"
        + _PLACE
        + r"|for\s+"
        + _CRIME
        + r")\b"
    ),
    # "I did time", "I've done time for fraud", "I served a five-year sentence"
    re.compile(
        r"(?i)\bI(?:\s+"
        + _ADV
        + r"(?:did|served)|'ve\s+(?:done|served))\s+(?:time(?:\s+for\s+"
        + _CRIME
        + r"|\s+"
        + _PLACE
        + r")?(?=\s*(?:[.,;!?\n]|$|when\b|and\b|back\b|for\b|in\b))"
        r"|an?\s+(?:[\w\-]+\s+)?(?:prison\s+|jail\s+)?(?:sentence|stretch)\b)"
    ),
    # "I'm on probation until March", "I'm on parole" (not "on probation at my new job")
    re.compile(
        r"(?i)\bI(?:\s*'m|\s+am)\s+" + _ADV + r"(?:on|out\s+on|serving)\s+(?:a\s+)?(?:probation"
        r"|parole|house\s+arrest|supervised\s+release)\b(?![^.;!?\n]*\b(?:job|work|employer"
        r"|company|new\s+hire|role|position|manager|boss|contract|internship)\b)(?!\s+(?:at|in|for\s+(?:the\s+)?first"
        r"|with\s+(?:my|the)\s+(?:new\s+)?(?:job|team|employer|company|manager)|period|review"
        r"|as\s+an?\s+(?:new\s+)?(?:hire|employee)))"
    ),
    # "I'm a convicted felon", "I'm an ex-con", "I pleaded guilty to a DUI"
    re.compile(
        r"(?i)\bI(?:\s*'m|\s+am)\s+" + _ADV + r"(?:a|an)\s+(?:convicted\s+(?:felon|criminal|sex"
        r"\s+offender)|felon|ex-?con(?:vict)?|ex-offender|ex-inmate|former\s+(?:inmate|prisoner"
        r"|convict)|registered\s+sex\s+offender)\b"
    ),
    re.compile(r"(?i)\bI\s+" + _ADV + r"(?:pleaded|pled|plead)\s+(?:guilty|no\s+contest)\b"),
)
_EN_CRIMINAL_GATE: Final = _words(
    "offender registered con convict inmate prisoner felony dui dwi convicted sentenced"
    " jailed imprisoned incarcerated locked arrested charged indicted paroled released"
    " record conviction convictions rap served spent did done probation parole house"
    " supervised felon ex-con ex-convict excon ex-offender ex-inmate former pleaded pled"
    " plead"
)

# Chinese: only fillers between the subject and the verb, so "我哥哥坐过牢" and "我没有犯罪记录"
# do not fit.
_ZH_SELF = r"(?:^|(?<=[，,。！？；;!?\s：:])|(?<=查出|显示|发现|结果|表明|说明))(?:我|本人)"
_ZH_FILL = (
    r"(?:自己|也|还|都|曾经|以前|之前|早年|年轻时|年轻的时候|去年|前年|今年|小时候|目前|现在|正在|正|还在"
    r"|已经|确实|其实|本身|在|刚|刚刚|因为[^，,。！？；\s]{1,8}?|因[^，,。！？；\s]{1,8}?|被查出|查出来?)*"
)
_ZH_GENETIC = re.compile(
    _ZH_SELF
    + _ZH_FILL
    + r"(?:携带(?:有|了)?[^，,。！？；\s]{0,12}?基因|(?:携带(?:有|了)?|有|带有|是|检测出|查出)"
    r"[^，,。！？；\s]{0,14}?(?:基因突变|致病基因|突变基因|基因变异|基因携带者|[A-Za-z0-9]{3,8}"
    r"(?:基因|突变)|携带者))"
)
_ZH_CRIMINAL = re.compile(
    _ZH_SELF
    + _ZH_FILL
    + r"(?:有(?:过)?(?:犯罪记录|前科|案底|刑事记录)|坐过牢|坐过[0-9一二三四五六七八九十两半]+年牢"
    r"|蹲过(?:监狱|大牢|牢)|服过刑|服刑|被判(?:过)?(?:刑|了?[0-9一二三四五六七八九十两半]+年)|判过刑"
    r"|被判有罪|被定罪|入过狱|坐牢|出狱|(?:在|处于)?(?:缓刑|假释)(?:期|期间|中)?)"
)
_ZH_GATE = re.compile(r"基因|携带者|犯罪|前科|案底|刑|判|牢|狱|缓刑|假释|定罪")


def _records_special(t: str, words: frozenset[str]) -> Iterator[_Hit]:
    """Genetic and criminal-record statements about the user."""
    for category, gate, patterns in (
        ("genetic", _EN_GENETIC_GATE, _EN_GENETIC),
        ("criminal_record", _EN_CRIMINAL_GATE, _EN_CRIMINAL),
    ):
        if not gate.isdisjoint(words):
            for pattern in patterns:
                for m in pattern.finditer(t):
                    yield (_SPECIAL, category, m.start(), m.end(), category)
    if not t.isascii() and _ZH_GATE.search(t):
        for category, pattern in (("genetic", _ZH_GENETIC), ("criminal_record", _ZH_CRIMINAL)):
            for m in pattern.finditer(t):
                yield (_SPECIAL, category, m.start(), m.end(), category)
