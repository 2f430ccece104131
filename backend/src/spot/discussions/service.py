"""Discussions: one thread per item (cartography, function, subject; later mediation and
qualification), its messages, typed by users or written by the server for an action (system messages),
and when each user last read it, for the teamwork menu (the discussions with messages from others since).

An item gets its discussion when it is made (`create`, whose id goes in the item's `discussion_id`
column); `system_message` also makes one for an item that has none."""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    ColumnElement,
    CompoundSelect,
    delete,
    func,
    literal,
    or_,
    select,
    union,
    union_all,
    update,
)
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from spot.core import parents
from spot.core.errors import forbidden, not_found
from spot.core.history_models import HistoryEntry, is_write
from spot.core.principal import Principal
from spot.core.time import utcnow
from spot.discussions import policy
from spot.discussions.models import Discussion, DiscussionMessage, DiscussionRead
from spot.discussions.schemas import (
    Author,
    DiscussionOut,
    MessageOut,
    SystemInfo,
    SystemMessageType,
    UnreadDiscussion,
)
from spot.mapping import service as mapping
from spot.mapping.models import Cartography, Function
from spot.mapping.policy import Viewer, sees_cartography, sees_function
from spot.users.models import User

__all__ = ["SystemMessageType", "create", "system_message", "post", "read", "unread", "register_parent"]


# The items that have a discussion -----------------------------------------------------------


@dataclass(frozen=True)
class ParentTable:
    """How the teamwork menu reads the items of one type: the table (with its `discussion_id`), the
    item's name, whether a viewer sees a row, and the column naming who follows it, if any."""

    model: Any
    name: Any
    sees: Callable[[Viewer], ColumnElement[bool]]
    follower: Any = None


_TABLES: dict[str, ParentTable] = {}


def register_parent(parent_type: str, table: ParentTable) -> None:
    """Areas whose items have a discussion (subjects, mediations, qualifications) register their table
    here, as well as their loader in core.parents."""
    _TABLES[parent_type] = table


register_parent(
    "cartography", ParentTable(Cartography, Cartography.name, lambda v: sees_cartography(v, Cartography.id))
)
register_parent(
    "function",
    ParentTable(Function, Function.name, lambda v: sees_function(v, Function.id, Function.cartography_id)),
)


# Making -------------------------------------------------------------------------------------


def create(db: Session, *, parent_type: str, parent_id: int) -> int:
    """The discussion of a new item, whose id the item keeps in its `discussion_id` column. One left
    by a deleted item of the same type and id (deleted with its map, say) goes first, messages and all."""
    db.execute(
        delete(Discussion).where(Discussion.parent_type == parent_type, Discussion.parent_id == parent_id)
    )
    discussion = Discussion(parent_type=parent_type, parent_id=parent_id)
    db.add(discussion)
    db.flush()
    return discussion.id


def attach(db: Session, *, item: Any, parent_type: str) -> None:
    """The discussion of an item just written (flushed: it has its id), named in its `discussion_id`
    by a plain UPDATE: the item's version does not move (an import's new subjects stay at 1)."""
    discussion_id = create(db, parent_type=parent_type, parent_id=item.id)
    model = type(item)
    db.execute(
        update(model.__table__).where(model.__table__.c.id == item.id).values(discussion_id=discussion_id)
    )
    set_committed_value(item, "discussion_id", discussion_id)


# A map import writes cartographies, functions and subjects with their discussion (mapping.bundle).
parents.on_creation(lambda db, parent_type, item: attach(db, item=item, parent_type=parent_type))


def _discussion_id(db: Session, parent: parents.Parent) -> int:
    """The item's discussion, made now (and named by the item) for one that has none."""
    found = db.scalar(
        select(Discussion.id).where(Discussion.parent_type == parent.type, Discussion.parent_id == parent.id)
    )
    if found is not None:
        return found
    discussion_id = create(db, parent_type=parent.type, parent_id=parent.id)
    table = _TABLES.get(parent.type)
    if table is not None:
        db.execute(
            update(table.model)
            .where(table.model.id == parent.id)
            .values(discussion_id=discussion_id)
            .execution_options(synchronize_session=False)
        )
    return discussion_id


def remove(db: Session, *, discussion_id: int | None) -> None:
    """The discussion of a deleted item, with its messages."""
    if discussion_id is not None:
        db.execute(delete(Discussion).where(Discussion.id == discussion_id))


