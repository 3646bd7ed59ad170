"""A generated store key's floor verdict, found once per shape of key (issue 30).

A bulk load's keys are new and hold a digit (``k17``, ``doc-4821``, ``user_3/note_7``), so each
ran the whole detector suite for its verdict (~150 µs, about 40 % of a put's floor) although
keys of one generator differ only in their numbers. Here a key is read as its *shape*: its
text with every run of ASCII digits taken out and the runs' lengths kept. Shapes are held only
where a short run's value is all that varies:

- the key is ASCII and at most :data:`MAX_CHARS` long;
- it has one or two digit runs (:data:`MAX_RUNS`), each of at most :data:`MAX_RUN` digits: no
  run is long enough for a card, an account or any checksummed id, whose digits do matter;
- two runs stand at least two ASCII letters apart (``user_3/note_7``), never side by side
  with only separators between them (a date, a version, a dial's turns ``17-42-08``, a code in
  groups).

A generated id (a canonical uuid, a 32-, 40- or 64-digit lowercase hex digest, a ULID) is a slot
of its own whatever its digits (the floor reads no value inside one:
:mod:`~userlore.policy.detectors.generated_ids`), held only where no uuid group is letters only:
a LangMem or LangGraph key is a uuid4, and each ran the full floor (~0.3 ms). Its probes put
runs of digits only (a card's, a phone number's, a whole id's) at its start and elsewhere.

A shape is *settled* the first time a batch holds two keys of it: the full :func:`classify`
(the caller's, every detector, nothing skipped) reads each of its runs at every value of one
or two digits and, for longer runs, at probe values that stand for what a rule may read in a
short number (repeated and running digits, placeholders, years, a leading zero, values of no
pattern; for an id, random ids, digit groups and long runs of digits only), with the batch's own
first keys. Only a shape whose every probe has no finding at all
is held clean; one probe with a finding leaves every key of that shape to the full floor. So a
rule, old or new, that reads a key's words ("pin", "cvv", a token's prefix) or a short run
whatever its value is seen by the probes; what the shape could miss is a rule that fires on a
cue-free short key for some values only and on none of the probes.
``tests/unit/test_key_shapes.py`` looks for it: every value of up to four digits after
``store:bulk / k``, ``store:pin / ``, ``store:cvv / code`` and ``store:users / user_`` (keys as
:func:`~userlore.policy.govern.keys_as_read` gives them), and the shapes against the
full floor on 52,119 keys (the benchmarks' and LangGraph's suites' shapes, generated keys, and
every value and text of the gate and blind sets in a key under paths such as ``pin``, ``cvv``,
``ssn``, ``card`` and ``password``); a new detector that fires on one value only fails it when
that value's key is among them (``docs/benchmarks.md``, put21).
"""

from __future__ import annotations

import random
import re
import threading
from collections.abc import Callable, Iterable
from typing import Final, TypeAlias

from userlore.policy.detectors.generated_ids import ID_KINDS
from userlore.policy.findings import SensitivityReport

__all__ = ["MAX_CHARS", "MAX_RUN", "MAX_RUNS", "KeyShapes", "Shape", "key_shape", "probe_keys"]

Shape: TypeAlias = tuple[tuple[str, ...], tuple[int, ...]]
"""A key's text between its slots, and each slot: a digit run's length, or a generated id's
kind (:data:`ID_KINDS`, as a negative number)."""

Classifier = Callable[..., SensitivityReport]

MAX_CHARS: Final = 200
MAX_RUN: Final = 5
MAX_RUNS: Final = 2
_RUN: Final = re.compile(r"[0-9]+")
_LETTER: Final = re.compile(r"[A-Za-z]")
_EXHAUSTIVE: Final = 2  # runs of up to two digits are read at every value
_SLOT: Final = re.compile(
    "|".join(
        f"(?P<id{-kind}>(?<![0-9A-Za-z]){pattern}(?![0-9A-Za-z]))"
        for kind, (pattern, _, _) in ID_KINDS.items()
    )
    + "|(?P<run>[0-9]+)"
)
_ID_PROBES: Final = 24
"""Random ids a generated-id slot is probed at, beside crafted ones (digit groups, years)."""


