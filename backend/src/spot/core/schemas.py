from typing import Annotated, Any

from fastapi import Response
from pydantic import AfterValidator, BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel
from pydantic_core import PydanticCustomError, to_json


class CamelModel(BaseModel):
    """Every payload is camelCase in JSON and snake_case in Python."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, from_attributes=True)


def json_response(content: Any) -> Response:
    """`content`, plain data already in the shape and with the JSON keys of the route's response
    model (declared with `response_model=` so that the API documents it), written by pydantic-core
    as the model would be, without validating it again. Only for big lists read from our own
    columns (subject lists, the function view), where validation cost more than the rest of the
    request; their tests compare the JSON with the model's."""
    return Response(to_json(content), media_type="application/json")


def check_characters(value: str) -> str:
    """PostgreSQL cannot store NUL in text: refuse it as bad input on every database alike."""
    if "\x00" in value:
        raise PydanticCustomError("invalidCharacter", "Text may not contain a NUL character")
    return value


def check_text(value: str) -> str:
    """The spec's general text rule; the error types are the client's message keys."""
    if value.strip() == "":
        raise PydanticCustomError("emptyFieldError", "This field can't stay empty")
    if value != value.strip():
        raise PydanticCustomError("beginEndWhitespaceError", "Text may not begin or end with whitespace")
    return check_characters(value)


# Any text that may reach the database (free text, optional names, search terms).
Str = Annotated[str, AfterValidator(check_characters)]
# A required name or title: the general text rule.
Text = Annotated[str, AfterValidator(check_text)]
# A row id: integer keys are 32-bit on PostgreSQL, and a bigger number would overflow SQLite's binding;
# out of range it is bad input (422), in range but unknown it is 404.
Id = Annotated[int, Field(ge=-(2**31), le=2**31 - 1)]
