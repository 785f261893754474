//! Inputs past what any real one holds, and work that must stop when told: refused or
//! ended with a message, never read or walked until memory runs out.

mod common;
use common::*;

use std::time::{Duration, Instant};

/// A fresh folder under the system's temporary folder, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("c4lab-limits-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    /// A sparse file of `bytes` zero bytes (no disk is used for them).
    fn sparse(&self, name: &str, bytes: u64) -> String {
        let path = self.0.join(name);
        std::fs::File::create(&path)
            .unwrap()
            .set_len(bytes)
            .unwrap();
        path.to_str().unwrap().to_string()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A grid of the empty board, every cell `?`.
const ALL_UNDECIDED: &str = "???????\n???????\n???????\n???????\n???????\n???????\n";

#[test]
fn files_larger_than_any_book_checkpoint_or_data_file_are_refused_unread() {
    let dir = Scratch::new("files");
    let book = dir.sparse("book.bin", 65 << 20);
    let out = c4lab(&["solve", "--book", &book, "--table-mb", "16"], "4453\n");
    assert_exit(&out, 2);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("not a c4lab book: larger than any book (67108864 bytes at most)"),
        "{said}"
    );
    // a checkpoint's magic, then a gigabyte of zeros
    let ckpt = dir.sparse("run.ckpt", 1 << 30);
    {
        use std::io::Write;
        let mut f = std::fs::OpenOptions::new().write(true).open(&ckpt).unwrap();
        f.write_all(b"C4GFCKPT").unwrap();
    }
    // (the corpus is read after the checkpoint: these need not exist)
    let out = c4lab(
        &[
            "train",
            "--resume",
            "--checkpoint",
            &ckpt,
            "--load-corpus",
            "no-such-corpus.txt",
            "--perply-targets",
            "no-such-targets.npz",
        ],
        "",
    );
    assert_exit(&out, 2);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("not a c4lab checkpoint: larger than any checkpoint"),
        "{said}"
    );
    // a benchmark's data file past the limit, and one that is not UTF-8: named by line
    // and byte, not sent to look for the file elsewhere
    let sets = dir.0.join("sets");
    std::fs::create_dir_all(&sets).unwrap();
    std::fs::write(sets.join("bad.txt"), b"4453 1\n4453 x\xff\n").unwrap();
    let out = c4lab(
        &[
            "bench",
            "solver",
            "--sets",
            sets.to_str().unwrap(),
            "--only",
            "bad",
            "--table-mb",
            "16",
        ],
        "",
    );
    assert_exit(&out, 2);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("line 2, byte 7 (0xFF) is not UTF-8 text"),
        "{said}"
    );
    assert!(!said.contains("a relative path"), "{said}");
}

#[test]
fn play_answers_a_typed_line_past_64_kib_as_no_move() {
    // cut at 64 KiB, such a line was played by its start ("7", then 70,000 spaces and
    // an x) or dropped unsaid (a 7 after 100,000 spaces)
    let typed = format!("7{}x\n{}7\nq\n", " ".repeat(70_000), " ".repeat(100_000));
    let out = c4lab(&["play", "examples/loss.txt"], &typed);
    assert_exit(&out, 0);
    let text = stdout(&out);
    let said =
        "a line of more than 65536 bytes is no move: type a column 1-7, u to undo, q to quit\n";
    assert_eq!(text.matches(said).count(), 2, "{text}");
    assert!(!text.contains("Yellow plays"), "{text}");
}

#[test]
fn a_corpus_row_without_end_is_refused_by_its_number() {
    let dir = Scratch::new("row");
    let corpus = dir.0.join("c.txt");
    // a first row of one ply, then 70,000 bytes without a line end
    let mut bytes = vec![b'a'; 10];
    bytes.push(b'\n');
    bytes.extend(std::iter::repeat_n(b'a', 70_000));
    std::fs::write(&corpus, bytes).unwrap();
    let out = c4lab(
        &["corpus", "check", "--no-targets", corpus.to_str().unwrap()],
        "",
    );
    assert_exit(&out, 2);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("row 1 runs past 65536 bytes without a line end"),
        "{said}"
    );
}

#[test]
fn a_book_deeper_than_its_positions_can_be_listed_is_refused() {
    let out = c4lab(&["book", "--depth", "11", "--out", "never.bin"], "");
    assert_exit(&out, 2);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("expected a whole number from 0 to 10"),
        "{said}"
    );
}

#[test]
fn dsat_learns_no_tree_past_its_state_budget() {
    // a candidate's tree walk of up to a million positions stayed within neither
    // --max-states nor --max-seconds (1,016,422 positions against a budget of 100,000)
    let out = c4lab(
        &[
            "dsat",
            "--json",
            "--local-work",
            "0",
            "--widen-after",
            "0",
            "--first-cut",
            "2",
            "--oracle-nodes",
            "0",
            "--tree-cap",
            "1000000",
            "--max-states",
            "20000",
            "--max-seconds",
            "30",
            "-",
        ],
        ALL_UNDECIDED,
    );
    assert_exit(&out, 3);
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(json["verdict"], "budget", "{json}");
    let positions = json["positions"].as_u64().unwrap();
    // (a round's losing line and fault paths may pass the budget by some hundreds)
    assert!(positions <= 21_000, "{positions} positions encoded");
}

#[test]
fn complete_stops_on_time_while_mapping_a_lost_subtree() {
    // each losing-line position's subtree was mapped whole, whatever the clock said:
    // 9.6 s for --max-seconds 3 with a budget of a million positions, past 35 s with
    // five million (a release build); stopped, it ends within a few seconds even in a
    // debug build
    let t = Instant::now();
    let out = c4lab(
        &[
            "complete",
            "--max-seconds",
            "1",
            "--lost-budget",
            "5000000",
            "--lost-after",
            "0",
            "-",
        ],
        ALL_UNDECIDED,
    );
    assert_exit(&out, 3);
    assert!(
        t.elapsed() < Duration::from_secs(20),
        "took {:?}",
        t.elapsed()
    );
}

#[test]
fn a_table_larger_than_the_memory_available_is_refused_before_it_is_made() {
    // (Linux promised the memory, and the process was killed while the table was
    // written, without a word)
    let Some(free_mib) = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| {
            let line = m
                .lines()
                .find(|l| l.starts_with("MemAvailable:"))?
                .to_string();
            line.split_whitespace().nth(1)?.parse::<u64>().ok()
        })
        .map(|kb| kb / 1024)
    else {
        eprintln!("skipped: no MemAvailable in /proc/meminfo");
        return;
    };
    let asked = free_mib + 1024;
    if asked > 1 << 16 {
        eprintln!("skipped: {free_mib} MiB available, past --table-mb's range");
        return;
    }
    let out = c4lab(&["solve", "--table-mb", &asked.to_string()], "44\n");
    assert_exit(&out, 2);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains(&format!("{asked} MiB of memory for transposition tables (1 x {asked} MiB) is more than this machine has available now")),
        "{said}"
    );
    assert_eq!(stdout(&out), "");
}
