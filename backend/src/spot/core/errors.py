import logging
from collections.abc import Mapping, Sequence
from http import HTTPStatus
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from sqlalchemy.exc import DataError, IntegrityError, OperationalError
from sqlalchemy.orm.exc import StaleDataError
from starlette.exceptions import HTTPException as StarletteHTTPException

log = logging.getLogger("spot")


class FieldError(BaseModel):
    field: str
    code: str
    # Character offset of the error in a query-language text; left out of every other error.
    position: int | None = Field(default=None, ge=0, exclude_if=lambda value: value is None)


class ErrorBody(BaseModel):
    """The body of every non-2xx answer."""

    status: int
    reason: str
    message: str
    errors: list[FieldError] = []


class ApiError(Exception):
    def __init__(
        self,
        status: int,
        message: str,
        errors: list[FieldError] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.errors = errors or []
        self.headers = headers


def bad_request(message: str, field: str | None = None, code: str | None = None) -> ApiError:
    errors = [FieldError(field=field, code=code or message)] if field else []
    return ApiError(400, message, errors)


def not_found(message: str = "notFound") -> ApiError:
    return ApiError(404, message)


FIELD_NOT_EDITABLE = "fieldNotEditable"


def forbidden(message: str = "Insufficient rights to access this information") -> ApiError:
    return ApiError(403, message)


def ensure(allowed: bool) -> None:
    """403 unless a policy's answer allows it."""
    if not allowed:
        raise forbidden()


def conflict(message: str) -> ApiError:
    return ApiError(409, message)


def refuse_frozen_fields(changed: Mapping[str, bool], editable: frozenset[str], order: Sequence[str]) -> None:
    """409 fieldNotEditable naming, in the form's `order`, each field changed that the record's state
    does not let this user change now (the fields its `can.fields` showed as read-only)."""
    refused = [name for name in order if changed[name] and name not in editable]
    if refused:
        raise ApiError(
            409, FIELD_NOT_EDITABLE, [FieldError(field=name, code=FIELD_NOT_EDITABLE) for name in refused]
        )


def illegal_transition(current: str, field: str = "status") -> ApiError:
    """409 illegalTransition naming what stands in the way: the current status (or, with `field`, the
    current value of another field), for the client to show and reload (state machines' refusals)."""
    return ApiError(409, "illegalTransition", [FieldError(field=field, code=current)])


def error_response(
    status: int, message: str, errors: list[FieldError] | None = None, headers: dict[str, str] | None = None
) -> JSONResponse:
    body = ErrorBody(status=status, reason=HTTPStatus(status).phrase, message=message, errors=errors or [])
    return JSONResponse(body.model_dump(), status_code=status, headers=headers)


# Answers every route may give, so that the OpenAPI document describes them.
ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorBody, "description": HTTPStatus(code).phrase}
    for code in (400, 401, 403, 404, 409, 422)
}


def _field_name(loc: tuple[Any, ...]) -> str:
    parts = [str(p) for p in loc if p not in ("body", "query", "path", "header")]
    return ".".join(parts) or str(loc[-1] if loc else "")


def _out_of_reach(exc: OperationalError, sqlstate: str) -> bool:
    """The database did not answer: a connection lost (the pool saw it), PostgreSQL refusing or ending
    connections (SQLSTATE classes 08 and 57P: shutting down, starting, terminated), or no answer at all
    from its driver (no SQLSTATE: nothing listens, the network is cut)."""
    if exc.connection_invalidated or sqlstate.startswith(("08", "57P")):
        return True
    return not sqlstate and type(exc.orig).__module__.startswith("psycopg")


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return error_response(exc.status, exc.message, exc.errors, exc.headers)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        message = exc.detail if isinstance(exc.detail, str) else HTTPStatus(exc.status_code).phrase
        return error_response(exc.status_code, message, headers=getattr(exc, "headers", None))

    @app.exception_handler(RequestValidationError)
    async def _validation_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = []
        for err in exc.errors():
            code = err.get("type", "invalidValue")
            if code == "missing":
                code = "emptyFieldError"
            errors.append(FieldError(field=_field_name(tuple(err.get("loc", ()))), code=code))
        return error_response(422, "atLeastOneErrorLeft", errors)

    # Values the database cannot hold (NUL in text or too long a string on PostgreSQL, an integer beyond
    # 64 bits on SQLite) come from the request: bad input, not a server fault. Schemas should refuse them
    # first (core.schemas Str, Id); this keeps a missed one from answering 500.
    @app.exception_handler(DataError)
    @app.exception_handler(OverflowError)
    async def _unstorable_value(_request: Request, exc: Exception) -> JSONResponse:
        log.warning("value refused by the database: %s", str(exc).splitlines()[0])
        return error_response(400, "invalidValue")

    # A constraint the services check first (unique codes and logins, links to existing items) that a
    # concurrent request broke between the check and the write, in this process or another one.
    @app.exception_handler(IntegrityError)
    async def _conflicting(_request: Request, exc: IntegrityError) -> JSONResponse:
        log.warning("constraint refused the write: %s", str(exc.orig).splitlines()[0])
        return error_response(409, "conflictingData")

    # A row this request read was updated or deleted by another one before this one wrote it (a user
    # removed while their password changes, say). Versioned rows answer staleVersion themselves.
    @app.exception_handler(StaleDataError)
    async def _changed_meanwhile(_request: Request, exc: StaleDataError) -> JSONResponse:
        log.warning("row changed by a concurrent request: %s", str(exc).splitlines()[0])
        return error_response(409, "conflictingData")

    # PostgreSQL ended this request's transaction to let a concurrent one finish: a deadlock or a
    # serialization failure, SQLSTATE class 40. Nothing was written; the same request sent again
    # succeeds. The database out of reach (restarting, refusing connections, its connection lost
    # mid-request) is 503 for as long as it lasts: the pool drops the connections of before, and the
    # requests after it is back succeed without restarting Spot (tests/operations/test_database_outage.py).
    # Any other operational error is a fault.
    @app.exception_handler(OperationalError)
    async def _rolled_back(request: Request, exc: OperationalError) -> JSONResponse:
        sqlstate = str(getattr(exc.orig, "sqlstate", "") or "")
        if sqlstate.startswith("40"):
            log.warning("transaction rolled back by the database: %s", str(exc.orig).splitlines()[0])
            return error_response(409, "conflictingData")
        if _out_of_reach(exc, sqlstate):
            log.warning("database out of reach: %s", str(exc.orig).splitlines()[0])
            return error_response(503, "databaseUnavailable", headers={"Retry-After": "5"})
        if "database is locked" in str(exc.orig):
            # SQLite's one writer held the lock past the busy timeout (a long import's step, say):
            # nothing was written, and the same request sent again a moment later goes through.
            log.warning("SQLite busy: %s %s", request.method, request.url.path)
            return error_response(503, "databaseBusy", headers={"Retry-After": "1"})
        return await _unexpected(request, exc)

    @app.exception_handler(Exception)
    async def _unexpected(_request: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error", exc_info=exc)
        return error_response(500, "An unexpected server error occurred.")
