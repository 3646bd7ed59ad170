"""Values that are no secret by what stands beside them: a card's last four, a template's
placeholder, a processor's test card, a published digest (issue 29, blindfix9b).

blind9 withheld or flagged 9 of 78 benign turns over them, and fresh text of the same classes far
more (``tests/data/blindfix9_benign_values.jsonl``): "la tarjeta que termina en 0932" redacted as an
identifier, ``PASSWORT=hier_eintragen`` as a password, Stripe's 4242… as a card, a sha256 digest as
a key. These spans join ``public_material``'s: blanked before any rule reads the text. Each needs
its context (words in ``policy/data/benign_values.yaml``), and none is blanked when the sentence
says the value is the user's real one or names a PIN, a password or a security code.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

from userlore.policy.cue_data import alternation, cues
from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.benign_shapes import own_real_said
from userlore.policy.detectors.common import has_decimal
from userlore.policy.literal_gate import LiteralGate

__all__ = ["benign_value_spans"]

# Four digits right after a last-four cue (a mask, a colon or a copula between), and no digit
# group after them: the end of a number, not the number.
_LAST_FOUR = re.compile(
    r"[\s:：#•*xX.\-]{0,12}(?:(?:is|are|es|son|ist|sind|est|sont|é|são|是|は|が|为)\s*[:：]?\s*)?"
    r"(\d{4})(?![\d\w]|[ \-]\d)"
)
# A mask then four digits: "•••• 4402", "**** 5528", "xxxx-xxxx-xxxx-1234"; the folded view
# reads middle dots as full stops ("···· 9912" as ".... 9912"), four of which are no ellipsis.
_MASKED_FOUR = re.compile(
    r"(?:[•*●·]{3,}|[xX]{4}|(?<!\.)\.{4})(?:[ \-]?(?:[•*●·]{4}|[xX]{4}|\.{4})){0,3}[ \-]?(\d{4})"
    r"(?![\d\w]|[ \-]\d)"
)
# Eight digits or more in groups: a card number or a part of one.
_LONG_RUN = re.compile(r"(?<!\d)\d{1,6}(?:[ \-.]?\d{1,6}){0,4}(?!\d)")
# A value after ``=`` or ``:`` made of letter parts joined by "_" or "-" (no digit, no symbol).
_JOINED_VALUE = re.compile(r"[=:：]\s?[\"']?([^\W\d_]+(?:[_\-][^\W\d_]+)+)(?=[\"'\s,;.!?)\]}—–]|$)")
# A value of CJK characters after ``=`` or ``:``, to the next space or CJK punctuation.
_CJK_VALUE = re.compile(r"[=:：]\s?([\u3040-\u30ff\u3400-\u9fff々ー]{2,20})")
# A card-shaped digit run: 13 to 19 digits in groups of up to six.
# A CJK character may follow it ("4242 4242 4242 4242在沙盒里"): no other letter or digit.
_CARD_RUN = re.compile(r"\d{2,6}(?:[ \-]?\d{2,6}){1,5}(?!(?![\u3040-\u30ff\u3400-\u9fff])\w)")
# A hex run of a digest's length (MD5, SHA-1, SHA-224, SHA-256, SHA-384, SHA-512), one case.
_HEX_RUN = re.compile(r"(?:[0-9a-f]{32,128}|[0-9A-F]{32,128})(?![0-9A-Za-z])")
_DIGEST_LENGTHS = frozenset({32, 40, 56, 64, 96, 128})
_DIGEST_BEFORE = 40
_SENTENCE_END = re.compile(r"[.!?。！？\n]\s|[。！？\n]")


@dataclass(frozen=True, slots=True)
class _Words:
    last_four: re.Pattern[str]
    last_four_gate: LiteralGate
    parts: frozenset[str]
    cjk: LiteralGate
    test_cards: frozenset[str]
    test_words: re.Pattern[str]
    digest: re.Pattern[str]
    digest_gate: LiteralGate
    specimens: frozenset[str]
    example_words: re.Pattern[str]
    standard: re.Pattern[str]


@functools.cache
def _words() -> _Words:
    raw: dict[str, Any] = data_yaml("benign_values.yaml")

    def words(key: str) -> list[str]:
        return [str(w).casefold() for w in raw[key]]

    return _Words(
        last_four=re.compile(alternation(words("last_four_words"))),
        last_four_gate=LiteralGate(words("last_four_words")),
        parts=frozenset(words("placeholder_parts")),
        cjk=LiteralGate(words("placeholder_cjk")),
        test_cards=frozenset(words("test_cards")),
        test_words=re.compile(_glued(words("test_words"))),
        digest=re.compile(_glued(words("digest_words"))),
        digest_gate=LiteralGate(w.strip("*") for w in words("digest_words")),
        specimens=frozenset(words("specimen_ids")),
        example_words=re.compile(_glued(words("example_words"))),
        standard=re.compile(
            rf"(?<![A-Za-z0-9/])(?:{_glued(words('standard_bodies'))})[ \t]?[-:]?[ \t]?"
            r"(\d{1,6}(?:[-:.]\d{1,4})*)(?![A-Za-z0-9])"
        ),
    )


def _glued(words: list[str]) -> str:
    """:func:`alternation`, with Latin words bounded by Latin letters only: Chinese and
    Japanese glue them to the next character ("文件的sha256是", "Stripe测试模式")."""
    latin = sorted((w for w in words if w.isascii()), key=len, reverse=True)
    others = [w for w in words if not w.isascii()]
    # The check before a word stands after it (fixed width): the pattern starts with its
    # literal, and the engine's fast scan for it is kept (issue 30).
    bounded = [
        re.escape(w.strip("*"))
        + ("" if w.startswith("*") else rf"(?<!{_LATIN}{re.escape(w.strip('*'))})")
        + ("" if w.endswith("*") else rf"(?!{_LATIN})")
        for w in latin
    ]
    return "|".join([*bounded, alternation(others)] if others else bounded)


_LATIN = r"[a-z\u00c0-\u024f]"


def _sentence(text: str, start: int, end: int) -> tuple[int, int]:
    lo = max((m.end() for m in _SENTENCE_END.finditer(text, 0, start)), default=0)
    hi = _SENTENCE_END.search(text, end)
    return lo, hi.start() if hi else len(text)


def benign_value_spans(text: str) -> list[tuple[int, int]]:
    """Spans of ``text`` holding a value that is no secret (see the module docstring)."""
    lowered = text.casefold()
    if len(lowered) != len(text):
        return []
    w = _words()
    spans: list[tuple[int, int]] = []
    if has_decimal(text):
        spans.extend(_last_fours(text, lowered, w))
        if w.test_words.search(lowered) and not own_real_said(lowered):
            spans.extend(_test_cards(text, w))
        if w.digest_gate.search(lowered):
            spans.extend(_digests(text, lowered, w))
        spans.extend(m.span(1) for m in w.standard.finditer(lowered))
        # Not where the text says one is the user's real one ("meine echte ist DE89 …").
        if (w.example_words.search(lowered) or w.test_words.search(lowered)) and not (
            own_real_said(lowered)
        ):
            spans.extend(_specimens(text, w))
    if "=" in text or ":" in text or "：" in text:
        spans.extend(_placeholders(text, lowered, w))
    return spans


def _last_fours(text: str, lowered: str, w: _Words) -> list[tuple[int, int]]:
    found: list[tuple[int, int]] = []
    candidates: list[tuple[int, int]] = []
    if w.last_four_gate.search(lowered):
        for cue in w.last_four.finditer(lowered):
            m = _LAST_FOUR.match(text, cue.end())
            if m is not None:
                candidates.append(m.span(1))
    if (
        "•" in text
        or "*" in text
        or "●" in text
        or "·" in text
        or "...." in text
        or "xxxx" in lowered
    ):
        candidates.extend(m.span(1) for m in _MASKED_FOUR.finditer(text))
    if candidates and any(
        sum(ch.isdigit() for ch in m.group(0)) >= 8 for m in _LONG_RUN.finditer(text)
    ):
        # Another long group of digits may be the rest of the card, the four its end ("Card
        # is 4716 5408 3954. Last four are 1408"): the floor joins them, so nothing is blanked.
        return []
    for start, end in candidates:
        lo, hi = _sentence(text, start, end)
        sentence = text[lo:hi]
        if not _secret_word(sentence.casefold()) and not own_real_said(sentence.casefold()):
            found.append((start, end))
    return found


def _secret_word(lowered: str) -> bool:
    """A credential word of the cue data that names a secret, not an identifier: a secret four
    digits may be told as "my PIN ends in 4821", never blanked; a card's or an account's last
    four are what the blanking is for."""
    c = cues()
    return any(c.identifier.fullmatch(m.group(0)) is None for m in c.credential_cues(lowered))


_ID_RUN = re.compile(r"(?<![\w-])[A-Za-z]{0,2}\d[\d \-]{5,12}[A-Za-z]?(?![\w-])")
# An IBAN as printed, grouped by fours or not; a CJK character may touch it ("示例IBAN DE89…").
_CJK_CHAR = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
_IBAN_RUN = re.compile(r"(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]{1,4}){3,8}(?![A-Za-z0-9])")


def _specimens(text: str, w: _Words) -> list[tuple[int, int]]:
    """An issuer's published example id, in a text about examples or testing."""
    return [
        m.span()
        for pattern in (_ID_RUN, _IBAN_RUN)
        for m in pattern.finditer(text)
        if "".join(ch for ch in m.group(0) if ch.isalnum()).casefold() in w.specimens
    ]


