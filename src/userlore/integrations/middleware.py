"""``UserloreMiddleware``: governed user memory for ``langchain.agents.create_agent``.

- ``before_model`` plans the context of the latest user turn (retrieve → policy filter → rerank →
  budget → fenced ``<user-context>`` block + trace). Only the plan's trace id goes into agent
  state; the block itself waits in a small in-process cache.
- ``wrap_model_call`` adds the block to the system message with
  ``request.override(system_message=...)``, so it reaches the model but never the stored message
  history or the checkpoint. If the agent has a tool named ``recall`` (the seed 003 memory
  tool), a short static instruction (seed 002's MemoryAccessSection) tells the model to use it for
  people, prior threads and decisions.
- ``after_agent`` hands the run's user turn(s), and a review pass when the cadence says so, to
  the work queue (:mod:`userlore.work`): nothing is written and no reviewer runs on the turn.

Memory never breaks the user's turn: a failed read or correction lets the turn run without a
memory block, and a write that cannot be queued is dropped from the turn; each is logged and
counted (``userlore.feedback.metrics.TURN_HEALTH``). Programming errors still raise.

The user scope is resolved per call by :class:`~userlore.integrations.scope.ScopeResolver`
(``runtime.context``, ``configurable``, the LangGraph Server identity, then ``default_scope``).
Every hook has an async twin running the same body in a thread.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Annotated, Any, Literal, NotRequired, TypedDict

from langchain.agents.middleware.types import (
    AgentMiddleware,
    AgentState,
    ModelRequest,
    ModelResponse,
    PrivateStateAttr,
)
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, SystemMessage
from langchain_core.tools import BaseTool
from langgraph.runtime import Runtime

from userlore.config import MemoryMode
from userlore.errors import ConfigError, ScopeError
from userlore.extract.reviewer import LLMReviewer
from userlore.facade import MAX_TURN_CHARS
from userlore.feedback.metrics import TURN_HEALTH
from userlore.graph.cadence import Cadence, ReviewCadence
from userlore.integrations.scope import ScopeResolver, current_config
from userlore.store.governed import validate_scope
from userlore.validation import scrubbed, storable
from userlore.work import Job, WorkQueue, WorkRunner, observe_job, review_job
from userlore.work.runner import DEFAULT_MAX_QUEUED

if TYPE_CHECKING:
    from userlore.facade import Userlore
    from userlore.feedback import FeedbackResult

__all__ = ["MEMORY_ACCESS_SECTION", "UserloreAgentState", "UserloreMiddleware"]

MEMORY_ACCESS_SECTION = (
    "Memory access: you can call the `recall` tool to search this user's memory. When the user "
    "mentions people, earlier conversations, prior decisions or recurring topics that the user "
    "context does not cover, call `recall` before answering instead of guessing."
)
"""Seed 002's MemoryAccessSection: added only when the agent has a ``recall`` tool."""

RECALL_TOOL_NAME = "recall"

log = logging.getLogger(__name__)

PROGRAMMING_ERRORS: tuple[type[BaseException], ...] = (
    TypeError,
    AttributeError,
    NameError,
    AssertionError,
)
"""Errors that are bugs, not outages: they still raise from the hooks (and fail tests)."""

Writes = Literal["background", "queue"]


class PlanRef(TypedDict):
    """Which plan the next model call uses: its trace id and the user message it answers."""

    key: str
    turn: str | None


class UserloreAgentState(AgentState[Any]):
    """Agent state added by the middleware: ids only, never user text."""

    userlore_plan: NotRequired[Annotated[PlanRef | None, PrivateStateAttr]]
    userlore_reviewed_turn: NotRequired[Annotated[int, PrivateStateAttr]]


