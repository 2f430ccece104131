"""The floor: a bare ASGI handler (no framework) answering a call with the very SQL Spot ran for it.

The statements are captured from one real request to Spot (SQLAlchemy's cursor events), then this
app replays them with the plain driver on every request and answers their rows as JSON.
"""

import json
import os
import sqlite3
import threading
from typing import Any

_local = threading.local()


def _connect() -> Any:
    url = os.environ["FLOOR_DATABASE_URL"]
    if url.startswith("sqlite"):
        from spot.db import sqlite_pragmas

        conn = sqlite3.connect(url.split("///", 1)[1], check_same_thread=False)
        sqlite_pragmas(conn)  # Spot's settings, and unaccent_lower() that the same SQL calls
        return conn
    import psycopg

    return psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://"))


def _statements() -> list[tuple[str, Any, bool]]:
    with open(os.environ["FLOOR_STATEMENTS"]) as handle:
        return [(s, p if isinstance(p, dict) else tuple(p), planned) for s, p, planned in json.load(handle)]


STATEMENTS = _statements()


def _run() -> bytes:
    conn = getattr(_local, "conn", None)
    if conn is None:
        conn = _local.conn = _connect()
    rows: list[Any] = []
    cursor = conn.cursor()
    for statement, params, planned in STATEMENTS:
        if planned and not isinstance(conn, sqlite3.Connection):
            cursor.execute(statement, params, prepare=False)  # as Spot runs it (spot.db.CUSTOM_PLAN)
        else:
            cursor.execute(statement, params)
        if cursor.description:
            rows.append(cursor.fetchall())
    conn.commit()  # one transaction per request, as Spot's
    return json.dumps(rows, default=str).encode()


async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] != "http":
        return
    while (await receive()).get("more_body"):
        pass
    body = _run()
    await send(
        {"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]}
    )
    await send({"type": "http.response.body", "body": body})
