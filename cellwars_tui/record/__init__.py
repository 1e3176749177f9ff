"""Record files, autosave and the saved-games store."""

from .format import (
    FORMAT_VERSION, SNAPSHOT_EVERY, Header, Record, decode_record, encode_match, encode_record,
    load_match, match_to_record, read_record_file, record_to_match, save_match, seal_record, sealed,
    write_atomic,
)
from .store import SavedGame, autosave, list_saved, unfinished

__all__ = [
    "FORMAT_VERSION", "SNAPSHOT_EVERY", "Header", "Record", "decode_record", "encode_match",
    "encode_record", "load_match", "match_to_record", "read_record_file", "record_to_match",
    "save_match", "seal_record", "sealed", "write_atomic",
    "SavedGame", "autosave", "list_saved", "unfinished",
]
