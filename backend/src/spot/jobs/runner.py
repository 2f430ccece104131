"""Running jobs (docs/operations.md, "Jobs"): the kinds areas register, queueing one, and the runner
that takes them, in `spot serve` (unless --no-jobs) and in `spot worker`.

- An area registers a kind with its handler (`register("reportZip", handler)`) in a module of its
  own listed in spot.main.JOB_MODULES; `enqueue` writes the `job` row in the caller's transaction.
- The runners are told: on PostgreSQL through procrastinate (jobs.queue), deferred in that same
  transaction; on SQLite, once it commits, by waking this process's runner threads (a runner of another
  process finds it within a second).
- `execute` takes a queued row by a compare-and-set (status and attempt), beats its heartbeat from a
  thread while the handler works in a session of its own, then stores the result file (core.files:
  moved into the store in that transaction, removed again if it does not commit) and marks the job
  succeeded in one transaction, with the owner's e-mail. What the handler writes before (a half-made
  zip) is in this process's scratch folder, which core.files cleans when the process died.
- The sweep, in every runner: a running job whose heartbeat stopped (its process was killed) is queued
  again while it has attempts left, else failed (`jobInterrupted`); the run that was superseded can
  never mark it (its compare-and-set names its attempt). Finished jobs past their time are removed
  with their files.
The handler never runs on an event loop: in a runner thread, or procrastinate's thread pool."""

import logging
import os
import shutil
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Protocol

from sqlalchemy import delete, select, update
from sqlalchemy import event as sa_event
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from spot.account.service import principal_of
from spot.config import get_settings
from spot.core import files, i18n
from spot.core.errors import ApiError
from spot.core.principal import Principal
from spot.core.time import utcnow
from spot.db import get_engine, session_factory
from spot.jobs import notices
from spot.jobs.models import Job, JobStatus

log = logging.getLogger("spot.jobs")

# A run killed midway is queued again this many times at most, then the job fails.
MAX_ATTEMPTS = 2
INTERRUPTED = "jobInterrupted"
FAILED = "jobFailed"
# A running job whose heartbeat is older than this many heartbeats was left by a dead process.
STALE_BEATS = 3
# Progress is written at most this often (a step of a zip takes 0.1 s, of an export much less).
PROGRESS_EVERY_S = 0.25
# Runner threads of a process on SQLite; on PostgreSQL, procrastinate's concurrency (jobs.queue).
THREADS = 2
# How often a runner on SQLite looks for a job queued by another process.
POLL_S = 1.0
# How long procrastinate's worker waits before starting again after it stopped (the database away).
RESTART_S = 5.0


def _heartbeat() -> timedelta:
    return timedelta(seconds=get_settings().job_heartbeat_seconds)


class Superseded(Exception):
    """The job was taken from this run (its heartbeat had stopped): its work is thrown away."""


@dataclass(frozen=True)
class Output:
    """What a handler made: a file it wrote (`path`, moved into the store when the job succeeds) under
    the name it downloads as, and a small summary the client shows (an import's counts)."""

    path: Path | None
    download_name: str | None = None
    media_type: str | None = None
    extension: str = "bin"
    summary: dict[str, Any] | None = None


@dataclass
class Work:
    """What a handler is given: the job, its owner, its parameters and language, and how to tell its
    progress and where to write."""

    job_id: int
    attempt: int
    owner: Principal
    parameters: dict[str, Any]
    language: i18n.Language
    input_file: str | None = None
    _scratch: list[Path] = field(default_factory=list)
    _written_done: int = 0
    _written_at: float = 0.0

    def progress(self, done: int, total: int | None = None) -> None:
        """`done` of `total` (unchanged when None), written in a short transaction of its own so that
        the owner's page, served by any process, sees it: the first step at once, then at most every
        PROGRESS_EVERY_S (the job's end writes its total). Raises Superseded when the job was taken from
        this run."""
        now = time.monotonic()
        if total is None and self._written_done > 0 and now - self._written_at < PROGRESS_EVERY_S:
            return
        self._written_done, self._written_at = done, now
        values: dict[str, Any] = {"done": done, "heartbeat_at": utcnow()}
        if total is not None:
            values["total"] = total
        with session_factory()() as db:
            if not db.execute(_mine(self.job_id, self.attempt).values(**values)).rowcount:  # type: ignore[attr-defined]
                raise Superseded
            db.commit()

    def input(self) -> bytes:
        """The file the job was queued with (enqueue's `input`)."""
        assert self.input_file is not None
        return files.get_file_store().get(self.input_file)

    def input_copy(self, suffix: str) -> Path:
        """A copy of that file in the scratch folder (see scratch), made in pieces: a large input (a
        course package) never goes through memory, and the handler may move it into the store."""
        assert self.input_file is not None
        path = self.scratch(suffix)
        with files.get_file_store().open(self.input_file) as source, path.open("wb") as out:
            shutil.copyfileobj(source, out, 1 << 20)
        return path

    def scratch(self, suffix: str) -> Path:
        """A new file's path in this process's scratch folder: removed when the job ends, whatever
        becomes of it, or when Spot starts again after this process was killed (core.files)."""
        path = files.scratch_folder() / f"job-{self.job_id}-{self.attempt}-{len(self._scratch)}{suffix}"
        self._scratch.append(path)
        return path


