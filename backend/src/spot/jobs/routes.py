"""The signed-in user's jobs: their list, one with its progress, and its result."""

from typing import Annotated

from fastapi import Path, Request
from fastapi.responses import Response

from spot.core import files
from spot.core.auth import DB, CurrentUser
from spot.core.routing import api_router
from spot.core.schemas import Id
from spot.jobs import service
from spot.jobs.schemas import JobList, JobOut

router = api_router(tags=["jobs"])


@router.get("/jobs")
async def jobs(db: DB, user: CurrentUser) -> JobList:
    """The user's jobs (a zip of PDFs, an export, an import they asked for), newest first, each with its
    progress and, once it succeeded, its result's name; until they expire (SPOT_JOB_RESULT_HOURS after
    they finished)."""
    return service.listed(db, user=user)


@router.get("/jobs/{jobId:id}")
async def job(db: DB, user: CurrentUser, jobId: Annotated[Id, Path()]) -> JobOut:
    """One job of the user, with its progress (done of total) and what they may do with it
    (can.download). 404 jobNotFound for an unknown job, another user's, or one removed."""
    return service.out(user, service.get(db, user=user, job_id=jobId))


@router.get(
    "/jobs/{jobId:id}/result",
    response_class=Response,
    responses={200: {"content": {"application/octet-stream": {}}, "description": "The job's result"}},
)
async def result(request: Request, db: DB, user: CurrentUser, jobId: Annotated[Id, Path()]) -> Response:
    """The job's result, as a download under its name (its owner only: 404 jobNotFound for anyone
    else, or once it expired); 409 jobNotReady while it is queued or running, jobFailed when it failed.
    The first download takes its alert off the bell."""
    return files.serve(request, service.result(db, user=user, job_id=jobId))
