"""Every identifier python-stdnum knows, tried on every digit and letter-digit run.

A hand list of national ids covers the countries someone thought of; CURP, NIF, NIR, Steuer-ID,
codice fiscale, personnummer, My Number and NHS numbers leaked because nobody had. This module
walks the whole stdnum registry (``stdnum.util.get_number_modules``) instead, and takes each
module's own name and abbreviation (the first line of its docstring: ``"CURP (Clave Única de
Registro de Población, Mexican personal ID)."``) as that identifier's context words.

Check digits are weak evidence for a bare number: a random nine-digit run passes a dozen
modules. So a run is regulated when

- it validates under a module and that module's own name or abbreviation stands just before it
  ("mi CURP es …", "meu NIF é …"), or
- it validates under a country module and a generic identity word of the seven languages stands
  just before it ("Swedish ID …", "sécu : …", "tax code …"), or
- it is a long letter-and-digit run (12+ characters, 2+ letters, 4+ digits) that a personal
  country module validates bare (CURP, codice fiscale): such a shape is rarely anything else.

A run introduced as an order, invoice, tracking or reference number is never taken. Results
are cached per value; the registry is imported on first use.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Final

from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.common import _Hit, _is_hash_like, overlaps
from userlore.policy.detectors.id_name_words import name_words
from userlore.policy.findings import _REGULATED


@dataclass(frozen=True, slots=True)
class _Module:
    name: str
    is_valid: Callable[[str], bool]
    abbrevs: frozenset[str]
    names: tuple[str, ...]
    country: bool
    personal: bool
    words: frozenset[str] = frozenset()
    """Distinctive words of its name, matched whole (``detectors/id_name_words``)."""
    printed: Callable[[str], str] | None = None
    """The module's own ``format``: how the issuer prints the number ("87.04.12-455.70")."""
    validate: Callable[[str], object] | None = None
    """The module's own ``validate``: which check a run fails (its length, its format, or only
    its check digits)."""


_PERSONAL = re.compile(
    r"(?i)person|individual|identity|identification|citizen|social security|national|resident"
    r"|population|birth|insurance|health|passport|driver|\bID\b|tax"
)
_BUSINESS = re.compile(r"(?i)company|business|vat|organi[sz]ation|trade|register|legal entit")


def _module_words(doc: str) -> tuple[frozenset[str], tuple[str, ...]]:
    first = doc.strip().splitlines()[0] if doc.strip() else ""
    head, _, rest = first.partition("(")
    abbrevs = frozenset(a.strip() for a in head.split(",") if a.strip())
    full = rest.split(",")[0].strip(" ).") if rest else ""
    names = tuple(n.lower() for n in (full,) if len(n) >= 6)
    return abbrevs, names


@functools.cache
def _aliases() -> dict[str, tuple[frozenset[str], tuple[str, ...]]]:
    """Everyday names of an identifier its docstring lacks (``data/id_aliases.yaml``): CUIL
    for the CUIT, AHV for the Swiss number, "numéro national" for the Belgian one."""
    raw: dict[str, list[str]] = data_yaml("id_aliases.yaml")
    return {
        mod: (
            frozenset(w for w in words if len(w) <= 4),
            tuple(w.lower() for w in words if len(w) > 4),
        )
        for mod, words in raw.items()
    }


@functools.cache
def _registry() -> tuple[_Module, ...]:
    from stdnum.util import get_number_modules

    out: list[_Module] = []
    aliases = _aliases()
    for mod in get_number_modules():
        name = str(getattr(mod, "__name__", "")).removeprefix("stdnum.")
        abbrevs, names = _module_words(mod.__doc__ or "")
        extra_abbrevs, extra_names = aliases.get(name, (frozenset(), ()))
        abbrevs, names = abbrevs | extra_abbrevs, (*names, *extra_names)
        first = (mod.__doc__ or "").strip().splitlines()[0] if mod.__doc__ else ""
        short = name.rsplit(".", 1)[-1].rstrip("_")
        out.append(
            _Module(
                name,
                mod.is_valid,
                abbrevs | ({short.upper()} if len(short) >= 3 else set()),
                (*names, short) if len(short) >= 6 else names,
                "." in name,
                bool(_PERSONAL.search(first)) and not _BUSINESS.search(first),
                name_words().get(name, frozenset()),
                getattr(mod, "format", None),
                getattr(mod, "validate", None),
            )
        )
    return tuple(out)


