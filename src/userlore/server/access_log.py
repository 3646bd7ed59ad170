"""Access logs without secrets: every query-string value is redacted before a line is written.

The About You page accepts a sign-in link ``/?token=…``; a query string can also carry path
prefixes and session keys, which are the user's data. Uvicorn's access log writes the full
request target, so the gateway puts :class:`RedactQueryStrings` on the ``uvicorn.access`` logger
(``userlore serve`` and any server that runs :func:`~userlore.server.create_app`): parameter
names stay for debugging, values become ``[redacted]``.
"""

from __future__ import annotations

import copy
import logging
import re
from typing import Any

__all__ = [
    "ACCESS_LOGGER",
    "REDACTED",
    "RedactQueryStrings",
    "access_log_config",
    "install_access_log_redaction",
]

ACCESS_LOGGER = "uvicorn.access"
REDACTED = "[redacted]"
_QUERY_VALUE = re.compile(r"([?&;][^=&;#\s\"]*)=[^&;#\s\"]*")


def _redact(text: str) -> str:
    if "?" not in text:
        return text
    return _QUERY_VALUE.sub(rf"\1={REDACTED}", text)


class RedactQueryStrings(logging.Filter):
    """Replace query-string values in a log record's message and arguments."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = _redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_redact(a) if isinstance(a, str) else a for a in record.args)
        return True


def install_access_log_redaction(logger_name: str = ACCESS_LOGGER) -> None:
    """Put the redacting filter on ``logger_name`` once (idempotent)."""
    logger = logging.getLogger(logger_name)
    if not any(isinstance(f, RedactQueryStrings) for f in logger.filters):
        logger.addFilter(RedactQueryStrings())


def access_log_config() -> dict[str, Any]:
    """Uvicorn's default logging configuration with the redacting filter on the access log."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config.setdefault("filters", {})["userlore_redact_query"] = {"()": RedactQueryStrings}
    config["handlers"]["access"].setdefault("filters", []).append("userlore_redact_query")
    return config