def _id_value_holds(value: str) -> bool:
    """Whether a generated id's value cannot matter: no group of a uuid is letters only
    (``face``, ``dead``: a word a rule may read).

    Its digits may make any run: the floor drops a regulated number read in an id's digits and
    any hit that starts inside it (:mod:`~userlore.policy.detectors.generated_ids`), so what a
    run's value could still change is a hit from the id's first character on, and the probes
    (:func:`_id_probes`) put long runs and groups of digits only there and everywhere else.
    """
    groups = value.split("-")
    return len(groups) == 1 or not any(g.isalpha() for g in groups)


def key_shape(key: str) -> Shape | None:
    """``key``'s shape, or None where its digits' values may matter (see the module)."""
    if len(key) > MAX_CHARS or not key.isascii():
        return None
    pieces: list[str] = []
    slots: list[int] = []
    last = 0
    for m in _SLOT.finditer(key):
        if m.lastgroup == "run":
            if len(m.group()) > MAX_RUN:
                return None
            slots.append(len(m.group()))
        elif _id_value_holds(m.group()):
            slots.append(-int(str(m.lastgroup)[2:]))
        else:
            return None
        pieces.append(key[last : m.start()])
        last = m.end()
    pieces.append(key[last:])
    if not slots or len(slots) > MAX_RUNS:
        return None
    if any(len(_LETTER.findall(between)) < 2 for between in pieces[1:-1]):
        return None
    return tuple(pieces), tuple(slots)


def _fill(shape: Shape, values: tuple[str, ...]) -> str:
    pieces = shape[0]
    out = [pieces[0]]
    for value, piece in zip(values, pieces[1:], strict=True):
        out.append(value)
        out.append(piece)
    return "".join(out)


