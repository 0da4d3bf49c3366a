"""Variant flags: the named readings of RULES.md that a user can switch.

A game declares its flags as class-level metadata (:class:`Flag`); a :class:`Variant` is an immutable mapping from
every flag of the game to its value, defaults filled in. Values are parsed from text the same way whether they come
from a ``[Variant "..."]`` tag, ``--variant NAME=VALUE`` on the command line, or a keyword of the API.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Iterator, Mapping

from .errors import MAX_TOKEN_LENGTH, FlagGivenTwiceError, VariantError, _cut, did_you_mean, is_whole_number, quoted

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


@dataclass(frozen=True)
class Flag:
    """One variant flag: its name, the values it takes (a tuple of words, ``bool`` or ``int``) and its default."""

    name: str
    kind: object  # tuple[str, ...] | type[bool] | type[int]
    default: object
    doc: str = ""
    minimum: int = 0
    maximum: int = 99

    def parse(self, value: object) -> object:
        """The flag's value from text (or an already typed value); VariantError if it is not one the flag takes."""
        if self.kind is bool:
            if isinstance(value, bool):
                return value
            text = str(value).strip().lower()
            if text in _TRUE:
                return True
            if text in _FALSE:
                return False
            raise VariantError(f"variant flag {self.name} takes true or false, not {quoted(value)}"
                               f"{did_you_mean(text, sorted(_TRUE | _FALSE))}")
        if self.kind is int:
            text = str(value).strip()
            # ASCII digits only, as every number of the format: int() would also take '1_0', '+5' and other scripts'
            # digits, so that two spellings of one question differed
            if is_whole_number(value):
                number = value
            elif re.fullmatch(r"-?[0-9]{1,9}", text):
                number = int(text)
            elif re.fullmatch(r"-?[0-9]+", text):  # a whole number, only too long to be in range
                raise VariantError(f"variant flag {self.name} takes a number from {self.minimum} to {self.maximum}, "
                                   f"not {_cut(text, MAX_TOKEN_LENGTH)}")
            else:
                raise VariantError(f"variant flag {self.name} takes a whole number from {self.minimum} to "
                                   f"{self.maximum}, not {quoted(value)}")
            if not self.minimum <= number <= self.maximum:
                raise VariantError(
                    f"variant flag {self.name} takes a number from {self.minimum} to {self.maximum}, not {number}")
            return number
        text = str(value).strip().lower()
        if text not in self.kind:  # type: ignore[operator]
            choices = " | ".join(self.kind)  # type: ignore[arg-type]
            raise VariantError(f"variant flag {self.name} takes {choices}, not {quoted(value)}"
                               f"{did_you_mean(text, self.kind)}")  # type: ignore[arg-type]
        return text


def value_text(value: object) -> str:
    """A flag's value as a ``[Variant]`` tag writes it: ``true`` / ``false`` for booleans."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def example_pair(flags: Mapping[str, Flag] | None = None) -> str:
    """A flag set to a value other than its default, as a message's example: one of ``flags``, the game's own where
    the game is known (a Schafkopf [Variant] tag shown Zwanzigerrufen's ``solo_value`` would be shown a flag it
    refuses), a number flag first (the plainest value); Zwanzigerrufen's ``solo_value=5`` where no game is known."""
    ordered = sorted((flags or {}).values(), key=lambda flag: flag.kind is not int)  # stable: the game's order
    for flag in ordered:
        if flag.kind is int:
            value = flag.default + 1 if flag.default < flag.maximum else flag.default - 1  # type: ignore[operator]
        elif flag.kind is bool:
            value = not flag.default
        else:
            value = next(choice for choice in flag.kind if choice != flag.default)  # type: ignore[attr-defined]
        return f"{flag.name}={value_text(value)}"
    return "solo_value=5"


def pair_form(flags: Mapping[str, Flag] | None = None) -> str:
    """The form of one variant flag, in every message about one (the library's, ``--variant``'s, a [Variant]
    tag's): the placeholders the docs and ``--help`` write, what they stand for, and an example of ``flags``
    (:func:`example_pair`)."""
    return f"NAME=VALUE (a flag's name, '=' and its value, such as {example_pair(flags)})"


def note_once(spelt: dict[str, str], key: str, spelling: str, pair: int | None = None) -> None:
    """Note flag ``key`` as given, as ``spelling``, in ``spelt``; FlagGivenTwiceError naming both spellings where it
    was given already (``pair``: the index of the second in a ``NAME=VALUE, ...`` text): one flag under two keys of
    a mapping (``Sagotrick``, ``sagotrick``) or in two pairs of one text leaves which value is meant unsaid."""
    if key in spelt:
        raise FlagGivenTwiceError(f"variant flag {key} is given twice ({quoted(spelt[key])} and {quoted(spelling)})",
                                  pair)
    spelt[key] = spelling


