"""The path reports (DESIGN §8): the Excel file of 1,000 paths within 5 s, the zip of PDFs of 200
learners within 20 s with its first progress within a second (a job whose request answers at once),
both with the server's memory flat.

Serves the database with `spot serve`, signs in as an administrator (perm_TableauBord: every path), picks
selectors from the database that give the sizes asked (learners whose paths add up to exactly N paths
over a period that holds them all, every status and type; the N learners with the most paths), checks
them against the report's own count (the paths table's totalItems, the zip job's total), then downloads
each report a few times as the client does, measuring the time to the first byte of the body (the
Excel file), or the time its request takes and the time to its job's first progress (the zip: a job of
`spot serve`, read every 20 ms, then its result downloaded), the total time, and the server's resident
memory sampled every 10 ms: its
heap (RssAnon, as bench/upload.py) against its idle level. Each report is measured at a quarter of its
size too: memory is flat when the peak does not grow with the size.
"""

import os
import statistics
import tempfile
import threading
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, func, select
from sqlalchemy.engine import make_url

from bench import dataset
from bench.runner import ObjectStore, save
from bench.upload import _rss_kib, _serve

API = "/backend/api/v2"
EXCEL_PATHS = 1_000
ZIP_LEARNERS = 200
RUNS = 3
EXCEL_BUDGET = {"total": 5.0}
ZIP_BUDGET = {"total": 20.0, "first": 1.0}

PATH_STATUSES = ["notAccepted", "accepted", "started", "finished", "validated", "archived", "canceled"]
MODULE_STATUSES = ["notStarted", "started", "finished", "validated", "archived", "disabled"]
MODULE_TYPES = ["training", "qualification", "other"]


@dataclass(frozen=True)
class Selection:
    """Selectors over the whole database and the learners they name."""

    start: str
    stop: str
    learners: list[int]
    paths: int


@dataclass(frozen=True)
class Download:
    # The Excel file's first byte; the zip job's first learner done.
    first_byte_s: float
    total_s: float
    size: int
    peak_heap_kib: int
    peak_total_kib: int
    learners: int | None
    # The zip: how long its request took to answer (its job queued).
    request_s: float | None = None


def _learner_paths(url: str) -> tuple[str, str, list[tuple[int, int]]]:
    """The period that holds every path, and each learner's number of paths that have a module (every
    module status and type is asked, so each of them is shown), by learner id."""
    from spot import db as database

    database.load_models()
    tables = database.Base.metadata.tables
    paths, assigned = tables["training_path"], tables["training_path_module"]
    engine = create_engine(url)
    with_module = select(assigned.c.path_id).where(assigned.c.path_id == paths.c.id).exists()
    try:
        with engine.connect() as conn:
            period = select(func.min(paths.c.start_date), func.max(paths.c.stop_date))
            start, stop = conn.execute(period).one()
            counts = (
                conn.execute(
                    select(paths.c.learner_id, func.count())
                    .where(paths.c.learner_id.is_not(None), with_module)
                    .group_by(paths.c.learner_id)
                    .order_by(paths.c.learner_id)
                )
                .tuples()
                .all()
            )
    finally:
        engine.dispose()
    if start is None:
        raise SystemExit("no training path in this database")
    return str(start), str(stop), counts


def excel_selection(url: str, paths: int) -> Selection:
    """Learners, by id, whose paths add up to `paths` exactly (or all of them when there are fewer)."""
    start, stop, counts = _learner_paths(url)
    chosen, total = [], 0
    for learner, count in counts:
        if total + count <= paths:
            chosen.append(learner)
            total += count
        if total == paths:
            break
    return Selection(start, stop, chosen, total)


def zip_selection(url: str, learners: int) -> Selection:
    """The `learners` learners with the most paths (ties by id): the heaviest reports."""
    start, stop, counts = _learner_paths(url)
    chosen = sorted(counts, key=lambda pair: (-pair[1], pair[0]))[:learners]
    return Selection(start, stop, sorted(learner for learner, _ in chosen), sum(count for _, count in chosen))


def request_body(selection: Selection) -> dict[str, Any]:
    """A report over `selection` that prints everything it can (mediators included)."""
    return {
        "selectors": {
            "start": selection.start,
            "stop": selection.stop,
            "learnerIdList": selection.learners,
            "groupIdList": [],
            "pathStatutes": PATH_STATUSES,
            "moduleStatutes": MODULE_STATUSES,
            "moduleTypes": MODULE_TYPES,
        },
        "documentOptions": {
            "documentTitle": "Rapport des parcours de formation",
            "displayExternalIds": True,
            "learnerSignature": True,
            "managerSignature": True,
            "managerSignatureLabel": "Le responsable de formation",
            "signatureImage": None,
        },
        "pathOptions": dict.fromkeys(
            ["reference", "dates", "status", "creator", "validation", "signature", "completion"]
            + ["averageGrade", "duration"],
            True,
        ),
        "moduleOptions": dict.fromkeys(
            ["reference", "goals", "referents", "dates", "status", "grades", "comments", "signatures"]
            + ["mediations", "mediators", "results"],
            True,
        ),
    }


