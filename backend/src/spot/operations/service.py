"""Readiness: the database answers, its schema is the code's, and the file store takes files."""

import logging
from functools import lru_cache

from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from spot.core import files
from spot.db import alembic_config, get_engine
from spot.operations.schemas import Check, Readiness

log = logging.getLogger(__name__)


@lru_cache(maxsize=1)
def _code_heads() -> frozenset[str]:
    """The migrations' heads as this code has them (read once: they cannot change while it runs)."""
    from alembic.script import ScriptDirectory

    return frozenset(ScriptDirectory.from_config(alembic_config()).get_heads())


@lru_cache(maxsize=1)
def _code_revisions() -> frozenset[str]:
    """Every migration this code knows."""
    from alembic.script import ScriptDirectory

    return frozenset(rev.revision for rev in ScriptDirectory.from_config(alembic_config()).walk_revisions())


def _migrations(applied: set[str]) -> Check:
    """ok when the database is at the code's heads; ahead when it holds a migration this code does not
    know (a newer release migrated it: this server goes on serving until replaced); behind otherwise."""
    if applied == _code_heads():
        return Check.ok
    if applied - _code_revisions():
        return Check.ahead
    return Check.behind


def readiness() -> Readiness:
    """Each check on its own: a database that does not answer says nothing of the file store."""
    database, migrations = Check.ok, Check.ok
    try:
        with get_engine().connect() as conn:
            conn.execute(text("SELECT 1"))
            try:
                applied = set(conn.execute(text("SELECT version_num FROM alembic_version")).scalars())
            except SQLAlchemyError:  # never migrated: no version table yet
                applied = set()
        migrations = _migrations(applied)
    except SQLAlchemyError as exc:
        log.warning("readiness: the database does not answer: %s", exc.__class__.__name__)
        database = migrations = Check.unreachable
    file_store = Check.ok
    try:
        files.get_file_store().check()
    except ConnectionError as exc:  # an object store that does not answer
        log.warning("readiness: the file store does not answer: %s", exc)
        file_store = Check.unreachable
    except OSError as exc:
        log.warning("readiness: the file store cannot be written to: %s", exc)
        file_store = Check.unwritable
    ready = database == file_store == Check.ok and migrations in (Check.ok, Check.ahead)
    return Readiness(
        status="ready" if ready else "notReady",
        database=database,
        migrations=migrations,
        file_store=file_store,
    )
