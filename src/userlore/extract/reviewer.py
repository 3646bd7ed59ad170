"""The LLM reviewer: background synthesis of candidates from recent conversation (seed 000).

The reviewer reads the last ``maxHistoryMessages`` messages (redacted before the model sees them)
and asks any LangChain ``BaseChatModel`` for strict JSON candidates through structured output.
It has no tool and no storage handle of its own: :meth:`LLMReviewer.propose` returns validated
:class:`~userlore.models.CandidateInput` objects marked ``inferred``, and
:meth:`LLMReviewer.review` hands them, all in one transaction, to the same
:meth:`GovernedStore.govern <userlore.store.governed.GovernedStore.govern>` every other producer
uses. A model that labels an API key "harmless" is overruled there, because ``govern`` runs its
own detectors and a producer's sensitivity claim can only make the outcome stricter.

Malformed output is retried a bounded number of times with a correction message that names the
failing fields (never user text), then recorded as a failed pass in the trace table; nothing is
written for a failed pass. The whole pass is bounded by ``maxDurationMs``. The output schema and
its validation live in :mod:`userlore.extract.review_output`; their names are re-exported here.
"""

# Over 400 lines: one review pass (window, bounded retries, timeout, governed write) and its twins.

from __future__ import annotations

import asyncio
import contextvars
import functools
import json
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Protocol

from langchain_core.exceptions import OutputParserException
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
    convert_to_messages,
)
from langchain_core.runnables import Runnable
from pydantic import ValidationError

from userlore.config import MemoryMode, UnderstandingConfig
from userlore.errors import InvalidInputError, ReviewerOutputError
from userlore.extract.review_output import (
    INFERRED_CONFIDENCE_CAP,
    MAX_CANDIDATES,
    MAX_CONTENT_CHARS,
    MAX_EVIDENCE_CHARS,
    MAX_VALUE_CHARS,
    REVIEW_KINDS,
    Kind,
    ProposedCandidate,
    ReviewerOutput,
    SensitivityLabel,
    as_validation_error,
    correction,
    parse_text,
    problems,
    raw_text,
    to_candidates,
    validate_output,
)
from userlore.models import (
    CandidateInput,
    WriteOutcome,
)
from userlore.policy.sensitivity import redact
from userlore.store.governed import validate_scope
from userlore.understanding import govern, review_counts, trace_review

if TYPE_CHECKING:
    from userlore.store.governed import GovernedStore


class _StoreHolder(Protocol):
    @property
    def store(self) -> GovernedStore: ...


class ReviewTarget(Protocol):
    """What a review pass writes through: a ``Userlore`` (its ``memory.store``), typed by shape
    so the reviewer never imports the facade above it."""

    @property
    def memory(self) -> _StoreHolder: ...


__all__ = [
    "INFERRED_CONFIDENCE_CAP",
    "MAX_CANDIDATES",
    "MAX_CONTENT_CHARS",
    "MAX_EVIDENCE_CHARS",
    "MAX_VALUE_CHARS",
    "REVIEW_KINDS",
    "Kind",
    "LLMReviewer",
    "ProposedCandidate",
    "ReviewReport",
    "ReviewResult",
    "ReviewerOutput",
    "SensitivityLabel",
]

MAX_MESSAGE_CHARS = 4_000
# Provider SDK errors that mean "the output was cut off or withheld": malformed, so retried.
_MALFORMED_FINISH = frozenset({"LengthFinishReasonError", "ContentFilterFinishReasonError"})


