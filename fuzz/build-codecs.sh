#!/usr/bin/env bash
# Builds libpng and libjpeg-turbo from source with libFuzzer coverage and AddressSanitizer,
# as static libraries, so the decoder fuzzer sees coverage inside the codecs too (the
# system libraries are not instrumented: coverage feedback would stop at the C shim).
#
#   fuzz/build-codecs.sh SOURCES OUT
#
# SOURCES holds `libpng/` at tag v1.6.39 and `libjpeg-turbo/` at tag 2.1.5, the versions
# Debian 12 ships, whose configuration headers (pnglibconf.h, jconfig.h) are taken from
# the system so the shim's view of the structures matches exactly. For example:
#   git clone --depth 1 --branch v1.6.39 https://github.com/pnggroup/libpng SOURCES/libpng
#   git clone --depth 1 --branch 2.1.5 https://github.com/libjpeg-turbo/libjpeg-turbo SOURCES/libjpeg-turbo
# OUT receives libpng16.a and libjpeg.a. Used by scripts/fuzz.sh when
# GLIMPSE_FUZZ_CODEC_SOURCES=SOURCES is set. No SIMD (portable C paths only).
set -euo pipefail
sources=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
flags=(-O1 -g -fsanitize=fuzzer-no-link,address -fno-omit-frame-pointer -w)
cc=${CC:-clang}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# libpng: Debian's pnglibconf.h; no architecture-specific filter code.
mkdir -p "$work/png"
cp /usr/include/libpng16/pnglibconf.h "$work/png/"
compile() { # compile SOURCE_FILE OBJECT_FOLDER INCLUDE_FOLDERS...
  local source=$1 objects=$2; shift 2
  local includes=(); for folder in "$@"; do includes+=(-I "$folder"); done
  "$cc" "${flags[@]}" -DPNG_INTEL_SSE_OPT=0 -DPNG_ARM_NEON_OPT=0 -DPNG_MIPS_MSA_OPT=0 -DPNG_POWERPC_VSX_OPT=0 \
    "${includes[@]}" -c "$source" -o "$objects/$(basename "${source%.c}").o"
}
for f in png pngerror pngget pngmem pngpread pngread pngrio pngrtran pngrutil pngset pngtrans pngwio pngwrite pngwtran pngwutil; do
  compile "$sources/libpng/$f.c" "$work/png" "$work/png" "$sources/libpng"
done
rm -f "$out/libpng16.a"
ar rcs "$out/libpng16.a" "$work"/png/*.o

# libjpeg-turbo: Debian's jconfig.h, a jconfigint.h for this compiler, no SIMD.
mkdir -p "$work/jpeg"
cp /usr/include/x86_64-linux-gnu/jconfig.h "$work/jpeg/"
cat > "$work/jpeg/jconfigint.h" <<'EOF'
#define BUILD "fuzz"
#undef inline
#define INLINE __inline__ __attribute__((always_inline))
#define THREAD_LOCAL __thread
#define PACKAGE_NAME "libjpeg-turbo"
#define VERSION "2.1.5"
#define SIZEOF_SIZE_T 8
#define HAVE_BUILTIN_CTZL
#define FALLTHROUGH __attribute__((fallthrough));
EOF
sed 's/@COPYRIGHT_YEAR@/2022/g' "$sources/libjpeg-turbo/jversion.h.in" > "$work/jpeg/jversion.h"
jpeg_sources=(jcapimin jcapistd jccoefct jccolor jcdctmgr jchuff jcicc jcinit jcmainct jcmarker jcmaster jcomapi
  jcparam jcphuff jcprepct jcsample jctrans jdapimin jdapistd jdatadst jdatasrc jdcoefct jdcolor jddctmgr jdhuff
  jdicc jdinput jdmainct jdmarker jdmaster jdmerge jdphuff jdpostct jdsample jdtrans jerror jfdctflt jfdctfst
  jfdctint jidctflt jidctfst jidctint jidctred jquant1 jquant2 jutils jmemmgr jmemnobs jaricom jcarith jdarith)
for f in "${jpeg_sources[@]}" jsimd_none; do
  compile "$sources/libjpeg-turbo/$f.c" "$work/jpeg" "$work/jpeg" "$sources/libjpeg-turbo"
done
rm -f "$out/libjpeg.a"
ar rcs "$out/libjpeg.a" "$work"/jpeg/*.o
echo "build-codecs.sh: $out/libpng16.a $out/libjpeg.a" >&2
