from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from spot.db import Base


class GroupPermission(Base):
    __tablename__ = "group_permission"

    group_id: Mapped[int] = mapped_column(ForeignKey("group.id", ondelete="CASCADE"), primary_key=True)
    name: Mapped[str] = mapped_column(String(60), primary_key=True)
