"""The JSON of a function's minimum of qualified people (qualifications.coverage)."""

from pydantic import Field, StrictInt

from spot.core.schemas import CamelModel


class MinimumSave(CamelModel):
    minimum: StrictInt = Field(description="0 to 1000 (else 400 valueMustBeBetween)")


class FunctionMinimum(CamelModel):
    function_id: int
    minimum: int = Field(description="The people the function needs qualified")
