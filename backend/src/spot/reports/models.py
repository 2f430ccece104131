"""Path reports (spec 2 §2 'Path report page', §3 Report configuration): each user's saved parameter
sets, and the progress of the reports being generated (learners done of the total), which the client
polls while the zip streams; any process serving the download writes it."""

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from spot.db import Base, UtcDateTime


class ReportConfiguration(Base):
    """A saved parameter set of one user: saving under an existing name overwrites it; at most one of
    a user's sets is the default."""

    __tablename__ = "report_configuration"
    __table_args__ = (UniqueConstraint("user_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(200))
    is_default: Mapped[bool] = mapped_column(Boolean, default=False)
    # The camelCase JSON of the set's parts, as the API carries them (reports.schemas).
    selectors: Mapped[dict[str, Any]] = mapped_column(JSON)
    document_options: Mapped[dict[str, Any]] = mapped_column(JSON)
    path_options: Mapped[dict[str, Any]] = mapped_column(JSON)
    module_options: Mapped[dict[str, Any]] = mapped_column(JSON)
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime)


class ReportProgress(Base):
    """How far a report being generated is: `done` learners of `total`, under an id the client chose
    (a UUID) when it asked for the report."""

    __tablename__ = "report_progress"

    id: Mapped[str] = mapped_column(String(36), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"), index=True)
    total: Mapped[int] = mapped_column(Integer, default=0)
    done: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime)
