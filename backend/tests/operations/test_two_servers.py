"""Two `spot serve` processes on different ports, sharing one PostgreSQL database and one object store,
behave as one (docs/operations.md, "Several servers"): a session opened on one works on the other, a
file uploaded through one is served by the other, a job asked on one is followed and downloaded on the
other, failed logins count once, the daily scans run once. The second server is started `--no-jobs`: a
job asked on it is run by the first (their logs say which ran it).
The second server reaches the database through a proxy the test cuts, as a database restart does:
its requests fail cleanly (503 databaseUnavailable, never a 500) while the first server goes on, and it
recovers once the database is back, without being restarted."""

import os
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest
from sqlalchemy import func, select
from sqlalchemy.engine import make_url

from mail_server import free_port
from mapping.maps import load
from notifications.test_scan import hold, world  # noqa: F401  (a fixture)
from object_server import CREDENTIALS, REGION
from reports.pdf_support import JOBS, PDF, build_world, pdfs, request
from resources.gallery import PDF as NOTICE_PDF
from spot.core.time import today
from spot.notifications.models import OutboxMessage
from spot.notifications.scan import HOLDER_KIND, MANAGER_KIND, SCANS
from spot.notifications.scan_models import ScanLease
from support import API, PASSWORD, assert_error
from tcp_proxy import TcpProxy

pytestmark = pytest.mark.skipif(
    not os.environ.get("SPOT_TEST_DATABASE_URL"), reason="several servers share a PostgreSQL database"
)

SPOT = str(Path(sys.executable).parent / "spot")


def _start(port: int, env: dict[str, str], log: Path, *options: str) -> subprocess.Popen[bytes]:
    with log.open("wb") as out:  # the child keeps its own descriptor
        return subprocess.Popen(
            [SPOT, "serve", "--port", str(port), *options], env=env, stdout=out, stderr=subprocess.STDOUT
        )


def _wait_until(
    check, what: str, server: subprocess.Popen[bytes] | None = None, seconds: float = 300
) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert server is None or server.poll() is None, f"{what}: the server stopped"
        assert time.monotonic() < deadline, what
        time.sleep(0.2)


def _answers(base: str) -> bool:
    try:
        return httpx.get(f"{base}{API}/health/ready", timeout=5).status_code == 200
    except httpx.HTTPError:
        return False


def _login(base: str, login: str, password: str = PASSWORD) -> httpx.Response:
    return httpx.post(
        f"{base}{API}/account/login", json={"username": login, "password": password}, timeout=60
    )


