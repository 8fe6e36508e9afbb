"""The game record, version 1 (RECORD.md): reading, writing and corrections.

A record is JSON Lines: a header object, then one event per line. ``#`` lines and
blank lines are ignored. Every line after the header is an *entry* numbered from 1
(RECORD.md: "counting events from 1 after the header"); corrections are entries
too, so a correction can be named (and refused) like any other line:

- ``{"fix": 17, "play": "2c", "by": 2}`` replaces event 17 with the given event;
- ``{"undo": 18}`` withdraws event 18.

A correction must name an earlier *plain* event (not a correction, not an event
already withdrawn). Fixing the same event twice is allowed: the later fix wins.
The corrected sequence keeps the original event numbers, so flags and errors
point at the event a person sees in the file.

Pure text in, values out: reading files is `table.record_file`'s job.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine.cards import SUITS, Card, parse_card
from engine.errors import CardError, Message, RuleError, TressetteError
from engine.events import Accuso, Call, Claim, Draw, Event, Meta, Play
from engine.rules import Rules

FORMAT_VERSION = 1
EVENT_KINDS: tuple[str, ...] = ("play", "accuso", "draw", "call", "claim")
CORRECTION_KINDS: tuple[str, ...] = ("fix", "undo")
META_KEYS: tuple[str, ...] = ("t", "source", "confidence")
HEADER_KEYS: tuple[str, ...] = ("tressette", "rules", "players", "dealer")
_ENTRY_KEYS = frozenset((*EVENT_KINDS, *CORRECTION_KINDS, *META_KEYS, "by"))
_SNIPPET = 80
_HEADER_EXAMPLE = '{"tressette": 1, "rules": {"preset": "classic"}, "players": [...]}'


class RecordError(TressetteError):
    """A record that cannot be read: ``name:LINE: problem``, with ``.name``, ``.line``, ``.problem`` (in
    English), ``.problem_words`` (the problem in both languages) and ``.event`` (the entry number of the bad
    line; None for the header)."""

    def __init__(self, name: str, line: int, problem: Message | str, event: int | None = None) -> None:
        self.name = name
        self.line = line
        self.problem_words = problem if isinstance(problem, Message) else Message(problem, problem)
        self.problem = self.problem_words.en
        self.event = event
        super().__init__(f"{name}:{line}: " + problem)

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.name, self.line, self.problem_words, self.event))


class _LineError(TressetteError):
    """Internal: a problem found in one line's object, before the reader adds the file and line."""


def _key_problem(key: str, english: str, italian: str) -> Message:
    """A problem with one key of the line's object, named first: ``key "by": ...`` / ``chiave "by": ...``."""
    return Message(f'key "{key}": {english}', f'chiave "{key}": {italian}')


def _key_error(key: str, english: str, italian: str) -> _LineError:
    return _LineError(_key_problem(key, english, italian))


@dataclass(frozen=True)
class Header:
    """The record's first line: format version, rules (as written and parsed), players, first dealer.

    ``rules_mapping`` is the ``rules`` object exactly as written (so it is written back the
    same way); ``rules`` is what it means. ``extra`` keeps every other header key.
    """

    rules: Rules
    players: tuple[str, ...]
    dealer: int
    rules_mapping: dict[str, Any]
    version: int = FORMAT_VERSION
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def create(cls, rules_mapping: Mapping[str, Any], players: Sequence[str], dealer: int | None = None,
               **extra: Any) -> Header:
        """Build and check a header as the reader would (raises RecordError naming line 1)."""
        mapping: dict[str, Any] = {"tressette": FORMAT_VERSION, "rules": dict(rules_mapping),
                                   "players": list(players), **extra}
        if dealer is not None:
            mapping["dealer"] = dealer
        try:
            return parse_header(mapping)
        except _LineError as problem:
            raise RecordError("<header>", 1, problem.message) from problem

    @property
    def seats(self) -> int:
        return len(self.players)

    def to_mapping(self) -> dict[str, Any]:
        """The header object as written: the four keys of RECORD.md, then the extra keys."""
        return {"tressette": self.version, "rules": self.rules_mapping, "players": list(self.players),
                "dealer": self.dealer, **self.extra}


