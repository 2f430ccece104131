"""The path report's payloads (spec 2 §3 Report configuration, §5 Report, §9): the selectors, the print
options, the saved parameter sets and the rows of the paths table."""

from datetime import date

from pydantic import Field

from spot.core.schemas import CamelModel, Id, OptionalText, Text
from spot.training.modules.models import ModuleType
from spot.training.paths.completion import WithCompletion
from spot.training.paths.models import ModuleStatus, PathStatus

# The most learners and groups one request names.
MAX_IDS = 10_000
# The signature image: at most 1,000,000 bytes once decoded; its data URL (base64, 4 characters per 3
# bytes, and the `data:image/jpeg;base64,` prefix) is refused before decoding when longer.
MAX_IMAGE_BYTES = 1_000_000
MAX_IMAGE_URL = 4 * (MAX_IMAGE_BYTES // 3 + 1) + 32
# The most pixels a side of the signature image may have, whatever its file size: a few kilobytes may
# describe an image of 12,000 x 12,000 pixels, decoded for each learner's PDF. 5,000 pixels across the
# 150-point image area is well beyond what any printer shows.
MAX_IMAGE_SIDE = 5_000
# A saved parameter set's name.
MAX_NAME = 200
# The paths table shows at most this many rows (totalItems stays exact).
MAX_ROWS = 1000


class ReportSelectors(CamelModel):
    """Which paths the report shows: those whose period [startDate, stopDate] meets [start, stop], whose
    learner is named or a member of a named group, and whose status is listed; of those, the modules of
    a listed status and type (a path left with no module is left out)."""

    start: date
    stop: date = Field(description="Not before start (dateRangeReversed)")
    learner_id_list: list[Id] = Field(
        default=[], max_length=MAX_IDS, description="Unknown: userNotFound; with groupIdList, not both empty"
    )
    group_id_list: list[Id] = Field(default=[], max_length=MAX_IDS, description="Unknown: groupNotFound")
    path_statutes: list[PathStatus] = Field(default=[], description="At least one (selectAtLeastOneStatus)")
    module_statutes: list[ModuleStatus] = Field(
        default=[], description="At least one (selectAtLeastOneStatus)"
    )
    module_types: list[ModuleType] = Field(default=[], description="At least one (selectAtLeastOneType)")


class DocumentOptions(CamelModel):
    document_title: OptionalText = Field(
        max_length=MAX_NAME,
        description="Not empty (emptyFieldError); the client gives its translated default",
    )
    display_external_ids: bool
    learner_signature: bool = Field(description="Print the learner's signature box")
    manager_signature: bool = Field(description="Print the manager's signature box")
    manager_signature_label: OptionalText = Field(
        max_length=MAX_NAME, description="The manager box's label; not empty when managerSignature"
    )
    signature_image: str | None = Field(
        default=None,
        max_length=MAX_IMAGE_URL,
        description="A data URL (data:image/png;base64,… or image/jpeg) of at most 1,000,000 bytes "
        f"(fileTooBig), a PNG or a JPEG (badFileFormat) of at most {MAX_IMAGE_SIDE:,} pixels a side "
        "(imageTooLarge) that opens (fileUploadError)",
    )


class PathOptions(CamelModel):
    """Which fields of each path the report prints; a field left out is printed (spec 2 §9 defaults)."""

    reference: bool = True
    dates: bool = True
    status: bool = True
    creator: bool = True
    validation: bool = True
    signature: bool = True
    completion: bool = True
    average_grade: bool = True
    duration: bool = True


class ModuleOptions(CamelModel):
    """Which fields of each assigned module the report prints; mediators only with mediations. A field
    left out takes the default of spec 2 §9: every one printed but mediators."""

    reference: bool = True
    goals: bool = True
    referents: bool = True
    dates: bool = True
    status: bool = True
    grades: bool = True
    comments: bool = True
    signatures: bool = True
    mediations: bool = True
    mediators: bool = False
    results: bool = True


class ReportRequest(CamelModel):
    selectors: ReportSelectors
    document_options: DocumentOptions
    path_options: PathOptions = PathOptions()
    module_options: ModuleOptions = ModuleOptions()


class ReportConfiguration(ReportRequest):
    """One of the user's saved parameter sets."""

    name: str
    is_default: bool


class ReportConfigurationSave(ReportRequest):
    """Saving under an existing name overwrites that set."""

    name: Text = Field(max_length=MAX_NAME)
    is_default: bool | None = Field(
        default=None,
        description="True makes it the only default; null keeps the flag of the set it overwrites "
        "(false for a new one)",
    )


class ReportLearner(CamelModel):
    id: int | None = Field(description="Null when the account is gone (the placeholder user X)")
    name: str
    active: bool = Field(description="False for a person who left (deactivated): named, marked inactive")


class ReportPathRow(WithCompletion):
    """A path the report selects, as the paths table shows it."""

    id: int
    title: str
    reference: str | None = Field(description="The path reference's code")
    learner: ReportLearner
    status: PathStatus
    start_date: date
    stop_date: date
    modules: int = Field(description="How many of its modules the report shows")
    completion: int = Field(description="Done items / total items in percent; -1 when there is no item")
    average_grade: float | None = Field(description="Of its graded modules, out of 10; null when none")


class ReportPaths(CamelModel):
    results: list[ReportPathRow] = Field(description=f"At most {MAX_ROWS}, in the report's order")
    total_items: int
