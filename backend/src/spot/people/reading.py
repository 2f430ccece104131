"""Reading a people file: CSV (UTF-8 with or without a byte-order mark, comma or semicolon, as Excel
writes it in French and English) or XLSX (its first sheet). Cells are text: a formula is never
evaluated (openpyxl reads an XLSX formula as its text, and the rules refuse a cell that starts with
"="). Only the file's shape is checked here; the rows' values are the service's."""

import csv
import io
import zipfile
from dataclasses import dataclass

from openpyxl import load_workbook
from openpyxl.utils.exceptions import InvalidFileException

from spot.core.errors import ApiError, FieldError

COLUMNS = ("login", "firstName", "lastName", "externalId", "email", "groups", "active")
# The uncompressed size an XLSX may unfold to: a small zip cannot become gigabytes in memory.
MAX_XLSX_UNCOMPRESSED = 200_000_000


@dataclass(frozen=True)
class Sheet:
    """The file's columns (as its header names them) and its rows, each with its line number (the
    header is line 1) and its cells by column; empty lines are left out."""

    columns: tuple[str, ...]
    rows: list[tuple[int, dict[str, str]]]


def _refused(code: str, column: str = "file") -> ApiError:
    return ApiError(400, code, [FieldError(field=column, code=code)])


def read(data: bytes) -> Sheet:
    """400 badFileFormat (neither CSV nor XLSX), unknownColumn, duplicateColumn, missingColumn (login)."""
    table = _xlsx(data) if data[:4] == b"PK\x03\x04" else _csv(data)
    if not table:
        raise _refused("emptyFile")
    header = [cell.strip() for cell in table[0]]
    for name in header:
        if name not in COLUMNS:
            raise _refused("unknownColumn", name or "file")
    if len(set(header)) != len(header):
        raise _refused("duplicateColumn", next(n for n in header if header.count(n) > 1))
    if "login" not in header:
        raise _refused("missingColumn", "login")
    rows = []
    for number, cells in enumerate(table[1:], start=2):
        if not any(cell.strip() for cell in cells):
            continue
        padded = [*cells, *[""] * (len(header) - len(cells))]
        rows.append((number, dict(zip(header, padded, strict=False))))
    return Sheet(columns=tuple(header), rows=rows)


def _csv(data: bytes) -> list[list[str]]:
    try:
        content = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise _refused("badFileFormat") from None
    if "\x00" in content:
        raise _refused("badFileFormat")
    first_line = content.split("\n", 1)[0]
    delimiter = ";" if first_line.count(";") > first_line.count(",") else ","
    try:
        return [row for row in csv.reader(io.StringIO(content, newline=""), delimiter=delimiter)]
    except csv.Error:
        raise _refused("badFileFormat") from None


def _xlsx(data: bytes) -> list[list[str]]:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            if sum(entry.file_size for entry in archive.infolist()) > MAX_XLSX_UNCOMPRESSED:
                raise _refused("fileTooBig")
        workbook = load_workbook(io.BytesIO(data), read_only=True, data_only=False)
    except (zipfile.BadZipFile, InvalidFileException, KeyError, ValueError, OSError):
        raise _refused("badFileFormat") from None
    try:
        sheet = workbook.worksheets[0]
        return [
            ["" if value is None else str(value) for value in row]
            for row in sheet.iter_rows(values_only=True)
        ]
    finally:
        workbook.close()
