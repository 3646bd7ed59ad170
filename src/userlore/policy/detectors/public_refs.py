"""Versions and carriers' tracking numbers beside credential words (issue 29, blind12).

blind12 withheld or redacted "fix: pin ruff to 0.6.9 …" ("pin" as a verb, a version as its
value), パスワードは「********」のように伏せ字で表示されます (a mask is no value: ``stand_ins``
blanks masks) and "colis Colissimo 6A12345678901 bloqué" (a tracking number redacted as a
credential). These spans are public: blanked with the other public material before any rule
reads the text (``public_material``). A version is a dotted number of three or four parts, or
two after "==", "v" or "@", in a text with a version word; a tracking number is a UPU S10
number whose check digit holds ("RR123456785MT"), or a run of capitals and digits (eight digits
or more) right after a carrier's or a tracking word (or a compound a tracking word heads,
"trackingkoade": blind15), with no secret word between; an order number is five to twelve
digits with a dash (six without) after an order word and at most two short words ("commande bi
numéro 77-4410", "order number 4410-2287": blind15). Words in ``data/public_refs.yaml``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Final

from userlore.policy.cue_data import literal_alternation
from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.common import has_decimal
from userlore.policy.literal_gate import LiteralGate

__all__ = ["public_ref_spans"]

_VERSION = re.compile(
    r"(?<![\w.])(?:(?P<pre>==|~=|>=|<=|@|v)\s?)?(?P<v>\d{1,3}(?:\.\d{1,3}){1,3})"
    r"(?:[-.]?(?:rc|a|b|post|dev)\d*)?(?![\w]|\.\d)"
)
_DOTTED = re.compile(r"\d\.\d")
_S10 = re.compile(r"(?<![A-Za-z0-9])[A-Z]{2}(\d{8})(\d)[A-Z]{2}(?![A-Za-z0-9])")
_S10_WEIGHTS: Final = (8, 6, 4, 2, 3, 5, 9, 7)
_RUN = re.compile(
    r"[\s:：#nº°.-]{0,6}(?:(?:is|es|est|ist|é|c'est|是|は)\s*)?([A-Z0-9][A-Z0-9 \-]{8,34}[A-Z0-9])"
)
_HEAD_RUN = re.compile(r"[\s:：#]{1,3}([A-Z0-9]{10,36})(?![A-Za-z0-9])")
_REACH: Final = 40


@functools.cache
def _words() -> tuple[LiteralGate, re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    raw = data_yaml("public_refs.yaml")

    def pattern(key: str) -> re.Pattern[str]:
        alts = literal_alternation(sorted({str(w).casefold() for w in raw[key]}))
        return re.compile(rf"(?<![a-zà-ÿ])(?:{alts})(?![a-zà-ÿ])")

    heads = literal_alternation(sorted({str(w).casefold() for w in raw["compound_heads"]}))
    # A carrier's word, or a tracking word heading a compound ("trackingkoade"): blind15.
    carriers = re.compile(
        pattern("carriers").pattern + rf"|(?<![a-zà-ÿ])(?P<head>(?:{heads})[a-zà-ÿ]+)"
    )
    gate = LiteralGate(
        str(w).casefold() for w in [*raw["carriers"], *raw["version_words"], *raw["order_words"]]
    )
    return gate, carriers, pattern("secret_words"), pattern("version_words")


@functools.cache
def _orders() -> re.Pattern[str]:
    words = sorted({str(w).casefold() for w in data_yaml("public_refs.yaml")["order_words"]})
    alts = literal_alternation(words)
    return re.compile(
        rf"(?<![a-zà-ÿ])(?:{alts})(?![a-zà-ÿ])(?:\s*(?:[^\W\d_]{{1,8}}\.?|#|n[º°o]\.?|:)){{0,2}}"
        r"\s*#?\s*(?P<ref>\d[\d-]{3,14}\d)(?![\w-])"
    )


@functools.cache
def _tickets() -> tuple[LiteralGate, re.Pattern[str]]:
    words = sorted({str(w).casefold() for w in data_yaml("public_refs.yaml")["ticket_words"]})
    alts = literal_alternation(words)
    return LiteralGate(words), re.compile(
        rf"(?<![a-zà-ÿ])(?:{alts})(?![a-zà-ÿ])(?:\s*(?:[^\W\d_]{{1,8}}|#|n[º°o]\.?|:)){{0,2}}"
        r"\s*#?\s*(?P<ref>[A-Za-z][A-Za-z0-9]{1,9}-\d{1,7})(?![\w-])"
    )


def _ticket_refs(text: str, lowered: str, secret_words: re.Pattern[str]) -> Iterator[_Span]:
    """An issue tracker's key after a ticket word ("ticket JIRA PAY-4821"), its project in
    capitals; no secret word between (blind17)."""
    gate, tickets = _tickets()
    if not gate.search(lowered):
        return
    for m in tickets.finditer(lowered):
        ref = text[m.start("ref") : m.end("ref")]
        project = ref.split("-", 1)[0]
        if project.isupper() and not secret_words.search(lowered, m.start(), m.start("ref")):
            yield m.span("ref")


def public_ref_spans(text: str) -> list[tuple[int, int]]:
    """Spans of versions and tracking numbers in ``text`` (see the module docstring)."""
    spans: list[tuple[int, int]] = []
    if not has_decimal(text):
        return spans
    for m in _S10.finditer(text):
        if _s10_check(m.group(1)) == int(m.group(2)):
            spans.append(m.span())
    gate, carriers, secret_words, version_words = _words()
    lowered = text.lower()
    if len(lowered) == len(text):
        spans.extend(_ticket_refs(text, lowered, secret_words))
    if len(lowered) != len(text) or not gate.search(lowered):
        return spans  # no carrier's, tracking or version word, no "==": nothing more to read
    spans.extend(_order_refs(text, lowered, secret_words))
    if _DOTTED.search(text) and ("==" in text or version_words.search(lowered)):
        for m in _VERSION.finditer(text):
            groups = m.group("v").split(".")
            if m.group("pre") or (len(groups) >= 3 and not all(len(g) == 3 for g in groups[1:])):
                spans.append(m.span())
    spans.extend(_named_after(text, lowered, carriers, secret_words))
    for w in carriers.finditer(lowered):
        # After a compound ("trackingapp"), only a run right after it: no "is", no gap.
        runs = _HEAD_RUN if w.group("head") else _RUN
        run = runs.match(text, w.end(), min(len(text), w.end() + _REACH))
        if run is None or secret_words.search(lowered, w.end(), run.start(1)):
            continue
        value = run.group(1).rstrip(" -")
        if sum(ch.isdigit() for ch in value) >= 8:
            spans.append((run.start(1), run.start(1) + len(value)))
    return spans


_Span = tuple[int, int]
# A run of capitals and digits, eight digits or more, that a carrier's word follows in its
# sentence ("le numéro 1Z999AA10123456784 c'est un suivi UPS ou DHL ?"; blind22).
_BEFORE_CARRIER = re.compile(r"(?<![A-Za-z0-9])[A-Z0-9]{10,34}(?![A-Za-z0-9])")
_SENTENCE_END = re.compile(r"[.!?\n。！？]")


def _named_after(
    text: str, lowered: str, carriers: re.Pattern[str], secret_words: re.Pattern[str]
) -> Iterator[_Span]:
    """Tracking numbers a carrier's or tracking word names in the same sentence, after them
    or farther before them than a run right after the word ("¿es de Correos o de MRW el código
    …?"), within reach, with no secret word anywhere in that sentence (blindfix22b)."""
    for m in _BEFORE_CARRIER.finditer(text):
        if sum(ch.isdigit() for ch in m.group(0)) < 8:
            continue
        after = text[m.end() : m.end() + _REACH]
        stop = _SENTENCE_END.search(after)
        reach = m.end() + (stop.start() if stop else len(after))
        start = max((e.end() for e in _SENTENCE_END.finditer(text, 0, m.start())), default=0)
        back = max(start, m.start() - _REACH)
        # A carrier's own word: a compound a tracking word heads ("trackingapp") names a run
        # only right after it (blind15: "wachtwoord voor trackingapp is 3SABCD…").
        named = (
            w
            for lo, hi in ((m.end(), reach), (back, m.start()))
            for w in carriers.finditer(lowered, lo, hi)
        )
        if not any(w.group("head") is None for w in named):
            continue
        if secret_words.search(lowered, start, reach) is None:
            yield m.span()


_ORDER_DIGITS: Final = (5, 12)  # digits of an order number with a dash; six or more without


def _order_refs(text: str, lowered: str, secret_words: re.Pattern[str]) -> Iterator[_Span]:
    """Order numbers right after an order word, no secret word between (blind15)."""
    for m in _orders().finditer(lowered):
        ref = m.group("ref")
        digits = sum(ch.isdigit() for ch in ref)
        low, high = _ORDER_DIGITS
        if not (low + ("-" not in ref) <= digits <= high):
            continue
        if secret_words.search(lowered, m.start(), m.start("ref")):
            continue
        yield m.span("ref")


def _s10_check(serial: str) -> int:
    """The UPU S10 check digit of an eight-digit serial."""
    rest = 11 - sum(int(d) * w for d, w in zip(serial, _S10_WEIGHTS, strict=True)) % 11
    return 0 if rest == 10 else 5 if rest == 11 else rest