class Handler(Protocol):
    def __call__(self, db: Session, work: Work) -> Output:
        """Do the job in `db` (committed with the job's success, rolled back if it fails)."""
        ...


_KINDS: dict[str, Handler] = {}


def register(kind: str, handler: Handler) -> None:
    _KINDS[kind] = handler


def kinds() -> list[str]:
    return sorted(_KINDS)


# Queueing ---------------------------------------------------------------------------------------------

_TO_DISPATCH = "spot_jobs_queued"
# Set when a job is queued in this process: its runner threads, if any, look at once.
_WAKE = threading.Event()


def enqueue(
    db: Session,
    *,
    owner_id: int,
    kind: str,
    parameters: dict[str, Any],
    language: i18n.Language,
    input: bytes | Path | None = None,
    input_extension: str = "bin",
) -> Job:
    """A new job in `db`'s transaction, with the file it works from (`input`, its bytes or a file that
    is moved, not copied: stored with it, removed once it finished); the runners are told once it
    commits."""
    if kind not in _KINDS:
        raise ValueError(f"unknown job kind {kind!r}")
    input_file = None
    if isinstance(input, Path):
        input_file = files.store_path(db, input, extension=input_extension)
    elif input is not None:
        input_file = files.store(db, input, extension=input_extension)
    job = Job(
        input_file=input_file,
        owner_id=owner_id,
        kind=kind,
        parameters=parameters,
        language=language,
        status=JobStatus.queued,
        done=0,
        total=0,
        attempts=0,
        created_at=utcnow(),
    )
    db.add(job)
    db.flush()
    if db.get_bind().dialect.name == "postgresql":
        from spot.jobs import queue

        queue.defer(db, job.id)
    db.info.setdefault(_TO_DISPATCH, []).append(job.id)
    return job


@sa_event.listens_for(Session, "after_commit")
def _after_commit(db: Session) -> None:
    if db.info.pop(_TO_DISPATCH, None):
        _WAKE.set()


@sa_event.listens_for(Session, "after_rollback")
def _after_rollback(db: Session) -> None:
    db.info.pop(_TO_DISPATCH, None)


# Running one ------------------------------------------------------------------------------------------


def _mine(job_id: int, attempt: int) -> Any:
    """An UPDATE of the job while this run still holds it."""
    return update(Job).where(Job.id == job_id, Job.status == JobStatus.running, Job.attempts == attempt)


def _claim(job_id: int, queue_id: int | None) -> int | None:
    """Take the queued job: its attempt number, or None when it is not queued (another took it, or it
    is done)."""
    now = utcnow()
    with session_factory()() as db:
        attempts = db.scalar(select(Job.attempts).where(Job.id == job_id, Job.status == JobStatus.queued))
        if attempts is None:
            return None
        taken = db.execute(
            update(Job)
            .where(Job.id == job_id, Job.status == JobStatus.queued, Job.attempts == attempts)
            .values(
                status=JobStatus.running,
                attempts=attempts + 1,
                started_at=now,
                heartbeat_at=now,
                queue_id=queue_id,
                done=0,
            )
        )
        if not taken.rowcount:  # type: ignore[attr-defined]
            return None
        db.commit()
        return int(attempts) + 1


def _claim_next() -> tuple[int, int] | None:
    """Take the oldest queued job (SQLite's runner threads): (id, attempt), or None."""
    with session_factory()() as db:
        candidates = list(
            db.scalars(select(Job.id).where(Job.status == JobStatus.queued).order_by(Job.id).limit(5))
        )
    for job_id in candidates:
        attempt = _claim(job_id, None)
        if attempt is not None:
            return job_id, attempt
    return None


