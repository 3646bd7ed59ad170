"""``PROFILE.md``: the cache rendered into a user-editable file with managed blocks.

Each block is owned by automation and sits between two HTML comment markers on their own lines::

    <!-- userlore:begin style -->
    ## Style
    - **verbosity**: terse *(pinned)*
    <!-- userlore:end style -->

Everything outside the markers is the user's and is preserved byte for byte (line endings and
undecodable bytes included) across any number of rebuilds. The cache owns the ``style``,
``identity``, ``tooling``, ``vetoes``, ``goals`` and ``channel`` blocks and rewrites them on every
rebuild; ``connected-accounts`` is owned by the sources path (:func:`write_connected_accounts`)
and a rebuild never touches it, nor any other block it does not own.

A hand-damaged file is repaired, never discarded: an end marker without its begin is removed; a
begin marker that is never closed is removed and what followed it is kept as user text (nobody
can tell where the managed part ended, so nothing is thrown away); a block that appears twice
keeps its first place; a missing block is inserted next to its neighbours in canonical order.
"""

from __future__ import annotations

import logging
import os
import re
import tempfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol
from urllib.parse import quote

from userlore.learning.events import CacheRebuilt
from userlore.learning.facets import Facet, FacetClass, FacetState
from userlore.models import Disclosure, RecordState, UserState


class _Consents(Protocol):
    def consented(self, scope: str) -> frozenset[str]: ...


class FacetSource(Protocol):
    """What :meth:`ProfileMdRenderer.render_scope` reads: the cache, without importing it."""

    @property
    def store(self) -> _Consents: ...

    def list_facets(self, scope: str, *, states: Iterable[FacetState | str]) -> list[Facet]: ...


__all__ = [
    "BLOCK_OF_CLASS",
    "CACHE_BLOCKS",
    "CONNECTED_ACCOUNTS",
    "ProfileMdRenderer",
    "Segment",
    "compose",
    "parse",
    "render_blocks",
    "update_profile",
    "write_connected_accounts",
]

log = logging.getLogger("userlore.learning.profile_md")

BLOCK_OF_CLASS: dict[FacetClass, str] = {
    FacetClass.STYLE: "style",
    FacetClass.IDENTITY: "identity",
    FacetClass.TOOLING: "tooling",
    FacetClass.VETO: "vetoes",
    FacetClass.GOAL: "goals",
    FacetClass.CHANNEL: "channel",
}
CACHE_BLOCKS = tuple(BLOCK_OF_CLASS.values())
CONNECTED_ACCOUNTS = "connected-accounts"
CANONICAL_ORDER = (*CACHE_BLOCKS, CONNECTED_ACCOUNTS)
TITLES = {
    "style": "Style",
    "identity": "Identity",
    "tooling": "Tooling",
    "vetoes": "Vetoes",
    "goals": "Goals",
    "channel": "Channel",
    CONNECTED_ACCOUNTS: "Connected Accounts",
}
HEADER = "# User Profile\n"

_MARKER = re.compile(
    r"^[ \t]*<!--[ \t]*userlore:(?P<kind>begin|end)[ \t]+(?P<name>[a-z][a-z0-9-]{0,40})[ \t]*-->"
    r"[ \t]*\r?$",
    re.MULTILINE,
)


def begin_marker(name: str) -> str:
    return f"<!-- userlore:begin {name} -->"


def end_marker(name: str) -> str:
    return f"<!-- userlore:end {name} -->"


@dataclass(frozen=True, slots=True)
class Segment:
    """A piece of the file: user text (``name is None``) or a managed block's inner text."""

    text: str
    name: str | None = None


def _line_end(text: str, pos: int) -> int:
    """Position just after the line break that ends the marker line at ``pos`` (if any)."""
    if text.startswith("\r\n", pos):
        return pos + 2
    if text.startswith("\n", pos) or text.startswith("\r", pos):
        return pos + 1
    return pos