def system_message(
    db: Session,
    *,
    parent: parents.Parent,
    user: Principal | None,
    type: SystemMessageType,
    args: dict[str, Any],
) -> None:
    """A message of the server on the item's discussion, reporting `user`'s action (`args` are what
    the client words it with: names, values, the ids of the elements it names)."""
    db.add(
        DiscussionMessage(
            discussion_id=_discussion_id(db, parent),
            author_id=user.id if user else None,
            at=utcnow(),
            content="",
            system_type=SystemMessageType(type).value,
            system_args=args,
        )
    )
    db.flush()


# The elements system messages name ---------------------------------------------------------

# Whether the element a system message names (its args' "id") is still there for the reader: per
# message type, `check(db, user, ids)` answers those of `ids` the user may still reach. Without a
# check, an element counts as reachable. A message whose element is gone is shown as
# unreachableOrDeletedElement.
ElementCheck = Callable[[Session, Principal, list[int]], set[int]]
_ELEMENT_CHECKS: dict[SystemMessageType, ElementCheck] = {}


def register_element_check(kind: SystemMessageType, check: ElementCheck) -> None:
    _ELEMENT_CHECKS[kind] = check


def _reachable(db: Session, user: Principal, rows: Sequence[Any]) -> dict[SystemMessageType, set[int]]:
    """Per message type with a check, the ids its messages name that the user may still reach."""
    named: dict[SystemMessageType, list[int]] = {}
    for row in rows:
        kind, args = row.system_type, row.system_args or {}
        if kind in _ELEMENT_CHECKS and isinstance(args.get("id"), int):
            named.setdefault(SystemMessageType(kind), []).append(args["id"])
    return {kind: _ELEMENT_CHECKS[kind](db, user, ids) for kind, ids in named.items()}


# Reading and posting ------------------------------------------------------------------------


def _load(db: Session, *, user: Principal, discussion_id: int) -> tuple[Discussion, parents.Parent]:
    """The discussion and its item as `user` may read it: 404 when either is unknown, 403 when hidden."""
    discussion = db.get(Discussion, discussion_id)
    if discussion is None:
        raise not_found("discussionNotFound")
    parent = parents.get(db, user=user, parent_type=discussion.parent_type, parent_id=discussion.parent_id)
    return discussion, parent


def _contexts(db: Session, user: Principal, parent: parents.Parent) -> list[list[Any]]:
    """The paths to the item, the item itself at the end of each (the panel's heading)."""
    if parent.type not in ("cartography", "function", "subject"):
        return []
    item = mapping.item(db, user=user, item_type=parent.type, item_id=parent.id)
    own = {"id": item.id, "code": item.code, "name": item.name, "type": item.type}
    return [[*(entry.model_dump() for entry in path), own] for path in item.contexts]


_MESSAGES = (
    select(
        DiscussionMessage.id,
        DiscussionMessage.author_id,
        User.display_name.label("author_name"),
        DiscussionMessage.at,
        DiscussionMessage.content,
        DiscussionMessage.system_type,
        DiscussionMessage.system_args,
    )
    .outerjoin(User, User.id == DiscussionMessage.author_id)
    .order_by(DiscussionMessage.at, DiscussionMessage.id)
)


def _system(
    kind: str | None, args: dict[str, Any] | None, reachable: dict[SystemMessageType, set[int]]
) -> Any:
    if kind is None:
        return None
    kind, args = SystemMessageType(kind), args or {}
    gone = kind in reachable and args.get("id") not in reachable[kind]
    return SystemInfo(type=kind, args=args, reachable=not gone)


def _messages(db: Session, user: Principal, discussion_id: int) -> list[MessageOut]:
    rows = db.execute(_MESSAGES.where(DiscussionMessage.discussion_id == discussion_id)).all()
    reachable = _reachable(db, user, rows)
    return [
        MessageOut(
            id=row.id,
            author=Author(id=row.author_id, name=row.author_name) if row.author_id is not None else None,
            date=row.at,
            content=row.content,
            system=_system(row.system_type, row.system_args, reachable),
        )
        for row in rows
    ]


def _upsert_read() -> dict[str, Any]:
    def build(insert: Any) -> Any:
        table = DiscussionRead.__table__
        statement = insert(table)
        return statement.on_conflict_do_update(
            index_elements=[table.c.user_id, table.c.discussion_id],
            set_={"read_at": statement.excluded.read_at, "read_up_to": statement.excluded.read_up_to},
        )

    return {"postgresql": build(pg_insert), "sqlite": build(sqlite_insert)}


