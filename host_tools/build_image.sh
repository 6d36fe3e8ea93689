#!/bin/sh
# Build MicroPython v1.28.0 with the Playboard firmware frozen in (docs/build.md,
# docs/pico.md "The frozen image"; firmware/manifest.py lists what is frozen):
#
#   host_tools/build_image.sh uf2     the RPI_PICO image: build/playboard-pico.uf2
#                                     (flashing this one file is the whole install)
#   host_tools/build_image.sh model   the simulator's model of that board: the unix port
#                                     built 32-bit, build/micropython-board (docs/simulator.md)
#
# `make uf2` and `make setup` run it; it rebuilds only what changed. MicroPython comes
# from ../shared/rp2/micropython-v1.28.0-src.tar.xz (extracted into build/micropython; no
# network needed), or from MICROPYTHON=/path/to/a v1.28.0 checkout with its submodules
# (`make -C ports/rp2 BOARD=RPI_PICO submodules`). Tools (Debian): cmake gcc-arm-none-eabi
# libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib build-essential, and gcc-multilib
# for the model. JOBS: make's -j (default 2). OUT: the output file (default as above).
# Exit status 3: no MicroPython source at all (make goes on with a warning).
#
# v1.28.0's tools/mpy-tool.py places frozen armv6m native code on 2-byte boundaries, but
# the Thumb emitter's inline literal words (ldr rX, [pc, #0]) assume 4: a frozen viper
# function then reads its constants two bytes off (Tobit's native search hangs or faults).
# The kit's copy is patched here (ARMV6M added to the 4-byte list); a checkout given by
# MICROPYTHON is patched only with PATCH_MPY_TOOL=1 (the script stops on an unpatched one).
#
# v1.28.0's shared/tinyusb/tusb_config.h defines USBD_MAX_POWER_MA (the configuration
# descriptor's bMaxPower) as 250 mA outright, so no board can set it: the same patch
# step wraps it in #ifndef, and the product board (PLAYBOARD_PICO/mpconfigboard.h)
# declares 500 mA (docs/hardware.md "Power over USB"; firmware/playboard/hw/pads.py).
set -eu
WHAT=${1:-}
case "$WHAT" in
    uf2|model) ;;
    *) sed -n '2,15p' "$0"; exit 2 ;;
esac
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$ROOT/build
JOBS=${JOBS:-2}
say() { echo "build_image: $*" >&2; }
mkdir -p "$BUILD"

if [ -n "${MICROPYTHON:-}" ]; then
    MP=$(cd "$MICROPYTHON" && pwd)
    PATCH=${PATCH_MPY_TOOL:-}
else
    MP=$BUILD/micropython
    KIT=$ROOT/../shared/rp2/micropython-v1.28.0-src.tar.xz
    if [ ! -f "$MP/KIT.md" ]; then
        if [ ! -f "$KIT" ]; then
            say "no MicroPython source: $KIT is missing (put ../shared beside the clone) or set MICROPYTHON=/path/to/a v1.28.0 checkout"
            exit 3  # (make: a warning; what needs the build skips with a message)
        fi
        say "extracting $(basename "$KIT") into build/micropython"
        rm -rf "$MP.tmp" && mkdir -p "$MP.tmp"
        tar -xJf "$KIT" -C "$MP.tmp"
        mv "$MP.tmp/micropython" "$MP" && rmdir "$MP.tmp"
    fi
    PATCH=1
fi
if ! grep -q 'MP_NATIVE_ARCH_ARMV6M,  # (playboard' "$MP/tools/mpy-tool.py"; then
    if [ "$PATCH" != 1 ]; then
        say "$MP/tools/mpy-tool.py aligns frozen armv6m native code to 2 bytes: rerun with PATCH_MPY_TOOL=1 to align it to 4 (see this script's comment)"
        exit 1
    fi
    sed -i 's/^\( *\)MP_NATIVE_ARCH_ARMV6,$/&\n\1MP_NATIVE_ARCH_ARMV6M,  # (playboard: Thumb literal words need 4)/' \
        "$MP/tools/mpy-tool.py"
    grep -q 'MP_NATIVE_ARCH_ARMV6M,  # (playboard' "$MP/tools/mpy-tool.py" || { say "could not patch $MP/tools/mpy-tool.py"; exit 1; }
    rm -f "$BUILD/rp2-RPI_PICO/frozen_content.c"
fi

# mpy-cross on its own: a FROZEN_MANIFEST on a port's command line reaches its sub-build
make -s -C "$MP/mpy-cross" -j"$JOBS" >/dev/null
python3 "$ROOT/host_tools/playboard_host/frozen_data.py" "$BUILD/frozen-data"
MANIFEST=$BUILD/manifest-$WHAT.py
# The image: the product board (host_tools/pico_board/PLAYBOARD_PICO: RPI_PICO with the
# record's journal below littlefs, its own _boot.py), whose manifest includes the firmware's
BOARD_DIR=$ROOT/host_tools/pico_board/PLAYBOARD_PICO
if [ "$WHAT" = model ]; then
    NEW="include(\"$ROOT/firmware/manifest.py\", model=True, data=\"$BUILD/frozen-data\")"
else
    NEW="include(\"$BOARD_DIR/manifest.py\", data=\"$BUILD/frozen-data\")"
fi
[ -f "$MANIFEST" ] && [ "$(cat "$MANIFEST")" = "$NEW" ] || echo "$NEW" > "$MANIFEST"

