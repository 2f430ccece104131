from typing import Literal

from spot.core.schemas import CamelModel
from spot.mapping.models import NodeStatus
from spot.mapping.schemas import ContextEntry

Category = Literal["cartographies", "functions", "subjects", "nodes"]
ResultType = Literal["cartography", "function", "subject", "mindmapNode"]


class Span(CamelModel):
    """A part of the displayed name that matches the text: `start` and `length` in its characters."""

    start: int
    length: int


class SearchResult(CamelModel):
    """An item found: a cartography, a function, a subject or a mind-map node (whose `code` is its
    code in the subject's mind map, 0 for the main node). `context` is its breadcrumb, site first:
    the site of a cartography; the site and cartography of a function; the site, cartography,
    activities and function of a subject; and the subject too for a node. `matches` are the spans of
    `name` to highlight."""

    id: int
    type: ResultType
    code: str
    name: str
    context: list[ContextEntry]
    matches: list[Span]
    status: NodeStatus | None = None


class CategoryResults(CamelModel):
    """The first `limit` results of a category and how many the user may read in all, counted up to
    100: `more` is true when there are more than `totalItems`."""

    results: list[SearchResult]
    total_items: int
    more: bool = False


class SearchOut(CamelModel):
    """The four categories; when `category` was asked, that one only (the others are null)."""

    cartographies: CategoryResults | None = None
    functions: CategoryResults | None = None
    subjects: CategoryResults | None = None
    nodes: CategoryResults | None = None
