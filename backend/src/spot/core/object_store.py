"""Stored files in an S3-compatible object store (SPOT_FILE_STORE=s3://bucket/prefix; docs/operations.md).

The same interface as the folder (core.files.FileStore), through boto3: a file goes up from its
scratch copy in parts of 8 MB, two at a time (boto3's managed transfer reads each part from the file
as it sends it: 4.4 MB of memory for a 30 MB file), and is read back as a seekable stream
(smart_open: one GET from where the reader is, another after a seek), which serving a file in chunks
and reading a course package's zip both need. A store that does not answer, or refuses, is 503
fileStoreUnavailable to the user, never a 500.
"""

import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO, cast
from urllib.parse import urlsplit

import boto3
import smart_open
from boto3.s3.transfer import TransferConfig
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError

from spot.core.errors import ApiError, not_found

log = logging.getLogger("spot.files")

# Parts of 8 MB, two at a time.
_TRANSFER = TransferConfig(
    multipart_threshold=8 * 1024 * 1024, multipart_chunksize=8 * 1024 * 1024, max_concurrency=2
)
# A store that stops answering fails the request in seconds rather than holding it: a connection
# within 5 s, an answer within 30 s, three attempts in all.
_CLIENT = Config(connect_timeout=5, read_timeout=30, retries={"max_attempts": 3, "mode": "standard"})
_MISSING = {"404", "NoSuchKey", "NotFound"}


def parse(url: str) -> tuple[str, str]:
    """s3://bucket/prefix → (bucket, prefix without its slashes); ValueError for anything else."""
    parts = urlsplit(url)
    if parts.scheme != "s3" or not parts.netloc or parts.query or parts.fragment:
        raise ValueError(f"not an object store address (s3://bucket/prefix): {url!r}")
    return parts.netloc, parts.path.strip("/")


def unavailable(exc: Exception) -> ApiError:
    log.warning("the object store did not answer: %s", exc)
    return ApiError(503, "fileStoreUnavailable")


class S3FileStore:
    def __init__(self, url: str, *, endpoint_url: str = "", region: str = "", check_name: Any) -> None:
        self.url = url
        self.bucket, self.prefix = parse(url)
        self._check_name = check_name
        # Credentials as boto3 finds them: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, a profile, a role.
        self.client = boto3.client(
            "s3", endpoint_url=endpoint_url or None, region_name=region or None, config=_CLIENT
        )

    def _key(self, name: str) -> str:
        self._check_name(name)
        return f"{self.prefix}/{name}" if self.prefix else name

    def adopt(self, path: Path, name: str) -> None:
        try:
            self.client.upload_file(str(path), self.bucket, self._key(name), Config=_TRANSFER)
        except (BotoCoreError, ClientError) as exc:
            raise unavailable(exc) from exc
        path.unlink(missing_ok=True)

    def get(self, name: str) -> bytes:
        with self.open(name) as stream:
            return stream.read()

    def open(self, name: str) -> BinaryIO:
        try:
            key = self._key(name)
        except ValueError as exc:
            raise not_found("fileNotFound") from exc
        try:
            stream = smart_open.open(
                f"s3://{self.bucket}/{key}",
                "rb",
                compression="disable",
                transport_params={"client": self.client},
            )
        except ClientError as exc:
            if exc.response.get("Error", {}).get("Code") in _MISSING:
                raise not_found("fileNotFound") from exc
            raise unavailable(exc) from exc
        except (BotoCoreError, OSError) as exc:
            if "NoSuchKey" in str(exc) or "404" in str(exc):
                raise not_found("fileNotFound") from exc
            raise unavailable(exc) from exc
        return cast(BinaryIO, stream)

    def delete(self, name: str) -> None:
        try:
            self.client.delete_object(Bucket=self.bucket, Key=self._key(name))
        except (BotoCoreError, ClientError) as exc:
            raise unavailable(exc) from exc

    def names(self) -> Iterator[str]:
        start = f"{self.prefix}/" if self.prefix else ""
        pages = self.client.get_paginator("list_objects_v2").paginate(Bucket=self.bucket, Prefix=start)
        for page in pages:
            for item in page.get("Contents", ()):
                name = item["Key"][len(start) :]
                try:
                    self._check_name(name)
                except ValueError:
                    continue  # not one of Spot's (a folder marker, another tool's object)
                yield name

    def check(self) -> None:
        try:
            self.client.head_bucket(Bucket=self.bucket)
        except (BotoCoreError, ClientError) as exc:
            raise ConnectionError(f"the object store {self.url} does not answer: {exc}") from exc
