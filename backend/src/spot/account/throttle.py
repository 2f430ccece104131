"""Throttling of failed sign-ins and re-authentications (DESIGN.md §5), per (login, client address), per
client address, and per login from every address (the account).

Each key may fail a few times freely; past that, each further failure makes the key wait before its
next attempt, twice as long as the previous wait, up to a bound. The pair and address keys make the
addresses that failed wait, so that one guesser cannot keep a password's owner out. The account key
bounds the guesses at one login from addresses without number (X-Forwarded-For is whatever a trusted
proxy passes on): past its free failures, every attempt at that login waits its turn, from any
address, the owner's too, since a guesser's new address and the owner's look alike. That is a delay,
never a lockout: it ends after the bound at most, and a right password then opens the session and
clears the account's count. The owner is told at their next sign-in how many wrong passwords were
given for their login meanwhile (service.login).

An attempt is counted before its password is checked, by a compare-and-set of the key's row
committed at once: however many attempts arrive together, each passes the check with a count of its
own, so no more than the free ones reach the password check. A right password then takes its
attempt back."""

import logging
import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from spot.account.models import LoginThrottle
from spot.config import get_settings
from spot.core.errors import ApiError
from spot.core.time import utcnow

log = logging.getLogger("spot.security")

THROTTLED_MESSAGE = "Too many failed login attempts, try again later"


@dataclass(frozen=True)
class _Rule:
    key: str
    free_failures: int


def _rules(login: str, address: str) -> list[_Rule]:
    settings = get_settings()
    address = address[:64]
    return [
        _Rule(f"pair\x1f{address}\x1f{login}", settings.login_free_failures_per_login),
        _Rule(f"address\x1f{address}", settings.login_free_failures_per_address),
        _Rule(f"account\x1f{login}", settings.login_free_failures_per_account),
    ]


def wait_after(failures: int, free_failures: int) -> timedelta:
    """How long a key waits after its `failures`-th failure in a row: nothing while they are free, then
    the first delay, doubled at each further failure, up to the bound."""
    settings = get_settings()
    beyond = failures - free_failures
    if beyond < 0:
        return timedelta(0)
    first, bound = settings.login_backoff_first_seconds, settings.login_backoff_max_seconds
    return timedelta(seconds=min(bound, first * 2 ** min(beyond, 30)))


def _claim(db: Session, rule: _Rule, now: datetime) -> datetime | None:
    """Count one attempt of the key; None when it may go on, else until when it must wait."""
    window = timedelta(minutes=get_settings().login_window_minutes)
    insert = pg_insert if db.get_bind().dialect.name == "postgresql" else sqlite_insert
    while True:
        db.execute(
            insert(LoginThrottle)
            .values(key=rule.key, failures=0, last_failure_at=now, blocked_until=None)
            .on_conflict_do_nothing(index_elements=[LoginThrottle.key])
        )
        row = db.execute(
            select(LoginThrottle.failures, LoginThrottle.last_failure_at, LoginThrottle.blocked_until)
            .where(LoginThrottle.key == rule.key)
            .execution_options(populate_existing=True)
        ).one_or_none()
        if row is None:  # forgotten by a concurrent attempt (check) since the INSERT
            continue
        failures, last, blocked_until = row
        if blocked_until is not None and blocked_until > now:
            return blocked_until
        # Failures older than the window are forgotten.
        counted = 0 if last < now - window else failures
        wait = wait_after(counted + 1, rule.free_failures)
        claimed = db.connection().execute(
            update(LoginThrottle)
            .where(LoginThrottle.key == rule.key, LoginThrottle.failures == failures)
            .values(failures=counted + 1, last_failure_at=now, blocked_until=now + wait if wait else None)
            .execution_options(synchronize_session=False)
        )
        if claimed.rowcount == 1:
            return None
        # Another attempt of the same key counted itself meanwhile: read its count and try again.


def check(db: Session, *, login: str, address: str) -> None:
    """Count an attempt before its password is checked, and commit that count (the password check
    awaits the thread pool; on SQLite a pending write would hold the database's write lock meanwhile).
    429 with Retry-After (seconds) when a key of the attempt must still wait; then nothing is counted."""
    now = utcnow()
    rules = _rules(login, address)
    for done, rule in enumerate(rules):
        blocked_until = _claim(db, rule, now)
        if blocked_until is not None:
            for claimed in rules[:done]:
                _release(db, claimed, now)
            db.commit()
            retry_after = max(1, math.ceil((blocked_until - now).total_seconds()))
            log.warning("login throttled login=%r address=%s retry_after=%s", login, address, retry_after)
            raise ApiError(429, THROTTLED_MESSAGE, headers={"Retry-After": str(retry_after)})
    # Rows of keys that have not failed within the window count for nothing: forget them.
    window = timedelta(minutes=get_settings().login_window_minutes)
    db.execute(
        delete(LoginThrottle).where(
            LoginThrottle.last_failure_at < now - window,
            (LoginThrottle.blocked_until.is_(None)) | (LoginThrottle.blocked_until < now),
        )
    )
    db.commit()


def _release(db: Session, rule: _Rule, now: datetime) -> None:
    """Take back an attempt counted by check(): one failure less, and the wait that count gives."""
    while True:
        row = db.execute(
            select(LoginThrottle.failures, LoginThrottle.last_failure_at)
            .where(LoginThrottle.key == rule.key)
            .execution_options(populate_existing=True)
        ).one_or_none()
        if row is None or row.failures == 0:
            return
        failures = row.failures - 1
        wait = wait_after(failures, rule.free_failures)
        released = db.connection().execute(
            update(LoginThrottle)
            .where(LoginThrottle.key == rule.key, LoginThrottle.failures == row.failures)
            .values(failures=failures, blocked_until=row.last_failure_at + wait if wait else None)
            .execution_options(synchronize_session=False)
        )
        if released.rowcount == 1:
            return


def succeeded(db: Session, *, login: str, address: str) -> None:
    """The password was right: the (login, address) pair and the account start afresh, and the address
    gets its attempt back (its other failures stay counted: one account known cannot clear guesses at
    others)."""
    pair, by_address, account = _rules(login, address)
    db.execute(delete(LoginThrottle).where(LoginThrottle.key.in_([pair.key, account.key])))
    _release(db, by_address, utcnow())