def _test_cards(text: str, w: _Words) -> list[tuple[int, int]]:
    return [
        m.span()
        for m in _CARD_RUN.finditer(text)
        if _starts_a_word(text, m.start())
        and "".join(ch for ch in m.group(0) if ch.isdigit()) in w.test_cards
    ]


def _starts_a_word(text: str, start: int) -> bool:
    """No letter or digit right before ``start`` (the check a leading lookbehind would make,
    kept out of the patterns so the engine's fast scan for their first character stays). A
    CJK character may touch it: no space sets a number off there ("测试卡号4242…"; blindfix23b)."""
    return (
        start == 0 or not text[start - 1].isalnum() or _CJK_CHAR.match(text[start - 1]) is not None
    )


def _digests(text: str, lowered: str, w: _Words) -> list[tuple[int, int]]:
    from userlore.policy.cue_data import cues

    credential = cues().credential
    found: list[tuple[int, int]] = []
    for m in _HEX_RUN.finditer(text):
        run = m.group(0)
        if not _starts_a_word(text, m.start()) or len(run) not in _DIGEST_LENGTHS:
            continue
        if run.isdigit() or run.isalpha():
            continue
        lo = max(_sentence(text, m.start(), m.end())[0], m.start() - _DIGEST_BEFORE)
        said = list(w.digest.finditer(lowered, lo, m.start()))
        if not said:
            continue
        # "the hash is … my API key: <hex>": a credential word nearer than the digest word.
        between = lowered[said[-1].end() : m.start()]
        if credential.search(between) or own_real_said(lowered[lo : m.end()]):
            continue
        found.append(m.span())
    return found


def _placeholders(text: str, lowered: str, w: _Words) -> list[tuple[int, int]]:
    from userlore.policy.detectors.benign_shapes import with_key

    found: list[tuple[int, int]] = []
    if "_" in text or "-" in text:
        for m in _JOINED_VALUE.finditer(text):
            parts = re.split(r"[_\-]", m.group(1).casefold())
            if w.parts.isdisjoint(parts):
                continue
            lo, hi = _sentence(text, m.start(1), m.end(1))
            if not own_real_said(lowered[lo:hi]):
                found.append(with_key(text, *m.span(1)))
    if not lowered.isascii() and w.cjk.search(lowered):
        for m in _CJK_VALUE.finditer(text):
            if w.cjk.search(m.group(1)):
                lo, hi = _sentence(text, m.start(1), m.end(1))
                if not own_real_said(lowered[lo:hi]):
                    found.append(with_key(text, *m.span(1)))
    return found
