"""Compiling the per-language special-category vocabularies (``policy/data/special/*.json``)
into matchers: term lexicons, regex terms and their literal runs, and the marker patterns that
say whose fact a cue is. Matching them against text is :mod:`.special_lang`'s work.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache
from importlib.resources.abc import Traversable
from typing import Final

from userlore.errors import ConfigError
from userlore.policy.detectors.special_plurals import add_plurals, with_plurals
from userlore.policy.findings import SPECIAL_CATEGORIES
from userlore.policy.literal_gate import LiteralGate, required_literals

DATA_PACKAGE: Final = "userlore.policy.data.special"
"""Package whose ``*.json`` files are the per-language vocabularies."""

_MARKER_KINDS: Final = (
    "profession",
    "other",
    "topic",
    "negation",
    "self",
)  # first wins at one spot
_KEYS: Final = frozenset(
    {"language", "spaced", "pro_drop", "head_first", "terms", "self_terms", "as_a", "as_a_suffix",
     "implied_start", "determiners", "negation_after", "compounds", "self_copula",
     "patient_nouns", "beneficiary", "script", "reported_self", "couple", "descent",
     "clause_ends", *_MARKER_KINDS}
)  # fmt: skip
_TOKEN = re.compile(r"\w+")
# Every regex term holds a literal run of three or more letters ("descent", "afiliad", "vot"),
# and any match contains one of its language's runs: a cheap test before the regex runs. A letter
# made optional ("eleitora?") is no part of the run: "eleitor do PT" must still open the term.
_RUN = re.compile(r"(?<![\\?])(?<!\(\?P<)[^\W\d_]{3,}(?![?*{])")
_COMPOUND_MIN: Final = 4  # letters a term needs before it is looked for inside a compound


@dataclass(frozen=True, slots=True)
class _Language:
    """One language's compiled vocabulary."""

    code: str
    terms: re.Pattern[str] | None
    term_category: dict[str, str]
    lexicon: dict[str, list[tuple[tuple[str, ...], str, bool]]]
    first_chars: frozenset[str] | None
    regex_terms: tuple[tuple[re.Pattern[str], str, bool], ...]
    run_finder: re.Pattern[str] | None
    run_terms: dict[str, tuple[int, ...]]
    markers: re.Pattern[str]
    as_a: re.Pattern[str] | None
    as_a_after: re.Pattern[str] | None
    """``as_a_suffix`` right after a term ("ムスリムとして", "糖尿病患者として"), tried with
    ``match`` at the term's end (``as_a``'s own suffix branch is anchored by ``^`` for its
    ``search`` of the text before the term, and ``^`` never matches at a later position)."""
    implied: re.Pattern[str] | None
    determiner: re.Pattern[str] | None
    negation_after: re.Pattern[str] | None
    pro_drop: bool
    spaced: bool
    head_first: bool
    """A noun before its modifiers (es, fr, pt): a topic word right after a term is no compound
    ("diabetes research") but a verb or another phrase ("mon TDAH explique", blindfix14c)."""
    compound_heads: dict[str, list[tuple[str, bool]]]
    """German-style compounds: single-word terms found as the first or last part of a longer
    word ("Krebsdiagnose", "Insulinpumpe"), for languages whose file sets ``compounds``."""
    self_copula: re.Pattern[str] | None
    """The speaker naming themselves ("I'm a", "我是", "私は") right before a term."""
    patient_after: re.Pattern[str] | None
    """A patient noun right after a term ("cancer patient", "糖尿病患者")."""
    patient_before: re.Pattern[str] | None
    """Copula, article and patient noun right before a term ("je suis un patient diabétique")."""
    beneficiary: re.Pattern[str] | None = None
    """A word that names whom a thing is for ("for", "für", "pour"), looked for just after a
    term: "insulin for my daughter" is the daughter's, not the speaker's."""
    head_lengths: tuple[int, ...] = ()
    """The lengths of ``compound_heads`` (at least ``_COMPOUND_MIN``), ascending."""
    compound_memo: dict[str, tuple[str, bool] | None] = field(
        default_factory=dict, compare=False, hash=False
    )
    """Words already looked up in ``compound_heads`` (a pure function of the word)."""
    ascii_terms: re.Pattern[str] | None = None
    """``terms`` with only the phrases an ASCII sentence can match (every character ASCII or
    matching one case-insensitively): the same matches on such a sentence, at a fraction of the
    scan ("HIV" among a few hundred CJK phrases). None: no phrase can."""
    speaker: re.Pattern[str] | None = None
    """Any form that can make a clause the speaker's (``self``, ``self_copula``, ``as_a``,
    ``as_a_suffix``, and for a ``pro_drop`` language any character of its ``script``): the
    clause splitter's cheap test before it reads a clause (:func:`may_be_the_speakers`). Not
    ``implied_start``: a clause cut from its sentence ("我是护士，在肿瘤科照顾化疗病人") loses
    the subject the sentence named, and would read as the speaker's."""
    own_script: re.Pattern[str] | None = None
    """The language's own script (``script``): its Latin-letter terms ("LGBT", "AA") read only
    a sentence that holds one of these characters, so a French or English sentence is not read
    as Japanese whose left-out subject is the speaker."""
    reported_self: re.Pattern[str] | None = None
    """Reported speech about the speaker ("the doctor told me I have", "said I'm"): someone
    else's words, but the fact is the speaker's (:func:`reported_about_the_speaker`)."""
    couple: tuple[tuple[re.Pattern[str], re.Pattern[str]], ...] = ()
    """A same-sex couple told without an orientation word (``couple``): for each gender, the
    speaker's partner noun ("my boyfriend", "mi novia") and the speaker's own gender ("I'm a
    guy", "自分も男"). Both anywhere in one text state the speaker's orientation."""
    descent: re.Pattern[str] | None = None
    """The speaker's own family or one side of it ("my family", "por parte de mi madre",
    "mütterlicherseits", 我家, 母方): an origin told of it is the speaker's origin too
    (``descent``, blindfix16c); a religion or a diagnosis told of the family is not."""
    couple_gates: tuple[LiteralGate | None, ...] = ()
    """For each ``couple`` pair, words one of which an ASCII text's lower case holds wherever
    the partner pattern matches in it (see :func:`_couple_gate`); None: no such words."""
    clause_end: re.Pattern[str] | None = None
    """Where a clause ends inside a sentence of a ``pro_drop`` language (``clause_ends``: "ので",
    "けど"): a third party or topic named only in a later clause does not own a term with no
    speaker of its own ("創価学会員なので…友達に頼む", blindfix23c)."""