class _Heartbeat:
    """A thread beating the job's heartbeat while its run works."""

    def __init__(self, job_id: int, attempt: int) -> None:
        self.stop = threading.Event()
        self.thread = threading.Thread(
            target=self._run, args=(job_id, attempt), name=f"spot-job-{job_id}-heartbeat", daemon=True
        )

    def _run(self, job_id: int, attempt: int) -> None:
        every = _heartbeat().total_seconds()
        while not self.stop.wait(every):
            try:
                with session_factory()() as db:
                    db.execute(_mine(job_id, attempt).values(heartbeat_at=utcnow()))
                    db.commit()
            except OperationalError:  # SQLite: the job's own import holds the write lock; next beat
                log.debug("job %s: heartbeat skipped", job_id)

    def __enter__(self) -> "_Heartbeat":
        self.thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stop.set()
        self.thread.join(timeout=30)


def _finished(status: JobStatus, **values: Any) -> dict[str, Any]:
    now = utcnow()
    hours = timedelta(hours=get_settings().job_result_hours)
    return {"status": status, "finished_at": now, "expires_at": now + hours, "heartbeat_at": None} | values


def _fail(
    job_id: int,
    attempt: int,
    error: str,
    summary: dict[str, Any] | None = None,
    input_file: str | None = None,
) -> None:
    with session_factory()() as db:
        values = _finished(JobStatus.failed, error=error, summary=summary, input_file=None)
        if db.execute(_mine(job_id, attempt).values(**values)).rowcount:  # type: ignore[attr-defined]
            files.retired(db, input_file)
        db.commit()


def execute(job_id: int, queue_id: int | None = None) -> bool:
    """Run the job if it is queued (taken by this run); whether it was."""
    attempt = _claim(job_id, queue_id)
    if attempt is None:
        return False
    _run(job_id, attempt)
    return True


def _run(job_id: int, attempt: int) -> None:
    with session_factory()() as db:
        job = db.get(Job, job_id)
        assert job is not None
        kind, owner_id, parameters, language = job.kind, job.owner_id, job.parameters, job.language
        input_file = job.input_file
        db.rollback()
    log.info("job %s (%s) attempt %s started", job_id, kind, attempt)
    work: Work | None = None
    with _Heartbeat(job_id, attempt), session_factory()() as db:
        try:
            work = Work(
                job_id=job_id,
                attempt=attempt,
                owner=principal_of(db, user_id=owner_id),
                parameters=parameters,
                language="en" if language == "en" else "fr",
                input_file=input_file,
                _scratch=[],
            )
            handler = _KINDS.get(kind)
            if handler is None:
                raise ApiError(422, "unknownJobKind")
            output = handler(db, work)
            result = None
            if output.path is not None:
                result = files.store_path(db, output.path, extension=output.extension)
            values = _finished(
                JobStatus.succeeded,
                done=Job.total,
                input_file=None,
                result_file=result,
                download_name=output.download_name,
                media_type=output.media_type,
                summary=output.summary,
            )
            if not db.execute(_mine(job_id, attempt).values(**values)).rowcount:  # type: ignore[attr-defined]
                raise Superseded
            files.retired(db, input_file)
            notices.ready(db, job_id=job_id)
            db.commit()
            log.info("job %s (%s) succeeded", job_id, kind)
        except Superseded:
            db.rollback()
            log.info("job %s: taken from attempt %s, its work is thrown away", job_id, attempt)
        except ApiError as exc:
            db.rollback()
            errors = [{"field": e.field, "code": e.code} for e in exc.errors]
            _fail(job_id, attempt, exc.message, {"errors": errors} if errors else None, input_file)
            log.info("job %s (%s) refused: %s", job_id, kind, exc.message)
        except Exception:
            db.rollback()
            log.exception("job %s (%s) failed", job_id, kind)
            _fail(job_id, attempt, FAILED, input_file=input_file)
        finally:
            for path in work._scratch if work is not None else ():
                path.unlink(missing_ok=True)


def run_pending() -> int:
    """Run every queued job, one after the other, in this thread (the command line, the tests); how
    many ran."""
    ran = 0
    while (taken := _claim_next()) is not None:
        _run(*taken)
        ran += 1
    return ran


# The sweep --------------------------------------------------------------------------------------------


