"""Reading the map: sites, cartographies, activities, functions, their images and the hierarchy
contexts of any item (the cartography page itself is mapping.cartography_page). Every query goes
through spot.mapping.policy."""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Any

from sqlalchemy import (
    BigInteger,
    Integer,
    bindparam,
    column,
    func,
    literal,
    null,
    select,
    table,
    union,
    union_all,
)
from sqlalchemy.orm import Session, joinedload

from spot.core import parents
from spot.core.errors import not_found
from spot.core.files import get_file_store
from spot.core.principal import Principal
from spot.db import in_ids, plain
from spot.mapping import policy
from spot.mapping.models import Activity, Cartography, Function, MindMapItem, Pictogram, Site, Subject
from spot.mapping.policy import (
    Viewer,
    by_viewer,
    sees_activity,
    sees_cartography,
    sees_function,
    sees_subject,
)
from spot.mapping.schemas import (
    CartographyListItem,
    CartographyRef,
    CartographySiteName,
    ContextEntry,
    ItemOut,
    ItemType,
    SiteOut,
    SiteRef,
)
from spot.querylang import folded
from spot.querylang.text import fold

SEARCH_LIMIT = 30


# The statements every page of the map runs are built once, with parameters (CARTOGRAPHY_ID, ITEM_ID,
# policy.VIEWER): composing a statement and its cache key costs more than running it. Each is built in
# two versions (policy.by_viewer): users who see everything run one without any visibility test.
CARTOGRAPHY_ID = bindparam("cartography_id", type_=Integer)
ITEM_ID = bindparam("item_id", type_=Integer)


def _visible_statement(model: Any, viewer: Viewer) -> Any:
    statement = select(model, _sees(model, viewer)).where(model.id == ITEM_ID)
    # A cartography comes with its site, which its page and contexts show.
    return statement.options(joinedload(Cartography.site)) if model is Cartography else statement


def _sees(model: Any, viewer: Viewer) -> Any:
    """Whether the viewer sees the row of this model (spot.mapping.policy)."""
    if model is Cartography:
        return sees_cartography(viewer, Cartography.id)
    if model is Function:
        return sees_function(viewer, Function.id, Function.cartography_id)
    if model is Activity:
        return sees_activity(viewer, Activity.id, Activity.cartography_id)
    return sees_subject(viewer, Subject.function_id, Subject.activity_id, Subject.cartography_id)


_VISIBLE = {
    model: by_viewer(partial(_visible_statement, model))
    for model in (Cartography, Activity, Function, Subject)
}


def _visible_or_raise(db: Session, user: Principal, model: Any, item_id: int, message: str) -> Any:
    """The entity by id: 404 when unknown, 403 when hidden from the user."""
    row = db.execute(_VISIBLE[model].of(user), {"viewer_id": user.id, "item_id": item_id}).first()
    if row is None:
        raise not_found(message)
    if not row[1]:
        raise policy.hidden()
    return row[0]


def get_cartography(db: Session, *, user: Principal, cartography_id: int) -> Cartography:
    return _visible_or_raise(db, user, Cartography, cartography_id, "Cartography not found")


def get_activity(db: Session, *, user: Principal, activity_id: int) -> Activity:
    return _visible_or_raise(db, user, Activity, activity_id, "activityNotFound")


def get_function(db: Session, *, user: Principal, function_id: int) -> Function:
    return _visible_or_raise(db, user, Function, function_id, "functionNotFound")


def get_site(db: Session, *, user: Principal, site_id: int) -> Site:
    """A site is visible when it has no cartography or when the user sees one of them."""
    site = db.get(Site, site_id)
    if site is None:
        raise not_found("siteNotFound")
    has_any = db.scalar(select(func.count()).select_from(Cartography).where(Cartography.site_id == site_id))
    visible = db.scalar(
        select(func.count())
        .select_from(Cartography)
        .where(Cartography.site_id == site_id, sees_cartography(user, Cartography.id))
    )
    if has_any and not visible:
        raise policy.hidden()
    return site


