from datetime import datetime

from sqlalchemy import ForeignKey, Integer, String, Text
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
    # When the user last proved who they are in this session (sign-in, POST /account/reauthenticate);
    # a renewed token carries it over, since renewal proves nothing. Signatures require it recent.
    authenticated_at: Mapped[datetime] = mapped_column(UtcDateTime)
    expires_at: Mapped[datetime] = mapped_column(UtcDateTime)
    revoked_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    # The identity provider the session was opened through (its name), and its ID token, the hint its
    # end-session endpoint asks for when the person signs out (account.oidc).
    identity_provider: Mapped[str | None] = mapped_column(String(200))
    id_token: Mapped[str | None] = mapped_column(Text)
    user: Mapped[User] = relationship(lazy="joined")


class LoginThrottle(Base):
    """Failed sign-ins of one key, a (login, client address) pair or a client address, and until when
    the key must wait before its next attempt. In the database, so that throttling holds across
    processes; a row is claimed with a compare-and-set of `failures` (account.throttle)."""

    __tablename__ = "login_throttle"

    key: Mapped[str] = mapped_column(String(300), primary_key=True)
    failures: Mapped[int] = mapped_column(Integer, default=0)
    last_failure_at: Mapped[datetime] = mapped_column(UtcDateTime, index=True)
    blocked_until: Mapped[datetime | None] = mapped_column(UtcDateTime)
