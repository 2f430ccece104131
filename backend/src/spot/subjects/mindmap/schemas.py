"""The mind map as the API shows and changes it: the tree, the diagram, the standardized copy and the legacy
targets (docs/mind-map.md)."""

from datetime import datetime
from typing import Annotated, Literal

from pydantic import Field, StrictInt

from spot.core.schemas import CamelModel, MultilineText, Text
from spot.mapping.models import NodeStatus
from spot.subjects.schemas import Contributor

# An integer the database holds (32-bit on PostgreSQL): beyond, it is bad input (422), not a 500.
Count = Annotated[StrictInt, Field(ge=0, le=2**31 - 1)]
Version = Annotated[
    StrictInt, Field(ge=0, le=2**31 - 1, description="The tree's version read; a stale one answers 409")
]
DiagramMediaType = Literal["image/png", "image/jpeg", "application/pdf"]
DifferenceKind = Literal["added", "removed", "renamed", "textChanged", "statusChanged", "moved"]
LegacyView = Literal["mindMap", "standardized", "diagram"]


# The tree ---------------------------------------------------------------------------------------


class NodeCan(CamelModel):
    """What the user may do with this node; a validated node's content changes only with
    perm_ValidNotHaute (docs/mind-map.md)."""

    edit: bool = Field(description="Change its text (its name too when `rename`)")
    rename: bool = Field(description="Change its name; the main node's is the subject's (perm_EditPdv too)")
    delete: bool = Field(description="Delete it with its subtree; never the main node")


class MindMapNode(CamelModel):
    id: int
    code: int = Field(description="0 for the main node; unique within the subject")
    parent_code: int | None = Field(description="Null for the main node only")
    position: int = Field(description="Order among its siblings, from 0")
    name: str
    text: str
    status: NodeStatus
    created_by: Contributor | None
    created_at: datetime | None
    updated_by: Contributor | None
    updated_at: datetime | None
    can: NodeCan


class MindMapCan(CamelModel):
    edit: bool = Field(description="Add, edit, move and delete nodes, change statuses (perm_EditNotHaute)")
    validate_: bool = Field(
        alias="validate", description="Set a node to or from validated (perm_ValidNotHaute)"
    )
    edit_diagram: bool = Field(description="Set or remove the diagram (perm_EditNotBasse)")


class Diagram(CamelModel):
    name: str
    media_type: DiagramMediaType
    url: str = Field(description="The stored file; its query changes with the file")


class MindMap(CamelModel):
    subject_id: int
    subject_name: str
    subject_code: str
    version: int = Field(description="The tree's version, sent back with every change")
    last_mindmap_update: datetime | None
    standardized: bool = Field(description="A standardized copy exists (GET .../mindmap/standardized)")
    diagram: Diagram | None = Field(description="Null when no diagram file is stored in Spot")
    nodes: list[MindMapNode] = Field(
        description="The main node first, then parents before their children, siblings by position"
    )
    can: MindMapCan


class MindMapChange(CamelModel):
    version: int = Field(description="The tree's new version")
    code: int = Field(description="The node written (added, changed, moved or deleted)")


class NodeCreate(CamelModel):
    version: Version
    parent_code: Count
    position: Count | None = Field(
        default=None, description="Among the new siblings; default and beyond: last"
    )
    name: Text = Field(max_length=300)
    text: MultilineText = Field(default="", max_length=5000)


class NodeUpdate(CamelModel):
    version: Version
    name: Text = Field(max_length=300)
    text: MultilineText = Field(default="", max_length=5000)


class NodeMove(CamelModel):
    version: Version
    parent_code: Count
    position: Count = Field(description="Among its new siblings (itself left out); beyond: last")


class NodeStatusChange(CamelModel):
    version: Version
    status: NodeStatus


# The standardized copy ---------------------------------------------------------------------------


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


# Legacy targets ----------------------------------------------------------------------------------


class SubjectTarget(CamelModel):
    """A subject's mind map, standardized mind map or diagram."""

    view: LegacyView
    subject_id: int


class FunctionTarget(CamelModel):
    """A function's page."""

    view: Literal["function"]
    function_id: int


LegacyTarget = Annotated[SubjectTarget | FunctionTarget, Field(discriminator="view")]
