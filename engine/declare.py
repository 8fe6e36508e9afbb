"""Declared accusi (``accuso = declared``): accepting a declaration in its window, and the accusi a hand
counts (declared ones not proven false, or the mandatory tally of what each seat was seen to hold).

Windows (RULES.md, "Accusi", option ``accuso_window``), counted from the start of each deal:

- ``first_trick``: from the start of the deal until the first card of the second trick;
- ``first_three_tricks``: until the first card of the fourth trick;
- ``any_own_turn``: also any time the declarer is to play or has just played.

With drawing and ``accuso_after_draw`` a seat may also declare after its own draw until it plays; with
two deals and ``accuso_second_deal`` the second deal opens a window of its own.
"""

from __future__ import annotations

from engine.accusi import Combo, HeldCard, combos_of_mask, declared_combos, new_combos, tally
from engine.cards import Card
from engine.errors import Message
from engine.events import Meta
from engine.flags import FALSE_ACCUSO, LATE_ACCUSO, Flag
from engine.hand import (
    SECOND_DEAL_TRICK,
    Declaration,
    Hand,
    card_info,
    deal_of,
    event_words,
    illegal,
    seat_mask,
    seat_masks,
)
from engine.rules import Rules

_WINDOW_TRICKS = {"first_trick": 1, "first_three_tricks": 3, "any_own_turn": 1}


def declare(rules: Rules, hand: Hand, cards: tuple[Card, ...], by: int, event_no: int,
            where: Meta | int) -> tuple[Hand, tuple[Flag, ...]]:
    """Seat ``by`` declares ``cards``. A declaration that is not a combination, or repeats one already
    made, cannot be recorded (``IllegalEventError``); one out of its window is flagged and does not count;
    one whose card was already seen elsewhere is flagged false at once."""
    text = event_words("accuso", " ".join(getattr(card, "code", repr(card)) for card in cards), by)
    if not all(isinstance(card, Card) for card in cards):
        raise illegal(where, text, hand, Message("an accuso lists cards", "un accuso elenca delle carte"))
    if rules.accuso != "declared":
        why = Message("there are no accusi in this game", "in questa partita non ci sono accusi") \
            if rules.accuso == "off" else \
            Message("accusi are tallied from the cards played (accuso = mandatory); nothing is declared",
                    "gli accusi si contano dalle carte giocate (accuso = mandatory); non si dichiara niente")
        raise illegal(where, text, hand, why)
    combos = declared_combos(cards, rules.four_of_a_kind)
    if combos is None:
        raise illegal(where, text, hand, Message(
            "these cards are not a Napoletana or a Bongioco (three or four Assi, 2s or 3s)",
            "queste carte non sono una Napoletana né un Bongioco (tre o quattro Assi, Due o Tre)"))
    earlier = [combo for item in hand.extra.declarations if item.by == by and not item.false
               for combo in item.combos]
    fresh = new_combos(combos, earlier)
    if not fresh:
        raise illegal(where, text, hand, Message(f"seat {by} already declared this",
                                                 f"il posto {by} l'ha già accusato"))
    trick_index = len(hand.tricks)
    if not is_in_window(rules, hand, by):
        return hand, (Flag(event_no, LATE_ACCUSO, by, {"trick": trick_index + 1}),)
    declaration = Declaration(by, fresh, event_no, trick_index)
    flags: list[Flag] = []
    for combo in fresh:
        for card in combo.cards:
            why = _seen_elsewhere(rules, hand, card, by, trick_index)
            if why is not None and not declaration.false:
                declaration = declaration._replace(false=True)
                params = {"card": card.code, "why": why[0], "other": why[1]}
                flags.append(Flag(event_no, FALSE_ACCUSO, by, params))
    mask = hand.extra.declared_mask
    for card in cards:
        mask |= card_info(card)[0]
    extra = hand.extra._replace(declarations=(*hand.extra.declarations, declaration), declared_mask=mask)
    return hand._replace(extra=extra), tuple(flags)


