"""Producer (c): style and veto facets from per-turn rolling state (Behavioral cue).

Three detectors watch the turns of a conversation, per scope, and emit a candidate only when a
signal *repeats* (one request is a task, two are a habit):

* :class:`LengthRatioDetector` — the user keeps asking for shorter (or longer) answers →
  ``style/verbosity = terse`` (or ``detailed``).
* :class:`EditWindowDetector` — the user edits the assistant's last reply within a short window
  (pastes it back changed, or a UI reports the edit): what the edit removes or adds (emoji,
  bullets, a preamble, half the length) → ``style/emoji``, ``style/format``, ``style/preamble``,
  ``style/verbosity``.
* :class:`CorrectionRepeatDetector` — the same correction comes back ("no, pnpm not npm", "I said
  no jest") → ``tooling/<category> = X`` and ``veto/Y = banned``. Tools are recognized by the
  explicit extractor's vocabulary (through its public :func:`extract_statements`), so this module
  holds no tool list of its own.

Candidates cite the turn as evidence (its source item id when the caller has one, e.g.
``ObserveResult.source_item_id``, else the turn text, stored redacted). The state is bounded:
a window of recent turns per scope and at most ``max_scopes`` scopes (least recently used
forgotten first); it is in memory only, like a conversation.
"""

from __future__ import annotations

import difflib
import logging
import re
import threading
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from userlore.extract.explicit import extract_statements
from userlore.learning.facets import CueFamily, EvidenceRef, FacetClass, LearningCandidate

__all__ = [
    "CorrectionRepeatDetector",
    "EditWindowDetector",
    "LengthRatioDetector",
    "TurnHeuristics",
]

log = logging.getLogger("userlore.learning.extract.heuristics")

_CONFIDENCE = 0.6
_MAX_TURN_CHARS = 8_000

_SHORTER = re.compile(
    r"\b(?:(?:much\s+|a\s+lot\s+|way\s+)?(?:shorter|briefer)|too\s+(?:long|wordy|verbose|much\s+"
    r"text)|(?:more|be)\s+(?:concise|brief|succinct)|less\s+(?:verbose|wordy|text)|tl;?\s?dr|"
    r"keep\s+it\s+(?:short|brief|tight)|shorten\s+(?:it|that|this)|cut\s+(?:it|that)\s+down|"
    r"get\s+to\s+the\s+point)\b|太长|简短|简洁|短一点|精简",
    re.IGNORECASE,
)
_LONGER = re.compile(
    r"\b(?:more\s+(?:detail(?:s|ed)?|depth|thorough)|in\s+more\s+(?:detail|depth)|elaborate|"
    r"too\s+(?:short|brief|terse)|expand\s+on|go\s+deeper|longer\s+(?:answer|explanation|"
    r"response)|explain\s+(?:it\s+)?(?:more|further|fully))\b|详细|展开|太短",
    re.IGNORECASE,
)
_CORRECTION = re.compile(
    r"^\s*(?:no\b|nope\b|wrong\b|not\s+(?:that|again)\b|i\s+(?:said|told\s+you|asked\s+for|"
    r"meant)\b|stop\b|again\b|please\s+(?:don'?t|stop)\b|don'?t\b|that'?s\s+(?:not|wrong)\b|"
    r"actually\b|use\s+\S+\s*(?:,|not|instead)|不是|不对|错了|我说了|别用|不要用)",
    re.IGNORECASE,
)
_REPLACE = re.compile(
    r"(?:use\s+)?(?P<good>[\w.+#-]+(?:\s[\w.+#-]+)?)\s*,?\s+(?:not|instead\s+of|rather\s+than)\s+"
    r"(?P<bad>[\w.+#-]+(?:\s[\w.+#-]+)?)|not\s+(?P<bad2>[\w.+#-]+)\s*,\s*(?:use\s+)?"
    r"(?P<good2>[\w.+#-]+)",
    re.IGNORECASE,
)
_NO_MORE = re.compile(
    r"\b(?:no|stop\s+(?:using|suggesting)|don'?t\s+(?:use|suggest))\s+(?P<bad>[\w.+#-]+)",
    re.IGNORECASE,
)
_EMOJI = re.compile("[\U0001f300-\U0001faff\u2600-\u27bf\U0001f000-\U0001f2ff]")
_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+", re.MULTILINE)
_PREAMBLE = re.compile(
    r"^\s*(?:sure|certainly|of\s+course|absolutely|great\s+question|good\s+question|"
    r"happy\s+to\s+help|i'?d\s+be\s+(?:happy|glad)\s+to)\b",
    re.IGNORECASE,
)


def _now() -> datetime:
    return datetime.now(UTC)


@dataclass(slots=True)
class _Signal:
    key: str
    value: str
    facet_class: FacetClass
    evidence: EvidenceRef
    at: datetime
    emitted: bool = False


