"""vcrpy setup for recorded provider tests: readable cassettes, no headers, replay by default.

Cassettes live in ``tests/cassettes/`` as YAML whose HTTP bodies are stored as parsed JSON
(``body: {json: ...}``) so a reviewer can read them, and with every header dropped, so no key,
organization id or cookie can be recorded. Tests replay them with ``record_mode="none"`` and a
fake key: an unmatched request fails instead of reaching the network.

``make record-cassettes`` (``USERLORE_RECORD_CASSETTES=1`` plus a real ``OPENAI_API_KEY``)
re-records them against the live API.
"""

from __future__ import annotations

import copy
import json
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import vcr
import yaml

CASSETTES = Path(__file__).resolve().parents[1] / "cassettes"
FAKE_OPENAI_KEY = "fake-openai-key-for-replay"


def recording() -> bool:
    """Re-record only when explicitly asked to and a real key is present."""
    return os.environ.get("USERLORE_RECORD_CASSETTES") == "1" and bool(
        os.environ.get("OPENAI_API_KEY")
    )


def _parsed(body: Any) -> Any:
    if isinstance(body, bytes):
        body = body.decode("utf-8")
    if not isinstance(body, str) or not body:
        return None
    try:
        return json.loads(body)
    except ValueError:
        return None


class ReadableJSONSerializer:
    """vcrpy serializer: YAML with JSON bodies parsed, headers emptied."""

    @staticmethod
    def serialize(cassette: dict[str, Any]) -> str:
        data = copy.deepcopy(cassette)
        for interaction in data["interactions"]:
            request, response = interaction["request"], interaction["response"]
            request["headers"] = {}
            response["headers"] = {}
            parsed = _parsed(request.get("body"))
            if parsed is not None:
                request["body"] = {"json": parsed}
            parsed = _parsed((response.get("body") or {}).get("string"))
            if parsed is not None:
                response["body"] = {"json": parsed}
        stamp = datetime.now(UTC).date().isoformat()
        header = (
            f"# Recorded by `make record-cassettes` on {stamp}; headers dropped, bodies parsed.\n"
        )
        return header + yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)

    @staticmethod
    def deserialize(text: str) -> dict[str, Any]:
        data: dict[str, Any] = yaml.safe_load(text)
        for interaction in data["interactions"]:
            request, response = interaction["request"], interaction["response"]
            body = request.get("body")
            if isinstance(body, dict) and "json" in body:
                request["body"] = json.dumps(body["json"])
            rbody = response.get("body")
            if isinstance(rbody, dict) and "json" in rbody:
                response["body"] = {"string": json.dumps(rbody["json"])}
            request.setdefault("headers", {})
            response.setdefault("headers", {})
        return data


def _strip_request(request: Any) -> Any:
    request.headers = {}
    return request


def _strip_response(response: dict[str, Any]) -> dict[str, Any]:
    response["headers"] = {}
    return response


def provider_vcr() -> vcr.VCR:
    """A VCR that replays (or, when recording, records) readable, header-free cassettes."""
    recorder = vcr.VCR(
        cassette_library_dir=str(CASSETTES),
        record_mode="all" if recording() else "none",
        match_on=("method", "scheme", "host", "port", "path"),
        decode_compressed_response=True,
        before_record_request=_strip_request,
        before_record_response=_strip_response,
    )
    recorder.register_serializer("readable_json", ReadableJSONSerializer())
    recorder.serializer = "readable_json"
    return recorder


def openai_key() -> str:
    return os.environ["OPENAI_API_KEY"] if recording() else FAKE_OPENAI_KEY


def capturing_client(sent: list[str]) -> httpx.Client:
    """An httpx client that appends every request body it sends to ``sent``."""

    def hook(request: httpx.Request) -> None:
        sent.append(request.content.decode("utf-8"))

    return httpx.Client(event_hooks={"request": [hook]})
