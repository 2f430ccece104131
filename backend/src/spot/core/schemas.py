import re
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Annotated, Any

from email_validator import EmailNotValidError, validate_email
from fastapi import Response
from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field
from pydantic.alias_generators import to_camel
from pydantic_core import PydanticCustomError, to_json


class CamelModel(BaseModel):
    """Every payload is camelCase in JSON and snake_case in Python."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, from_attributes=True)


# A user as other records name them (a signature's revoker, a path's referents): id and printed name.
# No docstring: it would become the schema's description in the OpenAPI document.
class UserName(CamelModel):
    id: int
    name: str


def json_response(content: Any) -> Response:
    """`content`, plain data already in the shape and with the JSON keys of the route's response
    model (declared with `response_model=` so that the API documents it), written by pydantic-core
    as the model would be, without validating it again. Only for big lists read from our own
    columns (subject lists, the function view), where validation cost more than the rest of the
    request; their tests compare the JSON with the model's."""
    return Response(to_json(content), media_type="application/json")


# C0 and C1 control characters (NUL included: PostgreSQL cannot store it) and lone surrogates, which JSON
# may carry ("\ud800") but no database can encode. Refused as bad input on every database alike.
_FORBIDDEN = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
# Multi-line texts (comments) keep their line breaks and tabs.
_FORBIDDEN_MULTILINE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_MESSAGES = {
    "emptyFieldError": "This field can't stay empty",
    "beginEndWhitespaceError": "Text may not begin or end with whitespace",
    "invalidCharacter": "Text may not contain a control character or a surrogate",
}


def check_characters(value: Any, forbidden: re.Pattern[str] = _FORBIDDEN) -> Any:
    if isinstance(value, str) and forbidden.search(value):
        raise PydanticCustomError("invalidCharacter", _MESSAGES["invalidCharacter"])
    return value


def check_encodable(value: Any) -> Any:
    if isinstance(value, str) and _SURROGATE.search(value):
        raise PydanticCustomError("invalidCharacter", _MESSAGES["invalidCharacter"])
    return value


@dataclass(frozen=True)
class TextRule:
    """The spec's general text rule (part 1, §5), for every text a user types: no leading or trailing
    whitespace (beginEndWhitespaceError), not empty when required (emptyFieldError), and no control
    character, NUL or lone surrogate (invalidCharacter), except line breaks and tabs in a multi-line text.
    The error types are the client's message keys. Checked before the type's own validation, which
    would refuse a lone surrogate with a code of its own."""

    required: bool = True
    multiline: bool = False

    def __call__(self, value: Any) -> Any:
        if not isinstance(value, str):
            return value  # refused by the type's own validation
        if value.strip() == "" and (self.required or value):
            code = "emptyFieldError" if self.required else "beginEndWhitespaceError"
            raise PydanticCustomError(code, _MESSAGES[code])
        if value != value.strip():
            raise PydanticCustomError("beginEndWhitespaceError", _MESSAGES["beginEndWhitespaceError"])
        return check_characters(value, _FORBIDDEN_MULTILINE if self.multiline else _FORBIDDEN)


# A text the user typed: a required name, title, login or code.
Text = Annotated[str, BeforeValidator(TextRule())]
# A text the user typed that may stay empty ("").
OptionalText = Annotated[str, BeforeValidator(TextRule(required=False))]
# A comment: may stay empty, keeps line breaks and tabs.
MultilineText = Annotated[str, BeforeValidator(TextRule(required=False, multiline=True))]
# Text that is not typed as a value of its own but still reaches the database: search terms, whose
# surrounding whitespace the search ignores. Only the characters are checked.
Str = Annotated[str, BeforeValidator(check_characters)]
# A password: any character it may be typed with, but it must be encodable to be hashed.
Secret = Annotated[str, BeforeValidator(check_encodable)]


def _email(value: Any) -> Any:
    """An e-mail address as people type it: the general text rule, then email-validator's syntax rules
    (the domain is not looked up), kept in lower case; empty is none."""
    if value is None or value == "":
        return None
    value = TextRule()(value)
    if not isinstance(value, str):
        return value
    try:
        return validate_email(value, check_deliverability=False).normalized.lower()
    except EmailNotValidError:
        raise PydanticCustomError("invalidEmail", "This is not an e-mail address") from None


# An e-mail address, or none (null or ""): unique among people when set (users.service).
Email = Annotated[
    Annotated[str, Field(max_length=320, json_schema_extra={"format": "email"})] | None,
    BeforeValidator(_email),
]


def _strict_id(value: Any) -> Any:
    """An id is written in plain decimal digits: "+5", " 5", "5\\n", "5.0", true are not ids."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 20:
        return int(value)
    raise PydanticCustomError("invalidId", "An id is written in decimal digits only")


# A row id: plain decimal digits, in path parameters and bodies alike. Integer keys are 32-bit on
# PostgreSQL, and a bigger number would overflow SQLite's binding; out of range it is bad input (422),
# in range but unknown it is 404. The bounds come before the validator so that they constrain the
# integer itself, which the OpenAPI document then writes as minimum and maximum.
Id = Annotated[int, Field(ge=0, le=2**31 - 1), BeforeValidator(_strict_id)]


def _in_utc(value: datetime) -> datetime:
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


# An instant a client sends (DESIGN §4: date-times are UTC): one written without a zone is taken as UTC,
# any other is converted, so that services compare and store aware UTC values only.
Instant = Annotated[datetime, AfterValidator(_in_utc)]
