//! The Lab's engine: the board, the steady-state language, the strong solver and the
//! model hint exported to JavaScript.
//!
//! Every function takes strings (and numeric budgets; `model_load` takes the model
//! file's bytes) and returns one JSON object as a string, with
//! `"ok": false` and an `"error"` message for bad input; nothing here panics on input.
//! Grids are six rows of seven level-language characters, top row first (newlines
//! optional).

mod api;
mod model;

pub use api::*;
pub use model::*;
