"""A real ``userlore serve`` under hostile traffic (issue 25), every loop bounded.

- memory: an anonymous body costs no more than an authenticated rejection of a small body, and
  an authenticated import of a hostile 10 MiB body stays within a bound (peak RSS, ``VmHWM``);
- encodings: UTF-16 and UTF-32 bodies get exactly the answers of the same body in UTF-8;
- time: slow bodies are answered ``408`` and closed within their deadline;
- concurrency: connections above ``--limit-concurrency`` are answered ``503``.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.integration.test_real_servers import free_port, spawn, stop, wait_until_up
from userlore import Userlore

TOKEN = "hostile-traffic-token-0000"
IMPORT = "/api/user-context/import"
MEMORIES = "/api/user-context/memories"
MiB = 1024 * 1024


class Gateway:
    """One running ``userlore serve`` and what a test needs to talk to it."""

    def __init__(self, pid: int, port: int) -> None:
        self.pid = pid
        self.port = port
        self.base = f"http://127.0.0.1:{port}"

    def peak_rss_kib(self) -> int:
        """The server process's peak resident memory so far (``VmHWM``, KiB)."""
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
        raise AssertionError("no VmHWM in /proc status")

    def raw(self, method: str, path: str, headers: dict[str, str], length: int) -> socket.socket:
        """A socket that has sent a request's headers (announcing ``length`` body bytes)."""
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=30)
        lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", f"Content-Length: {length}"]
        lines += [f"{k}: {v}" for k, v in headers.items()]
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        return sock


def serve(tmp_path: Path, *options: str) -> Iterator[Gateway]:
    db_url = f"sqlite:///{tmp_path / 'hostile.db'}"
    Userlore.open(db_url).close()
    tokens = tmp_path / "tokens.json"
    tokens.write_text(json.dumps({TOKEN: "hostile"}))
    port = free_port()
    proc = spawn(
        ["serve", "--db", db_url, "--mode", "auto", "--tokens", str(tokens), "--port", str(port),
         *options],
        tmp_path,
    )  # fmt: skip
    gateway = Gateway(proc.pid, port)
    try:
        wait_until_up(proc, f"{gateway.base}/api/health")
        yield gateway
    finally:
        stop(proc)


@pytest.fixture
def gateway(tmp_path: Path) -> Iterator[Gateway]:
    """A server of the test's own: the memory tests read its peak RSS, which only grows."""
    yield from serve(tmp_path)


@pytest.fixture(scope="module")
def shared_gateway(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Gateway]:
    """One server for the tests that only read answers (a start costs seconds of CPU)."""
    yield from serve(tmp_path_factory.mktemp("hostile"))


AUTH = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}


def status_line(sock: socket.socket) -> int:
    """The status of the response on ``sock`` (0 if the server closed without one)."""
    data = b""
    try:
        while b"\r\n" not in data:
            chunk = sock.recv(4096)
            if not chunk:
                break
            data += chunk
    except (ConnectionResetError, TimeoutError):
        pass
    return int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/1.1 ") else 0


def send_body(sock: socket.socket, body: bytes) -> None:
    """Send ``body`` until the server stops taking it (it may answer and close first)."""
    try:
        for start in range(0, len(body), 256 * 1024):
            sock.sendall(body[start : start + 256 * 1024])
    except OSError:
        pass


def post_all_at_once(gateway: Gateway, bodies: list[tuple[dict[str, str], bytes]]) -> list[int]:
    """Post every body concurrently on raw sockets; the statuses, in order."""
    statuses = [0] * len(bodies)
    socks = [gateway.raw("POST", IMPORT, headers, len(body)) for headers, body in bodies]
    senders = [
        threading.Thread(target=send_body, args=(sock, body))
        for sock, (_, body) in zip(socks, bodies, strict=True)
    ]
    for sender in senders:
        sender.start()
    for n, sock in enumerate(socks):
        statuses[n] = status_line(sock)
    for sender in senders:
        sender.join(timeout=30)
    for sock in socks:
        sock.close()
    return statuses


# -- memory ---------------------------------------------------------------------------------------

