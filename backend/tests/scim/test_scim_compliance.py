"""scim2-tester, the SCIM compliance checker (RFC 7643 and 7644), against Spot served by uvicorn on a
real socket: discovery, creation, reading, replacement, PATCH add/replace/remove on every attribute
Spot publishes, and deletion, for people and groups. No check may fail."""

import socket
import threading
import time
from collections.abc import Iterator

import httpx2
import pytest
import uvicorn
from scim2_client.engines.httpx2 import SyncSCIMClient
from scim2_tester import Status, check_server

from spot.apitokens import service as tokens
from support import API

# How long uvicorn may take to start on a loaded machine; the test goes on as soon as it answers.
START_DEADLINE_S = 120


@pytest.fixture
def served(app, settings_env) -> Iterator[str]:
    """The app on a free port of 127.0.0.1, its public address set to it (resources' locations)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    address = f"http://127.0.0.1:{port}"
    settings_env(SPOT_PUBLIC_URL=address)
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="off")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + START_DEADLINE_S
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    yield address
    server.should_exit = True
    thread.join(timeout=START_DEADLINE_S)


def test_scim2_tester_finds_no_failure(served, db, make_user):
    make_user("keeper", ["perm_SetPermissions"])
    _, value = tokens.create(db, name="compliance", scope="scim", by=None)
    db.commit()
    http = httpx2.Client(base_url=f"{served}{API}/scim/v2", headers={"Authorization": f"Bearer {value}"})
    with http:
        results = check_server(SyncSCIMClient(http))
    failed = [r for r in results if r.status not in (Status.SUCCESS, Status.SKIPPED)]
    summary = [f"{r.status.name} {r.title} {r.resource_type or ''}: {r.reason}" for r in failed]
    assert not failed, "\n".join(summary)
    assert sum(r.status == Status.SUCCESS for r in results) >= 30, [r.title for r in results]
