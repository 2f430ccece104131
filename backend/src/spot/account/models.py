from datetime import datetime

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column, relationship

from spot.db import Base, UtcDateTime
from spot.users.models import User


class SessionToken(Base):
    """A signed-in session; only the SHA-256 of the opaque token is kept."""

    __tablename__ = "session_token"

    id: Mapped[int] = mapped_column(primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"), index=True)
    issued_at: Mapped[datetime] = mapped_column(UtcDateTime)
    expires_at: Mapped[datetime] = mapped_column(UtcDateTime)
    revoked_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    user: Mapped[User] = relationship(lazy="joined")


class LoginFailure(Base):
    """Failed login attempts, kept in the database so that throttling holds across processes."""

    __tablename__ = "login_failure"
    __table_args__ = (
        Index("ix_login_failure_login_at", "login", "at"),
        Index("ix_login_failure_address_at", "address", "at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    login: Mapped[str] = mapped_column(String(200))
    address: Mapped[str] = mapped_column(String(64))
    at: Mapped[datetime] = mapped_column(UtcDateTime)