@dataclass(frozen=True, slots=True)
class RecordEntry:
    """One line after the header: a plain event, a ``fix`` (``fix`` = the event number it replaces,
    ``event`` = the replacement) or an ``undo`` (``undo`` = the event number it withdraws)."""

    number: int
    meta: Meta
    event: Event | None = None
    fix: int | None = None
    undo: int | None = None

    @property
    def is_correction(self) -> bool:
        return self.fix is not None or self.undo is not None

    def to_mapping(self) -> dict[str, Any]:
        """The entry's object as written: the correction key, the event keys, then meta keys."""
        mapping: dict[str, Any] = {}
        if self.undo is not None:
            mapping["undo"] = self.undo
        if self.fix is not None:
            mapping["fix"] = self.fix
        if self.event is not None:
            mapping.update(event_to_mapping(self.event))
        mapping.update(_meta_to_mapping(self.meta))
        return mapping


@dataclass(frozen=True)
class Record:
    """A header and its entries, as read. ``errors`` holds what a lenient read skipped (empty otherwise)."""

    header: Header
    entries: tuple[RecordEntry, ...] = ()
    errors: tuple[RecordError, ...] = ()
    name: str = "<record>"

    @classmethod
    def from_events(cls, header: Header, events: Sequence[Event], name: str = "<record>") -> Record:
        """A record of plain events in this order, numbered from 1 (lines from 2)."""
        entries = []
        for number, event in enumerate(events, start=1):
            meta = replace(event.meta, number=number, line=number + 1)
            entries.append(RecordEntry(number=number, meta=meta, event=replace(event, meta=meta)))
        return cls(header=header, entries=tuple(entries), name=name)

    def corrected_events(self) -> tuple[Event, ...]:
        """The events with every ``fix`` and ``undo`` applied, in their original order.

        Each event's meta carries its original event number; a fixed event carries the line,
        ``t``, ``source`` and ``confidence`` of the fix (those the fix leaves out are kept).
        Raises RecordError for a correction that names no earlier plain, live event.
        """
        live: dict[int, Event] = {}
        resolver = _Corrections(self.name)
        for entry in self.entries:
            resolver.check(entry)
            if entry.undo is not None:
                del live[entry.undo]
            elif entry.fix is not None and entry.event is not None:
                live[entry.fix] = _as_fix_of(entry.event, live[entry.fix])
            elif entry.event is not None:
                live[entry.number] = entry.event
        return tuple(live[number] for number in sorted(live))


def event_to_mapping(event: Event) -> dict[str, Any]:
    """An event's object in the record, without its meta keys: ``{"play": "3c", "by": 2}``."""
    if isinstance(event, Play):
        return {"play": event.card.code, "by": event.by}
    if isinstance(event, Accuso):
        return {"accuso": [card.code for card in event.cards], "by": event.by}
    if isinstance(event, Draw):
        return {"draw": event.card.code, "by": event.by}
    if isinstance(event, Call):
        return {"call": event.suit, "by": event.by}
    if isinstance(event, Claim):
        return {"claim": event.side}
    raise TypeError(f"not a record event: {event!r}")


def write_record(record: Record) -> str:
    """The record as JSON Lines text (UTF-8 names kept as written); reading it back gives the same values.

    Comment and blank lines are not kept: the text starts with the header and has one entry a line.
    Lines a lenient read left out are not written, so the entries after them are renumbered and
    every ``fix``/``undo`` is rewritten to name the same event by its new number.
    """
    new_numbers = {entry.number: index for index, entry in enumerate(record.entries, start=1)}
    lines = [header_line(record.header)]
    for entry in record.entries:
        mapping = entry.to_mapping()
        for key in CORRECTION_KINDS:
            if key in mapping:
                mapping[key] = new_numbers[mapping[key]]
        lines.append(_dump(mapping))
    return "\n".join(lines) + "\n"


