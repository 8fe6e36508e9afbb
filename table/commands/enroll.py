"""`tressette enroll --out DECK DIR`: make a deck profile from pictures of the user's own cards.

``DIR`` holds one picture per card named by its code (``3c.jpg``, ``10b.png``, ``back.jpg``) or its
name (``Tre di coppe.jpg``, ``dorso.jpg``: ``vision.deck_pictures.parse_picture_name``), perhaps a
second one named by the code and a separator (``3c-2.jpg``, ``3c (2).jpg``), or folders named by code
holding several pictures each. A file with an unknown name, or a picture unreadable or under
``MIN_ARTWORK_SIDE`` pixels on a side, stops the enrolment with every such file listed; missing cards
only give a warning listing them, and the profile is made from the cards there are. Photos in which no
card can be cut out are enrolled whole, with a warning naming them; so are card pictures the model
reads as no card at all (``vision.deck_pictures.reads_as_no_card``). An ``--out`` that could not be
written (a folder, or in a folder that does not exist) is refused before any picture is read
(``check_destinations``). ``--threads N`` renders and reads the pictures' views in N processes
(``vision.worker_pool``; by default one per core of the machine): the same profile, sooner.

With ``--in-order`` the pictures need no names: ``DIR`` holds the 40 pictures of a sorted deck,
named in the order they were taken (a phone's ``IMG_0001.jpg`` ...), and perhaps the back; which card
each one is comes from that order (``vision.deck_order``: suits in any order, each from the Asso to
the Re or back), which is printed for the player to check. The deck may be photographed twice in the
same order (80 pictures, and perhaps its back in each pass): every card then has two pictures.

Given a video file instead of a folder (``DIR|VIDEO``: ``.mp4``, ``.mkv``, ``.mov`` ...), the sorted
deck is taken from the clip of it shown to the camera card after card, each card laid on the table and
taken back (``vision.clip_cards``); the order is found as for ``--in-order``. ``--save-pictures DIR``
writes the pictures of a sorted deck or a clip named by the card found for each (``3c.jpg``), so that a
player can look at them, and enrol them again by name.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from engine.cards import BACK, SUIT_NAMES, SUITS, Lang, parse_card
from engine.errors import Message
from table.cli_parser import add_language_option, said, say
from table.commands.classify import model_help, positive_int, whole_number_at_least
from table.errors import TableError, error_word
from vision.classifier import CardClassifier
from vision.clip_cards import VIDEO_SUFFIXES, ScanProgress, is_clip_path
from vision.deck_order import DeckOrder, OrderReading
from vision.deck_pictures import enroll_clip, enroll_folder, enroll_in_order, write_card_pictures
from vision.enrollment import (
    DEFAULT_HEAD_VIEWS,
    DEFAULT_SEED,
    DEFAULT_VIEWS,
    EnrollmentError,
    EnrollmentSettings,
)
from vision.worker_pool import machine_cores

MESSAGES = {
    "it": {
        "missing": "attenzione: mancano {count} carte, il profilo non le conosce: {cards}",
        "done": "Mazzo «{name}» registrato in {out}: {cards} carte{back}, {pictures} immagini, "
                "{views} viste ciascuna.",
        "back": " e il dorso",
        "uncut": "attenzione: in {count} foto non trovo il bordo della carta e la uso intera, tavolo "
                 "compreso; meglio rifarle più da vicino o su un fondo più scuro, a tinta unita: {files}",
        "order": "Ordine delle foto: {order}{back}. Se non è l'ordine in cui avete fotografato le carte, "
                 "chiamate ogni foto col codice della carta e registrate senza --in-order.",
        "order_back": "; il dorso è {file}",
        "unsure": "attenzione: l'ordine delle foto è incerto, di poco più probabile del secondo: "
                  "{runner_up}.{hint} Oppure chiamate ogni foto col codice della carta.",
        "unsure_hint": " Se è quello giusto, ripetete con --suits {suits}.",
        "suits_alone": "--suits va usato con --in-order o con un video",
        "save_alone": "--save-pictures va usato con --in-order o con un video",
        "clip_found": "Nel video {clip} ho trovato {count} carte, dalla prima a {first} all'ultima a {last}.",
        "saved": "Le {count} immagini delle carte, col nome della carta, sono in {folder}.",
        "not_source": "{path}: non è né una cartella di foto né un video ({suffixes})",
        "progress": "Registro il mazzo: {done} foto su {total}",
        "scanning": "Cerco le carte nel video: {done:.0f} s{of}",
        "scanning_of": " su {total:.0f}",
        "no_card": "attenzione: non vedo una carta in {count} foto (il modello ci legge «nessuna carta»): "
                   "{files}. Il mazzo è registrato comunque; controllate queste foto e, se serve, rifatele "
                   "e registrate di nuovo.",
        "out_is_folder": "--out {out}: è una cartella; date il nome del file del profilo da scrivere, "
                         "come {folder}/mio-mazzo.npz",
        "out_no_folder": "--out {out}: la cartella {folder} non esiste; createla o scegliete un altro file",
        "save_is_file": "--save-pictures {folder}: è un file, non una cartella",
        "alike": "attenzione: queste immagini, una dopo l'altra, sembrano la stessa carta due volte; se è "
                 "così, i nomi di tutte quelle dopo sono spostati di uno, e conviene rifarle: {pairs}",
    },
    "en": {
        "missing": "warning: {count} cards are missing, the profile does not know them: {cards}",
        "done": "Deck “{name}” enrolled in {out}: {cards} cards{back}, {pictures} pictures, "
                "{views} views each.",
        "back": " and the back",
        "uncut": "warning: in {count} pictures I cannot find the card's edge and use the whole picture, "
                 "table and all; better take them again closer or on a darker, plain background: {files}",
        "order": "Order of the pictures: {order}{back}. If that is not the order you photographed the "
                 "cards in, name each picture by its card code and enrol without --in-order.",
        "order_back": "; the back is {file}",
        "unsure": "warning: the order of the pictures is unsure, hardly more probable than the next: "
                  "{runner_up}.{hint} Or name each picture by its card code.",
        "unsure_hint": " If that is the right one, run again with --suits {suits}.",
        "suits_alone": "--suits goes with --in-order or with a clip",
        "save_alone": "--save-pictures goes with --in-order or with a clip",
        "clip_found": "In the clip {clip} I found {count} cards, the first at {first}, the last at {last}.",
        "saved": "The {count} pictures of the cards, named by card, are in {folder}.",
        "not_source": "{path}: neither a folder of pictures nor a clip ({suffixes})",
        "progress": "Enrolling the deck: {done} pictures of {total}",
        "scanning": "Looking for the cards in the clip: {done:.0f} s{of}",
        "scanning_of": " of {total:.0f}",
        "no_card": "warning: I see no card in {count} picture(s) (the model reads no card there): "
                   "{files}. The deck is enrolled all the same; check these pictures and, where needed, "
                   "take them again and enrol again.",
        "out_is_folder": "--out {out}: a folder; give the name of the profile file to write, such as "
                         "{folder}/my-deck.npz",
        "out_no_folder": "--out {out}: the folder {folder} does not exist; make it or choose another file",
        "save_is_file": "--save-pictures {folder}: a file, not a folder",
        "alike": "warning: these pictures, one right after the other, look like the same card twice; if so, "
                 "the names of all those after are shifted by one, and they are worth taking again: {pairs}",
    },
}


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "enroll",
        help=say("enrols a regional deck from photos of its cards",
                 "registra un mazzo regionale dalle foto delle sue carte"),
        description=say("Enrols your own deck: one photo per card, named by the card's code "
                        "(3c.jpg, 10b.png, back.jpg) or by its name (Tre di coppe.jpg, dorso.jpg); a "
                        "second photo of the same card: 3c-2.jpg, or folders 3c/ with several photos.",
                        "Registra il proprio mazzo: una foto per carta, chiamata col codice della carta "
                        "(3c.jpg, 10b.png, back.jpg) o col suo nome (Tre di coppe.jpg, dorso.jpg); una "
                        "seconda foto della stessa carta: 3c-2.jpg, oppure cartelle 3c/ con più foto."),
    )
    add = parser.add_argument
    add("folder", type=Path, metavar="DIR|VIDEO",
        help=say("a folder of the cards' photos, or the video of the sorted deck shown card by card to "
                 "the camera (mp4, mkv, mov...): each card laid on the table and filmed",
                 "cartella con le foto delle carte, oppure il video del mazzo ordinato mostrato carta per "
                 "carta alla telecamera (mp4, mkv, mov...): ogni carta posata sul tavolo e ripresa"))
    add("--out", type=Path, required=True, metavar="DECK",
        help=say("the profile file to write", "file del profilo da scrivere"))
    add("--in-order", action="store_true",
        help=say("unnamed photos of a sorted deck (suit after suit, Asso to Re), in the order of their "
                 "names; 40 photos, or 80 if the deck is photographed twice in the same order",
                 "foto senza nome di un mazzo ordinato (seme dopo seme, dall'Asso al Re), nell'ordine dei "
                 "nomi; 40 foto, o 80 se il mazzo è fotografato due volte nello stesso ordine"))
    add("--suits", type=suit_order, metavar=say("SUITS", "SEMI"),
        help=say("with --in-order or a video: the suits in the photos' order, "
                 "such as coppe,denari,spade,bastoni",
                 "con --in-order o un video: i semi nell'ordine delle foto, come coppe,denari,spade,bastoni"))
    add("--save-pictures", type=Path, metavar="DIR",
        help=say("with --in-order or a video: writes the cards' pictures to DIR named by card (3c.jpg ...), "
                 "to look at or to enrol again without --in-order",
                 "con --in-order o un video: scrive in DIR le immagini delle carte col nome della carta "
                 "(3c.jpg ...), da guardare o da registrare di nuovo senza --in-order"))
    add("--views", type=positive_int, default=DEFAULT_VIEWS, metavar="N",
        help=say(f"views made per photo (default {DEFAULT_VIEWS})",
                 f"viste generate per foto (predefinito {DEFAULT_VIEWS})"))
    add("--head-views", type=whole_number_at_least(0), default=DEFAULT_HEAD_VIEWS, metavar="N",
        help=say(f"hard views per photo for the profile's head (default {DEFAULT_HEAD_VIEWS}; fewer to "
                 "enrol sooner on a slow machine, 384 to read the cards the camera sees small a little "
                 "better, in nearly three times the time; 0 for the prototypes alone)",
                 f"viste difficili per foto per la testa del profilo (predefinito {DEFAULT_HEAD_VIEWS}; "
                 "meno per registrare prima su una macchina lenta, 384 per leggere un po' meglio le carte "
                 "che la telecamera vede piccole, in quasi il triplo del tempo; 0 per i soli prototipi)"))
    add("--seed", type=int, default=DEFAULT_SEED,
        help=say("seed of the views made", "seme delle viste generate"))
    add("--threads", type=positive_int, default=machine_cores(), metavar="N",
        help=say("processes that make and read the photos' views, in parallel (default: the machine's "
                 f"cores, {machine_cores()}); 1 to leave the machine free",
                 "processi che preparano e leggono le viste delle foto, in parallelo (predefinito: i core "
                 f"della macchina, {machine_cores()}); 1 per lasciare libera la macchina"))
    add("--model", type=Path, metavar="PATH", help=model_help())
    add_language_option(parser)
    parser.set_defaults(func=run)


def parse_suit_order(text: str) -> tuple[str, ...]:
    """The four suits in the order written, by initial or by name in Italian or English
    (``c,d,s,b``, ``coppe,denari,spade,bastoni``, ``cups,coins,swords,batons``); TableError naming
    what is not a suit, or a suit missing or repeated."""
    names = {name: suit for names in SUIT_NAMES.values() for suit, name in names.items()}
    names.update({suit: suit for suit in SUITS})
    parts = [part.strip().lower() for part in text.split(",")]
    unknown = [part for part in parts if part not in names]
    if unknown:
        raise TableError(Message(f"not suits: {unknown} (write the four suits in order, such as "
                                 "coppe,denari,spade,bastoni or c,d,s,b)",
                                 f"non sono semi: {unknown} (scrivete i quattro semi in ordine, come "
                                 "coppe,denari,spade,bastoni o c,d,s,b)"))
    suits = tuple(names[part] for part in parts)
    if sorted(suits) != sorted(SUITS):
        raise TableError(Message(f"the four suits once each, in order; got {text!r}",
                                 f"i quattro semi, una volta ciascuno, in ordine; non {text!r}"))
    return suits


def suit_order(text: str) -> tuple[str, ...]:
    """argparse type: the four suits in order (``parse_suit_order``)."""
    try:
        return parse_suit_order(text)
    except TableError as error:
        raise argparse.ArgumentTypeError(said(error.message)) from None


def describe_order(order: DeckOrder, lang: Lang = "it") -> str:
    """A sorted deck's order in words: ``coppe, denari, spade, bastoni, dall’Asso al Re``."""
    suits = ", ".join(SUIT_NAMES[lang][suit] for suit in order.suits)
    if lang == "en":
        return f"{suits}, {'Ace to King' if order.ascending else 'King to Ace'}"
    return f"{suits}, {'dall’Asso al Re' if order.ascending else 'dal Re all’Asso'}"


