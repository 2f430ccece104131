from datetime import datetime
from typing import TYPE_CHECKING, cast

from sqlalchemy import (
    Boolean,
    Column,
    ColumnElement,
    ForeignKey,
    Index,
    String,
    Table,
    case,
    func,
    literal_column,
    select,
    true,
)
from sqlalchemy.ext.hybrid import hybrid_property
from sqlalchemy.orm import Mapped, mapped_column, relationship

from spot.core import signatures
from spot.core.i18n import Language, text
from spot.core.time import utcnow
from spot.db import Base, UtcDateTime

if TYPE_CHECKING:
    from spot.permissions.models import GroupPermission

user_group = Table(
    "user_group",
    Base.metadata,
    Column("user_id", ForeignKey("user.id", ondelete="CASCADE"), primary_key=True),
    Column("group_id", ForeignKey("group.id", ondelete="CASCADE"), primary_key=True, index=True),
)


class Group(Base):
    __tablename__ = "group"
    __table_args__ = (Index("uq_group_external_id", "external_id", unique=True),)

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    # The group's id in the identity provider that provisions it by SCIM; unique when set.
    external_id: Mapped[str | None] = mapped_column(String(200))
    permissions: Mapped[list["GroupPermission"]] = relationship(
        "GroupPermission", cascade="all, delete-orphan", lazy="selectin", order_by="GroupPermission.name"
    )

    @property
    def permission_names(self) -> list[str]:
        return [p.name for p in self.permissions]


# The languages a person reads Spot in (what the server writes for them follows it).
LANGUAGES = ("fr", "en")


class User(Base):
    __tablename__ = "user"
    __table_args__ = (
        Index("ix_user_names", "last_name", "first_name"),
        Index("uq_user_email", "email", unique=True),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    login: Mapped[str] = mapped_column(String(200), unique=True)
    first_name: Mapped[str] = mapped_column(String(200), default="")
    last_name: Mapped[str] = mapped_column(String(200), default="")
    external_id: Mapped[str | None] = mapped_column(String(200), unique=True)
    password_hash: Mapped[str] = mapped_column(String(300), default="")
    # Wrong passwords given for this login, at sign-in or re-authentication, since its last sign-in with
    # a password, which tells the user and starts the count afresh (account.service.login).
    failed_sign_ins: Mapped[int] = mapped_column(default=0, server_default="0")
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    # Kept in lower case; unique when set.
    email: Mapped[str | None] = mapped_column(String(320))
    # A person who left is deactivated, never deleted once anything refers to them: they cannot sign
    # in, leave the pickers and current figures, and stay, named, wherever they appear.
    active: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    deactivated_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    # When the identity provider that provisions people deleted this person (SCIM DELETE): they are
    # deactivated, and no longer a resource the provider sees (RFC 7644 §3.6) until reactivated.
    deprovisioned_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    language: Mapped[str] = mapped_column(String(2), default="fr", server_default="fr")
    groups: Mapped[list[Group]] = relationship(secondary=user_group, lazy="selectin", order_by=Group.name)

    @hybrid_property
    def display_name(self) -> str:
        """'First Last', or the login when both are empty, then ' (external id)' when there is one.
        The same in SQL (select(User.display_name)), so lists of names need no user objects."""
        name = f"{self.first_name} {self.last_name}".strip() or self.login
        return f"{name} ({self.external_id})" if self.external_id else name

    @display_name.inplace.expression
    @classmethod
    def _display_name_sql(cls) -> ColumnElement[str]:
        name = func.coalesce(func.nullif(func.trim(cls.first_name + " " + cls.last_name), ""), cls.login)
        return case((cls.external_id.is_(None), name), else_=name + " (" + cls.external_id + ")")

    @property
    def permission_names(self) -> list[str]:
        return sorted({p for g in self.groups for p in g.permission_names})


def printed_name(name: str, active: bool | None, language: Language) -> str:
    """A person's name as a document the server writes prints it (a PDF, a sheet): marked in the
    document's language, "Jeanne Dupont (inactif)", once they left (deactivated). `active` None (no
    such account) prints the name as it is."""
    return text(language, "people.inactive", name=name) if active is False else name


# Groups name their permissions' class by string: import it so that the mapping is complete
# whenever users are (some areas build statements with loader options at import time).
from spot.permissions.models import GroupPermission  # noqa: E402

# The names of a user's permissions, comma-separated, for the Principal (account.service): '' for a
# user without any permission. The separator is written into the statement once: given as a str,
# SQLAlchemy writes it in at every run of the session lookup, a search and replace over its whole
# text (its cost per request is in docs/performance.md).
GRANTED = func.coalesce(
    select(func.aggregate_strings(GroupPermission.name, literal_column("','")))  # type: ignore[arg-type]
    .join(user_group, user_group.c.group_id == GroupPermission.group_id)
    .where(user_group.c.user_id == User.id)
    .scalar_subquery(),
    "",
)

# Signatures print who revoked them (core.signatures, which imports no area).
signatures.register_user_names(
    cast(Table, User.__table__), User.id.expression, User.display_name.expression, User.active.expression
)