# Lists --------------------------------------------------------------------------------------


def list_sites(db: Session, *, user: Principal) -> list[SiteOut]:
    visible = db.execute(
        select(Cartography, Site)
        .join(Site)
        .where(sees_cartography(user, Cartography.id))
        .order_by(Site.name, Site.id, Cartography.ordering, Cartography.id)
    ).all()
    by_site: dict[int, SiteOut] = {}

    def out(site: Site) -> SiteOut:
        whole = policy.may_see_whole_site(db, user, site.id)
        return SiteOut(id=site.id, code=site.code, name=site.name, cartographies=[], documents=whole)

    for cartography, site in visible:
        if site.id not in by_site:
            by_site[site.id] = out(site)
        by_site[site.id].cartographies.append(CartographyRef.model_validate(cartography))
    empty_sites = db.scalars(select(Site).where(~Site.cartographies.any())).all()
    for site in empty_sites:
        by_site[site.id] = out(site)
    return sorted(by_site.values(), key=lambda s: (s.name.lower(), s.id))


def list_cartographies(db: Session, *, user: Principal) -> list[CartographyListItem]:
    rows = db.execute(
        select(Cartography, Site)
        .join(Site)
        .where(sees_cartography(user, Cartography.id))
        .order_by(Site.name, Site.id, Cartography.ordering, Cartography.id)
    ).all()
    return [
        CartographyListItem(
            id=c.id,
            code=c.code,
            name=c.name,
            site=SiteRef.model_validate(s),
            image_width=c.image_width,
            image_height=c.image_height,
        )
        for c, s in rows
    ]


def search_cartographies(
    db: Session, *, user: Principal, name: str, visible_only: bool
) -> list[CartographySiteName]:
    """Cartographies whose name or site name contains `name` (ignoring case and accents). Only map
    administrators may look past visibility (the visibility screen lists every cartography)."""
    text = fold(name.strip())
    query = (
        select(Cartography, Site)
        .join(Site)
        .where(
            folded(Cartography.name).contains(text, autoescape=True)
            | folded(Site.name).contains(text, autoescape=True)
        )
        .order_by(Site.name, Cartography.name, Cartography.id)
        .limit(SEARCH_LIMIT)
    )
    if visible_only or not policy.may_administer_maps(user):
        query = query.where(sees_cartography(user, Cartography.id))
    return [_site_name(c, s) for c, s in db.execute(query).all()]


def cartography_site_names(db: Session, *, user: Principal, ids: Sequence[int]) -> list[CartographySiteName]:
    """Names of the given cartographies; unknown and hidden ids are left out."""
    if not ids:
        return []
    rows = db.execute(
        select(Cartography, Site)
        .join(Site)
        .where(Cartography.id.in_(set(ids)), sees_cartography(user, Cartography.id))
        .order_by(Cartography.id)
    ).all()
    return [_site_name(c, s) for c, s in rows]


def _site_name(cartography: Cartography, site: Site) -> CartographySiteName:
    return CartographySiteName(
        id=cartography.id, code=cartography.code, name=cartography.name, site_id=site.id, site_name=site.name
    )


# Files --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StoredImage:
    content: bytes
    media_type: str
    etag: str
    filename: str


def cartography_image(db: Session, *, user: Principal, cartography_id: int) -> StoredImage:
    cartography = get_cartography(db, user=user, cartography_id=cartography_id)
    if not cartography.image_ref or not cartography.image_media_type or not cartography.image_sha256:
        raise not_found("could not load image")
    return StoredImage(
        content=get_file_store().get(cartography.image_ref),
        media_type=cartography.image_media_type,
        etag=f'"{cartography.image_sha256}"',
        filename=f"cartography-{cartography.id}.{_ext(cartography.image_media_type)}",
    )