def header_line(header: Header) -> str:
    """The header as one line of text (no newline), for a record written as the match goes."""
    return _dump(header.to_mapping())


def entry_line(entry: RecordEntry) -> str:
    """One entry as one line of text (no newline), for appending to a record as events happen."""
    return _dump(entry.to_mapping())


def parse_record(text: str, *, name: str = "<record>", lenient: bool = False) -> Record:
    """Read a record's text. Strict (default): raise RecordError on the first problem.

    ``lenient=True``: collect every problem in ``Record.errors`` and keep every readable entry
    (a bad entry keeps its number, so later corrections still count right). A header that
    cannot be read is fatal in both modes: without it no event means anything.
    """
    reader = _Reader(name=name, lenient=lenient)
    return reader.read(text.removeprefix("\ufeff"))  # a byte-order mark some editors write


def parse_header(mapping: Mapping[str, Any]) -> Header:
    """Check a header object; raise ``_LineError`` naming the key (the reader adds file and line)."""
    if "tressette" not in mapping:
        raise _LineError(Message(
            'missing key "tressette": the first line must be the header, e.g. ' + _HEADER_EXAMPLE,
            'manca la chiave "tressette": la prima riga è l\'intestazione, come ' + _HEADER_EXAMPLE))
    version = mapping["tressette"]
    if not _is_int(version) or version < 1:
        raise _key_error("tressette", f"the format version must be a whole number >= 1, got {version!r}",
                         f"la versione del formato è un numero intero >= 1, non {version!r}")
    if version != FORMAT_VERSION:
        raise _key_error("tressette", f"unsupported format version {version} "
                         f"(this reader knows version {FORMAT_VERSION})",
                         f"versione del formato {version} non supportata "
                         f"(questo lettore conosce la versione {FORMAT_VERSION})")
    rules_mapping = _required(mapping, "rules")
    if not isinstance(rules_mapping, dict):
        raise _key_error("rules",
                         f'expected an object such as {{"preset": "classic"}}, got {rules_mapping!r}',
                         f'serve un oggetto come {{"preset": "classic"}}, non {rules_mapping!r}')
    try:
        rules = Rules.from_mapping(rules_mapping)
    except RuleError as error:
        raise _key_error("rules", error.message.en, error.message.it) from error
    players = _parse_players(_required(mapping, "players"), rules)
    dealer = mapping.get("dealer", len(players) - 1)
    if not _is_int(dealer) or not 0 <= dealer < len(players):
        raise _key_error("dealer", f"expected a seat 0..{len(players) - 1}, got {dealer!r}",
                         f"serve un posto 0..{len(players) - 1}, non {dealer!r}")
    extra = {key: value for key, value in mapping.items() if key not in HEADER_KEYS}
    return Header(rules=rules, players=tuple(players), dealer=dealer, rules_mapping=dict(rules_mapping),
                  version=version, extra=extra)


