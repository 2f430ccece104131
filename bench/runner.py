"""Start Spot and the floor on a prepared database, load both with wrk, print and save the table."""

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

import httpx
from sqlalchemy import event

from bench.wrk import Call, Figures, measure, with_version

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"
VENV_BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait(url: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"server exited early: {url}")
        try:
            httpx.get(url, timeout=1)
            return
        except httpx.HTTPError:
            time.sleep(0.2)
    raise SystemExit(f"server did not start: {url}")


@contextmanager
def serving(command: list[str | Path], env: dict[str, str]) -> Iterator[str]:
    """A Spot server started by `command` (which gets `--port N` appended), until the block ends."""
    port = free_port()
    process = subprocess.Popen(
        [*command, "--port", str(port)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    base = f"http://127.0.0.1:{port}"
    try:
        _wait(f"{base}/backend/api/v2/organization/info", process)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=20)


@contextmanager
def spot_server(database_url: str, data_dir: Path) -> Iterator[str]:
    env = {**os.environ, "SPOT_DATABASE_URL": database_url, "SPOT_DATA_DIR": str(data_dir)}
    with serving([VENV_BIN / "spot", "serve"], env) as base:
        yield base


@contextmanager
def floor_server(database_url: str, statements: list[tuple[str, object, bool]]) -> Iterator[str]:
    port = free_port()
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(statements, handle, default=str)
    env = {
        **os.environ,
        "FLOOR_DATABASE_URL": database_url,
        "FLOOR_STATEMENTS": handle.name,
        "PYTHONPATH": str(ROOT),
    }
    process = subprocess.Popen(
        [
            VENV_BIN / "uvicorn",
            "bench.floor:app",
            "--port",
            str(port),
            "--log-level",
            "warning",
            "--no-access-log",
        ],
        env=env,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        _wait(base + "/", process)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=20)
        Path(handle.name).unlink()


def capture_statements(
    app: object, engine: object, call: Call, headers: dict[str, str]
) -> list[tuple[str, object, bool]]:
    """The SQL Spot runs for one call, in order, as the driver received it, and whether Spot has it
    planned with its values on every run (spot.db.CUSTOM_PLAN)."""
    from fastapi.testclient import TestClient

    captured: list[tuple[str, object, bool]] = []

    from spot.db import CUSTOM_PLAN

    def listener(_conn, _cursor, statement, parameters, context, _executemany):
        captured.append((statement, parameters, bool(context.execution_options.get(CUSTOM_PLAN))))

    client = TestClient(app)  # type: ignore[arg-type]
    request_headers = {**headers, "content-type": "application/json"}

    def body() -> str:
        """The call's body; for a versioned write, with the current version (read before capturing)."""
        if not call.versioned:
            return call.body
        version = client.get(call.versioned[0][1], headers=headers).json()["version"]
        return with_version(call.body, version)

    def send(content: str) -> None:
        response = client.request(call.method, call.path, content=content or None, headers=request_headers)
        if response.status_code >= 400:
            raise SystemExit(f"{call.name}: {response.status_code} {response.text[:300]}")

    send(body())  # warm caches so that only the steady-state statements are captured
    content = body()
    event.listen(engine, "before_cursor_execute", listener)
    try:
        send(content)
    finally:
        event.remove(engine, "before_cursor_execute", listener)
    return captured


class ObjectStore:
    """An S3-protocol server (moto's, in a process of its own) and the settings that put Spot's files
    in a bucket of it: the object-store side of the A/B (docs/operations.md). `aside`: the server runs
    at the lowest CPU priority (nice 19), as a store on another host does not take Spot's cores; moto
    is Python and spends about a core receiving a large file."""

    def __init__(self, *, aside: bool = False) -> None:
        port = free_port()
        self.url = f"http://127.0.0.1:{port}"
        self.aside = aside
        self.process = subprocess.Popen(
            [
                *(["nice", "-n", "19"] if aside else []),
                VENV_BIN / "moto_server",
                "-H",
                "127.0.0.1",
                "-p",
                str(port),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                httpx.put(f"{self.url}/spot-bench", timeout=1).raise_for_status()  # the bucket
                break
            except httpx.HTTPError:
                if time.monotonic() > deadline:
                    self.process.kill()
                    raise SystemExit("moto_server did not start") from None
                time.sleep(0.2)
        self.env = {
            "SPOT_FILE_STORE": "s3://spot-bench/files",
            "SPOT_S3_ENDPOINT_URL": self.url,
            "SPOT_S3_REGION": "us-east-1",
            "AWS_ACCESS_KEY_ID": "bench",
            "AWS_SECRET_ACCESS_KEY": "bench-secret",
        }

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=20)


def table(title: str, rows: list[tuple[str, Figures, Figures, dict[str, float]]]) -> str:
    lines = [
        f"## {title}",
        "",
        "| call | Spot p50 ms | Spot p95 ms | Spot req/s @16 | floor p50 ms | floor p95 ms | floor req/s @16 "
        "| p50 / floor | budget p50 / p95 / req/s |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name, spot, floor, budget in rows:
        ratio = spot.p50_ms / floor.p50_ms if floor.p50_ms else float("nan")
        lines.append(
            f"| {name} | {spot.p50_ms:.2f} | {spot.p95_ms:.2f} | {spot.rps:.0f} | {floor.p50_ms:.2f} | "
            f"{floor.p95_ms:.2f} | {floor.rps:.0f} | {ratio:.1f}× | "
            f"≤ {budget['p50']:g} / ≤ {budget['p95']:g} / ≥ {budget['rps']:g} |"
        )
    return "\n".join(lines)


def save(name: str, text: str) -> Path:
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{name}.md"
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    path.write_text(f"<!-- {stamp}, {os.cpu_count()} cores -->\n{text}\n")
    return path


def run_calls(
    database_url: str,
    data_dir: Path,
    calls: list[tuple[Call, dict[str, float]]],
    login: tuple[str, str],
    seconds: int,
) -> list[tuple[str, Figures, Figures, dict[str, float]]]:
    os.environ["SPOT_DATABASE_URL"] = database_url
    os.environ["SPOT_DATA_DIR"] = str(data_dir)
    from spot import db as database
    from spot.config import get_settings
    from spot.main import create_app

    get_settings.cache_clear()
    database.get_engine.cache_clear()
    database.session_factory.cache_clear()
    app = create_app()
    rows = []
    with spot_server(database_url, data_dir) as spot_url:
        tokens: dict[tuple[str, str], dict[str, str]] = {}

        def headers_of(who: tuple[str, str]) -> dict[str, str]:
            if who not in tokens:
                token = httpx.post(
                    f"{spot_url}/backend/api/v2/account/login", json={"username": who[0], "password": who[1]}
                ).json()["token"]
                tokens[who] = {"x-access-token": token}
            return tokens[who]

        for call, budget in calls:
            headers = headers_of(call.login or login)
            statements = capture_statements(app, database.get_engine(), call, headers)
            spot_1 = measure(spot_url, call, headers, 1, seconds)
            spot_16 = measure(spot_url, call, headers, 16, seconds)
            with floor_server(database_url, statements) as floor_url:
                floor_1 = measure(floor_url, call, {}, 1, seconds)
                floor_16 = measure(floor_url, call, {}, 16, seconds)
            spot = Figures(spot_1.p50_ms, spot_1.p95_ms, spot_16.rps, spot_1.errors + spot_16.errors)
            floor = Figures(floor_1.p50_ms, floor_1.p95_ms, floor_16.rps, floor_1.errors + floor_16.errors)
            if spot.errors:
                print(f"warning: {call.name}: {spot.errors} failed requests", file=sys.stderr)
            rows.append((call.name, spot, floor, budget))
            print(
                f"  {call.name}: p50 {spot.p50_ms:.2f} ms (floor {floor.p50_ms:.2f}), "
                f"{spot.rps:.0f} req/s @16",
                flush=True,
            )
    return rows