def _idle_heap(pid: int) -> int:
    samples = []
    for _ in range(50):
        samples.append(_rss_kib(pid))
        time.sleep(0.01)
    return max(samples)


def download(client: httpx.Client, pid: int, path: str, body: dict[str, Any], check: str) -> Download:
    """One report streamed to a temporary file while a thread samples the server's memory."""
    peak = [0, 0]
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], _rss_kib(pid))
            peak[1] = max(peak[1], _rss_kib(pid, "VmRSS"))
            time.sleep(0.01)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    first = None
    size = 0
    with tempfile.TemporaryFile() as saved:
        start = time.perf_counter()
        try:
            with client.stream("POST", path, json=body, headers={"Accept-Language": "fr"}) as response:
                if response.status_code != 200:
                    raise SystemExit(f"POST {path}: {response.status_code} {response.read()[:300]!r}")
                for chunk in response.iter_raw():
                    if first is None and chunk:
                        first = time.perf_counter() - start
                    size += len(chunk)
                    saved.write(chunk)
        finally:
            total = time.perf_counter() - start
            done.set()
            sampler.join()
        saved.seek(0)
        _check(saved, check)
    return Download(first or total, total, size, peak[0], peak[1], None)


class _Sampler:
    """The server's peak memory while a report is made (every 10 ms, in a thread)."""

    def __init__(self, pid: int) -> None:
        self.peak = [0, 0]
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(pid,), daemon=True)

    def _run(self, pid: int) -> None:
        while not self.done.is_set():
            self.peak[0] = max(self.peak[0], _rss_kib(pid))
            self.peak[1] = max(self.peak[1], _rss_kib(pid, "VmRSS"))
            time.sleep(0.01)

    def __enter__(self) -> "_Sampler":
        self.thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.done.set()
        self.thread.join()


def zip_job(client: httpx.Client, pid: int, body: dict[str, Any]) -> Download:
    """The zip as the client gets it: its job asked for (the request's time), read every 20 ms until it
    ends (the time to its first learner done), then its result downloaded."""
    size = 0
    with _Sampler(pid) as sampler, tempfile.TemporaryFile() as saved:
        start = time.perf_counter()
        asked = client.post(f"{API}/reports/trainingPaths/pdf", json=body, headers={"Accept-Language": "fr"})
        request_s = time.perf_counter() - start
        if asked.status_code != 202:
            raise SystemExit(f"POST /reports/trainingPaths/pdf: {asked.status_code} {asked.text[:300]}")
        job_id = asked.json()["id"]
        first = None
        while True:
            job = client.get(f"{API}/jobs/{job_id}").json()
            if first is None and job["done"] >= 1:
                first = time.perf_counter() - start
            if job["status"] in ("succeeded", "failed"):
                break
            time.sleep(0.02)
        if job["status"] != "succeeded":
            raise SystemExit(f"the zip's job failed: {job['error']}")
        with client.stream("GET", f"{API}/jobs/{job_id}/result") as response:
            for chunk in response.iter_raw():
                size += len(chunk)
                saved.write(chunk)
        total = time.perf_counter() - start
        saved.seek(0)
        files = _check(saved, "zip")
    if files != job["total"]:
        raise SystemExit(f"the zip holds {files} PDFs for {job['total']} learners")
    peak = sampler.peak
    return Download(first or total, total, size, peak[0], peak[1], job["total"], request_s)


def _check(saved: Any, kind: str) -> int:
    """The file is what it claims, a workbook or a zip of PDFs; answers the number of files it holds."""
    with zipfile.ZipFile(saved) as archive:
        names = archive.namelist()
        if kind == "xlsx" and "xl/workbook.xml" not in names:
            raise SystemExit("the Excel file is no workbook")
        if kind == "zip" and not all(name.endswith(".pdf") for name in names):
            raise SystemExit(f"the zip holds other files than PDFs: {names[:5]}")
    return len(names)


def _selected_paths(client: httpx.Client, body: dict[str, Any]) -> int:
    response = client.post(f"{API}/reports/trainingPaths/paths", json=body)
    if response.status_code != 200:
        raise SystemExit(f"POST /reports/trainingPaths/paths: {response.status_code} {response.text[:300]}")
    return int(response.json()["totalItems"])


def _rows(label: str, downloads: list[Download], idle_kib: int, budget: dict[str, float]) -> list[str]:
    rows = []
    for n, run in enumerate(downloads, 1):
        request = f"{run.request_s * 1000:.0f}" if run.request_s is not None else "—"
        rows.append(
            f"| {label} | {n} | {request} | {run.first_byte_s * 1000:.0f} | {run.total_s:.2f} | "
            f"{run.size / 1e6:.2f} | "
            f"{(run.peak_heap_kib - idle_kib) / 1024:.1f} | {run.peak_total_kib / 1024:.1f} | "
            f"{_budget(budget)} |"
        )
    return rows


