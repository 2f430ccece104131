import gc
import importlib
import logging
import mimetypes
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.responses import FileResponse, RedirectResponse, Response
from starlette.types import ASGIApp

from spot.account.routes import passwords_router
from spot.account.routes import router as account_router
from spot.alerts.routes import router as alerts_router
from spot.apitokens.routes import router as api_tokens_router
from spot.config import get_settings
from spot.core import files
from spot.core.errors import error_response, install_error_handlers
from spot.core.routing import API_PREFIX
from spot.core.security_headers import SecurityHeaders
from spot.dashboards.matrix_routes import router as matrix_router
from spot.dashboards.routes import router as dashboards_router
from spot.db import get_engine, start_sqlite_checkpoints
from spot.discussions.routes import router as discussions_router
from spot.documents.routes import router as documents_router
from spot.filters.routes import router as filters_router
from spot.history.routes import router as history_router
from spot.jobs import runner as jobs
from spot.jobs.routes import router as jobs_router
from spot.labels.routes import router as labels_router
from spot.lms.routes import router as lms_router
from spot.lms.satisfaction_routes import router as lms_satisfaction_router
from spot.lms.scorm.routes import router as lms_scorm_router
from spot.mapping.routes import router as mapping_router
from spot.mapping.visibility_routes import router as visibility_router
from spot.mediations.routes import router as mediations_router
from spot.notifications import scan as daily_scan
from spot.notifications import sender
from spot.notifications.preferences.routes import router as notification_preferences_router
from spot.notifications.routes import mediation_router as invitations_router
from spot.notifications.routes import router as notifications_router
from spot.operations import backup as backups
from spot.operations.metrics import Observe
from spot.operations.routes import metrics_page
from spot.operations.routes import router as operations_router
from spot.organization.routes import router as organization_router
from spot.people.routes import router as people_router
from spot.qualifications.coverage_routes import router as coverage_router
from spot.qualifications.forecast_routes import router as forecast_router
from spot.qualifications.routes import router as qualifications_router
from spot.querylang.routes import querylang_router
from spot.querylang.users import router as user_query_router
from spot.references.routes import router as references_router
from spot.reports.pdf_routes import router as report_pdfs_router
from spot.reports.routes import router as reports_router
from spot.resources.routes import router as resources_router
from spot.scim.routes import router as scim_router
from spot.search.routes import router as search_router
from spot.subjects.mindmap.routes import router as mind_map_router
from spot.subjects.routes import router as subjects_router
from spot.training.modules.routes import router as training_modules_router
from spot.training.paths.element_routes import router as training_path_elements_router
from spot.training.paths.routes import router as training_paths_router
from spot.users.permission_routes import router as permissions_router
from spot.users.routes import router as users_router

log = logging.getLogger(__name__)

SPA_PREFIX = "/spotv2"

# FastAPI tries routes one after the other (each try's cost is in docs/performance.md), so the most
# called areas come first: subject and map pages and lists. No two areas' routes can match the same request
# (tests/core/test_routes.py), so this order changes nothing but the time to find a route.
ROUTERS: list[APIRouter] = [subjects_router, mapping_router, querylang_router, user_query_router]
ROUTERS += [filters_router, account_router, users_router, passwords_router, permissions_router]
ROUTERS += [visibility_router, organization_router]
ROUTERS += [resources_router, people_router, api_tokens_router, notifications_router]
ROUTERS += [notification_preferences_router]
ROUTERS += [alerts_router]
ROUTERS += [discussions_router]
ROUTERS += [history_router]
ROUTERS += [search_router]
ROUTERS += [mediations_router, invitations_router]
ROUTERS += [references_router]
ROUTERS += [training_modules_router]
ROUTERS += [lms_router, lms_satisfaction_router, lms_scorm_router]
ROUTERS += [training_path_elements_router, training_paths_router]
ROUTERS += [dashboards_router, matrix_router]
ROUTERS += [qualifications_router, forecast_router, coverage_router]
ROUTERS += [reports_router]
ROUTERS += [report_pdfs_router]
ROUTERS += [documents_router]
ROUTERS += [mind_map_router]
ROUTERS += [labels_router]
ROUTERS += [operations_router]
ROUTERS += [jobs_router]
# Last: its own catch-all answers SCIM errors for any other address under its prefix.
ROUTERS += [scim_router]

# The modules where areas register their bell providers (alerts.service.register), loaded with the app:
# the bell imports no area.
BELL_MODULES = ["spot.subjects.alerts", "spot.mediations.actionable", "spot.training.paths.alerts"]
BELL_MODULES += ["spot.qualifications.alerts", "spot.notifications.coverage"]
BELL_MODULES += ["spot.jobs.alerts"]

