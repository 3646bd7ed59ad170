"""Text normalisation shared by the write path (index text, dedupe keys) and the read path.

FTS5's ``unicode61`` tokenizer treats a run of Chinese characters as one token, so a record saying
"我有糖尿病" would never match a query for "糖尿病". Index text therefore splits CJK characters into
single-character tokens, and queries turn a CJK run into a phrase of those characters.
"""

from __future__ import annotations

import functools
import hashlib
import re
import unicodedata

__all__ = [
    "content_key",
    "normalize_value",
    "query_terms",
    "scope_prefix",
    "scoped_terms",
    "search_text",
]

_CJK = r"\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
_TOKEN = re.compile(rf"[{_CJK}]+|[^\W_]+(?:'[^\W_]+)?", re.UNICODE)
_IS_CJK = re.compile(rf"[{_CJK}]")
_STOPWORDS = frozenset(
    {
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "been",
        "being",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "for",
        "from",
        "had",
        "has",
        "have",
        "having",
        "he",
        "her",
        "here",
        "hers",
        "him",
        "his",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "itself",
        "just",
        "me",
        "more",
        "most",
        "my",
        "myself",
        "no",
        "nor",
        "not",
        "of",
        "off",
        "on",
        "once",
        "only",
        "or",
        "other",
        "our",
        "ours",
        "out",
        "over",
        "own",
        "same",
        "she",
        "should",
        "so",
        "some",
        "such",
        "than",
        "that",
        "the",
        "their",
        "theirs",
        "them",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "through",
        "to",
        "too",
        "under",
        "until",
        "up",
        "very",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
        "yours",
        "yourself",
        "s",
        "t",
        "don",
        "d",
        "ll",
        "m",
        "o",
        "re",
        "ve",
        "y",
        "about",
        "above",
        "after",
        "again",
        "against",
        "all",
        "any",
        "because",
        "before",
        "below",
        "between",
        "both",
        "down",
        "during",
        "each",
        "few",
        "further",
        "let",
        "us",
        "also",
    }
)
_CJK_STOP = frozenset("的了是在和就都而及与着或一个也这那吗呢吧啊")
MAX_QUERY_TERMS = 32


@functools.lru_cache(maxsize=1024)
def scope_prefix(scope: str) -> str:
    """Letters prepended to every indexed token of a scope.

    Each scope gets its own term namespace inside one FTS5 index, so a query touches only that
    scope's postings: isolation and cost both follow the scope, not the whole database.
    """
    digest = hashlib.sha256(scope.encode("utf-8")).digest()
    return "zq" + "".join(chr(97 + b % 26) for b in digest[:10])


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(unicodedata.normalize("NFKC", text).casefold())


def search_text(scope: str, *parts: str | None) -> str:
    """Index text for a record: scope-prefixed words, CJK split into single characters."""
    prefix = scope_prefix(scope)
    return " ".join(filter(None, (_indexed(prefix, part) for part in parts if part)))


_MEMO_CHARS = 2000


def _indexed(prefix: str, part: str) -> str:
    """The index text of one part; a short part's is remembered (a batch indexes a put's
    content twice: its record and its quote)."""
    if len(part) > _MEMO_CHARS:
        return _index_part(prefix, part)
    return _index_short(prefix, part)


def _index_part(prefix: str, part: str) -> str:
    norm = unicodedata.normalize("NFKC", part.replace("/", " ").replace("_", " ")).casefold()
    tokens: list[str] = _TOKEN.findall(norm)
    if not tokens:
        return ""
    if _IS_CJK.search(norm) is None:  # no token starts with a CJK character
        return prefix + (" " + prefix).join(tokens)
    out: list[str] = []
    for token in tokens:
        if _IS_CJK.match(token):
            out.extend(prefix + ch for ch in token)
        else:
            out.append(prefix + token)
    return " ".join(out)


_index_short = functools.lru_cache(maxsize=2048)(_index_part)


def query_terms(query: str) -> list[str]:
    """Meaningful query terms: stopwords dropped, CJK runs cut into overlapping bigrams.

    Bigrams let "西湖跑步路线" match a record that says "西湖边跑步" without a segmenter.
    """
    seen: dict[str, None] = {}
    for token in _tokens(query):
        if _IS_CJK.match(token):
            for run in re.split(f"[{''.join(_CJK_STOP)}]+", token):
                grams = [run] if len(run) < 3 else [run[i : i + 2] for i in range(len(run) - 1)]
                for gram in grams:
                    if gram:
                        seen.setdefault(gram, None)
        elif token not in _STOPWORDS and (len(token) > 1 or token.isdigit()):
            seen.setdefault(token, None)
        if len(seen) >= MAX_QUERY_TERMS:
            break
    return list(seen)[:MAX_QUERY_TERMS]


def scoped_terms(scope: str, query: str) -> list[tuple[str, ...]]:
    """Query terms as index tokens of ``scope``; a CJK bigram is a two-token phrase.

    Tokens are letters and digits with at most an inner apostrophe ("caroline's"), which is the
    only character a backend's quoting has to escape.
    """
    prefix = scope_prefix(scope)
    return [
        tuple(prefix + ch for ch in term) if _IS_CJK.match(term) else (prefix + term,)
        for term in query_terms(query)
    ]


def normalize_value(text: str | None) -> str:
    """Comparable form of a value or content: NFKC, casefolded, punctuation folded."""
    if not text:
        return ""
    return " ".join(_tokens(text))


def content_key(text: str) -> str:
    """Dedupe key for records without a canonical key: hash of the normalized content."""
    return hashlib.sha256(normalize_value(text).encode("utf-8")).hexdigest()[:32]