def _budget(budget: dict[str, float]) -> str:
    first = f"first progress ≤ {budget['first'] * 1000:g} ms, " if "first" in budget else ""
    return f"{first}≤ {budget['total']:g} s"


def measure(
    url: str, data_dir: Path, login: tuple[str, str], source: str, runs: int = RUNS, store: str = "folder"
) -> str:
    """The figures on one database, files (the jobs' results) in a folder or an object store, as a
    Markdown table."""
    objects = ObjectStore() if store == "s3" else None
    try:
        return _measure(url, data_dir, login, source, runs, objects)
    finally:
        if objects is not None:
            objects.stop()


def _measure(
    url: str, data_dir: Path, login: tuple[str, str], source: str, runs: int, objects: ObjectStore | None
) -> str:
    kind = make_url(url).get_backend_name()
    sizes = {
        "excel": [excel_selection(url, EXCEL_PATHS // 4), excel_selection(url, EXCEL_PATHS)],
        "zip": [zip_selection(url, ZIP_LEARNERS // 4), zip_selection(url, ZIP_LEARNERS)],
    }
    lines: list[str] = []
    env = {
        **os.environ,
        "SPOT_DATABASE_URL": url,
        "SPOT_DATA_DIR": str(data_dir),
        **(objects.env if objects else {}),
    }
    process, base = _serve(env)
    pid = process.pid
    try:
        token = httpx.post(
            f"{base}{API}/account/login", json={"username": login[0], "password": login[1]}
        ).json()["token"]
        client = httpx.Client(base_url=base, headers={"x-access-token": token}, timeout=600)
        # Warm up: the first report loads what the routes need (XlsxWriter, ReportLab, fonts) once.
        download(client, pid, f"{API}/reports/trainingPaths/excel", request_body(sizes["excel"][0]), "xlsx")
        zip_job(client, pid, request_body(sizes["zip"][0]))
        time.sleep(1)
        idle_kib = _idle_heap(pid)
        idle_total_kib = _rss_kib(pid, "VmRSS")
        for selection in sizes["excel"]:
            body = request_body(selection)
            shown = _selected_paths(client, body)
            if shown != selection.paths:
                print(f"  warning: the report selects {shown} paths, the bench expected {selection.paths}")
            runs_done = [
                download(client, pid, f"{API}/reports/trainingPaths/excel", body, "xlsx") for _ in range(runs)
            ]
            label = f"Excel, {shown} paths ({len(selection.learners)} learners)"
            print(f"  {label}: median {statistics.median(r.total_s for r in runs_done):.2f} s", flush=True)
            lines += _rows(label, runs_done, idle_kib, EXCEL_BUDGET)
        for selection in sizes["zip"]:
            body = request_body(selection)
            runs_done = [zip_job(client, pid, body) for _ in range(runs)]
            learners = runs_done[0].learners
            if learners != len(selection.learners):
                asked = len(selection.learners)
                print(f"  warning: the zip holds {learners} learners, the bench asked {asked}")
            label = f"zip of PDFs, {learners} learners ({selection.paths} paths)"
            print(
                f"  {label}: median {statistics.median(r.total_s for r in runs_done):.2f} s, request "
                f"{statistics.median(r.request_s or 0 for r in runs_done) * 1000:.0f} ms, first progress "
                f"{statistics.median(r.first_byte_s for r in runs_done) * 1000:.0f} ms",
                flush=True,
            )
            lines += _rows(label, runs_done, idle_kib, ZIP_BUDGET)
        after_kib = _rss_kib(pid)
        client.close()
    finally:
        process.terminate()
        process.wait(timeout=20)
    where = "in an object store (moto_server)" if objects else "in a folder"
    header = (
        f"## Path reports on {kind}, files {where} ({source})\n\n"
        f"Server heap (RssAnon) {idle_kib / 1024:.1f} MB idle after a warm-up report of each kind, "
        f"{after_kib / 1024:.1f} MB after the runs (whole resident set, mapped database pages included: "
        f"{idle_total_kib / 1024:.1f} MB idle). Every option printed, every status and type selected, "
        "texts in French; one client, reports one after the other. Memory is flat when the peak above idle "
        "does not grow from the quarter size to the full one.\n\n"
        "| report | run | request ms | first byte (Excel) or progress (zip) ms | total s | MB sent "
        "| peak heap above idle MB | peak resident set MB | budget |\n"
        "|---|---|---|---|---|---|---|---|---|\n"
    )
    return header + "\n".join(lines) + "\n"


def main(url: str, data_dir: Path) -> None:
    """The figures on the bench dataset (prepared by bench.__main__), printed and saved."""
    kind = make_url(url).get_backend_name()
    login = (dataset.ADMIN_LOGIN, dataset.ADMIN_PASSWORD)
    # A and B in one run: the jobs' results in a folder, then in an object store.
    figures = (
        measure(url, data_dir, login, "the bench dataset")
        + "\n"
        + measure(url, data_dir, login, "the bench dataset", store="s3")
    )
    print(figures, flush=True)
    print(f"written to {save(f'reports-{kind}', figures)}", flush=True)
