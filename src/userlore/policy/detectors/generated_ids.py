"""Ids a program generates (uuids, hex digests, ULIDs): no part of one is a value (issue 30).

LangMem and most LangGraph apps key a memory by ``uuid4()``, and the floor reads every store key.
Read in pieces, about one random uuid4 in a thousand held something a rule names: a Luhn-valid
card in its first three groups (``38879978-3142-4238-…``), an IBAN in its last two
(``…-be84-3b567317ad79``), an id after the word "id", a legacy AWS key prefix (``A3T…``) inside a
ULID; the put was refused as regulated. Within such a token two kinds of hit are
dropped: a regulated number read in its digits, and any hit that starts inside it (a pattern
found mid-token). A secret found from the token's first character stands and is widened to the
whole token as every secret is (an entropy rule's span may stop a character short), and so does
one that takes the whole token (a uuid after a token word, ``detectors/uuid_tokens.py``): "my API
key is 3f2b8a1c-…" and "mi token … es 8c41e07b…" are still secrets.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["ID_KINDS", "generated_id_spans", "misread_in_generated_id"]

ID_KINDS: Final = {
    # kind (negative, as key_shapes keeps it): (pattern, alphabet, length without hyphens)
    -1: (r"[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}", "0123456789abcdef", 32),  # uuid
    -2: (r"[0-9a-f]{32}", "0123456789abcdef", 32),  # uuid.hex, md5
    -3: (r"[0-9a-f]{40}", "0123456789abcdef", 40),  # sha1, a git commit
    -4: (r"[0-9a-f]{64}", "0123456789abcdef", 64),  # sha256
    -5: (r"[0-7][0-9A-HJKMNP-TV-Z]{25}", "0123456789ABCDEFGHJKMNPQRSTVWXYZ", 26),  # ULID
}
"""The generated ids, in their canonical spelling: lowercase hex, an uppercase ULID (the floor
also reads the hex kinds in capitals)."""

# The floor reads a hex id in capitals too (a Windows GUID, ``UUID(...).hex.upper()``); a
# store key's shape holds only the canonical spelling.
_SPELLINGS: Final = [p for p, _, _ in ID_KINDS.values()] + [
    p.replace("0-9a-f", "0-9A-F") for p, _, _ in ID_KINDS.values() if "0-9a-f" in p
]
_ANY_ID: Final = re.compile(
    "|".join(rf"(?<![0-9A-Za-z_-]){pattern}(?![0-9A-Za-z_-])" for pattern in _SPELLINGS)
)


def generated_id_spans(text: str) -> list[tuple[int, int]]:
    """The spans of ``text``'s generated ids; a token with more around it (``…-x``) is none."""
    if len(text) < 26:
        return []
    return [m.span() for m in _ANY_ID.finditer(text)]


def misread_in_generated_id(
    spans: list[tuple[int, int]], start: int, end: int, regulated: bool
) -> bool:
    """Whether a hit at ``start:end`` is a piece of one of ``spans`` read as a value: a
    ``regulated`` number in its digits, or any hit that starts after its first character."""
    return any(
        s <= start and end <= e and (s, e) != (start, end) and (regulated or start > s)
        for s, e in spans
    )
