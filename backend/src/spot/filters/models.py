from sqlalchemy import Boolean, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from spot.db import Base


class SavedFilter(Base):
    """A user's named filter and sort for one entity type's list; at most one is their default."""

    __tablename__ = "saved_filter"
    # Also the index of the one lookup, a user's filters of an entity type.
    __table_args__ = (
        UniqueConstraint("user_id", "entity_type", "name", name="uq_saved_filter_user_entity_name"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"))
    entity_type: Mapped[str] = mapped_column(String(60))
    position: Mapped[int] = mapped_column(default=0)
    name: Mapped[str] = mapped_column(String(200))
    filter: Mapped[str] = mapped_column(Text)
    sorting: Mapped[str] = mapped_column(String(500), default="")
    is_default: Mapped[bool] = mapped_column(Boolean, default=False)


class SavedFilterSet(Base):
    """The version of a user's saved filters of one entity type: a save names the version it was
    edited from and bumps it with a conditional UPDATE, so that of two saves from the same version
    one is refused (409 staleVersion) instead of erasing the other."""

    __tablename__ = "saved_filter_set"

    user_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"), primary_key=True)
    entity_type: Mapped[str] = mapped_column(String(60), primary_key=True)
    version: Mapped[int] = mapped_column(Integer)
