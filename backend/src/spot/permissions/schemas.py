from typing import Literal

from pydantic import Field

from spot.core.schemas import CamelModel, Id

# The item types a group's visibility may name (spec 1 §3, permission item types, and the activities
# of the map, which limit a cartography like its functions do: spot.mapping.policy).
PermissionItemType = Literal[
    "cartography",
    "function",
    "activity",
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
    """A group's visibility: unrestricted (no item; it sees everything), or restricted to its items:
    whole cartographies, and cartographies limited to some of their functions and activities (the
    rule is spot.mapping.policy's). Items of other types are kept but grant nothing."""

    restricted: bool
    items: list[AllowedItem] = Field(default=[], max_length=MAX_ALLOWED_ITEMS)


class AllowedGroup(CamelModel):
    id: int
    name: str
    # True when the group sees every cartography, this one only because it is not restricted.
    unrestricted: bool
