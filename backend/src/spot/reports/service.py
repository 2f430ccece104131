"""The path report's rules (spec 2 §3 Report configuration, §5 Report, §9): checking a report's
parameters, the defaults, each user's saved parameter sets (one default at most; saving a name again
overwrites it), and the paths table."""

import base64
import binascii
import io
import re
from datetime import date

import filetype  # type: ignore[import-untyped]
from PIL import Image
from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import Session

from spot.core.errors import ApiError, FieldError, not_found
from spot.core.principal import Principal
from spot.core.time import today, utcnow
from spot.references.models import Reference
from spot.reports import selection
from spot.reports.models import ReportConfiguration as Stored
from spot.reports.schemas import (
    MAX_IMAGE_BYTES,
    MAX_IMAGE_SIDE,
    MAX_ROWS,
    DocumentOptions,
    ModuleOptions,
    PathOptions,
    ReportConfiguration,
    ReportConfigurationSave,
    ReportLearner,
    ReportPathRow,
    ReportPaths,
    ReportRequest,
    ReportSelectors,
)
from spot.training.modules.models import ModuleType, TrainingModule
from spot.training.paths.completion import completion
from spot.training.paths.models import ModuleStatus, PathStatus
from spot.training.paths.models import TrainingPath as P
from spot.training.paths.models import TrainingPathModule as PathModule
from spot.users.models import Group, User

FORM_ERRORS = "atLeastOneErrorLeft"
CONFIGURATION_NOT_FOUND = "reportConfigurationNotFound"
NOTHING_TO_DISPLAY = "nothingToDisplay"
IMAGE_FIELD = "documentOptions.signatureImage"
IMAGE_TOO_LARGE = "imageTooLarge"
_DATA_URL = re.compile(r"data:image/(?:png|jpeg);base64,([A-Za-z0-9+/=\s]*)", re.ASCII)
_IMAGE_TYPES = ("image/png", "image/jpeg")


# Checking a report's parameters --------------------------------------------------------------------------


def _image_error(data_url: str) -> str | None:
    """What is wrong with the signature image, as a message key; None when it is a PNG or a JPEG of at
    most 1,000,000 bytes and MAX_IMAGE_SIDE pixels a side that opens. The size is read from the image's
    header, before anything is decoded (as mapping.bundle bounds a map's images)."""
    match = _DATA_URL.fullmatch(data_url)
    if match is None:
        return "badFileFormat"
    try:
        data = base64.b64decode(match.group(1), validate=False)
    except (binascii.Error, ValueError):
        return "fileUploadError"
    if len(data) > MAX_IMAGE_BYTES:
        return "fileTooBig"
    kind = filetype.guess(data)
    if kind is None or kind.mime not in _IMAGE_TYPES:
        return "badFileFormat"
    try:
        with Image.open(io.BytesIO(data)) as image:
            if max(image.size) > MAX_IMAGE_SIDE:
                return IMAGE_TOO_LARGE
            image.verify()
    except Image.DecompressionBombError:
        return IMAGE_TOO_LARGE
    except Exception:  # whatever a damaged image makes Pillow raise, it does not open
        return "fileUploadError"
    return None


def _existing(db: Session, model: type[User] | type[Group], ids: list[int]) -> set[int]:
    if not ids:
        return set()
    return set(db.scalars(select(model.id).where(model.id.in_(sorted(set(ids))))))


def check(db: Session, request: ReportRequest) -> None:
    """422 atLeastOneErrorLeft naming every faulty field of the report's parameters (spec 2 §5 Report);
    the schema checked shapes and the texts' whitespace."""
    errors: list[FieldError] = []

    def error(field: str, code: str) -> None:
        errors.append(FieldError(field=field, code=code))

    s, d = request.selectors, request.document_options
    if not s.learner_id_list and not s.group_id_list:
        error("selectors.learnerIdList", "defineAtLeastOneLearnerOrGroup")
    if set(s.learner_id_list) - _existing(db, User, s.learner_id_list):
        error("selectors.learnerIdList", "userNotFound")
    if set(s.group_id_list) - _existing(db, Group, s.group_id_list):
        error("selectors.groupIdList", "groupNotFound")
    if s.stop < s.start:
        error("selectors.stop", "dateRangeReversed")
    if not s.path_statutes:
        error("selectors.pathStatutes", "selectAtLeastOneStatus")
    if not s.module_statutes:
        error("selectors.moduleStatutes", "selectAtLeastOneStatus")
    if not s.module_types:
        error("selectors.moduleTypes", "selectAtLeastOneType")
    if not d.document_title:
        error("documentOptions.documentTitle", "emptyFieldError")
    if d.manager_signature and not d.manager_signature_label:
        error("documentOptions.managerSignatureLabel", "emptyFieldError")
    if d.signature_image is not None and (code := _image_error(d.signature_image)) is not None:
        error(IMAGE_FIELD, code)
    if errors:
        raise ApiError(422, FORM_ERRORS, errors)


