//! Push Crate Studio: the rules engine, level packs, analysis and tools for
//! the Push Crate maze game.
//!
//! Layers, each depending only on those before it:
//! [`rules`] ← [`level`] ← [`files`] ← [`diagnostics`] ← [`analysis`] ← [`ai`] ← [`sim`]
//! ← { [`generate`], [`repair`] } ← { [`cli`], [`editor`] }.

pub mod ai;
pub mod analysis;
pub mod cli;
pub mod diagnostics;
pub mod editor;
pub mod files;
pub mod generate;
pub mod level;
pub mod repair;
pub mod rules;
pub mod sim;
