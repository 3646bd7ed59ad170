"""Values said in words, the one normaliser the sensitivity floor and the quote gate share.

A PIN written "four one one seven", a card read out as "幺二三四…", a password spelled
"p-a-s-s-w-0-r-d" or in the NATO alphabet ("papa alpha sierra sierra") carries the same value as
its digits, and every detector that only knows digits missed them. This module turns such runs
into the value they spell, so the floor and the gate check one view:

- :func:`fold_digits`: decimal digits of every Unicode script to ASCII (same length);
- :func:`spoken_spans`: every run of number words (English, Spanish, German, French, Portuguese
  through ``text2num``'s ``alpha2digit``; Chinese and Japanese numerals, ``幺`` and ``两``
  included, through ``cn2an``, with ``kanjize`` as the fallback), letters spelled one at a time,
  and NATO-alphabet words, with the value each spells;
- :func:`spoken_values`: just the values;
- :func:`spoken_view`: the text with each run replaced by its value, mapped back to the caller's
  text (a :class:`~userlore.policy.normalize.Folded`), so detectors read values and redact words.

A run is taken only when it has at least two number words (or four spelled characters, or three
NATO words): a lone "one" or "un" is an article far more often than a value. Whether a value is
sensitive is not decided here: "seven thirty" becomes ``730`` and only a PIN keyword nearby
makes it one.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from userlore.policy.literal_gate import LiteralGate
from userlore.policy.normalize import Folded
from userlore.policy.radio_digits import cjk_radio_runs, radio_value, radio_words
from userlore.policy.spelling import DIGIT_WORDS

__all__ = ["Spoken", "fold_digits", "spoken_spans", "spoken_values", "spoken_view"]


@functools.cache
def _digit_table() -> dict[int, str]:
    table: dict[int, str] = {}
    for cp in range(0x80, 0x20000):
        ch = chr(cp)
        if unicodedata.category(ch) == "Nd":
            table[cp] = str(unicodedata.decimal(ch))
    return table


def fold_digits(text: str) -> str:
    """``text`` with every decimal digit of any script (Arabic-Indic, Devanagari, fullwidth,
    mathematical…) replaced by its ASCII digit; the length is unchanged, so spans still match."""
    if text.isascii():
        return text
    return text.translate(_digit_table())


@dataclass(frozen=True, slots=True)
class Spoken:
    """A run of words that spells a value.

    Attributes:
        start: Where the run starts in the text.
        end: Where it ends.
        value: The digits or characters it spells.
        kind: ``"number"`` (number words or numerals), ``"letters"`` (spelled one character at
            a time) or ``"nato"`` (the NATO spelling alphabet).
    """

    start: int
    end: int
    value: str
    kind: str


# --------------------------------------------------------------------------------------------
# Number words in the Latin-script languages: a run is found here, converted by text2num
# --------------------------------------------------------------------------------------------

_WORDS: Final = {
    "en": """zero oh one two three four five six seven eight nine ten eleven twelve thirteen
        fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty
        seventy eighty ninety hundred thousand million double triple niner""",
    "es": """cero uno una dos tres cuatro cinco seis siete ocho nueve diez once doce trece
        catorce quince dieciséis dieciseis diecisiete dieciocho diecinueve veinte veintiuno
        veintidós veintidos veintitrés veintitres veinticuatro veinticinco veintiséis veintiseis
        veintisiete veintiocho veintinueve treinta cuarenta cincuenta sesenta setenta ochenta
        noventa cien ciento doscientos trescientos cuatrocientos quinientos seiscientos
        setecientos ochocientos novecientos mil""",
    "de": """null eins zwei drei vier fünf fuenf sechs sieben acht neun zehn elf zwölf zwoelf
        zwo dreizehn vierzehn fünfzehn sechzehn siebzehn achtzehn neunzehn zwanzig dreißig
        dreissig vierzig fünfzig sechzig siebzig achtzig neunzig hundert tausend""",
    "fr": """zéro zero un une deux trois quatre cinq six sept huit neuf dix onze douze treize
        quatorze quinze seize vingt trente quarante cinquante soixante cent cents mille""",
    "pt": """zero um uma dois duas três tres quatro cinco seis sete oito nove dez onze doze
        treze catorze quatorze quinze dezesseis dezasseis dezessete dezassete dezoito dezenove
        dezanove vinte trinta quarenta cinquenta sessenta setenta oitenta noventa cem cento
        duzentos trezentos quatrocentos quinhentos seiscentos setecentos oitocentos novecentos
        mil meia""",
}
_LANG_WORDS: Final = {lang: frozenset(words.split()) for lang, words in _WORDS.items()}
_RADIO: Final = radio_words()  # "fife", "tree", "niner": read digit by digit (radio_digits)
_ALL_WORDS: Final = frozenset().union(*_LANG_WORDS.values(), _RADIO)
# Compounds written as one word ("dreiundzwanzig", "vingt-deux", "twenty-three") are split on
# their joiners before the lookup.
_COMPOUND_DE = re.compile(r"(\w+?)und(\w+)")
_CONNECTORS: Final = frozenset({"and", "y", "et", "und", "e"})
_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
_GAP = re.compile(r"[\s,]*")
_LANG_ORDER: Final = ("en", "de", "es", "fr", "pt")
# A lone "oh" is an interjection, "meia" ("half") is six only in a Brazilian phone number.
_NEEDS_NEIGHBOUR: Final = frozenset({"oh", "meia", "niner"})


def _parts(word: str) -> list[str]:
    """The number words inside one written word (hyphens and German ``und``)."""
    out: list[str] = []
    for piece in word.split("-"):
        if piece in _ALL_WORDS or piece in _CONNECTORS:
            out.append(piece)
            continue
        m = _COMPOUND_DE.fullmatch(piece) if "und" in piece else None  # its joiner stands in it
        if m and m.group(1) in _LANG_WORDS["de"] and m.group(2) in _LANG_WORDS["de"]:
            out.extend((m.group(1), "und", m.group(2)))
            continue
        if ("tausend" in piece or "hundert" in piece) and (split := _split_de(piece)):
            out.extend(split)  # "zweitausendvierhundert": one written word, one amount
            continue
        return []
    return out


# The German number words a compound is made of ("ein" only inside one: "viertausendeinhundert").
_DE_PIECES: Final = tuple(sorted(_LANG_WORDS["de"] | {"ein", "und"}, key=len, reverse=True))


def _split_de(word: str) -> list[str]:
    """A German compound numeral cut into its number words, or [] when it is not one."""
    if not word:
        return []
    for piece in _DE_PIECES:
        if word.startswith(piece):
            if len(piece) == len(word):
                return [piece]
            rest = _split_de(word[len(piece) :])
            if rest:
                return [piece, *rest]
    return []


def _is_number_word(word: str) -> bool:
    parts = _parts(word)
    return bool(parts) and any(p not in _CONNECTORS for p in parts)


@functools.cache
def _alpha2digit() -> Callable[[str, str], str]:
    from text_to_num import alpha2digit

    convert: Callable[[str, str], str] = alpha2digit
    return convert


def _expand_repeats(words: list[str]) -> list[str]:
    """English "double seven" / "triple oh" read as the digit repeated."""
    out: list[str] = []
    repeat = 1
    for w in words:
        if w in ("double", "triple"):
            repeat = 2 if w == "double" else 3
            continue
        out.extend([w] * repeat)
        repeat = 1
    return out


def _latin_value(words: list[str]) -> str | None:
    """The digits a run of number words spells, in the first language that knows every word."""
    parts = [p for w in words for p in _parts(w)]
    if not _RADIO.isdisjoint(parts) and (radio := radio_value(parts)) is not None:
        return radio
    core = [p for p in parts if p not in _CONNECTORS]
    if len(core) < 2 and not (len(core) == 1 and len(words) == 1 and "-" in words[0]):
        return None
    convert = _alpha2digit()
    for lang in _LANG_ORDER:
        vocab = _LANG_WORDS[lang]
        if not all(p in vocab or (lang == "de" and p == "ein") for p in core):
            continue
        seq = _expand_repeats(["zero" if p == "oh" and lang == "en" else p for p in parts])
        if lang == "en":
            seq = ["nine" if p == "niner" else p for p in seq]
        if lang == "pt":
            seq = ["seis" if p == "meia" else p for p in seq]
        try:
            out = convert(" ".join(seq), lang)
        except Exception:
            continue
        leftover = [tok for tok in str(out).split() if not tok.isdigit()]
        if any(tok not in _CONNECTORS for tok in leftover):
            continue
        digits = "".join(ch for ch in str(out) if ch.isdigit())
        if digits:
            return digits
    return None


def _latin_runs(text: str, lowered: str) -> list[Spoken]:
    out: list[Spoken] = []
    run: list[re.Match[str]] = []

    def close() -> None:
        while run and run[-1].group(0) in _CONNECTORS:
            run.pop()
        words = [m.group(0) for m in run]
        if run and not (len(words) == 1 and words[0] in _NEEDS_NEIGHBOUR):
            value = _latin_value(words)
            if value is not None:
                out.append(Spoken(run[0].start(), run[-1].end(), value, "number"))
        run.clear()

    pos = 0
    for m in _WORD.finditer(lowered):
        word = m.group(0)
        gap_ok = not run or _GAP.fullmatch(lowered, pos, m.start()) is not None
        if not gap_ok:
            close()
        if _is_number_word(word) or (run and word in _CONNECTORS):
            run.append(m)
        else:
            close()
        pos = m.end()
    close()
    return out


# --------------------------------------------------------------------------------------------
# Chinese and Japanese numerals: cn2an (幺, 两, financial forms), kanjize as the fallback
# --------------------------------------------------------------------------------------------

_CJK_DIGITS: Final = "〇零一二三四五六七八九幺两兩壹贰貳叁參肆伍陆陸柒捌玖"
_CJK_UNITS: Final = "十拾百佰千仟万萬亿億"
# ``〇`` reaches here as ``O`` when the text was folded first (the confusables table maps it).
_CJK_RUN = re.compile(f"[{_CJK_DIGITS}{_CJK_UNITS}O]{{2,}}")
_CJK_TO_DIGIT: Final = {
    **{c: "0" for c in "〇零O"},
    **{c: "1" for c in "一幺壹"},
    **{c: "2" for c in "二两兩贰貳"},
    **{c: "3" for c in "三叁參"},
    **{c: "4" for c in "四肆"},
    **{c: "5" for c in "五伍"},
    **{c: "6" for c in "六陆陸"},
    **{c: "7" for c in "七柒"},
    **{c: "8" for c in "八捌"},
    **{c: "9" for c in "九玖"},
}


def _cjk_value(run: str) -> str | None:
    if run.count("O") == len(run):
        return None
    if not any(c in _CJK_UNITS for c in run):
        return "".join(_CJK_TO_DIGIT[c] for c in run)  # read digit by digit: "幺三五七"
    try:
        import cn2an

        return str(cn2an.cn2an(run.replace("幺", "一").replace("O", "〇"), "smart"))
    except Exception:
        pass
    try:
        from kanjize import kanji2number

        return str(kanji2number(run.replace("O", "〇")))
    except Exception:
        return None


def _cjk_runs(text: str) -> list[Spoken]:
    out: list[Spoken] = [Spoken(*run, "number") for run in cjk_radio_runs(text)]
    for m in _CJK_RUN.finditer(text):
        value = _cjk_value(m.group(0))
        if value is not None and value.isdigit():
            out.append(Spoken(m.start(), m.end(), value, "number"))
    return out


# --------------------------------------------------------------------------------------------
# Spelled letters and the NATO alphabet
# --------------------------------------------------------------------------------------------

# Single characters with one separator each: "p a s s", "p-a-s-s", "h.u.n.t.e.r.2".
_SPELLED = re.compile(
    r"(?<![^\W_])(?:[A-Za-z0-9!@#$%^&*+?](?:\s{0,2}[\-._/|,]\s{0,2}|\s{1,2})){3,63}"
    r"[A-Za-z0-9!@#$%^&*+?](?![^\W_])"
)
_SPELLED_SEP = re.compile(r"[\s\-._/|,]+")
_NATO: Final = {
    "alpha": "a", "alfa": "a", "bravo": "b", "charlie": "c", "delta": "d", "echo": "e",
    "foxtrot": "f", "golf": "g", "hotel": "h", "india": "i", "juliet": "j", "juliett": "j",
    "kilo": "k", "lima": "l", "mike": "m", "november": "n", "oscar": "o", "papa": "p",
    "quebec": "q", "romeo": "r", "sierra": "s", "tango": "t", "uniform": "u", "victor": "v",
    "whiskey": "w", "whisky": "w", "x-ray": "x", "xray": "x", "yankee": "y", "zulu": "z",
}  # fmt: skip
_CASE_WORDS: Final = {
    "capital": True, "uppercase": True, "upper": True, "big": True, "cap": True,
    "lowercase": False, "lower": False, "small": False,
}  # fmt: skip
_DIGIT_WORDS: Final = DIGIT_WORDS | {"niner": "9"}
_NATO_TOKEN = re.compile(r"[A-Za-z]+(?:-[A-Za-z]+)?|\d")


def _spelled_runs(text: str) -> list[Spoken]:
    out: list[Spoken] = []
    for m in _SPELLED.finditer(text):
        pieces = [p for p in _SPELLED_SEP.split(m.group(0)) if p]
        if len(pieces) >= 4 and all(len(p) == 1 for p in pieces):
            out.append(Spoken(m.start(), m.end(), "".join(pieces), "letters"))
    return out


def _nato_runs(text: str, lowered: str) -> list[Spoken]:
    out: list[Spoken] = []
    run: list[tuple[int, int, str]] = []
    nato_count = 0
    upper: bool | None = None
    pos = 0

    def close() -> None:
        nonlocal nato_count
        if nato_count >= 3:
            out.append(Spoken(run[0][0], run[-1][1], "".join(v for _, _, v in run), "nato"))
        run.clear()
        nato_count = 0

    for m in _NATO_TOKEN.finditer(lowered):
        if run and not re.fullmatch(r"[\s,\-]*", lowered[pos : m.start()]):
            close()
            upper = None
        word = m.group(0)
        pos = m.end()
        if word in _CASE_WORDS:
            upper = _CASE_WORDS[word]
            continue
        if word in _NATO:
            letter = _NATO[word]
            run.append((m.start(), m.end(), letter.upper() if upper else letter))
            nato_count += 1
        elif run and (word.isdigit() or word in _DIGIT_WORDS):
            run.append((m.start(), m.end(), _DIGIT_WORDS.get(word, word)))
        else:
            close()
        upper = None
    close()
    return out


# --------------------------------------------------------------------------------------------
# Entry points
# --------------------------------------------------------------------------------------------

# NATO words too: "alpha bravo charlie delta" holds no number word.
_LATIN_GATE = LiteralGate(w for w in _ALL_WORDS | _NATO.keys() if len(w) >= 3)


def spoken_spans(text: str) -> list[Spoken]:
    """Every run in ``text`` that spells a value, in order, without overlaps.

    Digits of other scripts are folded first (:func:`fold_digits`); the spans index ``text``.
    """
    if not text:
        return []
    t = fold_digits(text)
    lowered = t.lower()
    if len(lowered) != len(t):
        lowered = "".join(c.lower() if len(c.lower()) == 1 else c for c in t)
    found: list[Spoken] = []
    if _LATIN_GATE.search(lowered):
        found.extend(_nato_runs(t, lowered))
        found.extend(_latin_runs(t, lowered))
    if not t.isascii():
        found.extend(_cjk_runs(t))
    found.extend(_spelled_runs(t))
    # Spelling alphabets, letter names and kana digits (blindfix7): their own module and data.
    from userlore.policy.spelling import spelling_spans

    found.extend(Spoken(*run) for run in spelling_spans(t, lowered))
    found.sort(key=lambda s: (s.start, -(s.end - s.start)))
    out: list[Spoken] = []
    for s in found:
        if out and s.start < out[-1].end:
            continue
        out.append(s)
    return _joined(t, out) if out else out


_DIGIT_KINDS: Final = frozenset({"number", "kana"})
_KANA_GROUP_GAP = re.compile(r"[\s、，,・.]{1,3}")


@functools.cache
def _dash_gap() -> re.Pattern[str]:
    from userlore.policy.spelling import dash_words

    words = "|".join(re.escape(w) for w in sorted(dash_words(), key=len, reverse=True))
    return re.compile(rf"(?i)[\s,、，]*(?:{words})[\s,、，]*")


_LONE_DIGIT = re.compile(r"[^\W\d_]+")


def _lone_digits(t: str, runs: list[Spoken]) -> list[Spoken]:
    """A group of one digit word beside a dash word and a run ("nueve, guion, cuatro cuatro
    uno"): the word is a run of its own there (alone it is too often an article)."""
    out: list[Spoken] = []
    for i, s in enumerate(runs):
        if s.kind == "number":
            nxt = runs[i + 1] if i + 1 < len(runs) else None
            for m in _LONE_DIGIT.finditer(t, max(out[-1].end if out else 0, s.start - 32), s.start):
                digit = DIGIT_WORDS.get(m.group(0).lower())
                if digit is not None and _dash_gap().fullmatch(t, m.end(), s.start):
                    out.append(Spoken(m.start(), m.end(), digit, "number"))
            out.append(s)
            if nxt is None or nxt.kind != "number":
                after = _dash_gap().match(t, s.end)
                word = _LONE_DIGIT.match(t, after.end()) if after else None
                digit = DIGIT_WORDS.get(word.group(0).lower()) if word is not None else None
                if (
                    word is not None
                    and digit is not None
                    and (nxt is None or word.end() <= nxt.start)
                ):
                    out.append(Spoken(word.start(), word.end(), digit, "number"))
            continue
        out.append(s)
    return out


def _joined(t: str, runs: list[Spoken]) -> list[Spoken]:
    """Groups of one dictated number made one run (blindfix9a): groups said with a dash word
    between them ("five one two, dash, six six" -> ``512-66``), and kana groups set off by a
    comma ("さんさんろくろく、にーよんななはち" -> ``33662478``)."""
    runs = _lone_digits(t, runs)
    out = [runs[0]]
    for s in runs[1:]:
        last = out[-1]
        gap = t[last.end : s.start]
        if last.kind in _DIGIT_KINDS and s.kind in _DIGIT_KINDS and gap:
            if _dash_gap().fullmatch(gap):
                out[-1] = Spoken(last.start, s.end, f"{last.value}-{s.value}", "number")
                continue
            if last.kind == s.kind == "kana" and _KANA_GROUP_GAP.fullmatch(gap):
                out[-1] = Spoken(last.start, s.end, last.value + s.value, "kana")
                continue
        out.append(s)
    return out


def spoken_values(text: str) -> list[str]:
    """The values the runs of ``text`` spell ("four one one seven" -> ``"4117"``)."""
    return [s.value for s in spoken_spans(text)]


def spoken_view(text: str) -> Folded:
    """``text`` with digits folded and each spoken run replaced by its value.

    The result maps every character back to ``text`` (:meth:`Folded.span`), so a detector that
    finds a PIN in the view redacts the words that said it.
    """
    t = fold_digits(text)
    spans = spoken_spans(t)
    if not spans:
        return Folded(t)
    out: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    pos = 0
    for s in spans:
        out.append(t[pos : s.start])
        starts.extend(range(pos, s.start))
        ends.extend(range(pos + 1, s.start + 1))
        out.append(s.value)
        starts.extend([s.start] * len(s.value))
        ends.extend([s.end] * len(s.value))
        pos = s.end
    out.append(t[pos:])
    starts.extend(range(pos, len(t)))
    ends.extend(range(pos + 1, len(t) + 1))
    return Folded("".join(out), tuple(starts), tuple(ends))


def word_amount(word: str, minimum: int = 100) -> int | None:
    """The value of one number word of ``minimum`` or more ("setecientos", "oitocentos"), which
    the spoken view leaves as it is (a lone "one" or "siete" is rarely a value); None otherwise.
    For a rule that already knows the word stands where a number does (issue 29): an amount,
    or a dial's number after a turn ("derecha cuarenta", ``minimum=0``)."""
    if word not in _ALL_WORDS and not _is_number_word(word):
        return None
    convert = _alpha2digit()
    for lang in _LANG_ORDER:
        # "achtunddreißig": its "und" is a joiner inside the word, not a number word.
        if not all(p in _LANG_WORDS[lang] or p in _CONNECTORS for p in _parts(word)):
            continue
        try:
            out = str(convert(word, lang)).strip()
        except Exception:
            continue
        if out.isdigit() and int(out) >= minimum:
            return int(out)
    return None
