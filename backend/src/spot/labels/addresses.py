"""The address a label's QR code holds: the item's page in the client (base path /spotv2), under
SPOT_PUBLIC_URL, built from the item's kind and id alone (never from anything a request sends).

An activity has no page of its own: its label opens the subject list filtered on it
(`location oneOf <id>`, the subjects of the activity and of its sub-activities, in every function), the
list the function view's activity headings open narrowed to one function (frontend lib/paths.ts
subjectsAtPath)."""

from urllib.parse import quote

from spot.config import get_settings
from spot.labels.schemas import LabelItemType

CLIENT_BASE = "/spotv2"


def page_path(item_type: LabelItemType, item_id: int) -> str:
    """The client's path of the item's page, under its base path."""
    if item_type == "activity":
        return f"{CLIENT_BASE}/subjects/{quote(f'location oneOf {item_id}', safe='')}"
    return f"{CLIENT_BASE}/{item_type}/{item_id}"


def address(item_type: LabelItemType, item_id: int) -> str:
    return get_settings().public_url.rstrip("/") + page_path(item_type, item_id)
