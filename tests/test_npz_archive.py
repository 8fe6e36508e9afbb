"""Reading and writing the archives of deck profiles and style banks (``vision.npz_archive``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.deck_profile import ProfileError
from vision.npz_archive import read_npz, write_npz


class _Unwritable:
    """Stands for an array that fails once the archive is half written (numpy asks it for its array)."""

    def __array__(self, dtype: object = None, copy: object = None) -> np.ndarray:
        raise ValueError("this array cannot be written")


def test_written_arrays_read_back(tmp_path: Path) -> None:
    arrays = {"meta": np.array('{"format": 1}'), "prototypes": np.arange(6, dtype=np.float32).reshape(2, 3)}
    path = write_npz(tmp_path / "deck", arrays, ProfileError)
    assert path == tmp_path / "deck"
    read = read_npz(path, "deck profile", ProfileError, what_it="profilo di mazzo")
    assert set(read) == {"meta", "prototypes"}
    assert str(read["meta"]) == '{"format": 1}' and np.array_equal(read["prototypes"], arrays["prototypes"])
    assert [p.name for p in tmp_path.iterdir()] == ["deck"]


@pytest.mark.parametrize(("content", "found"), [
    (b"", "not an .npz archive: an empty file"),
    (b"\x80\x04a pickle, as numpy would take it", "not an .npz archive: 34 bytes of something else"),
])
def test_a_file_that_is_no_archive_says_so_without_mentioning_pickles(
    tmp_path: Path, content: bytes, found: str,
) -> None:
    path = tmp_path / "deck.npz"
    path.write_bytes(content)
    with pytest.raises(ProfileError, match=r"deck\.npz: not a deck profile") as caught:
        read_npz(path, "deck profile", ProfileError, what_it="profilo di mazzo")
    assert found in str(caught.value) and "pickle" not in str(caught.value)


def test_an_archive_holding_pickled_objects_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "deck.npz"
    np.savez(path, meta=np.array([{"a": 1}], dtype=object))
    with pytest.raises(ProfileError, match=r"deck\.npz: not a deck profile \(ValueError"):
        read_npz(path, "deck profile", ProfileError, what_it="profilo di mazzo")


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(ProfileError, match=r"gone\.npz: not a deck profile \(No such file"):
        read_npz(tmp_path / "gone.npz", "deck profile", ProfileError, what_it="profilo di mazzo")


def test_a_failed_write_keeps_the_file_already_there_and_leaves_no_debris(tmp_path: Path) -> None:
    path = write_npz(tmp_path / "deck.npz", {"meta": np.array("first")}, ProfileError)
    with pytest.raises(ValueError, match="cannot be written"):
        write_npz(path, {"meta": np.array("second"), "prototypes": _Unwritable()}, ProfileError)  # type: ignore[dict-item]
    assert str(read_npz(path, "deck profile", ProfileError, what_it="profilo di mazzo")["meta"]) == "first"
    assert [p.name for p in tmp_path.iterdir()] == ["deck.npz"]


@pytest.mark.parametrize("where", ["folder", "missing/deck.npz"])
def test_a_target_that_cannot_be_written_is_named(tmp_path: Path, where: str) -> None:
    (tmp_path / "folder").mkdir()
    target = tmp_path / where
    with pytest.raises(ProfileError, match=rf"{where}: cannot be written \("):
        write_npz(target, {"meta": np.array("x")}, ProfileError)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder"]
    assert list((tmp_path / "folder").iterdir()) == []
