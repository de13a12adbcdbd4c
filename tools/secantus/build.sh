#!/usr/bin/env bash
# Build SecantusDB's server binary (crate secantus-mdb, binary secantusd-rs: the MongoDB wire
# protocol over WiredTiger) once per version into a cache folder shared by every clone on the
# machine, and reuse it after that. The first build compiles WiredTiger from bundled source
# (needs cargo, CMake and a C compiler) and takes about 15 minutes on 2 cores.
#
# Usage:  tools/secantus/build.sh      # last stdout line: the binary's absolute path
#
# Env: KICKSTAND_CACHE_DIR (default ${XDG_CACHE_HOME:-$HOME/.cache}/kickstand).
# The binary lands in $KICKSTAND_CACHE_DIR/secantus-mdb-<version>/bin/secantusd-rs.
# Everything except the final path line goes to stderr.
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=tools/secantus/version.sh
source "$SCRIPT_DIR/version.sh"

CACHE_ROOT="${KICKSTAND_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/kickstand}"
PREFIX="$CACHE_ROOT/secantus-mdb-$SECANTUS_VERSION"
BIN="$PREFIX/bin/secantusd-rs"

log() { echo "secantus/build: $*" >&2; }
die() { log "ERROR: $*"; exit 1; }

if [[ -x "$BIN" ]]; then
  log "reusing $BIN"
  echo "$BIN"
  exit 0
fi

command -v cargo >/dev/null 2>&1 || die "'cargo' not found on PATH (install Rust with rustup)"
command -v cmake >/dev/null 2>&1 || die "'cmake' not found on PATH (WiredTiger is built with CMake)"
command -v cc >/dev/null 2>&1 || die "no C compiler ('cc') on PATH (WiredTiger is C)"

# The crate declares rust-version $SECANTUS_RUST; an older default toolchain refuses to
# install it. With rustup, that exact toolchain is installed (minimal profile) and used.
toolchain=()
if command -v rustup >/dev/null 2>&1; then
  if ! rustup run "$SECANTUS_RUST" rustc --version >/dev/null 2>&1; then
    log "installing Rust $SECANTUS_RUST with rustup (minimal profile) ..."
    rustup toolchain install "$SECANTUS_RUST" --profile minimal >&2 || die "rustup could not install Rust $SECANTUS_RUST"
  fi
  toolchain=("+$SECANTUS_RUST")
fi

# Serialize concurrent builds (two clones starting at once): the second waits, then reuses.
mkdir -p "$CACHE_ROOT"
if command -v flock >/dev/null 2>&1; then
  exec 8>"$CACHE_ROOT/secantus-mdb-$SECANTUS_VERSION.lock"
  flock -w 3600 8 || die "timed out waiting for another build ($CACHE_ROOT/secantus-mdb-$SECANTUS_VERSION.lock)"
  if [[ -x "$BIN" ]]; then
    log "reusing $BIN (built by another run meanwhile)"
    echo "$BIN"
    exit 0
  fi
fi

log "building secantus-mdb $SECANTUS_VERSION into $PREFIX (compiles WiredTiger; about 15 minutes on 2 cores) ..."
start=$SECONDS
# Installed into a temporary root and moved into place at the end, so an interrupted build
# never leaves a half-filled folder that looks reusable.
tmp="$PREFIX.partial"
rm -rf "$tmp"
cargo "${toolchain[@]}" install secantus-mdb --version "$SECANTUS_VERSION" --locked \
  --root "$tmp" >&2 || die "cargo install secantus-mdb $SECANTUS_VERSION failed"
rm -rf "$PREFIX"
mv "$tmp" "$PREFIX"
[[ -x "$BIN" ]] || die "the build produced no $BIN"
log "built in $((SECONDS - start)) s: $BIN"
echo "$BIN"