@functools.lru_cache(maxsize=4096)
def _valid_under(compact: str) -> tuple[_Module, ...]:
    found: list[_Module] = []
    for mod in _registry():
        try:
            if mod.is_valid(compact):
                found.append(mod)
        except Exception:  # a module that chokes on a shape it does not expect: not valid
            continue
    return tuple(found)


@functools.lru_cache(maxsize=4096)
def _misprinted_under(compact: str) -> tuple[_Module, ...]:
    """The country modules whose length and format ``compact`` has and whose check digits
    alone it fails: named beside it, the run is that identifier still, mistyped or
    misremembered ("revenue.ie keeps rejecting 8264197TA as my PPS"; blindfix22b). A run that
    breaks the format (a Steuer-ID with two repeated digits, a phone number beside "PPS") is
    not taken: the format is all that tells an id's run from another number."""
    from stdnum.exceptions import InvalidChecksum

    found: list[_Module] = []
    for mod in _registry():
        if not mod.country or mod.validate is None:
            continue
        try:
            mod.validate(compact)
        except InvalidChecksum:
            found.append(mod)
        except Exception:  # wrong length or format, or a module that chokes: not this id
            continue
    return tuple(found)


def _named_misprint(compact: str, before: str) -> bool:
    """A run that fails only the check digits of an identifier named in ``before`` by its own
    abbreviation or name (not a word of its name: the cue must name the identifier). A run
    that counts up ("12.345.678-9": what a RUT looks like) is an example, not the user's. A
    short abbreviation names it only as written ("RUN", not the word "run": "run training
    2024 2024" is no Chilean id)."""
    if _COUNTING_UP in compact:
        return False
    return any(
        _keyword_before(mod, before, words=False, any_case=False)
        for mod in _misprinted_under(compact)
    )


_COUNTING_UP: Final = "345678"


# Groups of letters and digits joined by single separators, each group holding a digit; a
# printed format may open with a letter prefix or close on a check letter after a dash
# (``stdnum``'s own ``format``: ``17.492.385-K``, ``D-059888-N``, ``CHE-100.155.212``).
_GROUP = r"[A-Za-z0-9]*\d[A-Za-z0-9]*"
_RUN = re.compile(
    rf"(?<![A-Za-z0-9_])(?P<pre>[A-Z]{{1,3}}-)?(?P<core>{_GROUP}(?:[ \-./]{_GROUP})*)"
    r"(?P<post>-[A-Za-z]{1,2})?(?![A-Za-z0-9_])"
)
_SEPS = re.compile(r"[ \-./]")
# Generic identity words of the seven languages, matched in the 40 characters before a run.
_ID_WORDS = re.compile(
    r"(?i)(?:\bid\b|\bidentity|identification|\btax\b|tax\s+code|documento|identidad|identifica"
    r"|\bahv|\bavs\b"  # the Swiss social-security number's German and French names
    r"|s[ée]cu\b|s[ée]curit[ée]\s+sociale|steuer|ausweis|fiscal|personal|pessoal|cidad[ãa]o"
    r"|身份|证件|個人番号|マイナンバー|身分)[^.!?\n。！？]{0,30}$"
)
_ID_WORDS_AFTER = re.compile(
    r"(?i)[^.!?\n。！？]{0,20}?(?:\bid\b|identity|documento|identidad|ausweis|身份|証)"
)
# "AHV-Nr.:", "Steuer-IdNr.", "ID no.": an abbreviation's dot ends no sentence.
_ABBREV_DOT = re.compile(r"(?i)(?<![a-z])(nr|no|n[º°o]|num|núm|idnr)\.")
_NEG_BEFORE = re.compile(
    r"(?i)(?:order|tracking|track|invoice|ticket|booking|reference|ref|serial|product|model"
    r"|request|session|trace|transaction|customer|device|client|message|build|commit|job"
    r"|part|sku|isbn|issn|phone|tel|fax|mobile|pedido|factura|rechnung|bestell|commande"
    r"|facture|protocolo|订单|单号|注文|伝票|追跡"
    # a parcel's number (blindfix17a: "Sendungsnummer 756.3047.1926.86" prints as an AHV)
    r"|sendung|paket|colis|suivi|env[íi]o|seguimiento|rastreio|encomenda|快递|運送|配送)[^.!?\n]{0,12}$"
)


def _any_case(mod: _Module, abbrev: str) -> bool:
    """A person's id abbreviation of three letters or more is read in any case ("mi rut es",
    "el cuit"): the run must still validate under that very module."""
    return len(abbrev) >= 3 and mod.country and mod.personal


