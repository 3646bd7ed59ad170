"""A code said in romanised syllables after a Han credential word (issue 29, blindfix18a).

blind18 stored "提款卡个密碼係 sâm kiú yit pat": a PIN said in a romanisation of a language
written in Han characters (here Hakka's, "three nine one eight"), right after 密碼. No covered
rule reads such syllables, and no vocabulary names them: a language written in Han and in a
romanisation at once (Hakka, Hokkien, and pinyin or Jyutping too) says numbers in syllables of
one to six letters, tone-marked. So after a credential word of the Chinese or Japanese cues
(``quote_cues.yaml``) and at most two Han characters (a copula, a particle), a run of
:data:`MIN_SYLLABLES` short Latin syllables or more, at least one carrying a tone mark, is
redacted. The shape is read, not the words: "密码 so sad lol haha" (no tone mark) stays.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from userlore.policy.cue_data import cues
from userlore.policy.detectors.common import _Hit
from userlore.policy.findings import _SECRET

__all__ = ["romanised_codes"]

MIN_SYLLABLES: Final = 4
"""Syllables in the run: a PIN has four digits or more."""
_HAN_CUE = re.compile(r"[\u3400-\u9fff\uf900-\ufaff\u30a0-\u30ff]")
# Latin letters with their precomposed and combining tone marks (Latin-1 to Latin Extended
# Additional): kana or Han after the run are no syllable of it.
_SYLLABLE = r"[A-Za-z\u00c0-\u024f\u1e00-\u1eff\u0300-\u036f]{1,6}"
# Up to two Han characters or a colon after the cue, then the syllables, by spaces or hyphens.
_RUN_AFTER = re.compile(
    rf"[\u3400-\u9fff\uf900-\ufaff\u3040-\u30ff]{{0,2}}[ \t]*[:：]?[ \t]*"
    rf"(?P<run>{_SYLLABLE}(?:(?:[ \t]+|-){_SYLLABLE}){{{MIN_SYLLABLES - 1},11}})"
    r"(?![A-Za-z\u00c0-\u024f])"
)


def romanised_codes(t: str, lowered: str) -> Iterator[_Hit]:
    """Runs of tone-marked romanised syllables after a Han credential word in ``t``."""
    if t.isascii() or _HAN_CUE.search(t) is None:
        return
    for cue in cues().credential_cues(lowered):
        if _HAN_CUE.search(cue.group(0)) is None:
            continue
        m = _RUN_AFTER.match(t, cue.end())
        if m is None:
            continue
        run = m.group("run")
        syllables = run.replace("-", " ").split()
        if not any(_marked(s) for s in syllables):
            continue
        yield (_SECRET, "said_in_syllables", m.start("run"), m.end("run"), None)


def _marked(word: str) -> bool:
    """A tone mark or another diacritic on one of its letters ("sâm", "kiú", "ǹg")."""
    return any(not ch.isascii() for ch in word)
