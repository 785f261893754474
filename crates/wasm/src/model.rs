//! The GF(2^8) model as the Lab's hint: load a model exported by `c4lab train`, then
//! ask its move for any position. Inference is integer table lookups, so it runs on
//! the page's thread in microseconds.

use std::cell::RefCell;

use c4lab_board::Position;
use c4lab_model::Model;
use serde_json::json;
use wasm_bindgen::prelude::*;

use crate::api::fail;

thread_local! {
    static MODEL: RefCell<Option<Model>> = const { RefCell::new(None) };
}

/// Loads a model from the bytes of a `c4lab train` output (replacing any loaded one):
/// `{ok, bytes}`, or `{ok: false, error}` naming what is wrong with the file.
#[wasm_bindgen]
pub fn model_load(bytes: &[u8]) -> String {
    match Model::from_bytes(bytes) {
        Ok(m) => {
            MODEL.with(|cell| *cell.borrow_mut() = Some(m));
            json!({"ok": true, "bytes": bytes.len()}).to_string()
        }
        // the error says "not a c4lab model" itself
        Err(e) => fail(e),
    }
}

/// The size of the largest file `c4lab train` can write, in bytes: a bigger file is no
/// model, and the page refuses it before reading it into memory.
#[wasm_bindgen]
pub fn model_max_bytes() -> f64 {
    Model::max_file_bytes() as f64
}

/// The loaded model's move for the position after `moves` (columns 1-7 from the empty
/// board): `{ok, column, scores}` as `c4lab hint --json` prints them (`column` 1-7,
/// `scores` the network's per column, null for a full column).
#[wasm_bindgen]
pub fn model_move(moves: &str) -> String {
    let p = match Position::from_moves(moves) {
        Ok(p) => p,
        Err(e) => return fail(e),
    };
    if p.winner().is_some() || p.is_full() {
        return fail("the game is already over");
    }
    MODEL.with(|cell| match cell.borrow().as_ref() {
        None => fail("no model is loaded"),
        Some(m) => {
            let mut hint = m.hint(&p).to_json();
            hint["ok"] = true.into();
            hint.to_string()
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use c4lab_model::Network;
    use serde_json::Value;

    fn parse(s: String) -> Value {
        serde_json::from_str(&s).unwrap()
    }

    #[test]
    fn load_then_ask_and_refuse_bad_input() {
        let none = parse(model_move("4453"));
        assert_eq!(none["ok"], false);
        assert_eq!(none["error"], "no model is loaded");
        let junk = parse(model_load(b"junk"));
        assert_eq!(junk["ok"], false);
        assert!(junk["error"]
            .as_str()
            .unwrap()
            .starts_with("not a c4lab model"));
        // an untrained model: all scores zero, so the tactical checks decide
        let bytes = Network::new().quantize().0.to_bytes();
        assert_eq!(parse(model_load(&bytes))["bytes"], bytes.len());
        let win = parse(model_move("112233"));
        assert_eq!(
            (win["ok"].clone(), win["column"].clone()),
            (true.into(), 4.into())
        );
        assert_eq!(win["scores"].as_array().unwrap().len(), 7);
        assert_eq!(parse(model_move("4444444"))["ok"], false);
        assert_eq!(
            parse(model_move("1122334"))["error"],
            "the game is already over"
        );
        // a full column is marked, not scored
        let full = parse(model_move("444444"));
        assert!(full["scores"][3].is_null());
        assert_ne!(full["column"], 4);
    }
}
