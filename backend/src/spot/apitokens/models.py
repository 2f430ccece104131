from datetime import datetime

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column, relationship

from spot.core.time import utcnow
from spot.db import Base, UtcDateTime
from spot.users.models import User

# What a token opens; it is refused everywhere else.
SCOPES = ("scim",)


class ApiToken(Base):
    """A token another system presents (an identity provider provisioning people by SCIM): only the
    SHA-256 of the opaque value is kept, as for sessions; revoked, never deleted."""

    __tablename__ = "api_token"
    __table_args__ = {"sqlite_autoincrement": True}

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    scope: Mapped[str] = mapped_column(String(20))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))
    last_used_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    revoked_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    created_by: Mapped[User | None] = relationship(lazy="joined")
