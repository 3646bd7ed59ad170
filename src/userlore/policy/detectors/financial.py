"""Exact financial figures about the user: salary, debt, credit score."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from userlore.policy.detectors.common import _Hit, is_year
from userlore.policy.findings import _REGULATED, _words

# Exact financial figures about the user.
_AMOUNT = (
    r"(?:(?:[$€£¥₹]|US\$|USD|EUR|GBP|CNY|RMB|R\$)\s?\d[\d,.\s]*\d(?:\s?(?:[kKmM]\b|thousand"
    r"|million|grand))?"
    r"|[$€£¥₹]\s?\d(?:\s?(?:[kKmM]\b|thousand|million|grand))?"
    r"|\d[\d,.]*\s?(?:[kK]\b|thousand|grand|million|dollars|euros?|pounds|yuan|rmb|usd|eur|gbp"
    r"|cny|bucks|€|\$|£|元|块|万)"
    r"|\d{1,3}(?:[,.\s]\d{3})+(?:[.,]\d{1,2})?|\d{4,}(?:[.,]\d{1,2})?|\d+[.,]\d{2}(?!\d))"
)
_AMOUNT_RE = re.compile(r"(?<![A-Za-z0-9.,])(?:" + _AMOUNT + r")")
# "my salary ... <amounts>": every amount in the rest of the clause is redacted.
_FIN_SUBJECTS: Final = (
    re.compile(
        r"(?i)\b(?:my|our|user's|the\s+user's)\s+(?:[a-z()\-0-9]+\s+){0,3}?"
        r"(?:salary|salaries|income|pay|paycheck|take-home(?:\s+pay)?|wages?|earnings"
        r"|compensation|bonus|balance|savings|net\s+worth|debt|debts|loan|loans|mortgage"
        r"|credit\s+limit|portfolio|pension|401\(?k\)?|ira|inheritance|tax\s+refund|assets"
        r"|overdraft|arrears|(?:checking|savings|bank|brokerage|investment)\s+account|wallet)\b"
    ),
    re.compile(
        r"(?i)\b(?:mi|mis|mein|meine|meinem|mon|ma|mes)\s+(?:[^\s]+\s+)?(?:salario|sueldo|saldo"
        r"|ingresos|deuda|hipoteca|patrimonio|gehalt|einkommen|kontostand|jahresgehalt"
        r"|monatsgehalt|schulden|ersparnisse|vermögen|salaire|solde|revenu|revenus|dette|épargne"
        r"|patrimoine)\b"
    ),
)
_CLAUSE_END = re.compile(r"[!?\n;]|\.(?!\d)|\bbut\b")
_ZH_NUMBER = re.compile(r"信用分|[一二三四五六七八九十两兩百]+[万萬千]")
_FIN_PATTERNS: Final = (
    re.compile(  # the user's own score: "my credit score is 712", "FICO is at 640"
        r"(?i)(?<!\w)(?:(?:my|our)\s+)?(?:fico\s+|credit\s+)?(?:credit\s+score|fico(?:\s+score)?"
        r"|信用分|芝麻信用分?)(?:\s*(?:is|was|of|sits|at|came|back|now|dropped|fell|rose|went|up"
        r"|down|to|=|:|是|为|有))+\s*(?P<amt>\d{3})\b"
    ),
    re.compile(  # a balance or net worth stated without a subject: the speaker's own
        r"(?i)(?<!\w)(?:(?:checking|savings|bank|account|current|card|credit\s+card|loan|mortgage"
        r"|brokerage|401k|pension)\s+balance|net\s+worth|take-home(?:\s+pay)?)\b[^.!?\n\d$€£¥]{0,24}?"
        r"(?P<amt>" + _AMOUNT + r")"
    ),
    re.compile(
        r"(?i)\b(?:I|we)(?:\s*'m|\s+am|\s*'re|\s+are|\s*'ve|\s+have)?\s+(?:currently\s+|now\s+"
        r"|only\s+|also\s+|still\s+|just\s+)?(?P<verb>earn|earning"
        r"|make|making|made|earned|take\s+home|taking\s+home|bring\s+in|bringing\s+in|pull\s+in"
        r"|pulling\s+in|clear|clearing|get\s+paid|got\s+paid|(?:'m|am)\s+paid"
        r"|paid|owe|owed|have\s+saved|saved|have\s+got|got|have|had|inherited|net|gross"
        r"|still\s+owe)"
        r"\s+(?:about|around|roughly|approximately|exactly|over|nearly|almost|just\s+under"
        r"|just\s+over|only|close\s+to)?\s*(?P<amt>" + _AMOUNT + r")(?P<tail>[^.!?\n]{0,40})"
    ),
    re.compile(
        # Traditional 個, 萬, 兩 too (blindfix17b: "我一個月薪水…三萬八").
        r"(?:我|本人)(?:的|现在|目前|每月|每[个個]月|一[个個]月|一年|每年|税前|税后|现在的|目前的)*"
        r"(?:工资|月薪|年薪|薪水|薪资|收入|月收入|年收入|存款|积蓄|余额|银行余额|账户余额|卡里|负债"
        r"|欠款|贷款|房贷|车贷|信用卡欠款|信用分|芝麻信用分|公积金|资产|净资产"
        # The same words in traditional characters (blindfix18b: "我的貸款還有三十八萬").
        r"|工資|薪資|積蓄|餘額|銀行餘額|帳戶餘額|負債|貸款|房貸|車貸|信用卡欠款|公積金|資產|淨資產)"
        r"[^，。！？\n\d]{0,8}?(?P<amt>\d[\d,，.]*\s*(?:万|萬|千|元|块|美元|人民币|[kKwW])?"
        r"|[一二三四五六七八九十两兩百]+(?:万|萬|千)[一二三四五六七八九]?(?:元|块)?)"
    ),
    re.compile(
        # Traditional characters too (blindfix18b: "我一個月賺三萬五", "我還欠銀行兩萬六").
        r"我(?:现在|現在|目前|还|還|一共|总共|總共)?(?:一[个個]月|每月|每[个個]月|每年|一年|月|年)?(?:能)?"
        r"(?:挣|掙|赚|賺|收入|拿|到手|存了|欠了?|还欠|還欠|入)(?:了)?"
        r"(?:信用卡|银行|銀行|花呗|借呗|房贷|房貸|车贷|車貸|网贷|網貸|亲戚|親戚|朋友)?"
        r"(?:大概|大约|大約|约|約|差不多|将近|將近)?(?P<amt>\d[\d,，.]*\s*(?:万|萬|千|元|块|塊|美元|[kKwW])"
        r"|\d{4,}|[一二三四五六七八九十两兩百]+(?:万|萬|千)[一二三四五六七八九]?(?:元|块|塊)?)"
    ),
    re.compile(
        r"(?i)\bI(?:\s*'m|\s+am)\s+(?:about\s+|around\s+|over\s+|nearly\s+)?(?P<amt>"
        + _AMOUNT
        + r")\s+in\s+(?:debt|the\s+red|arrears|credit\s+card\s+debt|student\s+(?:loan\s+)?debt)"
    ),
    re.compile(
        r"(?i)\b(?:gano|cobro|ich\s+verdiene|je\s+gagne|je\s+touche)\s+(?:unos\s+|etwa\s+"
        r"|environ\s+)?(?P<amt>" + _AMOUNT + r")"
    ),
)
_FIN_GATE_WORDS: Final = _words(
    """
    salary salaries income pay paid paycheck wage wages earn earns earning earnings earned make
    makes making made balance savings saving saved worth debt debts owe owed loan loans mortgage
    credit fico portfolio pension 401k 401 ira inherited inheritance bonus compensation refund
    assets overdraft arrears have had net gross take bring score sueldo salario saldo gano cobro
    ingresos deuda hipoteca patrimonio gehalt jahresgehalt monatsgehalt einkommen kontostand
    verdiene schulden ersparnisse vermögen salaire solde revenu revenus gagne touche dette
    épargne patrimoine mi mis mein meine mon ma mes account wallet i'm am
    pull pulling clear clearing we we're we've i've
    """
)
_FIN_GATE_CJK = re.compile(
    r"工资|薪|收入|存款|积蓄|余额|欠|贷|挣|赚|月入|年入|资产|信用分|公积金|卡里|拿|到手"
    r"|工資|積蓄|餘額|貸|掙|賺|資產|公積金"  # traditional characters (blindfix18b)
)
_PER_PERIOD = re.compile(
    r"(?i)^\s*(?:(?:a|per|/|an|each|every)\s*(?:year|yr|month|mo|week|wk|hour|hr|annum)|annually"
    r"|monthly|yearly|weekly|hourly|before\s+tax|after\s+tax|gross|net|salary|in\s+(?:my\s+)?"
    r"(?:savings|the\s+bank|checking|bank|debt|student\s+loans|credit\s+card\s+debt|account"
    r"|crypto|stocks|401k|ira|retirement|brokerage)|left\s+(?:on|in|to\s+pay)|owing|outstanding"
    r"|(?:of|in)\s+(?:[a-z]+\s+){0,2}(?:debt|loans?|savings))"
)


_NON_DIGITS = re.compile(r"\D")
_THOUSANDS = re.compile(r"\d\s?k\b|thousand|grand")
_MILLIONS = re.compile(r"\d\s?m\b|million")


def _amount_value(amount: str) -> float:
    """Rough size of an amount, only to tell "$20" from "$95k a year"."""
    digits = _NON_DIGITS.sub("", amount.split(".")[0] if amount.count(".") == 1 else amount)
    value = float(digits or 0)
    low = amount.lower()
    if _THOUSANDS.search(low):
        value *= 1000
    if "万" in amount:
        value *= 10000
    elif _MILLIONS.search(low):
        value *= 1_000_000
    return value


# Someone else's figure, or a statistic: "his credit score is 712", "the average balance is …".
_NOT_THE_USER = re.compile(
    r"(?i)(?:\b(?:his|her|their|your|its|average|median|typical|mean|national|good|minimum"
    r"|required)|[a-z]'s|他的?|她的?|他们的?|平均)\s*$"
)


def _financial(t: str) -> Iterator[_Hit]:
    for pattern in _FIN_SUBJECTS:
        for m in pattern.finditer(t):
            stop = _CLAUSE_END.search(t, m.end(), m.end() + 60)
            limit = stop.start() if stop else min(len(t), m.end() + 60)
            for a in _AMOUNT_RE.finditer(t, m.end(), limit):
                amount = a.group(0).rstrip(" ,.")
                if is_year(amount):
                    continue
                yield (
                    _REGULATED,
                    "financial_figure",
                    a.start(),
                    a.start() + len(amount),
                    "financial",
                )
    for pattern in _FIN_PATTERNS:
        for m in pattern.finditer(t):
            if _NOT_THE_USER.search(t, max(0, m.start() - 20), m.start()):
                continue
            amount = m.group("amt").rstrip(" ,.")
            start = m.start("amt")
            end = start + len(amount)
            if "verb" in pattern.groupindex:
                verb = m.group("verb").lower()
                per = bool(_PER_PERIOD.match(m.group("tail")))
                if verb in {"have", "had", "saved", "have saved"} and not per:
                    continue
                if not per and _amount_value(amount) < 1000:
                    continue
            yield (_REGULATED, "financial_figure", start, end, "financial")
