"""``word_lists`` reads wordfreq's files itself (coldstart17): the same answers as wordfreq."""

from __future__ import annotations

import math

import pytest
import wordfreq

from userlore.policy import word_lists


@pytest.mark.parametrize(
    ("language", "wordlist"), [("en", "small"), ("de", "small"), ("fr", "large")]
)
def test_a_list_read_without_wordfreq_is_wordfreqs_own(language: str, wordlist: str) -> None:
    freqs = wordfreq.get_frequency_dict(language, wordlist=wordlist)
    expected = {w: math.log10(f) + 9.0 for w, f in freqs.items() if f > 0}
    found = word_lists._zipf_list(language, wordlist)
    assert found == expected
    assert list(found or ()) == list(expected)


def test_a_language_without_a_list_has_none() -> None:
    assert word_lists._zipf_list("gl", "small") is None
    assert word_lists._lexicon("ja") is None  # not written in Latin script


def test_the_large_list_read_through_the_small_one_answers_as_the_large_one() -> None:
    lexicon = word_lists._vouch_lexicon("en")
    assert lexicon is not None
    freqs = wordfreq.get_frequency_dict("en", wordlist="large")
    large = {w: math.log10(f) + 9.0 for w, f in freqs.items() if f > 0}
    for word in ("the", "editor", "summarise", "zzzqx", "naïve"):
        assert lexicon.get(word, 0.0) == large.get(word, 0.0)
    assert len(lexicon) == len(large)
