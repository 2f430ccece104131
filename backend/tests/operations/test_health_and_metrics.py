"""Health for load balancers (`/health/live`, `/health/ready`) and Prometheus metrics (`/metrics`):
unauthenticated, cheap, and the metrics only from the addresses SPOT_METRICS_ALLOW lists."""

import json
import os
import re
import subprocess
import sys
import time
from datetime import datetime, timedelta
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError
from sqlalchemy import create_engine, text

from mail_server import free_port
from spot.config import Settings
from spot.notifications import outbox
from spot.notifications.outbox import Content
from spot.operations import service
from support import API, assert_error

SPOT = str(Path(sys.executable).parent / "spot")
LOOPBACK = ("127.0.0.1", 50000)
LIVE, READY = f"{API}/health/live", f"{API}/health/ready"
REQUESTS = "spot_http_requests_total"


def _readiness(**failed: str) -> dict[str, str]:
    checks = {"database": "ok", "migrations": "ok", "fileStore": "ok", **failed}
    return {"status": "notReady" if failed else "ready", **checks}


def _value(page: str, name: str, **labels: str) -> float:
    """A sample's value on a metrics page; 0 when it is not there yet."""
    wanted = ",".join(f'{key}="{value}"' for key, value in labels.items())
    for line in page.splitlines():
        if line.startswith(f"{name}{{{wanted}}} ") or (not labels and line.startswith(f"{name} ")):
            return float(line.rsplit(" ", 1)[1])
    return 0.0


def _wait_until_answering(base: str, server: subprocess.Popen) -> None:
    deadline = time.monotonic() + 300
    while True:
        try:
            if httpx.get(f"{base}{API}/organization/info", timeout=5).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        assert server.poll() is None and time.monotonic() < deadline, "spot serve did not start"
        time.sleep(0.2)


@pytest.fixture
def free_port_number() -> int:
    return free_port()


def _metrics(app, client_address=LOOPBACK) -> str:
    answer = TestClient(app, client=client_address).get("/metrics")
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/plain; version=")
    return answer.text


def test_live_answers_without_a_session(client):
    answer = client.get(LIVE)
    assert answer.status_code == 200
    assert answer.json() == {"status": "live"}


def test_ready_when_the_database_its_migrations_and_the_file_store_answer(client):
    answer = client.get(READY)
    assert answer.status_code == 200
    assert answer.json() == _readiness()


def _readiness_at(client, db, version: str):
    [current] = db.execute(text("SELECT version_num FROM alembic_version")).scalars()
    db.execute(text("UPDATE alembic_version SET version_num = :v"), {"v": version})
    db.commit()
    try:
        return client.get(READY)
    finally:
        db.execute(text("UPDATE alembic_version SET version_num = :v"), {"v": current})
        db.commit()


def test_not_ready_when_the_migrations_are_behind_the_code(client, db):
    from alembic.script import ScriptDirectory

    from spot.db import alembic_config

    script = ScriptDirectory.from_config(alembic_config())
    [head] = script.get_heads()
    older = script.get_revision(head).down_revision
    answer = _readiness_at(client, db, older)
    assert answer.status_code == 503
    assert answer.json() == _readiness(migrations="behind")


def test_ready_when_a_newer_release_migrated_the_database(client, db):
    """A rolling upgrade: the next release's migrations ran; the servers of this one go on serving
    until each is replaced."""
    answer = _readiness_at(client, db, "f00d_a_newer_release")
    assert answer.status_code == 200
    assert answer.json() == {**_readiness(), "migrations": "ahead"}


def test_not_ready_when_the_file_store_cannot_take_files(client, settings_env, tmp_path):
    (tmp_path / "files").write_text("a file where the store's folder should be")
    settings_env(SPOT_DATA_DIR=str(tmp_path))
    answer = client.get(READY)
    assert answer.status_code == 503
    assert answer.json() == _readiness(fileStore="unwritable")


def test_not_ready_when_the_database_does_not_answer(client, monkeypatch, free_port_number):
    # A PostgreSQL server that is not there, on either database of the suite. The app's own engine is
    # left as it is: the other tests of the process keep using it.
    absent = create_engine(f"postgresql+psycopg://spot@127.0.0.1:{free_port_number}/spot")
    monkeypatch.setattr(service, "get_engine", lambda: absent)
    answer = client.get(READY)
    absent.dispose()
    assert answer.status_code == 503
    assert answer.json() == _readiness(database="unreachable", migrations="unreachable")


def test_requests_are_counted_by_route_template_and_status(app, client, make_user, login):
    before = _metrics(app)
    user = make_user(permissions=[])
    for _ in range(3):
        assert client.get(LIVE).status_code == 200
    assert client.get(f"{API}/user/byId/{user.id}", headers=login(user)).status_code == 200
    assert client.get(f"{API}/no/such/address/12345").status_code == 404
    after = _metrics(app)

    def grew(name: str, **labels: str) -> float:
        return _value(after, name, **labels) - _value(before, name, **labels)

    assert grew(REQUESTS, method="GET", route=LIVE, status="200") == 3
    assert grew("spot_http_request_duration_seconds_count", method="GET", route=LIVE) == 3
    # The route's template, never the address asked: no id, no unknown path becomes a label.
    assert grew(REQUESTS, method="GET", route=f"{API}/user/byId/{{userId}}", status="200") == 1
    assert grew(REQUESTS, method="GET", route="unmatched", status="404") == 1
    routes = set(re.findall(r'route="([^"]*)"', after))
    assert not any(str(user.id) in route or "such" in route for route in routes)


