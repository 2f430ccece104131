from typing import Literal

from pydantic import Field

from spot.core.schemas import CamelModel

ItemType = Literal["site", "cartography", "activity", "function", "subject", "mindmapNode"]


class ContextEntry(CamelModel):
    """One step of a hierarchy path (spec 1 §3: a context is a hierarchy of entries)."""

    id: int
    code: str
    name: str
    type: ItemType


class SiteRef(CamelModel):
    id: int
    code: str
    name: str


class CartographyRef(CamelModel):
    id: int
    code: str
    name: str


class SiteOut(SiteRef):
    cartographies: list[CartographyRef]
    documents: bool = Field(
        description="The user may open the site's documents (its DUERP): every subject of the site in view"
    )


class CartographyListItem(CartographyRef):
    site: SiteRef
    image_width: int
    image_height: int


class CartographySiteName(CamelModel):
    id: int
    code: str
    name: str
    site_id: int
    site_name: str


class Rectangle(CamelModel):
    x: float
    y: float
    width: float
    height: float


class ZoneOut(CamelModel):
    id: int
    type: Literal["activity", "function"]
    item_id: int
    item_code: str
    item_name: str
    rectangle: Rectangle


class PictogramOut(CamelModel):
    id: int
    activity_id: int
    activity_code: str
    image_url: str


class FunctionOut(CamelModel):
    id: int
    code: str
    name: str


class ActivityOut(CamelModel):
    """An activity of a list (a cartography's top-level activities, an activity's sub-activities)."""

    id: int
    code: str
    name: str
    cartography_id: int
    parent_id: int | None
    has_sub_activities: bool
    subjects_count: int


class ActivityNode(CamelModel):
    """An activity of the cartography tree; subjectsCount includes the sub-activities' subjects."""

    id: int
    code: str
    name: str
    subjects_count: int
    activities: list["ActivityNode"]


class Stats(CamelModel):
    reads: int
    writes: int


class CartographyOut(CartographyRef):
    site: SiteRef
    image_width: int
    image_height: int
    image_url: str
    activities: list[ActivityNode]
    functions: list[FunctionOut]
    stats: Stats
    context: list[ContextEntry]
    discussion_id: int | None = Field(description="Its discussion (GET /discussion/{discussionId})")


class ItemOut(CamelModel):
    """An item of the hierarchy with its contexts: the paths from its site down to its parent
    (a subject has two: through its function and through its activity)."""

    id: int
    code: str
    name: str
    type: ItemType
    cartography_id: int | None
    contexts: list[list[ContextEntry]]


MapItemType = Literal["site", "cartography", "activity", "function"]


class MapItemName(CamelModel):
    """An item of the map found by name or named by id, for filter editors and autocompletes;
    `context` is the path from its site down to its parent (empty for a site)."""

    id: int
    type: MapItemType
    code: str
    name: str
    context: list[ContextEntry]


class CartographyCard(CamelModel):
    """A cartography of the list; `context` is its site."""

    id: int
    code: str
    name: str
    context: list[ContextEntry]


class FunctionCard(CamelModel):
    """A function of the list; `context` is its site and cartography."""

    id: int
    code: str
    name: str
    cartography_id: int
    context: list[ContextEntry]