def _alternation(phrases: list[str], *, spaced: bool) -> str:
    """One regex alternative per phrase; ``re:`` entries are regex fragments, the rest literal."""
    parts: list[str] = []
    for phrase in sorted(set(phrases), key=len, reverse=True):
        body = phrase[3:] if phrase.startswith("re:") else re.escape(phrase).replace(r"\ ", r"\s+")
        if not spaced and not phrase.startswith("re:"):
            # A Latin term of Chinese or Japanese is bounded by Latin letters: "HIV感染" is
            # one, "archivo" and "Archiv" hold none (blindfix9b: they read as health).
            # The check before the term stands after it (fixed width), so the pattern still
            # starts with its literal and the engine's fast scan for it is kept (issue 30).
            if phrase[:1].isascii() and phrase[:1].isalpha():
                body = (
                    body + r"(?<![A-Za-z]" + body + ")"
                    if " " not in phrase
                    else r"(?<![A-Za-z])" + body
                )
            if phrase[-1:].isascii() and phrase[-1:].isalpha():
                body += r"(?![A-Za-z])"
        parts.append(body)
    inner = "|".join(parts) or r"(?!x)x"
    if spaced:
        return r"(?<!\w)(?:" + inner + r")(?:(?<=['’])|(?!\w))"
    return "(?:" + inner + ")"