def sweep(now: datetime | None = None) -> dict[str, int]:
    """Jobs left by dead runners queued again (on PostgreSQL, their procrastinate job with them) or
    failed; finished jobs past their time removed with their files."""
    now = now or utcnow()
    stale_before = now - _heartbeat() * STALE_BEATS
    counts = {"requeued": 0, "interrupted": 0, "expired": 0}
    postgres = get_engine().dialect.name == "postgresql"
    with session_factory()() as db:
        stale = db.execute(
            select(Job.id, Job.attempts, Job.queue_id, Job.input_file).where(
                Job.status == JobStatus.running, Job.heartbeat_at < stale_before
            )
        ).all()
        for job_id, attempts, queue_id, input_file in stale:
            again = attempts < MAX_ATTEMPTS
            values = (
                {"status": JobStatus.queued, "heartbeat_at": None, "done": 0}
                if again
                else _finished(JobStatus.failed, error=INTERRUPTED, input_file=None)
            )
            guard = (Job.id == job_id, Job.status == JobStatus.running, Job.attempts == attempts)
            taken = update(Job).where(*guard, Job.heartbeat_at < stale_before).values(**values)
            if not db.execute(taken).rowcount:  # type: ignore[attr-defined]
                continue
            if not again:
                files.retired(db, input_file)
            if postgres:
                # Its procrastinate job, left `doing`, runs again: it takes the row if it was queued
                # again, and ends at once if it failed.
                from spot.jobs import queue

                queue.rerun(db, queue_id, job_id)
            db.commit()
            log.warning(
                "job %s: its runner stopped during attempt %s; %s",
                job_id,
                attempts,
                "queued again" if again else "failed",
            )
            counts["requeued" if again else "interrupted"] += 1
            _WAKE.set()
        expired = db.execute(
            select(Job.id, Job.result_file, Job.input_file)
            .where(Job.expires_at < now)
            .order_by(Job.id)
            .limit(500)
        ).all()
        for job_id, result, input_file in expired:
            db.execute(delete(Job).where(Job.id == job_id))
            files.retired(db, result)
            files.retired(db, input_file)
        counts["expired"] = len(expired)
        db.commit()
    return counts


# The runner -------------------------------------------------------------------------------------------

HOLDER = f"{socket.gethostname()}:{os.getpid()}"


def _loop(stop: threading.Event, every: float, step: Callable[[], object], name: str) -> threading.Thread:
    def run() -> None:
        while not stop.is_set():
            try:
                step()
            except Exception:  # the next round tries again
                log.exception("%s failed", name)
            stop.wait(every)

    thread = threading.Thread(target=run, name=name, daemon=True)
    thread.start()
    return thread


def _sqlite_runner(stop: threading.Event) -> None:
    while not stop.is_set():
        try:
            taken = _claim_next()
            if taken is not None:
                _run(*taken)
                continue
        except Exception:  # the database busy or away: the job, if taken, is swept and run again
            log.exception("the job runner's round failed")
            stop.wait(POLL_S)
        _WAKE.wait(POLL_S)
        _WAKE.clear()


def start() -> Callable[[], None]:
    """Start this process's runner (jobs and the sweep) in threads; returns what stops it."""
    stop = threading.Event()
    threads: list[threading.Thread] = []
    if get_engine().dialect.name == "postgresql":
        from spot.jobs import queue

        def procrastinate_worker() -> None:
            # procrastinate's worker stops when the database goes away (a restart): started again
            # until Spot stops, so that jobs run again once it is back.
            while not stop.is_set():
                try:
                    queue.work(lambda job_id, queue_id: execute(job_id, queue_id), stop, name=HOLDER)
                except Exception:
                    log.exception("the job worker stopped; it starts again in %s s", RESTART_S)
                stop.wait(RESTART_S)

        threads.append(threading.Thread(target=procrastinate_worker, name="spot-jobs", daemon=True))
        threads[-1].start()
    else:
        for n in range(THREADS):
            threads.append(
                threading.Thread(target=_sqlite_runner, args=(stop,), name=f"spot-jobs-{n}", daemon=True)
            )
            threads[-1].start()
    every = _heartbeat().total_seconds()
    threads.append(_loop(stop, every, sweep, "spot-jobs-sweep"))

    def halt() -> None:
        stop.set()
        _WAKE.set()
        for thread in threads:
            thread.join(timeout=30)

    return halt
