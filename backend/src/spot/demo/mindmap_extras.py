"""The standardized mind map and the diagram in the demo (docs/mind-map.md): one standardized subject
whose tree changed a little afterwards (a node added, one renamed, one status changed), so that the
comparison shows something (the tree is the map bundle's, imported again by every seed: the copy is made
the tree as it was), and one subject with a diagram (a PNG made here with Pillow, stored through the
upload's code path). Idempotent: what is already there is left as it is."""

import io
import tempfile
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw
from sqlalchemy import select
from sqlalchemy.orm import Session

from spot.account.service import principal_of
from spot.core.principal import Principal
from spot.mapping.models import NodeStatus, Subject
from spot.resources.upload import uploads_folder
from spot.subjects import policy
from spot.subjects import service as subjects
from spot.subjects.mindmap import diagram, standardized
from spot.subjects.models import StandardizedMindMap
from spot.users.models import User

AUTHOR = "createur"
STANDARDIZED = "USI-002"
# Earlier names of nodes in the standardized copy (otherwise the name followed by "(à préciser)").
EARLIER_NAMES = {"Zone d'exclusion": "Zone interdite", "Élingage": "Accrochage de la charge"}
STANDARD_COMMENT = "Validé en revue de poste"
DIAGRAM_SUBJECT = "USI-001"
DIAGRAM_NAME = "implantation-reception.png"


def _diagram_png() -> bytes:
    """A small layout of the reception area: the dock, the control table and the storage racks."""
    image = Image.new("RGB", (640, 400), "#f4f7fa")
    draw = ImageDraw.Draw(image)
    for box, colour in (
        ((20, 20, 200, 380), "#0074c8"),
        ((240, 140, 420, 260), "#ffc107"),
        ((460, 20, 620, 180), "#007193"),
        ((460, 220, 620, 380), "#007193"),
    ):
        draw.rectangle(box, fill=colour)
    draw.line((200, 200, 240, 200), fill="#222222", width=4)
    draw.line((420, 200, 460, 100), fill="#222222", width=4)
    draw.line((420, 200, 460, 300), fill="#222222", width=4)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def _earlier(live: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
    """The tree as it was standardized, from the live one: without its last leaf (added since), a node
    under the main node with another name (renamed since), the main node in another status (changed
    since, as the subject's cards show)."""
    nodes = [dict(n) for n in live]
    leaves = [n for n in nodes if n["code"] != 0 and not any(m["parentCode"] == n["code"] for m in nodes)]
    if not leaves or len(nodes) < 3:
        return None
    added = max(leaves, key=lambda n: n["code"])
    nodes.remove(added)
    for sibling in nodes:
        if sibling["parentCode"] == added["parentCode"] and sibling["position"] > added["position"]:
            sibling["position"] -= 1
    # Under the main node (nodes imported without a parent are shown there too).
    top = [n for n in nodes if n["code"] != 0 and n["parentCode"] in (0, None)]
    renamed = top[-1] if top else next(n for n in nodes if n["code"] != 0)
    renamed["name"] = EARLIER_NAMES.get(renamed["name"], f"{renamed['name']} (à préciser)")
    main = next(n for n in nodes if n["code"] == 0)
    in_progress = NodeStatus.inProgress.value
    main["status"] = in_progress if main["status"] != in_progress else NodeStatus.empty.value
    return nodes


def _changed_after_standardization(db: Session, author: Principal, subject: Subject) -> None:
    """The subject's tree is the map bundle's (demo.mapping, imported again by every seed): its
    standardized copy is made the tree as it was before the last changes, once."""
    kept = db.get(StandardizedMindMap, subject.id)
    if kept is None:
        # Standardized before the copy existed (an older demo database): standardize it again.
        if not policy.can_standardize(author, subject):
            return
        subjects.standardize(db, user=author, subject=subject, comment=STANDARD_COMMENT)
        kept = db.get(StandardizedMindMap, subject.id)
        assert kept is not None
    live = standardized.live_tree(db, subject.id)
    if standardized.differences(live, kept.nodes):
        return
    earlier = _earlier(live)
    if earlier is not None:
        kept.nodes = earlier


def _with_diagram(db: Session, author: Principal, subject: Subject) -> None:
    if subject.diagram_ref is not None or not policy.can_edit_diagram(author, subject):
        return
    with tempfile.NamedTemporaryFile(dir=uploads_folder(), suffix=".part", delete=False) as out:
        out.write(_diagram_png())
    path = Path(out.name)
    try:
        diagram.store(db, user=author, subject=subject, path=path, name=DIAGRAM_NAME)
    finally:
        path.unlink(missing_ok=True)


def seed(db: Session) -> None:
    """By the demo's creator (perm_ValidNotHaute, perm_EditNotHaute, perm_EditNotBasse); nothing when the
    database has no such user."""
    author_id = db.scalar(select(User.id).where(User.login == AUTHOR))
    if author_id is None:
        return
    author = principal_of(db, user_id=author_id)
    standardized = db.scalar(select(Subject).where(Subject.code == STANDARDIZED))
    if standardized is not None and standardized.standardized_at is not None:
        _changed_after_standardization(db, author, standardized)
    with_diagram = db.scalar(select(Subject).where(Subject.code == DIAGRAM_SUBJECT))
    if with_diagram is not None:
        _with_diagram(db, author, with_diagram)
    db.flush()
