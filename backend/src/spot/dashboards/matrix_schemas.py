"""The JSON of the skills matrix (dashboards.matrix)."""

from datetime import date

from pydantic import Field

from spot.core.schemas import CamelModel
from spot.dashboards.matrix import CellState
from spot.qualifications.forecast_schemas import FunctionForecast
from spot.qualifications.schemas import CartographySite, CoverageLevel, NamedItem


class MatrixCell(CamelModel):
    state: CellState = Field(
        description="valid (more than 30 days left, or permanent), expiring (0 to 30 days left), inProgress "
        "(not held, a path in progress will grade it), expired, never"
    )
    valid_until: date | None = Field(
        description="The last valid day of the hold; null when permanent or never"
    )


class StateCountsByCell(CamelModel):
    valid: int
    expiring: int
    in_progress: int
    expired: int
    never: int


class MatrixColumn(CamelModel):
    """A function of the cartography, with its foot."""

    id: int
    code: str
    name: str
    minimum: int = Field(description="The people it needs qualified (0 to 1000)")
    qualified: int = Field(
        description="The people qualified for it (valid or expiring), over everyone concerned whatever the "
        "filters: the dashboards' coverage count"
    )
    level: CoverageLevel
    under_minimum: bool = Field(description="qualified < minimum")
    counts: StateCountsByCell = Field(description="The cells of the rows shown, by state")
    forecast: FunctionForecast = Field(
        description="Tomorrow's coverage: the people qualified today and at +30, +60 and +90 days, over "
        "everyone concerned (qualifications.forecast)"
    )


class MatrixRow(CamelModel):
    """A person concerned by a qualification naming the cartography."""

    id: int
    name: str
    held: int = Field(description="The functions shown that they hold (cells valid or expiring)")
    cells: list[MatrixCell] = Field(description="One per column, in the columns' order")


class MatrixCan(CamelModel):
    edit_minimum: bool = Field(description="May change the functions' minimums (perm_QualificationAdmin)")


class SkillsMatrix(CamelModel):
    cartography: CartographySite
    columns: list[MatrixColumn] = Field(
        description="The functions of the cartography the user sees (those asked), in the cartography's order"
    )
    rows: list[MatrixRow] = Field(description="By name, or by functions held (most first) then name")
    groups: list[NamedItem] = Field(
        description="The groups the group filter offers: the qualifiable groups of the qualifications naming "
        "the cartography, by name"
    )
    functions: list[NamedItem] = Field(
        description="Every function the user sees, whatever the filter: what the function filter offers"
    )
    total_people: int = Field(description="The people concerned, before the filters")
    can: MatrixCan
