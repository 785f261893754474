//! The Lab's engine: the board and the steady-state language exported to JavaScript.
//!
//! Every function takes plain strings and returns one JSON object as a string, with
//! `"ok": false` and an `"error"` message for bad input; nothing here panics on input.
//! Grids are six rows of seven level-language characters, top row first (newlines
//! optional).

mod api;
mod model;

pub use api::*;
pub use model::*;
