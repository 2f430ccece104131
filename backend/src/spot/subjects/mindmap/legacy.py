"""Legacy targets (spec 1 §1 and §2, docs/mind-map.md): the addresses the legacy application gave a subject's
mind map, standardized mind map and diagram, as features/subjects/legacy.ts builds them (each segment
URI-encoded), resolved to Spot's own views:

- spot/{siteCode}/fonction/{functionCode}/pdvhaut/{code}// (or a single trailing slash): the mind map;
- spot/{siteCode}/fonction/{functionCode}/pdvhaut/{code}/standard: the standardized mind map;
- spot/{siteCode}/fonction/{functionCode}/pdvbas/{code}: the diagram;
- spot/{siteCode}/fonction/{functionCode}: the function's page;

{code} being the subject's code (legacy addresses name the point of view)."""

from collections.abc import Callable, Sequence
from urllib.parse import unquote

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from spot.core.errors import ApiError, FieldError, not_found
from spot.core.principal import Principal
from spot.mapping import service as mapping
from spot.mapping.models import Cartography, Function, Site, Subject
from spot.subjects import service as subjects
from spot.subjects.mindmap.schemas import FunctionTarget, LegacyTarget, LegacyView, SubjectTarget

STANDARDIZED_FLAG = "standard"

# What follows {code}: the view it opens.
_TAILS: dict[str, dict[tuple[str, ...], LegacyView]] = {
    "pdvhaut": {("", ""): "mindMap", ("",): "mindMap", (STANDARDIZED_FLAG,): "standardized"},
    "pdvbas": {(): "diagram"},
}

_FUNCTIONS = (
    select(Function.id)
    .join(Cartography, Cartography.id == Function.cartography_id)
    .join(Site, Site.id == Cartography.site_id)
    .where(Site.code == bindparam("site"), Function.code == bindparam("function"))
    .order_by(Function.id)
)
_SUBJECTS = (
    select(Subject.id)
    .join(Function, Function.id == Subject.function_id)
    .join(Cartography, Cartography.id == Function.cartography_id)
    .join(Site, Site.id == Cartography.site_id)
    .where(
        Site.code == bindparam("site"),
        Function.code == bindparam("function"),
        Subject.code == bindparam("subject"),
    )
    .order_by(Subject.id)
)


def _invalid() -> ApiError:
    return ApiError(400, "invalidValue", [FieldError(field="to", code="invalidValue")])


def parse(to: str) -> tuple[str, str, str | None, LegacyView | None]:
    """(site code, function code, subject code, view) of a target, the last two None for a function's
    page; 400 invalidValue for another form."""
    parts = to.split("/")
    if len(parts) < 4 or parts[0] != "spot" or parts[2] != "fonction":
        raise _invalid()
    view: LegacyView | None = None
    if len(parts) > 4:
        # A view comes with its subject's code: …/pdvbas/{code}, …/pdvhaut/{code}/…
        view = _TAILS.get(parts[4], {}).get(tuple(parts[6:])) if len(parts) > 5 else None
        if view is None:
            raise _invalid()
    codes = [unquote(part, errors="strict") for part in parts[1:6:2]]
    if not all(code.strip() for code in codes):
        raise _invalid()
    return codes[0], codes[1], codes[2] if view else None, view


def _first_visible(ids: Sequence[int], read: Callable[[int], object]) -> int:
    """The first of `ids` that `read` lets the user see: a code names one item per cartography and a
    site may have several; 404 notFound without any, 403 when all are hidden."""
    hidden: ApiError | None = None
    for item_id in ids:
        try:
            read(item_id)
        except ApiError as error:
            if error.status != 403:
                raise
            hidden = error
            continue
        return item_id
    raise hidden or not_found("notFound")


def target(db: Session, *, user: Principal, to: str) -> LegacyTarget:
    """The subject and view, or the function, a legacy target names: 404 notFound when none matches,
    403 when the user may not see it (spot.mapping.policy)."""
    try:
        site, function, code, view = parse(to)
    except UnicodeDecodeError as exc:
        raise _invalid() from exc
    if code is None or view is None:
        ids = db.scalars(_FUNCTIONS, {"site": site, "function": function}).all()
        function_id = _first_visible(ids, lambda item: mapping.get_function(db, user=user, function_id=item))
        return FunctionTarget(view="function", function_id=function_id)
    ids = db.scalars(_SUBJECTS, {"site": site, "function": function, "subject": code}).all()
    subject_id = _first_visible(ids, lambda item: subjects.get(db, user=user, subject_id=item))
    return SubjectTarget(view=view, subject_id=subject_id)
