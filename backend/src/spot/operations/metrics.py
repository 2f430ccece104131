"""What every request leaves for operations (its id, its log line), and the Prometheus metrics (`GET
/metrics`, docs/operations.md): requests by route template and status, their
latency, the outbox's messages and the jobs by status, in the text format of prometheus-client.

Served by several processes (`spot serve --workers N`), each keeps its counts in the folder that
PROMETHEUS_MULTIPROC_DIR names (set by `spot serve`), and a scrape, whichever process answers it,
reads them all."""

import os
import time
import uuid
from collections.abc import Iterator

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector
from sqlalchemy import func, select
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from spot.db import get_engine
from spot.jobs.models import Job, JobStatus
from spot.notifications.models import MessageStatus, OutboxMessage
from spot.operations import logs

MULTIPROCESS_FOLDER = "PROMETHEUS_MULTIPROC_DIR"
# A request no route took (an unknown address): one label for all, never the address itself.
UNMATCHED = "unmatched"

# Spot's own registry, without the default one's process and platform collectors.
_REGISTRY = CollectorRegistry()

REQUESTS = Counter(
    "spot_http_requests",
    "HTTP requests answered, by method, route template and status.",
    ["method", "route", "status"],
    registry=_REGISTRY,
)
LATENCY = Histogram(
    "spot_http_request_duration_seconds",
    "Time from a request's arrival to the end of its answer, by method and route template.",
    ["method", "route"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60),
    registry=_REGISTRY,
)


class Observe:
    """ASGI middleware around every HTTP request: its id (the one a proxy sent when plain, else a new
    one), answered in `X-Request-Id` and carried by the log lines written meanwhile; once the answer is
    sent (or has failed: 500), its count, its time, and its log line."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500
        sent = dict(scope["headers"]).get(b"x-request-id", b"").decode("latin-1")
        request_id = sent if logs.SAFE_ID.fullmatch(sent) else uuid.uuid4().hex
        token = logs.REQUEST_ID.set(request_id)

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [*message.get("headers", []), (b"x-request-id", request_id.encode())]
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            seconds = time.perf_counter() - started
            route = getattr(scope.get("route"), "path", None) or UNMATCHED
            method = scope["method"]
            REQUESTS.labels(method, route, str(status)).inc()
            LATENCY.labels(method, route).observe(seconds)
            logs.access(method, scope["path"], route, status, seconds)
            logs.REQUEST_ID.reset(token)


class OutboxCollector(Collector):
    """The outbox's messages by status, counted when Prometheus asks (one grouped statement)."""

    def collect(self) -> Iterator[GaugeMetricFamily]:
        family = GaugeMetricFamily(
            "spot_outbox_messages", "Messages of the outbox, by status.", labels=["status"]
        )
        with get_engine().connect() as conn:
            counts = dict(
                conn.execute(select(OutboxMessage.status, func.count()).group_by(OutboxMessage.status)).all()
            )
        for status in MessageStatus:
            family.add_metric([status.value], counts.get(status.value, 0))
        yield family


class JobsCollector(Collector):
    """The jobs by status (`queued`, `running`, `succeeded`, `failed`; docs/operations.md, "Jobs"),
    counted when Prometheus asks (one grouped statement): a queue that grows, or failures, show."""

    def collect(self) -> Iterator[GaugeMetricFamily]:
        family = GaugeMetricFamily("spot_jobs", "Jobs, by status.", labels=["status"])
        with get_engine().connect() as conn:
            counts = dict(conn.execute(select(Job.status, func.count()).group_by(Job.status)).all())
        for status in JobStatus:
            family.add_metric([status.value], counts.get(status.value, 0))
        yield family


_REGISTRY.register(OutboxCollector())
_REGISTRY.register(JobsCollector())


def exposition() -> tuple[bytes, str]:
    """The metrics page and its content type: this process's counts, or every process's when they
    share a folder."""
    if not os.environ.get(MULTIPROCESS_FOLDER):
        return generate_latest(_REGISTRY), CONTENT_TYPE_LATEST
    registry = CollectorRegistry()
    MultiProcessCollector(registry)
    registry.register(OutboxCollector())
    registry.register(JobsCollector())
    return generate_latest(registry), CONTENT_TYPE_LATEST
