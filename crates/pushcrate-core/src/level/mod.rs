//! Levels and level packs as a designer edits them: they may be invalid.
//!
//! A [`Level`] is checked with [`Pack::problems`], which lists every problem
//! at once; a valid level becomes a [`Setup`](crate::rules::Setup) and then a
//! [`GameState`](crate::rules::GameState).
//!
//! *Architecture Invariant*: this module does no I/O. It turns text into
//! packs and packs into text; reading and writing files is for the edges.

pub mod edit;
mod expect;
pub mod format;
mod json;
mod pack;
mod playable;
pub mod preserve;
mod problem;
pub mod record;
pub mod render;
pub mod shard;
mod validate;

pub use expect::{Expectation, ParseExpectationError};
pub use json::{ToJsonError, parse_pack_json, toml_to_json, write_pack_json};
pub use pack::{
    DEFAULT_PACK_TOML, FLAWED_PACK_TOML, FORMAT_VERSION, Level, MAX_FILE_BYTES, MAX_LEVELS,
    OLDEST_FORMAT_VERSION, Pack,
};
pub use playable::Playable;
pub use problem::{Code, Field, Problem, Severity};
pub use validate::MAX_NAME_LEN;
