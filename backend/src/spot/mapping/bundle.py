"""Map bundles: a zip holding map.json (one site: cartographies with image, activities,
functions, zones, pictograms and optionally subjects with their mind-map nodes) and the image
files it names. The format is documented in docs/map-bundle.md at the root of the repository.
This module reads and imports one; mapping.bundle_export writes one.

Import is keyed by codes: a re-import updates what exists and creates what does not, never
duplicates, and never deletes (an item absent from the bundle is kept), except that the zones
and pictograms of an imported cartography are replaced by the bundle's. Everything is
validated before anything is written; a bad bundle is refused with a message naming the
faulty entry ("cartographies[1].zones[3]: unknown activity code A12")."""

import hashlib
import io
import json
import re
import time
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Any, Literal

import filetype  # type: ignore[import-untyped]
from PIL import Image, UnidentifiedImageError
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, ValidationError
from pydantic.alias_generators import to_camel
from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from spot.core import files, history, parents
from spot.core.errors import ApiError
from spot.core.history import Event
from spot.core.principal import Principal
from spot.core.schemas import MultilineText, Text
from spot.core.time import utcnow
from spot.mapping import service
from spot.mapping.models import (
    Activity,
    Cartography,
    Function,
    MindMapItem,
    NodeStatus,
    Pictogram,
    Site,
    Subject,
    SubjectType,
    Zone,
    criticity_score,
)

FORMAT = "spot-map/1"
MANIFEST = "map.json"
MAX_BUNDLE_BYTES = 30_000_000
MAX_MEMBER_BYTES = 30_000_000
MAX_TOTAL_BYTES = 200_000_000
IMAGE_TYPES = {"image/png": "png", "image/jpeg": "jpg"}
# An image is served as it is and decoded by every browser that shows it: its header may not claim more
# than this, whatever its file size (a few bytes may claim 100,000 × 100,000 pixels).
MAX_IMAGE_SIDE = 20_000
MAX_IMAGE_PIXELS = 50_000_000
# Activities nest at most this deep. map.json nests at most as deep as such a map needs (site,
# cartographies, cartography, then a list and an object per level of activities) with a margin, so that
# parsing never recurses far and a few levels too many are refused naming the activity.
MAX_ACTIVITY_DEPTH = 50
MAX_JSON_DEPTH = 2 * MAX_ACTIVITY_DEPTH + 10

Code = Field(min_length=1, max_length=100)
Name = Field(max_length=300)
FileName = Field(min_length=1, max_length=300)


class _Strict(BaseModel):
    # Numbers are finite, and a boolean is not a number (nor a number a boolean).
    model_config = ConfigDict(
        alias_generator=to_camel, populate_by_name=True, extra="forbid", allow_inf_nan=False
    )


class BundleActivity(_Strict):
    code: Text = Code
    name: Text = Name
    activities: list["BundleActivity"] = []


class BundleFunction(_Strict):
    code: Text = Code
    name: Text = Name


class BundleZone(_Strict):
    type: Literal["activity", "function"]
    target: Text = Code
    x: float = Field(ge=0, strict=True)
    y: float = Field(ge=0, strict=True)
    width: float = Field(gt=0, strict=True)
    height: float = Field(gt=0, strict=True)


class BundlePictogram(_Strict):
    activity: Text = Code
    image: str = FileName


class BundleNode(_Strict):
    code: StrictInt = Field(ge=0, le=2**31 - 1)
    name: Text = Name
    status: NodeStatus = NodeStatus.empty
    # Left out (bundles written before the mind map was a tree): under the main node. The main node
    # has none.
    parent_code: StrictInt | None = Field(default=None, ge=0, le=2**31 - 1)
    # Order among the siblings; left out, after those that have one, by code.
    position: StrictInt | None = Field(default=None, ge=0, le=2**31 - 1)
    text: MultilineText = Field(default="", max_length=5000)


