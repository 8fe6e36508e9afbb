"""What the processor can do that decides how onnxruntime multiplies a quantized model's bytes.

onnxruntime multiplies a quantized model's unsigned activations by its signed 8-bit weights. An x86
processor without VNNI instructions does it with an instruction that sums the products in pairs into
16 bits, which weights using all 8 bits can overflow; there onnxruntime's session option
``session.x64quantprecision`` multiplies unsigned by unsigned bytes instead (exact and slower: one
run of the shipped model 1.39 ms against 1.19 ms the fast way on an AMD EPYC with AVX2; on a processor
with VNNI, which does not need it, nearly half the speed). On an x86 processor with VNNI the products
are summed into 32 bits, and on ARM (a Raspberry Pi) the option does nothing; on the first it still
takes the slower way, so it is asked for only where it is needed (``has_overflowing_byte_products``).
"""

from __future__ import annotations

import functools
import platform
from pathlib import Path

X86_MACHINES = frozenset({"x86_64", "amd64", "i386", "i686", "x86"})
VNNI_FLAGS = frozenset({"avx512_vnni", "avx_vnni"})  # /proc/cpuinfo's names for the two VNNI kinds
CPUINFO = Path("/proc/cpuinfo")


def parse_cpu_flags(cpuinfo: str) -> frozenset[str] | None:
    """The flags of the first processor in ``/proc/cpuinfo``'s text; None when it names none (not
    Linux on x86, or a text of another form)."""
    for line in cpuinfo.splitlines():
        key, separator, value = line.partition(":")
        if separator and key.strip() == "flags":
            return frozenset(value.split())
    return None


def read_cpu_flags(cpuinfo: Path = CPUINFO) -> frozenset[str] | None:
    """This machine's processor flags from ``cpuinfo``; None where it cannot be read."""
    try:
        return parse_cpu_flags(cpuinfo.read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return None


def has_overflowing_byte_products(machine: str, flags: frozenset[str] | None) -> bool:
    """Whether a processor of ``machine`` (``platform.machine()``) with ``flags`` (None: unknown)
    sums a quantized model's byte products in pairs into 16 bits: x86 without VNNI, or x86 whose
    flags are unknown (the exact way is then the safe one)."""
    if machine.lower() not in X86_MACHINES:
        return False
    return flags is None or not (flags & VNNI_FLAGS)


@functools.cache
def this_machine_has_overflowing_byte_products() -> bool:
    """``has_overflowing_byte_products`` for the machine this runs on (read once per process)."""
    return has_overflowing_byte_products(platform.machine(), read_cpu_flags())
