"""The words that name one country's identifier in python-stdnum's own descriptions.

``detectors/registry`` takes each module's abbreviation and full name as the context that
makes a checksum match a person's id ("mi CURP es …"). People name an identifier by one word of
that name: "kimlik" (``tr.tckimlik``: "T.C. Kimlik No."), "zehut" (``il.idnr``: "Mispar
Zehut"), "isikukood", "henkilötunnus". The abbreviation and the full name, matched whole, missed
"my zehut is …" and "numero de kimlik …" (issue 29, blind12). So every word of five letters or
more in a country module's first docstring line is a context word of that module when

- it names identifiers of one country only ("numer", "nummer" of several are no name), and
- it is no frequent word of a covered language (``wordfreq`` Zipf under 3 in each: "identity",
  "personal", "tax", "numero" are left to the generic identity words).

Matched as a whole word, case-insensitively, in the 40 characters before a run; the run must
still validate under that very module. Derived from the registry, not a hand list.
"""

from __future__ import annotations

import collections
import functools
import re
from typing import Final

__all__ = ["name_words"]

MIN_LETTERS: Final = 5
COMMON_ZIPF: Final = 3.0
_WORD = re.compile(rf"[^\W\d_]{{{MIN_LETTERS},}}")
_COVERED_LATIN: Final = ("en", "es", "fr", "de", "pt")


@functools.cache
def name_words() -> dict[str, frozenset[str]]:
    """``stdnum`` module name (``tr.tckimlik``) -> its distinctive name words, casefolded."""
    from stdnum.util import get_number_modules
    from wordfreq import zipf_frequency

    words: dict[str, set[str]] = {}
    countries: dict[str, set[str]] = collections.defaultdict(set)
    for mod in get_number_modules():
        name = str(getattr(mod, "__name__", "")).removeprefix("stdnum.")
        if "." not in name:
            continue  # an international format (IBAN, ISIN): no country's name words
        doc = (mod.__doc__ or "").strip()
        first = doc.splitlines()[0] if doc else ""
        found = {w.casefold() for w in _WORD.findall(first)}
        words[name] = found
        for w in found:
            countries[w].add(name.split(".", 1)[0])
    return {
        name: frozenset(
            w
            for w in found
            if len(countries[w]) == 1
            and all(zipf_frequency(w, lang) < COMMON_ZIPF for lang in _COVERED_LATIN)
        )
        for name, found in words.items()
    }
