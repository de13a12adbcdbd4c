# The one place the SecantusDB version is pinned (sourced by build.sh and up.sh).
# A pre-release: cargo installs it only when asked for this exact version.
SECANTUS_VERSION="0.5.3-beta.196"
# The crate's declared minimum Rust (its rust-version); build.sh uses this toolchain via rustup.
SECANTUS_RUST="1.98.0"
