"""Long work as jobs (docs/operations.md, "Jobs"): a zip of PDFs, an export, an import, asked by one
person, run outside the request by a runner (jobs.runner), its progress and its result kept here.

A job is `queued`, then `running` (taken by a runner, which beats `heartbeat_at` while it works), then
`succeeded` (its result a stored file, written in the transaction that says so) or `failed` (a message
key). A runner that died leaves a running job whose heartbeat stops: the sweep queues it again while it
has attempts left, else marks it failed. Every finished job is kept until `expires_at`
(SPOT_JOB_RESULT_HOURS after it finished), then removed with its file."""

from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import JSON, BigInteger, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from spot.core import files
from spot.db import Base, UtcDateTime


class JobStatus(StrEnum):
    queued = "queued"
    running = "running"
    succeeded = "succeeded"
    failed = "failed"


class Job(Base):
    __tablename__ = "job"
    __table_args__ = (Index("ix_job_status", "status"), {"sqlite_autoincrement": True})

    id: Mapped[int] = mapped_column(primary_key=True)
    owner_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"), index=True)
    # What it does (a kind registered by its area: jobs.runner.register), and with what.
    kind: Mapped[str] = mapped_column(String(40))
    parameters: Mapped[dict[str, Any]] = mapped_column(JSON)
    # The language of the words of its result (Accept-Language of the request that asked for it).
    language: Mapped[str] = mapped_column(String(2))
    status: Mapped[str] = mapped_column(String(10), default=JobStatus.queued)
    # Progress: `done` of `total` (learners, rows…); total 0 until the job knows it.
    done: Mapped[int] = mapped_column(Integer, default=0)
    total: Mapped[int] = mapped_column(Integer, default=0)
    # A file the job works from (an import's upload), stored with it and removed when it finished.
    input_file: Mapped[str | None] = mapped_column(String(64))
    # The stored result (core.files), the name it downloads under, and its type.
    result_file: Mapped[str | None] = mapped_column(String(64))
    download_name: Mapped[str | None] = mapped_column(String(200))
    media_type: Mapped[str | None] = mapped_column(String(100))
    # What a failed job answers: a message key (nothingToPrint, jobInterrupted…).
    error: Mapped[str | None] = mapped_column(String(60))
    # A small JSON summary of what it did, for the client (an import's counts), when the job has one.
    summary: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    # Runs begun: 1 for the first; a run killed midway and queued again counts once more.
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    # On PostgreSQL, the procrastinate job running it (its own table's id).
    queue_id: Mapped[int | None] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime)
    started_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    heartbeat_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    finished_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    expires_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    # When its owner first downloaded the result: the bell stops showing it then.
    downloaded_at: Mapped[datetime | None] = mapped_column(UtcDateTime)


files.REFERENCES += [Job.result_file, Job.input_file]