def _compile(code: str, data: dict[str, object]) -> _Language:
    spaced = bool(data.get("spaced", True))
    terms_src = data.get("terms", {})
    if not isinstance(terms_src, dict) or not set(terms_src) <= SPECIAL_CATEGORIES:
        raise ConfigError(f"special vocabulary {code}: terms must map special categories")
    groups: list[str] = []
    ascii_groups: list[str] = []
    term_category: dict[str, str] = {}
    lexicon: dict[str, list[tuple[tuple[str, ...], str, bool]]] = {}
    regex_terms: list[tuple[re.Pattern[str], str, bool]] = []
    term_runs: list[frozenset[str]] = []
    self_src = data.get("self_terms", {})
    if not isinstance(self_src, dict) or not set(self_src) <= SPECIAL_CATEGORIES:
        raise ConfigError(f"special vocabulary {code}: self_terms must map special categories")
    # Self terms carry their own first person ("salgo de cuentas", "I keep kosher"): named
    # ``s<i>`` so attribution can tell them from plain cues (``c<i>``).
    for prefix, source in (("s", self_src), ("c", terms_src)):
        for i, (category, phrases) in enumerate(sorted(source.items())):
            if not isinstance(phrases, list) or not all(isinstance(p, str) for p in phrases):
                raise ConfigError(f"special vocabulary {code}: {category} must list strings")
            if spaced:  # literal phrases: a word lookup, far cheaper than a big alternation
                for phrase in phrases:
                    words = tuple(_TOKEN.findall(phrase.casefold()))
                    if words and not phrase.startswith("re:"):
                        lexicon.setdefault(words[0], []).append((words, category, prefix == "s"))
                for p in phrases:
                    if p.startswith("re:"):
                        pattern = re.compile(_alternation([p], spaced=True), re.IGNORECASE)
                        regex_terms.append((pattern, category, prefix == "s"))
                        term_runs.append(
                            required_runs(p[3:].casefold())
                            or frozenset(_RUN.findall(_without_lookarounds(p[3:]).casefold()))
                        )
                continue
            if phrases:
                name = f"{prefix}{i}"
                term_category[name] = category
                groups.append(f"(?P<{name}>{_alternation(list(phrases), spaced=spaced)})")
                ascii_phrases = [p for p in phrases if _ascii_matchable(p)]
                if ascii_phrases:
                    ascii_groups.append(f"(?P<{name}>{_alternation(ascii_phrases, spaced=spaced)})")
    for entries in lexicon.values():
        entries.sort(key=lambda e: -len(e[0]))
    first_chars = None
    if not spaced and not any(
        p.startswith("re:") for src in (self_src, terms_src) for ps in src.values() for p in ps
    ):
        first_chars = frozenset(
            c for src in (self_src, terms_src) for ps in src.values() for p in ps for c in p[:1]
        ) | frozenset(
            c.swapcase() for src in (self_src, terms_src) for ps in src.values() for p in ps
            for c in p[:1]
        )  # fmt: skip
    marker_groups = [
        f"(?P<{kind}>{_alternation(_marker_list(code, data, kind), spaced=spaced)})"
        for kind in _MARKER_KINDS
    ]
    as_a = _str_list(data, "as_a")
    as_a_suffix = _str_list(data, "as_a_suffix")
    as_a_re = None
    if as_a or as_a_suffix:
        alts = []
        gap = r"(?:[\w'’\-]+\s+){0,2}?" if spaced else r".{0,6}?"
        if as_a:
            alts.append(
                r"(?:^|[,:，、]\s*)" + _alternation(as_a, spaced=spaced) + r"\s*" + gap + "$"
            )
        if as_a_suffix:
            alts.append("^" + _alternation(as_a_suffix, spaced=False))
        as_a_re = re.compile("|".join(alts), re.IGNORECASE)
    implied = _str_list(data, "implied_start")
    determiners = _str_list(data, "determiners")
    compound_heads: dict[str, list[tuple[str, bool]]] = {}
    if data.get("compounds"):
        for words, category, own in (e for es in lexicon.values() for e in es):
            if len(words) == 1 and len(words[0]) >= _COMPOUND_MIN:
                compound_heads.setdefault(words[0], []).append((category, own))
    # After the compound heads: a plural is no head ("hive" inside "archive").
    add_plurals(code, lexicon)  # "somos lesbianas", "wir sind Muslime"
    copula = _str_list(data, "self_copula")
    patients = _str_list(data, "patient_nouns")
    copula_alt = _alternation(copula, spaced=spaced) if copula else None
    patient_alt = _alternation(patients, spaced=spaced) if patients else None
    speaker_alts = [
        _alternation(own, spaced=spaced)
        for own in (
            _str_list(data, "self") + copula + as_a,
            as_a_suffix,
        )
        if own
    ]
    script = data.get("script")
    if script is not None and not isinstance(script, str):
        raise ConfigError(f"special vocabulary {code}: script must be a character class")
    if script and data.get("pro_drop"):
        speaker_alts.append(script)
    reported = _str_list(data, "reported_self")
    return _Language(
        code=code,
        couple=_couple(code, data.get("couple"), spaced=spaced),
        couple_gates=_couple_gates(data.get("couple"), spaced=spaced),
        speaker=re.compile("|".join(speaker_alts), re.IGNORECASE) if speaker_alts else None,
        reported_self=(
            re.compile(_alternation(reported, spaced=spaced), re.IGNORECASE) if reported else None
        ),
        own_script=re.compile(script) if script else None,
        terms=re.compile("|".join(groups), re.IGNORECASE) if groups else None,
        ascii_terms=re.compile("|".join(ascii_groups), re.IGNORECASE) if ascii_groups else None,
        term_category=term_category,
        lexicon=lexicon,
        first_chars=first_chars,
        regex_terms=tuple(regex_terms),
        run_finder=_run_finder(term_runs),
        run_terms=_run_terms(term_runs),
        markers=re.compile("|".join(marker_groups), re.IGNORECASE),
        as_a=as_a_re,
        as_a_after=(
            re.compile(_alternation(as_a_suffix, spaced=False), re.IGNORECASE)
            if as_a_suffix
            else None
        ),
        implied=(
            re.compile(r"^\W*" + _alternation(implied, spaced=spaced), re.IGNORECASE)
            if implied
            else None
        ),
        determiner=(
            re.compile(_alternation(determiners, spaced=spaced) + r"\s*$", re.IGNORECASE)
            if determiners
            else None
        ),
        negation_after=(
            re.compile(_alternation(_str_list(data, "negation_after"), spaced=False))
            if data.get("negation_after")
            else None
        ),
        pro_drop=bool(data.get("pro_drop", False)),
        spaced=spaced,
        head_first=bool(data.get("head_first", False)),
        compound_heads=compound_heads,
        head_lengths=tuple(sorted({len(h) for h in compound_heads})),
        self_copula=(
            re.compile(r"(?:^|[\s,，、。])" + copula_alt + r"\s*$", re.IGNORECASE)
            if copula_alt
            else None
        ),
        patient_after=re.compile(r"\s*" + patient_alt, re.IGNORECASE) if patient_alt else None,
        beneficiary=(
            re.compile(_alternation(_str_list(data, "beneficiary"), spaced=spaced), re.IGNORECASE)
            if data.get("beneficiary")
            else None
        ),
        patient_before=(
            re.compile(
                r"(?:^|[\s,，、。])" + copula_alt + r"\s*" + patient_alt + r"\s*$", re.IGNORECASE
            )
            if copula_alt and patient_alt
            else None
        ),
        descent=(
            re.compile(_alternation(_str_list(data, "descent"), spaced=spaced), re.IGNORECASE)
            if data.get("descent")
            else None
        ),
        clause_end=(
            re.compile(_alternation(_str_list(data, "clause_ends"), spaced=spaced))
            if data.get("clause_ends")
            else None
        ),
    )


