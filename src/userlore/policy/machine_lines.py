"""Machine output pasted into a turn: the lines a program printed, by their shape.

A user pastes a test run, a stack trace, a CI job, a shell session, ``pip`` or compiler
output, a ``git log``, a ``docker ps`` table or Kubernetes events into a turn (issue 29,
blindfix23d). Those lines are no human language: read as one, "test_17 PASSED" is Malay and
every ``test_17`` a credential-shaped token of an uncovered language, so 2,000 lines of a test
run were redacted and withheld. :func:`machine_spans` finds them by shape only (no language
is named): a line that begins as a program's line does (a timestamp, a level or verdict in
brackets, a prompt, a stack frame, a ``path:line``, a process tag, a table's rule or header,
a file mode) or whose tokens are mostly code (digits, paths, ``key=value``, identifiers, a
verdict word of ``policy/data/machine_lines.yaml``); an indented line or a line of code
tokens next to one; and only when the text holds :data:`MIN_LINES` such lines (a pasted
output, not one sentence that quotes a path).

What it changes: the language identifier reads these lines' Latin runs as no language
(``policy.language``), so the rules for uncovered languages and the gate's language check
leave them; and the gate reads a credential cue in one only within its line
(``policy.quote_gate``). Every rule that needs no language (vendor tokens, ``key=value``
assignments, credentials in URLs and connection strings, private keys, bearer tokens) and
every covered language's rule still reads the whole text.
"""

from __future__ import annotations

import bisect
import functools
import re
from typing import Final

from userlore.policy.data_files import data_yaml

__all__ = [
    "MIN_LINES",
    "carry",
    "in_machine_line",
    "machine_spans",
    "output_name_spans",
    "verdict_caps",
]

MIN_LINES: Final = 3
"""Machine-shaped lines a text needs before any is read as machine output."""

CODE_SHARE: Final = 0.6
"""The share of a line's tokens that must be code for the line to be code by its tokens."""

NEAR_SHARE: Final = 0.5
"""The share that makes a line beside output output too."""

SHORT_TOKENS: Final = 4
"""A line beside output of this many tokens or fewer with one code token is output too
("Author: Dana Lee <dana@example.com>")."""

# How a program's line begins (after its indentation): language-agnostic shapes.
_LEAD = re.compile(
    r"(?:"
    r"\[?\d{4}-\d{2}-\d{2}[T ]\d{1,2}:\d{2}"  # 2024-03-12 10:15:01, [2024-03-12T…
    r"|\[?\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\]?\s"  # [14:02:28] / 10:01:22.118
    r"|[^\W\d_]{3}\.? [ \d]\d \d{2}:\d{2}:\d{2}\s"  # syslog: Mar 12 08:01:17, Mär 12 …
    r"|\d+:[A-Z] \d{1,2} [A-Z][a-z]{2} \d{4}\s"  # redis: 1:C 12 Mar 2024
    r"|\d{1,3}(?:\.\d{1,3}){3}\s"  # an access log's client address
    r"|\[[A-Z]{2,10}\]|\[\d+\]\s"  # [INFO] [ERROR] [001]
    r"|commit [0-9a-f]{7,40}\b"  # git log
    r"|[A-Za-z][\w-]*(?:\[\d+\])?: \*\*\*"  # make[2]: ***
    r"|[\w.-]+\[\d+\]:\s"  # a process tag: myapp[24817]:
    r"|[\w.-]+ (?:ERR!|notice|WARN|info|verb)\s"  # npm ERR!
    r"|\$ \S|[\w.-]+@[\w.-]+(?::|\s)[^\n$#]*[$#] \S|\+\s+\S"  # prompts, set -x
    r"|(?:PS )?[A-Z]:\\[^>\n]*> \S"  # a Windows prompt: PS C:\Users\…> …
    r"|[^\W\d_][\w .-]{0,30}:[ \t]{2,}\S"  # a label aligned to its value: "Status:   Running"
    r"|[A-Z]{2,}(?: [A-Z]{2,})* \[|.*[*=#~]{5,}\s*$"  # "TASK [", a banner's rule
    r"|[<>] (?:[A-Z]+ /|HTTP/|[A-Za-z-]+: )"  # curl -v headers
    r"|at [\w$.<>/]+\("  # a Java / JavaScript frame
    r"|File \"[^\"]+\", line \d+"  # a Python frame
    r"|Traceback \(|Caused by: |-->\s|\^[~^]|[│├└┌┐┘╭╰━─|]"
    r"|[=\-*_]{3,}|\.{3,}|[.FEsx]{10,}"  # separators, progress dots
    r"|[✓✗✔✘×√]\s"  # a test runner's marks
    r"|\{\"|\d+ \|"  # a JSON log line; a compiler's numbered source line
    r"|[\w.]*(?i:error|exception|warning)\b(?:\[\w+\])?:"  # KeyError: / error[E0308]:
    r"|[\w./-]+\.\w+:\d+(?::\d+)?\b"  # path:line(:col)
    r"|[\w./-]+::\w"  # a test's node id
    r"|[dlcb-][rwxsStT-]{9}\s"  # a file mode (ls -l)
    r"|[\w-]+-\d+\s+\|"  # docker compose: worker-1  |
    r"|[A-Z][A-Z ]+[A-Z](?:\s{2,}[A-Z][A-Z ]*[A-Z]){2,}\s*$"  # a table's header
    r")"
)
_EDGES = ".,;:!?()[]{}\"'`«»“”"
_INNER = re.compile(r"[_/\\=<>@#:|\[\]{}()*+~^$%&]|\w\.\w")


