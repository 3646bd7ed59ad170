"""Fake chat models for offline tests: scripted replies, every call recorded."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from pydantic import Field, PrivateAttr


class ScriptedChatModel(BaseChatModel):
    """Replies with the scripted messages in order (the last one repeats) and records calls.

    ``bind_tools`` returns the model itself, so it works inside ``create_agent`` and goes the
    tool-calling path of ``with_structured_output`` (reply with ``tool_calls`` to feed it).
    """

    replies: list[Any] = Field(default_factory=list)
    """Scripted replies: ``AIMessage`` objects or plain strings."""
    delay_s: float = 0.0
    calls: list[list[BaseMessage]] = Field(default_factory=list)
    _index: int = PrivateAttr(default=0)

    @property
    def _llm_type(self) -> str:
        return "scripted-fake"

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.calls.append(list(messages))
        if self.delay_s:
            time.sleep(self.delay_s)
        if not self.replies:
            reply: AIMessage | str = "ok"
        else:
            reply = self.replies[min(self._index, len(self.replies) - 1)]
        self._index += 1
        message = AIMessage(content=reply) if isinstance(reply, str) else reply.model_copy()
        return ChatResult(generations=[ChatGeneration(message=message)])

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Runnable[Any, Any]:
        return self

    def system_texts(self) -> list[str]:
        """The system message text of every recorded call ('' when there was none)."""
        out = []
        for call in self.calls:
            system = [m.text for m in call if m.type == "system"]
            out.append("\n".join(system))
        return out
