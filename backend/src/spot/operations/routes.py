"""Health for load balancers and orchestrators (unauthenticated, cheap) and the Prometheus metrics page."""

from typing import Any

from fastapi import Request
from fastapi.responses import JSONResponse, Response

from spot.core.errors import forbidden
from spot.core.routing import api_router, work
from spot.operations import metrics, policy, service
from spot.operations.schemas import Live, Readiness

router = api_router(tags=["operations"])


@router.get("/health/live")
async def live() -> Live:
    """The process answers: nothing else is asked (a load balancer restarts a process that does not)."""
    return Live()


NOT_READY: dict[int | str, dict[str, Any]] = {
    503: {"model": Readiness, "description": "A check failed: this process should get no traffic."}
}


@router.get("/health/ready", response_model=Readiness, responses=NOT_READY)
@work
def ready() -> JSONResponse:
    """Whether this process may take traffic: the database answers, its migrations are the code's,
    the file store takes files. 200 `ready`, else 503 `notReady` with what failed."""
    found = service.readiness()
    status = 200 if found.status == "ready" else 503
    return JSONResponse(found.model_dump(mode="json", by_alias=True), status_code=status)


def metrics_page(request: Request) -> Response:
    """`GET /metrics` (outside the API's prefix, where Prometheus looks): 403 metricsNotAllowed from an
    address SPOT_METRICS_ALLOW does not list."""
    if not policy.may_read_metrics(request.client.host if request.client else None):
        raise forbidden("metricsNotAllowed")
    body, content_type = metrics.exposition()
    return Response(body, media_type=content_type, headers={"Cache-Control": "no-store"})