class BundleSubject(_Strict):
    code: Text = Code
    name: Text = Name
    type: SubjectType = SubjectType.risk
    function: Text = Code
    activity: Text = Code
    # Left out, a rating keeps its current value (0 for a new subject): a bundle describing
    # the map does not reset what users rated.
    frequency: StrictInt | None = Field(default=None, ge=0, le=5)
    gravity: StrictInt | None = Field(default=None, ge=0, le=5)
    detectability: StrictInt | None = Field(default=None, ge=0, le=5)
    has_diagram: StrictBool = False
    picture: str | None = Field(default=None, min_length=1, max_length=300)
    # Left out, the subject keeps its prevention measures (none for a new one).
    prevention_measures: MultilineText | None = Field(default=None, max_length=5000)
    # Left out, an existing subject keeps its mind map; a new one gets its main node (code 0).
    mind_map: list[BundleNode] = []


class BundleCartography(_Strict):
    code: Text = Code
    name: Text = Name
    image: str = FileName
    activities: list[BundleActivity] = []
    functions: list[BundleFunction] = []
    zones: list[BundleZone] = []
    pictograms: list[BundlePictogram] = []
    subjects: list[BundleSubject] = []


class Bundle(_Strict):
    format: Literal["spot-map/1"]
    code: Text = Code
    name: Text = Name
    cartographies: list[BundleCartography] = []


class ImportResult(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)

    site_id: int
    created: dict[str, int]
    updated: dict[str, int]


@dataclass(frozen=True)
class BundleImage:
    content: bytes
    media_type: str
    sha256: str
    width: int
    height: int


@dataclass
class ValidBundle:
    map: Bundle
    images: dict[str, BundleImage]


def refuse(message: str) -> ApiError:
    return ApiError(400, message)


# Reading and validating -----------------------------------------------------------------------


