"""Constants of the open export format and the error every backup step raises."""

from __future__ import annotations

from typing import Final

FORMAT_NAME: Final = "bme-desktop-export"
FORMAT_VERSION: Final = 1

MAX_FILE_BYTES: Final = (
    100 * 1024 * 1024
)  # a document read whole (an increment, a World Info file) larger than this is refused
MAX_RECORD_BYTES: Final = MAX_FILE_BYTES  # a chat (with all its memories) of a streamed export or backup
MAX_STREAM_BYTES: Final = 64 * 1024**3  # a streamed document (an endless or gzip-bomb stream stops here)
MAX_CHATS: Final = 10_000
MAX_ITEMS: Final = 1_000_000  # messages, nodes, edges, summaries or recall records in one chat
MAX_TEXT: Final = 1_000_000  # message text, recall injections, summaries
MAX_SHORT_TEXT: Final = 256  # chat ids, names, titles, scope owner and region
MAX_JSON_BYTES: Final = 1_000_000  # free-form JSON values (chat state, flags, srs, story time)


def size_text(n: int) -> str:
    """A limit as ``100 MB`` (or ``7000 bytes``, for the small limits tests inject)."""
    return f"{n // (1024 * 1024)} MB" if n % (1024 * 1024) == 0 else f"{n} bytes"


class BackupError(Exception):
    """A document, file or passphrase that cannot be used. ``path`` names the place in the
    document (``chats[0].nodes[12].fields.name``) or is empty for whole-file problems."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}" if path else message)
        self.path = path
        self.message = message
