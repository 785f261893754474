//! A corpus generated for one test, and the model commands run on it.

use super::{c4lab, PathBuf};
use std::process::Output;

/// The training settings a checkpoint records, which a resume must repeat.
pub const TRAIN_SETTINGS: [&str; 14] = [
    "--soft-w",
    "1.0",
    "--batch",
    "16",
    "--lr",
    "0.5",
    "--seed",
    "32",
    "--hard-start",
    "0",
    "--hard-ramp",
    "500",
    "--hard-w",
    "0.5",
];

/// `c4lab corpus generate --games 300 --holdout 60 --seed 3` in a folder of the test's
/// own (removed when this is dropped), with the paths of what it wrote.
pub struct Generated {
    dir: PathBuf,
    /// The folder, as an argument.
    pub d: String,
    /// The training corpus and its sidecar.
    pub corpus: String,
    pub targets: String,
    /// The holdout corpus and its sidecar.
    pub hold: String,
    pub hold_t: String,
    /// What `generate` said on standard error.
    pub said: String,
}

impl Generated {
    /// Generates the corpus into a fresh folder named after `tag` and this process.
    pub fn new(tag: &str) -> Generated {
        let dir = std::env::temp_dir().join(format!("c4lab-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let d = dir.to_str().unwrap().to_string();
        let args = ["corpus", "generate", "--games", "300", "--holdout", "60"];
        let out = c4lab(&[&args[..], &["--seed", "3", "--out", &d]].concat(), "");
        super::assert_exit(&out, 0);
        Generated {
            corpus: format!("{d}/train/corpus_300.txt"),
            targets: format!("{d}/train/perply_targets.npz"),
            hold: format!("{d}/holdout/corpus.txt"),
            hold_t: format!("{d}/holdout/perply_targets.npz"),
            said: String::from_utf8_lossy(&out.stderr).into_owned(),
            d,
            dir,
        }
    }

    /// The corpus files' paths: training corpus and sidecar, holdout corpus and sidecar.
    pub fn paths(&self) -> (String, String, String, String) {
        let Generated {
            corpus,
            targets,
            hold,
            hold_t,
            ..
        } = self;
        (
            corpus.clone(),
            targets.clone(),
            hold.clone(),
            hold_t.clone(),
        )
    }

    /// `c4lab train` on the corpus, scored on the holdout, 2000 steps of `TRAIN_SETTINGS`
    /// with the context `ctx`, into `out`. A flag of `extra` already given takes the
    /// value after it there (but `--load-corpus` and `--perply-targets` are added:
    /// a corpus may be given again); any other is added.
    pub fn train_to(&self, out: &str, ctx: &str, extra: &[&str]) -> Output {
        let mut args = vec![
            "train",
            "--load-corpus",
            &self.corpus,
            "--perply-targets",
            &self.targets,
            "--holdout-corpus",
            &self.hold,
            "--holdout-targets",
            &self.hold_t,
            "--transcript",
            "v2",
            "--move-loss",
            "7way",
            "--steps",
            "2000",
            "--ctx",
            ctx,
            "--corpus-source",
            "teacher",
            "--out",
            out,
        ];
        args.extend(TRAIN_SETTINGS);
        let mut i = 0;
        while i < extra.len() {
            let added = ["--load-corpus", "--perply-targets"].contains(&extra[i]);
            match args.iter().position(|a| *a == extra[i]) {
                Some(at) if !added && i + 1 < extra.len() && !extra[i + 1].starts_with("--") => {
                    args[at + 1] = extra[i + 1];
                    i += 2;
                }
                _ => {
                    args.push(extra[i]);
                    i += 1;
                }
            }
        }
        c4lab(&args, "")
    }

    /// A model trained as [`Generated::train_to`] with no extra flags, at `m.c4m` in the
    /// folder, and the path to it.
    pub fn model(&self) -> String {
        let model = format!("{}/m.c4m", self.d);
        super::assert_exit(&self.train_to(&model, "192", &[]), 0);
        model
    }

    /// `c4lab eval` of `model` on the holdout and its sidecar, with `extra`.
    pub fn eval_of(&self, model: &str, extra: &[&str]) -> Output {
        let args = ["eval", "--model", model, "--holdout-corpus", &self.hold];
        c4lab(
            &[&args[..], &["--holdout-targets", &self.hold_t], extra].concat(),
            "",
        )
    }
}

impl Drop for Generated {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
