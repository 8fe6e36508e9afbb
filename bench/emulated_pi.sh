#!/usr/bin/env bash
# Runs a Python script of this checkout on an emulated Raspberry Pi: Debian bookworm's aarch64 Python
# 3.11 (what Raspberry Pi OS bookworm has) with the aarch64 wheels of the versions in .venv, under
# qemu-user, the processor a Pi 4's Cortex-A72 (no dot-product instructions) or a Pi 5's Cortex-A76.
# It checks what a Pi computes (onnxruntime's ARM kernels), not how fast: emulation is about 40 times
# slower.
#
#   sudo bench/emulated_pi.sh [--cpu cortex-a72|cortex-a76] SCRIPT.py ARGS...
#   sudo bench/emulated_pi.sh -m vision.training.evaluate --model models/cards.onnx ...
#
# Needs root on Debian bookworm x86-64 (its apt has python3.11 for arm64): it installs qemu-user-static,
# adds the arm64 architecture to dpkg for as long as it downloads (not installs) the Python packages,
# and runs in a private mount namespace where /proc/cpuinfo is a Pi's (onnxruntime's cpuinfo cannot
# read an x86 one as ARM and crashes on import).
# Python runs in one process there: a worker process would start the aarch64 python3.11 itself, which
# this kernel cannot run without qemu registered with binfmt_misc (give commands --threads 1).
# Everything else lives in $EMULATED_PI_DIR (default /tmp/emulated-pi); a second run reuses it (delete
# the folder to set it up again).
set -euo pipefail
cd "$(dirname "$0")/.."

cpu=cortex-a72
if [ "${1:-}" = "--cpu" ]; then
    cpu=$2
    shift 2
fi
case "$cpu" in
    cortex-a72) part=0xd08; variant=0x0; features="fp asimd evtstrm crc32 cpuid" ;;
    cortex-a76) part=0xd0b; variant=0x4
                features="fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm lrcpc dcpop asimddp" ;;
    *) echo "emulated_pi: --cpu must be cortex-a72 (Pi 4) or cortex-a76 (Pi 5), got $cpu" >&2; exit 2 ;;
esac
if [ $# -eq 0 ]; then
    echo "usage: sudo bench/emulated_pi.sh [--cpu cortex-a72|cortex-a76] SCRIPT.py ARGS... | -m MODULE ARGS..." >&2
    exit 2
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "emulated_pi: run it as root (apt, and a private mount for /proc/cpuinfo)" >&2
    exit 1
fi
if [ ! -x .venv/bin/python ]; then
    echo "emulated_pi: no .venv here; run 'bash setup.sh' first (its versions are the ones emulated)" >&2
    exit 1
fi

home=${EMULATED_PI_DIR:-/tmp/emulated-pi}
sysroot=$home/sysroot
site=$home/site
mkdir -p "$home"
exec 9>"$home/.setting-up"
flock 9  # two runs started together set up once

command -v qemu-aarch64-static >/dev/null || apt-get install -y -q qemu-user-static >/dev/null

if [ ! -x "$sysroot/usr/bin/python3.11" ]; then
    added_arm64=no
    if ! dpkg --print-foreign-architectures | grep -qx arm64; then
        dpkg --add-architecture arm64
        added_arm64=yes
    fi
    apt-get update -q >/dev/null
    mkdir -p "$home/debs" "$sysroot"
    packages=(python3.11-minimal libpython3.11-minimal libpython3.11-stdlib libc6 zlib1g libexpat1 libffi8
              libssl3 libgcc-s1 libstdc++6 libbz2-1.0 liblzma5 libsqlite3-0 libuuid1 libncursesw6 libtinfo6
              libreadline8 libcrypt1 libnsl2 libtirpc3 libgssapi-krb5-2 libkrb5-3 libk5crypto3 libcom-err2
              libkrb5support0 libkeyutils1 libdb5.3 libgdbm6)
    (cd "$home/debs" && apt-get download "${packages[@]/%/:arm64}" >/dev/null)
    if [ "$added_arm64" = yes ]; then  # leave the host's apt as it was: nothing arm64 was installed
        dpkg --remove-architecture arm64
        apt-get update -q >/dev/null
    fi
    for deb in "$home"/debs/*.deb; do dpkg -x "$deb" "$sysroot"; done
fi

if [ ! -d "$site/onnxruntime" ]; then
    mapfile -t pins < <(.venv/bin/python -c "import importlib.metadata as m
for p in ('numpy', 'onnxruntime', 'opencv-python-headless', 'scipy'): print(f'{p}=={m.version(p)}')")
    .venv/bin/python -m pip install -q --target "$site" --only-binary=:all: --implementation cp \
        --python-version 3.11 --platform manylinux_2_28_aarch64 --platform manylinux_2_17_aarch64 \
        --platform manylinux2014_aarch64 "${pins[@]}"
fi

flock -u 9
exec 9>&-

cpuinfo=$home/cpuinfo-$cpu
for n in 0 1 2 3; do
    printf 'processor\t: %s\nBogoMIPS\t: 108.00\nFeatures\t: %s\nCPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: %s\nCPU part\t: %s\nCPU revision\t: 1\n\n' \
        "$n" "$features" "$variant" "$part"
done > "$cpuinfo.$$"
mv -f "$cpuinfo.$$" "$cpuinfo"  # a new file: a run already going keeps the one it mounted

export PYTHONPATH="$site:$PWD"
# shellcheck disable=SC2016  # $0 and $@ belong to the inner shell: the file to mount, the command
exec unshare --mount sh -c 'mount --bind "$0" /proc/cpuinfo && exec "$@"' "$cpuinfo" \
    qemu-aarch64-static -cpu "$cpu" -L "$sysroot" "$sysroot/usr/bin/python3.11" "$@"