def _keyword_before(
    mod: _Module, before: str, *, words: bool = True, any_case: bool = True
) -> bool:
    lowered = before.lower()
    for abbrev in mod.abbrevs:
        if len(abbrev) <= 4:
            flags = re.IGNORECASE if any_case and _any_case(mod, abbrev) else 0
            if re.search(rf"(?<![A-Za-z]){re.escape(abbrev)}(?![A-Za-z])", before, flags):
                return True
        elif abbrev.lower() in lowered:
            return True
    if any(n in lowered for n in mod.names):
        return True
    return words and bool(mod.words) and not mod.words.isdisjoint(_WORDS.findall(lowered))


@functools.cache
def _any_keyword() -> re.Pattern[str]:
    """One pattern for every module's abbreviation and name: the cheap gate before the walk."""
    short: set[str] = set()
    short_any_case: set[str] = set()
    long: set[str] = set()
    for mod in _registry():
        for a in mod.abbrevs:
            if len(a) > 4:
                long.add(re.escape(a.lower()))
            else:
                (short_any_case if _any_case(mod, a) else short).add(re.escape(a))
        long.update(re.escape(n) for n in mod.names)
    return re.compile(
        r"(?<![A-Za-z])(?:" + "|".join(sorted(short, key=len, reverse=True)) + r")(?![A-Za-z])"
        r"|(?<![A-Za-z])(?i:"
        + "|".join(sorted(short_any_case, key=len, reverse=True))
        + r")(?![A-Za-z])|(?i:"
        + "|".join(sorted(long, key=len, reverse=True))
        + ")"
    )


_WORDS = re.compile(r"[^\W\d_]+")


@functools.cache
def _name_words() -> frozenset[str]:
    """Every module's distinctive name words (``detectors/id_name_words``), one set."""
    return frozenset(w for mod in _registry() for w in mod.words)


def _keyword(before: str) -> bool:
    """Some module's abbreviation, name or name word stands in ``before``: the cheap gate
    before the walk (name words as whole words, by a set, not a pattern of alternatives)."""
    if _any_keyword().search(before):
        return True
    return not _name_words().isdisjoint(_WORDS.findall(before.casefold()))


_HEXISH = re.compile(r"[0-9a-fA-F\-]{12,}")
_CHECK_LETTER = re.compile(r"\d{7,}[A-F]")
_AFTER_REACH: Final = 60


def _hexish(run: str) -> bool:
    """UUIDs, hashes and hex ids (a request id is not a person's); not digits and a check
    letter in capitals ("88346564E", a DNI: blindfix24b), which no digest prints."""
    if _CHECK_LETTER.fullmatch(run):
        return False
    return any(c.isalpha() for c in run) and (
        _is_hash_like(run) or _HEXISH.fullmatch(run) is not None
    )


def _bare_shape(compact: str) -> bool:
    letters = sum(c.isalpha() for c in compact)
    digits = sum(c.isdigit() for c in compact)
    return len(compact) >= 12 and letters >= 2 and digits >= 4 and not _is_hash_like(compact)


_PRINTED_SEPARATORS: Final = 3


def _separated(written: str) -> bool:
    """Three separators or more: a number printed in an issuer's groups ("87.04.12-455.70")."""
    return len(_SEPS.findall(written)) >= _PRINTED_SEPARATORS


def _printed_as_issued(written: str, compact: str, mods: tuple[_Module, ...]) -> bool:
    """A personal id printed exactly as its module formats it, separators and all, whose check
    digits hold: a Belgian national number "87.04.12-455.70", a Swiss "756.6661.6972.30".
    No word is needed, in any language (blind17 stored one in Walloon): so specific a print
    with a valid check is the id."""
    if not _separated(written):
        return False
    for mod in mods:
        if mod.country and mod.personal and mod.printed is not None:
            try:
                if mod.printed(compact) == written:
                    return True
            except Exception:  # a module's format may reject the number
                continue
    return False


_MIN_LEN: Final = 8
_MAX_LEN: Final = 22  # an Argentine CBU (ar.cbu) is 22 digits


def _candidates(t: str, m: re.Match[str]) -> Iterator[tuple[int, int, str]]:
    """The whole run (with its letter prefix and check letter), the run without them, then
    each group, as ``(start, end, compact)``; a group that is a hex id (a digest in a
    generated key such as ``source/bf83…/bfab…``) is skipped like a whole run."""
    whole = _SEPS.sub("", m.group(0)).upper()
    if _MIN_LEN <= len(whole) <= _MAX_LEN:
        yield m.start(), m.end(), whole
    core = m.group("core")
    if core != m.group(0):
        compact = _SEPS.sub("", core).upper()
        if _MIN_LEN <= len(compact) <= _MAX_LEN:
            yield m.start("core"), m.end("core"), compact
    if _SEPS.search(core):
        pos = m.start("core")
        for part in _SEPS.split(core):
            if _MIN_LEN <= len(part) <= _MAX_LEN and not _hexish(part):
                yield pos, pos + len(part), part.upper()
            pos += len(part) + 1


