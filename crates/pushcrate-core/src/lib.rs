//! Push Crate's engine, for a game client as for the tools: the rules, the
//! level format and its reader, the analysis that proves what a layout
//! allows, the agents, the balance check, the level generator and repair.
//!
//! This crate names no GUI, command-line or terminal crate and touches no
//! process state (standard streams, signals, priorities): the `pushcrate`
//! package builds its command line and its editor on it.
//!
//! # A game client in a few lines
//!
//! Read a pack, set up a level's start and let two agents play it:
//!
//! ```
//! use pushcrate_core::ai::Agent;
//! use pushcrate_core::level::format::parse_pack;
//! use pushcrate_core::level::DEFAULT_PACK_TOML;
//!
//! // A pack is TOML (docs/format.md); every problem is listed with its place.
//! let parsed = parse_pack(DEFAULT_PACK_TOML);
//! assert!(parsed.problems.is_empty(), "{:?}", parsed.problems);
//! let pack = parsed.pack.expect("the bundled pack reads");
//! let level = &pack.levels[0];
//! // A level checked once under the pack's rules: its start, or every problem.
//! let playable = level.playable(pack.rules).expect("a valid level is playable");
//! let mut state = *playable.start();
//!
//! // Agents by name, as the command line spells them: easy, medium, hard…
//! let mut players = ["easy".parse::<Agent>()?.build(1), "medium".parse::<Agent>()?.build(2)];
//! while !state.is_over() && state.actions_played() < 200 {
//!     let action = players[state.turn().index()].choose(&state);
//!     state.play(action)?; // legal moves only: an illegal one is an error
//! }
//! println!("{}: {:?} after {} actions", level.id, state.outcome(), state.actions_played());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! `examples/client.rs` is the same client reading a pack file.
//!
//! # Layers
//!
//! [`rules`] ← [`level`] ← [`analysis`] ← [`ai`] ← [`sim`] ← { [`generate`],
//! [`repair`] } ← [`tune`]. docs/ARCHITECTURE.md has the table of what each
//! module may import, which `tests/architecture.rs` enforces.

pub mod ai;
pub mod analysis;
pub mod generate;
pub mod level;
pub mod repair;
pub mod rules;
pub mod sim;
pub mod tune;