def _path(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _walk(
    activities: list[BundleActivity], path: str, depth: int = 1
) -> Iterator[tuple[BundleActivity, str]]:
    for i, activity in enumerate(activities):
        here = f"{path}[{i}]"
        if depth > MAX_ACTIVITY_DEPTH:
            raise refuse(f"{here}: activities nested deeper than {MAX_ACTIVITY_DEPTH} levels")
        yield activity, here
        yield from _walk(activity.activities, f"{here}.activities", depth + 1)


_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACKETS = re.compile(r"[\[\]{}]")


def _check_depth(text: str) -> None:
    """Refuse JSON nested deeper than MAX_JSON_DEPTH before parsing it, which would recurse once per
    level (and fail past Python's recursion limit), without recursing here."""
    steps = (1 if b in "[{" else -1 for b in _BRACKETS.findall(_STRINGS.sub("", text)))
    if max(accumulate(steps, initial=0)) > MAX_JSON_DEPTH:
        raise refuse(f"{MANIFEST}: nested deeper than {MAX_JSON_DEPTH} levels")


def _not_a_number(constant: str) -> Any:
    raise refuse(f"{MANIFEST}: {constant} is not a number")


def _read_members(data: bytes) -> zipfile.ZipFile:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except files.ZIP_READ_ERRORS as exc:
        raise refuse("bundle: not a zip file") from exc
    total = 0
    for info in archive.infolist():
        total += info.file_size
        if info.file_size > MAX_MEMBER_BYTES or total > MAX_TOTAL_BYTES:
            raise refuse(f"{info.filename}: file is too big")
    return archive


def _member(archive: zipfile.ZipFile, name: str, where: str) -> bytes:
    try:
        with archive.open(name) as handle:
            content = handle.read(MAX_MEMBER_BYTES + 1)
    except KeyError as exc:
        raise refuse(f"{where}: missing file {name}") from exc
    except files.ZIP_READ_ERRORS as exc:
        raise refuse(f"{where}: unreadable file {name}") from exc
    if len(content) > MAX_MEMBER_BYTES:
        raise refuse(f"{where}: file {name} is too big")
    return content


def _image(archive: zipfile.ZipFile, name: str, where: str) -> BundleImage:
    content = _member(archive, name, where)
    kind = filetype.guess(content)
    if kind is None or kind.mime not in IMAGE_TYPES:
        raise refuse(f"{where}: {name} is not a png or jpeg image")
    too_large = refuse(
        f"{where}: {name} is too large an image (at most {MAX_IMAGE_SIDE} pixels a side "
        f"and {MAX_IMAGE_PIXELS:,} pixels)"
    )
    try:
        with Image.open(io.BytesIO(content)) as picture:
            width, height = picture.size
            if max(width, height) > MAX_IMAGE_SIDE or width * height > MAX_IMAGE_PIXELS:
                raise too_large
            picture.verify()
    except Image.DecompressionBombError as exc:
        raise too_large from exc
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
        raise refuse(f"{where}: {name} is not a readable image") from exc
    return BundleImage(
        content=content,
        media_type=kind.mime,
        sha256=hashlib.sha256(content).hexdigest(),
        width=width,
        height=height,
    )


def read(data: bytes) -> ValidBundle:
    """Parse and check a whole bundle; raises a 400 naming the first faulty entry."""
    archive = _read_members(data)
    raw = _member(archive, MANIFEST, MANIFEST)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise refuse(f"{MANIFEST}: not UTF-8 text") from exc
    _check_depth(text)
    try:
        document = json.loads(text, parse_constant=_not_a_number)
    except json.JSONDecodeError as exc:
        raise refuse(f"{MANIFEST}: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from exc
    try:
        bundle = Bundle.model_validate(document)
    except ValidationError as exc:
        error = exc.errors()[0]
        where = _path(tuple(error["loc"])) or "map"
        raise refuse(f"{where}: {error['msg']}") from exc
    images: dict[str, BundleImage] = {}

    def image(name: str, where: str) -> None:
        if name not in images:
            images[name] = _image(archive, name, where)

    seen_cartographies: set[str] = set()
    for ci, cartography in enumerate(bundle.cartographies):
        base = f"cartographies[{ci}]"
        if cartography.code in seen_cartographies:
            raise refuse(f"{base}.code: duplicate cartography code {cartography.code}")
        seen_cartographies.add(cartography.code)
        image(cartography.image, f"{base}.image")
        activity_codes: set[str] = set()
        for activity, where in _walk(cartography.activities, f"{base}.activities"):
            if activity.code in activity_codes:
                raise refuse(f"{where}.code: duplicate activity code {activity.code}")
            activity_codes.add(activity.code)
        function_codes: set[str] = set()
        for fi, function in enumerate(cartography.functions):
            if function.code in function_codes:
                raise refuse(f"{base}.functions[{fi}].code: duplicate function code {function.code}")
            function_codes.add(function.code)
        known = {"activity": activity_codes, "function": function_codes}
        for zi, zone in enumerate(cartography.zones):
            if zone.target not in known[zone.type]:
                raise refuse(f"{base}.zones[{zi}]: unknown {zone.type} code {zone.target}")
        with_pictogram: set[str] = set()
        for pi, pictogram in enumerate(cartography.pictograms):
            where = f"{base}.pictograms[{pi}]"
            if pictogram.activity not in activity_codes:
                raise refuse(f"{where}: unknown activity code {pictogram.activity}")
            if pictogram.activity in with_pictogram:
                raise refuse(f"{where}: a second pictogram for activity {pictogram.activity}")
            with_pictogram.add(pictogram.activity)
            image(pictogram.image, f"{where}.image")
        subject_codes: set[str] = set()
        for si, subject in enumerate(cartography.subjects):
            where = f"{base}.subjects[{si}]"
            if subject.code in subject_codes:
                raise refuse(f"{where}.code: duplicate subject code {subject.code}")
            subject_codes.add(subject.code)
            if subject.function not in function_codes:
                raise refuse(f"{where}: unknown function code {subject.function}")
            if subject.activity not in activity_codes:
                raise refuse(f"{where}: unknown activity code {subject.activity}")
            node_codes = [n.code for n in subject.mind_map]
            if len(set(node_codes)) != len(node_codes):
                raise refuse(f"{where}.mindMap: duplicate node code")
            if subject.mind_map and 0 not in node_codes:
                raise refuse(f"{where}.mindMap: the main node (code 0) is missing")
            _check_tree(subject.mind_map, f"{where}.mindMap")
            if subject.picture is not None:
                image(subject.picture, f"{where}.picture")
    return ValidBundle(map=bundle, images=images)


def _parent_codes(nodes: list[BundleNode]) -> dict[int, int | None]:
    """Each node's parent: the main node has none, a node without parentCode is under the main node."""
    return {n.code: None if n.code == 0 else (0 if n.parent_code is None else n.parent_code) for n in nodes}


def _check_tree(nodes: list[BundleNode], where: str) -> None:
    """The nodes form one tree under the main node: known parents, no cycle."""
    parents = _parent_codes(nodes)
    for index, node in enumerate(nodes):
        if node.code == 0 and node.parent_code is not None:
            raise refuse(f"{where}[{index}].parentCode: the main node has no parent")
        if node.parent_code is not None and node.parent_code not in parents:
            raise refuse(f"{where}[{index}].parentCode: unknown node code {node.parent_code}")
    for index, node in enumerate(nodes):
        seen: set[int] = set()
        current = parents[node.code]
        while current is not None:
            if current in seen or current == node.code:
                raise refuse(f"{where}[{index}].parentCode: a node cannot be its own ancestor")
            seen.add(current)
            current = parents[current]


# Writing --------------------------------------------------------------------------------------


@dataclass
class _Writer:
    db: Session
    user: Principal | None
    images: dict[str, BundleImage]
    in_steps: bool = False
    created: dict[str, int] = field(default_factory=dict)
    updated: dict[str, int] = field(default_factory=dict)

    def step(self, done: int) -> None:
        """After `done` subjects of a cartography: commit, when importing in steps."""
        if self.in_steps and done % SUBJECTS_PER_STEP == 0:
            self.db.commit()
            time.sleep(STEP_PAUSE_SECONDS)

    def count(self, kind: str, is_new: bool) -> None:
        target = self.created if is_new else self.updated
        target[kind] = target.get(kind, 0) + 1

    def store(self, name: str, current_sha: str | None, current_ref: str | None) -> tuple[str, BundleImage]:
        """The stored file for a bundle image; an unchanged image keeps its stored file."""
        image = self.images[name]
        if current_ref and current_sha == image.sha256:
            return current_ref, image
        ref = files.store(self.db, image.content, extension=IMAGE_TYPES[image.media_type])
        files.retired(self.db, current_ref)
        return ref, image


def _set(entity: Any, **values: Any) -> bool:
    changed = False
    for key, value in values.items():
        if getattr(entity, key) != value:
            setattr(entity, key, value)
            changed = True
    return changed


# On SQLite, the one writer holds the database's lock until its commit: an import of 20,000 subjects in
# one transaction would keep every other request that writes (a subject page records its read) waiting.
# In steps, each commit of this many subjects frees the lock for the others, and a short pause lets
# one of them take it (SQLite's busy handler retries at growing intervals).
SUBJECTS_PER_STEP = 10
STEP_PAUSE_SECONDS = 0.01


def apply(
    db: Session, *, bundle: ValidBundle, user: Principal | None, in_steps: bool = False
) -> ImportResult:
    """Write a validated bundle in the caller's transaction. Files written for a bundle that
    then fails are removed again with the rollback; images it replaces go with the commit.
    `in_steps` (on SQLite only): commit every SUBJECTS_PER_STEP subjects; a failure then keeps the
    steps before it, which importing the bundle again completes (imports update, never duplicate)."""
    # Map writers queue on the map's version row (its triggers take it): taken first, before a
    # subject an unchanged map would let this import write, two imports of one site wait for each
    # other instead of each holding what the other needs (a deadlock, answered 409).
    service.lock_map(db)
    writer = _Writer(db=db, user=user, images=bundle.images, in_steps=in_steps and _on_sqlite(db))
    site = _write(writer, bundle.map)
    db.flush()
    return ImportResult(site_id=site.id, created=writer.created, updated=writer.updated)


def _write(w: _Writer, bundle: Bundle) -> Site:
    db = w.db
    site = db.scalar(select(Site).where(Site.code == bundle.code))
    w.count("sites", site is None)
    if site is None:
        site = Site(code=bundle.code, name=bundle.name)
        db.add(site)
    site.name = bundle.name
    db.flush()
    for ordering, data in enumerate(bundle.cartographies):
        _write_cartography(w, site, ordering, data)
    return site


def _write_cartography(w: _Writer, site: Site, ordering: int, data: BundleCartography) -> None:
    db = w.db
    cartography = db.scalar(
        select(Cartography).where(Cartography.site_id == site.id, Cartography.code == data.code)
    )
    w.count("cartographies", cartography is None)
    if cartography is None:
        cartography = Cartography(site_id=site.id, code=data.code, name=data.name)
        db.add(cartography)
    ref, image = w.store(data.image, cartography.image_sha256, cartography.image_ref)
    _set(
        cartography,
        name=data.name,
        ordering=ordering,
        image_ref=ref,
        image_media_type=image.media_type,
        image_sha256=image.sha256,
        image_width=image.width,
        image_height=image.height,
    )
    db.flush()
    if cartography.discussion_id is None:
        parents.created(db, parent_type="cartography", item=cartography)

    activities = {
        a.code: a for a in db.scalars(select(Activity).where(Activity.cartography_id == cartography.id))
    }

    def write_activities(items: list[BundleActivity], parent: Activity | None) -> None:
        for index, item in enumerate(items):
            activity = activities.get(item.code)
            w.count("activities", activity is None)
            if activity is None:
                activity = Activity(cartography_id=cartography.id, code=item.code, name=item.name)
                db.add(activity)
                activities[item.code] = activity
            _set(activity, name=item.name, ordering=index, parent_id=parent.id if parent else None)
            db.flush()
            write_activities(item.activities, activity)

    write_activities(data.activities, None)

    functions = {
        f.code: f for f in db.scalars(select(Function).where(Function.cartography_id == cartography.id))
    }
    for index, function_data in enumerate(data.functions):
        function = functions.get(function_data.code)
        w.count("functions", function is None)
        if function is None:
            function = Function(
                cartography_id=cartography.id, code=function_data.code, name=function_data.name
            )
            db.add(function)
            functions[function_data.code] = function
        _set(function, name=function_data.name, ordering=index)
    db.flush()
    for function in functions.values():
        if function.discussion_id is None:
            parents.created(db, parent_type="function", item=function)

    db.execute(delete(Zone).where(Zone.cartography_id == cartography.id))
    targets: dict[str, dict[str, Activity] | dict[str, Function]] = {
        "activity": activities,
        "function": functions,
    }
    for index, zone in enumerate(data.zones):
        db.add(
            Zone(
                cartography_id=cartography.id,
                ordering=index,
                item_type=zone.type,
                item_id=targets[zone.type][zone.target].id,
                x=zone.x,
                y=zone.y,
                width=zone.width,
                height=zone.height,
            )
        )
        w.count("zones", True)

    existing = {
        p.activity_id: p
        for p in db.scalars(select(Pictogram).where(Pictogram.cartography_id == cartography.id))
    }
    wanted = {activities[p.activity].id: p for p in data.pictograms}
    for activity_id, old in existing.items():
        if activity_id not in wanted:
            files.retired(db, old.image_ref)
            db.delete(old)
    for activity_id, pictogram_data in wanted.items():
        pictogram = existing.get(activity_id)
        w.count("pictograms", pictogram is None)
        ref, image = w.store(
            pictogram_data.image,
            pictogram.image_sha256 if pictogram else None,
            pictogram.image_ref if pictogram else None,
        )
        if pictogram is None:
            db.add(
                Pictogram(
                    cartography_id=cartography.id,
                    activity_id=activity_id,
                    image_ref=ref,
                    image_media_type=image.media_type,
                    image_sha256=image.sha256,
                )
            )
        else:
            _set(pictogram, image_ref=ref, image_media_type=image.media_type, image_sha256=image.sha256)
    db.flush()

    subjects = {
        s.code: s for s in db.scalars(select(Subject).where(Subject.cartography_id == cartography.id))
    }
    for done, subject_data in enumerate(data.subjects, start=1):
        _write_subject(w, cartography, subjects.get(subject_data.code), subject_data, activities, functions)
        w.step(done)
    db.flush()


def _write_subject(
    w: _Writer,
    cartography: Cartography,
    subject: Subject | None,
    item: BundleSubject,
    activities: dict[str, Activity],
    functions: dict[str, Function],
) -> None:
    db, now, user_id = w.db, utcnow(), w.user.id if w.user else None
    is_new = subject is None
    if subject is None:
        subject = Subject(
            cartography_id=cartography.id,
            code=item.code,
            name=item.name,
            created_by=user_id,
            created_at=now,
            updated_by=user_id,
            updated_at=now,
        )
        db.add(subject)
    picture: dict[str, Any] = {"picture_ref": None, "picture_media_type": None, "picture_sha256": None}
    if item.picture is None:
        files.retired(db, subject.picture_ref)
    else:
        ref, image = w.store(item.picture, subject.picture_sha256, subject.picture_ref)
        picture = {"picture_ref": ref, "picture_media_type": image.media_type, "picture_sha256": image.sha256}
    ratings = {
        key: value if value is not None else (getattr(subject, key) or 0)
        for key, value in (
            ("frequency", item.frequency),
            ("gravity", item.gravity),
            ("detectability", item.detectability),
        )
    }
    changed = _set(
        subject,
        name=item.name,
        type=item.type.value,
        function_id=functions[item.function].id,
        activity_id=activities[item.activity].id,
        **ratings,
        criticity_score=criticity_score(ratings["frequency"], ratings["gravity"]),
        prevention_measures=(
            item.prevention_measures
            if item.prevention_measures is not None
            else subject.prevention_measures or ""
        ),
        # A diagram stored in Spot stays (the bundle names the legacy application's only).
        has_diagram=item.has_diagram or subject.diagram_ref is not None,
        **picture,
    )
    mind_map_changed = False
    if item.mind_map or is_new:
        mind_map_changed = _write_mind_map(db, subject, item.mind_map or [BundleNode(code=0, name=item.name)])
        db.flush()
        if mind_map_changed and not is_new:
            subject.last_mindmap_update = now
    if (changed or mind_map_changed) and not is_new:
        subject.updated_by, subject.updated_at = user_id, now
    db.flush()
    if subject.discussion_id is None:
        parents.created(db, parent_type="subject", item=subject)
    if is_new or changed or mind_map_changed:
        w.count("subjects", is_new)
        event = Event.created if is_new else (Event.updated if changed else Event.mindMapUpdated)
        history.record(
            db,
            history.entry(
                user=w.user,
                item_type="subject",
                item_id=subject.id,
                item_key=subject.code,
                item_name=subject.name,
                mode="W",
                event=event,
                cartography_id=cartography.id,
            ),
        )


def _write_mind_map(db: Session, subject: Subject, nodes: list[BundleNode]) -> bool:
    """Nodes matched by code, updated in place (a replaced row would collide on its code); their
    parents and positions once every node has its id; the nodes left out, last, once no kept node
    is under them (the parent's foreign key would take it along)."""
    current = {n.code: n for n in subject.mind_map_items}
    wanted = {n.code: n for n in nodes}
    changed = False
    for code, item in wanted.items():
        node = current.get(code)
        if node is None:
            node = MindMapItem(code=code, name=item.name, status=item.status.value, text=item.text)
            subject.mind_map_items.append(node)
            current[code] = node
            changed = True
        else:
            changed = _set(node, name=item.name, status=item.status.value, text=item.text) or changed
    db.flush()
    parents = _parent_codes(nodes)
    siblings: dict[int | None, list[BundleNode]] = {}
    for item in sorted(nodes, key=lambda n: (n.position is None, n.position or 0, n.code)):
        siblings.setdefault(parents[item.code], []).append(item)
    for parent_code, items in siblings.items():
        parent_id = current[parent_code].id if parent_code is not None else None
        for position, item in enumerate(items):
            changed = _set(current[item.code], parent_id=parent_id, position=position) or changed
    gone = [node for code, node in current.items() if code not in wanted]
    for node in gone:
        node.parent_id = None
    db.flush()
    for node in gone:
        subject.mind_map_items.remove(node)
        changed = True
    return changed


def import_bundle(
    db: Session, *, data: bytes, user: Principal | None, in_steps: bool = False
) -> ImportResult:
    return apply(db, bundle=read(data), user=user, in_steps=in_steps)


def _on_sqlite(db: Session) -> bool:
    return db.get_bind().dialect.name == "sqlite"