def test_two_servers_share_sessions_files_jobs_throttling_and_scans_and_survive_a_database_restart(
    db,
    client,
    login,
    world,  # noqa: F811
    make_user,
    s3_server,
    tmp_path,
):
    # Anne's Cariste ends in 30 days: today's expiry scan tells her, and Marie her manager, once.
    hold(db, world, "anne", until=today() + timedelta(days=30), day=today())
    # A report's zip of PDFs: a job asked on one server, run by whichever takes it, downloaded on the other.
    report = build_world(db, client, make_user, login)
    subject_id = load(db).subject("S1")
    make_user("jeanne", ["perm_EditResourcesVideos"])
    make_user("paul-b")
    db.commit()

    database = make_url(os.environ["SPOT_DATABASE_URL"])
    proxy = TcpProxy((database.host or "127.0.0.1", database.port or 5432))
    proxy.start()
    common = {
        **os.environ,
        **CREDENTIALS,
        "SPOT_FILE_STORE": f"s3://{s3_server.new_bucket()}/spot",
        "SPOT_S3_ENDPOINT_URL": s3_server.url,
        "SPOT_S3_REGION": REGION,
        "SPOT_DAILY_SCAN_AT": "00:00",  # due at once: both servers start today's scans together
    }
    # Each server a data folder of its own, as on two hosts: only the database and the store are shared.
    env_a = {**common, "SPOT_DATA_DIR": str(tmp_path / "a")}
    env_b = {
        **common,
        "SPOT_DATA_DIR": str(tmp_path / "b"),
        "SPOT_DATABASE_URL": database.set(port=proxy.port).render_as_string(hide_password=False),
    }
    port_a, port_b = free_port(), free_port()
    a, b = f"http://127.0.0.1:{port_a}", f"http://127.0.0.1:{port_b}"
    log_a, log_b = tmp_path / "a.log", tmp_path / "b.log"
    server_a, server_b = _start(port_a, env_a, log_a), _start(port_b, env_b, log_b, "--no-jobs")
    try:
        _wait_until(lambda: _answers(a), "server A answers", server_a)
        _wait_until(lambda: _answers(b), "server B answers", server_b)

        # The daily scans: each ran today, once, whichever server took its lease.
        def scans_done() -> bool:
            db.expire_all()
            days = {lease.name: lease.last_day for lease in db.scalars(select(ScanLease))}
            return all(days.get(scan.name) == today() for scan in SCANS)

        _wait_until(scans_done, "today's scans ran")
        reminders = db.execute(
            select(OutboxMessage.kind, OutboxMessage.user_id, func.count()).group_by(
                OutboxMessage.kind, OutboxMessage.user_id
            )
        ).all()
        assert sorted(reminders) == sorted(
            [(HOLDER_KIND, world["anne"].id, 1), (MANAGER_KIND, world["marie"].id, 1)]
        )

        # A session opened on A works on B; one closed on B is refused on A.
        opened = _login(a, "jeanne")
        assert opened.status_code == 200, opened.text
        token = {"x-access-token": opened.json()["token"]}
        assert httpx.get(f"{b}{API}/account/whoAmI", headers=token, timeout=30).status_code == 200

        # A file uploaded through A is served by B, with the same ETag.
        uploaded = httpx.post(
            f"{a}{API}/resource/subject/{subject_id}",
            content=NOTICE_PDF,
            headers={**token, "resourceType": "pdf", "name": quote("Notice"), "link": quote("notice.pdf")},
            timeout=60,
        )
        assert uploaded.status_code == 200, uploaded.text
        on_a = httpx.get(f"{a}{uploaded.json()['fileUrl']}", headers=token, timeout=30)
        on_b = httpx.get(f"{b}{uploaded.json()['fileUrl']}", headers=token, timeout=30)
        assert on_b.status_code == 200 and on_b.content == NOTICE_PDF
        assert on_b.headers["etag"] == on_a.headers["etag"]

        second = {"x-access-token": _login(b, "jeanne").json()["token"]}
        assert httpx.post(f"{b}{API}/account/logout", headers=second, timeout=30).status_code in (200, 204)
        assert_error(httpx.get(f"{a}{API}/account/whoAmI", headers=second, timeout=30), 401)

        # A job asked through B (which runs none: --no-jobs) is run by A, followed and downloaded through A.
        reporter = report.headers("reporter")
        asked = httpx.post(f"{b}{PDF}", json=request(report), headers=reporter, timeout=60)
        assert asked.status_code == 202, asked.text
        job_id = asked.json()["id"]

        def finished() -> bool:
            job = httpx.get(f"{a}{JOBS}/{job_id}", headers=reporter, timeout=30).json()
            assert job["status"] in ("queued", "running", "succeeded"), job
            return job["status"] == "succeeded"

        _wait_until(finished, "the report's job finished")
        result = httpx.get(f"{a}{JOBS}/{job_id}/result", headers=reporter, timeout=60)
        assert result.status_code == 200
        assert list(pdfs(result.content)) == ["Learner Test.pdf", "Zoé Élève (EXT-7).pdf"]
        started = f"job {job_id} (reportZip) attempt 1 started"
        assert started in log_a.read_text() and " attempt " not in log_b.read_text()

        # Failed logins count once: three on A and two on B make the fifth, and the pair waits on both.
        for base in (a, a, a, b, b):
            assert_error(_login(base, "paul-b", "wrong-password"), 401)
        for base in (a, b):
            assert_error(_login(base, "paul-b"), 429)

        # The database restarts, for B: its requests fail cleanly while A goes on; then B recovers.
        proxy.cut()
        for _ in range(3):
            assert_error(
                httpx.get(f"{b}{API}/account/whoAmI", headers=token, timeout=60), 503, "databaseUnavailable"
            )
        ready = httpx.get(f"{b}{API}/health/ready", timeout=60)
        assert ready.status_code == 503 and ready.json()["database"] != "ok"
        assert httpx.get(f"{a}{API}/account/whoAmI", headers=token, timeout=30).status_code == 200
        proxy.start()
        _wait_until(
            lambda: httpx.get(f"{b}{API}/account/whoAmI", headers=token, timeout=60).status_code == 200,
            "server B works again",
            server_b,
            seconds=120,
        )
        assert server_a.poll() is None and server_b.poll() is None
    finally:
        for server in (server_a, server_b):
            server.terminate()
            server.wait(timeout=60)
        proxy.cut()