@dataclass(frozen=True, slots=True)
class ReviewReport:
    """What one review pass produced, before anything is written.

    Attributes:
        status: ``ok``, ``invalid_output`` (retries exhausted), ``timeout`` (``maxDurationMs``
            reached), ``model_error`` (the provider call kept failing) or ``skipped`` (memory
            mode ``off``/``readOnly`` or nothing to review).
        candidates: Validated candidates, marked ``inferred``.
        attempts: Model calls made.
        dropped: Well-formed candidates whose evidence is not a quote of a user message.
        errors: Fixed error codes per failed attempt (field locations and error types, never
            user text).
        elapsed_ms: Wall time of the pass.
    """

    status: str
    candidates: tuple[CandidateInput, ...] = ()
    attempts: int = 0
    dropped: int = 0
    errors: tuple[str, ...] = ()
    elapsed_ms: int = 0

    def trace_payload(self, max_errors: int) -> dict[str, Any]:
        """The ``review`` trace payload of this pass: counts and the last error codes only."""
        return {
            "attempts": self.attempts,
            "proposed": len(self.candidates),
            "dropped": self.dropped,
            "elapsed_ms": self.elapsed_ms,
            "errors": list(self.errors[-max_errors:]),
        }

    @property
    def ok(self) -> bool:
        return self.status in ("ok", "skipped")


