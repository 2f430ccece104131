"""The rules of training references (spec 2 §2 'Module and path references', §5 Reference): one list
per type, a code unique per type that never changes, code and label under the general text rule,
deletion only while nothing uses the reference.

For other areas:
- `resolve(db, type=..., code=..., current_id=...)`: the id to store for a reference code a form sent;
- `summaries(db, ids)`: references as `ReferenceSummary`, by id;
- `register_usage(type, counter)`: how many things use a reference of a type. Module and path
  references count, out of the box, the rows of `training_module` and `training_path` whose
  `reference_id` is the reference (once those tables' models are loaded); an area that keeps
  references elsewhere registers its own counter (it replaces the one of its type).
"""

import logging
from collections.abc import Callable, Iterable

from sqlalchemy import func, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from sqlalchemy.orm.exc import StaleDataError

from spot.core.errors import ApiError, FieldError, conflict, ensure, not_found
from spot.core.principal import Principal
from spot.db import Base
from spot.querylang.text import fold
from spot.references import policy
from spot.references.models import Reference, ReferenceType
from spot.references.schemas import ReferenceCard, ReferenceOut, ReferenceSave, ReferenceSummary

log = logging.getLogger("spot")

# The autocomplete's page (spec 2 §9).
SEARCH_LIMIT = 30

UsageCounter = Callable[[Session, int], int]


def _rows_pointing_to(table_name: str) -> UsageCounter:
    """Counts the rows of `table_name` whose reference_id is the reference; 0 while that table is not
    part of the application's models."""

    def count(db: Session, reference_id: int) -> int:
        table = Base.metadata.tables.get(table_name)
        if table is None:
            return 0
        statement = select(func.count()).select_from(table).where(table.c.reference_id == reference_id)
        return db.scalar(statement) or 0

    return count


_USAGE: dict[str, UsageCounter] = {
    ReferenceType.module: _rows_pointing_to("training_module"),
    ReferenceType.path: _rows_pointing_to("training_path"),
}


def register_usage(type: str, counter: UsageCounter) -> None:
    """`counter(db, reference_id)`: how many things use that reference of `type`; deleting a
    reference is refused while it is more than 0. Types without one count 0."""
    _USAGE[ReferenceType(type)] = counter


def reference_type(value: str) -> ReferenceType:
    """A `{type}` of the URLs; any other word is an unknown address (404)."""
    try:
        return ReferenceType(value)
    except ValueError:
        raise not_found("referenceTypeNotFound") from None


def find(db: Session, *, type: ReferenceType, code: str) -> Reference | None:
    return db.scalar(select(Reference).where(Reference.type == type.value, Reference.code == code))


def get(db: Session, *, type: ReferenceType, code: str) -> Reference:
    reference = find(db, type=type, code=code)
    if reference is None:
        raise not_found("referenceNotFound")
    return reference


def usage(db: Session, *, reference: Reference) -> int:
    counter = _USAGE.get(ReferenceType(reference.type))
    return counter(db, reference.id) if counter else 0


def view(db: Session, *, user: Principal, reference: Reference) -> ReferenceOut:
    used = usage(db, reference=reference)
    return ReferenceOut(
        code=reference.code,
        label=reference.label,
        description=reference.description,
        disabled=reference.disabled,
        version=reference.version,
        usage=used,
        can=policy.can(user, used),
    )


def save(db: Session, *, user: Principal, type: ReferenceType, data: ReferenceSave) -> Reference:
    """Create or save (ReferenceSave): version absent, create or save; 0, create only; else save the
    reference read at that version."""
    ensure(policy.can_manage(user))
    if data.version == CREATE_ONLY:
        return _create(db, type=type, data=data)
    if data.version is None:
        existing = find(db, type=type, code=data.code)
        if existing is None:
            return _create(db, type=type, data=data)
        return _save(db, reference=existing, data=data)
    reference = get(db, type=type, code=data.code)
    if data.version != reference.version:
        raise conflict("staleVersion")
    return _save(db, reference=reference, data=data)


