from enum import StrEnum

from spot.core.schemas import CamelModel


class Check(StrEnum):
    ok = "ok"
    # The database did not answer a trivial statement.
    unreachable = "unreachable"
    # The database answers, but its schema is not the code's (spot migrate has not run).
    behind = "behind"
    # The file store cannot be written to.
    unwritable = "unwritable"


class Live(CamelModel):
    status: str = "live"


class Readiness(CamelModel):
    """`ready` when every check is ok (200); `notReady` with the failed ones otherwise (503)."""

    status: str
    database: Check
    migrations: Check
    file_store: Check
