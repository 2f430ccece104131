from typing import Literal

from pydantic import Field

from spot.core.schemas import CamelModel, Id

# The item types a group's visibility may name (spec 1 §3, permission item types).
PermissionItemType = Literal[
    "cartography",
    "function",
    "subject",
    "mindmapNode",
    "diagram",
    "standard",
    "mediation",
    "lmsGroup",
    "lmsResource",
    "lmsQuiz",
    "lmsForum",
    "lmsForumTopic",
    "qualification",
]

# Far more than any real map holds, few enough that one request stays cheap to check.
MAX_ALLOWED_ITEMS = 5000


class TreeNode(CamelModel):
    """One entry of the map as the visibility screen shows it."""

    id: int
    type: Literal["site", "cartography", "activity", "function"]
    code: str
    name: str
    children: list["TreeNode"]


class AllowedItem(CamelModel):
    item_type: PermissionItemType
    item_id: Id


class AllowedItems(CamelModel):
    """A group's visibility: unrestricted (no item; it sees every cartography), or restricted to the
    cartographies among its items. Items of other types are kept but grant nothing alone."""

    restricted: bool
    items: list[AllowedItem] = Field(default=[], max_length=MAX_ALLOWED_ITEMS)


class AllowedGroup(CamelModel):
    id: int
    name: str
    # True when the group sees every cartography, this one only because it is not restricted.
    unrestricted: bool
