"""Real servers on 127.0.0.1: ``userlore serve`` (uvicorn) and ``userlore mcp`` over HTTP."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from mcp import Client

from tests.walkthrough import AGENT_A, AGENT_B, SCOPE, http_surface, normalized, walk
from userlore import Userlore

TOKEN_A = "real-server-token-a-0000"
TOKEN_B = "real-server-token-b-0000"
TOKEN_X = "real-server-token-x-0000"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def spawn(args: list[str], home: Path) -> subprocess.Popen[bytes]:
    env = dict(os.environ, HOME=str(home), XDG_DATA_HOME=str(home / "data"))
    # Logs go to a file: an unread pipe would block the server once full.
    with (home / f"server-{args[0]}.log").open("wb") as log:
        return subprocess.Popen(
            [sys.executable, "-m", "userlore.cli", *args], env=env, stdout=log, stderr=log
        )


def wait_until_up(proc: subprocess.Popen[bytes], url: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"server exited with {proc.returncode}")
        try:
            httpx.get(url, timeout=1.0)
            return
        except httpx.HTTPError:
            time.sleep(0.2)
    raise AssertionError(f"server did not come up at {url}")


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=5)


@pytest.fixture
def gateway(tmp_path: Path) -> Iterator[str]:
    db_url = f"sqlite:///{tmp_path / 'gateway.db'}"
    Userlore.open(db_url).close()
    grants = {
        TOKEN_A: {"scope": SCOPE, **{"agentId": AGENT_A["agent_id"]},
                  **{k: AGENT_A[k] for k in ("client", "device", "instance")}},
        TOKEN_B: {"scope": SCOPE, **{"agentId": AGENT_B["agent_id"]},
                  **{k: AGENT_B[k] for k in ("client", "device", "instance")}},
        TOKEN_X: {"scope": "other-team", "agentId": "intruder"},
    }  # fmt: skip
    tokens = tmp_path / "tokens.json"
    tokens.write_text(json.dumps({"tokens": grants}))
    port = free_port()
    proc = spawn(
        ["serve", "--db", db_url, "--mode", "auto", "--tokens", str(tokens), "--port", str(port)],
        tmp_path,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(proc, f"{base}/api/health")
        yield base
    finally:
        stop(proc)


async def test_walkthrough_against_a_real_uvicorn_gateway(gateway: str) -> None:
    with httpx.Client(base_url=gateway, timeout=30) as client:
        steps = await walk(http_surface(client, {"A": TOKEN_A, "B": TOKEN_B}))
        assert normalized(steps)[0][1]["author"] == AGENT_A
        spec = client.get("/openapi.json").json()
        assert "/api/knowledge/source-changes" in spec["paths"]
        # cross-scope over the wire
        mine = client.post(
            "/api/user-context/memories",
            headers={"Authorization": f"Bearer {TOKEN_A}"},
            json={"content": "Alpha VPN is WireGuard.", "path": "infra", "memoryType": "semantic"},
        ).json()
        other = {"Authorization": f"Bearer {TOKEN_X}"}
        assert (
            client.get(f"/api/user-context/memories/{mine['id']}", headers=other).status_code == 404
        )
        assert (
            client.delete(f"/api/user-context/memories/{mine['id']}", headers=other).status_code
            == 404
        )
        exported = client.get("/api/user-context/export", headers=other).json()
        assert exported["counts"]["records"] == 0 and "WireGuard" not in json.dumps(exported)
        assert client.get("/api/user-context/memories").status_code == 401


async def test_mcp_over_streamable_http_with_a_token(tmp_path: Path) -> None:
    import httpx2
    from mcp.client.streamable_http import streamable_http_client

    db_url = f"sqlite:///{tmp_path / 'mcp.db'}"
    Userlore.open(db_url).close()
    port = free_port()
    token = "mcp-http-token-0000000000"
    proc = spawn(
        ["mcp", "--db", db_url, "--mode", "auto", "--scope", SCOPE, "--agent-id", "web-agent",
         "--transport", "streamable-http", "--port", str(port), "--token", token],
        tmp_path,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        wait_until_up(proc, url)
        assert httpx.post(url, json={}).status_code == 401
        headers = {"Authorization": f"Bearer {token}"}
        async with httpx2.AsyncClient(headers=headers, timeout=30) as http:
            transport = streamable_http_client(url, http_client=http)
            async with Client(transport) as client:
                made = await client.call_tool(
                    "remember",
                    {"content": "Sync is in Orion.", "path": "team", "memory_type": "semantic"},
                )
                assert not made.is_error and made.structured_content is not None
                assert made.structured_content["author"]["agent_id"] == "web-agent"
                found = await client.call_tool("recall", {"query": "sync"})
                assert found.structured_content is not None
                assert found.structured_content["citations"] == [
                    made.structured_content["citation"]
                ]
    finally:
        stop(proc)


def _raw_exchange(base: str, head: bytes, body_parts: list[bytes]) -> tuple[bytes, float]:
    """Send a request head and some body bytes, then read the answer without sending the rest."""
    host, port = base.removeprefix("http://").split(":")
    started = time.monotonic()
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        try:
            sock.sendall(head)
            for part in body_parts:
                sock.sendall(part)
        except (BrokenPipeError, ConnectionResetError):
            # The server answered and closed before the body was sent: the refusal this
            # helper exists to read is already in the socket's receive buffer.
            pass
        answer = b""
        while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
            try:
                data = sock.recv(65536)
            except ConnectionResetError:  # a reset after the answer: what was read is checked
                break
            if not data:
                break
            answer += data
    return answer, time.monotonic() - started


def test_real_gateway_refuses_big_bodies_before_auth_and_never_logs_tokens(
    tmp_path: Path,
) -> None:
    db_url = f"sqlite:///{tmp_path / 'edge.db'}"
    Userlore.open(db_url).close()
    tokens = tmp_path / "tokens.json"
    tokens.write_text(json.dumps({"tokens": {TOKEN_A: SCOPE}}))
    port = free_port()
    proc = spawn(
        ["serve", "--db", db_url, "--tokens", str(tokens), "--port", str(port),
         "--max-body-bytes", "200000", "--max-api-body-bytes", "50000"],
        tmp_path,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(proc, f"{base}/api/health")
        # 30 MB declared, 1 KB sent, no token: refused at once, the rest never read
        head = (
            b"POST /api/user-context/import HTTP/1.1\r\nHost: x\r\n"
            b"Content-Type: application/json\r\nContent-Length: 30000000\r\n\r\n"
        )
        answer, took = _raw_exchange(base, head, [b"[" * 1024])
        assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
        assert b'"payload_too_large"' in answer and took < 5
        # chunked, no length: without a token refused before a byte is read; with one, cut
        # off just past the limit while the stream is still open
        head = (
            b"POST /api/user-context/memories HTTP/1.1\r\nHost: x\r\n"
            b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
        )
        chunk = b"x" * 10_000
        parts = [b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(6)]  # 60 000 > 50 000
        answer, took = _raw_exchange(base, head, parts)
        assert answer.startswith(b"HTTP/1.1 401"), answer[:200]
        authorized = head.replace(
            b"\r\n\r\n", b"\r\nAuthorization: Bearer %s\r\n\r\n" % TOKEN_A.encode()
        )
        answer, took = _raw_exchange(base, authorized, parts)
        assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
        assert b"50000 bytes" in answer and took < 5
        # deep nesting over the wire: a typed 400
        deep = httpx.post(
            f"{base}/api/user-context/import",
            headers={"Authorization": f"Bearer {TOKEN_A}", "Content-Type": "application/json"},
            content=b'{"records": ' + b"[" * 800 + b"]" * 800 + b"}",
        )
        assert deep.status_code == 400 and deep.json()["error"]["code"] == "too_deep"
        # the documented sign-in link: token leaves the URL and never reaches the access log
        signin = httpx.get(f"{base}/?token={TOKEN_A}", follow_redirects=False)
        assert signin.status_code == 303 and signin.headers["location"] == "/"
        assert httpx.get(f"{base}/api/health?token={TOKEN_A}").status_code == 200
    finally:
        stop(proc)
    log = (tmp_path / "server-serve.log").read_text()
    assert "GET /?token=[redacted] HTTP/1.1" in log and " 303" in log
    assert TOKEN_A not in log