if [ "$WHAT" = uf2 ]; then
    OUT=${OUT:-$BUILD/playboard-pico.uf2}
    TCFG=$MP/shared/tinyusb/tusb_config.h
    if ! grep -q '(playboard: the board may declare its own' "$TCFG"; then
        if [ "$PATCH" != 1 ]; then
            say "$TCFG fixes bMaxPower at 250 mA: rerun with PATCH_MPY_TOOL=1 to let the board declare its own (see this script's comment)"
            exit 1
        fi
        sed -i 's/^#define USBD_MAX_POWER_MA (250)$/#ifndef USBD_MAX_POWER_MA  \/\/ (playboard: the board may declare its own)\n&\n#endif/' "$TCFG"
        grep -q '(playboard: the board may declare its own' "$TCFG" || { say "could not patch $TCFG"; exit 1; }
    fi
    command -v arm-none-eabi-gcc >/dev/null 2>&1 && command -v cmake >/dev/null 2>&1 || {
        say "the Arm toolchain or cmake is missing: apt-get install cmake gcc-arm-none-eabi libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib"
        exit 1; }
    # (in the environment: the port's Makefile adds its own CMAKE_ARGS to it; pico-sdk 2.x
    # would fetch picotool from the network to make the uf2, tools/uf2conv.py makes it)
    CMAKE_ARGS="${CMAKE_ARGS:-} -DPICO_NO_PICOTOOL=1" make -s -C "$MP/ports/rp2" BOARD_DIR="$BOARD_DIR" \
        BUILD="$BUILD/rp2-RPI_PICO" FROZEN_MANIFEST="$MANIFEST" -j"$JOBS" >"$BUILD/rp2.log" 2>&1 || {
        tail -30 "$BUILD/rp2.log" >&2; say "the RPI_PICO build failed (whole log: build/rp2.log)"; exit 1; }
    # the image must end below the record's journal (flashmap.py: JOURNAL_BYTES below 0xA0000)
    SIZE=$(wc -c <"$BUILD/rp2-RPI_PICO/firmware.bin")
    LIMIT=$(python3 -c "import re;t=open('$BOARD_DIR/flashmap.py').read();print(0xA0000-eval(re.search(r'JOURNAL_BYTES = (.*)',t).group(1)))")
    if [ "$SIZE" -gt "$LIMIT" ]; then
        say "the image is $SIZE bytes: it would overlap the record's journal at $LIMIT (host_tools/pico_board/PLAYBOARD_PICO/flashmap.py)"
        exit 1
    fi
    python3 "$MP/tools/uf2conv.py" -c -b 0x10000000 -f 0xe48bff56 -o "$OUT.tmp" \
        "$BUILD/rp2-RPI_PICO/firmware.bin" >/dev/null
    mv "$OUT.tmp" "$OUT"
    say "$OUT"
else
    OUT=${OUT:-$BUILD/micropython-board}
    if ! echo 'int main(void){return 0;}' | gcc -m32 -x c - -o "$BUILD/.m32-check" 2>/dev/null; then
        say "gcc cannot build 32-bit programs here: apt-get install gcc-multilib (the simulator's model is the unix port built 32-bit)"
        exit 1
    fi
    rm -f "$BUILD/.m32-check"
    # The chip's addresses (SRAM 0x2000xxxx, flash 0x100xxxxx) are below 2**30, so a viper
    # function's pointer passed to another as an int is a small int there; the unix
    # port's heap, malloc'd (mmap'd at 0xf7xxxxxx in 32 bits), would make it a long int
    # that allocates (Toguz's sowing allocated on the model, not on the chip). The model
    # takes its heap from a static area instead, in a binary linked at 0x08048000
    # (-no-pie): below 2**30 as on the chip.
    MAIN_C=$MP/ports/unix/main.c
    if ! grep -q '(playboard: heap below 2\*\*30' "$MAIN_C"; then
        if [ "$PATCH" != 1 ]; then
            say "$MAIN_C takes the heap from malloc: rerun with PATCH_MPY_TOOL=1 to patch it as the kit's (see this script)"
            exit 1
        fi
        sed -i 's/^\( *\)char \*heap = malloc(heap_size);$/\1static char heap_area[1024 * 1024];  \/\/ (playboard: heap below 2**30, as the chip'"'"'s)\n\1char *heap = heap_size <= (long)sizeof(heap_area) ? heap_area : malloc(heap_size);/' "$MAIN_C"
        grep -q '(playboard: heap below 2\*\*30' "$MAIN_C" || { say "could not patch $MAIN_C"; exit 1; }
    fi
    make -s -C "$MP/ports/unix" MICROPY_FORCE_32BIT=1 MICROPY_PY_FFI=0 MICROPY_PY_BTREE=0 \
        MICROPY_SSL_MBEDTLS=0 MICROPY_PY_SSL=0 MPY_CROSS_FLAGS=-march=x86 \
        CFLAGS_EXTRA=-fno-pie LDFLAGS_EXTRA=-no-pie \
        BUILD="$BUILD/unix-model" \
        FROZEN_MANIFEST="$MANIFEST" -j"$JOBS" >"$BUILD/unix-model.log" 2>&1 || {
        tail -30 "$BUILD/unix-model.log" >&2; say "the model's build failed (whole log: build/unix-model.log)"; exit 1; }
    cp "$BUILD/unix-model/micropython" "$OUT.tmp"
    mv "$OUT.tmp" "$OUT"
    say "$OUT"
fi