_ASCII: Final = tuple(chr(i) for i in range(128))


@cache
def _matches_ascii(c: str) -> bool:
    """Whether the literal ``c`` matches some ASCII character case-insensitively ("K")."""
    return c.isascii() or any(re.fullmatch(re.escape(c), a, re.IGNORECASE) for a in _ASCII)


def _ascii_matchable(phrase: str) -> bool:
    """Whether a literal phrase can match inside a pure-ASCII text (see ``ascii_terms``)."""
    return not phrase.startswith("re:") and all(_matches_ascii(c) for c in phrase)


_LOOKAROUND: Final = ("(?=", "(?!", "(?<=", "(?<!")


def _without_lookarounds(pattern: str) -> str:
    """``pattern`` without its lookaround groups: a match holds none of their letters ("came
    out(?!\\s+(?:of|with|well))" must not be tried on every sentence that says "with")."""
    out: list[str] = []
    i, depth = 0, 0  # depth > 0: inside a lookaround (and groups nested in it)
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            if depth == 0:
                out.append(pattern[i : i + 2])
            i += 2
            continue
        if depth == 0 and pattern.startswith(_LOOKAROUND, i):
            depth = 1
            i += 3
            continue
        if depth:
            depth += (ch == "(") - (ch == ")")
        else:
            out.append(ch)
        i += 1
    return "".join(out)