EMPTY_LISTS = b"[" + b"[]," * (10 * MiB // 3 - 2) + b"[]]"  # 3.5 million lists when parsed


def test_an_anonymous_body_costs_no_more_than_a_small_authenticated_rejection(
    gateway: Gateway,
) -> None:
    assert len(EMPTY_LISTS) <= 10 * MiB
    with httpx.Client(base_url=gateway.base, timeout=30) as client:
        for _ in range(3):  # warm every code path of an authenticated rejection
            assert client.post(IMPORT, headers=AUTH, content=b"[]").status_code == 422
    baseline = gateway.peak_rss_kib()
    anonymous = {"Content-Type": "application/json"}
    wrong = {"Content-Type": "application/json", "Authorization": "Bearer not-a-token-000000"}
    for _ in range(2):  # four at once peaked at 1,249 MiB before the fix
        statuses = post_all_at_once(gateway, [(anonymous, EMPTY_LISTS), (wrong, EMPTY_LISTS)] * 2)
        assert set(statuses) <= {401, 0} and 401 in statuses, statuses
    grown = gateway.peak_rss_kib() - baseline
    assert grown <= 2 * 1024, f"anonymous bodies grew the peak by {grown} KiB"


def test_an_authenticated_hostile_import_is_refused_within_a_memory_bound(
    gateway: Gateway,
) -> None:
    with httpx.Client(base_url=gateway.base, timeout=60) as client:
        assert client.post(IMPORT, headers=AUTH, content=b"[]").status_code == 422
        baseline = gateway.peak_rss_kib()
        response = client.post(IMPORT, headers=AUTH, content=EMPTY_LISTS)
        assert response.status_code == 413, response.text
        assert "JSON values" in response.json()["error"]["message"]
    grown = gateway.peak_rss_kib() - baseline
    # the body (10 MiB) buffered once and scanned once, never parsed: before the value bound a
    # parse of it cost ~260 MiB
    assert grown <= 48 * 1024, f"one hostile import grew the peak by {grown} KiB"


# -- encodings ------------------------------------------------------------------------------------

ENCODINGS = ["utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le"]
BODIES = {
    "valid": (
        '{"content": "Standup is at 9:30 in Zürich 会议.", "path": "team", '
        '"memoryType": "semantic"}'
    ),
    "deep": '{"content": "x", "path": "team", "extra": ' + "[" * 800 + "]" * 800 + "}",
    "nul": '{"content": "before\\u0000after", "path": "team"}',
    "lone surrogate": '{"content": "half \\ud800 pair", "path": "team"}',
    "not an object": '["a list"]',
    "no value": "   ",
}


def answer(response: httpx.Response) -> tuple[int, str | None]:
    body = response.json() if response.content else {}
    return response.status_code, body.get("error", {}).get("code")


@pytest.mark.parametrize("name", sorted(BODIES))
def test_every_json_encoding_gets_the_answer_of_utf8(shared_gateway: Gateway, name: str) -> None:
    text = BODIES[name]
    with httpx.Client(base_url=shared_gateway.base, timeout=30) as client:
        answers = {
            encoding: answer(client.post(MEMORIES, headers=AUTH, content=text.encode(encoding)))
            for encoding in ENCODINGS
        }
    expected = answers["utf-8"]
    assert {enc: got for enc, got in answers.items() if got != expected} == {}, expected
    assert expected[0] in {200, 201} if name == "valid" else expected[0] >= 400, expected
    if name == "deep":
        assert expected == (400, "too_deep")
    if name in {"nul", "lone surrogate"}:
        assert expected == (422, "invalid_text")


def test_a_body_broken_in_its_encoding_is_a_400(shared_gateway: Gateway) -> None:
    broken = '{"content": "x"}'.encode("utf-16-le") + b"\x00\xd8"  # a cut surrogate pair
    with httpx.Client(base_url=shared_gateway.base, timeout=30) as client:
        got = answer(client.post(MEMORIES, headers=AUTH, content=broken))
    assert got == (400, "bad_request")


# -- slow bodies and concurrency ------------------------------------------------------------------

SLOW = [
    # (serve options, seconds between bytes, bound on the seconds until 408)
    ((), 0.5, 5 + 2),  # default: a 5 s grace, then 1 KiB/s; one byte per 0.5 s falls below
    (("--body-timeout", "3", "--min-body-rate", "1"), 0.2, 3 + 2),  # fast enough, deadline ends it
]


@pytest.mark.parametrize(("options", "pause", "bound"), SLOW)
def test_slow_bodies_are_closed_within_their_deadline(
    tmp_path: Path, options: tuple[str, ...], pause: float, bound: float
) -> None:
    for gateway in serve(tmp_path, *options):
        socks = [gateway.raw("POST", MEMORIES, AUTH, 10_000) for _ in range(20)]
        started = time.monotonic()
        closed: dict[int, float] = {}
        while len(closed) < len(socks) and time.monotonic() - started < bound + 5:
            for n, sock in enumerate(socks):
                if n in closed:
                    continue
                try:
                    sock.sendall(b" ")
                except OSError:
                    closed[n] = time.monotonic() - started
            time.sleep(pause)
        statuses = [status_line(sock) for sock in socks]
        for sock in socks:
            sock.close()
        assert len(closed) == len(socks)
        assert max(closed.values()) <= bound, closed
        assert set(statuses) == {408}, statuses


def test_connections_above_the_limit_get_503(tmp_path: Path) -> None:
    for gateway in serve(tmp_path, "--limit-concurrency", "3"):
        idle = [socket.create_connection(("127.0.0.1", gateway.port)) for _ in range(3)]
        try:
            time.sleep(0.5)
            statuses = {httpx.get(f"{gateway.base}/api/health").status_code for _ in range(3)}
            assert statuses == {503}
        finally:
            for sock in idle:
                sock.close()
        time.sleep(0.5)
        assert httpx.get(f"{gateway.base}/api/health").status_code == 200
