"""Plural forms of the identity terms, added to a vocabulary's word lookup (issue 29,
blindfix11b).

A statement the speaker shares is told in the plural ("mi novia y yo somos lesbianas", "wir sind
beide Katholiken"), and the per-language word lists (``special/<lang>.json``) hold the singular.
The lookup of a spaced language matches whole words, so each identity term (religion,
orientation, party, union, ethnicity; health where the language's plural names a person:
"séropositifs") gains the forms its language's rules give (``policy/data/special_plurals.yaml``),
once, when the vocabulary is compiled: no cost per text.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from userlore.policy.data_files import data_yaml

__all__ = ["add_plurals", "with_plurals"]

_HEALTH_MIN = 5  # letters a health word needs before it is inflected

_Lexicon = dict[str, list[tuple[tuple[str, ...], str, bool]]]


@cache
def _table() -> dict[str, Any]:
    return data_yaml("special_plurals.yaml")


def _inflect(word: str, rules: list[list[str]]) -> set[str]:
    return {
        word[: len(word) - len(end)] + repl
        for end, repl in rules
        if word.endswith(end) and len(word) > len(end)
    } - {word}


def with_plurals(code: str, words: list[str]) -> list[str]:
    """``words`` (one-word literal phrases of a marker list) and their plural forms: "mis
    padres", "meus irmãos" are someone else as much as "mi padre" is."""
    entry = _table()["languages"].get(code)
    if entry is None:
        return words
    rules: list[list[str]] = entry["rules"]
    extra = {
        form
        for w in words
        if not w.startswith("re:") and w.isalpha()
        for form in _inflect(w.casefold(), rules)
    }
    return words + sorted(extra - {w.casefold() for w in words})


def add_plurals(code: str, lexicon: _Lexicon) -> None:
    """Add to ``lexicon`` (first word -> phrases) the plural forms of its identity terms."""
    table = _table()
    entry = table["languages"].get(code)
    if entry is None:
        return
    categories = frozenset(table["categories"])
    if code in table.get("health_languages", ()):
        categories |= {"health"}
    rules: list[list[str]] = entry["rules"]
    last = bool(entry.get("last_word", False))
    not_forms = frozenset(entry.get("not_forms", ()))  # another word: "Roman" is no plural of Roma
    known = {words for phrases in lexicon.values() for words, _, _ in phrases}
    added: list[tuple[tuple[str, ...], str, bool]] = []
    for phrases in lexicon.values():
        for words, category, own in phrases:
            if category not in categories or own:
                continue
            i = len(words) - 1 if last else 0
            if category == "health" and len(words[i]) < _HEALTH_MIN:
                continue  # abbreviations: "hiv" + "e" is English "hive"
            for form in _inflect(words[i], rules) - not_forms:
                plural = (*words[:i], form, *words[i + 1 :])
                if plural not in known:
                    known.add(plural)
                    added.append((plural, category, own))
    for words, category, own in added:
        lexicon.setdefault(words[0], []).append((words, category, own))
    for phrases in lexicon.values():
        phrases.sort(key=lambda e: -len(e[0]))
