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

The Zipf test of the ~4,900 candidate words loaded five languages' frequency tables on first
use (0.5-0.8 s): ``data/id_name_words.json`` holds its answers, computed from the pinned
``wordfreq`` (``python -m userlore.policy.detectors.id_name_words`` writes it again, a test
checks it against ``wordfreq``). A candidate it does not hold (a newer ``stdnum`` module) is
asked of ``wordfreq`` as before, so the words are the same either way.
"""

from __future__ import annotations

import collections
import functools
import json
import re
from collections.abc import Iterable
from importlib import resources
from typing import Final

__all__ = ["name_words"]

MIN_LETTERS: Final = 5
COMMON_ZIPF: Final = 3.0
_WORD = re.compile(rf"[^\W\d_]{{{MIN_LETTERS},}}")
_COVERED_LATIN: Final = ("en", "es", "fr", "de", "pt")


_DATA: Final = "id_name_words.json"


@functools.cache
def name_words() -> dict[str, frozenset[str]]:
    """``stdnum`` module name (``tr.tckimlik``) -> its distinctive name words, casefolded."""
    words, countries = _candidates()
    single = {w for w, c in countries.items() if len(c) == 1}
    common = _common(single)
    return {name: frozenset(found & single - common) for name, found in words.items()}


def _candidates() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """Each country module's words of five letters or more, and each word's countries."""
    from stdnum.util import get_number_modules

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
    return words, countries


def _common(candidates: set[str]) -> set[str]:
    """The candidates that are a frequent word of a covered language: the data file's answers,
    ``wordfreq``'s for a word it does not hold."""
    stored = json.loads(resources.files("userlore.policy.data").joinpath(_DATA).read_text("utf-8"))
    common, rare = set(stored["common"]), set(stored["rare"])
    unknown = candidates - common - rare
    return (candidates & common) | (zipf_common(unknown) if unknown else set())


def zipf_common(words: Iterable[str]) -> set[str]:
    """The words whose ``wordfreq`` Zipf frequency is at least 3 in a covered language."""
    from wordfreq import zipf_frequency

    return {
        w for w in words if any(zipf_frequency(w, lang) >= COMMON_ZIPF for lang in _COVERED_LATIN)
    }


def _write_data() -> None:
    """Write ``data/id_name_words.json`` from this ``stdnum`` and ``wordfreq``."""
    _, countries = _candidates()
    single = sorted(w for w, c in countries.items() if len(c) == 1)
    common = zipf_common(single)
    path = resources.files("userlore.policy.data").joinpath(_DATA)
    data = {
        "_comment": "id_name_words' candidate words: Zipf >= 3 in en/es/fr/de/pt (wordfreq) or not."
        " Written by `python -m userlore.policy.detectors.id_name_words`; do not edit.",
        "common": [w for w in single if w in common],
        "rare": [w for w in single if w not in common],
    }
    with resources.as_file(path) as file:
        file.write_text(json.dumps(data, ensure_ascii=False, indent=0) + "\n", "utf-8")


if __name__ == "__main__":
    _write_data()
