"""The query language's error: a message from the spec's list and a character offset."""

from spot.core.errors import ApiError, FieldError

UNTERMINATED_ESCAPE = "Unterminated escape sequence"
NOT_SPECIAL = "Escaped char is not a special char"
UNEXPECTED_CHARACTER = "Unexpected character"
NO_MATCHING_PARENTHESIS = "Matching parenthesis not found"
EMPTY_TOKEN = "The token must not be empty"
INVALID_FIELD = "Field is not valid for this query"
INVALID_OPERATOR = "This operator is not valid for this field type"
MISSING_TERM = "An operator must be followed by a term"
EMPTY_PARENTHESIS = "Parenthesis does not contain a query"
INVALID_DATE = "Invalid date. Must be formatted as YYYY-MM-DD"
# Not named by the spec, needed by rules it states: mixing & and | without parentheses,
# a value outside an enum (or not an id, not true/false), and a bound on nesting.
MIXED_OPERATORS = "Operators & and | cannot be mixed without parentheses"
INVALID_VALUE = "This value is not valid for this field"
TOO_DEEP = "Too many nested parentheses"

MESSAGES = (
    UNTERMINATED_ESCAPE,
    NOT_SPECIAL,
    UNEXPECTED_CHARACTER,
    NO_MATCHING_PARENTHESIS,
    EMPTY_TOKEN,
    INVALID_FIELD,
    INVALID_OPERATOR,
    MISSING_TERM,
    EMPTY_PARENTHESIS,
    INVALID_DATE,
    MIXED_OPERATORS,
    INVALID_VALUE,
    TOO_DEEP,
)


class QueryError(ApiError):
    """A bad filter or sort text: answers 400 with the message and the offset where it was found.

    `source` is the request field that held the text ("filter" or "sort"); `for_field` renames it
    when the text came from elsewhere (a saved filter's "filters.2.filter").
    """

    def __init__(self, message: str, position: int, source: str = "filter") -> None:
        super().__init__(400, message, [FieldError(field=source, code=message, position=position)])
        self.position = position
        self.source = source

    def for_field(self, field: str) -> "QueryError":
        return QueryError(self.message, self.position, field)

    def __repr__(self) -> str:
        return f"QueryError({self.message!r}, position={self.position}, source={self.source!r})"
