"""The user's own money in the formats of the seven languages: 12万円, 1.234 €, R$ 1.234,00.

``financial`` reads English and Chinese phrasing with ASCII amounts; salaries and savings said
in German, French, Spanish, Portuguese or Japanese, with a decimal comma or a space as the
thousands separator, passed. Here an amount is any number with a currency (symbols and codes
from ``babel``'s locale data for the seven languages, plus the spoken currency words) that
``price-parser`` reads as a price, and it is the user's own when its clause says so: a
first-person word ("mi", "mein", "j'ai", "tenho", "我") or, in Japanese where the subject is
usually left out, a money noun that is personal by itself (給料, 貯金, 借金). A clause about
someone else ("her salary", "son salaire", "my brother's", by the gate's own ``others`` cues),
an average or a minimum wage, or a price is not.

An implied subject is the user's in every language ("Savings account: $12,400", "存款还有 12
万", "Gehalt netto 3 100 Euro"): a personal money noun (salary, savings, debt, loan, mortgage,
balance, in the seven languages) makes an amount the user's without a first-person word, and
beside one a bare amount counts too ("owe 23k", "salaire annuel 48k", "年薪 45 万").
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator

from userlore.policy.cue_data import Cues, cues
from userlore.policy.detectors.common import _Hit, is_year
from userlore.policy.detectors.own_sums import (
    before_conjunction,
    group_figure,
    mask_compared,
    own_sums,
    sentence_around,
)
from userlore.policy.findings import _REGULATED
from userlore.policy.first_person import first_person

_LOCALES = ("en", "zh", "es", "de", "fr", "ja", "pt_BR", "pt_PT")
_CODES = ("EUR", "USD", "GBP", "JPY", "CNY", "BRL", "MXN", "CHF")
_WORDS = r"euros?|eur|reais|real|dólares|dolares|dollars?|d[oó]lares|pesos|francs?|yuan|rmb"
# A magnitude said as a word, in the seven languages ("1.4 million", "1,3 millones de",
# "1,2 million d'", "85 Tausend", "90 mil"; issue 29, dialects6): the number before it is
# only its mantissa, so without it "1,5 Millionen Euro auf meinem Depot" was stored.
_MAGNITUDE = (
    r"(?i:thousand|millions?|billions?|tausend|millionen|mio\.?|milliarden?|mrd\.?|mil"
    r"|mill[óo]n|millones|mil millones|mille|milliards?|milh[ãa]o|milh[õo]es|bilh[ãa]o"
    r"|bilh[õo]es)"
)
# After a magnitude word the currency may be one the seven locales do not print ("2.1 million
# pounds", "2 Millionen Franken", "1.2 million naira"): a weight or a region is not counted
# in millions.
_MAGNITUDE_OF = rf"\s{_MAGNITUDE}(?:\s(?i:de|of)\s|\sd['’]|\s)?"
_MAGNITUDE_CURRENCY = r"pounds?|pfund|libras?|livres?|franken|naira|rand|yen"
_AFTER_MAGNITUDE = (
    r"(?i:de|d['’]|of|em|en|in|on|auf|bei|à|a|al|au|für|for|to|per|im|por|par|every|each|from"
    r"|na|no|do|da|das|dos|im|pro|und|and|et|y|e)(?![A-Za-z])"
)


@functools.cache
def _currency() -> str:
    """One alternation of the currency symbols the seven locales print, longest first."""
    from babel import Locale

    symbols = {"€", "$", "£", "¥", "￥", "R$", "US$", "円", "元", "块", "万円", "ドル"}
    for name in _LOCALES:
        loc = Locale.parse(name)
        symbols.update(loc.currency_symbols.get(code, code) for code in _CODES)
    symbols.update(_CODES)
    return "|".join(re.escape(s) for s in sorted(symbols, key=len, reverse=True))


@functools.cache
def _amount() -> re.Pattern[str]:
    cur = _currency()
    number = r"\d{1,3}(?:(?:[.,\u00a0 ]\d{3})+|\d{0,6})(?:[.,]\d{1,2})?"
    return re.compile(
        rf"(?<![A-Za-z0-9_.,])(?:(?:{cur})\s?{number}(?:\s?(?:万|千|k|K)|\s{_MAGNITUDE}(?![A-Za-z]))?"
        rf"|{number}\s?(?:万|千|億|亿)?\s?(?:{cur}|(?i:{_WORDS}))(?![A-Za-z])"
        rf"|{number}{_MAGNITUDE_OF}(?:{cur}|(?i:{_WORDS}|{_MAGNITUDE_CURRENCY}))(?![A-Za-z]))"
    )


_JA_PERSONAL = re.compile(
    r"給料|月給|月収|年収|年俸|手取り|貯金|借金|ローン|口座残高|預金|収入|ボーナス|残高|年金|積立"
    r"|奨学金|返済|借り|iDeCo|NISA|ニーサ|イデコ|保険料|退職金|税引き後"
)
# A money noun that is the speaker's by itself when no one else is named (an implied subject).
# French "dois" (I owe) only with its subject: alone it is Portuguese "two" ("Dois cafés, R$ 9").
_PERSONAL = re.compile(
    r"(?i)(?<!\w)(?:salary|salaries|paycheck|pay ?slip|take-home|income|savings|debts?|owe[ds]?"
    r"|loans?|mortgage|balance|net worth|checking|account|overdraft|credit card|401k|ira|roth"
    r"|pension|portfolio|brokerage|have left|debo|devo|je dois|j'en dois|schulde|reste"
    r"|restent|quedan?"
    r"|restam?|sobram?|übrig|livret|pea|assurance[- ]vie|dispo|\w*spar\w*|tagesgeld|depot"
    r"|descubierto|plan de pensiones|previd[êe]ncia|fgts|cheque especial|d[ée]couvert"
    r"|sueldo|salario|n[óo]mina|ahorr\w*|deudas?|hipoteca|pr[ée]stamo|saldo|cuenta|cr[ée]dito"
    r"|\w*gehalt\w*|einkommen|\w*konto\w*|erspar\w*|gespart|\w*schulden|\w*kredit\w*"
    r"|hypothek|verdien\w*"
    # Pay said as what is left after tax, and pension, savings and loan products (gate4).
    r"|net|nets?|netto|neto|netos|l[íi]quidos?|limpos|limpios|after[- ]tax(?:es)?|take home"
    r"|nach (?:abzug der )?steuern|despu[ée]s de impuestos|apr[èe]s imp[ôo]ts?"
    r"|depois d(?:os|e) impostos|livre de impostos"
    r"|brutto|bruto|brut|paie|paye|\w*versicherung|riester|r[üu]rup|bausparvertrag|\w*sparplan"
    r"|plan d'[ée]pargne|plan de ahorro|pgbl|vgbl|ideco|nisa|isa|pension pot|student loans?"
    r"|bafög\w*|r[üu]ckzahlung|repayments?|rembourse\w*|reembols\w*|devolv\w*|parcelas?"
    r"|cuotas?|mensualit[ée]s?|raten|monatsrate"
    r"|salaire|revenus?|[ée]pargne|[ée]conomies|dettes?|pr[êe]t|hypoth[èe]que|solde|compte"
    r"|cr[ée]dit|sal[áa]rio|poupan[çc]a|d[íi]vidas?|empr[ée]stimo|conta|financiamento"
    # Loans and savings by their product's name (blindfix16b): a payroll loan, car finance.
    r"|consignado|premium bonds|car finance|letras? del (?:coche|piso|carro|pr[ée]stamo)|bauspar\w*"
    r")(?!\w)|工资|薪水|月薪|年薪|收入|存款|余额|欠|贷款|房贷|车贷|信用卡|账户|存了|公积金|透支"
    r"|税后|到手|养老保险|养老金|社保|医保|理财|基金|借了|还款|还贷|助学贷款"
)
_BARE = re.compile(
    r"(?<![A-Za-z0-9_.,])(?:\d+(?:[.,]\d+)?\s?(?:[kK]|万|千|億|亿|mil|Mio\.?)(?![A-Za-z])"
    # A digit after 万/千 is its tenth ("税前大概 11万2": 11.2万; blindfix19d).
    r"|\d{1,4}[万千]\d(?![\d.,万千])"
    # A magnitude said in a word, not counting a noun ("2 million followers"): at the clause's
    # end or before a preposition ("2 millones de pesos", "1,2 Millionen auf dem Konto").
    rf"|\d+(?:[.,]\d+)?\s{_MAGNITUDE}(?![A-Za-z])(?=\s*(?:$|[^\w\s]|{_AFTER_MAGNITUDE}))"
    r"|\d{1,3}(?:[.,\u00a0 ]\d{3})+(?:[.,]\d{1,2})?|\d{4,}(?:[.,]\d{1,2})?"
    # A smaller sum said per month or week ("repayments are 380 a month", "130 € im Monat").
    r"|\d{2,3}(?:[.,]\d{1,2})?(?=\s?(?:€|euros?|\$|reais)?\s?(?i:a|per|/|al|im|pro|par|por|each)"
    r"\s?(?i:month|mo|week|mes|monat|mois|m[eê]s|semana|woche|semaine)))(?![A-Za-z0-9_])"
)
# The user's own debt: a relative as the creditor does not make it someone else's money
# ("debo casi 6.000 € a mi hermano", "I borrowed 5,000 from my dad", "兄に50万円借りてる").
_OWN_DEBT = re.compile(
    r"(?i)(?<!\w)(?:i (?:still |now )?owe|i(?:'ve| have)? borrowed|(?:lent|loaned) me"
    r"|(?:le |les )?debo|me prest\w+|ped[íi] prestad\w+|ich schulde|schulde ich"
    r"|(?:hat|haben) mir [^.!?]{0,30}geliehen|je (?:lui |leur )?dois|j'en dois"
    r"|m'(?:a|ont) pr[êe]t[ée]|j'ai emprunt[ée]|devo|devendo|me emprestou|peguei emprestado)(?!\w)"
    r"|我欠|我[^。！？]{0,6}借了|[跟向][^。！？]{1,4}借了"
    # Borrowed with no other subject before it, or with the speaker's ("彼は友達に…借りた" is
    # his debt; blindfix20a).
    r"|^(?:[^。！？]*?(?:私|僕|俺|自分)|[^がは。！？]*?)に[^。！？]{0,12}借り"
)
# The user's money lent, given or owed to them: the relative or friend in the clause is who gets
# it, not whose it is ("lent my flatmate $600", "le paso a mi hijo 250 euros al mes", "mon ex me
# doit encore 1 200 €", "借给我表哥八千五", "弟に30万円貸した"; issue 29, blindfix16b). A verb
# with no subject counts only at the clause's start ("my sister lent her friend 2,400" is hers).
_OWN_LOAN = re.compile(
    r"(?i)(?<!\w)(?:i (?:lent|loaned|gave|give|send|sent|pay|paid|transfer(?:red)?)"
    r"|^\s*(?:lent|loaned|gave|sent)|owes? me|owed me"
    r"|(?:le|les) (?:prest[ée]|paso|doy|di|mando|mand[ée]|env[íi]o|envi[ée])|me deben?"
    r"|(?:habe|hab) [^.!?]{0,30}geliehen|von mir|schulde[tn] mir|ich (?:gebe|schicke|überweise)"
    r"|j'ai prêté|je (?:lui |leur )?(?:prête|verse|donne|envoie)|j'(?:envoie|verse)"
    r"|me doi(?:t|vent)"
    r"|emprestei|me deve[m]?|(?:eu )?(?:dou|mando) [^.!?]{0,20}(?:mesada|pra|para)"
    # An allowance the user pays, said as theirs ("a minha mesada para o meu filho").
    r"|(?:my|mi|mein\w*|ma|mon|minha|meu) (?:allowance|pocket money|paga|taschengeld"
    r"|argent de poche|mesada))(?!\w)"
    # Chinese and Japanese leave the subject out: lent with no one else before it ("我表哥借给他
    # 同学" is the cousin's), given by 我, lent or sent with no other subject (が/は) before.
    r"|(?<![他她们哥姐弟妹爸妈友学事舅叔姨婆爷])借给|欠我|我[^。！？，,他她们哥姐弟妹爸妈友学事舅叔姨婆爷借]{0,5}给"
    r"|^[^がは。！？]*?(?:に[^。！？]{0,12}(?:貸し|送っ|送金し|あげ|渡し)|貸した|仕送り)"
)
# What the user paid for a thing of theirs (issue 29, blindfix17b): "paid 389 quid for my
# Kindle", "Paguei R$ 12.490 no meu carro", "买这台笔记本花了6999元", "24万8千円もした" were
# stored, the verb of spending being no money word. A spending verb in the first person (by its
# own ending or subject: "pagué", "j'ai payé", "hab … bezahlt") or with no subject in English
# ("dropped 89 quid on my headphones") counts with a thing of the user's in its clause
# (``_USERS_THING``: "Compré 3 kilos de tomates por 4,50 €" is a shop's price), and so does
# one whose object is the user ("set me back", "m'a coûté", "hat mich … gekostet"; "El candado
# me costó 15 euros" is a padlock's price). Chinese
# and Japanese leave the subject out: spending before a bought thing ("花四千八买的") or a
# bought thing's price stressed as high ("買った…もした"; not a lunch's "5,000円もした") is the
# user's unless the clause names someone else.
_SPENT = re.compile(
    r"(?i)(?<![\w'])(?:i (?:just |recently )?(?:spent|dropped|shelled out|forked out"
    r"|splashed out|blew|bought|paid)|^\s*(?:paid|spent|dropped|shelled out|forked out"
    r"|splashed out|bought)|(?:paid|spent|dropped|shelled out|forked out|splashed out)"
    r"[^!?\n]{0,30}\b(?:on|for)|pagu[ée]|(?:me )?gast[ée]|compr[ée]"
    r"|(?:ich )?(?:hab|habe|hatte)\b[^!?\n]{0,40}\b(?:bezahlt|gezahlt|ausgegeben|hingelegt"
    r"|hingeblättert|gekauft)|ich (?:zahlte|bezahlte|kaufte)"
    r"|j'ai (?:pay[ée]|d[ée]pens[ée]|l[âa]ch[ée]|claqu[ée]|achet[ée]|mis)"
    r"|paguei|gastei|comprei)(?![\w'])"
)
_USERS_THING = re.compile(
    r"(?i)(?<![\w'])(?:my|our|mi|mis|nuestr[oa]s?|mein\w*|unser\w*|mon|ma|notre|meu|minha"
    # French "mes", not Spanish "al mes" (a month).
    r"|meus|minhas|noss[oa]s?|(?<!al )(?<!el )(?<!por )(?<!este )(?<!cada )(?<!un )mes)(?![\w'])"
)
_COST_THE_USER = re.compile(
    r"(?i)(?<![\w'])(?:set (?:me|us) back|me (?:cost[óo]|sali[óo])"
    r"|(?:hat|haben) (?:mich|uns)\b[^!?\n]{0,30}\bgekostet|m'(?:a|ont) co[uû]t[ée]"
    r"|me custou|custou-me)(?![\w'])"
)
_CJK_COST = re.compile(
    r"我[^。！？，,他她们哥姐弟妹爸妈友学事舅叔姨婆爷]{0,10}(?:花了|付了)|花了我|花[^。！？，,他她们]{0,8}买的"
    r"|買った[^。！？]{0,20}もした|払った|出して買|購入した"
    # The price before what it bought ("私は89,800で買った"; blindfix21b), not a shop
    # ("店で買った").
    r"|\d[\d,.]*円?で買っ"
)


def _own_spending(clause: str) -> bool:
    """What the user paid for a thing of theirs (see ``_SPENT``)."""
    if _CJK_COST.search(clause) is not None:
        return True
    spent = _SPENT.search(clause) is not None or _COST_THE_USER.search(clause) is not None
    return spent and _USERS_THING.search(clause) is not None


_MONEY_NOUNS = re.compile(
    r"(?i)salary|income|savings|saved|debt|owe|earn|balance|pay|konto|gehalt|verdien|schulden"
    r"|erspar|einkommen|salaire|gagne|épargne|dette|je dois|j'en dois|solde|revenu|sueldo"
    r"|salario|gano|deuda"
    r"|ahorr|saldo|ingreso|sal[áa]rio|ganho|devo|d[íi]vida|conta|poupan|renda|tenho|habe|have"
    r"|tengo|j'ai|recebo|cobro|touche|bekomme|kriege|netto|net|neto|l[íi]quido|borrowed"
    r"|工资|月薪|年薪|存款|欠|收入|余额|贷款|給料|貯金|借金|年収|月給|手取り"
    # State benefits the user receives, in Chinese and Japanese (blindfix17b): with a first-person
    # word. The Latin names are ``second_amounts``' payment words, which read a bare number too.
    r"|低保|失业金|补贴|手当|生活保護"
)
_NOT_OWN = re.compile(
    r"(?i)(?<!\w)(?:her|his|their|its|son(?!\s+\d)|sa|ses|leur|su|sus|sein\w*|ihr\w*|dela|dele|deles"
    r"|average|moyen\w*|promedio|medio|durchschnitt\w*|m[ée]dia|minimum|m[íi]nimo|mindest\w*"
    r"|costs?|kostet|co[uû]te|cuesta|custa|price|preis|prix|precio|pre[çc]o|raised|company"
    # A product's ceiling set by law ("le plafond du PEL est de 61 200 €"), not "au plafond".
    r"|le plafond|the ceiling|o teto|el tope|die obergrenze|der h[öo]chstbetrag"
    r"|fees?|geb[üu]hr\w*|frais|comisi[óo]n|tarifa|taxa|tarif|restaurant\w*|jantar|almo[çc]o|cena|d[îi]ner|addition|firma|empresa|entreprise)(?!\w)|彼|她|他的|平均|人均|価格|値段|カメラ|興行|公司|价格|价钱|售价|多少钱|手续费|年费|手数料|年会費"
)
# Savings and pension products named by their acronyms, in capitals only ("PER" is "per").
_PRODUCTS = re.compile(
    r"(?<!\w)(?:PER|PEA|PERP|PERCO|ISA|SIPP|PGBL|VGBL|FGTS|IRA|PEL|CEL|LEP|LDDS)(?!\w)"
)
# "il y a", "es gibt", "there is": no one's subject ("sur mon PER il y a 14 000 €").
_IMPERSONAL = re.compile(r"\bil y a\b|\bil me reste\b|\bes gibt\b|\bthere (?:is|are)\b")
_NEXT_WORD = re.compile(r"\s?([^\W\d_]+)")
_CLAUSE = re.compile(r"[.!?。！？\n;]")


def counted(t: str, end: int, units: frozenset[str]) -> bool:
    """Whether the number ending at ``end`` counts or measures something: the word right
    after it is one of ``units`` (a count's nouns, ``cues().counts``: "1 980 places", "23.000
    Einwohner"), so it is no sum."""
    after = _NEXT_WORD.match(t, end)
    return after is not None and after.group(1).casefold() in units


def own_money(t: str) -> Iterator[_Hit]:
    """Amounts in a clause that makes them the speaker's own (see the module docstring)."""
    c = cues()
    seen: list[tuple[int, int]] = []
    for m in _amount().finditer(t):
        from price_parser import Price

        if Price.fromstring(m.group(0)).amount is None:
            continue
        clause = _clause(t, m.start(), m.end())
        mine = _others_clause(t, m.start(), m.end())
        if _others_money(mine, c) or _group_figure(t, m.start(), m.end()):
            continue
        own = (
            first_person().speaker.search(clause) is not None
            and (
                _MONEY_NOUNS.search(clause) is not None
                # Money received: "my settlement", "mi pensión" (blindfix24c).
                or own_sums().receipts.search(clause.casefold()) is not None
            )
        ) or c.money_verb_of_self(clause.casefold())  # "me prête 15 000 €", "debe yo 800"
        if own or _personal(clause):
            seen.append(m.span())
            yield (_REGULATED, "financial_figure", m.start(), m.end(), "financial")
    for m in _BARE.finditer(t):
        if any(s <= m.start() < e for s, e in seen) or is_year(m.group(0)):
            continue
        clause = _clause(t, m.start(), m.end())
        if _others_money(clause, c) or _group_figure(t, m.start(), m.end()):
            continue
        if counted(t, m.end(), c.counts):
            continue  # a count ("1 980 places", "23.000 Einwohner")
        if _personal(clause):
            yield (_REGULATED, "financial_figure", m.start(), m.end(), "financial")


def _personal(clause: str) -> bool:
    """A money noun, product or debt that is the speaker's by itself (an implied subject)."""
    return (
        _JA_PERSONAL.search(clause) is not None
        or _PERSONAL.search(clause) is not None
        or _PRODUCTS.search(clause) is not None
        or _OWN_DEBT.search(clause) is not None
        or _OWN_LOAN.search(clause) is not None
        or _own_spending(clause)
    )


def _others_money(clause: str, c: Cues) -> bool:
    """Someone else's money, a price or an average, unless the clause states the user's own
    debt (a creditor who is a relative is still someone the user owes)."""
    if _OWN_DEBT.search(clause) or _OWN_LOAN.search(clause):
        return False
    clause = _MINIMUM_DUE.sub(" ", clause)
    # The user's amount compared with a group's is still the user's ("my gross is about the
    # average, 3.900 €"; blindfix24c).
    clause = mask_compared(clause)
    if _NOT_OWN.search(clause) is not None:
        return True
    return c.about_others(_IMPERSONAL.sub(" ", clause.casefold()))


def _group_figure(t: str, lo: int, hi: int) -> bool:
    """The sentence around ``t[lo:hi]`` states a group's figure and names no speaker
    ("Durchschnittsgehalt Pflegekraft … laut Statistik bei ca. 3.900 €"; blindfix24c): the
    whole sentence, as the clause's 60 characters may leave its subject out."""
    return group_figure(sentence_around(t, lo, hi), first_person().speaker)


# The minimum payment of the user's own bill is no public minimum ("a fatura do Nubank tá em
# R$ 3.987,50 e só consigo pagar o mínimo"; blindfix19d).
_MINIMUM_DUE = re.compile(
    r"(?i)(?<!\w)(?:pay(?:ing)? (?:the |only the )?minimum|pagar (?:s[óo] )?(?:o|el) m[íi]nimo"
    r"|payer le minimum|(?:den )?mindestbetrag (?:zahlen|bezahlen))(?!\w)"
)


def _clause(t: str, lo: int, hi: int) -> str:
    """The clause around ``t[lo:hi]`` (up to 60 characters before and 30 after)."""
    start, end = _clause_span(t, lo, hi)
    return t[start:end]


def _clause_span(t: str, lo: int, hi: int) -> tuple[int, int]:
    """The bounds of :func:`_clause`."""
    start = lo
    while start > 0 and not _CLAUSE.match(t, start - 1) and lo - start < 60:
        start -= 1
    end = hi
    while end < len(t) and not _CLAUSE.match(t, end) and end - hi < 30:
        end += 1
    return start, end


def _others_clause(t: str, lo: int, hi: int) -> str:
    """The clause around ``t[lo:hi]`` up to a conjunction after it, for whose money it is:
    "Ganho 1.100 euros e o meu quarto custa 450" prices the room, not the pay (blindfix24c)."""
    start, end = _clause_span(t, lo, hi)
    return before_conjunction(t[start:end], hi - start)
