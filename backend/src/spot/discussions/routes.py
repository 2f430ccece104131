from spot.core.auth import DB, CurrentUser
from spot.core.routing import api_router
from spot.core.schemas import Id
from spot.discussions import service
from spot.discussions.schemas import DiscussionOut, MessageOut, MessagePost, UnreadDiscussion

router = api_router(tags=["discussions"])


@router.get("/discussion/unread")
async def unread(db: DB, user: CurrentUser) -> list[UnreadDiscussion]:
    """The teamwork menu (not shown in the spec): the discussions of items the user follows or
    contributed to (wrote to, or posted in) that have messages from others since the user last read
    them, newest first, among the items the user sees."""
    return service.unread(db, user=user)


@router.get("/discussion/{discussionId}")
async def discussion(db: DB, user: CurrentUser, discussionId: Id) -> DiscussionOut:
    """The item's discussion, oldest message first; follows the item's visibility (hidden 403,
    unknown 404). Reading it marks it read for the user."""
    return service.read(db, user=user, discussion_id=discussionId)


@router.post("/discussion/{discussionId}")
async def post_message(db: DB, user: CurrentUser, discussionId: Id, body: MessagePost) -> MessageOut:
    """A message: the text is trimmed; blank is refused (emptyFieldError)."""
    return service.post(db, user=user, discussion_id=discussionId, content=body.content)