def pictogram_image(db: Session, *, user: Principal, cartography_id: int, pictogram_id: int) -> StoredImage:
    get_cartography(db, user=user, cartography_id=cartography_id)
    pictogram = db.get(Pictogram, pictogram_id)
    if pictogram is None or pictogram.cartography_id != cartography_id:
        raise not_found("pictogramNotFound")
    return StoredImage(
        content=get_file_store().get(pictogram.image_ref),
        media_type=pictogram.image_media_type,
        etag=f'"{pictogram.image_sha256}"',
        filename=f"pictogram-{pictogram.id}.{_ext(pictogram.image_media_type)}",
    )


def _ext(media_type: str) -> str:
    return "png" if media_type == "image/png" else "jpg"


# The activities of a cartography the viewer sees (spot.mapping.policy), for the cartography page
# (mapping.cartography_page) and for subjects.
_ACTIVITIES = by_viewer(
    lambda viewer: (
        select(Activity)
        .where(
            Activity.cartography_id == CARTOGRAPHY_ID,
            sees_activity(viewer, Activity.id, Activity.cartography_id),
        )
        .order_by(Activity.ordering, Activity.id)
    )
)


def activities_of(db: Session, *, user: Principal, cartography_id: int) -> Sequence[Activity]:
    """The activities of the cartography that the user sees."""
    params = {"cartography_id": cartography_id, "viewer_id": user.id}
    return db.scalars(_ACTIVITIES.of(user), params).all()


# Contexts -----------------------------------------------------------------------------------


def entry(item: Site | Cartography | Activity | Function | Subject, kind: str) -> ContextEntry:
    return ContextEntry(id=item.id, code=item.code, name=item.name, type=kind)  # type: ignore[arg-type]


@dataclass(frozen=True)
class _Step:
    entry: ContextEntry
    cartography_id: int | None  # of a function or an activity; a cartography's own id
    parent_id: int | None  # the site of a cartography, the parent of an activity


@lru_cache(maxsize=16_384)
def _context_entry(kind: ItemType, item_id: int, code: str, name: str) -> ContextEntry:
    """The entries of the map's items, shared by every request that shows them (a list page reads
    hundreds): keyed by all they hold, a renamed item simply gets a new one. Never modify one.
    model_construct: the values come from the map's own tables."""
    return ContextEntry.model_construct(id=item_id, code=code, name=name, type=kind)


class MapPaths:
    """The hierarchy paths (site first) to items of the map, from the rows map_paths read."""

    def __init__(self, rows: Sequence[Any]) -> None:
        self._steps = {
            (kind, item_id): _Step(_context_entry(kind, item_id, code, name), owner, parent)
            for kind, item_id, code, name, owner, parent in rows
        }

    def cartography(self, cartography_id: int | None) -> list[ContextEntry]:
        """Its site and itself; empty for an unknown cartography."""
        step = self._steps.get(("cartography", cartography_id))
        if step is None:
            return []
        return [self._steps[("site", step.parent_id)].entry, step.entry]

    def function(self, function_id: int) -> list[ContextEntry] | None:
        step = self._steps.get(("function", function_id))
        if step is None:
            return None
        return [*self.cartography(step.cartography_id), step.entry]

    def activity(self, activity_id: int) -> list[ContextEntry] | None:
        """Down to the activity through its ancestors, top-level first."""
        step = self._steps.get(("activity", activity_id))
        if step is None:
            return None
        chain, seen = [step], {activity_id}
        while chain[0].parent_id is not None and chain[0].parent_id not in seen:
            parent = self._steps.get(("activity", chain[0].parent_id))
            if parent is None:
                break
            seen.add(parent.entry.id)
            chain.insert(0, parent)
        return [*self.cartography(step.cartography_id), *(s.entry for s in chain)]

    def subject(self, subject: Subject) -> list[list[ContextEntry]]:
        """Through its function and through its activity (and sub-activity)."""
        paths = (self.function(subject.function_id), self.activity(subject.activity_id))
        return [path for path in paths if path is not None]


