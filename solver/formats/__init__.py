"""Readers and writers of deal files. ``tbn`` is the syntax layer of the project's own format."""

from .tbn import (
    Comment,
    PlaySection,
    Record,
    Tag,
    Token,
    format_record,
    iter_records,
    parse_records,
    read_records,
    write_records,
)

__all__ = [
    "Comment",
    "PlaySection",
    "Record",
    "Tag",
    "Token",
    "format_record",
    "iter_records",
    "parse_records",
    "read_records",
    "write_records",
]
