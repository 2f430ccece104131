from typing import Literal

from spot.core.schemas import CamelModel

# The items that have a label: those with a page of their own, and the activity, whose label opens the
# list of its subjects (labels.addresses).
LabelItemType = Literal["cartography", "activity", "function", "subject"]


class QrLabel(CamelModel):
    """What a label shows: the item's name, its context (site first), the address of its page as people
    reach Spot (SPOT_PUBLIC_URL), and the QR code of that address as a PNG data URL."""

    item_type: LabelItemType
    item_id: int
    name: str
    context: list[str]
    address: str
    image: str