def rules_words(text: str) -> str:
    """``; rules: runaway_count_at=deal``: how a title for people ends whose record is played under flags other than
    its game's defaults (a [Variant] tag, ``--variant``), ``text`` those flags as :meth:`Variant.text` spells them
    (as ``--variant`` takes them), so that a text answer says the rules it was answered under; empty where every
    flag is the default, so that a default record's title is unchanged. The one source of these words: the
    commands' titles, the diagram's heading (the notebook's too), the strategy tree's summary."""
    return f"; rules: {text}" if text else ""


def rules_note(flags: Mapping[str, Flag], values: Mapping[str, object]) -> str:
    """:meth:`Variant.note` of a document's ``variant`` (every flag of the game with its value): the flags whose
    value is not the default, in the game's order, as :meth:`Variant.text` alone says which those are."""
    return Variant(flags, {name: value for name, value in values.items() if name in flags}).note()


#: :func:`pair_form` where no game is known (``--variant`` before any record is read).
PAIR_FORM = pair_form()


class Variant(Mapping[str, object]):
    """Every flag of one game with its value; immutable and hashable."""

    __slots__ = ("_flags", "_values")

    def __init__(self, flags: Mapping[str, Flag], values: Mapping[str, object] | None = None) -> None:
        chosen: dict[str, object] = {name: flag.default for name, flag in flags.items()}
        if isinstance(values, str):
            values = Variant.parse_pairs(values, flags)
        elif values is not None and not isinstance(values, Mapping):
            raise VariantError("a variant is a mapping of flags to values or 'NAME=VALUE, ...' text, not "
                               f"{quoted(values)}")
        spelt: dict[str, str] = {}
        for name, value in (values or {}).items():
            if not isinstance(name, str):
                raise VariantError(f"a variant flag's name is text, not {quoted(name)}")
            key = name.strip().lower()
            if key not in flags:
                known = ", ".join(sorted(flags)) or "none"
                raise VariantError(f"unknown variant flag {quoted(name)}{did_you_mean(key, list(flags))} (this "
                                   f"game's flags: {known})")
            note_once(spelt, key, name)
            chosen[key] = flags[key].parse(value)
        self._flags = dict(flags)
        self._values = chosen

    @staticmethod
    def parse_pairs(text: str | Iterable[str], flags: Mapping[str, Flag] | None = None) -> dict[str, str]:
        """``"a=b, c=d"`` (or a list of ``"a=b"``) as a dict; VariantError on anything but one name, one ``=`` and
        one value, and on a flag named twice in one text (in a list, as repeated options, the later one wins), its
        ``pair`` the index of the text's pair at fault. ``flags``: the game's, where it is known, for the example in
        the message (:func:`pair_form`)."""
        one_text = isinstance(text, str)
        items = text.split(",") if one_text else list(text)  # type: ignore[union-attr]
        pairs: dict[str, str] = {}
        spelt: dict[str, str] = {}
        for index, item in enumerate(items):
            at = index if one_text else None
            if not isinstance(item, str):
                raise VariantError(f"variant {quoted(item)} is not of the form {pair_form(flags)}", at)
            item = item.strip()
            if not item:
                continue
            name, _, value = (part.strip() for part in item.partition("="))
            if not name or not value or "=" in value:
                raise VariantError(f"variant {quoted(item)} is not of the form {pair_form(flags)}", at)
            if one_text:
                note_once(spelt, name.lower(), item, at)
            pairs[name.lower()] = value
        return pairs

    def replace(self, **values: object) -> "Variant":
        """A new variant with ``values`` over these (the variant itself is immutable)."""
        merged = dict(self._values)
        merged.update(values)
        return Variant(self._flags, merged)

    def changed(self) -> dict[str, object]:
        """The flags whose value is not the default."""
        return {k: v for k, v in self._values.items() if v != self._flags[k].default}

    def key(self) -> list[tuple[str, object]]:
        """The non-default flags in name order: the variant as a checkpoint keys it, however it was spelt (the API's
        ``0`` and the command line's ``"0"`` alike)."""
        return sorted(self.changed().items())

    def text(self) -> str:
        """The non-default flags as a ``[Variant]`` tag value."""
        return ", ".join(f"{k}={value_text(v)}" for k, v in self.changed().items())

    def note(self) -> str:
        """The non-default flags as a title ends with them (:func:`rules_note`); empty where there are none."""
        return rules_words(self.text())

    def spelt(self, names: Iterable[str]) -> dict[str, str]:
        """The flags ``names`` (as given, in any case) with their values as the game spells them (``YES`` and
        ``TRUE`` are ``true``), given at their default or not: how a match, a batch line, a bench run and a
        checkpoint's identity say the ``--variant`` flags given, one spelling for one question."""
        return {name.strip().lower(): value_text(self[name.strip().lower()]) for name in names}

    def __getitem__(self, name: str) -> object:
        return self._values[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __hash__(self) -> int:
        return hash(tuple(sorted((k, str(v)) for k, v in self._values.items())))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Variant) and self._values == other._values

    def __repr__(self) -> str:
        return f"Variant({self.text() or 'defaults'})"
