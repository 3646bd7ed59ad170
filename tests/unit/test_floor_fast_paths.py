"""The bulk-put fast paths answer exactly as the loops they replace (issue 30, bulkput4).

Each shortcut here is performance only: the floor's findings and the index text must not move.
Every test compares the shortcut with the plain loop it replaced (written out below) over the
gate sets and texts built to reach the edge cases.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Container, Iterator
from pathlib import Path

from userlore.policy.detectors.cldr_words import _SAID, _all_digit_words, _digit_words
from userlore.policy.detectors.common import has_digit
from userlore.policy.detectors.said_runs import (
    _SAID_GAP,
    SAID_MIN_WORDS,
    _known,
    _said_runs,
)
from userlore.store.text import _CJK, _IS_CJK, _tokens, search_text
from userlore.testing.embeddings import HashingEmbeddings

_DATA = Path(__file__).resolve().parents[1] / "data"


def _texts() -> list[str]:
    out: list[str] = []
    for path in sorted(_DATA.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                case = json.loads(line)
                if isinstance(case.get("text"), str):
                    out.append(case["text"])
                out.extend(v for v in case.get("values") or [] if isinstance(v, str))
    return out


TEXTS = _texts()
EDGES = ["", "a", "ab", "²", "①②③④", "٤٥٦٧", "x²y", "ß", "Straße", "İstanbul", "ǅ"]


def _said_runs_loop(text: str, vocabulary: Container[str]) -> Iterator[tuple[int, int, str]]:
    """The loop ``_said_runs`` was before the whole-text count (bulkput3)."""
    run: list[re.Match[str]] = []
    for m in itertools.chain(_SAID.finditer(text), [None]):
        # A word is known as written or without its accents (blindfix14c).
        known = m is not None and _known(m.group(0), vocabulary)
        adjacent = (
            m is not None
            and bool(run)
            and _SAID_GAP.fullmatch(text, run[-1].end(), m.start()) is not None
        )
        if m is not None and known and (adjacent or not run):
            run.append(m)
            continue
        if len(run) >= SAID_MIN_WORDS:
            yield run[0].start(), run[-1].end(), " ".join(r.group(0) for r in run)
        run = [m] if m is not None and known else []


def test_texts_are_there() -> None:
    assert len(TEXTS) > 3000


def test_has_digit_is_any_isdigit() -> None:
    # Native, full-width and superscript digits, a digit at the very end, mixed scripts.
    texts = TEXTS + EDGES + ["abc", "abc7", "no digits here", "٣", "𝟕", "４", "x²", "日本७"]
    found = [has_digit(t) for t in texts]
    assert found == [any(ch.isdigit() for ch in t) for t in texts]
    assert any(found) and not all(found)


def test_said_runs_match_the_word_by_word_loop() -> None:
    vocabularies = [_all_digit_words()]
    vocabularies += [w for lang in ("tr", "ru", "hi", "pl", "ko") if (w := _digit_words(lang))]
    spoken = [
        " ".join(words[i % len(words)] for i in range(k))
        for words in ([*v][:10] for v in vocabularies[1:])
        for k in (3, 4, 6)
    ]
    texts = TEXTS + EDGES + spoken + [s.upper() + ", " + s for s in spoken]
    found = 0
    for vocabulary in vocabularies:
        for text in texts:
            want = list(_said_runs_loop(text, vocabulary))
            assert list(_said_runs(text, vocabulary)) == want, text
            found += bool(want)
    assert found > 20  # runs are found, not only ruled out


def _search_text_loop(scope: str, *parts: str | None) -> str:
    """``search_text`` before the memo and the no-CJK join (bulkput3)."""
    from userlore.store.text import scope_prefix

    prefix = scope_prefix(scope)
    out: list[str] = []
    for part in parts:
        if not part:
            continue
        for token in _tokens(part.replace("/", " ").replace("_", " ")):
            if _IS_CJK.match(token):
                out.extend(prefix + ch for ch in token)
            else:
                out.append(prefix + token)
    return " ".join(out)


def test_search_text_matches_the_token_loop() -> None:
    assert _CJK
    long = " ".join(TEXTS[:40])  # above the memo's length: the unremembered path
    parts = [*TEXTS, *EDGES, long, "abc中文 def", "我有糖尿病", "㈠ x", "a/b_c", "!!", "   "]
    for text in parts:
        for args in ((text,), (text, '{"text":"x"}', None, "store:k#1", "a/b"), (None, text)):
            want = _search_text_loop("u1", *args)
            assert search_text("u1", *args) == want, text
            assert search_text("u1", *args) == want  # remembered: same answer


def _vector_loop(emb: HashingEmbeddings, text: str) -> list[float]:
    """``HashingEmbeddings._vector`` before the word memo and ``bincount`` (bulkput3)."""
    import hashlib

    import numpy as np

    from userlore.testing.embeddings import _WORD, _stem

    vec = np.zeros(emb.dims, dtype=np.float64)
    for word in _WORD.findall(text.lower()):
        stem = _stem(word)
        stem = emb._synonyms.get(stem, stem)
        digest = hashlib.blake2b(stem.encode("utf-8"), digest_size=8).digest()
        vec[int.from_bytes(digest[:4], "little") % emb.dims] += 1.0
    norm = float(np.linalg.norm(vec))
    if norm == 0.0:
        vec[0] = 1.0
        norm = 1.0
    return [float(x) for x in vec / norm]


def test_hashing_embeddings_match_the_word_loop() -> None:
    texts = [*TEXTS[::3], *EDGES, "salad greens salads", "running runs ran run"]
    for emb in (HashingEmbeddings(dims=64, synonyms={"salad": "greens"}), HashingEmbeddings()):
        want = [_vector_loop(emb, t) for t in texts]
        assert emb.embed_documents(texts) == want
        assert emb.embed_documents(texts) == want  # words remembered: same vectors


def test_utc_datetime_binds_like_its_processor_when_a_value_repeats() -> None:
    from datetime import UTC, datetime, timedelta, timezone

    from sqlalchemy.dialects import postgresql, sqlite
    from sqlalchemy.types import TypeDecorator

    from userlore.store.schema.base import UTCDateTime

    now = datetime(2026, 12, 5, 12, 0, 1, 250, tzinfo=UTC)
    values = [now, now, None, now, now + timedelta(seconds=1), None, None]
    values += [datetime(2026, 1, 1, 3, tzinfo=timezone(timedelta(hours=2)))] * 2
    for dialect in (sqlite.dialect(), postgresql.dialect()):
        process = UTCDateTime().bind_processor(dialect)
        plain = TypeDecorator.bind_processor(UTCDateTime(), dialect)
        if plain is None:  # psycopg binds datetimes itself: only process_bind_param runs
            assert process is None or [process(v) for v in values] == [
                UTCDateTime().process_bind_param(v, dialect) for v in values
            ]
            continue
        assert process is not None
        assert [process(v) for v in values] == [plain(v) for v in values]


def test_the_uncovered_rules_word_tests_read_the_shared_split_as_their_own() -> None:
    # Five uncovered-language rules read an ASCII text's letter runs from one shared split
    # (policy/word_view, issue 30, floorcost14) instead of their own expressions: each test
    # written out as it was must answer the same on every class text and the edge cases.
    from userlore.policy.detectors import (
        said_runs,
        uncovered_cued,
        uncovered_money,
        uncovered_shapes,
        unread_values,
    )
    from userlore.policy.word_view import letter_runs, lower_runs

    every = uncovered_shapes._every_magnitude()
    names = uncovered_cued._may_name_words()
    spelled = [
        " ".join(w) for w in itertools.islice(itertools.permutations(_digit_words("en") or {}), 9)
    ]
    edges = [*EDGES, "don't", "to'do two-six", "x1y one2two", "a_b", "ONE TWO SIX TEN", *spelled]
    texts = [t for t in TEXTS + edges if t.isascii()]
    opened = dict.fromkeys(("amount", "money", "digits"), 0)
    for text in texts:
        assert list(letter_runs(text)) == re.findall(r"[^\W\d_]+", text)
        assert lower_runs(text) == tuple(w.lower() for w in letter_runs(text))
        assert [w for w in letter_runs(text) if len(w) > 1] == unread_values._LETTERS.findall(text)
        assert list(letter_runs(text)) == uncovered_money._TOKEN.findall(text)
        amount = any(
            part in every
            for w in uncovered_shapes._WORD.findall(text)
            for part in re.split("['’ʼ]", w.casefold())
        )
        assert uncovered_shapes._may_say_amount(text) is amount, text
        money = not names.isdisjoint(re.findall("[a-z]+", text.lower()))
        assert uncovered_cued._may_name_money(text) is money, text
        digits = any(_said_runs(text, _all_digit_words()))
        assert said_runs._says_digits(text) is digits, text
        for key, value in (("amount", amount), ("money", money), ("digits", digits)):
            opened[key] += value
    assert all(opened.values()), opened  # each test is met as well as ruled out
