"""The vision error family's two languages (``vision.errors``)."""

from __future__ import annotations

import pickle

from vision.deck_profile import ProfileError
from vision.errors import VisionError, message_in


def test_an_error_speaks_italian_by_choice_and_english_otherwise() -> None:
    error = ProfileError("deck.npz: not a deck profile", "deck.npz: non è un profilo di mazzo")
    assert str(error) == "deck.npz: not a deck profile"
    assert message_in(error, "it") == "deck.npz: non è un profilo di mazzo"
    assert message_in(error, "en") == "deck.npz: not a deck profile"


def test_an_error_without_italian_text_is_shown_as_it_is() -> None:
    assert message_in(VisionError("'std' must be positive"), "it") == "'std' must be positive"
    assert message_in(ValueError("plain"), "it") == "plain"


def test_an_error_from_a_worker_process_keeps_both_languages() -> None:
    copy = pickle.loads(pickle.dumps(ProfileError("gone", "sparito")))
    assert type(copy) is ProfileError and str(copy) == "gone" and copy.italian == "sparito"
    assert pickle.loads(pickle.dumps(VisionError("only English"))).italian is None
