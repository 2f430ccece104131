"""A 30 MB upload while another client reads subjects (DESIGN §8: at most 1 s, the server's memory
at most 10 MB above idle, no other request stalls).

Starts `spot serve` on the bench dataset when it is ready (/tmp/bench-dataset-ready), else on a
freshly seeded demo database; signs in as an administrator; then, for each of a few uploads of
30,000,000 bytes (a pdf, sent in 1 MB pieces as a browser would), measures the upload's time, the
server's resident memory sampled every 10 ms against its idle level, and the latencies of a second
client reading a subject page in a loop, during the upload and before it.
"""

import os
import statistics
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from multiprocessing import Event, Process, Queue
from pathlib import Path
from urllib.parse import quote

import httpx
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from bench import dataset
from bench.runner import VENV_BIN, ObjectStore, free_port, save

READY_FLAG = Path("/tmp/bench-dataset-ready")
API = "/backend/api/v2"
SIZE = 30_000_000
PIECE = 1 << 20
UPLOADS = 5


def _rss_kib(pid: int, field: str = "RssAnon") -> int:
    """The server's resident memory of its own (heap, RssAnon), by default: its whole resident set
    (VmRSS) also counts the pages of the database file SQLite maps into memory as it reads them."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1])
    raise RuntimeError(f"no {field}")


def _pdf_body() -> Iterator[bytes]:
    """30,000,000 bytes of a pdf (its signature, then filler), made as it is sent."""
    head = b"%PDF-1.4\n%" + bytes(PIECE - 10)
    yield head
    sent = len(head)
    while sent < SIZE:
        piece = bytes(min(PIECE, SIZE - sent))
        sent += len(piece)
        yield piece


def _read(base: str, token: str, subject: int, stop: Event, samples: Queue) -> None:  # type: ignore[type-arg]
    """The other client, in a process of its own (so the uploader's thread cannot slow it): reads a
    subject page in a loop, then hands back each latency with its start time."""
    client = httpx.Client(base_url=base, headers={"x-access-token": token}, timeout=30)
    kept = []
    while not stop.is_set():
        start = time.time()
        client.get(f"{API}/subject/{subject}").raise_for_status()
        kept.append((start, time.time() - start))
    samples.put(kept)


class Reader:
    def __init__(self, base: str, token: str, subject: int) -> None:
        self.stop = Event()
        self.queue: Queue = Queue()  # type: ignore[type-arg]
        self.process = Process(
            target=_read,
            args=(base, token, subject, self.stop, self.queue),
            daemon=True,
        )
        self.samples: list[tuple[float, float]] = []

    def start(self) -> None:
        self.process.start()

    def finish(self) -> None:
        self.stop.set()
        self.samples = self.queue.get(timeout=60)
        self.process.join()

    def between(self, start: float, end: float) -> list[float]:
        return [latency * 1000 for at, latency in self.samples if start <= at < end]


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def _serve(env: dict[str, str]) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    process = subprocess.Popen(
        [VENV_BIN / "spot", "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            httpx.get(f"{base}{API}/organization/info", timeout=1)
            return process, base
        except httpx.HTTPError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit("spot serve did not start")


def _fresh_demo(url: str, workdir: Path) -> str:
    """A new demo database beside the bench one: a file in `workdir`, or a database of its own on the
    same PostgreSQL server, dropped first."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        return f"sqlite:///{workdir}/spot.db"
    demo = parsed.set(database="spot_bench_upload")
    admin = create_engine(parsed.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text('DROP DATABASE IF EXISTS "spot_bench_upload" WITH (FORCE)'))
        conn.execute(text('CREATE DATABASE "spot_bench_upload"'))
    admin.dispose()
    return demo.render_as_string(hide_password=False)


def measure(url: str, store: str = "folder") -> str:
    """The figures on one database, files in a folder or in an object store, as a Markdown table."""
    kind = make_url(url).get_backend_name()
    workdir = Path(tempfile.mkdtemp(prefix="spot-bench-upload-"))
    objects = ObjectStore(aside=store == "s3-aside") if store.startswith("s3") else None
    try:
        return _measure(url, kind, workdir, objects)
    finally:
        if objects is not None:
            objects.stop()


def _measure(url: str, kind: str, workdir: Path, objects: "ObjectStore | None") -> str:
    if READY_FLAG.exists():
        env = {
            **os.environ,
            "SPOT_DATABASE_URL": url,
            "SPOT_DATA_DIR": str(workdir / "data"),
        }
        login, password, source = (
            dataset.ADMIN_LOGIN,
            dataset.ADMIN_PASSWORD,
            "the bench dataset",
        )
    else:
        env = {
            **os.environ,
            "SPOT_DATABASE_URL": _fresh_demo(url, workdir),
            "SPOT_DATA_DIR": str(workdir / "data"),
        }
        subprocess.run(
            [VENV_BIN / "spot", "migrate"],
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
        )
        subprocess.run(
            [VENV_BIN / "spot", "seed-demo"],
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
        )
        login, password, source = (
            "admin",
            "spot-demo-2026",
            "a freshly seeded demo database (the bench dataset was not ready)",
        )
    if objects is not None:
        env.update(objects.env)
    process, base = _serve(env)
    try:
        token = httpx.post(
            f"{base}{API}/account/login", json={"username": login, "password": password}
        ).json()["token"]
        api = httpx.Client(base_url=base, headers={"x-access-token": token}, timeout=60)
        page = api.post(
            "/backend/api/v2/subject/query",
            json={"filter": "", "sort": "", "page": 1, "pageSize": 1},
        )
        subject = page.json()["results"][0]["id"]
        gallery = f"{API}/resource/subject/{subject}"
        headers = {
            "resourceType": "pdf",
            "name": quote("Plan détaillé"),
            "link": "plan.pdf",
        }

        def upload() -> float:
            start = time.perf_counter()
            response = api.post(
                gallery,
                content=_pdf_body(),
                headers={**headers, "Content-Length": str(SIZE)},
            )
            elapsed = time.perf_counter() - start
            response.raise_for_status()
            api.delete(f"{gallery}/{response.json()['id']}").raise_for_status()
            return elapsed

        # Warm up: the first upload loads what the route needs (Pillow, filetype) once for the process.
        for _ in range(2):
            upload()
            for _ in range(50):
                api.get(f"{API}/subject/{subject}")
        reader = Reader(base, token, subject)
        reader.start()
        time.sleep(2)
        idle = [_rss_kib(process.pid) for _ in range(20) if time.sleep(0.01) is None]
        idle_kib = max(idle)
        idle_total_kib = _rss_kib(process.pid, "VmRSS")
        rows: list[str] = []
        measured: list[tuple[float, int]] = []
        windows: list[tuple[float, float, float]] = []
        for _ in range(UPLOADS):
            before = time.time()
            time.sleep(1)
            peak = [idle_kib]
            done = threading.Event()

            def sample(peak: list[int] = peak, done: threading.Event = done) -> None:
                while not done.is_set():
                    peak[0] = max(peak[0], _rss_kib(process.pid))
                    time.sleep(0.01)

            sampler = threading.Thread(target=sample, daemon=True)
            sampler.start()
            start = time.time()
            elapsed = upload()
            end = time.time()
            done.set()
            sampler.join()
            windows.append((before, start, end))
            measured.append((elapsed, peak[0]))
        reader.finish()
        for n, ((elapsed, peak_kib), (before, start, end)) in enumerate(zip(measured, windows, strict=True)):
            during, calm = reader.between(start, end), reader.between(before, start)
            rows.append(
                f"| {n + 1} | {elapsed * 1000:.0f} | {(peak_kib - idle_kib) / 1024:.1f} | {len(during)} | "
                f"{_percentile(during, 0.5):.1f} | {_percentile(during, 0.99):.1f} | "
                f"{max(during, default=0):.1f} | "
                f"{_percentile(calm, 0.5):.1f} | {max(calm, default=0):.1f} |"
            )
        after_kib = _rss_kib(process.pid)
        after_total_kib = _rss_kib(process.pid, "VmRSS")
    finally:
        process.terminate()
        process.wait(timeout=20)
    medians = statistics.median(float(r.split("|")[2]) for r in rows)
    where = (
        "in a folder"
        if objects is None
        else "in an object store (moto_server at nice 19, as on another host)"
        if objects.aside
        else "in an object store (moto_server on the same cores)"
    )
    header = (
        f"## 30 MB upload on {kind}, files {where} ({source})\n\n"
        f"Server heap (RssAnon) {idle_kib / 1024:.1f} MB idle, {after_kib / 1024:.1f} MB after the uploads "
        f"(whole resident set, mapped database pages included: {idle_total_kib / 1024:.1f} MB, then "
        f"{after_total_kib / 1024:.1f} MB); "
        f"median upload {medians:.0f} ms. Reader: GET /subject/{{id}} in a loop, one client in a process "
        "of its own; 'before' is the second before each upload.\n\n"
        "| upload | time ms | peak heap above idle MB | reads during | p50 ms | p99 ms | max ms "
        "| p50 before ms | max before ms |\n"
        "|---|---|---|---|---|---|---|---|---|\n"
    )
    return header + "\n".join(rows) + "\n"


def main(urls: list[str]) -> None:
    for url in urls:
        kind = make_url(url).get_backend_name()
        print(f"upload on {kind}", flush=True)
        # A and B in one run: files in a folder, then in an object store, its server sharing Spot's
        # cores, then at the lowest priority (as on another host).
        figures = "\n".join(measure(url, store) for store in ("folder", "s3", "s3-aside"))
        print(figures, flush=True)
        print(f"written to {save(f'upload-{kind}', figures)}", flush=True)
