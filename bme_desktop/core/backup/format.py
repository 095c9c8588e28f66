"""Constants of the open export format and the error every backup step raises."""

from __future__ import annotations

from typing import Final

FORMAT_NAME: Final = "bme-desktop-export"
FORMAT_VERSION: Final = 1

MAX_FILE_BYTES: Final = 100 * 1024 * 1024  # an export or backup file larger than this is refused
MAX_CHATS: Final = 10_000
MAX_ITEMS: Final = 1_000_000  # messages, nodes, edges, summaries or recall records in one chat
MAX_TEXT: Final = 1_000_000  # message text, recall injections, summaries
MAX_SHORT_TEXT: Final = 256  # chat ids, names, titles, scope owner and region
MAX_JSON_BYTES: Final = 1_000_000  # free-form JSON values (chat state, flags, srs, story time)


class BackupError(Exception):
    """A document, file or passphrase that cannot be used. ``path`` names the place in the
    document (``chats[0].nodes[12].fields.name``) or is empty for whole-file problems."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}" if path else message)
        self.path = path
        self.message = message
