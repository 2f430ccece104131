"""The labels of the map's items (docs/documents.md, "QR codes at the workstation"): what each says and
the QR code of its address. A label is read through mapping.service, which answers 404 for an unknown
item and 403 for one the reader may not see; a cartography's sheet lists what the reader sees of it."""

import base64
import io
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import segno
from sqlalchemy.orm import Session

from spot.core.principal import Principal
from spot.labels import addresses, policy
from spot.labels.schemas import LabelItemType, QrLabel
from spot.mapping import cartography_page
from spot.mapping import service as mapping
from spot.mapping.models import Activity
from spot.mapping.schemas import ContextEntry

# Medium error correction (15 % of the code may be lost): a label stuck at a workstation gets dirty.
ERROR_CORRECTION = "m"
# The PNG's pixels per module, and the quiet zone around the code in modules (the standard's 4).
PNG_SCALE = 10
QUIET_ZONE = 4


@dataclass(frozen=True)
class Label:
    item_type: LabelItemType
    item_id: int
    name: str
    context: tuple[str, ...]
    address: str


@dataclass(frozen=True)
class Sheet:
    """A cartography's labels: the cartography's own first, then its functions, then its activities
    in the order of its tree."""

    cartography: Label
    labels: tuple[Label, ...]


def qr_code(address: str) -> segno.QRCode:
    return segno.make(address, error=ERROR_CORRECTION, boost_error=False, micro=False)


def png(address: str) -> bytes:
    out = io.BytesIO()
    qr_code(address).save(out, kind="png", scale=PNG_SCALE, border=QUIET_ZONE)
    return out.getvalue()


def label(db: Session, *, user: Principal, item_type: LabelItemType, item_id: int) -> Label:
    """The label of one item the user sees (404 unknown, 403 hidden)."""
    item = mapping.item(db, user=user, item_type=item_type, item_id=item_id)
    return Label(
        item_type, item.id, item.name, _context(item.contexts), addresses.address(item_type, item.id)
    )


def label_out(found: Label) -> QrLabel:
    image = base64.b64encode(png(found.address)).decode("ascii")
    return QrLabel(
        item_type=found.item_type,
        item_id=found.item_id,
        name=found.name,
        context=list(found.context),
        address=found.address,
        image=f"data:image/png;base64,{image}",
    )


def _context(paths: Sequence[Sequence[ContextEntry]]) -> tuple[str, ...]:
    """The names of the paths to an item, each step once: a subject's path through its function, then
    the activities of its path through its activity."""
    seen: set[tuple[str, int]] = set()
    names: list[str] = []
    for path in paths:
        for step in path:
            if (step.type, step.id) not in seen:
                seen.add((step.type, step.id))
                names.append(step.name)
    return tuple(names)


def sheet(db: Session, *, user: Principal, cartography_id: int) -> Sheet:
    """The labels of a cartography the user may read (404, 403): itself, the functions and the
    activities the user sees (mapping.policy)."""
    cartography = policy.readable_cartography(db, user, cartography_id)
    functions = cartography_page.functions_of(db, user=user, cartography_id=cartography_id)
    activities = _tree_order(mapping.activities_of(db, user=user, cartography_id=cartography_id))
    paths = mapping.map_paths(db, cartography_ids=[cartography.id], activity_ids=[a.id for a in activities])
    around = (cartography.site.name, cartography.name)
    own = Label(
        "cartography",
        cartography.id,
        cartography.name,
        (cartography.site.name,),
        addresses.address("cartography", cartography.id),
    )
    labels = [own]
    labels += [
        Label("function", f.id, f.name, around, addresses.address("function", f.id)) for f in functions
    ]
    for activity in activities:
        above = (paths.activity(activity.id) or [])[:-1]
        labels.append(
            Label(
                "activity",
                activity.id,
                activity.name,
                tuple(step.name for step in above) or around,
                addresses.address("activity", activity.id),
            )
        )
    return Sheet(own, tuple(labels))


def _tree_order(activities: Sequence[Activity]) -> list[Activity]:
    """Each activity followed by those under it (they come in their order among siblings); one whose
    parent is not in the list starts a tree of its own."""
    ids = {a.id for a in activities}
    children: dict[int | None, list[Activity]] = defaultdict(list)
    for a in activities:
        children[a.parent_id if a.parent_id in ids else None].append(a)
    ordered: list[Activity] = []
    seen: set[int] = set()
    stack = list(reversed(children[None]))
    while stack:
        a = stack.pop()
        if a.id in seen:
            continue
        seen.add(a.id)
        ordered.append(a)
        stack.extend(reversed(children[a.id]))
    return ordered
