from pydantic import Field, StrictInt

from spot.core.schemas import CamelModel, MultilineText, Text
from spot.resources.models import ResourceType

NAME_MAX = 300
LINK_MAX = 2000
COMMENT_MAX = 5000


class ResourceCan(CamelModel):
    """What the signed-in user may do with this gallery, from spot.resources.policy."""

    edit: bool = Field(description="Add, edit, delete and reorder resources (perm_EditResourcesVideos)")


class ResourceOut(CamelModel):
    id: int
    parent_type: str
    parent_id: int
    resource_type: ResourceType
    name: str
    link: str = Field(
        description="The file's name for a file, the address of a link, the id of a YouTube video"
    )
    comment: str
    ordering: int
    media_type: str | None = Field(description="The type of the stored file, judged from its bytes")
    size: int | None = Field(description="The stored file's size in bytes")
    file_url: str | None = Field(description="The stored file (image, pdf, file); null for links and videos")
    thumbnail_url: str | None = Field(description="A 160 × 100 thumbnail, made for images only")
    version: int


class ResourceGallery(CamelModel):
    """The gallery of one parent: its resources in their order, and what the user may do with it."""

    resources: list[ResourceOut]
    can: ResourceCan


class ResourceFields(CamelModel):
    """The resource form's texts, under the general text rule. A link resource's link is its address,
    a YouTube video's the address of the video (its id is kept), a file's the file's name."""

    name: Text = Field(max_length=NAME_MAX)
    link: Text = Field(max_length=LINK_MAX)
    comment: MultilineText = Field(default="", max_length=COMMENT_MAX)


class ResourceCreate(ResourceFields):
    """The metadata of a new resource, from the headers of its upload."""

    resource_type: ResourceType


class ResourceUpdate(ResourceFields):
    version: StrictInt | None = Field(
        default=None,
        ge=0,
        le=2**31 - 1,
        description="The version read: a stale one answers 409; without it (the spec's payload) the "
        "update applies over whatever came before",
    )
    resource_type: ResourceType | None = Field(
        default=None, description="The type cannot change: another one than the resource's is refused"
    )
