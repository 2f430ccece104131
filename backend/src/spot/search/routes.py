from typing import Annotated

from fastapi import Query

from spot.core.auth import DB, CurrentUser
from spot.core.errors import ApiError, FieldError
from spot.core.routing import api_router, hot_read
from spot.core.schemas import Str
from spot.search import service
from spot.search.schemas import Category, SearchOut

router = api_router(tags=["search"])


@router.get("/search")
@hot_read
async def search(
    db: DB,
    user: CurrentUser,
    text: Annotated[Str, Query(max_length=service.MAX_TEXT)],
    limit: Annotated[int, Query(ge=1, le=service.EXPANDED)] = service.COLLAPSED,
    category: Category | None = None,
) -> SearchOut:
    """Cartographies, functions, subjects and mind-map nodes the user may read whose name holds
    `text` (1 character at least; case and accents ignored; a text of 1 or 2 characters finds the
    names that begin with it): the first `limit` of each category (5 collapsed, 30 expanded), newest
    first, with the count of each. `category` asks for that one only: the others are then null."""
    if not text.strip():
        raise ApiError(
            400, "The parameter 'text' must be defined", [FieldError(field="text", code="emptyFieldError")]
        )
    return service.search(db, user=user, text=text, limit=limit, category=category)
