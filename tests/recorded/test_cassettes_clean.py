"""Cassettes are reviewable and carry nothing key-like: this test fails if one ever does."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.recorded.cassettes import CASSETTES, ReadableJSONSerializer

KEY_LIKE = {
    "openai-style key": re.compile(r"\bsk-[A-Za-z0-9_-]{8,}"),
    "bearer token": re.compile(r"\bBearer\s+[A-Za-z0-9._~+/=-]{8,}", re.IGNORECASE),
    "AWS access key": re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"),
    "GitHub token": re.compile(r"\bgh[pousr]_[A-Za-z0-9]{20,}"),
    "Slack token": re.compile(r"\bxox[abprs]-[A-Za-z0-9-]{10,}"),
    "Google API key": re.compile(r"\bAIza[0-9A-Za-z_-]{30,}"),
    "Anthropic key": re.compile(r"\bsk-ant-[A-Za-z0-9_-]{8,}"),
    "private key": re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----"),
    "credential header": re.compile(
        r"\b(?:authorization|x-api-key|api-key|openai-organization|openai-project|"
        r"set-cookie|cookie)\s*:",
        re.IGNORECASE,
    ),
}
CASSETTE_FILES = sorted(p for p in CASSETTES.iterdir() if p.is_file())


def key_like(text: str) -> list[str]:
    return [name for name, pattern in KEY_LIKE.items() if pattern.search(text)]


def test_there_are_cassettes() -> None:
    assert CASSETTE_FILES


@pytest.mark.parametrize("path", CASSETTE_FILES, ids=lambda p: p.name)
def test_cassette_has_nothing_key_like(path: Path) -> None:
    raw = path.read_bytes()
    assert not raw.startswith(b"\x1f\x8b"), "gzipped cassettes cannot be reviewed"
    text = raw.decode("utf-8")  # fails on binary content
    assert "!!binary" not in text, "bodies must be readable text, not YAML binary blobs"
    assert key_like(text) == [], f"{path.name} contains something key-like"


@pytest.mark.parametrize("path", CASSETTE_FILES, ids=lambda p: p.name)
def test_cassette_is_labelled_and_headerless(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    first = text.splitlines()[0]
    assert first.startswith(("# HAND-WRITTEN cassette", "# Recorded by `make record-cassettes`"))
    data = ReadableJSONSerializer.deserialize(text)
    assert data["interactions"]
    for interaction in data["interactions"]:
        assert interaction["request"]["headers"] == {}
        assert interaction["response"]["headers"] == {}


@pytest.mark.parametrize(
    "sample",
    [
        "Authorization: Bearer abcdefghijklmnop",
        '"api_key": "sk-proj-abcdefghijklmnopqrstuv"',
        "aws AKIAIOSFODNN7EXAMPLE",
        "token ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",
        "openai-organization: org-123",
    ],
)
def test_the_scanner_catches_key_like_text(sample: str) -> None:
    assert key_like(sample)


def test_serializer_round_trips_bodies_as_json() -> None:
    cassette = {
        "version": 1,
        "interactions": [
            {
                "request": {
                    "method": "POST",
                    "uri": "https://api.example.com/v1/x",
                    "body": '{"a": 1}',
                    "headers": {"authorization": ["Bearer secret-value-1234"]},
                },
                "response": {
                    "status": {"code": 200, "message": "OK"},
                    "headers": {"set-cookie": ["session=1"]},
                    "body": {"string": '{"ok": true}'},
                },
            }
        ],
    }
    text = ReadableJSONSerializer.serialize(cassette)
    assert "secret-value" not in text and "session=1" not in text
    assert "json:" in text and key_like(text) == []
    back = ReadableJSONSerializer.deserialize(text)["interactions"][0]
    assert back["request"]["body"] == '{"a": 1}'
    assert back["response"]["body"] == {"string": '{"ok": true}'}
