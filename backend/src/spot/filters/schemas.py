from typing import Annotated

from pydantic import AfterValidator, Field, StrictInt
from pydantic_core import PydanticCustomError

from spot.core.schemas import CamelModel, Text
from spot.querylang.schemas import FilterText, SortText

MAX_FILTERS = 100


def _encodable(value: str) -> str:
    """JSON may carry lone surrogates, which no database can store."""
    if any("\ud800" <= char <= "\udfff" for char in value):
        raise PydanticCustomError("invalidCharacter", "Text may not contain a lone surrogate")
    return value


Name = Annotated[Text, Field(max_length=200), AfterValidator(_encodable)]


class SavedFilterIn(CamelModel):
    name: Name
    filter: FilterText
    sorting: SortText = ""
    is_default: bool = False


class SavedFiltersSave(CamelModel):
    """All of the user's filters of one entity type, replacing those saved before. `version`: the one
    of the list they were edited from (GET /account/filters; 0 for an entity type not there), so that
    a save from a stale list answers 409; without it (the spec's body: entityType and filters) the
    save simply applies."""

    entity_type: str = Field(max_length=60)
    filters: list[SavedFilterIn] = Field(max_length=MAX_FILTERS)
    version: StrictInt | None = Field(default=None, ge=0, le=2**31 - 1)


class SavedFilterOut(CamelModel):
    name: str
    filter: str
    sorting: str
    is_default: bool


class SavedFiltersOfType(CamelModel):
    """A user's saved filters of one entity type and their version, which a save sends back."""

    version: int
    filters: list[SavedFilterOut]
