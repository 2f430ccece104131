"""Training path calls on elements and the lists (spec 2 §7 Training paths, the elements' ones): the
learner opens a url or spot element, a referent attaches or detaches a mediation, and the two list pages.
Each action stores the path's progress (an element done may finish its module) and answers the path as
view.get reads it. Ids and indexes hold digits in the address (`:id`), as in routes.py, so that no
address of one router matches a route of the other."""

from spot.core.auth import DB, CurrentUser
from spot.core.routing import api_router
from spot.core.schemas import Id
from spot.querylang.lists import list_route
from spot.training.paths import element_actions, query, records, view
from spot.training.paths.schemas import PathOut

router = api_router(tags=["training paths"])

ELEMENT = "/training/path/{trainingPathId:id}/{moduleIndex:id}/{resultIndex:id}"

list_route(
    router,
    "/training/path/query",
    query.TRAINING_PATHS,
    name="query_training_paths",
    description="A page of the training paths the user may read (learner, creator, referent, visible to "
    "them or to one of their groups; every path for perm_TrainingPathAdmin), filtered and sorted with the "
    "query language (fields: GET /querylang/trainingPath/fields).",
)
list_route(
    router,
    "/training/path/modules/query",
    query.TRAINING_PATH_MODULES,
    name="query_training_path_modules",
    description="A page of the assigned modules of the paths the user may read, with their current grading "
    "and its validity (null for those who may not see grading), filtered and sorted with the query language "
    "(fields: GET /querylang/trainingPathModule/fields); by validity first by default.",
)


@router.post(ELEMENT + "/url")
async def open_training_path_element(
    db: DB,
    user: CurrentUser,
    trainingPathId: Id,
    moduleIndex: Id,
    resultIndex: Id,
) -> PathOut:
    """The learner opened a url or spot element from the path (the first opening is its doneAt): path
    started, module started or finished (409 illegalTransition otherwise; 409 with field `type` for
    another kind of element); 403 for anyone but the learner; 404 notFound past the end."""
    path = records.load(db, user=user, path_id=trainingPathId, for_update=True)
    module = records.module_at(db, path, moduleIndex)
    element_actions.record_open(db, user=user, path=path, module=module, result_index=resultIndex)
    return view.get(db, user=user, path_id=trainingPathId)


@router.post(ELEMENT + "/mediation/attach/{mediationId:id}")
async def attach_training_path_mediation(
    db: DB,
    user: CurrentUser,
    trainingPathId: Id,
    moduleIndex: Id,
    resultIndex: Id,
    mediationId: Id,
) -> PathOut:
    """Attach a mediation to a mediation element: a referent of the module or an administrator (403),
    path started, module started or finished (409 illegalTransition), a mediation the user may read (404
    mediationNotFound, 403) and not canceled (409 mediationCanceled: it would never be validated). Once
    it is validated and signed by the learner, the element is done."""
    path = records.load(db, user=user, path_id=trainingPathId, for_update=True)
    module = records.module_at(db, path, moduleIndex)
    element_actions.attach(
        db, user=user, path=path, module=module, result_index=resultIndex, mediation_id=mediationId
    )
    return view.get(db, user=user, path_id=trainingPathId)


@router.post(ELEMENT + "/mediation/detach/{mediationId:id}")
async def detach_training_path_mediation(
    db: DB,
    user: CurrentUser,
    trainingPathId: Id,
    moduleIndex: Id,
    resultIndex: Id,
    mediationId: Id,
) -> PathOut:
    """Detach a mediation, with the rules of attach; 404 notFound when it is not attached there."""
    path = records.load(db, user=user, path_id=trainingPathId, for_update=True)
    module = records.module_at(db, path, moduleIndex)
    element_actions.detach(
        db, user=user, path=path, module=module, result_index=resultIndex, mediation_id=mediationId
    )
    return view.get(db, user=user, path_id=trainingPathId)
