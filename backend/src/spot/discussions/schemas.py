import re
from datetime import datetime
from enum import StrEnum
from typing import Annotated, Any

from pydantic import BeforeValidator, Field
from pydantic_core import PydanticCustomError

from spot.core.schemas import CamelModel, check_characters
from spot.mapping.schemas import ContextEntry

# Longer messages are refused with the key string_too_long.
MAX_CONTENT = 5000


class SystemMessageType(StrEnum):
    """The messages the server writes for an action (spec 1 §3); the client words each one, with its
    arguments, in the reader's language (components/discussion/systemText.tsx). The arguments each
    type is worded with:

    - criticity: frequency, gravity (0-5);
    - duplicatedFrom: id and name of the subject copied (on the copy's discussion);
    - statusChanged: status (the new one); for a mind-map node also its name and code;
    - resourceCreated, resourceUpdated, resourceDeleted: name, resourceType;
    - updated: name (the item's, after the change);
    - trackingPeriodsChanged, mediationSigned: none (the author is the mediator who changed the
      periods, the participant who signed).

    An `id` names the element the message is about: a check registered for the type
    (service.register_element_check) tells the reader when it is gone (unreachableOrDeletedElement)."""

    criticity = "criticity"
    duplicatedFrom = "duplicatedFrom"
    statusChanged = "statusChanged"
    resourceCreated = "resourceCreated"
    resourceUpdated = "resourceUpdated"
    resourceDeleted = "resourceDeleted"
    updated = "updated"
    trackingPeriodsChanged = "trackingPeriodsChanged"
    mediationSigned = "mediationSigned"


# As core.schemas.MultilineText: line breaks and tabs are kept.
_MULTILINE_FORBIDDEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")


def _trimmed(value: Any) -> Any:
    """Spec 1 §5: a message blank after trimming is not sent; the trimmed text is."""
    if not isinstance(value, str):
        return value
    value = value.strip()
    if not value:
        raise PydanticCustomError("emptyFieldError", "This field can't stay empty")
    if len(value) > MAX_CONTENT:
        raise PydanticCustomError("string_too_long", "This text is too long")
    return check_characters(value, _MULTILINE_FORBIDDEN)


Content = Annotated[str, BeforeValidator(_trimmed), Field(json_schema_extra={"maxLength": MAX_CONTENT})]


class MessagePost(CamelModel):
    content: Content = Field(description="Trimmed; blank is refused (emptyFieldError); line breaks kept")


class Author(CamelModel):
    id: int
    name: str


class SystemInfo(CamelModel):
    type: SystemMessageType
    args: dict[str, Any] = Field(description="What the message is worded with; `id` names its element")
    reachable: bool = Field(
        description="False when the element the message names is gone or hidden (unreachableOrDeletedElement)"
    )


class MessageOut(CamelModel):
    id: int
    author: Author | None = Field(description="Null for a message of no one (or of a deleted user)")
    date: datetime
    content: str
    system: SystemInfo | None = Field(description="Set for a message the server wrote for an action")


class DiscussionCan(CamelModel):
    post: bool


class DiscussionOut(CamelModel):
    id: int
    parent_type: str
    parent_id: int
    contexts: list[list[ContextEntry]] = Field(description="The paths to the item, the item included")
    messages: list[MessageOut] = Field(description="Oldest first")
    can: DiscussionCan


class UnreadDiscussion(CamelModel):
    """A discussion of an item the user follows or contributed to, with messages from others since
    the user last read it."""

    discussion_id: int
    parent_type: str
    parent_id: int
    parent_name: str
    unread_count: int
    last_date: datetime
