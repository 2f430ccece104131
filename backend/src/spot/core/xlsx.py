"""Excel files the server builds (exports, reports): written by XlsxWriter in constant-memory mode (a
row goes to disk once the next begins) into a spooled temporary file, then streamed from it in chunks,
so that the server's memory stays flat whatever the number of rows. The file is complete before the
first byte leaves: an error while writing it is still an error answer, not a truncated download."""

import tempfile
from collections.abc import Callable, Iterator
from typing import IO

import xlsxwriter

MEDIA_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
# Kept in memory up to this size, then on disk.
_SPOOL_BYTES = 4_000_000
_CHUNK_BYTES = 256 * 1024


def workbook(out: IO[bytes]) -> xlsxwriter.Workbook:
    """A workbook writing to `out` in constant-memory mode: rows in order, each written once."""
    return xlsxwriter.Workbook(out, {"constant_memory": True})


def _chunks(out: IO[bytes]) -> Iterator[bytes]:
    with out:
        while chunk := out.read(_CHUNK_BYTES):
            yield chunk


def spooled(write: Callable[[IO[bytes]], None]) -> Iterator[bytes]:
    """The bytes `write(out)` writes, in chunks: written now, streamed as the iterator is read."""
    out = tempfile.SpooledTemporaryFile(max_size=_SPOOL_BYTES)
    try:
        write(out)
    except BaseException:
        out.close()
        raise
    out.seek(0)
    return _chunks(out)