# The modules where areas register their kinds of job (jobs.runner.register), loaded with the app and by
# `spot worker`: jobs imports no area that makes them.
JOB_MODULES = ["spot.reports.jobs", "spot.people.jobs", "spot.mapping.jobs", "spot.lms.jobs"]
# Set by `spot serve --no-jobs`: its processes serve requests and leave jobs to `spot worker`.
NO_JOBS = "SPOT_SERVE_NO_JOBS"


def load_job_kinds() -> None:
    for name in JOB_MODULES:
        importlib.import_module(name)


# The installable app's manifest (docs/installable-app.md), which Python's table of types does not know.
mimetypes.add_type("application/manifest+json", ".webmanifest")


def _mount_spa(app: FastAPI, dist: Path) -> None:
    index = dist / "index.html"

    @app.get("/", include_in_schema=False)
    def root() -> RedirectResponse:
        return RedirectResponse(f"{SPA_PREFIX}/")

    @app.get(SPA_PREFIX, include_in_schema=False)
    @app.get(SPA_PREFIX + "/{path:path}", include_in_schema=False)
    def spa(path: str = "") -> Response:
        """Built files as they are; any other path is a client route and gets index.html."""
        candidate = (dist / path).resolve() if path and "\x00" not in path else dist
        if candidate.is_file() and candidate.is_relative_to(dist.resolve()):
            cache = "public, max-age=31536000, immutable" if path.startswith("assets/") else "no-cache"
            media_type = mimetypes.guess_type(candidate.name)[0]
            return FileResponse(candidate, media_type=media_type, headers={"Cache-Control": cache})
        if not index.is_file():
            return error_response(404, "The client is not built: run `make run`")
        return FileResponse(index, headers={"Cache-Control": "no-cache"})


@asynccontextmanager
async def _lifespan(_app: FastAPI) -> AsyncIterator[None]:
    """What start-up built (modules, routes, compiled statements) lives as long as the process: frozen,
    it is out of the garbage collector's sight, whose full collections walked it all in the middle of
    a request (docs/performance.md, "nothing pauses a request"). On SQLite, checkpoints run in
    the background while the app serves; the outbox's sender sends what is queued, and the daily scan
    runs at its hour (notifications.scan), and jobs run (jobs.runner) unless `spot serve --no-jobs`.
    What processes
    killed before left in their scratch folders (partial uploads, files of uncommitted transactions) is
    cleaned first (core.files)."""
    gc.collect()
    gc.freeze()
    engine = get_engine()
    store = files.get_file_store()  # an object store's client made now, not in a request that needs it
    files.clean_scratch(engine)
    try:  # what a backup killed midway held, once its hold lapsed (docs/operations.md, "Backups")
        backups.release_held_deletions(engine, store)
    except Exception:  # the next start or backup does it
        log.warning("held file deletions not released at start", exc_info=True)
    stop_checkpoints = start_sqlite_checkpoints(engine) if engine.dialect.name == "sqlite" else None
    stop_sender = sender.start()
    stop_daily_scan = daily_scan.start()
    stop_jobs = jobs.start() if not os.environ.get(NO_JOBS) else None
    try:
        yield
    finally:
        if stop_jobs:
            stop_jobs()
        stop_daily_scan()
        stop_sender()
        if stop_checkpoints:
            stop_checkpoints()


class _App(FastAPI):
    def build_middleware_stack(self) -> ASGIApp:
        # Outermost, around Starlette's ServerErrorMiddleware too: a 500 carries the headers as well.
        # Inside it, what operations see of each request (its id, count, time and log line), once its
        # answer, a 500 included, is sent.
        return SecurityHeaders(Observe(super().build_middleware_stack()))


def create_app() -> FastAPI:
    app = _App(
        title="Spot",
        lifespan=_lifespan,
        version="2",
        openapi_url=f"{API_PREFIX}/openapi.json",
        docs_url=f"{API_PREFIX}/docs",
        redoc_url=None,
    )
    install_error_handlers(app)
    for name in BELL_MODULES:
        importlib.import_module(name)
    load_job_kinds()
    # The areas' routes, complete as declared (core.routing.api_router), listed in the app itself:
    # an included router is a subtree that FastAPI walks two or three times per request (the cost is in
    # docs/performance.md, "How requests run").
    for router in ROUTERS:
        app.router.routes.extend(router.routes)
    # Where Prometheus looks, outside the API's prefix.
    app.add_api_route("/metrics", metrics_page, methods=["GET"], include_in_schema=False)
    _mount_spa(app, get_settings().frontend_dist)
    return app