def _run_finder(term_runs: list[frozenset[str]]) -> re.Pattern[str] | None:
    """Finds, at every position, the longest letter run any regex term holds (overlaps too)."""
    runs = sorted(frozenset().union(*term_runs), key=len, reverse=True)
    return re.compile("(?=(" + "|".join(map(re.escape, runs)) + "))") if runs else None


def _run_terms(term_runs: list[frozenset[str]]) -> dict[str, tuple[int, ...]]:
    """For each run, the regex terms that one of its substrings opens: every match of a term
    contains one of its runs, and a run found inside a longer one is found with it."""
    every = frozenset().union(*term_runs) if term_runs else frozenset()
    return {
        big: tuple(i for i, runs in enumerate(term_runs) if any(r in big for r in runs))
        for big in every
    }


_GENDERS: Final = ("male", "female")


def _couple(
    code: str, src: object, *, spaced: bool
) -> tuple[tuple[re.Pattern[str], re.Pattern[str]], ...]:
    """The ``couple`` entry: for each gender a partner list and a self list (see ``couple``)."""
    if src is None:
        return ()
    keys = {f"{g}_{k}" for g in _GENDERS for k in ("partner", "self")}
    if not isinstance(src, dict) or set(src) != keys:
        raise ConfigError(f"special vocabulary {code}: couple must name {sorted(keys)}")
    pairs = []
    for gender in _GENDERS:
        lists = [_str_list(src, f"{gender}_{k}") for k in ("partner", "self")]
        partner, own = (re.compile(_alternation(x, spaced=spaced), re.IGNORECASE) for x in lists)
        pairs.append((partner, own))
    return tuple(pairs)


def _couple_gates(src: object, *, spaced: bool) -> tuple[LiteralGate | None, ...]:
    """:func:`_couple_gate` of each gender's partner list, in ``_couple``'s order."""
    if not isinstance(src, dict):
        return ()
    return tuple(_couple_gate(_str_list(src, f"{g}_partner"), spaced=spaced) for g in _GENDERS)


def _couple_gate(phrases: list[str], *, spaced: bool) -> LiteralGate | None:
    r"""Lower-case words one of which stands in an ASCII text wherever a partner phrase
    matches it: a literal phrase's last word ("boyfriend" for "my boyfriend"; its
    ``(?<!\w)`` start keeps the engine from scanning for "my" itself), a regex phrase's
    :func:`required_runs`. A phrase no ASCII text can match ("ma fiancée") adds none, nor a
    pattern whose every :func:`required_literals` holds a letter no ASCII one matches ("彼氏").
    None where some phrase gives no such words: its pattern is asked of every text (issue 30).
    """
    literals = required_literals(re.compile(_alternation(phrases, spaced=spaced), re.IGNORECASE))
    if literals is not None and not any(all(map(_matches_ascii, w)) for w in literals):
        return LiteralGate(())
    words: set[str] = set()
    for phrase in phrases:
        if phrase.startswith("re:"):
            runs = required_runs(phrase[3:].casefold())
            if runs and all(r.isascii() for r in runs):
                words |= runs
            elif not runs or any(all(_matches_ascii(c) for c in r) for r in runs):
                return None
        elif phrase.isascii():
            words.add(phrase.lower().split()[-1])
        elif _ascii_matchable(phrase):
            return None  # a non-ASCII letter that matches an ASCII one ("K"): not lowered here
    return LiteralGate(words)


def _marker_list(code: str, data: dict[str, object], kind: str) -> list[str]:
    """A marker list; someone else's also in the plural ("mis padres", "meus irmãos")."""
    words = _str_list(data, kind)
    return with_plurals(code, words) if kind == "other" else words


def _str_list(data: dict[str, object], key: str) -> list[str]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"special vocabulary: {key} must be a list of strings")
    return [v for v in value if v]