def _id_probes(kind: int) -> tuple[str, ...]:
    """Values of a generated id of ``kind`` that stand for what a rule may read in it: ids of
    no pattern, and crafted ones with a group (or a run) of digits only, a year, zeros."""
    pattern, alphabet, length = ID_KINDS[kind]
    rng = random.Random(kind)  # the same in every process
    uuid = kind == -1

    def shaped(chars: str) -> str:
        if not uuid:
            return chars
        return "-".join((chars[:8], chars[8:12], chars[12:16], chars[16:20], chars[20:]))

    head = alphabet[:8] if kind == -5 else alphabet  # a ULID starts with 0-7
    crafted = ["2024", "1987", "0000", "1234", "9999", "12345"]
    # Runs of digits only, at the start (where a hit would stand) and at random places: the
    # lengths of a PIN, a date, a phone number, a card (Luhn-valid), an account, a whole id.
    runs = [_digits(rng, n) for n in (6, 8, 9, 10, 11, 12, 13, 16, 20, 24, length)]
    runs += [_luhn(rng, 16), _luhn(rng, 15), "4111111111111111", "0" * length, "1" * length]
    values: list[str] = []
    wanted = _ID_PROBES + len(crafted) + 2 * len(runs)
    while len(values) < wanted:
        chars = [rng.choice(head)] + [rng.choice(alphabet) for _ in range(length - 1)]
        made = len(values) - _ID_PROBES
        if 0 <= made < len(crafted):  # a crafted digit group at a random place
            digits = crafted[made]
            at = rng.choice((0, 8, 12, 16, 20)) if uuid else rng.randrange(length - 5)
            chars[at : at + len(digits)] = digits
        elif made >= len(crafted):  # a run of digits only: first at the start, then anywhere
            digits = runs[(made - len(crafted)) // 2]
            at = 0 if made % 2 == 0 else rng.randrange(length - len(digits) + 1)
            chars[at : at + len(digits)] = digits
            if kind == -5 and at == 0:
                chars[0] = rng.choice(head)  # a ULID's first character stays 0-7
        value = shaped("".join(chars[:length]))
        if re.fullmatch(pattern, value) and _id_value_holds(value):
            values.append(value)
    return tuple(values)


def _digits(rng: random.Random, n: int) -> str:
    return "".join(rng.choice("0123456789") for _ in range(n))


def _luhn(rng: random.Random, n: int) -> str:
    """``n`` random digits whose last makes them Luhn-valid (a card number's check)."""
    body = _digits(rng, n - 1)
    total = 0
    for i, d in enumerate(reversed(body)):
        v = int(d) * (2 if i % 2 == 0 else 1)
        total += v - 9 if v > 9 else v
    return body + str(-total % 10)


def _probe_values(length: int) -> tuple[str, ...]:
    """Values of a ``length``-digit run that stand for what a rule may read in it; a
    generated id's (a negative ``length``) by :func:`_id_probes`."""
    if length < 0:
        return _id_probes(length)
    if length <= _EXHAUSTIVE:
        return tuple(str(i).zfill(length) for i in range(10**length))
    values = {d * length for d in "0123456789"}  # placeholders, repeated digits
    values.add("0123456789"[:length])
    values.add("1234567890"[:length])
    values.add("9876543210"[:length])
    values.add("1" + "0" * (length - 1))
    values.add("0" * (length - 1) + "1")
    if length == 4:  # years, past and near
        values.update(("1900", "1950", "1987", "1999", "2000", "2012", "2024", "2031", "2099"))
    rng = random.Random(length)  # values of no pattern, the same in every process
    while len(values) < 24 + (9 if length == 4 else 0):
        values.add(_digits(rng, length))
    return tuple(sorted(values))


def probe_keys(shape: Shape, seen: Iterable[str] = ()) -> list[str]:
    """The keys a shape is settled on: ``seen`` (keys of it), then each run at every probe
    value with the other run as in the first of them (or its probes' first value)."""
    keys = list(dict.fromkeys(seen))
    if keys:
        base = tuple(m.group() for m in _SLOT.finditer(keys[0]))
    else:
        base = tuple(_probe_values(n)[0] for n in shape[1])
    for i, length in enumerate(shape[1]):
        for value in _probe_values(length):
            keys.append(_fill(shape, (*base[:i], value, *base[i + 1 :])))
    return list(dict.fromkeys(keys))


class KeyShapes:
    """The shapes settled in this process: clean ones held by shape, others by their hash.

    Only clean shapes are held as text (like :data:`~userlore.policy.govern._CLEAN_KEYS`, no
    secret outlives its batch here); a shape some probe found something in is held by its
    hash only, and a collision can only send a clean key to the full floor. Emptied when full.
    """

    __slots__ = ("_clean", "_held", "_live", "_lock", "probed")

    def __init__(self, held: int = 1 << 12) -> None:
        self._clean: set[Shape] = set()
        self._live: set[int] = set()
        self._held = held
        self._lock = threading.Lock()
        self.probed = 0  # keys classified to settle shapes, for the benchmarks

    def clean(self, key: str) -> bool:
        """Whether ``key``'s shape was settled clean: :func:`classify` of ``key`` without
        the special rules has no finding."""
        shape = key_shape(key)
        return shape is not None and shape in self._clean

    def settle(self, keys: Iterable[str], classify: Classifier) -> None:
        """Settle each shape that two of ``keys`` share and that is not settled yet, with
        ``classify`` (the full floor) over its :func:`probe_keys`."""
        by_shape: dict[Shape, list[str]] = {}
        for key in keys:
            shape = key_shape(key)
            if shape is None or shape in self._clean or hash(shape) in self._live:
                continue
            by_shape.setdefault(shape, []).append(key)
        for shape, seen in by_shape.items():
            if len(seen) < 2:
                continue  # a key alone costs less in full than its shape's probes
            probes = probe_keys(shape, seen[:2])
            clean = True
            for probe in probes:
                self.probed += 1
                if classify(probe, special=False).findings:
                    clean = False
                    break
            with self._lock:
                if len(self._clean) + len(self._live) >= self._held:
                    self._clean.clear()
                    self._live.clear()
                if clean:
                    self._clean.add(shape)
                else:
                    self._live.add(hash(shape))

    def clear(self) -> None:
        """Forget every settled shape (tests)."""
        with self._lock:
            self._clean.clear()
            self._live.clear()
