"""Training path calls (spec 2 §7 Training paths, the core ones). A path's id
and a module's index hold digits in the address (`:id`, core.routing), so that /training/path/query,
/infos and /modules/query (element_routes.py, registered before this router) never match a path's
address."""

from typing import Annotated

from fastapi import Body, Response

from spot.account.auth import CurrentSession
from spot.core.auth import DB, CurrentUser, require
from spot.core.routing import api_router, work
from spot.core.schemas import Id
from spot.permissions.names import Permission
from spot.training.paths import cards, form, service, view
from spot.training.paths.schemas import (
    GradeBody,
    PathCard,
    PathCreate,
    PathOut,
    PathUpdate,
    SignBody,
    ValidateBody,
)

router = api_router(tags=["training paths"])

Ids = Annotated[list[Id], Body(max_length=1000)]
PATH = "/training/path/{trainingPathId:id}"
MODULE = PATH + "/{moduleIndex:id}"


def _cards(rows: list[dict]) -> list[PathCard]:
    return [PathCard.model_validate(row) for row in rows]


@router.post("/training/path", dependencies=[require(Permission.TrainingManagement)])
@work
def create_training_path(db: DB, user: CurrentUser, data: PathCreate) -> list[PathCard]:
    """One path per learner (in learnerIds order), the user its creator; 400 atLeastOneErrorLeft
    naming every faulty field. A work route: a group of several hundred learners is several hundred
    paths, written off the event loop (docs/performance.md, "Training paths")."""
    ids = form.create(db, user=user, data=data)
    return _cards(cards.infos(db, user=user, ids=ids))


@router.post("/training/path/infos")
async def training_path_infos(db: DB, user: CurrentUser, ids: Ids) -> list[PathCard]:
    """The cards of those of these paths the user may read, in the order given."""
    return _cards(cards.infos(db, user=user, ids=ids))


@router.get(PATH)
async def training_path(db: DB, user: CurrentUser, trainingPathId: Id) -> PathOut:
    """The path refreshed (elements done, modules and path finished) as the user sees it; 404
    trainingPathNotFound, 403 when the user may not read it."""
    return view.get(db, user=user, path_id=trainingPathId)


@router.post(PATH)
async def update_training_path(db: DB, user: CurrentUser, trainingPathId: Id, data: PathUpdate) -> PathOut:
    """The creator or an administrator; 409 staleVersion, 409 fieldNotEditable (title, reference, dates,
    threshold and modules once accepted), 400 atLeastOneErrorLeft."""
    form.update(db, user=user, path_id=trainingPathId, data=data)
    return view.get(db, user=user, path_id=trainingPathId)


@router.delete(PATH, status_code=204)
async def delete_training_path(db: DB, user: CurrentUser, trainingPathId: Id) -> Response:
    """The creator or an administrator, only while never accepted (409 illegalTransition otherwise)."""
    form.delete_path(db, user=user, path_id=trainingPathId)
    return Response(status_code=204)


@router.post(PATH + "/update")
async def refresh_training_path(db: DB, user: CurrentUser, trainingPathId: Id) -> PathOut:
    """The view's reload: progress recomputed (elements done, module finished, path finished)."""
    service.reload(db, user=user, path_id=trainingPathId)
    return view.get(db, user=user, path_id=trainingPathId)


@router.post(PATH + "/accept")
async def accept_training_path(db: DB, user: CurrentUser, trainingPathId: Id) -> PathOut:
    """The learner, while notAccepted and the stop date is not past."""
    service.accept(db, user=user, path_id=trainingPathId)
    return view.get(db, user=user, path_id=trainingPathId)


@router.post(PATH + "/start")
async def start_training_path(db: DB, user: CurrentUser, trainingPathId: Id) -> PathOut:
    """The creator, an administrator or a referent, once accepted."""
    service.start(db, user=user, path_id=trainingPathId)
    return view.get(db, user=user, path_id=trainingPathId)


@router.post(PATH + "/cancel")
async def cancel_training_path(db: DB, user: CurrentUser, trainingPathId: Id) -> PathOut:
    """The creator or an administrator, once accepted and before the learner's signature."""
    service.cancel(db, user=user, path_id=trainingPathId)
    return view.get(db, user=user, path_id=trainingPathId)


@router.post(PATH + "/validate")
async def validate_training_path(
    db: DB,
    user: CurrentUser,
    session: CurrentSession,
    trainingPathId: Id,
    data: ValidateBody,
) -> PathOut:
    """Close the finished path: the creator or an administrator, signing it (approval); 401
    reauthenticationRequired when the password was last given more than 5 minutes ago."""
    service.validate(db, user=user, session=session, path_id=trainingPathId, data=data)
    return view.get(db, user=user, path_id=trainingPathId)


@router.post(PATH + "/sign")
async def sign_training_path(
    db: DB,
    user: CurrentUser,
    session: CurrentSession,
    trainingPathId: Id,
    data: SignBody,
) -> PathOut:
    """The learner signs the closed path once every module is signed (acknowledgement); 401
    reauthenticationRequired when the password was last given more than 5 minutes ago."""
    service.sign(db, user=user, session=session, path_id=trainingPathId, data=data)
    return view.get(db, user=user, path_id=trainingPathId)


@router.post(MODULE + "/startNow")
async def start_training_path_module(
    db: DB,
    user: CurrentUser,
    trainingPathId: Id,
    moduleIndex: Id,
) -> PathOut:
    """A referent of the module or an administrator, path started; 404 notFound for an unknown index."""
    service.start_now(db, user=user, path_id=trainingPathId, module_index=moduleIndex)
    return view.get(db, user=user, path_id=trainingPathId)


@router.post(MODULE + "/disable")
async def disable_training_path_module(
    db: DB,
    user: CurrentUser,
    trainingPathId: Id,
    moduleIndex: Id,
) -> PathOut:
    """An administrator (path accepted, started or finished), or a referent of the module (path started
    and module not archived, or path accepted and module not started)."""
    service.disable(db, user=user, path_id=trainingPathId, module_index=moduleIndex)
    return view.get(db, user=user, path_id=trainingPathId)


@router.post(MODULE + "/grade")
async def grade_training_path_module(
    db: DB,
    user: CurrentUser,
    trainingPathId: Id,
    moduleIndex: Id,
    data: GradeBody,
) -> PathOut:
    """Grade and close the module, or change its grade: a referent of the module or an administrator
    (an archived module: an administrator, whose change revokes the learner's signature); 400
    atLeastOneErrorLeft, 409 staleVersion when another grading came first."""
    service.grade(db, user=user, path_id=trainingPathId, module_index=moduleIndex, data=data)
    return view.get(db, user=user, path_id=trainingPathId)


@router.post(MODULE + "/sign")
async def sign_training_path_module(
    db: DB,
    user: CurrentUser,
    session: CurrentSession,
    trainingPathId: Id,
    moduleIndex: Id,
    data: SignBody,
) -> PathOut:
    """The learner signs the graded module (acknowledgement); 401 reauthenticationRequired when the
    password was last given more than 5 minutes ago."""
    service.sign_module(
        db, user=user, session=session, path_id=trainingPathId, module_index=moduleIndex, data=data
    )
    return view.get(db, user=user, path_id=trainingPathId)
