from enum import StrEnum

from spot.core.schemas import CamelModel


class Check(StrEnum):
    ok = "ok"
    # The database did not answer a trivial statement.
    unreachable = "unreachable"
    # The database answers, but its schema is older than the code's (spot migrate has not run).
    behind = "behind"
    # The database's schema is newer than the code: a release's migrations ran while this server, of
    # the release before, goes on serving until it is replaced (a rolling upgrade). Ready.
    ahead = "ahead"
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
