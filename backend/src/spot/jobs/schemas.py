from datetime import datetime
from typing import Any, Literal

from pydantic import Field

from spot.core.schemas import CamelModel


class JobCan(CamelModel):
    """What the signed-in user may do with the job, from spot.jobs.policy."""

    download: bool


class JobError(CamelModel):
    field: str
    code: str


class JobOut(CamelModel):
    """A job of the signed-in user: what it does, how far it is, and its result."""

    id: int
    kind: str = Field(description="What it makes: reportZip (the path report's zip of PDFs), …")
    status: Literal["queued", "running", "succeeded", "failed"]
    done: int = Field(ge=0, description="Done so far (learners, rows…), of total")
    total: int = Field(ge=0, description="0 until the job knows how much it has to do")
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    expires_at: datetime | None = Field(description="When the job and its result are removed")
    download_name: str | None = Field(description="The result's file name, once it succeeded")
    error: str | None = Field(description="A message key, when it failed (jobInterrupted, nothingToPrint…)")
    errors: list[JobError] = Field(description="The field errors of a refused job (an import's)")
    summary: dict[str, Any] | None = Field(description="What the job did, when it says (an import's counts)")
    can: JobCan


class JobList(CamelModel):
    """The user's jobs, newest first (those not removed yet)."""

    results: list[JobOut]
