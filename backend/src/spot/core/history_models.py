from datetime import datetime
from typing import cast

from sqlalchemy import ColumnElement, ForeignKey, Index, Integer, String, Table, literal_column, text
from sqlalchemy.orm import Mapped, mapped_column

from spot.core import history
from spot.db import Base, UtcDateTime

# The predicate of the partial index on writes; queries repeat it literally (not as a bound
# parameter), since SQLite uses a partial index only when the query's WHERE names its constant.
WRITES = "mode = 'W'"


class HistoryEntry(Base):
    """One read ('R') or write ('W') of a tracked item by a user; written only through
    spot.core.history.record. Counters, visits, contributions and reports read from here."""

    __tablename__ = "history_entry"
    __table_args__ = (
        Index("ix_history_entry_item", "item_type", "item_id", "at"),
        Index("ix_history_entry_user_at", "user_id", "at"),
        # A cartography's entries over a span of time, with what contributions count (mode, user) in
        # the index itself: the usage chart reads a cartography's weeks from it alone.
        Index("ix_history_entry_cartography_at", "cartography_id", "at", "mode", "user_id"),
        Index("ix_history_entry_at", "at"),
        # Contributors of an item: its writers, without reading the (many more) reads.
        Index(
            "ix_history_entry_writes",
            "item_type",
            "item_id",
            "user_id",
            "at",
            sqlite_where=text(WRITES),
            postgresql_where=text(WRITES),
        ),
        # Entries are never deleted, so SQLite never gives an id again without AUTOINCREMENT (db.Base),
        # which would cost every read its write to sqlite_sequence, and the largest table a rebuild.
        {"sqlite_autoincrement": False},
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[datetime] = mapped_column(UtcDateTime)
    # Kept when the user is deleted, so that counters do not change retroactively.
    user_id: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))
    item_type: Mapped[str] = mapped_column(String(30))
    item_id: Mapped[int] = mapped_column(Integer)
    # Key and name as they were at the time: the item may since have been renamed or deleted.
    item_key: Mapped[str] = mapped_column(String(100), default="")
    item_name: Mapped[str] = mapped_column(String(300), default="")
    mode: Mapped[str] = mapped_column(String(1))
    event: Mapped[str | None] = mapped_column(String(40))
    # The cartography the item belongs to, when it belongs to one: its reads/writes counters.
    cartography_id: Mapped[int | None] = mapped_column(Integer)


def is_write() -> ColumnElement[bool]:
    """history_entry.mode = 'W', with the constant written into the SQL so that SQLite sees that
    ix_history_entry_writes applies."""
    return HistoryEntry.mode == literal_column("'W'")


class CartographyCounter(Base):
    """How many history entries of each mode carry a cartography: the cartography page's reads and
    writes counters. Maintained by a database trigger on each inserted entry (migration d41f8c27a6e3),
    because counting a cartography's entries means reading hundreds of thousands of index rows."""

    __tablename__ = "cartography_counter"

    # No foreign key: like history_entry.cartography_id, it outlives a deleted cartography.
    cartography_id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    reads: Mapped[int] = mapped_column(Integer, default=0)
    writes: Mapped[int] = mapped_column(Integer, default=0)


history.register_tables(
    entries=cast(Table, HistoryEntry.__table__), counters=cast(Table, CartographyCounter.__table__)
)