class UserloreMiddleware(AgentMiddleware[UserloreAgentState, Any, Any]):
    """Plan, inject and observe user memory around every ``create_agent`` model call.

    Example:
        >>> from langchain.agents import create_agent  # doctest: +SKIP
        >>> agent = create_agent(model, tools=[], middleware=[UserloreMiddleware(lore)])  # +SKIP

    Args:
        lore: The ``Userlore`` to plan from and write to.
        default_scope: Scope used when neither ``runtime.context``, ``configurable`` nor the
            LangGraph Server identity names one (a single-user server's user).
        scope_key: Key (or attribute) naming the user in ``runtime.context`` and
            ``configurable``.
        reviewer: Optional LLM reviewer for background synthesis in ``after_agent``.
        cadence: When the reviewer runs (default: :class:`~userlore.graph.ReviewCadence`).
        observe: Whether ``after_agent`` records user turns (explicit extraction).
        corrections: Whether ``before_model`` handles an explicit correction of the previous
            answer's understanding ("that's not my timezone any more") before planning the
            turn (``lore.feedback.handle_correction``; needs message ids, which agents assign).
        agent_id: Author attribution for records written from this agent's turns.
        max_cached_plans: Size of the in-process cache of rendered blocks.
        writes: ``"background"`` (default) runs observations and reviews on this process's
            :class:`~userlore.work.WorkRunner` thread (bounded queue; reviews and overflow go to
            the durable table); ``"queue"`` only puts them in the durable table for
            ``userlore worker``. Either way nothing is written on the user's turn.
        max_queued: Bound of the in-process queue (``writes="background"``).
        runner: A runner to share between middlewares (default: one of its own); its own
            ``reviewer`` runs the queued reviews.
    """

    state_schema = UserloreAgentState

    def __init__(
        self,
        lore: Userlore,
        *,
        default_scope: str | None = None,
        scope_key: str = "user_id",
        reviewer: LLMReviewer | None = None,
        cadence: Cadence | None = None,
        observe: bool = True,
        corrections: bool = True,
        agent_id: str | None = None,
        max_cached_plans: int = 1024,
        writes: Writes = "background",
        max_queued: int = DEFAULT_MAX_QUEUED,
        runner: WorkRunner | None = None,
    ) -> None:
        super().__init__()
        self.lore = lore
        self.scope = ScopeResolver(key=scope_key, default=default_scope)
        self.default_scope = validate_scope(default_scope) if default_scope else None
        self.scope_key = scope_key
        self.reviewer = reviewer
        self.cadence: Cadence = cadence or ReviewCadence(lore.config, lore.feedback.store)
        self.observe = observe
        self.corrections = corrections
        self.agent_id = agent_id
        self.tools: Sequence[BaseTool] = []
        self._plans: OrderedDict[str, str] = OrderedDict()
        self._max_plans = max_cached_plans
        self._lock = threading.Lock()
        if writes not in ("background", "queue"):
            raise ConfigError(f"writes must be 'background' or 'queue', not {writes!r}")
        self.writes: Writes = writes
        self.runner: WorkRunner | None = None
        self.queue: WorkQueue
        if writes == "background":
            self.runner = runner or WorkRunner(lore, reviewer=reviewer, max_queued=max_queued)
            self.queue = self.runner.queue
        else:
            self.queue = WorkQueue(lore.memory.store)

    # -- scope --------------------------------------------------------------------------------

    def resolve_scope(self, runtime: Runtime[Any] | None) -> str:
        """``runtime.context``, then ``configurable``, then the LangGraph Server identity, then
        ``default_scope`` (:class:`~userlore.integrations.scope.ScopeResolver`).

        Raises:
            ScopeError: none of them names a user, or the name is malformed.
        """
        return self.scope.resolve(runtime=runtime)

    # -- failing open -------------------------------------------------------------------------

    def _degraded(self, counter: str, what: str, exc: Exception) -> None:
        """Log and count a memory failure the turn runs without; bugs re-raise."""
        if isinstance(exc, PROGRAMMING_ERRORS):
            raise exc
        TURN_HEALTH.count(counter)
        log.warning("userlore %s failed open (%s): the turn runs on", what, type(exc).__name__)

    # -- before_model: plan -------------------------------------------------------------------

    def before_model(
        self, state: UserloreAgentState, runtime: Runtime[Any]
    ) -> dict[str, Any] | None:
        """Plan the latest user turn's context (reused across a turn's tool loop)."""
        if self.lore.config.memory.mode is MemoryMode.OFF:
            return None
        latest = _latest_user(state["messages"])
        turn = latest.id if latest is not None else None
        ref = state.get("userlore_plan")
        if ref is not None and ref["turn"] == turn and turn is not None and self._cached(ref):
            return None
        scope = self.resolve_scope(runtime)
        if (
            self.corrections
            and latest is not None
            and turn is not None
            and len(latest.text) <= MAX_TURN_CHARS  # an oversized turn is no correction
            and storable(latest.text)
        ):
            # Seed 000: a correction is handled before its turn is planned; the turn id makes
            # a re-plan of the same turn a no-op.
            try:
                self.lore.feedback.handle_correction(scope, latest.text, _thread_id(), turn_id=turn)
            except Exception as exc:
                self._degraded("correction_failures", "correction", exc)
        try:
            key = self._plan(scope, latest)
        except Exception as exc:
            self._degraded("read_failures", "plan", exc)
            key = None
        return {"userlore_plan": {"key": key, "turn": turn} if key else None}

    async def abefore_model(
        self, state: UserloreAgentState, runtime: Runtime[Any]
    ) -> dict[str, Any] | None:
        """Async twin of :meth:`before_model`."""
        return await asyncio.to_thread(self.before_model, state, runtime)

    def _plan(self, scope: str, latest: HumanMessage | None) -> str | None:
        # The query is read, never stored: characters no backend stores are dropped, not fatal.
        # A pasted log over one turn's bound plans from its first MAX_TURN_CHARS characters.
        query = scrubbed(latest.text)[:MAX_TURN_CHARS] if latest is not None else ""
        plan = self.lore.plan_context(scope, query, session_key=_thread_id())
        if not plan.text or plan.trace_id is None:
            return None
        with self._lock:
            self._plans[plan.trace_id] = plan.text
            self._plans.move_to_end(plan.trace_id)
            while len(self._plans) > self._max_plans:
                self._plans.popitem(last=False)
        return plan.trace_id

    def _cached(self, ref: PlanRef) -> str | None:
        with self._lock:
            return self._plans.get(ref["key"])

    # -- wrap_model_call: inject --------------------------------------------------------------

    def prepare_request(self, request: ModelRequest[Any]) -> ModelRequest[Any]:
        """The request with the ``<user-context>`` block (and recall hint) in its system message.

        A plan missing from the cache (another process planned it, or this one restarted) is
        planned again here.
        """
        parts: list[str] = []
        ref: PlanRef | None = request.state.get("userlore_plan")  # type: ignore[assignment]
        if ref is not None:
            text = self._cached(ref)
            if text is None:
                latest = _latest_user(request.messages)
                scope = self.resolve_scope(request.runtime)
                try:
                    key = self._plan(scope, latest)
                except Exception as exc:
                    self._degraded("read_failures", "plan", exc)
                    key = None
                text = self._cached({"key": key, "turn": None}) if key else None
            if text:
                parts.append(text)
        if any(_tool_name(t) == RECALL_TOOL_NAME for t in request.tools):
            parts.append(MEMORY_ACCESS_SECTION)
        if not parts:
            return request
        return request.override(system_message=_merge(request.system_message, "\n\n".join(parts)))

    def wrap_model_call(
        self,
        request: ModelRequest[Any],
        handler: Callable[[ModelRequest[Any]], ModelResponse[Any]],
    ) -> ModelResponse[Any]:
        """Call the model with the planned context in the system message."""
        return handler(self.prepare_request(request))

    async def awrap_model_call(
        self,
        request: ModelRequest[Any],
        handler: Callable[[ModelRequest[Any]], Awaitable[ModelResponse[Any]]],
    ) -> ModelResponse[Any]:
        """Async twin of :meth:`wrap_model_call`."""
        prepared = await asyncio.to_thread(self.prepare_request, request)
        return await handler(prepared)

    # -- after_agent: observe -----------------------------------------------------------------

    def after_agent(
        self, state: UserloreAgentState, runtime: Runtime[Any]
    ) -> dict[str, Any] | None:
        """Hand this run's user turn(s), and a review when the cadence says so, to the queue.

        Nothing is written and no reviewer runs here: the turn only enqueues.
        """
        mode = self.lore.config.memory.mode
        if mode in (MemoryMode.OFF, MemoryMode.READ_ONLY):
            return None
        scope = self.resolve_scope(runtime)
        messages = state["messages"]
        thread = _thread_id()
        if self.observe:
            for message in _run_user_messages(messages):
                if message.text.strip():
                    job = observe_job(
                        scope,
                        message.text,
                        turn_id=message.id,
                        session_key=thread,
                        agent_id=self.agent_id,
                        at=self.lore.feedback.store.clock(),  # said now, whenever it is written
                        mode=mode.value,
                    )
                    if job.payload.get("skip"):  # too long or unstorable: traced, and counted
                        TURN_HEALTH.count("skipped_turns")
                    self._submit(job)
        if self.reviewer is None:
            return None
        turns = sum(isinstance(m, HumanMessage) for m in messages)
        last = state.get("userlore_reviewed_turn", 0)
        try:
            decision = self.cadence.should_review(scope, user_turns=turns, last_review_turn=last)
        except Exception as exc:
            self._degraded("read_failures", "review cadence", exc)
            return None
        if not decision.review:
            return None
        window = self.lore.config.understanding.max_history_messages
        job = review_job(
            scope, messages, thread_id=thread, user_turns=turns, window=window, mode=mode.value
        )
        # A review is durable (it survives a restart); the runner is woken to run it.
        if not self._submit(job, durable=True):
            return None
        return {"userlore_reviewed_turn": turns}

    def _submit(self, job: Job, *, durable: bool = False) -> bool:
        """Queue ``job`` off the turn; a failure to queue is logged and counted, never raised."""
        try:
            if self.runner is not None:
                self.runner.submit(job, durable=durable)
            else:
                self.queue.enqueue(job)
        except Exception as exc:
            self._degraded("write_failures", f"queueing a {job.kind} job", exc)
            return False
        return True

    def wait_idle(self, timeout: float = 30.0) -> bool:
        """Wait until the queued work this process can run is done (scripts, tests, shutdown).

        With ``writes="queue"`` the worker runs it: returns at once.
        """
        return self.runner.wait_idle(timeout) if self.runner is not None else True

    def close(self, timeout: float = 30.0) -> bool:
        """Run what is queued in memory and stop the background thread (before ``lore.close``)."""
        return self.runner.close(timeout) if self.runner is not None else True

    async def aafter_agent(
        self, state: UserloreAgentState, runtime: Runtime[Any]
    ) -> dict[str, Any] | None:
        """Async twin of :meth:`after_agent`."""
        return await asyncio.to_thread(self.after_agent, state, runtime)

    # -- response feedback --------------------------------------------------------------------

    def rate_last_response(
        self,
        rating: str,
        *,
        thread_id: str | None,
        user_id: str | None = None,
        response_at: datetime | None = None,
    ) -> FeedbackResult:
        """Rate the agent's last response on a thread: ``helpful`` or ``not_helpful``.

        The rating is attributed to the plan made for that response (its session key is the
        thread id); ``result.queued_for_review`` tells a chat UI that related understanding
        was paused and queued for review.

        Args:
            thread_id: The ``configurable.thread_id`` the agent ran with.
            user_id: The user (scope); defaults to ``default_scope``.
            response_at: When the rated response was given (default: now, the last one).
        """
        scope = validate_scope(user_id) if user_id else self.default_scope
        if scope is None:
            raise ScopeError("no user scope: pass user_id= or set default_scope")
        at = response_at if response_at is not None else self.lore.feedback.store.clock()
        return self.lore.feedback.set_response_feedback(scope, thread_id, at, rating)

    async def arate_last_response(
        self,
        rating: str,
        *,
        thread_id: str | None,
        user_id: str | None = None,
        response_at: datetime | None = None,
    ) -> FeedbackResult:
        """Async twin of :meth:`rate_last_response`."""
        return await asyncio.to_thread(
            self.rate_last_response,
            rating,
            thread_id=thread_id,
            user_id=user_id,
            response_at=response_at,
        )


