"""The one way to record that a user read or wrote a tracked item (DESIGN.md §4). The tables are the
history area's (history.models), which registers them as it loads."""

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal

from sqlalchemy import Insert, Table, bindparam, func, insert, select
from sqlalchemy.orm import Session

from spot.core.principal import Principal
from spot.core.time import utcnow
from spot.db import SAFE_REQUEST, load_models, plain


class Event(StrEnum):
    """The event kinds of spec 1 §3, plus 'deleted' so that deletions count as writes."""

    created = "created"
    updated = "updated"
    deleted = "deleted"
    mindMapUpdated = "mindMapUpdated"
    duplicatedFrom = "duplicatedFrom"
    followed = "followed"
    resolved = "resolved"
    criticity = "criticity"
    standardized = "standardized"
    statusChanged = "statusChanged"
    trackingPeriodsChanged = "trackingPeriodsChanged"
    mediationSigned = "mediationSigned"
    resourceCreated = "resourceCreated"
    resourceUpdated = "resourceUpdated"
    resourceDeleted = "resourceDeleted"


Mode = Literal["R", "W"]


# The history area's tables (history.models hands them over as it loads, so that core imports no area)
# and the statements built on them once, since every read of a tracked item runs one.
@dataclass(frozen=True)
class _Statements:
    entries: Table
    counters: Table
    # A plain INSERT rather than session.add: nothing reads the entry back in the request and the unit of
    # work costs more than the statement. The entry's cartography counter follows in the database
    # (trigger history_entry_counted).
    entry: Insert
    lazy_entry: Insert


_statements: _Statements | None = None
_COLUMNS = ["at", "user_id", "item_type", "item_id", "item_key", "item_name", "mode", "event"]
_COLUMNS += ["cartography_id"]


def register_tables(*, entries: Table, counters: Table) -> None:
    """history.models' history_entry and cartography_counter tables."""
    global _statements
    _statements = _Statements(entries, counters, insert(entries), _lazy_entry(entries))


def _tables() -> _Statements:
    if _statements is None:
        load_models()
    if _statements is None:
        raise RuntimeError("the history tables were not registered (spot.core.history_models registers them)")
    return _statements


def _lazy_entry(entries: Table) -> Insert:
    """On PostgreSQL, a GET writes only the tracking of reads (history, counters, visits), each in
    one statement that is its own transaction (db.request_db): it need not wait for its commit to reach
    the disk. A crash may lose the last fraction of a second of such tracking, never anything a user
    wrote, and the database stays consistent. The entry's INSERT says so itself (set_config, local to
    its transaction), saving a round trip."""
    lazily = func.set_config("synchronous_commit", "off", True) == "off"
    values = select(*(bindparam(name, type_=entries.c[name].type) for name in _COLUMNS)).where(lazily)
    return insert(entries).from_select(_COLUMNS, values)


def entry(
    *,
    user: Principal | None,
    item_type: str,
    item_id: int,
    item_key: str,
    item_name: str,
    mode: Mode,
    event: Event | None = None,
    cartography_id: int | None = None,
) -> dict[str, Any]:
    """The parameters of an entry's INSERT. A read carries no event; a write always says what happened."""
    if mode not in ("R", "W"):
        raise ValueError(f"unknown history mode {mode!r}")
    if mode == "W" and event is None:
        raise ValueError("a write needs an event kind")
    return {
        "at": utcnow(),
        "user_id": user.id if user else None,
        "item_type": item_type,
        "item_id": item_id,
        "item_key": item_key[:100],
        "item_name": item_name[:300],
        "mode": mode,
        "event": Event(event).value if event is not None else None,
        "cartography_id": cartography_id,
    }


def reads_lazily(db: Session, mode: Mode) -> bool:
    """Whether this entry goes in with _lazy_entry (a read of a GET on PostgreSQL)."""
    return mode == "R" and bool(db.info.get(SAFE_REQUEST)) and db.get_bind().dialect.name == "postgresql"


def lazy_read_with(statement: Insert) -> Insert:
    """The INSERT of a lazy read entry (see reads_lazily) that runs `statement`, another write of
    the same read's tracking, as a CTE: one round trip for both. Build it once; execute it with the
    entry's parameters and the statement's."""
    return _lazy_entry(_tables().entries).add_cte(statement.cte("along"))


def record(db: Session, values: dict[str, Any]) -> None:
    """Insert an entry built by entry(). An entry of a cartography also counts in that cartography's
    CartographyCounter, in the same transaction (a database trigger).

    Record after the reads of a request where possible: on SQLite the first write takes the
    database's write lock until the commit."""
    statements = _statements or _tables()
    plain(db).execute(statements.lazy_entry if reads_lazily(db, values["mode"]) else statements.entry, values)


def cartography_counts(db: Session, *, cartography_id: int) -> tuple[int, int]:
    """(reads, writes) recorded for the cartography."""
    counters = _tables().counters
    row = db.execute(
        select(counters.c.reads, counters.c.writes).where(counters.c.cartography_id == cartography_id)
    ).first()
    return (row.reads, row.writes) if row else (0, 0)