def check_destinations(out: Path, save_pictures: Path | None, lang: Lang = "it") -> None:
    """Raise TableError, before any picture is read, where the profile could not be written at ``out``
    (a folder there, or no folder to hold it) or the pictures not saved in ``save_pictures`` (a file
    there): a minute of enrolment is not thrown away at the end."""
    text = MESSAGES[lang]
    if out.is_dir():
        raise TableError(text["out_is_folder"].format(out=out, folder=out))
    folder = out.parent
    if not folder.is_dir():
        raise TableError(text["out_no_folder"].format(out=out, folder=folder))
    if save_pictures is not None and save_pictures.exists() and not save_pictures.is_dir():
        raise TableError(text["save_is_file"].format(folder=save_pictures))


def progress_on_terminal(lang: Lang = "it") -> Callable[[int, int], None] | None:
    """Where stderr is a terminal, a progress line rewritten in place as each picture is read (an
    enrolment takes a minute on a Raspberry Pi); None where it is a file or a pipe, whose reader wants
    the warnings alone."""
    if not sys.stderr.isatty():
        return None
    template = MESSAGES[lang]["progress"]

    def show(done: int, total: int) -> None:
        _show_progress(template.format(done=done, total=total), done >= total)
    return show


def scan_progress_on_terminal(lang: Lang = "it") -> ScanProgress | None:
    """Where stderr is a terminal, a line rewritten in place as the clip is searched for its cards, a
    second of clip at a time (``vision.clip_cards.find_shown_cards``); None elsewhere."""
    if not sys.stderr.isatty():
        return None
    text = MESSAGES[lang]

    def show(done: float, total: float | None) -> None:
        of = text["scanning_of"].format(total=total) if total is not None else ""
        _show_progress(text["scanning"].format(done=done, of=of), total is not None and done >= total)
    return show