@functools.cache
def _verdicts() -> frozenset[str]:
    return frozenset(str(w) for w in data_yaml("machine_lines.yaml")["verdicts"])


def _code_token(tok: str) -> bool:
    """A token no sentence's word is: digits, a path, an assignment, an identifier, a symbol
    only, or a program's verdict word."""
    bare = tok.strip(_EDGES)
    if not bare:
        return True
    if not any(ch.isalpha() for ch in bare) or any(ch.isdigit() for ch in bare):
        return True
    if bare.startswith("-") and bare[1:2].isalpha():
        return True  # a command's flag: -Wall, --verbose
    return _INNER.search(bare) is not None or bare.casefold() in _verdicts()


def _strong(line: str) -> bool:
    """A line a program printed, by its lead or by its tokens."""
    body = line.strip()
    if not body:
        return False
    if _LEAD.match(body):
        return True
    toks = body.split()
    first = toks[0].strip("[]:!")
    if first.isupper() and first.casefold() in _verdicts():
        return True  # "ERROR: …", "INFO  …", "PASS"
    code = sum(map(_code_token, toks))
    return len(toks) >= 2 and code >= 2 and code >= CODE_SHARE * len(toks)


# A column's gap: two spaces or more, or a tab, between tokens (a table's row has two).
_GAP = re.compile(r"(?<=\S)(?: {2,}|[ \t]*\t[ \t]*)(?=\S)")


def _weak(line: str) -> bool:
    """A line that is output beside a line that is: indented, a table's row, or half code."""
    body = line.strip()
    if not body:
        return False
    if line[:1] in (" ", "\t") or len(_GAP.findall(body)) >= 2:
        return True
    toks = body.split()
    code = sum(map(_code_token, toks))
    return code >= 1 and (code >= NEAR_SHARE * len(toks) or len(toks) <= SHORT_TOKENS)


_CARRIED: dict[str, tuple[tuple[int, int], ...]] = {}
_CARRIED_MAX: Final = 256


def carry(masked: str, original: str) -> None:
    """``masked`` (``original`` with spans blanked, same length: a hash, a printed name) has
    ``original``'s machine lines: blanking a line's code must not make it prose."""
    spans = machine_spans(original)
    if spans and masked != original:
        if len(_CARRIED) >= _CARRIED_MAX:
            _CARRIED.clear()
        _CARRIED[masked] = spans


def machine_spans(text: str) -> tuple[tuple[int, int], ...]:
    """The (start, end) of each line of ``text`` that is machine output (see the module
    docstring), line breaks excluded; none when fewer than :data:`MIN_LINES` are."""
    carried = _CARRIED.get(text)
    return carried if carried is not None else _machine_spans(text)