@dataclass(slots=True)
class _ScopeState:
    turns: int = 0
    last_reply: str | None = None
    last_reply_at: datetime | None = None
    signals: deque[tuple[int, _Signal]] = field(default_factory=deque)


class _Rolling:
    """Per-scope rolling state shared by the detectors: bounded and thread-safe."""

    def __init__(self, *, window_turns: int, max_scopes: int) -> None:
        self.window_turns = window_turns
        self.max_scopes = max_scopes
        self._states: OrderedDict[str, _ScopeState] = OrderedDict()
        self._lock = threading.Lock()

    def state(self, scope: str) -> _ScopeState:
        st = self._states.get(scope)
        if st is None:
            st = self._states[scope] = _ScopeState()
            while len(self._states) > self.max_scopes:
                self._states.popitem(last=False)
        self._states.move_to_end(scope)
        return st

    def repeated(
        self, scope: str, st: _ScopeState, signal: _Signal, threshold: int
    ) -> list[LearningCandidate]:
        """Add ``signal``; once ``threshold`` like it are in the window, emit them all."""
        while st.signals and st.signals[0][0] <= st.turns - self.window_turns:
            st.signals.popleft()
        st.signals.append((st.turns, signal))
        same = [
            s
            for _, s in st.signals
            if (s.facet_class, s.key, s.value) == (signal.facet_class, signal.key, signal.value)
        ]
        if len(same) < threshold:
            return []
        out: list[LearningCandidate] = []
        for s in same:
            if not s.emitted:
                s.emitted = True
                out.append(_candidate(scope, s))
        return out


def _candidate(scope: str, s: _Signal) -> LearningCandidate:
    return LearningCandidate(
        scope=scope,
        facet_class=s.facet_class,
        key=s.key,
        value=s.value,
        cue_family=CueFamily.BEHAVIORAL,
        evidence=s.evidence,
        initial_confidence=_CONFIDENCE,
        observed_at=s.at,
    )


def _evidence(text: str, source_item_id: str | None) -> EvidenceRef:
    if source_item_id:
        return EvidenceRef("turn", source_item_id=source_item_id)
    return EvidenceRef("heuristic", text=text[:_MAX_TURN_CHARS])


class LengthRatioDetector:
    """The user keeps asking for shorter (or longer) answers → ``style/verbosity``."""

    threshold = 2

    def detect(self, text: str) -> str | None:
        shorter, longer = bool(_SHORTER.search(text)), bool(_LONGER.search(text))
        if shorter == longer:
            return None
        return "terse" if shorter else "detailed"


class EditWindowDetector:
    """What the user's edit of the last reply changed → style facets (one edit = one signal).

    Args:
        window: How soon after the reply an edit counts.
        min_similarity: How close to the reply a user turn must be to count as an edit of it.
    """

    threshold = 1

    def __init__(
        self, window: timedelta = timedelta(minutes=10), min_similarity: float = 0.5
    ) -> None:
        self.window = window
        self.min_similarity = min_similarity

    def is_edit(self, reply: str, turn: str) -> bool:
        if len(reply) < 40 or len(turn) < 20:
            return False
        matcher = difflib.SequenceMatcher(a=reply, b=turn, autojunk=False)
        return matcher.quick_ratio() >= self.min_similarity and (
            matcher.ratio() >= self.min_similarity
        )

    def changes(self, original: str, edited: str) -> list[tuple[str, str]]:
        """``(style key, value)`` pairs the edit expresses."""
        out: list[tuple[str, str]] = []
        if _EMOJI.search(original) and not _EMOJI.search(edited):
            out.append(("emoji", "skip"))
        bullets_before = len(_BULLET.findall(original))
        bullets_after = len(_BULLET.findall(edited))
        if bullets_before >= 2 and bullets_after == 0:
            out.append(("format", "prose"))
        elif bullets_before == 0 and bullets_after >= 2:
            out.append(("format", "bullets"))
        if _PREAMBLE.match(original) and not _PREAMBLE.match(edited):
            out.append(("preamble", "skip"))
        if len(edited) <= 0.6 * len(original):
            out.append(("verbosity", "terse"))
        elif len(edited) >= 1.5 * len(original):
            out.append(("verbosity", "detailed"))
        return out