@dataclass(frozen=True, slots=True)
class ReviewResult:
    """A governed review pass: the report plus what ``govern`` did with each candidate."""

    report: ReviewReport
    outcomes: tuple[WriteOutcome, ...] = ()
    trace_id: str | None = None
    counts: dict[str, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.report.ok

    def raise_for_status(self) -> ReviewResult:
        """Raise :class:`~userlore.errors.ReviewerOutputError` when the pass failed."""
        if not self.report.ok:
            detail = ", ".join(self.report.errors[-3:]) or self.report.status
            raise ReviewerOutputError(
                f"review pass failed ({self.report.status}) after "
                f"{self.report.attempts} attempt(s): {detail}"
            )
        return self


SYSTEM_PROMPT = """\
You review a conversation between a user and an assistant and propose durable understanding \
about the USER: standing instructions, preferences, style, identity, tooling, vetoes (things \
the user refuses), goals, preferred channel and facts about their workspace.

Rules:
- Only propose what the user said or plainly showed in their own messages. Do not guess.
- `evidence` must be a verbatim quote from one user message that supports the candidate.
- Never propose passwords, API keys, tokens, private keys, card or account numbers, or \
government identifiers. Text shown as [REDACTED...] was removed on purpose: leave it out.
- Label `sensitivity` honestly, judging the evidence as well as the content: the category name \
(`health`, `religion`, `sexual_orientation`, `ethnicity`, `political_opinion`, `biometric`, \
`trade_union`, `genetic`, `criminal_record`) when either touches one; `personal` for other \
personal details; `none` otherwise.
- `content` is one short third-person sentence, e.g. "The user prefers terse answers."
- `canonical_key` looks like "style/verbosity" or "tooling/package_manager", or null.
- `value` is a short canonical value such as "terse" or "pnpm", or null.
- `confidence` is between 0 and 1.
- Skip one-off requests about the current task. Return {"candidates": []} when nothing \
qualifies. Reply with JSON only."""

_StructuredCall = Callable[[list[BaseMessage]], Any]


class LLMReviewer:
    """Background synthesis over any LangChain chat model, with no write access of its own.

    Example:
        >>> from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
        >>> from langchain_core.messages import AIMessage
        >>> reply = AIMessage(content='{"candidates": []}')
        >>> reviewer = LLMReviewer(GenericFakeChatModel(messages=iter([reply])))
        >>> reviewer.propose([("user", "hello")]).status
        'ok'

    Args:
        model: Any ``BaseChatModel``. Structured output (``with_structured_output``) is used when
            the model supports it; otherwise the reply text is parsed as JSON against the same
            schema.
        config: ``understanding`` options; ``maxHistoryMessages`` and ``maxDurationMs`` are read
            from it (defaults when omitted).
        max_attempts: Model calls allowed per pass, including retries after malformed output.
        structured_output_kwargs: Extra arguments for ``with_structured_output`` (for example
            ``{"method": "json_schema"}``).
    """

    def __init__(
        self,
        model: BaseChatModel,
        *,
        config: UnderstandingConfig | None = None,
        max_attempts: int = 3,
        structured_output_kwargs: dict[str, Any] | None = None,
    ) -> None:
        if not 1 <= max_attempts <= 10:
            raise InvalidInputError("max_attempts must be within [1, 10]")
        self.model = model
        self.config = config or UnderstandingConfig()
        self.max_attempts = max_attempts
        self._structured_kwargs = dict(structured_output_kwargs or {})
        self._structured: Runnable[Any, Any] | bool | None = False  # False: not built yet

    # -- proposing (no writes) ----------------------------------------------------------------

    def propose(self, messages: Sequence[Any]) -> ReviewReport:
        """Ask the model for candidates over the recent messages and validate them.

        Args:
            messages: Conversation messages (``BaseMessage``, dicts or ``(role, text)`` tuples);
                only the last ``maxHistoryMessages`` are read.
        """
        started = time.monotonic()
        deadline = started + self.config.max_duration_ms / 1000
        window = _window(messages, self.config.max_history_messages)
        user_texts = [m.text for m in window if isinstance(m, HumanMessage) and m.text.strip()]
        if not user_texts:
            return ReviewReport("skipped", elapsed_ms=_ms(started))
        prompt: list[BaseMessage] = [
            SystemMessage(SYSTEM_PROMPT),
            HumanMessage(_transcript(window)),
        ]
        call = self._caller()
        errors: list[str] = []
        attempts = 0
        status = "invalid_output"
        while attempts < self.max_attempts:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                status = "timeout"
                break
            attempts += 1
            try:
                output = _with_timeout(call, prompt, remaining)
            except FutureTimeout:
                errors.append("timeout")
                status = "timeout"
                break
            except (ValidationError, OutputParserException, json.JSONDecodeError) as exc:
                # Some integrations parse inside the model call and raise instead of returning.
                output = exc if isinstance(exc, ValidationError) else as_validation_error(exc)
            except Exception as exc:  # a provider failure of any kind is one failed attempt
                if type(exc).__name__ in _MALFORMED_FINISH:
                    output = as_validation_error(exc)
                else:
                    errors.append(f"model_error:{type(exc).__name__}")
                    status = "model_error"
                    continue
            status = "invalid_output"
            if isinstance(output, ValidationError):
                codes = problems(output)
                errors.append("invalid:" + ",".join(codes))
                prompt = [*prompt[:2], HumanMessage(correction(codes))]
                continue
            candidates, dropped = to_candidates(output, user_texts)
            return ReviewReport(
                "ok",
                candidates,
                attempts=attempts,
                dropped=dropped,
                errors=tuple(errors),
                elapsed_ms=_ms(started),
            )
        return ReviewReport(
            status, attempts=attempts, errors=tuple(errors), elapsed_ms=_ms(started)
        )

    def _caller(self) -> _StructuredCall:
        """One model call returning a validated ``ReviewerOutput`` or the ``ValidationError``."""
        if self._structured is False:
            try:
                self._structured = self.model.with_structured_output(
                    ReviewerOutput, include_raw=True, **self._structured_kwargs
                )
            except NotImplementedError:
                self._structured = None
        structured = self._structured
        if isinstance(structured, Runnable):

            def call_structured(prompt: list[BaseMessage]) -> ReviewerOutput | ValidationError:
                result = structured.invoke(prompt)
                parsed = result.get("parsed") if isinstance(result, dict) else result
                if parsed is None:
                    raw = result.get("raw") if isinstance(result, dict) else None
                    return parse_text(raw_text(raw))
                return validate_output(parsed)

            return call_structured

        schema = json.dumps(ReviewerOutput.model_json_schema(), separators=(",", ":"))

        def call_plain(prompt: list[BaseMessage]) -> ReviewerOutput | ValidationError:
            # One leading system message: some providers refuse system messages elsewhere.
            system = SystemMessage(
                f"{prompt[0].text}\n\nThe JSON must match this JSON schema: {schema}"
            )
            reply = self.model.invoke([system, *prompt[1:]])
            return parse_text(raw_text(reply))

        return call_plain

    # -- reviewing (governed writes) ----------------------------------------------------------

    def review(
        self,
        lore: ReviewTarget,
        scope: str,
        messages: Sequence[Any],
        *,
        session_key: str | None = None,
        thread_id: str | None = None,
        run_id: str | None = None,
    ) -> ReviewResult:
        """Propose, then govern every candidate in one transaction and trace the pass.

        A failed pass writes nothing but its trace event (reason code = status). If any
        candidate is unusable to ``govern`` the whole pass is rolled back and traced as
        ``invalid_candidate``: never a partial write.
        """
        validate_scope(scope)
        store = lore.memory.store
        if store.config.memory.mode in (MemoryMode.OFF, MemoryMode.READ_ONLY):
            return ReviewResult(ReviewReport("skipped"))
        report = self.propose(messages)
        base = report.trace_payload(self.max_attempts)
        if report.status != "ok":
            trace_id = trace_review(store, scope, report.status, base, session_key=session_key)
            return ReviewResult(report, (), trace_id, {})
        stamped = [
            _stamp(c, session_key=session_key, thread_id=thread_id, run_id=run_id)
            for c in report.candidates
        ]
        try:
            with store.transaction(scope) as session:
                outcomes = tuple(govern(store, scope, c, session=session) for c in stamped)
                trace_id = trace_review(
                    store,
                    scope,
                    "ok",
                    base,
                    session_key=session_key,
                    outcomes=outcomes,
                    session=session,
                )
        except InvalidInputError as exc:
            failed = replace(
                report,
                status="invalid_candidate",
                candidates=(),
                errors=(*report.errors, f"govern:{type(exc).__name__}"),
            )
            trace_id = trace_review(
                store,
                scope,
                "invalid_candidate",
                {**base, "errors": list(failed.errors)},
                session_key=session_key,
            )
            return ReviewResult(failed, (), trace_id, {})
        return ReviewResult(report, outcomes, trace_id, review_counts(outcomes))

    # -- async twins (one body of logic, run in a worker thread) ------------------------------

    async def apropose(self, messages: Sequence[Any]) -> ReviewReport:
        """Async twin of :meth:`propose`."""
        return await asyncio.to_thread(self.propose, messages)

    async def areview(
        self,
        lore: ReviewTarget,
        scope: str,
        messages: Sequence[Any],
        *,
        session_key: str | None = None,
        thread_id: str | None = None,
        run_id: str | None = None,
    ) -> ReviewResult:
        """Async twin of :meth:`review`."""
        return await asyncio.to_thread(
            functools.partial(
                self.review,
                lore,
                scope,
                messages,
                session_key=session_key,
                thread_id=thread_id,
                run_id=run_id,
            )
        )


# -- helpers ----------------------------------------------------------------------------------


def _ms(started: float) -> int:
    return int((time.monotonic() - started) * 1000)


def _window(messages: Sequence[Any], limit: int) -> list[BaseMessage]:
    converted = convert_to_messages(list(messages))
    return [m for m in converted if not isinstance(m, SystemMessage)][-limit:]


def _role(message: BaseMessage) -> str:
    if isinstance(message, HumanMessage):
        return "user"
    if isinstance(message, AIMessage):
        return "assistant"
    if isinstance(message, ToolMessage):
        return "tool"
    return message.type


def _transcript(window: Sequence[BaseMessage]) -> str:
    """The conversation as numbered lines, redacted before any model sees it."""
    lines = []
    for i, message in enumerate(window, 1):
        text = redact(message.text.strip())
        if len(text) > MAX_MESSAGE_CHARS:
            text = text[:MAX_MESSAGE_CHARS] + " [...]"
        if text:
            lines.append(f"[{i}] {_role(message)}: {text}")
    return "Conversation to review:\n" + "\n".join(lines)


def _with_timeout(call: _StructuredCall, prompt: list[BaseMessage], timeout: float) -> Any:
    """Run one model call, giving up (not waiting for the thread) once ``timeout`` passes."""
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="userlore-reviewer")
    try:
        ctx = contextvars.copy_context()
        return pool.submit(ctx.run, call, prompt).result(timeout=timeout)
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


def _stamp(
    c: CandidateInput, *, session_key: str | None, thread_id: str | None, run_id: str | None
) -> CandidateInput:
    return replace(
        c,
        session_key=session_key,
        thread_id=thread_id,
        run_id=run_id,
        author_agent_id=c.author_agent_id or "userlore-reviewer",
    )
