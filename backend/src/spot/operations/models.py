"""The operations area's tables: the hold a running backup puts on the deletion of stored files, and
the names whose deletion it held (operations.backup), with the rule core.files asks before deleting
(registered here, so that every process that loads the models holds deletions)."""

import logging
from datetime import datetime

from sqlalchemy import Connection, Engine, String, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Mapped, mapped_column

from spot.core import files
from spot.core.time import utcnow
from spot.db import Base, UtcDateTime

log = logging.getLogger("spot.operations.backup")


class BackupHold(Base):
    """One row per backup running: while one is live (`held_until` ahead), no stored file is deleted,
    since the backup's database snapshot may still refer to it. The backup renews it as it works; a
    backup killed lets it go once `held_until` has passed."""

    __tablename__ = "backup_hold"

    holder: Mapped[str] = mapped_column(String(200), primary_key=True)
    held_until: Mapped[datetime] = mapped_column(UtcDateTime)


class HeldDeletion(Base):
    """A stored file no row refers to any more, whose deletion a backup held: deleted when the backups
    end (if still unreferenced)."""

    __tablename__ = "held_file_deletion"

    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    held_at: Mapped[datetime] = mapped_column(UtcDateTime)


def live_hold(connection: Connection, now: datetime) -> str | None:
    """The holder of a live hold on deletions, if any."""
    return connection.scalar(select(BackupHold.holder).where(BackupHold.held_until > now).limit(1))


def hold_deletions(engine: Engine, names: set[str]) -> set[str]:
    """core.files.DELETION_HOLDS: while a backup holds deletions, the unreferenced `names` are recorded
    to delete later (operations.backup.release_held_deletions) and none is deleted now; otherwise all
    of them are."""
    if not names:
        return names
    now = utcnow()
    with engine.begin() as connection:
        if live_hold(connection, now) is None:
            return names
        insert_new = postgresql.insert if connection.dialect.name == "postgresql" else sqlite.insert
        rows = [{"name": name, "held_at": now} for name in sorted(names)]
        connection.execute(insert_new(HeldDeletion).on_conflict_do_nothing(), rows)
    log.info("deletion of %s stored files held while a backup runs", len(names))
    return set()


files.DELETION_HOLDS.append(hold_deletions)
