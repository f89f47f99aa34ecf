//! Integration tests: one binary, one module per area.

// Tests and their helpers fail loudly on purpose.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod ai;
mod analysis;
mod architecture;
mod cli;
mod conformance;
mod editor;
mod examples;
mod format;
mod generate;
mod hostile;
mod perft;
mod properties;
mod reference;
mod repair;
mod sequential;
mod shard;
mod support;