# The version a client sends to create a reference and never overwrite one of the same code.
CREATE_ONLY = 0


def _save(db: Session, *, reference: Reference, data: ReferenceSave) -> Reference:
    reference.label, reference.description = data.label, data.description
    reference.disabled = data.disabled
    try:
        db.flush()
    except StaleDataError as exc:
        raise conflict("staleVersion") from exc
    return reference


def _already_exists() -> ApiError:
    return ApiError(409, "alreadyExists", [FieldError(field="code", code="alreadyExists")])


# A code is a segment of the reference's address: no slash, and not the autocomplete's own segment.
RESERVED_CODES = frozenset({"search"})


def _create(db: Session, *, type: ReferenceType, data: ReferenceSave) -> Reference:
    if "/" in data.code or data.code in RESERVED_CODES:
        raise ApiError(400, "invalidValue", [FieldError(field="code", code="invalidValue")])
    if find(db, type=type, code=data.code) is not None:
        raise _already_exists()
    reference = Reference(
        type=type.value,
        code=data.code,
        label=data.label,
        description=data.description,
        disabled=data.disabled,
    )
    db.add(reference)
    try:
        db.flush()
    except IntegrityError as exc:  # created by a concurrent request since the check
        raise _already_exists() from exc
    return reference


def delete(db: Session, *, user: Principal, reference: Reference) -> None:
    """Refused (409 referenceInUse) while a module or a path uses it."""
    ensure(policy.can_manage(user))
    if usage(db, reference=reference) > 0:
        raise conflict("referenceInUse")
    log.info(
        "training reference deleted type=%s code=%s by user_id=%s", reference.type, reference.code, user.id
    )
    db.delete(reference)
    db.flush()


def search(db: Session, *, type: ReferenceType, text: str) -> list[ReferenceCard]:
    """The autocomplete: enabled references whose code, label or description contains `text` (case
    and accents ignored), in code order, 30 at most."""
    statement = select(Reference).where(Reference.type == type.value, Reference.disabled.is_(False))
    folded = fold(text.strip())
    if folded:
        statement = statement.where(
            or_(
                Reference.code_folded.contains(folded, autoescape=True),
                Reference.label_folded.contains(folded, autoescape=True),
                Reference.description_folded.contains(folded, autoescape=True),
            )
        )
    statement = statement.order_by(Reference.code_folded, Reference.code, Reference.id).limit(SEARCH_LIMIT)
    return [ReferenceCard.model_validate(reference) for reference in db.scalars(statement)]


def _invalid_reference() -> ApiError:
    return ApiError(400, "invalidValue", [FieldError(field="reference", code="invalidValue")])


def resolve(
    db: Session,
    *,
    type: str = ReferenceType.module,
    code: str | None,
    current_id: int | None = None,
) -> int | None:
    """The id of the reference of `type` that a form names by `code` (None for no reference). An
    unknown code, or a disabled reference other than `current_id` (the one the entity has now, which it
    may keep), answers 400 with field `reference` `invalidValue`."""
    if code is None or code == "":
        return None
    reference = find(db, type=ReferenceType(type), code=code)
    if reference is None or (reference.disabled and reference.id != current_id):
        raise _invalid_reference()
    return reference.id


def summaries(db: Session, ids: Iterable[int | None]) -> dict[int, ReferenceSummary]:
    """The references of `ids` (None and unknown ids left out), as other entities show them."""
    wanted = {id_ for id_ in ids if id_ is not None}
    if not wanted:
        return {}
    rows = db.execute(
        select(Reference.id, Reference.code, Reference.label, Reference.description).where(
            Reference.id.in_(wanted)
        )
    )
    return {
        row.id: ReferenceSummary(code=row.code, label=row.label, description=row.description) for row in rows
    }
