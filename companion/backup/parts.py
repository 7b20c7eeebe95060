"""A backup restored from the organiser's phone comes in parts of 64 KiB (``PART``), each a request
of its own, assembled in the data folder: no request to the companion carries more than that
(``web.bounds``, waitress's ``max_request_body_size``). Before issue 41 every URL took a body of
up to 8 MiB, which waitress spooled to a deleted file past 512 KiB and held while its sender
trickled a byte at a time: 200 guests' connections held 1.6 GB. Now a guest's connection holds
64 KiB at most, in memory, and only the organiser writes parts to disk.

An upload is a file ``restore-parts/<id>.part`` beside the store (its owner's alone), grown
part by part at the offset its sender says it has reached: a part sent again (its answer lost)
is written over at its place, never twice. An upload left unfinished is removed after an hour,
when the next one begins, or at the next start (``store.remove_leftovers``); the restore takes
its own into its temporary folder, gone with it.
"""

from __future__ import annotations

import os
import re
import secrets
import time
from pathlib import Path

from ..store.reads import PARTS

PART = 64 * 1024            # what one request may carry: the app's MAX_CONTENT_LENGTH
LEFT_FOR = 3600             # seconds an unfinished upload is kept
_AN_ID = re.compile(r"[0-9a-f]{32}")


class PartRefused(Exception):
    """A part that does not fit: ``reason`` is ``unknown`` (no such upload), ``gap`` (it starts
    past what was received: ``received``), or ``large`` (past the restore's limit)."""

    def __init__(self, reason: str, received: int = 0):
        super().__init__(reason)
        self.reason, self.received = reason, received


def _folder(database: str) -> Path:
    return Path(database).parent / PARTS


def upload_path(database: str, upload: str) -> Path | None:
    """The file of the upload ``upload`` (an id this module gave), if it exists; else None."""
    if not _AN_ID.fullmatch(upload or ""):
        return None
    path = _folder(database) / f"{upload}.part"
    return path if path.is_file() else None


def _begin(database: str) -> tuple[str, Path]:
    folder = _folder(database)
    folder.mkdir(mode=0o700, exist_ok=True)
    for old in folder.glob("*.part"):          # uploads left unfinished for an hour
        try:
            if old.stat().st_mtime < time.time() - LEFT_FOR:
                old.unlink()
        except OSError:
            pass
    upload = secrets.token_hex(16)
    path = folder / f"{upload}.part"
    os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    return upload, path


def receive(database: str, upload: str, offset: int, data: bytes, limit: int) -> tuple[str, int]:
    """``data`` written at ``offset`` of the upload ``upload`` (a new one when ``upload`` is
    empty and ``offset`` 0): the upload's id and how many bytes it holds now. Raises PartRefused."""
    if offset + len(data) > limit:
        raise PartRefused("large")
    if not upload and offset == 0:
        upload, path = _begin(database)
    else:
        found = upload_path(database, upload)
        if found is None:
            raise PartRefused("unknown")
        path = found
    size = path.stat().st_size
    if offset > size:
        raise PartRefused("gap", size)
    with open(path, "r+b") as file:
        file.seek(offset)
        file.write(data)
        file.truncate(offset + len(data))
    return upload, offset + len(data)