def parse(text: str) -> list[Segment]:
    """Split a file into user text and managed blocks, repairing damage (module docstring)."""
    segments: list[Segment] = []
    seen: set[str] = set()
    pos = 0
    open_name: str | None = None
    open_body = 0  # where the open block's inner text starts

    def user(chunk: str) -> None:
        if not chunk:
            return
        if segments and segments[-1].name is None:
            segments[-1] = Segment(segments[-1].text + chunk)
        else:
            segments.append(Segment(chunk))

    for m in _MARKER.finditer(text):
        kind, name = m.group("kind"), m.group("name")
        after = _line_end(text, m.end())
        if open_name is None:
            user(text[pos : m.start()])
            if kind == "begin":
                open_name, open_body = name, after
            pos = after  # an orphan end marker is dropped
            continue
        if kind == "end" and name == open_name:
            if open_name not in seen:
                segments.append(Segment(text[open_body : m.start()], open_name))
                seen.add(open_name)
            open_name, pos = None, after
        elif kind == "begin":
            # The open block was never closed: keep what followed its begin marker as user text.
            user(text[open_body : m.start()])
            open_name, open_body, pos = name, after, after
        # An end marker of another block inside an open block is dropped with the block.
    if open_name is not None:
        user(text[open_body:])
    else:
        user(text[pos:])
    return segments


def _newline(text: str) -> str:
    i = text.find("\n")
    return "\r\n" if i > 0 and text[i - 1] == "\r" else "\n"


def compose(segments: Sequence[Segment], blocks: Mapping[str, str], *, newline: str = "\n") -> str:
    """Rebuild the file: owned blocks get ``blocks[name]``; user text and other blocks stay.

    Blocks named in ``blocks`` but absent from ``segments`` are inserted after the nearest
    preceding block in canonical order (else before the nearest following one, else at the end),
    with a blank line between them and a neighbouring block. Nothing else is added, so the
    text outside the blocks is byte-identical from one rebuild to the next.
    """
    out = list(segments)
    present = {s.name for s in out if s.name is not None}
    gap = Segment(newline)
    for name in CANONICAL_ORDER:
        if name not in blocks or name in present:
            continue
        rank = CANONICAL_ORDER.index(name)
        before = [i for i, s in enumerate(out) if s.name in CANONICAL_ORDER[:rank]]
        after = [i for i, s in enumerate(out) if s.name in CANONICAL_ORDER[rank + 1 :]]
        if before:
            at = before[-1] + 1
        elif after:
            at = after[0]
        else:
            at = len(out)
        new = [Segment(blocks[name], name)]
        if at > 0 and out[at - 1].name is not None:
            new.insert(0, gap)
        if at < len(out) and out[at].name is not None:
            new.append(gap)
        out[at:at] = new
        present.add(name)
    parts: list[str] = []
    for seg in out:
        if seg.name is None:
            parts.append(seg.text)
            continue
        inner = blocks.get(seg.name, seg.text)
        if parts and parts[-1] and not parts[-1].endswith("\n"):
            parts.append(newline)  # a marker must start its own line
        parts.append(begin_marker(seg.name) + newline)
        if inner and not inner.endswith(("\n", "\r")):
            inner += newline
        parts.append(inner)
        parts.append(end_marker(seg.name) + newline)
    return "".join(parts)


def _clean(value: str) -> str:
    """One line of Markdown that cannot open or close a comment marker."""
    value = " ".join(value.split())
    return value.replace("<", "&lt;").replace(">", "&gt;")


def _renderable(f: Facet, consented: frozenset[str]) -> bool:
    if f.state is not FacetState.ACTIVE or f.record_state is not RecordState.ACTIVE:
        return False
    if f.user_state is UserState.FORGOTTEN or f.disclosure is Disclosure.NEVER:
        return False
    if f.disclosure is Disclosure.ASK_BEFORE_REFERENCE:
        return f.sensitivity_category is not None and f.sensitivity_category in consented
    return True


