"""Which processors multiply a quantized model's bytes the exact, slower way: known answers, and the
shipped model read that way reading as it does the fast way."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import vision.classifier as classifier_module
from vision.classifier import DEFAULT_MODEL_PATH, EXACT_BYTE_PRODUCTS_OPTION, CardClassifier
from vision.cpu import has_overflowing_byte_products, parse_cpu_flags, read_cpu_flags

SKYLAKE = "processor\t: 0\nvendor_id\t: GenuineIntel\nflags\t\t: fpu sse4_1 avx2 avx512f avx512bw\n"
ICE_LAKE = "processor\t: 0\nflags\t\t: fpu avx2 avx512f avx512_vnni\nbugs\t\t: spectre_v1\n"
ALDER_LAKE = "flags\t\t: fpu avx2 avx_vnni\n"
PI = "processor\t: 0\nBogoMIPS\t: 108.00\nFeatures\t: fp asimd evtstrm crc32 cpuid\nCPU part\t: 0xd08\n"


def test_the_flags_are_the_first_processors_and_none_where_no_line_names_them() -> None:
    assert parse_cpu_flags(ICE_LAKE) == frozenset({"fpu", "avx2", "avx512f", "avx512_vnni"})
    assert parse_cpu_flags(SKYLAKE + "processor\t: 1\nflags\t\t: other\n") == parse_cpu_flags(SKYLAKE)
    assert parse_cpu_flags(PI) is None and parse_cpu_flags("") is None


@pytest.mark.parametrize(("machine", "cpuinfo", "overflows"), [
    ("x86_64", SKYLAKE, True),  # AVX-512 without VNNI sums byte products in pairs into 16 bits
    ("x86_64", ICE_LAKE, False),
    ("x86_64", ALDER_LAKE, False),
    ("AMD64", SKYLAKE, True),  # Windows' name
    ("x86_64", "", True),  # flags unknown: the exact way is the safe one
    ("aarch64", PI, False),  # a Raspberry Pi: the option does nothing there
    ("armv7l", "", False),
])
def test_only_x86_without_vnni_needs_the_exact_way(machine: str, cpuinfo: str, overflows: bool) -> None:
    assert has_overflowing_byte_products(machine, parse_cpu_flags(cpuinfo)) is overflows


def test_flags_that_cannot_be_read_are_unknown(tmp_path: Path) -> None:
    assert read_cpu_flags(tmp_path / "no-cpuinfo") is None
    (tmp_path / "cpuinfo").write_text(ALDER_LAKE)
    assert read_cpu_flags(tmp_path / "cpuinfo") == frozenset({"fpu", "avx2", "avx_vnni"})


def test_the_shipped_model_read_the_exact_way_reads_as_the_fast_way(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(5)
    crops = [rng.integers(0, 255, (150, 100, 3), dtype=np.uint8) for _ in range(4)]
    overflows_here = classifier_module.this_machine_has_overflowing_byte_products()
    monkeypatch.setattr(classifier_module, "this_machine_has_overflowing_byte_products", lambda: False)
    fast_reader = CardClassifier.load(DEFAULT_MODEL_PATH)
    monkeypatch.setattr(classifier_module, "this_machine_has_overflowing_byte_products", lambda: True)
    exact_reader = CardClassifier.load(DEFAULT_MODEL_PATH)
    exact_options = exact_reader._session.get_session_options()
    assert exact_options.get_session_config_entry(EXACT_BYTE_PRODUCTS_OPTION) == "1"
    with pytest.raises(Exception, match="does not have configuration"):
        fast_reader._session.get_session_options().get_session_config_entry(EXACT_BYTE_PRODUCTS_OPTION)
    fast, exact = fast_reader.read(crops), exact_reader.read(crops)
    if overflows_here:
        pytest.skip("x86 without VNNI: the fast way may overflow here, so the two readings may differ")
    # On ARM or x86 with VNNI both ways are exact.
    np.testing.assert_allclose(exact.probabilities, fast.probabilities, atol=1e-5)
    np.testing.assert_allclose(exact.embeddings, fast.embeddings, atol=1e-5)