def registry_ids(t: str, taken: list[tuple[int, int]]) -> Iterator[_Hit]:
    """Runs of ``t`` that some stdnum module validates, in context (see the module docstring)."""
    for m in _RUN.finditer(t):
        if not any(c.isdigit() for c in m.group(0)):
            continue
        if overlaps(taken, m.start(), m.end()) or _hexish(m.group(0)):
            continue
        before = t[max(0, m.start() - 40) : m.start()]
        neg = _NEG_BEFORE.search(before)
        if neg is not None:
            # "IRD number for the NZ job is 028-335-849" (blind17): an id's own name before the
            # other word still names the run, which must then validate under that very module.
            head = m.start() - len(before) + neg.start()
            yield from _named_before(t, m, t[_clause_start(t, m.start()) : head])
            continue
        after = t[m.end() : m.end() + 30]
        generic = (
            _ID_WORDS.search(_ABBREV_DOT.sub(r"\1 ", before)) is not None
            or _ID_WORDS_AFTER.match(after) is not None
        )
        named_in = before + " " + _SENTENCE_END.split(after, maxsplit=1)[0]
        named = _keyword(named_in)
        # Its own name after it in its sentence ("049-091-850 — that's my IRD number", "…, das
        # ist meine Steueridentifikationsnummer": blind24), where the run validates under that
        # very module: a little farther than the generic words after it are read.
        said_after = _SENTENCE_END.split(t[m.end() : m.end() + _AFTER_REACH], maxsplit=1)[0]
        named_after = _keyword(said_after)
        for start, end, compact in _candidates(t, m):
            bare = _bare_shape(compact)
            if not (
                generic
                or bare
                or named
                or named_after
                or _separated(t[start:end])
                or _keyword(before)
            ):
                continue
            if sum(c.isdigit() for c in compact) < 5:
                continue
            mods = _valid_under(compact)
            ok = any(_keyword_before(mod, before) for mod in mods)
            ok = ok or (named_after and any(_keyword_before(mod, said_after) for mod in mods))
            # Named by its own abbreviation or name, before it or after it in its sentence
            # ("rejecting 8264197TA as my PPS"), a run need not pass the check (blindfix22b).
            ok = ok or (named and _named_misprint(compact, named_in))
            if not mods and not ok:
                continue
            ok = ok or (generic and any(mod.country for mod in mods))
            ok = ok or (bare and any(mod.country and mod.personal for mod in mods))
            ok = ok or _printed_as_issued(t[start:end], compact, mods)
            if ok:
                yield (_REGULATED, "national_id", start, end, "government_id")
                break
        else:
            # The id's own name farther back in the clause ("IRD number on the letter for my
            # side job is 077-417-834": blindfix17a): it alone names the run there.
            stop = _clause_start(t, m.start())
            if stop < m.start() - len(before):
                yield from _named_before(t, m, t[stop : m.start()])


_SENTENCE_END = re.compile(r"[.!?\n。！？]")
_CLAUSE_REACH: Final = 90
_CLAUSE_END = re.compile(r"[!?\n。！？;]|(?<![Nn]r)(?<![Nn]o)\.(?=\s)")


def _clause_start(t: str, at: int) -> int:
    """Where the clause holding ``at`` starts, at most ``_CLAUSE_REACH`` characters back."""
    lo = max(0, at - _CLAUSE_REACH)
    return max((s.end() for s in _CLAUSE_END.finditer(t, lo, at)), default=lo)


def _named_before(t: str, m: re.Match[str], before: str) -> Iterator[_Hit]:
    """The run ``m`` when a module it validates under is named in ``before`` by its own
    abbreviation or name (not a generic identity word): what stands between is no matter."""
    if not _keyword(before):
        return
    for start, end, compact in _candidates(t, m):
        if sum(c.isdigit() for c in compact) < 5:
            continue
        named = any(_keyword_before(mod, before) for mod in _valid_under(compact))
        if named or _named_misprint(compact, before):
            yield (_REGULATED, "national_id", start, end, "government_id")
            return