def is_in_window(rules: Rules, hand: Hand, by: int) -> bool:
    """Whether seat ``by`` may declare now."""
    trick_index = len(hand.tricks)
    in_trick = len(hand.trick)
    starts = [0]
    if rules.seats == 2 and not rules.drawing and rules.accuso_second_deal:
        starts.append(SECOND_DEAL_TRICK)
    limit = _WINDOW_TRICKS[rules.accuso_window]
    for start in starts:
        done = trick_index - start
        if 0 <= done < limit or (done == limit and in_trick == 0):
            return True
    if rules.accuso_window == "any_own_turn":
        last_by = None
        if hand.trick:
            last_by = ((hand.leader or 0) + len(hand.trick) - 1) % rules.seats
        elif hand.tricks:
            last = hand.tricks[-1]
            last_by = (last.leader + len(last.cards) - 1) % rules.seats
        if hand.turn == by or last_by == by:
            return True
    if rules.drawing and rules.accuso_after_draw:
        drew_now = any(seat == by and when == trick_index for _card, seat, when in hand.extra.drawn)
        if drew_now and not (seat_mask(hand, by, rules.seats) & _trick_mask(hand)):
            return True
    return False


def _trick_mask(hand: Hand) -> int:
    mask = 0
    for card in hand.trick:
        mask |= card_info(card)[0]
    return mask


def _seen_elsewhere(rules: Rules, hand: Hand, card: Card, by: int,
                    trick_index: int) -> tuple[str, int] | None:
    """Why seat ``by`` cannot hold ``card`` now, from what was already seen; ``None`` if it may."""
    bit = card_info(card)[0]
    for seat in range(rules.seats):
        if seat != by and seat_mask(hand, seat, rules.seats) & bit:
            return ("played_by", seat)
    for drawn, seat, _when in hand.extra.drawn:
        if drawn == card and seat != by:
            return ("drawn_by", seat)
    if seat_mask(hand, by, rules.seats) & bit and deal_of(rules, trick_index) == 1:
        first_deal = any(card in trick.cards and (trick.leader + trick.cards.index(card)) % rules.seats == by
                         for trick in hand.tricks[:SECOND_DEAL_TRICK])
        if first_deal:
            return ("other_deal", by)
    return None


def hand_accusi(rules: Rules, hand: Hand) -> tuple[tuple[int, Combo], ...]:
    """The accusi that count in this hand so far, as (seat, combination): the declared ones not proven
    false, or (mandatory) the tally of what each seat has been seen to hold."""
    if rules.accuso == "off":
        return ()
    if rules.accuso == "declared":
        return tuple((item.by, combo) for item in hand.extra.declarations if not item.false
                     for combo in item.combos)
    counted: list[tuple[int, Combo]] = []
    if not hand.extra.drawn and not (rules.seats == 2 and not rules.drawing):
        for seat, mask in enumerate(seat_masks(hand, rules.seats)):
            counted.extend((seat, combo) for combo in combos_of_mask(mask, rules.four_of_a_kind))
        return tuple(counted)
    for seat in range(rules.seats):
        held = _held_cards(rules, hand, seat)
        combos = tally(held, _moments(rules, hand, seat), rules.four_of_a_kind)
        counted.extend((seat, combo) for combo in combos)
    return tuple(counted)


def _held_cards(rules: Rules, hand: Hand, seat: int) -> list[HeldCard]:
    """What ``seat`` is known to have held: every card it played, every card it drew."""
    drawn_at = {card: when for card, by, when in hand.extra.drawn if by == seat}
    played_at: dict[Card, int] = {}
    for index, trick in enumerate(hand.tricks):
        position = (seat - trick.leader) % rules.seats
        played_at[trick.cards[position]] = index
    if hand.trick and hand.leader is not None:
        position = (seat - hand.leader) % rules.seats
        if position < len(hand.trick):
            played_at[hand.trick[position]] = len(hand.tricks)
    held = [HeldCard(card, drawn_at.get(card, SECOND_DEAL_TRICK if deal_of(rules, when) else 0), when)
            for card, when in played_at.items()]
    held.extend(HeldCard(card, when, None) for card, when in drawn_at.items() if card not in played_at)
    return held


def _moments(rules: Rules, hand: Hand, seat: int) -> list[int]:
    moments = [0]
    if rules.drawing and rules.accuso_after_draw:
        moments.extend(sorted({when for _card, by, when in hand.extra.drawn if by == seat}))
    if rules.seats == 2 and not rules.drawing and rules.accuso_second_deal:
        moments.append(SECOND_DEAL_TRICK)
    return moments