def test_the_outbox_size_by_status(app, db, make_user):
    person = make_user(email="lecteur@usine.example")
    for n in range(2):
        outbox.queue(db, user=person, kind="test", content=Content(f"Sujet {n}", "Texte", "<p>Texte</p>"))
    db.commit()
    page = _metrics(app)
    assert _value(page, "spot_outbox_messages", status="queued") == 2
    assert _value(page, "spot_outbox_messages", status="failed") == 0


def test_metrics_only_from_the_allowed_addresses(app, settings_env):
    # The test client's own address is no IP address: refused.
    assert_error(TestClient(app).get("/metrics"), 403, "metricsNotAllowed")
    settings_env(SPOT_METRICS_ALLOW="10.0.0.0/8, 192.168.1.7")
    assert_error(TestClient(app, client=LOOPBACK).get("/metrics"), 403, "metricsNotAllowed")
    # What the client writes of its address is not its address.
    forwarded = TestClient(app, client=("203.0.113.9", 4000)).get(
        "/metrics", headers={"X-Forwarded-For": "10.1.2.3", "X-Real-IP": "10.1.2.3"}
    )
    assert_error(forwarded, 403, "metricsNotAllowed")
    assert TestClient(app, client=("10.1.2.3", 4000)).get("/metrics").status_code == 200
    assert TestClient(app, client=("192.168.1.7", 4000)).get("/metrics").status_code == 200
    assert TestClient(app, client=("::ffff:10.1.2.3", 4000)).get("/metrics").status_code == 200


def test_a_list_of_addresses_that_cannot_be_read_stops_spot():
    with pytest.raises(ValidationError):
        Settings(metrics_allow="10.0.0.0/8, partout")
    assert Settings(metrics_allow="").metrics_networks == ()


def test_a_server_of_several_processes_counts_every_process_s_requests():
    """`spot serve --workers 2`: whichever process answers the scrape, it counts the requests both
    answered."""
    port = free_port()
    server = subprocess.Popen(
        [SPOT, "serve", "--port", str(port), "--workers", "2"],
        env=os.environ.copy(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_until_answering(base, server)
        for _ in range(40):
            # A connection each: the requests are spread over the processes.
            assert httpx.get(f"{base}{LIVE}", timeout=30).status_code == 200
        for _ in range(6):
            page = httpx.get(f"{base}/metrics", timeout=30).text
            assert _value(page, REQUESTS, method="GET", route=LIVE, status="200") == 40
    finally:
        server.terminate()
        server.wait(timeout=60)


def test_every_answer_carries_its_request_id(client):
    made = client.get(LIVE).headers["x-request-id"]
    assert re.fullmatch(r"[0-9a-f]{32}", made)
    assert client.get(LIVE).headers["x-request-id"] != made
    # One a proxy sent is kept when it is plain; anything else is replaced.
    assert client.get(LIVE, headers={"X-Request-Id": "lb-7f3a:42"}).headers["x-request-id"] == "lb-7f3a:42"
    for unsafe in ("x" * 65, "un espace", "a\tb", "é"):
        answered = client.get(LIVE, headers={"X-Request-Id": unsafe.encode()})
        assert re.fullmatch(r"[0-9a-f]{32}", answered.headers["x-request-id"]), unsafe


def test_a_log_format_spot_does_not_know_stops_it():
    with pytest.raises(ValidationError):
        Settings(log_format="yaml")


def test_json_logs_carry_the_request_id_on_every_line_written_for_it(tmp_path):
    """`SPOT_LOG_FORMAT=json`: every line is a JSON object, uvicorn's too; a request gets its line, and
    what was logged while serving it (here readiness's warning about the file store) its id."""
    (tmp_path / "files").write_text("a file where the store's folder should be")
    port = free_port()
    log = tmp_path / "server.log"
    with log.open("w") as written:
        server = subprocess.Popen(
            [SPOT, "serve", "--port", str(port)],
            env={**os.environ, "SPOT_LOG_FORMAT": "json", "SPOT_DATA_DIR": str(tmp_path)},
            stdout=subprocess.DEVNULL,  # where it says its address, for people
            stderr=written,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            _wait_until_answering(base, server)
            answer = httpx.get(f"{base}{READY}", headers={"X-Request-Id": "lb-1"}, timeout=30)
            assert answer.status_code == 503
        finally:
            server.terminate()
            server.wait(timeout=60)
    lines = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    assert all({"time", "level", "logger", "message"} <= line.keys() for line in lines)
    assert all(datetime.fromisoformat(line["time"]).utcoffset() == timedelta(0) for line in lines)
    assert any(line["logger"].startswith("uvicorn") for line in lines)
    of_request = [line for line in lines if line.get("requestId") == "lb-1"]
    assert [line["logger"] for line in of_request] == ["spot.operations.service", "spot.access"]
    assert of_request[0]["level"] == "WARNING"
    assert of_request[1] | {"time": None, "ms": None} == {
        "time": None,
        "level": "INFO",
        "logger": "spot.access",
        "message": "request",
        "requestId": "lb-1",
        "method": "GET",
        "path": READY,
        "route": READY,
        "status": 503,
        "ms": None,
    }
