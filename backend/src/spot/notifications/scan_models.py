"""The daily scan's tables (notifications.scan): a lease per scan, the expiry reminders announced, and
the coverage warnings sent (notifications.coverage)."""

from datetime import date, datetime

from sqlalchemy import Date, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from spot.db import Base, UtcDateTime


class ScanLease(Base):
    """One row per scan (expiry reminders, the bell's dated alerts, digests): who runs it now and until
    when (taken by a compare-and-set; a holder that died lets it go once `held_until` has passed), and
    the last day it ran to its end, so that a second run the same day does nothing."""

    __tablename__ = "scan_lease"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    holder: Mapped[str | None] = mapped_column(String(200))
    held_until: Mapped[datetime | None] = mapped_column(UtcDateTime)
    # A day of the organisation's time zone (SPOT_TIMEZONE).
    last_day: Mapped[date | None] = mapped_column(Date)
    last_finished_at: Mapped[datetime | None] = mapped_column(UtcDateTime)


class ExpiryReminder(Base):
    """A reminder announced, once ever: to `recipient_id` (the holder, or a manager), about the hold of
    `user_id` on a qualification ending on `valid_until`, for the window of `days_window` days. A
    renewed qualification ends on another day: its windows start afresh."""

    __tablename__ = "expiry_reminder"
    __table_args__ = (Index("ix_expiry_reminder_valid_until", "valid_until"),)

    recipient_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"), primary_key=True)
    qualification_id: Mapped[int] = mapped_column(
        ForeignKey("qualification.id", ondelete="CASCADE"), primary_key=True
    )
    valid_until: Mapped[date] = mapped_column(Date, primary_key=True)
    days_window: Mapped[int] = mapped_column(Integer, primary_key=True)
    announced_on: Mapped[date] = mapped_column(Date)


class CoverageWarning(Base):
    """A manager warned, once ever, that a function of their cartographies falls under its minimum of
    qualified people on `falls_on` (notifications.coverage); a later fall (another day: people renewed,
    then expiring again) is another warning. Each daily scan updates its figures (`valid` that day,
    the function's `minimum`) and sets `resolved_on` when the fall no longer holds (cleared if it comes
    back): the bell shows the manager's falls still ahead and unresolved."""

    __tablename__ = "coverage_warning"
    __table_args__ = (
        Index("ix_coverage_warning_falls_on", "falls_on"),
        Index("ix_coverage_warning_function_id", "function_id"),
    )

    manager_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"), primary_key=True)
    function_id: Mapped[int] = mapped_column(ForeignKey("function.id", ondelete="CASCADE"), primary_key=True)
    falls_on: Mapped[date] = mapped_column(Date, primary_key=True)
    warned_on: Mapped[date] = mapped_column(Date)
    valid: Mapped[int] = mapped_column(Integer)
    minimum: Mapped[int] = mapped_column(Integer)
    resolved_on: Mapped[date | None] = mapped_column(Date)
