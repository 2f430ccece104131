"""A burst of 1,000 messages while another client reads (issue: "a burst of 1,000 messages does not
slow other requests").

Starts `spot serve` on a freshly seeded demo database with a real SMTP server (aiosmtpd, in this
process) as SPOT_SMTP_URL; a second client, in a process of its own, reads a subject page in a loop.
After a calm window, 1,000 messages are queued at once by another process (as the daily scan or a
change for many people would), and the server's own sender sends them. The reader's latencies during
the burst (from the queueing to the last message received) are compared with the calm window's.
"""

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from aiosmtpd.controller import Controller
from sqlalchemy.engine import make_url

from bench.runner import VENV_BIN, free_port, save
from bench.upload import API, Reader, _fresh_demo, _percentile, _serve

MESSAGES = 1_000
CALM_S = 5

QUEUE = """
from sqlalchemy import select
from spot.db import load_models, session_factory
from spot.notifications import outbox
from spot.users.models import User

load_models()
with session_factory()() as db:
    admin = db.scalar(select(User).where(User.login == "admin"))
    admin.email = admin.email or "admin@usine.example"
    for n in range({count}):
        content = outbox.Content(f"Rafale {{n}}", "Texte", "<p>Texte</p>")
        outbox.queue(db, user=admin, kind="test", content=content)
    db.commit()
"""


class Counter:
    """The mail server's handler: counts what it accepts, and when the last one came."""

    def __init__(self) -> None:
        self.received = 0
        self.last = 0.0

    async def handle_DATA(self, server, session, envelope):  # type: ignore[no-untyped-def]
        self.received += 1
        self.last = time.time()
        return "250 Message accepted for delivery"


def measure(url: str) -> str:
    kind = make_url(url).get_backend_name()
    workdir = Path(tempfile.mkdtemp(prefix="spot-bench-burst-"))
    counter = Counter()
    smtp = Controller(counter, hostname="127.0.0.1", port=free_port())
    smtp.start()
    env = {
        **os.environ,
        "SPOT_DATABASE_URL": _fresh_demo(url, workdir),
        "SPOT_DATA_DIR": str(workdir / "data"),
        "SPOT_SMTP_URL": f"smtp://127.0.0.1:{smtp.port}",
    }
    subprocess.run([VENV_BIN / "spot", "migrate"], env=env, check=True, stdout=subprocess.DEVNULL)
    subprocess.run([VENV_BIN / "spot", "seed-demo"], env=env, check=True, stdout=subprocess.DEVNULL)
    process, base = _serve(env)
    try:
        token = httpx.post(
            f"{base}{API}/account/login", json={"username": "admin", "password": "spot-demo-2026"}
        ).json()["token"]
        api = httpx.Client(base_url=base, headers={"x-access-token": token}, timeout=60)
        page = api.post(f"{API}/subject/query", json={"filter": "", "sort": "", "page": 1, "pageSize": 1})
        subject = page.json()["results"][0]["id"]
        for _ in range(50):
            api.get(f"{API}/subject/{subject}")
        # What the demo queued when it was seeded leaves first, before anything is measured.
        deadline, seen, quiet_since = time.monotonic() + 120, -1, time.time()
        while time.time() - quiet_since < 8 and time.monotonic() < deadline:
            if counter.received != seen:
                seen, quiet_since = counter.received, time.time()
            time.sleep(0.5)
        reader = Reader(base, token, subject)
        reader.start()
        time.sleep(1)
        calm_start = time.time()
        time.sleep(CALM_S)
        already = counter.received
        queued_at = time.time()
        subprocess.run([sys.executable, "-c", QUEUE.format(count=MESSAGES)], env=env, check=True)
        queued = time.time()
        deadline = time.monotonic() + 600
        while counter.received < already + MESSAGES and time.monotonic() < deadline:
            time.sleep(0.1)
        done = counter.last
        time.sleep(1)
        reader.finish()
    finally:
        process.terminate()
        process.wait(timeout=20)
        smtp.stop()
    sent = counter.received - already
    calm, during = reader.between(calm_start, queued_at), reader.between(queued_at, done)
    return (
        f"## A burst of {MESSAGES:,} messages on {kind}\n\n"
        f"Queued in {queued - queued_at:.1f} s by another process; all {sent:,} received by the mail "
        f"server {done - queued_at:.1f} s after the queueing began (the sender wakes every 5 s). Reader: "
        "GET /subject/{id} in a loop, one client in a process of its own.\n\n"
        "| window | reads | p50 ms | p95 ms | max ms |\n|---|---|---|---|---|\n"
        f"| calm ({CALM_S} s) | {len(calm)} | {_percentile(calm, 0.5):.1f} | {_percentile(calm, 0.95):.1f} "
        f"| {max(calm, default=0):.1f} |\n"
        f"| during the burst | {len(during)} | {_percentile(during, 0.5):.1f} | "
        f"{_percentile(during, 0.95):.1f} | {max(during, default=0):.1f} |\n"
    )


def main(urls: list[str]) -> None:
    for url in urls:
        kind = make_url(url).get_backend_name()
        print(f"burst on {kind}", flush=True)
        figures = measure(url)
        print(figures, flush=True)
        print(f"written to {save(f'burst-{kind}', figures)}", flush=True)
