"""A real S3-protocol server (moto's, in a process of its own) on a free port of 127.0.0.1, started by
the tests (the `s3_server` and `s3_store` fixtures of conftest.py), stopped and started again at will."""

import secrets
import subprocess
import sys
import time
from pathlib import Path

import boto3
import httpx

from mail_server import free_port

REGION = "us-east-1"
CREDENTIALS = {"AWS_ACCESS_KEY_ID": "spot-tests", "AWS_SECRET_ACCESS_KEY": "spot-tests-secret"}


class S3Server:
    def __init__(self) -> None:
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        command = [str(Path(sys.executable).parent / "moto_server"), "-H", "127.0.0.1", "-p", str(self.port)]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 120
        while True:
            try:
                httpx.get(self.url, timeout=5)
                return
            except httpx.HTTPError:
                assert self.process.poll() is None and time.monotonic() < deadline, (
                    "moto_server did not start"
                )
                time.sleep(0.1)

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None

    def client(self):
        return boto3.client(
            "s3",
            endpoint_url=self.url,
            region_name=REGION,
            aws_access_key_id=CREDENTIALS["AWS_ACCESS_KEY_ID"],
            aws_secret_access_key=CREDENTIALS["AWS_SECRET_ACCESS_KEY"],
        )

    def new_bucket(self) -> str:
        name = f"spot-{secrets.token_hex(6)}"
        self.client().create_bucket(Bucket=name)
        return name
