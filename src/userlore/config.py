"""User options, mirroring seed 000's ``userContext`` JSON.

The same document a gateway operator writes in JSON loads here unchanged::

    {"userContext": {"memory": {"mode": "confirmWrite", "sources": ["session", "curated"]},
                     "understanding": {"enabled": true, "reviewIntervalTurns": 10}}}

Unknown keys and bad values raise :class:`~userlore.errors.ConfigError` rather than being
silently ignored: a typo in a safety setting must not fall back to a default. Numbers and
switches are strict: ``"4000"`` (text), ``4000.0`` or ``true`` is not the integer ``4000``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from enum import StrEnum
from pathlib import Path
from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    ValidationError,
    field_validator,
)
from pydantic.alias_generators import to_camel

from userlore.errors import ConfigError

__all__ = [
    "MEMORY_SOURCES",
    "MemoryConfig",
    "MemoryMode",
    "PlannerConfig",
    "UnderstandingConfig",
    "UserContextConfig",
]


class MemoryMode(StrEnum):
    """Seed 000 ``memory.mode``: how (and whether) candidates become active."""

    OFF = "off"
    READ_ONLY = "readOnly"
    CONFIRM_WRITE = "confirmWrite"
    AUTO = "auto"


MEMORY_SOURCES = ("session", "curated", "connected")
"""Values allowed in ``memory.sources``: which producers may write."""


class _Options(BaseModel):
    model_config = ConfigDict(
        alias_generator=to_camel, populate_by_name=True, extra="forbid", frozen=True
    )


class MemoryConfig(_Options):
    """Memory mode and the sources that may feed understanding."""

    mode: MemoryMode = MemoryMode.CONFIRM_WRITE
    """``off`` writes and reads nothing; ``readOnly`` only reads; ``confirmWrite`` keeps new
    understanding as candidates until approved; ``auto`` activates policy-passing candidates."""
    sources: tuple[str, ...] = ("session", "curated")
    """Which producers may write: ``session`` (conversation turns), ``curated`` (tools and
    explicit remember calls), ``connected`` (connected knowledge sources). Anything else is a
    :class:`~userlore.errors.ConfigError`: a misspelt source would silently disable a producer."""

    @field_validator("sources")
    @classmethod
    def _known_sources(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        unknown = [s for s in value if s not in MEMORY_SOURCES]
        if unknown:
            raise ValueError(
                f"unknown sources {unknown}; allowed values are {', '.join(MEMORY_SOURCES)}"
            )
        return value


class UnderstandingConfig(_Options):
    """Background review (LLM synthesis) settings."""

    enabled: StrictBool = True
    """``False`` keeps deterministic explicit extraction only."""
    adaptive_cadence: StrictBool = True
    """Slow review down when the inbox is backlogged or acceptance/helpfulness is low."""
    review_interval_turns: StrictInt = Field(default=10, ge=1, le=10_000)
    """The fastest allowed review cadence, in user turns."""
    max_history_messages: StrictInt = Field(default=80, ge=1, le=10_000)
    """How many recent messages a review pass may read."""
    max_duration_ms: StrictInt = Field(default=120_000, ge=100, le=3_600_000)
    """Upper bound on one review pass."""


class PlannerConfig(_Options):
    """Context planner settings."""

    budget_chars: StrictInt = Field(default=6_000, ge=200, le=200_000)
    """Hard character budget of the rendered ``<user-context>`` block, fence included."""
    retrieval_k: StrictInt = Field(default=40, ge=1, le=1_000)
    """How many full-text hits to consider before policy filtering."""
    max_record_chars: StrictInt = Field(default=600, ge=40, le=10_000)
    """Longest content rendered for a single record; longer content is truncated."""
    freshness_half_life_days: StrictFloat = Field(default=30.0, gt=0, le=36_500)
    """Half-life of the freshness term in the rerank score."""
    episodic_snippets: StrictInt = Field(default=3, ge=0, le=50)
    """Most episodic snippets (what the user said, stored as evidence) in a plan; 0: none."""
    episodic_chars: StrictInt = Field(default=600, ge=0, le=100_000)
    """Character budget of the episodic section, heading included, within ``budget_chars``."""
    episodic_overflow: StrictInt = Field(default=10, ge=0, le=100)
    """More snippets past ``episodic_snippets``; above 0, snippets compete with records for the
    whole budget in one ranking (no section share); 0 keeps the section to its own count and
    ``episodic_chars``."""
    quote_uncovered_languages: bool = False
    """Quote raw text in languages the quote gate cannot read (default: withheld). A risk: in
    those languages a secret, the user's money or a health statement may reach the model
    (``docs/safety.md``, The quote gate)."""

    embeddings: str | None = None
    """``"local"`` (the bundled MiniLM, ``userlore[local]``), ``"provider:model"`` (LangChain
    ``init_embeddings``) or ``None``/``"none"`` for BM25 only. Turns on hybrid ranking."""

    @field_validator("embeddings")
    @classmethod
    def _embeddings_spec(cls, value: str | None) -> str | None:
        if value is None or value in ("none", "local"):
            return value
        provider, sep, model = value.partition(":")
        if not sep or not provider.strip() or not model.strip():
            raise ValueError(f"must be 'local', 'none' or 'provider:model', got {value!r}")
        return value


class UserContextConfig(_Options):
    """Top-level ``userContext`` options."""

    memory: MemoryConfig = MemoryConfig()
    understanding: UnderstandingConfig = UnderstandingConfig()
    planner: PlannerConfig = PlannerConfig()
    max_content_chars: StrictInt = Field(default=4_000, ge=16, le=1_000_000)
    """Longest content accepted by a write; longer input is refused, not truncated."""

    @property
    def review_enabled(self) -> bool:
        """Whether background review runs: on for confirmWrite/auto unless disabled."""
        return self.understanding.enabled and self.memory.mode in (
            MemoryMode.CONFIRM_WRITE,
            MemoryMode.AUTO,
        )

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> UserContextConfig:
        """Load from a mapping, accepting either ``{"userContext": {...}}`` or the inner dict."""
        if not isinstance(data, Mapping):
            raise ConfigError(f"config must be a JSON object, got {type(data).__name__}")
        data = dict(data)
        if "userContext" in data:
            if set(data) != {"userContext"}:
                extra = sorted(set(data) - {"userContext"})
                raise ConfigError(f"unknown top-level config keys: {extra}")
            data = data["userContext"]
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            raise ConfigError(_describe(exc)) from None

    @classmethod
    def from_json(cls, path: str | Path) -> UserContextConfig:
        """Load from a JSON file."""
        if not isinstance(path, (str, Path)):
            raise ConfigError(
                "config must be a UserContextConfig, a mapping or a JSON file path, "
                f"not {type(path).__name__}"
            )
        try:
            raw = json.loads(Path(path).read_text(encoding="utf-8"))
        except OSError as exc:
            raise ConfigError(f"cannot read config file {path!r}: {exc.strerror}") from None
        except json.JSONDecodeError as exc:
            raise ConfigError(f"config file {path!r} is not valid JSON: {exc}") from None
        except ValueError as exc:  # NUL in the path, undecodable bytes, unencodable characters
            raise ConfigError(f"cannot read config file {path!r}: {exc}") from None
        return cls.from_dict(raw)


_TYPE_ERRORS = frozenset({"int_type", "float_type", "bool_type", "string_type"})


def _describe(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors():
        loc = ".".join(str(p) for p in err["loc"]) or "<root>"
        got = ""
        if err["type"] in _TYPE_ERRORS:  # say what was given: "4000" (text) is not 4000
            got = f", got {type(err['input']).__name__} {err['input']!r:.40}"
        parts.append(f"{loc}: {err['msg']}{got}")
    return "invalid userContext config: " + "; ".join(parts)
