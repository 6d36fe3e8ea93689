#!/bin/sh
# Build a MicroPython RPI_PICO image with the Playboard firmware frozen in (README,
# "Frozen build"; docs/pico.md, "A frozen image"):
#
#   host_tools/build_frozen.sh MICROPYTHON_DIR [OUT.uf2]
#
# MICROPYTHON_DIR: a micropython checkout (tested: tag v1.28.0) whose submodules
# lib/pico-sdk, lib/tinyusb, lib/mbedtls and lib/micropython-lib are checked out at
# the commits it names (`make -C ports/rp2 BOARD=RPI_PICO submodules` fetches them);
# the Arm toolchain (Debian: gcc-arm-none-eabi libnewlib-arm-none-eabi
# libstdc++-arm-none-eabi-newlib) and cmake. The pico-sdk builds picotool from git at
# configure time: without github.com, set PICOTOOL_REPO to a local clone of
# raspberrypi/picotool (tag 2.2.0 for pico-sdk 2.2.0). JOBS: make's -j (default 2).
# The build directory is ports/rp2/build-RPI_PICO-playboard (not the stock one's).
# OUT (default build/firmware-frozen.uf2). CI does not run this: nothing depends on it.
#
# MicroPython's tools/mpy-tool.py (v1.28.0) places frozen armv6m native code on 2-byte
# boundaries, but the Thumb emitter's inline literal words (ldr rX, [pc, #0]) assume
# the code starts on 4: a frozen viper function then reads constants two bytes off
# (Tobit's native search faulted on an unaligned load on the emulated RP2040; docs/
# pico.md, "A frozen image"). PATCH_MPY_TOOL=1 adds ARMV6M to its 4-byte list in
# MICROPYTHON_DIR; without it the script stops on an unpatched tree.
set -eu
if [ $# -lt 1 ]; then
    sed -n '2,16p' "$0"
    exit 2
fi
MP=$(cd "$1" && pwd)
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${2:-$ROOT/build/firmware-frozen.uf2}
for f in lib/pico-sdk/pico_sdk_init.cmake lib/tinyusb/src/tusb.h lib/mbedtls/include/mbedtls/version.h \
         lib/micropython-lib/README.md; do
    if [ ! -e "$MP/$f" ]; then
        echo "build_frozen: $MP/$f missing: check out the submodules (make -C ports/rp2 BOARD=RPI_PICO submodules)" >&2
        exit 1
    fi
done
if ! grep -q 'MP_NATIVE_ARCH_ARMV6M,  # (playboard' "$MP/tools/mpy-tool.py"; then
    if [ "${PATCH_MPY_TOOL:-}" != 1 ]; then
        echo "build_frozen: $MP/tools/mpy-tool.py aligns frozen armv6m native code to 2 bytes:" \
             "rerun with PATCH_MPY_TOOL=1 to align it to 4 (see the comment at the top)" >&2
        exit 1
    fi
    sed -i 's/^\( *\)MP_NATIVE_ARCH_ARMV6,$/&\n\1MP_NATIVE_ARCH_ARMV6M,  # (playboard: Thumb literal words need 4)/' \
        "$MP/tools/mpy-tool.py"
    grep -q 'MP_NATIVE_ARCH_ARMV6M,  # (playboard' "$MP/tools/mpy-tool.py" || {
        echo "build_frozen: could not patch $MP/tools/mpy-tool.py" >&2; exit 1; }
    rm -f "$MP/ports/rp2/build-RPI_PICO-playboard/frozen_content.c"
fi
if [ -n "${PICOTOOL_REPO:-}" ]; then
    # (in the environment: the port's Makefile adds its own CMAKE_ARGS to it)
    CMAKE_ARGS="${CMAKE_ARGS:-} -DPICOTOOL_GIT_REPOSITORY_URL=$PICOTOOL_REPO"
    export CMAKE_ARGS
fi
make -C "$MP/mpy-cross" -j"${JOBS:-2}"
make -C "$MP/ports/rp2" BOARD=RPI_PICO BUILD=build-RPI_PICO-playboard \
    FROZEN_MANIFEST="$ROOT/firmware/manifest.py" -j"${JOBS:-2}"
mkdir -p "$(dirname "$OUT")"
cp "$MP/ports/rp2/build-RPI_PICO-playboard/firmware.uf2" "$OUT"
echo "build_frozen: $OUT"