@functools.lru_cache(maxsize=256)
def _machine_spans(text: str) -> tuple[tuple[int, int], ...]:
    if text.count("\n") < MIN_LINES - 1:
        return ()
    lines: list[tuple[int, int]] = []
    at = 0
    for part in text.split("\n"):
        lines.append((at, at + len(part)))
        at += len(part) + 1
    lines = [(s, e) for s, e in lines if text[s:e].strip()]  # blank lines join no block
    marks = [_strong(text[s:e]) for s, e in lines]
    if not any(marks):
        return ()
    # Lines beside output that are output too (a frame's source line, "PASS", "   |"),
    # forward then backward so a run of them joins the block it follows or leads.
    for order in (range(1, len(lines)), range(len(lines) - 2, -1, -1)):
        forward = order.step == 1
        for i in order:
            near = marks[i - 1] if forward else marks[i + 1]
            line = text[lines[i][0] : lines[i][1]]
            # A short heading after output is output ("Containers:"); before it, it may be
            # the user's own words introducing it ("journalctl zeigt:").
            heading = forward and line.rstrip().endswith(":") and len(line.split()) <= 2
            if not marks[i] and near and (heading or _weak(line)):
                marks[i] = True
    found = tuple(span for span, mark in zip(lines, marks, strict=True) if mark)
    return found if len(found) >= MIN_LINES else ()


def in_machine_line(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The machine line of ``text`` holding ``text[start:end]`` (its trailing white space
    aside), if one does."""
    spans = machine_spans(text)
    if not spans:
        return None
    i = bisect.bisect_right(_starts(spans), start) - 1
    if i < 0:
        return None
    s, e = spans[i]
    while end > start and text[end - 1].isspace():
        end -= 1
    return (s, e) if end <= e else None


@functools.lru_cache(maxsize=16)
def _starts(spans: tuple[tuple[int, int], ...]) -> list[int]:
    return [s for s, _ in spans]


# A name a program prints: a test's, a file's, a class's or a module's, in parts of letters
# joined by "_", "/", ".", "-" or "::", each perhaps ending in four digits or fewer (or digits
# of four or fewer as parts of their own), and a
# path's ":line:col" ("test_login_10", "TestHandler_1", "tests/unit/test_x.py::test_case_7",
# "c.e.app.OrderService", "Repo.java:212"). A part mixing letters and digits ("7d9f8c6b5",
# "R8kZ2mQ7…") is no name: a key, a hash or an id keeps its rules.
_NAME_PART = r"(?:[^\W\d]+\d{0,4}|\d{1,4})"
_OUTPUT_NAME = re.compile(
    rf"[^\W\d]+(?:(?:[_/.\-]|::){_NAME_PART})+(?::\d+){{0,2}}|/?{_NAME_PART}(?:/{_NAME_PART})+"
)
_TOKEN = re.compile(r"\S+")
_NAME_EDGES = "()[]{}<>\"'`,;:!?"


def output_name_spans(text: str) -> list[tuple[int, int]]:
    """The names a program printed in ``text``'s machine lines (see :data:`_OUTPUT_NAME`):
    no value and no cue, so every rule reads them blanked (``detectors.public_material``).
    A name in a value's place (after a token ending in ``:`` or ``=`` that is no verdict in
    capitals: "login: Summer_2024") stays, and so does a key before its sign
    ("POSTGRES_PASSWORD:", "db_pass="): the cue of the value after it."""
    found: list[tuple[int, int]] = []
    for start, end in machine_spans(text):
        before = ""
        for m in _TOKEN.finditer(text, start, end):
            tok = m.group(0)
            lead = len(tok) - len(tok.lstrip(_NAME_EDGES))
            bare = tok.strip(_NAME_EDGES)
            valued = before.endswith((":", "=")) and not verdict_caps(before.rstrip(":="))
            keyed = tok.rstrip(")]}\"'`,;").endswith((":", "="))  # a setting's key: its cue stays
            if bare and not valued and not keyed and _OUTPUT_NAME.fullmatch(bare):
                found.append((m.start() + lead, m.start() + lead + len(bare)))
            before = tok
    return found


def verdict_caps(word: str) -> bool:
    """``word`` is a program's verdict or level in capitals ("PASS", "--- FAIL", "[ERROR]")."""
    bare = word.strip("-=[]")
    return bare.isupper() and bare.casefold() in _verdicts()