# -- helpers ----------------------------------------------------------------------------------


def _configurable() -> dict[str, Any]:
    return dict(current_config().get("configurable", {}))


def _thread_id() -> str | None:
    thread = _configurable().get("thread_id")
    return str(thread) if thread else None


def _latest_user(messages: Sequence[AnyMessage]) -> HumanMessage | None:
    for message in reversed(messages):
        if isinstance(message, HumanMessage):
            return message
    return None


def _run_user_messages(messages: Sequence[AnyMessage]) -> list[HumanMessage]:
    """The user messages that started this run: the last block of consecutive user messages."""
    out: list[HumanMessage] = []
    for message in reversed(messages):
        if isinstance(message, HumanMessage):
            out.append(message)
        elif out and isinstance(message, AIMessage):
            break
    return out[::-1]


def _tool_name(tool: BaseTool | dict[str, Any]) -> str | None:
    if isinstance(tool, BaseTool):
        return tool.name
    if isinstance(tool, dict):
        name = tool.get("name") or (tool.get("function") or {}).get("name")
        return str(name) if name else None
    return None


def _merge(system: SystemMessage | None, extra: str) -> SystemMessage:
    """Append ``extra`` to the system message, keeping its form (text or content blocks)."""
    if system is None:
        return SystemMessage(content=extra)
    content = system.content
    if isinstance(content, str):
        merged: str | list[str | dict[Any, Any]] = f"{content}\n\n{extra}" if content else extra
    else:
        merged = [*content, {"type": "text", "text": extra}]
    return system.model_copy(update={"content": merged})