def defaults(*, on: date | None = None) -> ReportRequest:
    """The parameters a report starts from (spec 2 §9): this year, every path status, every module
    status but disabled, training modules, every option but mediators, both signature boxes."""
    year = (on or today()).year
    return ReportRequest(
        selectors=ReportSelectors(
            start=date(year, 1, 1),
            stop=date(year, 12, 31),
            learner_id_list=[],
            group_id_list=[],
            path_statutes=list(PathStatus),
            module_statutes=[s for s in ModuleStatus if s != ModuleStatus.disabled],
            module_types=[ModuleType.training],
        ),
        document_options=DocumentOptions(
            document_title="",
            display_external_ids=False,
            learner_signature=True,
            manager_signature=True,
            manager_signature_label="",
            signature_image=None,
        ),
        path_options=PathOptions(),
        module_options=ModuleOptions(),
    )


# Saved parameter sets ------------------------------------------------------------------------------------


def _out(row: Stored) -> ReportConfiguration:
    return ReportConfiguration.model_validate(
        {
            "name": row.name,
            "isDefault": row.is_default,
            "selectors": row.selectors,
            "documentOptions": row.document_options,
            "pathOptions": row.path_options,
            "moduleOptions": row.module_options,
        }
    )


def configurations(db: Session, *, user: Principal) -> list[ReportConfiguration]:
    """The user's parameter sets, by name."""
    rows = db.scalars(select(Stored).where(Stored.user_id == user.id).order_by(Stored.name, Stored.id))
    return [_out(row) for row in rows]


def save_configuration(db: Session, *, user: Principal, body: ReportConfigurationSave) -> None:
    """Saves the set under its name, overwriting the user's set of that name (whose default flag it
    keeps unless isDefault is given); a default set makes the user's others not default."""
    check(db, body)
    parts = {
        "selectors": body.selectors.model_dump(mode="json", by_alias=True),
        "document_options": body.document_options.model_dump(mode="json", by_alias=True),
        "path_options": body.path_options.model_dump(mode="json", by_alias=True),
        "module_options": body.module_options.model_dump(mode="json", by_alias=True),
    }
    row = db.scalar(
        select(Stored).where(Stored.user_id == user.id, Stored.name == body.name).with_for_update()
    )
    if row is None:
        row = Stored(user_id=user.id, name=body.name, is_default=bool(body.is_default), **parts)
        db.add(row)
    else:
        for key, value in parts.items():
            setattr(row, key, value)
        if body.is_default is not None:
            row.is_default = body.is_default
    row.updated_at = utcnow()
    if row.is_default:
        db.execute(
            update(Stored)
            .where(Stored.user_id == user.id, Stored.name != body.name, Stored.is_default.is_(True))
            .values(is_default=False)
        )
    db.flush()


def delete_configuration(db: Session, *, user: Principal, name: str) -> None:
    """404 reportConfigurationNotFound when the user has no set of that name."""
    deleted = db.execute(delete(Stored).where(Stored.user_id == user.id, Stored.name == name))
    if deleted.rowcount == 0:  # type: ignore[attr-defined]
        raise not_found(CONFIGURATION_NOT_FOUND)


# The paths table -----------------------------------------------------------------------------------------


def paths(db: Session, *, user: Principal, request: ReportRequest) -> ReportPaths:
    """The selected paths in the report's order, at most MAX_ROWS of them; totalItems counts them all."""
    check(db, request)
    selected = selection.path_selected(user, request.selectors)
    shown = (
        select(func.count())
        .select_from(PathModule)
        .join(TrainingModule, TrainingModule.id == PathModule.module_id)
        .where(PathModule.path_id == P.id, selection.module_shown(request.selectors))
        .scalar_subquery()
    )
    grades = (
        select(func.avg(PathModule.grade))
        .where(PathModule.path_id == P.id, PathModule.status != ModuleStatus.disabled)
        .scalar_subquery()
    )
    name = User.display_name if request.document_options.display_external_ids else selection.plain_name()
    rows = db.execute(
        select(
            P.id,
            P.title,
            Reference.code.label("reference"),
            P.learner_id,
            name.label("learner_name"),
            User.active.label("learner_active"),
            P.status,
            P.start_date,
            P.stop_date,
            shown.label("modules"),
            P.done_items,
            P.total_items,
            grades.label("grade"),
        )
        .join(User, User.id == P.learner_id)
        .outerjoin(Reference, Reference.id == P.reference_id)
        .where(selected)
        .order_by(*selection.LEARNER_ORDER, *selection.PATH_ORDER)
        .limit(MAX_ROWS)
    ).all()
    total = len(rows) if len(rows) < MAX_ROWS else selection.count_paths(db, user=user, request=request)
    return ReportPaths(
        results=[
            ReportPathRow(
                id=row.id,
                title=row.title,
                reference=row.reference,
                learner=ReportLearner(id=row.learner_id, name=row.learner_name, active=row.learner_active),
                status=row.status,
                start_date=row.start_date,
                stop_date=row.stop_date,
                modules=row.modules,
                completion=completion(row.done_items, row.total_items),
                average_grade=selection.average_grade([row.grade]),
            )
            for row in rows
        ],
        total_items=total,
    )
