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
