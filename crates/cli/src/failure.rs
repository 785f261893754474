//! How a run that failed is told: its message and its exit code.

/// The error and its causes joined by ": ", leaving out a cause whose text the message
/// already ends with (the library errors name their cause in their own text).
pub fn message(e: &anyhow::Error) -> String {
    let mut out = String::new();
    for cause in e.chain() {
        // (the system's "Is a directory (os error 21)" named no fix)
        let folder = cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::IsADirectory);
        let mut text = cause.to_string();
        if folder {
            // (a library error may have said the system's words already)
            if let Some(said) = out.strip_suffix(&text) {
                out = said.trim_end_matches([':', ' ']).to_string();
            }
            text = if out.contains("standard input") {
                "it is a folder: redirect a file, not a folder".to_string()
            } else {
                "it is a folder, not a file: name a file".to_string()
            };
        }
        if out.is_empty() {
            out = text;
        } else if !out.ends_with(&text) {
            out = format!("{out}: {text}");
        }
    }
    out
}

/// The exit code of a run that ended in error `e`: 3 when a search ran out of the
/// verifier's budget (a budget, as `complete` and `dsat` say theirs, not bad input), 2
/// otherwise.
pub fn error_exit(e: &anyhow::Error) -> u8 {
    // (the verifier's own budget verdict, and its code, as `verify` exits on it)
    let budget =
        e.chain().find_map(
            |cause| match cause.downcast_ref::<c4lab_synth::SynthError>() {
                Some(&c4lab_synth::SynthError::VerifierBudget { positions }) => {
                    Some(c4lab_steady::Verdict::Budget { positions })
                }
                _ => None,
            },
        );
    budget.map_or(2, |verdict| crate::verify::exit_code(&verdict))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_search_past_the_verifiers_budget_exits_as_a_budget() {
        // (it exited 2, which `complete` and `dsat` keep for bad input)
        let budget = anyhow::Error::new(c4lab_synth::SynthError::VerifierBudget { positions: 7 })
            .context("root.txt: cannot search completions of this diagram");
        assert_eq!(error_exit(&budget), 3);
        let bad = anyhow::Error::new(c4lab_synth::SynthError::Root("Yellow to move".into()))
            .context("root.txt");
        assert_eq!(error_exit(&bad), 2);
        assert_eq!(error_exit(&anyhow::anyhow!("cannot read root.txt")), 2);
    }
}