def _path_rows() -> dict[str, Any]:
    """What MapPaths reads of each kind of item: kind, id, code, name, cartography, parent."""
    return {
        "site": select(literal("site"), Site.id, Site.code, Site.name, null(), null()),
        "cartography": select(
            literal("cartography"),
            Cartography.id,
            Cartography.code,
            Cartography.name,
            Cartography.id,
            Cartography.site_id,
        ),
        "function": select(
            literal("function"), Function.id, Function.code, Function.name, Function.cartography_id, null()
        ),
        "activity": select(
            literal("activity"),
            Activity.id,
            Activity.code,
            Activity.name,
            Activity.cartography_id,
            Activity.parent_id,
        ),
    }


def _map_paths_statement() -> Any:
    rows = _path_rows()
    seeds = select(Activity.id, Activity.parent_id).where(in_ids(Activity.id, "activity_ids"))
    ancestors = seeds.cte("ancestors", recursive=True)
    # UNION, not UNION ALL: a cycle of parents (bad data) ends the recursion instead of looping.
    ancestors = ancestors.union(
        select(Activity.id, Activity.parent_id).join(ancestors, Activity.id == ancestors.c.parent_id)
    )
    cartographies = union(
        select(Cartography.id).where(in_ids(Cartography.id, "cartography_ids")),
        select(Function.cartography_id).where(in_ids(Function.id, "function_ids")),
        select(Activity.cartography_id).where(in_ids(Activity.id, "activity_ids")),
    ).cte("cartographies")
    of_cartographies = Cartography.id.in_(select(cartographies.c.id))
    return union_all(
        rows["cartography"].where(of_cartographies),
        rows["site"].where(Site.id.in_(select(Cartography.site_id).where(of_cartographies))),
        rows["function"].where(in_ids(Function.id, "function_ids")),
        rows["activity"].where(Activity.id.in_(select(ancestors.c.id))),
    )


# Built once: composing this statement costs more than running it.
_MAP_PATHS = _map_paths_statement()
_WHOLE_MAP = union_all(*_path_rows().values())
# Not a model: only the triggers of migration 63bf24d87e00 write its one row, which must outlive
# any cleanup of the tables.
_MAP_VERSION = select(column("version", BigInteger)).select_from(table("map_version"))


def lock_map(db: Session) -> None:
    """Hold the map's version row until the transaction ends (PostgreSQL; SQLite has one writer)."""
    db.execute(_MAP_VERSION.with_for_update())


@dataclass(frozen=True)
class _Hierarchy:
    version: int | None  # None: no map_version row, and no copy may serve
    paths: MapPaths


# This process's copy of the paths of the whole map, and the map_version it was read at.
_hierarchy: _Hierarchy | None = None


def _read_hierarchy(db: Session) -> _Hierarchy:
    """The whole map from a connection of its own, so that it holds committed rows only, never what
    the request is in the middle of writing. The version is read first: a change committed between
    the two statements leaves a copy labelled older than its content, which the next reader of the
    newer version replaces."""
    with db.get_bind().engine.connect() as connection:
        version = connection.scalar(_MAP_VERSION)
        return _Hierarchy(version, MapPaths(connection.execute(_WHOLE_MAP).all()))


def _cached_paths(db: Session) -> MapPaths | None:
    """The process's copy of the map's paths when it is the map this request sees, else None (the
    request changed the map itself, or sees a version committed after a newer one was read)."""
    global _hierarchy
    version = plain(db).scalar(_MAP_VERSION)
    if version is None:
        return None
    if _hierarchy is None or _hierarchy.version != version:
        _hierarchy = _read_hierarchy(db)
    return _hierarchy.paths if _hierarchy.version == version else None


def map_paths(
    db: Session,
    *,
    cartography_ids: Iterable[int] = (),
    function_ids: Iterable[int] = (),
    activity_ids: Iterable[int] = (),
) -> MapPaths:
    """What the paths to these items need: the items, every ancestor of the activities, and the
    cartographies (with their sites) of them all. The map changes only when one is imported: the
    process's copy of the whole of it serves while map_version stays; else one statement reads
    what these paths need."""
    cached = _cached_paths(db)
    if cached is not None:
        return cached
    ids = {
        "cartography_ids": list(set(cartography_ids)),
        "function_ids": list(set(function_ids)),
        "activity_ids": list(set(activity_ids)),
    }
    return MapPaths(plain(db).execute(_MAP_PATHS, ids).all())


