"""Legacy targets (issue 19, spec 1 §1 and §2): the addresses the legacy application gave a subject's
mind map, standardized mind map and diagram, as features/subjects/legacy.ts builds them (each segment
URI-encoded), resolved to Spot's own views:

- spot/{siteCode}/fonction/{functionCode}/pdvhaut/{code}// (or a single trailing slash): the mind map;
- spot/{siteCode}/fonction/{functionCode}/pdvhaut/{code}/standard: the standardized mind map;
- spot/{siteCode}/fonction/{functionCode}/pdvbas/{code}: the diagram;

{code} being the subject's code (legacy addresses name the point of view)."""

from urllib.parse import unquote

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from spot.core.errors import ApiError, FieldError, not_found
from spot.core.principal import Principal
from spot.mapping.models import Cartography, Function, Site
from spot.subjects import service
from spot.subjects.mindmap_extra_schemas import LegacyTarget, LegacyView
from spot.subjects.models import Subject

STANDARDIZED_FLAG = "standard"

# What follows {code}: the view it opens.
_TAILS: dict[str, dict[tuple[str, ...], LegacyView]] = {
    "pdvhaut": {("", ""): "mindMap", ("",): "mindMap", (STANDARDIZED_FLAG,): "standardized"},
    "pdvbas": {(): "diagram"},
}

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


def parse(to: str) -> tuple[str, str, str, LegacyView]:
    """(site code, function code, subject code, view) of a target; 400 invalidValue for another form."""
    parts = to.split("/")
    if len(parts) < 6 or parts[0] != "spot" or parts[2] != "fonction":
        raise _invalid()
    view = _TAILS.get(parts[4], {}).get(tuple(parts[6:]))
    codes = [unquote(parts[i], errors="strict") for i in (1, 3, 5)]
    if view is None or not all(code.strip() for code in codes):
        raise _invalid()
    return codes[0], codes[1], codes[2], view


def target(db: Session, *, user: Principal, to: str) -> LegacyTarget:
    """The subject and view a legacy target names: 404 notFound when no subject matches, 403 when the
    user may not see it (the subject's visibility, spot.mapping.policy)."""
    try:
        site, function, code, view = parse(to)
    except UnicodeDecodeError as exc:
        raise _invalid() from exc
    ids = db.scalars(_SUBJECTS, {"site": site, "function": function, "subject": code}).all()
    if not ids:
        raise not_found("notFound")
    hidden: ApiError | None = None
    for subject_id in ids:  # a code names one subject per cartography; the site may have several
        try:
            service.get(db, user=user, subject_id=subject_id)
        except ApiError as error:
            if error.status != 403:
                raise
            hidden = error
            continue
        return LegacyTarget(view=view, subject_id=subject_id)
    assert hidden is not None
    raise hidden