class CorrectionRepeatDetector:
    """The same correction, repeated → ``tooling/<category> = X`` and ``veto/<Y> = banned``."""

    threshold = 2

    def detect(self, text: str) -> list[tuple[FacetClass, str, str]]:
        if not _CORRECTION.search(text):
            return []
        found: list[tuple[FacetClass, str, str]] = []
        good: list[str] = []
        bad: list[str] = []
        for m in _REPLACE.finditer(text):
            good.append((m.group("good") or m.group("good2") or "").rstrip("."))
            bad.append((m.group("bad") or m.group("bad2") or "").rstrip("."))
        bad.extend(m.group("bad").rstrip(".") for m in _NO_MORE.finditer(text))
        for name in good:
            for st in extract_statements(f"I use {name}."):
                if st.kind == "tooling" and st.value:
                    found.append((FacetClass.TOOLING, st.canonical_key.split("/", 1)[1], st.value))
        for name in bad:
            tool = [s for s in extract_statements(f"I use {name}.") if s.kind == "tooling"]
            if not tool:
                continue  # only known tools: "no, not that" must not become a veto
            found.extend((FacetClass.VETO, s.value or "", "banned") for s in tool if s.value)
        return list(dict.fromkeys(found))


class TurnHeuristics:
    """Runs the three detectors over a conversation's turns, per scope.

    Example:
        >>> h = TurnHeuristics()
        >>> h.observe("u1", "user", "Too long, make it shorter.")
        []
        >>> [c.value for c in h.observe("u1", "user", "Still too long. Be more concise.")]
        ['terse', 'terse']

    Args:
        sink: Where candidates go as well as being returned (e.g. ``lore.facets.cache.submit``).
        window_turns: How many recent turns a repeated signal must fall within.
        edit_window: How soon after a reply a user edit of it counts.
        max_scopes: Scopes whose rolling state is kept (least recently used dropped first).
    """

    def __init__(
        self,
        *,
        sink: Callable[[list[LearningCandidate]], object] | None = None,
        window_turns: int = 20,
        edit_window: timedelta = timedelta(minutes=10),
        max_scopes: int = 10_000,
        clock: Callable[[], datetime] = _now,
    ) -> None:
        self.sink = sink
        self.clock = clock
        self.length = LengthRatioDetector()
        self.edits = EditWindowDetector(edit_window)
        self.corrections = CorrectionRepeatDetector()
        self._rolling = _Rolling(window_turns=window_turns, max_scopes=max_scopes)

    def observe(
        self,
        scope: str,
        role: str,
        text: str,
        *,
        at: datetime | None = None,
        source_item_id: str | None = None,
    ) -> list[LearningCandidate]:
        """Feed one turn; returns the candidates it completes (usually none)."""
        when = at or self.clock()
        text = (text or "")[:_MAX_TURN_CHARS]
        out: list[LearningCandidate] = []
        with self._rolling._lock:
            st = self._rolling.state(scope)
            if role == "assistant":
                st.last_reply, st.last_reply_at = text, when
                return []
            if role != "user" or not text.strip():
                return []
            st.turns += 1
            evidence = _evidence(text, source_item_id)
            reply, reply_at = st.last_reply, st.last_reply_at
            if (
                reply is not None
                and reply_at is not None
                and when - reply_at <= self.edits.window
                and self.edits.is_edit(reply, text)
            ):
                out.extend(self._edit(scope, st, reply, text, evidence, when))
            else:
                direction = self.length.detect(text)
                if direction is not None:
                    signal = _Signal("verbosity", direction, FacetClass.STYLE, evidence, when)
                    out.extend(self._rolling.repeated(scope, st, signal, self.length.threshold))
                for cls, key, value in self.corrections.detect(text):
                    signal = _Signal(key, value, cls, evidence, when)
                    out.extend(
                        self._rolling.repeated(scope, st, signal, self.corrections.threshold)
                    )
        return self._emit(out)

    def observe_edit(
        self,
        scope: str,
        original: str,
        edited: str,
        *,
        at: datetime | None = None,
        source_item_id: str | None = None,
    ) -> list[LearningCandidate]:
        """A UI reports that the user edited an assistant reply (``original`` → ``edited``)."""
        when = at or self.clock()
        with self._rolling._lock:
            st = self._rolling.state(scope)
            st.turns += 1
            evidence = _evidence(edited[:_MAX_TURN_CHARS], source_item_id)
            out = self._edit(scope, st, original, edited, evidence, when)
        return self._emit(out)

    def _edit(
        self,
        scope: str,
        st: _ScopeState,
        original: str,
        edited: str,
        evidence: EvidenceRef,
        when: datetime,
    ) -> list[LearningCandidate]:
        out: list[LearningCandidate] = []
        for key, value in self.edits.changes(original, edited):
            signal = _Signal(key, value, FacetClass.STYLE, evidence, when)
            out.extend(self._rolling.repeated(scope, st, signal, self.edits.threshold))
        return out

    def _emit(self, candidates: Iterable[LearningCandidate]) -> list[LearningCandidate]:
        out = list(candidates)
        if out:
            log.debug("[learning::extract::heuristics] %d candidate(s)", len(out))
            if self.sink is not None:
                self.sink(out)
        return out
