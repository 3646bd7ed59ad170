"""Extra English frames and the special-category detector that runs every language."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from userlore.policy.detectors.common import _Hit
from userlore.policy.detectors.party_membership import party_membership
from userlore.policy.detectors.passwords import _CJK
from userlore.policy.detectors.people_frames import people_frames
from userlore.policy.detectors.record_forms import record_forms
from userlore.policy.detectors.same_gender_partner import same_gender_partner
from userlore.policy.detectors.speaker_gender import speaker_gender_couple
from userlore.policy.detectors.special_en import _en_special
from userlore.policy.detectors.special_intl import _INTL_GATE_WORDS, _intl_special, _zh_special
from userlore.policy.detectors.special_lang import _lang_special, in_professional_sentence
from userlore.policy.detectors.special_records import _records_special
from userlore.policy.detectors.special_vocab import _EN_FIRST, _EN_FIRST_PLURAL
from userlore.policy.findings import _SPECIAL, _words

# Extra English frames that do not hinge on one lexicon word.
_EN_FRAMES: Final = (
    (
        "political_opinion",
        _words("vote voted votes voting"),
        re.compile(
            r"(?i)\bI\s+(?:always\s+|usually\s+|proudly\s+|just\s+|also\s+)?(?:voted|vote|will\s+vote"
            r"|am\s+voting|'m\s+voting|plan\s+to\s+vote)\s+(?:for\s+)?(?:the\s+)?(?:democrats?"
            r"|republicans?|labour|tory|tories|conservatives?|greens?|liberals?|lib\s+dems?|snp"
            r"|ukip|reform\s+uk|trump|biden|harris|obama|sanders|afd|cdu|spd|fdp|grüne|psoe|vox"
            r"|podemos|le\s+pen|macron|m[ée]lenchon|modi|bjp|kmt|dpp)\b"
        ),
    ),
    (
        "political_opinion",
        _words("party"),
        re.compile(
            r"(?i)\bI(?:\s*'m|\s+am)?\s+(?:a\s+)?(?:\w+\s+){0,2}?(?:support|back|donate\s+to"
            r"|campaign\s+for|volunteer\s+for|member\s+of|joined|belong\s+to)\s+(?:the\s+)?"
            r"(?:[A-Z][\w\-]+\s+){1,3}[Pp]arty\b"
        ),
    ),
    (
        "religion",
        _words("being as"),
        re.compile(  # "Being Hindu, I don't eat beef": an opening identity, then the speaker
            r"(?i)(?:^|[.;!?\n]\s*)(?:being|as)\s+(?:an?\s+)?(?:devout\s+|practi[cs]ing\s+"
            r"|observant\s+|lifelong\s+)?(?:muslim|christian|catholic|protestant|jewish|jew|hindu"
            r"|buddhist|sikh|mormon|lds|evangelical|baptist|orthodox\s+jew|jain|taoist|pagan"
            r"|atheist|agnostic)\s*,\s*(?:I|I'm|I\s+am|we|my)\b"
        ),
    ),
    (
        "trade_union",
        _words("union"),
        re.compile(
            r"(?i)\bI(?:\s*'m|\s+am)\s+(?:a\s+)?(?:proud\s+)?(?:member\s+of|in)\s+(?:the|a|my)\s+"
            r"(?!european|soviet|african)(?:[\w'\-]+\s+){0,3}union\b(?!\s+(?:square|station|street"
            r"|jack|pacific|city|county|hall|bank|avenue|ave|park|road|college))"
        ),
    ),
    (
        "sexual_orientation",
        _words("out"),
        re.compile(
            r"(?i)\bI\s+(?:recently\s+|finally\s+|just\s+)?(?:came|come|have\s+come)\s+out\s+"
            r"(?:as\b|to\s+(?:my|our)\s+(?:parents|family|mom|mum|dad|friends|boss|coworkers"
            r"|colleagues|team))"
        ),
    ),
    (
        "sexual_orientation",
        _words("attracted"),
        re.compile(
            r"(?i)\bI(?:\s*'m|\s+am)\s+(?:only\s+|mostly\s+)?attracted\s+to\s+(?:men|women|both"
            r"|guys|girls|other\s+(?:men|women))\b"
        ),
    ),
    (
        "biometric",
        _words("fingerprint face iris retina voice palm"),
        re.compile(
            r"(?i)\b(?:here\s+is|here's|this\s+is|attached\s+is)\s+my\s+(?:fingerprint|face|iris"
            r"|retina|voice|palm)\s*(?:template|scan|hash|data|print|map)?\b"
        ),
    ),
)
_EN_FRAME_GATE_WORDS: Final = frozenset().union(*(triggers for _, triggers, _ in _EN_FRAMES))


def _special(t: str, lowered: str, words: frozenset[str]) -> Iterator[_Hit]:
    if not _EN_FIRST.isdisjoint(words) or not _EN_FIRST_PLURAL.isdisjoint(words):
        for hit in _en_special(t, lowered):
            if hit[1] != "health" or not in_professional_sentence(t, hit[2]):
                yield hit
    if not _EN_FRAME_GATE_WORDS.isdisjoint(words):
        for category, triggers, pattern in _EN_FRAMES:
            if not triggers.isdisjoint(words):
                for m in pattern.finditer(t):
                    yield (_SPECIAL, category, m.start(), m.end(), category)
    if not t.isascii() and _CJK.search(t):
        yield from _zh_special(t)
    if not _INTL_GATE_WORDS.isdisjoint(words):
        yield from _intl_special(t)
    yield from _records_special(t, words)
    yield from _lang_special(t)
    yield from party_membership(t, lowered)  # a named party or union, said by the speaker
    yield from same_gender_partner(t, lowered)  # the speaker's partner of the same gender
    yield from speaker_gender_couple(t, lowered)  # the same, the speaker's gender said apart
    yield from record_forms(t, lowered)  # the speaker's own charge or running sentence
    yield from people_frames(t, lowered)  # the speaker's origin: "as a <people>, I …"