def parse_entry(mapping: Mapping[str, Any], *, number: int, line: int | None, seats: int) -> RecordEntry:
    """Check one entry object; raise ``_LineError`` naming the key."""
    meta = _parse_meta(mapping, number=number, line=line)
    kinds = [key for key in EVENT_KINDS if key in mapping]
    corrections = [key for key in CORRECTION_KINDS if key in mapping]
    if len(corrections) > 1:
        raise _LineError(Message('an entry is either a "fix" or an "undo", not both',
                                 'una riga è un "fix" o un "undo", non tutti e due'))
    if not kinds and not corrections:
        expected = ", ".join(EVENT_KINDS + CORRECTION_KINDS)
        raise _LineError(Message(f"unknown event kind: expected one of {expected}; "
                                 f"got keys {sorted(mapping)}",
                                 "tipo di evento sconosciuto: serve una delle chiavi "
                                 f"{_quoted(EVENT_KINDS + CORRECTION_KINDS)}; "
                                 f"le chiavi sono {sorted(mapping)}"))
    if len(kinds) > 1:
        raise _LineError(Message(f"one event per line: found {', '.join(kinds)}",
                                 f"un evento per riga: qui ci sono {_quoted(kinds)}"))
    if corrections == ["undo"]:
        if kinds:
            raise _LineError(Message(
                f'an "undo" withdraws an event and carries none: drop key "{kinds[0]}" '
                'or write {"fix": N, ...}',
                f'un "undo" ritira un evento e non ne porta: togli la chiave "{kinds[0]}" '
                'o scrivi {"fix": N, ...}'))
        return RecordEntry(number=number, meta=meta, undo=_parse_target(mapping, "undo", number))
    if corrections == ["fix"] and not kinds:
        raise _LineError(Message(
            'a "fix" carries the replacing event, e.g. {"fix": 17, "play": "2c", "by": 2}',
            'un "fix" porta l\'evento che sostituisce, come {"fix": 17, "play": "2c", "by": 2}'))
    event = _parse_event(kinds[0], mapping, meta, seats)
    fix = _parse_target(mapping, "fix", number) if corrections else None
    return RecordEntry(number=number, meta=meta, event=event, fix=fix)


def _parse_event(kind: str, mapping: Mapping[str, Any], meta: Meta, seats: int) -> Event:
    if kind == "claim":
        if "by" in mapping:
            raise _key_error("by", 'a claim names the side that claims, e.g. {"claim": 0}',
                             'chi si chiama fuori è un lato, scritto come {"claim": 0}')
        side = mapping["claim"]
        if not _is_int(side) or not 0 <= side < seats:
            raise _key_error("claim", f"expected a side (or player) index 0..{seats - 1}, got {side!r}",
                             f"serve un lato (o un giocatore) 0..{seats - 1}, non {side!r}")
        return Claim(side=side, meta=meta)
    by = _parse_seat(mapping, seats)
    value = mapping[kind]
    if kind == "play":
        return Play(card=_parse_card(value, kind), by=by, meta=meta)
    if kind == "draw":
        return Draw(card=_parse_card(value, kind), by=by, meta=meta)
    if kind == "call":
        if value not in SUITS:
            raise _key_error("call", f"expected a suit c/d/s/b, got {value!r}",
                             f"serve un seme c/d/s/b, non {value!r}")
        return Call(suit=value, by=by, meta=meta)
    if not isinstance(value, list) or not value:
        raise _key_error("accuso", f'expected a list of card codes such as ["1c", "2c", "3c"], got {value!r}',
                         f'serve una lista di codici di carte come ["1c", "2c", "3c"], non {value!r}')
    return Accuso(cards=tuple(_parse_card(code, kind) for code in value), by=by, meta=meta)


def _parse_card(value: object, key: str) -> Card:
    try:
        return parse_card(value)
    except CardError as error:
        raise _key_error(key, f"unknown card code: {error.message.en}",
                         f"carta sconosciuta: {error.message.it}") from error


def _parse_seat(mapping: Mapping[str, Any], seats: int) -> int:
    if "by" not in mapping:
        raise _LineError(Message(f'missing key "by": which seat (0..{seats - 1}) did it',
                                 f'manca la chiave "by": quale posto (0..{seats - 1}) l\'ha fatto'))
    by = mapping["by"]
    if not _is_int(by) or not 0 <= by < seats:
        raise _key_error("by", f"expected a seat 0..{seats - 1} (there are {seats} players), got {by!r}",
                         f"serve un posto 0..{seats - 1} (i giocatori sono {seats}), non {by!r}")
    return by