_MARK_READ = _upsert_read()


def _mark_read(db: Session, user: Principal, discussion_id: int, up_to: int) -> None:
    values = {"user_id": user.id, "discussion_id": discussion_id, "read_at": utcnow(), "read_up_to": up_to}
    db.execute(_MARK_READ[db.get_bind().dialect.name], values)


def read(db: Session, *, user: Principal, discussion_id: int) -> DiscussionOut:
    """The discussion, oldest message first; reading it marks it read for the user."""
    discussion, parent = _load(db, user=user, discussion_id=discussion_id)
    messages = _messages(db, user, discussion.id)
    out = DiscussionOut(
        id=discussion.id,
        parent_type=parent.type,
        parent_id=parent.id,
        contexts=_contexts(db, user, parent),  # type: ignore[arg-type]
        messages=messages,
        can=policy.can(user, parent),
    )
    _mark_read(db, user, discussion.id, max((m.id for m in messages), default=0))
    return out


def post(db: Session, *, user: Principal, discussion_id: int, content: str) -> MessageOut:
    """A message of `user` (its text already trimmed and checked by the schema)."""
    discussion, parent = _load(db, user=user, discussion_id=discussion_id)
    if not policy.can_post(user, parent):
        raise forbidden()
    message = DiscussionMessage(discussion_id=discussion.id, author_id=user.id, at=utcnow(), content=content)
    db.add(message)
    db.flush()
    return MessageOut(
        id=message.id,
        author=Author(id=user.id, name=user.display_name),
        date=message.at,
        content=content,
        system=None,
    )


# The teamwork menu --------------------------------------------------------------------------


def _taken_part(user_id: int) -> CompoundSelect[Any]:
    """The discussions of the items the user follows or contributed to: a write of the item in the
    history, or a message in its discussion."""
    written = (
        select(Discussion.id)
        .join(
            HistoryEntry,
            (HistoryEntry.item_type == Discussion.parent_type)
            & (HistoryEntry.item_id == Discussion.parent_id),
        )
        .where(HistoryEntry.user_id == user_id, is_write())
    )
    posted = select(DiscussionMessage.discussion_id).where(DiscussionMessage.author_id == user_id)
    followed = [
        select(table.model.discussion_id).where(table.follower == user_id)
        for table in _TABLES.values()
        if table.follower is not None
    ]
    return union(written, posted, *followed)


def _unread_counts(user_id: int) -> Any:
    """Per discussion the user took part in: the messages of others after those the user read."""
    read_up_to = (
        select(DiscussionRead.read_up_to)
        .where(
            DiscussionRead.user_id == user_id, DiscussionRead.discussion_id == DiscussionMessage.discussion_id
        )
        .scalar_subquery()
    )
    return (
        select(
            DiscussionMessage.discussion_id.label("discussion_id"),
            func.count().label("unread"),
            func.max(DiscussionMessage.at).label("last"),
        )
        .where(
            DiscussionMessage.discussion_id.in_(_taken_part(user_id)),
            or_(DiscussionMessage.author_id.is_(None), DiscussionMessage.author_id != user_id),
            DiscussionMessage.id > func.coalesce(read_up_to, 0),
        )
        .group_by(DiscussionMessage.discussion_id)
        .subquery()
    )


def unread(db: Session, *, user: Principal) -> list[UnreadDiscussion]:
    """The teamwork menu: the discussions of items the user follows or contributed to that have
    messages from others since the user last read them, newest first, among the items the user sees;
    in one statement."""
    counts = _unread_counts(user.id)
    per_type = [
        select(
            counts.c.discussion_id,
            literal(parent_type).label("parent_type"),
            table.model.id.label("parent_id"),
            table.name.label("parent_name"),
            counts.c.unread,
            counts.c.last,
        )
        .join(Discussion, Discussion.id == counts.c.discussion_id)
        .join(table.model, table.model.id == Discussion.parent_id)
        .where(Discussion.parent_type == parent_type, table.sees(user))
        for parent_type, table in _TABLES.items()
    ]
    everything = union_all(*per_type).subquery()
    rows = db.execute(
        select(everything).order_by(everything.c.last.desc(), everything.c.discussion_id.desc())
    ).all()
    return [
        UnreadDiscussion(
            discussion_id=discussion_id,
            parent_type=parent_type,
            parent_id=parent_id,
            parent_name=name,
            unread_count=count,
            last_date=last,
        )
        for discussion_id, parent_type, parent_id, name, count, last in rows
    ]