def cartography_context(db: Session, cartography_id: int) -> list[ContextEntry]:
    return map_paths(db, cartography_ids=[cartography_id]).cartography(cartography_id)


def subject_paths(db: Session, subjects: Iterable[Subject]) -> MapPaths:
    """The paths of every subject given, in one statement (MapPaths.subject gives each one's)."""
    subjects = list(subjects)
    return map_paths(
        db, function_ids=(s.function_id for s in subjects), activity_ids=(s.activity_id for s in subjects)
    )


def subject_contexts(db: Session, subject: Subject) -> list[list[ContextEntry]]:
    return subject_paths(db, [subject]).subject(subject)


def item(db: Session, *, user: Principal, item_type: str, item_id: int) -> ItemOut:
    """Any item of the hierarchy with the paths that lead to it, when the user sees it."""
    if item_type == "site":
        site = get_site(db, user=user, site_id=item_id)
        return ItemOut(
            id=site.id, code=site.code, name=site.name, type="site", cartography_id=None, contexts=[[]]
        )
    if item_type == "cartography":
        c = get_cartography(db, user=user, cartography_id=item_id)
        return ItemOut(
            id=c.id,
            code=c.code,
            name=c.name,
            type="cartography",
            cartography_id=c.id,
            contexts=[[entry(c.site, "site")]],
        )
    if item_type == "activity":
        a = get_activity(db, user=user, activity_id=item_id)
        return ItemOut(
            id=a.id,
            code=a.code,
            name=a.name,
            type="activity",
            cartography_id=a.cartography_id,
            contexts=[(map_paths(db, activity_ids=[a.id]).activity(a.id) or [])[:-1]],
        )
    if item_type == "function":
        f = get_function(db, user=user, function_id=item_id)
        return ItemOut(
            id=f.id,
            code=f.code,
            name=f.name,
            type="function",
            cartography_id=f.cartography_id,
            contexts=[cartography_context(db, f.cartography_id)],
        )
    if item_type == "subject":
        s = _visible_or_raise(db, user, Subject, item_id, "subjectNotFound")
        return ItemOut(
            id=s.id,
            code=s.code,
            name=s.name,
            type="subject",
            cartography_id=s.cartography_id,
            contexts=subject_contexts(db, s),
        )
    if item_type == "mindmapNode":
        row = db.execute(
            select(
                MindMapItem,
                Subject,
                sees_subject(user, Subject.function_id, Subject.activity_id, Subject.cartography_id),
            )
            .join(Subject, Subject.id == MindMapItem.subject_id)
            .where(MindMapItem.id == item_id)
        ).first()
        if row is None:
            raise not_found("mindmapNodeNotFound")
        node, subject, visible = row
        if not visible:
            raise policy.hidden()
        return ItemOut(
            id=node.id,
            code=str(node.code),
            name=node.name,
            type="mindmapNode",
            cartography_id=subject.cartography_id,
            contexts=[[*c, entry(subject, "subject")] for c in subject_contexts(db, subject)],
        )
    raise not_found("unknownItemType")


# Galleries and discussions of the map (core.parents) ------------------------------------------


def _cartography_parent(db: Session, user: Principal, cartography_id: int) -> parents.Parent:
    cartography = get_cartography(db, user=user, cartography_id=cartography_id)
    return parents.Parent("cartography", cartography.id, cartography.code, cartography.name, cartography.id)


def _function_parent(db: Session, user: Principal, function_id: int) -> parents.Parent:
    function = get_function(db, user=user, function_id=function_id)
    return parents.Parent("function", function.id, function.code, function.name, function.cartography_id)


parents.register("cartography", _cartography_parent)
parents.register("function", _function_parent)