def _show_progress(line: str, is_last: bool) -> None:
    # Clear to the end of the line: a shorter line must not leave the tail of a longer one.
    print("\r" + line + "\033[K", end="\n" if is_last else "", file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    text = MESSAGES[args.lang]
    is_clip = is_clip_path(args.folder)
    if args.folder.is_file() and not is_clip:
        raise EnrollmentError(text["not_source"].format(path=args.folder, suffixes=", ".join(VIDEO_SUFFIXES)))
    for option, name in ((args.suits, "suits_alone"), (args.save_pictures, "save_alone")):
        if option is not None and not (args.in_order or is_clip):
            print(f"tressette enroll: {error_word(args.lang)}: {text[name]}", file=sys.stderr)
            return 2
    check_destinations(args.out, args.save_pictures, args.lang)
    classifier = CardClassifier.load(args.model, threads=args.threads)
    settings = EnrollmentSettings(views=args.views, seed=args.seed, head_views=args.head_views,
                                  workers=args.threads, progress=progress_on_terminal(args.lang))
    if is_clip:
        enrollment = enroll_clip(args.folder, classifier, args.suits, settings,
                                 scan_progress_on_terminal(args.lang))
    elif args.in_order:
        enrollment = enroll_in_order(args.folder, classifier, args.suits, settings)
    else:
        enrollment = enroll_folder(args.folder, classifier, settings)
    if enrollment.missing_cards:
        names = ", ".join(f"{parse_card(code).name(args.lang)} ({code})" for code in enrollment.missing_cards)
        print(text["missing"].format(count=len(enrollment.missing_cards), cards=names), file=sys.stderr)
    if enrollment.uncut:
        print(text["uncut"].format(count=len(enrollment.uncut), files=", ".join(enrollment.uncut)),
              file=sys.stderr)
    if enrollment.no_card:
        print(text["no_card"].format(count=len(enrollment.no_card), files=", ".join(enrollment.no_card)),
              file=sys.stderr)
    enrollment.profile.save(args.out)
    classes = enrollment.profile.classes
    if is_clip:
        first, last = enrollment.picture_names[0], enrollment.picture_names[-1]
        print(text["clip_found"].format(clip=args.folder, count=enrollment.pictures,
                                        first=first.rpartition("@")[2], last=last.rpartition("@")[2]))
    print(text["done"].format(
        name=enrollment.profile.name, out=args.out, cards=sum(1 for c in classes if c != BACK),
        back=text["back"] if BACK in classes else "", pictures=enrollment.pictures, views=args.views,
    ))
    if enrollment.order is not None:
        _print_order(enrollment.order, enrollment.back_pictures, args.lang)
    if enrollment.alike_neighbours:
        pairs = "; ".join(f"{first} e {second}" if args.lang == "it" else f"{first} and {second}"
                          for first, second in enrollment.alike_neighbours)
        print(text["alike"].format(pairs=pairs), file=sys.stderr)
    if args.save_pictures is not None:
        written = write_card_pictures(args.save_pictures, enrollment.labelled)
        print(text["saved"].format(count=len(written), folder=args.save_pictures))
    return 0


def _print_order(reading: OrderReading, back_pictures: Sequence[str], lang: Lang) -> None:
    """The order the pictures were found in; on stderr, the next most probable where it is unsure."""
    text = MESSAGES[lang]
    back = ""
    if back_pictures:
        back = text["order_back"].format(file=", ".join(back_pictures))
    print(text["order"].format(order=describe_order(reading.order, lang), back=back))
    if reading.is_unsure:
        runner_up = reading.runner_up
        hint = "" if runner_up.suits == reading.order.suits else text["unsure_hint"].format(
            suits=",".join(SUIT_NAMES[lang][suit] for suit in runner_up.suits))
        print(text["unsure"].format(runner_up=describe_order(runner_up, lang), hint=hint), file=sys.stderr)