def load_languages(directory: Traversable) -> tuple[_Language, ...]:
    """Compile every ``<code>.json`` vocabulary in ``directory``, sorted by code."""
    found: list[_Language] = []
    for entry in sorted(directory.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".json"):
            code = entry.name.removesuffix(".json")
            try:
                data = json.loads(entry.read_text(encoding="utf-8"))
            except json.JSONDecodeError as exc:
                raise ConfigError(f"special vocabulary {code}: not JSON ({exc})") from exc
            if not isinstance(data, dict) or set(data) - _KEYS:
                raise ConfigError(f"special vocabulary {code}: unknown keys")
            found.append(_compile(code, data))
    return tuple(found)


# -- which literal runs does every match of a regex term hold? --------------------------------

# ("lit", letter, least) | ("other", None, least) | ("group", branches, least); ``least`` is the
# fewest times the item occurs (0: optional).
_Item = tuple[str, object, int]
_QUANT = re.compile(r"\?|\*|\+|\{(\d*)(?:,\d*)?\}")


def _parse(p: str, i: int = 0) -> tuple[list[list[_Item]], int]:
    """The branches of ``p`` from ``i`` to its closing parenthesis (or end), as items."""
    branches: list[list[_Item]] = [[]]
    while i < len(p):
        ch = p[i]
        if ch == ")":
            return branches, i + 1
        if ch == "|":
            branches.append([])
            i += 1
            continue
        kind: str
        value: object = None
        if ch == "\\":
            kind, i = "other", i + 2
        elif ch == "[":
            j = i + 1 + (p[i + 1 : i + 2] == "^")
            j = p.index("]", j + 1 if p[j : j + 1] == "]" else j)
            kind, i = "other", j + 1
        elif ch == "(":
            look = p.startswith(("(?=", "(?!", "(?<=", "(?<!"), i)
            if p.startswith("(?P<", i):
                start = p.index(">", i) + 1
            elif p.startswith("(?:", i):
                start = i + 3
            elif look:
                start = i + (4 if p.startswith(("(?<=", "(?<!"), i) else 3)
            else:
                start = i + 1
            inner, i = _parse(p, start)
            kind, value = ("other", None) if look else ("group", inner)
            if look:  # a lookaround matches no text: it neither breaks nor holds a run
                continue
        elif ch.isalpha():
            kind, value, i = "lit", ch.casefold(), i + 1
        else:
            kind, i = "other", i + 1
        least = 1
        q = _QUANT.match(p, i)
        if q:
            least = (
                0
                if q.group(0) in ("?", "*")
                else int(q.group(1) or 0)
                if q.group(1) is not None
                else 1
            )
            i = q.end() + (p[q.end() : q.end() + 1] in ("?", "+"))
        branches[-1].append((kind, value, least))
    return branches, i


def _branch_runs(items: list[_Item]) -> frozenset[str] | None:
    """Runs one of which every match of ``items`` holds, the rarest such set; None if none."""
    candidates: list[frozenset[str]] = []
    run = ""
    for kind, value, least in [*items, ("other", None, 1)]:
        if kind == "lit" and least >= 1:
            run += str(value)
            continue
        if len(run) >= 3:
            candidates.append(frozenset({run}))
        run = ""
        if kind == "group" and least >= 1:
            assert isinstance(value, list)
            found = _alternative_runs(value)
            if found is not None:
                candidates.append(found)
    if not candidates:
        return None
    return max(candidates, key=lambda c: (min(map(len, c)), -len(c)))


def _alternative_runs(branches: list[list[_Item]]) -> frozenset[str] | None:
    sets = [_branch_runs(b) for b in branches]
    if any(s is None for s in sets):
        return None
    return frozenset().union(*(s for s in sets if s is not None))


def required_runs(pattern: str) -> frozenset[str]:
    """Literal runs (three or more letters) one of which every match of ``pattern`` holds,
    chosen rare (longest shortest run): the prefilter opens the term only where one occurs.
    Empty when no such set is found (the caller falls back to every run of the pattern)."""
    try:
        branches, _ = _parse(pattern)
    except ValueError:
        return frozenset()
    return _alternative_runs(branches) or frozenset()
