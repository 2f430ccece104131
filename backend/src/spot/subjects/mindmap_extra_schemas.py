"""Schemas of the standardized mind map, the diagram and the legacy targets (docs/mind-map.md). The mind map's
own schemas (the tree, its writes, the Diagram) are in subjects.mindmap_schemas."""

from datetime import datetime
from typing import Annotated, Literal

from pydantic import Field

from spot.core.schemas import CamelModel
from spot.subjects.models import NodeStatus
from spot.subjects.schemas import Contributor

DifferenceKind = Literal["added", "removed", "renamed", "textChanged", "statusChanged", "moved"]
LegacyView = Literal["mindMap", "standardized", "diagram"]


class StandardizedNode(CamelModel):
    code: int
    parent_code: int | None
    position: int
    name: str
    text: str
    status: NodeStatus


class Difference(CamelModel):
    code: int
    kinds: list[DifferenceKind] = Field(
        description="added: in the live tree only; removed: in the copy only; moved: another parent or "
        "position; renamed, textChanged, statusChanged: name, text or status changed"
    )


class StandardizedMindMapOut(CamelModel):
    standardized_at: datetime
    standardized_by: Contributor | None
    comment: str
    nodes: list[StandardizedNode] = Field(
        description="The tree as it was standardized: the main node first, parents before children, "
        "siblings by position"
    )
    differences: list[Difference] = Field(description="The nodes that differ in the live tree, by code")


class SubjectTarget(CamelModel):
    """A subject's mind map, standardized mind map or diagram."""

    view: LegacyView
    subject_id: int


class FunctionTarget(CamelModel):
    """A function's page."""

    view: Literal["function"]
    function_id: int


LegacyTarget = Annotated[SubjectTarget | FunctionTarget, Field(discriminator="view")]
