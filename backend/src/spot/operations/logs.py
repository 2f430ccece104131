"""Logs an operations team can read by machine (SPOT_LOG_FORMAT=json, docs/operations.md): one JSON
object a line, through python-json-logger, each line written while a request is served carrying the
request's id; and one line a request. In text (the default), the lines are as they always were."""

import logging
import logging.config
import re
from contextvars import ContextVar
from typing import Any

from pythonjsonlogger.json import JsonFormatter

from spot.config import get_settings

# The id of the request being served, for every line logged meanwhile (work threads included: they
# run in a copy of the request's context).
REQUEST_ID: ContextVar[str | None] = ContextVar("spot_request_id", default=None)
# An id a proxy or a client sent is kept when it is this plain; anything else is replaced.
SAFE_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s %(message)s"
ACCESS = logging.getLogger("spot.access")


class _WithRequestId(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = REQUEST_ID.get()
        return True


def _json_formatter() -> JsonFormatter:
    return JsonFormatter(
        "{levelname}{name}{message}{request_id}",
        style="{",
        # ISO 8601 in UTC (2026-11-30T09:18:03.888000+00:00).
        timestamp="time",
        rename_fields={
            "levelname": "level",
            "name": "logger",
            "request_id": "requestId",
            "exc_info": "exception",
        },
    )


def configure(log_format: str) -> None:
    """This process's logging (the CLI's commands), in the chosen format."""
    if log_format == "json":
        logging.config.dictConfig(logging_config(log_format))
    else:
        logging.basicConfig(level=logging.INFO, format=TEXT_FORMAT)


def logging_config(log_format: str) -> dict[str, Any]:
    """A dictConfig for uvicorn (each worker of `spot serve --workers N` applies it). In JSON, the root
    logger's one handler on standard error, which uvicorn's loggers go through; in text, uvicorn's own."""
    if log_format != "json":
        from uvicorn.config import LOGGING_CONFIG

        return LOGGING_CONFIG
    formatter = {"()": f"{__name__}._json_formatter"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"request_id": {"()": f"{__name__}._WithRequestId"}},
        "formatters": {"spot": formatter},
        "handlers": {
            "stderr": {"class": "logging.StreamHandler", "formatter": "spot", "filters": ["request_id"]}
        },
        "root": {"handlers": ["stderr"], "level": "INFO"},
        "loggers": {
            name: {"handlers": [], "propagate": True, "level": "INFO"}
            for name in ("uvicorn", "uvicorn.error", "uvicorn.access")
        },
    }


def access(method: str, path: str, route: str, status: int, seconds: float) -> None:
    """The line of a request served, in JSON only (text output stays quiet, as uvicorn's access log is
    off)."""
    if get_settings().log_format != "json":
        return
    fields = {"method": method, "path": path, "route": route, "status": status}
    ACCESS.info("request", extra={**fields, "ms": round(seconds * 1000, 1)})