def render_blocks(
    facets: Iterable[Facet], consented: frozenset[str] = frozenset(), *, newline: str = "\n"
) -> dict[str, str]:
    """Inner text of every cache-owned block (empty for a class with no active facet).

    Only active facets whose records may enter context are rendered: a special-category facet
    appears once the user consented to its category, as in the context plan.
    """
    grouped: dict[FacetClass, list[Facet]] = {c: [] for c in FacetClass}
    for f in facets:
        if _renderable(f, consented):
            grouped[f.facet_class].append(f)
    out: dict[str, str] = {}
    for cls, name in BLOCK_OF_CLASS.items():
        items = sorted(grouped[cls], key=lambda f: (not f.pinned, f.key))
        if not items:
            out[name] = ""
            continue
        lines = [f"## {TITLES[name]}"]
        for f in items:
            pin = " *(pinned)*" if f.pinned else ""
            if cls is FacetClass.GOAL:
                lines.append(f"- {_clean(f.value)}{pin}")
            else:
                lines.append(f"- **{_clean(f.key)}**: {_clean(f.value)}{pin}")
        out[name] = newline.join(lines) + newline
    return out


def _read(path: Path) -> str:
    try:
        with open(path, encoding="utf-8", errors="surrogateescape", newline="") as fh:
            return fh.read()
    except FileNotFoundError:
        return ""


def _write_atomic(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".PROFILE.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", errors="surrogateescape", newline="") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def update_profile(path: str | os.PathLike[str], blocks: Mapping[str, str]) -> str:
    """Rewrite the named blocks of the file at ``path`` (created if missing); returns the text."""
    target = Path(path)
    current = _read(target)
    newline = _newline(current) if current else "\n"
    if not current.strip():
        # A new (or blank) file: a title, then the blocks in canonical order.
        segments = [Segment((current or "") + HEADER + newline)]
    else:
        segments = parse(current)
    fixed = {name: inner.replace("\n", newline) for name, inner in blocks.items()}
    text = compose(segments, fixed, newline=newline)
    if text != current:
        _write_atomic(target, text)
    return text


def write_connected_accounts(path: str | os.PathLike[str], accounts: Iterable[str]) -> str:
    """The sources path's block: one bullet per connected account (``gmail (me@x.org)``)."""
    lines = [f"- {_clean(a)}" for a in accounts if a and a.strip()]
    inner = f"## {TITLES[CONNECTED_ACCOUNTS]}\n" + "".join(f"{line}\n" for line in lines)
    return update_profile(path, {CONNECTED_ACCOUNTS: inner if lines else ""})


class ProfileMdRenderer:
    """Subscribes to ``CacheRebuilt`` and rewrites the cache-owned blocks of ``PROFILE.md``.

    Args:
        workspace: A directory (each scope gets ``<dir>/<quoted scope>/PROFILE.md``) or a
            callable mapping a scope to its file path (``None`` skips the scope).
    """

    def __init__(self, workspace: str | os.PathLike[str] | Callable[[str], Path | None]) -> None:
        self.workspace = workspace

    def path_for(self, scope: str) -> Path | None:
        if callable(self.workspace):
            found = self.workspace(scope)
            return Path(found) if found is not None else None
        return Path(self.workspace) / quote(scope, safe="") / "PROFILE.md"

    def write(self, scope: str, facets: Iterable[Facet], consented: frozenset[str]) -> Path | None:
        path = self.path_for(scope)
        if path is None:
            return None
        update_profile(path, render_blocks(facets, consented))
        log.debug("[learning::profile_md] wrote the managed blocks")
        return path

    def __call__(self, event: CacheRebuilt) -> None:
        try:
            self.write(event.scope, event.facets, event.consented)
        except OSError as exc:
            log.warning("[learning::profile_md] cannot write PROFILE.md: %s", exc.strerror)

    def render_scope(self, cache: FacetSource, scope: str) -> Path | None:
        """Render from the cache's current state (after a control that did not rebuild)."""
        facets = cache.list_facets(scope, states=[FacetState.ACTIVE])
        return self.write(scope, facets, cache.store.consented(scope))
