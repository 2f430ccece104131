"""The queue on PostgreSQL: procrastinate (its tables made by a migration, 0049), which tells a runner
at once (LISTEN/NOTIFY) that a job waits, hands each to one runner, and runs its work in a thread.

Spot's `job` row stays the record of the job (owner, progress, result): procrastinate's job only
carries its id, and the task it runs (`spot.jobs.run`) takes the row by a compare-and-set
(jobs.runner.execute), so that a job deferred twice runs once. The deferral is written in the
transaction that writes the row (procrastinate's statements on the session's connection): both are
committed, or neither; the queueing lock `spot-job-<id>` keeps one waiting at most."""

import asyncio
import contextlib
import logging
import threading
from collections.abc import Callable, Iterator
from typing import Any

import procrastinate
from procrastinate import exceptions
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

from spot.config import get_settings
from spot.core.time import utcnow

log = logging.getLogger("spot.jobs")

QUEUE = "spot"
TASK = "spot.jobs.run"
# Jobs run at once by a runner process (the machine's 2 cores).
CONCURRENCY = 2
# How long a stopping runner waits for the jobs it runs (then it stops; they are queued again).
GRACEFUL_SECONDS = 10.0


def conninfo() -> str:
    """The database's address as libpq reads it (SQLAlchemy's names its driver)."""
    url = make_url(get_settings().database_url).set(drivername="postgresql")
    return url.render_as_string(hide_password=False)


class _InTransaction(procrastinate.SyncPsycopgConnector):
    """procrastinate's statements on the connection of a session, inside its transaction: a job is
    deferred with the row that records it, or not at all."""

    def __init__(self, connection: Any) -> None:
        super().__init__()
        self._connection = connection

    @property
    def pool(self) -> Any:
        connection = self._connection

        class _One:
            @contextlib.contextmanager
            def connection(self) -> Iterator[Any]:
                yield connection

        return _One()


def _app(db: Session) -> procrastinate.App:
    return procrastinate.App(connector=_InTransaction(db.connection().connection.driver_connection))


def defer(db: Session, job_id: int) -> None:
    """Tell the runners, once `db`'s transaction commits, that job `job_id` waits (nothing when it
    already waits: its queueing lock)."""
    try:
        with db.begin_nested():
            _app(db).configure_task(TASK, queue=QUEUE, queueing_lock=f"spot-job-{job_id}").defer(
                job_id=job_id
            )
    except exceptions.AlreadyEnqueued:
        pass


def rerun(db: Session, queue_id: int | None, job_id: int) -> None:
    """A job whose runner died, queued again in `db`'s transaction: its procrastinate job (left
    `doing`) is run again; one that is not `doing` any more is deferred afresh."""
    if queue_id is not None:
        try:
            with db.begin_nested():
                _app(db).job_manager.retry_job_by_id(job_id=queue_id, retry_at=utcnow())
            return
        except exceptions.ProcrastinateException as exc:
            log.info("job %s: procrastinate job %s not retried (%s)", job_id, queue_id, exc)
    defer(db, job_id)


def _worker_app(run: Callable[[int, int], object]) -> procrastinate.App:
    app = procrastinate.App(connector=procrastinate.PsycopgConnector(conninfo=conninfo()))

    @app.task(name=TASK, queue=QUEUE, pass_context=True)
    def run_job(context: procrastinate.JobContext, job_id: int) -> None:
        # A plain function: procrastinate runs it in a thread, never on the worker's event loop.
        run(job_id, context.job.id or 0)

    return app


def work(run: Callable[[int, int], object], stop: threading.Event, *, name: str) -> None:
    """Run procrastinate's worker (in this thread, on an event loop of its own) until `stop` is set."""

    async def main() -> None:
        app = _worker_app(run)
        async with app.open_async():
            worker = asyncio.create_task(
                app.run_worker_async(
                    queues=[QUEUE],
                    name=name,
                    concurrency=CONCURRENCY,
                    install_signal_handlers=False,
                    shutdown_graceful_timeout=GRACEFUL_SECONDS,
                    delete_jobs="successful",
                )
            )
            while not stop.is_set() and not worker.done():
                await asyncio.sleep(0.25)
            if not worker.done():
                worker.cancel()
            try:
                await worker
            except asyncio.CancelledError:
                pass

    asyncio.run(main())