def _parse_target(mapping: Mapping[str, Any], key: str, number: int) -> int:
    target = mapping[key]
    if not _is_int(target) or not 1 <= target < number:
        raise _key_error(key, f"expected the number of an earlier event (1..{number - 1}), got {target!r}",
                         f"serve il numero di un evento precedente (1..{number - 1}), non {target!r}")
    return target


def _parse_meta(mapping: Mapping[str, Any], *, number: int, line: int | None) -> Meta:
    t = mapping.get("t")
    if t is not None and (not _is_number(t) or t < 0):
        raise _key_error("t", f"expected seconds since the header (a number >= 0), got {t!r}",
                         f"servono i secondi dall'intestazione (un numero >= 0), non {t!r}")
    source = mapping.get("source")
    if source is not None and not isinstance(source, str):
        raise _key_error("source", f'expected a name such as "camera", got {source!r}',
                         f'serve un nome come "camera", non {source!r}')
    confidence = mapping.get("confidence")
    if confidence is not None and (not _is_number(confidence) or not 0 <= confidence <= 1):
        raise _key_error("confidence", f"expected a number 0..1, got {confidence!r}",
                         f"serve un numero 0..1, non {confidence!r}")
    extra = {key: value for key, value in mapping.items() if key not in _ENTRY_KEYS}
    return Meta(number=number, line=line, t=t, source=source, confidence=confidence, extra=extra)


def _meta_to_mapping(meta: Meta) -> dict[str, Any]:
    mapping: dict[str, Any] = {}
    for key in META_KEYS:
        value = getattr(meta, key)
        if value is not None:
            mapping[key] = value
    mapping.update(meta.extra)
    return mapping


def _parse_players(players: object, rules: Rules) -> list[str]:
    if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
        raise _key_error("players", f"expected a list of names in playing order, got {players!r}",
                         f"serve la lista dei nomi in ordine di gioco, non {players!r}")
    if len(players) != rules.seats:
        raise _key_error("players",
                         f"these rules need {rules.seats} seats, got {len(players)} names {players!r}",
                         f"queste regole vogliono {rules.seats} posti, i nomi sono {len(players)}: "
                         f"{players!r}")
    return players


def _required(mapping: Mapping[str, Any], key: str) -> Any:
    if key not in mapping:
        raise _LineError(Message(f'missing key "{key}" in the header',
                                 f'manca la chiave "{key}" nell\'intestazione'))
    return mapping[key]


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _as_fix_of(replacement: Event, original: Event) -> Event:
    """The replacing event, numbered as the event it replaces; meta the fix leaves out is kept."""
    old, new = original.meta, replacement.meta
    meta = Meta(number=old.number, line=new.line,
                t=new.t if new.t is not None else old.t,
                source=new.source if new.source is not None else old.source,
                confidence=new.confidence if new.confidence is not None else old.confidence,
                extra=new.extra)
    return replace(replacement, meta=meta)


