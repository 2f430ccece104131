"""Path reports (spec 2 §2 'Path report page', §3 Report configuration): each user's saved parameter
sets. The zip's progress is its job's (jobs.models)."""

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, ForeignKey, String, UniqueConstraint
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
