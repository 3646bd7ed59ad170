"""Deterministic sensitivity floor: secrets, regulated identifiers and special categories.

Off-the-shelf detectors leak (see ``SENSITIVITY.md``): passwords stated in prose, Chinese resident
ids, dotted card numbers and almost every free-text health or religion statement got past all of
them. So the floor the governed write path relies on is this module: plain rules we own and test,
identifier validators with check digits from ``python-stdnum``, and a small lexicon plus an
"is this about the user?" check for special categories. It runs on every stored record and on
every record rendered into a context plan, so each family of rules sits behind a cheap gate and
every regular expression is compiled once, at import, with bounded repetition only.

This module runs the detectors; each family lives in :mod:`userlore.policy.detectors`, and the
report types in :mod:`userlore.policy.findings`.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final

from userlore.policy.detectors.account_parts import account_parts
from userlore.policy.detectors.amount_shares import amount_shares, listed_amounts
from userlore.policy.detectors.approx_amounts import approx_amounts
from userlore.policy.detectors.asked_prices import drop_asked_prices
from userlore.policy.detectors.asset_holdings import asset_holdings
from userlore.policy.detectors.card_expiry import card_expiry
from userlore.policy.detectors.check_ids import _check_lettered_ids, _mrz
from userlore.policy.detectors.check_parts import check_parts
from userlore.policy.detectors.code_clauses import code_clauses
from userlore.policy.detectors.code_lists import code_lists
from userlore.policy.detectors.code_sounds import code_sounds
from userlore.policy.detectors.common import _Hit, has_decimal, unnamed
from userlore.policy.detectors.corrected_values import corrected_values
from userlore.policy.detectors.cued_values import cued_values
from userlore.policy.detectors.described_parts import described_parts
from userlore.policy.detectors.dial_combos import dial_combos, turned_words
from userlore.policy.detectors.dismissed_codes import dismissed_codes
from userlore.policy.detectors.every_amount import every_amount
from userlore.policy.detectors.fee_income import fee_income
from userlore.policy.detectors.fiction_codes import drop_fiction_codes
from userlore.policy.detectors.financial import (
    _AMOUNT_RE,
    _FIN_GATE_CJK,
    _FIN_GATE_WORDS,
    _ZH_NUMBER,
    _financial,
)
from userlore.policy.detectors.generated_ids import generated_id_spans, misread_in_generated_id
from userlore.policy.detectors.glued_signs import glued_signs
from userlore.policy.detectors.grid_cards import grid_cards
from userlore.policy.detectors.hook_urls import hook_urls
from userlore.policy.detectors.iban_words import iban_words
from userlore.policy.detectors.keyed_ids import keyed_ids
from userlore.policy.detectors.keys import _KEY_GATE, _aws_secret, _high_entropy, _split_keys
from userlore.policy.detectors.late_values import late_values
from userlore.policy.detectors.letter_combos import letter_combos
from userlore.policy.detectors.licence_numbers import licence_numbers
from userlore.policy.detectors.lock_codes import lock_codes
from userlore.policy.detectors.minimum_wage import minimum_wage
from userlore.policy.detectors.minor_units import minor_units
from userlore.policy.detectors.money import own_money
from userlore.policy.detectors.money_forms import money_forms
from userlore.policy.detectors.national_ids import (
    _ID_GATE_CJK,
    _ID_GATE_WORDS,
    _contextual_ids,
    _passports_wide,
)
from userlore.policy.detectors.password_fields import password_fields
from userlore.policy.detectors.password_talk import drop_talked
from userlore.policy.detectors.password_variants import (
    RESTATED_RULE,
    password_variants,
    restated_keys,
    restated_values,
)
from userlore.policy.detectors.password_variants import RULE as VARIANT_RULE
from userlore.policy.detectors.passwords import (
    _CJK,
    _PW_GATE,
    _abbreviated_passwords,
    _described_pins,
    _passphrases_nearby,
    _passwords,
    _passwords_nearby,
    _recovery_codes,
)
from userlore.policy.detectors.payment import (
    _DIGIT_GATE,
    _cards,
    _cn_resident_ids,
    _cpfs,
    _ibans,
    _routing_accounts,
    _split_cards,
    _ssns,
)
from userlore.policy.detectors.payment_aliases import payment_aliases
from userlore.policy.detectors.priced_things import costs_the_user, given_to_user
from userlore.policy.detectors.prose_parts import prose_parts
from userlore.policy.detectors.public_material import mask_public_material
from userlore.policy.detectors.registry import registry_ids
from userlore.policy.detectors.romanised_codes import romanised_codes
from userlore.policy.detectors.said_digits import said_digits
from userlore.policy.detectors.said_sums import priced_amounts, result_amounts
from userlore.policy.detectors.said_values import drop_connectives, said_values
from userlore.policy.detectors.secret_forms import secret_forms
from userlore.policy.detectors.special import _special
from userlore.policy.detectors.special_vocab import _EN_WORD
from userlore.policy.detectors.tax_figures import tax_figures
from userlore.policy.detectors.tokens import (
    _TOKEN_GATE,
    _VENDOR,
    LOGIN_WORDS,
    _credential_pairs,
    _private_key_blocks,
    _query_secrets,
    _session_cookies,
    _totp_keys,
    _url_credentials,
    _vendor_tokens,
)
from userlore.policy.detectors.uncovered import uncovered_values
from userlore.policy.detectors.uncovered_cued import uncovered_cued
from userlore.policy.detectors.uncovered_money import uncovered_money
from userlore.policy.detectors.uncovered_shapes import uncovered_shapes
from userlore.policy.detectors.uncovered_tender import tendered_amounts
from userlore.policy.detectors.unread_values import unread_values
from userlore.policy.detectors.unvalidated_ids import unvalidated_ids
from userlore.policy.detectors.uuid_tokens import uuid_tokens
from userlore.policy.detectors.vendor_rules import maintained_vendor_tokens
from userlore.policy.findings import (
    _BLOCKING,
    _REGULATED,
    _SECRET,
    _SEVERITY,
    SPECIAL_CATEGORIES,
    Finding,
    SensitivityLevel,
    SensitivityReport,
)
from userlore.policy.literal_gate import GatedPattern
from userlore.policy.normalize import Folded, fold
from userlore.policy.spoken import fold_digits, spoken_view
from userlore.policy.wrapped_lines import wrapped_view

__all__ = [
    "SPECIAL_CATEGORIES",
    "Finding",
    "SensitivityLevel",
    "SensitivityReport",
    "classify",
    "redact",
]


# --------------------------------------------------------------------------------------------
# Entry points
# --------------------------------------------------------------------------------------------


_MONEY_GATE = re.compile(r"[€$£¥￥円元块]|eur|rea[li]|dollar|d[oó]lar|peso|usd|brl|gbp|chf")


# Words that make a bare amount the user's money ("owe 23k", "年薪 45 万"): see ``money``. Asked
# of every text with a digit (every store key): searched only where one of its words stands.
_OWN_MONEY_GATE = GatedPattern(
    re.compile(
        r"salar|salaire|salário|paycheck|income|saving|debt|owe|loan|mortgage|balance|account|sueldo|n[óo]mina|ahorr"
        r"|deuda|hipoteca|pr[ée]stamo|saldo|cuenta|gehalt|einkommen|konto|erspar|schulden|kredit"
        r"|revenu|[ée]pargne|dette|pr[êe]t|compte|cr[ée]dit|poupan|d[íi]vida|conta|工资|薪|收入|存款"
        r"|余额|欠|贷|账户|公积金|透支|給料|給与|年収|月収|手取り|貯金|預金|借金|ローン|残高|年金"
        r"|401k|ira\b|pension|portfolio|left|debo|devo|dois|schulde|reste|queda|resta|sobra|übrig"
        r"|livret|dispo|spar|depot|descubierto|previd|découvert"
        # gate4: net pay, pension and savings products, repayments, the user's debts
        r"|net|neto|l[íi]quido|limpo|limpio|after tax|take home|brut|paie|paye|versicherung|riester"
        r"|rürup|ruerup|pgbl|vgbl|ideco|nisa|isa\b|per\b|pea\b|bafög|rückzahlung|repay|rembours"
        r"|reembols|devolv|parcela|cuota|mensualit|raten|borrow|lent me|prest|geliehen|emprunt"
        r"|steuern|impuestos|impôt|impot|impostos|devendo|financ|税后|到手|养老|社保|医保|理财|基金|借|还款|还贷|奨学金|返済|保険料|退職金|税引"
        # blindfix16b: money the user lends, gives or is owed, and products by their names
        r"|lent|loaned|gave|give|send|sent|paid|pay\b|transfer|owes|verse|donne|envoie|doi[tv]"
        r"|deve|debe|paso|doy|mando|dou\b|mesada|consignado|bonds|bauspar|letra|von mir|gebe"
        r"|schicke|überweise|allowance|taschengeld|argent de poche|pel\b|lep\b|cel\b|ldds"
        r"|给|貸|仕送り"
        # blindfix21b: what the user paid for a thing of theirs (``money``'s ``_SPENT``), the
        # price said without a currency ("paguei 4.299 no meu notebook")
        r"|spent|dropped|shelled|forked|splashed|blew|bought|pagu|gast[ée]|compr[ée]|bezahlt"
        r"|gezahlt|ausgegeben|hingelegt|hingeblättert|gekauft|zahlte|kaufte|payé|dépensé|lâché"
        r"|claqué|acheté|花了|付了|买的|払った|買った|購入"
    )
)


def _detect(t: str, special: bool = True) -> list[_Hit]:
    hits: list[_Hit] = []
    lowered = t.lower()
    words = frozenset(_EN_WORD.findall(lowered))
    cjk = not t.isascii() and _CJK.search(t) is not None
    digit = has_decimal(t)
    if "PRIVATE KEY" in t or "PuTTY" in t:
        hits.extend(_private_key_blocks(t))
    spans = [m.span() for m in _TOKEN_GATE.finditer(t)]
    if spans:
        hits.extend(_vendor_tokens(t, spans))
        hits.extend(maintained_vendor_tokens(t, [(h[2], h[3]) for h in hits]))
        if _KEY_GATE.search(lowered):
            hits.extend(_high_entropy(t, lowered, spans))
        hits.extend(_aws_secret(t, lowered))
    hits.extend(_split_keys(t, lowered, words, _VENDOR))
    if ("://" in t and "@" in t) or "-u" in t or "-p" in t or "-a " in t:
        hits.extend(_url_credentials(t))
    hits.extend(hook_urls(t, lowered))  # a webhook URL whose path is the secret (blind13)
    hits.extend(password_fields(t))  # a Wi-Fi QR's P:, a .pgpass line's password (blind14)
    hits.extend(uuid_tokens(t, lowered))  # a UUID after a token or key word (blind15)
    if "=" in t and ("?" in t or "&" in t or "#" in t):
        hits.extend(_query_secrets(t))
    if "s%3A" in t or "=" in t:
        hits.extend(_session_cookies(t))
    if " " in t:
        hits.extend(_totp_keys(t))
    if _PW_GATE.search(lowered):
        hits.extend(_passwords(t, lowered))
        hits.extend(_passwords_nearby(t, lowered))
        hits.extend(_passphrases_nearby(t, lowered))  # after a correction or an aside (blind20)
    hits.extend(_abbreviated_passwords(t, lowered))
    hits.extend(_recovery_codes(t, lowered))
    if len(lowered) == len(t):
        hits.extend(_described_pins(lowered))
    if "/" in t and LOGIN_WORDS.search(t) is not None:
        hits.extend(_credential_pairs(t))
    six_digits = _DIGIT_GATE.search(t) is not None
    id_words = not _ID_GATE_WORDS.isdisjoint(words) or (cjk and _ID_GATE_CJK.search(t) is not None)
    if six_digits or (id_words and digit):
        taken: list[tuple[int, int]] = []
        gens = (
            [_cn_resident_ids(t), _ibans(t), _cpfs(t), _ssns(t), _check_lettered_ids(t)]
            if six_digits
            else []
        )
        if "<" in t:
            gens.append(_mrz(t))
        if id_words:
            gens.append(_contextual_ids(t, lowered))
            gens.append(_passports_wide(t, lowered))
        for gen in gens:
            for hit in gen:
                hits.append(hit)
                taken.append((hit[2], hit[3]))
        if six_digits:
            hits.extend(unnamed(iban_words(t), hits))  # mistyped, after "IBAN" (blind15)
            taken.extend((h[2], h[3]) for h in hits if h[0] is _SECRET)
            hits.extend(_cards(t, taken))
            taken.extend((h[2], h[3]) for h in hits if h[0] in _BLOCKING)
            hits.extend(_split_cards(t, taken))
            hits.extend(_routing_accounts(t))
            hits.extend(registry_ids(t, taken))
    if (not _FIN_GATE_WORDS.isdisjoint(words) or (cjk and _FIN_GATE_CJK.search(t))) and (
        _AMOUNT_RE.search(t) or "score" in words or "fico" in words or _ZH_NUMBER.search(t)
    ):
        hits.extend(_financial(t))
    if digit:
        hits.extend(lock_codes(t, lowered))
        hits.extend(dial_combos(t, lowered))  # blind8: dial turns, "Kombi also 17-42-08"
    elif turned_words(lowered):  # blind12: a dial's turns to number words, no digit
        hits.extend(dial_combos(t, lowered))
    hits.extend(letter_combos(t, lowered))  # a word lock's letters, "T-A-C-O-S" (blind14)
    if digit:
        # After every dedicated rule: where one already names the value, its verdict stands.
        hits.extend(unnamed(cued_values(t), hits))
    if digit:
        # Told in parts: a word then a number, spaced digits, an account after its bank.
        hits.extend(unnamed(prose_parts(t), hits))
    hits.extend(payment_aliases(t, lowered))  # a Pix key, a Bizum phone, a UPI id (blind13)
    if digit and (_MONEY_GATE.search(lowered) or _OWN_MONEY_GATE.search(lowered)):
        hits.extend(own_money(t))
    # Values said otherwise (blindfix7): spelled, in pieces, typed in groups, in slang.
    hits.extend(said_values(t, lowered))
    # The late classes: assembled, pasted as settings, social ids, the rent, code lists,
    # one-time codes, bank pairs, negotiations, quoted and later words (detectors/late_values).
    hits.extend(late_values(t, lowered, hits))
    # Money in everyday forms (blindfix10b): pay parts, income by period, bank exports, lakh.
    hits.extend(money_forms(t, lowered, hits))
    hits.extend(tax_figures(t, lowered, hits))  # a refund, a tax owed, a deduction
    hits.extend(fee_income(t, lowered, hits))  # an invoice, a fee, a rate, a client's payment
    hits.extend(asset_holdings(t, lowered, hits))  # coins and shares held, and their worth
    if digit:  # paid the minimum wage, and its figures (blind14)
        hits.extend(minimum_wage(t, lowered, hits))
    if digit:  # "…, which works out to $38,770" (blindfix24c); every amount it reads holds a \d
        hits.extend(result_amounts(t, lowered))
    hits.extend(every_amount(t, hits))  # the sentence's further amounts
    hits.extend(amount_shares(t, lowered, hits))  # a share of it, said as a bare number
    hits.extend(listed_amounts(t, lowered, hits))  # "… 60 balles à X et 40 à Y" (blindfix20a)
    hits.extend(minor_units(t, lowered, hits))  # its cents after it ("und 38 Cent"): blind14
    hits.extend(costs_the_user(t, lowered, hits))  # "mon appart me coûte 870 €" (blind15)
    hits.extend(given_to_user(t, lowered, hits))  # "grandma left me $23,500" (blindfix20a)
    if cjk:  # "余额宝里有4.7w", "退了我八百多" (blind15)
        hits.extend(approx_amounts(t, hits))
    hits.extend(priced_amounts(t, lowered, hits))  # "… e o quarto custa 550" (blindfix24c)
    # Secrets in forms no rule above reads: recovery words, keypad codes, pasted keys.
    hits.extend(secret_forms(t, lowered, hits))
    hits.extend(described_parts(t, lowered, hits))  # "… mit drei Ausrufezeichen am Ende" (blind14)
    hits.extend(romanised_codes(t, lowered))  # "密碼係 sâm kiú yit pat" (blindfix18a)
    if digit:  # every value of a turn about a code: corrections, old/new, lists
        hits.extend(unnamed(code_clauses(t, lowered, hits), hits))
        hits.extend(unnamed(dismissed_codes(t, lowered, hits), hits))  # "… never remind me of 6402"
    if digit:  # an id's check part named apart, an unlisted country's id
        hits.extend(check_parts(t, lowered, hits))
        # An id printed after its own word, valid or not ("cédula 4.512.093-6"): blind12.
        hits.extend(unnamed(unvalidated_ids(t, lowered), hits))
        # A licence number a sentence after its word, a UK licence by its shape (blind24).
        hits.extend(unnamed(licence_numbers(t, lowered), hits))
        hits.extend(card_expiry(t, hits))  # "4127 5730 0819 6640, Ablauf 09/28" (blind17)
        hits.extend(grid_cards(t, lowered))  # a coordinate card's "B4 = 7731, C2 = 0918" (blind17)
        hits.extend(account_parts(t, hits))  # "局號 0311247 帳號 0582963": blindfix18a
    hits = drop_connectives(t, hits)
    hits = drop_asked_prices(t, hits)  # "…950 € al mes, ¿está bien de precio?" (blind14)
    hits = drop_fiction_codes(t, hits)  # "write a story where … the code 3-7-1-9" (blind19)
    hits = drop_talked(t, hits)  # "why is passwort123 a bad password?" (blindfix23a)
    if special:
        hits.extend(_special(t, lowered, words))
    return hits


def classify(text: str, *, special: bool = True) -> SensitivityReport:
    """Find secrets, regulated identifiers and special-category statements in ``text``.

    Deterministic and offline; safe to call on every record. Detection reads the folded view
    the renderer's reader sees (:func:`userlore.policy.normalize.fold`: lookalike letters,
    entities, invisible characters and separators folded); findings carry spans into ``text``,
    the caller's string.

    Args:
        special: False leaves the special-category rules out, for a caller that reads only
            the secret and regulated findings (a key): those are the same either way, since
            the special rules yield neither level nor share a rule name with them.
    """
    if not text:
        return _EMPTY
    # Public key material and placeholder values are no secret: blanked (same length, so spans
    # still map) before any rule reads the text (``detectors/public_material.py``).
    folded = fold(text)
    unfolded = folded.text
    masked = mask_public_material(unfolded)
    if masked != folded.text:
        folded = dataclasses.replace(folded, text=masked)
    mapped: list[tuple[_Hit, Folded | _Composed | _Identity]] = [
        (h, folded) for h in _detect(folded.text, special)
    ]
    spoken = spoken_view(folded.text)
    if spoken.text != folded.text:
        # Values said in words ("four one one seven", "幺三五七", "p-a-s-s"): the same rules
        # read the view with each run replaced by its value; spans map back to the words.
        mapped.extend((h, _Composed(spoken, folded)) for h in _detect(spoken.text, special))
    # A code said one digit at a time, even where it reads as a year (blind13).
    mapped.extend((h, folded) for h in said_digits(folded.text, spoken))
    ocr = _ocr_view(folded.text)
    if ocr != folded.text:
        # "4S26 O181 …": letters a scan or a keyboard puts for digits, read as the digits.
        mapped.extend((h, folded) for h in _detect(ocr, special))
    wrapped = wrapped_view(folded.text)
    if wrapped != folded.text:
        # A value over a line break: an id's groups, a label then its value, an amount's unit.
        mapped.extend((h, folded) for h in _detect(wrapped, special=False))
    # Text in a language no rule reads: values by shape or said digit by digit, on the
    # caller's text (folding turns Cyrillic lookalikes into Latin, which would split a Russian
    # sentence's script); it returns at once on a text with neither. Where a dedicated rule
    # already names the value, its verdict stands.
    unmasked = masked if unfolded == text else mask_public_material(text)
    # Digits of every script read as ASCII ("𞥓𞥐𞥐 𞥐𞥐𞥐", "꘧꘣꘩꘡": blind24), one character
    # for one, so the spans still index the caller's text.
    unmasked = fold_digits(unmasked)
    uncovered = [*uncovered_values(unmasked), *uncovered_shapes(unmasked)]
    # Money in words or beside an amount (blindfix8b), the clause after a credential acronym
    # (blindfix9c), a code said as a list of words (blind11): only where the rules above named
    # nothing.
    # An id and its check part in any language (blind14): it replaces the bare run it holds,
    # which the id-shaped runs above may have read alone ("1 85 03 31 555 123 clau 48": blind24).
    keyed = [
        k
        for k in keyed_ids(unmasked)
        if all(k[2] <= u[2] and u[3] <= k[3] for u in uncovered if u[2] < k[3] and k[2] < u[3])
    ]
    uncovered = [u for u in uncovered if not any(k[2] <= u[2] and u[3] <= k[3] for k in keyed)]
    uncovered += [
        h
        for h in [
            *uncovered_money(unmasked),
            *uncovered_cued(unmasked),
            *code_lists(unmasked),
            *code_sounds(unmasked),  # blind14: a code in number words CLDR does not spell
            *keyed,
            # blind15: "M25 000", "E4 500": a lettered sign glued on. Every match of its gate
            # holds a ``\d``, has_decimal's own test: no decimal digit, no match (perf24).
            *(glued_signs(unmasked) if has_decimal(unmasked) else ()),
            *unread_values(unmasked),  # blind13: money and ids where CLDR reads no number
            *tendered_amounts(unmasked),  # blindfix21b: "380 dollars", any locale's currency
        ]
        if not any(u[2] < h[3] and h[2] < u[3] for u in uncovered)
    ]
    if uncovered:
        named = [view.span(h[2], h[3]) for h, view in mapped if h[0] in _BLOCKING]
        mapped.extend(
            (h, _SAME) for h in uncovered if not any(s < h[3] and h[2] < e for s, e in named)
        )
    if not mapped:
        return _EMPTY
    seen: set[tuple[str, int, int]] = set()
    findings: list[Finding] = []
    ids = generated_id_spans(text)
    for (level, rule, start, end, category), view in mapped:
        if end <= start:
            continue
        start, end = view.span(start, end)
        if ids and misread_in_generated_id(ids, start, end, level is _REGULATED):
            continue  # a piece of a uuid, a digest or a ULID is no value
        if level in _BLOCKING:
            start, end = _whole_token(text, start, end)
        key = (rule, start, end)
        if key in seen:
            continue
        seen.add(key)
        findings.append(Finding(level, rule, start, end, category))
    # A secret's other spelling in the same turn ("… not Txakolina1, Txakolina_91"): blind11.
    secrets = [(f.start, f.end) for f in findings if f.level is _SECRET]
    if secrets:
        findings.extend(
            Finding(_SECRET, VARIANT_RULE, s, e, None) for s, e in password_variants(text, secrets)
        )
        findings.extend(_restated(text, secrets, folded, spoken))
    # A value corrected in the same turn ("3010 1234 5678 じゃなくて、3010 2948 1736"): the
    # corrected run takes the finding of the one it replaces (blindfix22b).
    blocking = {(f.start, f.end): f for f in findings if f.level in _BLOCKING}
    for source, (s, e) in list(corrected_values(text, blocking)):
        f = blocking[source]
        findings.append(Finding(f.level, f.rule, s, e, f.category))
    findings.sort(key=lambda f: (f.start, -_SEVERITY[f.level], f.end))
    return SensitivityReport(tuple(findings))


_EMPTY: Final = SensitivityReport(())


def _restated(
    text: str, secrets: list[tuple[int, int]], folded: Folded, spoken: Folded
) -> Iterator[Finding]:
    """A secret said again in another form in the same turn ("0-7-3-9 … 0739", "8204 …
    eight two zero four"): every run that folds to a found secret's characters (blind24)."""
    values = [text[s:e] for s, e in secrets]
    said = [spoken_view(v).text for v in values if not any(c.isdigit() for c in v)]
    keys = restated_keys([*values, *said])
    if not keys:
        return
    views: list[tuple[str, Folded | _Composed]] = [(folded.text, folded)]
    if spoken.text != folded.text:
        views.append((spoken.text, _Composed(spoken, folded)))
    seen = set(secrets)
    for view_text, view in views:
        for start, end in restated_values(view_text, keys):
            s, e = view.span(start, end)
            if (s, e) not in seen and not any(a <= s and e <= b for a, b in secrets):
                seen.add((s, e))
                yield Finding(_SECRET, RESTATED_RULE, s, e, None)


def _is_word_char(c: str) -> bool:
    return c.isascii() and c.isalnum()


def _whole_token(text: str, start: int, end: int) -> tuple[int, int]:
    """Widen a value's span to its whole token, so no redaction leaves a piece behind.

    A span that ends (or starts) between two ASCII letters or digits cut a token: a rule's
    length cap or window stopped inside it ("[REDACTED]b0f00a08"). A key in groups ("VK7JG-
    NPHTM-C97JM-9MPGT-3V66T", "4821.9930.7712") cut at a separator keeps its other groups
    (:func:`_key_groups`)."""
    while 0 < end < len(text) and _is_word_char(text[end - 1]) and _is_word_char(text[end]):
        end += 1
    while 0 < start < len(text) and _is_word_char(text[start]) and _is_word_char(text[start - 1]):
        start -= 1
    if (end < len(text) and text[end] in _KEY_SEPARATORS) or (
        start > 0 and text[start - 1] in _KEY_SEPARATORS
    ):
        return _key_groups(text, start, end)
    return start, end


_KEY_SEPARATORS: Final = "-_. "
_GROUP = re.compile(r"[A-Za-z0-9]+")
_NEXT_GROUP = re.compile(r"[-_. ]([A-Za-z0-9]+)")
_PREVIOUS_GROUP = re.compile(r"([A-Za-z0-9]+)[-_. ]$")


def _same_group(group: str, other: str, sep: str) -> bool:
    """Whether ``group`` is another group of the key ``other`` belongs to: letters and digits
    mixed ("9MPGT"; not after a space), or the same length and kind as ``other`` ("NPHTM" after
    "VK7JG", "7712" after "9930"), so a date, a version or the next word of prose is not taken."""
    mixed = any(c.isdigit() for c in group) and any(c.isalpha() for c in group)
    if sep != " " and mixed and len(group) >= 2:
        return True
    if len(group) != len(other) or len(group) < 4:
        return False
    if group.isdigit():
        return other.isdigit()
    # Letters only: a key's group after a dash ("NPHTM"), never a word after a space ("IBAN").
    return sep != " " and group.isupper() and (other.isupper() or not other.isalpha())


def _key_groups(text: str, start: int, end: int) -> tuple[int, int]:
    """``start, end`` widened over the key's groups on either side: one separator (``-``,
    ``_``, ``.``; a space only where the value is already spaced) and a group of the same key
    (:func:`_same_group`), repeatedly."""
    spaced = " " in text[start:end]
    while end < len(text) and _is_word_char(text[end - 1]):
        m = _NEXT_GROUP.match(text, end)
        if m is None or (m.group(0)[0] == " " and not spaced):
            break
        if m.end() < len(text) and _is_word_char(text[m.end()]):
            break  # "-ä…": not a group of letters and digits
        if not _same_group(m.group(1), _GROUP.findall(text, start, end)[-1], m.group(0)[0]):
            break
        end = m.end()
    while start > 0 and _is_word_char(text[start]):
        m = _PREVIOUS_GROUP.search(text, max(0, start - 40), start)
        if m is None or (m.group(0)[-1] == " " and not spaced):
            break
        if m.start() > 0 and _is_word_char(text[m.start() - 1]):
            break
        if not _same_group(m.group(1), _GROUP.findall(text, start, end)[0], m.group(0)[-1]):
            break
        start = m.start()
    return start, end


# A run of digits and the letters OCR and typing confuse with them, with separators; taken only
# when most of it is digits (see ``_ocr_view``).
_OCR_RUN = re.compile(r"(?<![A-Za-z0-9])[0-9OolISB](?:[ \-./]?[0-9OolISB]){7,}(?![A-Za-z0-9])")
_OCR_DIGITS: Final = str.maketrans("OolISB", "001158")
_ASCII_DIGITS: Final = "0123456789"
_OCR_MIN_DIGITS: Final = 6


def _ocr_view(t: str) -> str:
    """``t`` with O/o, l/I, S and B read as 0, 1, 5 and 8 inside runs that are mostly digits."""
    if sum(map(t.count, _ASCII_DIGITS)) < _OCR_MIN_DIGITS or not _OCR_RUN.search(t):
        return t  # a run is read only with six ASCII digits in it: fewer in the text, none is
    out = []
    pos = 0
    for m in _OCR_RUN.finditer(t):
        run = m.group(0)
        digits = sum(c.isdigit() for c in run)
        letters = sum(c.isalpha() for c in run)
        if letters == 0 or digits < 2 * letters or digits < _OCR_MIN_DIGITS:
            continue
        out.append(t[pos : m.start()])
        out.append(run.translate(_OCR_DIGITS))
        pos = m.end()
    out.append(t[pos:])
    return "".join(out)


@dataclass(frozen=True, slots=True)
class _Identity:
    """The caller's text itself: spans are already its own."""

    def span(self, start: int, end: int) -> tuple[int, int]:
        return start, end


_SAME: Final = _Identity()


@dataclass(frozen=True, slots=True)
class _Composed:
    """A view of a view: spans map through ``inner`` first, then ``outer``."""

    inner: Folded
    outer: Folded

    def span(self, start: int, end: int) -> tuple[int, int]:
        return self.outer.span(*self.inner.span(start, end))


def redact(text: str, report: SensitivityReport | None = None) -> str:
    """Replace every secret or regulated span with ``[REDACTED:<rule>]``.

    Special-category text is kept: it is stored gated by consent, not removed. The result is
    re-checked, so a value that only becomes visible once its neighbours are gone is redacted
    too; the returned text never classifies as blocked.
    """
    current = text
    rep = report if report is not None else classify(text)
    for _ in range(4):
        spans = sorted((f.start, f.end, f.rule) for f in rep.findings if f.level in _BLOCKING)
        if not spans:
            return current
        current = _apply_redactions(current, spans)
        rep = classify(current)
    if rep.is_blocked:
        return "[REDACTED:unclassified]"
    return current


def _apply_redactions(text: str, spans: list[tuple[int, int, str]]) -> str:
    merged: list[list[Any]] = []
    for start, end, rule in spans:
        if merged and start < merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
            continue
        merged.append([start, end, rule])
    out: list[str] = []
    pos = 0
    for start, end, rule in merged:
        out.append(text[pos:start])
        out.append(f"[REDACTED:{rule}]")
        pos = end
    out.append(text[pos:])
    return "".join(out)