class _Corrections:
    """Checks each correction against the entries before it: the target is an earlier plain,
    readable, live event."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.plain_lines: dict[int, int | None] = {}
        self.correction_lines: dict[int, int | None] = {}
        self.undone: dict[int, int | None] = {}

    def check(self, entry: RecordEntry) -> None:
        line = entry.meta.line or 0
        target = entry.fix if entry.fix is not None else entry.undo
        if target is not None:
            key = "fix" if entry.fix is not None else "undo"
            self._check_target(key, target, line, entry.number)
        if entry.undo is not None:
            self.undone[entry.undo] = entry.meta.line
        if entry.is_correction:
            self.correction_lines[entry.number] = entry.meta.line
        else:
            self.plain_lines[entry.number] = entry.meta.line

    def _check_target(self, key: str, target: int, line: int, number: int) -> None:
        if target in self.correction_lines:
            where = self.correction_lines[target]
            raise RecordError(self.name, line, _key_problem(
                key,
                f"event {target} (line {where}) is itself a correction; {key} the original event instead",
                f"l'evento {target} (riga {where}) è a sua volta una correzione; "
                f'metti "{key}" sull\'evento originale'), number)
        if target in self.undone:
            undo_line = self.undone[target]
            raise RecordError(self.name, line, _key_problem(
                key, f"event {target} was already withdrawn by the undo on line {undo_line}",
                f"l'evento {target} è già stato ritirato dall'undo della riga {undo_line}"), number)
        if target not in self.plain_lines:
            raise RecordError(self.name, line, _key_problem(
                key, f"there is no readable event {target} to correct",
                f"non c'è un evento {target} leggibile da correggere"), number)


class _Reader:
    """One pass over the lines: header first, then entries numbered from 1."""

    def __init__(self, *, name: str, lenient: bool) -> None:
        self.name = name
        self.lenient = lenient
        self.errors: list[RecordError] = []
        self.corrections = _Corrections(name)

    def read(self, text: str) -> Record:
        lines = _content_lines(text)
        first = next(lines, None)
        if first is None:
            raise RecordError(self.name, 1, Message(
                "empty record: the first line must be the header, e.g. " + _HEADER_EXAMPLE,
                "partita vuota: la prima riga è l'intestazione, come " + _HEADER_EXAMPLE))
        header_line, header_text = first
        header = self._parse_or_raise(header_line, header_text, parse_header)
        entries = []
        for number, (line, line_text) in enumerate(lines, start=1):
            entry = self._read_entry(number, line, line_text, header.seats)
            if entry is not None:
                entries.append(entry)
        return Record(header=header, entries=tuple(entries), errors=tuple(self.errors), name=self.name)

    def _read_entry(self, number: int, line: int, text: str, seats: int) -> RecordEntry | None:
        try:
            entry = self._parse_or_raise(
                line, text, lambda obj: parse_entry(obj, number=number, line=line, seats=seats), number)
            self.corrections.check(entry)
        except RecordError as error:
            if not self.lenient:
                raise
            self.errors.append(error)
            return None
        return entry

    def _parse_or_raise(self, line: int, text: str, parse: Callable[[dict[str, Any]], Any],
                        number: int | None = None) -> Any:
        try:
            return parse(_load_object(text))
        except _LineError as problem:
            raise RecordError(self.name, line, problem.message, number) from problem


def _content_lines(text: str) -> Iterator[tuple[int, str]]:
    """(line number, text) of every line that is neither blank nor a ``#`` comment."""
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            yield number, stripped


def _load_object(text: str) -> dict[str, Any]:
    try:
        value = _DECODER.decode(text)
    except json.JSONDecodeError as error:
        raise _LineError(Message(f"bad JSON ({error.msg} at column {error.colno}): {_snippet(text)}",
                                 f"JSON non valido ({error.msg} alla colonna {error.colno}): "
                                 f"{_snippet(text)}")) from error
    if not isinstance(value, dict):
        raise _LineError(Message(f"expected one JSON object per line, got {_snippet(text)}",
                                 f"serve un oggetto JSON per riga, non {_snippet(text)}"))
    return value


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise _LineError(Message(f'key "{key}" appears twice in one object',
                                     f'la chiave "{key}" compare due volte nello stesso oggetto'))
        result[key] = value
    return result


def _no_constant(name: str) -> Any:
    raise _LineError(Message(f"bad JSON: {name} is not a number JSON allows",
                             f"JSON non valido: {name} non è un numero ammesso da JSON"))


_DECODER = json.JSONDecoder(object_pairs_hook=_no_duplicate_keys, parse_constant=_no_constant)


def _quoted(keys: Sequence[str]) -> str:
    return ", ".join(f'"{key}"' for key in keys)


def _snippet(text: str) -> str:
    return text if len(text) <= _SNIPPET else text[: _SNIPPET - 3] + "..."


def _dump(mapping: Mapping[str, Any]) -> str:
    return json.dumps(mapping, ensure_ascii=False)
