//! A trained model's move: `c4lab hint`, and the model as `play`'s opponent.

mod common;
use common::*;

#[test]
fn hint_answers_each_position_and_names_a_bad_one() {
    let g = Generated::new("hint");
    let model = g.model();
    // the model's hint: one line a position; a bad one is named and the rest answered
    let out = c4lab(
        &["hint", "--model", &model, "4453", "44444444", "112233"],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    let lines: Vec<String> = stdout(&out).lines().map(String::from).collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(
        lines[0].starts_with("4453 ") && lines[1] == "112233 4",
        "{lines:?}"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("\"44444444\": move 7"));
    // none given: one a line from standard input, as solve reads them (it refused the
    // command for want of an argument)
    let piped = c4lab(&["hint", "--model", &model], "4453\n\n44444444\n112233\n");
    assert_eq!(piped.status.code(), Some(2));
    assert_eq!(stdout(&piped), stdout(&out));
    // a bad line is named by its number, and a score after the moves (the benchmark
    // sets' form) is no error (every such line was refused, "a space is not a column")
    let err = String::from_utf8_lossy(&piped.stderr);
    assert!(
        err.contains("error: line 3: position \"44444444\": move 7"),
        "{err}"
    );
    // a comment line is refused in words that fit hint (it said "solve reads no comments")
    let commented = c4lab(&["hint", "--model", &model], "4453\n# x\n");
    let err = String::from_utf8_lossy(&commented.stderr);
    assert!(
        err.contains("line 2: position \"#\"")
            && err.contains("no comment is read here")
            && !err.contains("solve"),
        "{err}"
    );
    // a blank argument (an unset shell variable) is refused; `-` is the empty board (the
    // blank one was answered as the empty board, `- 4`)
    let blank = c4lab(&["hint", "--model", &model, "", "-", " "], "");
    assert_exit(&blank, 2);
    let answers = stdout(&blank);
    assert!(
        answers.starts_with("- ") && answers.lines().count() == 1,
        "{answers}"
    );
    let err = String::from_utf8_lossy(&blank.stderr);
    assert_eq!(
        err.matches("no moves given; write the empty board as -")
            .count(),
        2,
        "{err}"
    );
    let scored = c4lab(&["hint", "--model", &model], "4453 -2\n112233 5\n");
    assert_exit(&scored, 0);
    assert_eq!(stdout(&scored), stdout(&out));
    // each line is answered as it comes: a script may send one and wait (all of the
    // input was read first, and more than 16 MiB of it refused)
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_c4lab"))
        .args(["hint", "--model", &model])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut to = child.stdin.take().unwrap();
    std::io::Write::write_all(&mut to, b"112233\n").unwrap();
    let from = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut first = String::new();
        std::io::BufRead::read_line(&mut std::io::BufReader::new(from), &mut first).ok();
        tx.send(first).ok();
    });
    // (a generous wait: the answer takes milliseconds, but the machine may be busy)
    let first = rx.recv_timeout(std::time::Duration::from_secs(60));
    drop(to);
    assert_eq!(
        first.as_deref(),
        Ok("112233 4\n"),
        "no answer while the input was open"
    );
    assert!(child.wait().unwrap().success());
    // a long bad argument is named by its first 64 characters, as analyze names it (it
    // was given back whole)
    let long = "8".repeat(5000);
    let out = c4lab(&["hint", "--model", &model, &long], "");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!(
            "position \"{}…\": move 1: '8' is not a column",
            &long[..64]
        )) && err.len() < 200,
        "{err}"
    );
    // a finished game is named with who won and when, as `analyze` names it (it said
    // only that the game is over)
    let out = c4lab(&["hint", "--model", &model, "1212121"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(
            "position \"1212121\": the game is already over: Red made four in a row at move 7"
        ),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // `-` is the empty board, printed as `-` so the first field is never blank
    let out = c4lab(&["hint", "--model", &model, "-"], "");
    assert_exit(&out, 0);
    let line = stdout(&out);
    assert!(
        line.starts_with("- ") && line.trim_end().len() == 3,
        "{line}"
    );
    // an argument with stray whitespace (a line pasted from a file) still gives JSON
    let json = stdout(&c4lab(&["hint", "--json", "--model", &model, "4453\n"], ""));
    let v: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    assert_eq!(v["moves"], "4453");
    assert_eq!(v["scores"].as_array().unwrap().len(), 7);
    assert_eq!(lines[0], format!("4453 {}", v["column"]));
    // a full column's score is null, as in analyze --json (it was the string "full")
    let json = stdout(&c4lab(&["hint", "--json", "--model", &model, "444444"], ""));
    let v: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    assert!(v["scores"][3].is_null(), "{v}");
    assert!(v["scores"][0].is_i64(), "{v}");
}

#[test]
fn the_model_plays_as_an_opponent_and_refuses_the_diagram_games_flags() {
    let g = Generated::new("opponent");
    let model = g.model();
    // the model as an opponent: it answers every move and the game is judged
    let play_red = |moves: &str| red_against(&model, moves, None);
    let out = play_red("1111");
    let text = stdout(&out);
    assert!(text.matches("the model plays").count() >= 3, "{text}");
    assert!(text.contains("you play 1\n"), "{text}");
    assert!(matches!(out.status.code(), Some(0 | 1)), "{text}");
    // a bad --moves entry is refused by its place, as in the diagram game
    let out = play_red("4x9");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("--moves, move 2: 'x' is not a column; write columns as digits 1-7"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // `u` takes back your last move and the model's answer, as in the diagram game
    let out = red_against(&model, "4", Some("u\nu\nq\n"));
    let text = stdout(&out);
    assert!(
        text.contains("took back your last move") && text.contains("nothing to undo"),
        "{text}"
    );
    // the board, unchanged since, is not shown again (nor after a word that is no move)
    let after = text.split("nothing to undo").nth(1).unwrap();
    assert!(!after.contains("1 2 3 4 5 6 7"), "{text}");
    // a line past 64 KiB is no move (it was played by its start)
    let out = red_against(&model, "4", Some(&format!("1{}x\nq\n", " ".repeat(70_000))));
    let text = stdout(&out);
    assert!(
        text.contains("a line of more than 65536 bytes is no move"),
        "{text}"
    );
    assert!(!text.contains("you play 1"), "{text}");
    // a script that goes on after the game is over is refused, as in the diagram game:
    // play the first column that is not full until the game ends, then one move more
    let mut script = String::new();
    'game: loop {
        for c in '1'..='7' {
            let out = play_red(&format!("{script}{c}"));
            if out.status.code() == Some(2) {
                continue; // that column is full
            }
            script.push(c);
            let text = stdout(&out);
            // (a win of yours read "you plays N and wins")
            assert!(!text.contains("you plays"), "{text}");
            if text.contains(" and wins\n")
                || text.contains(" and win\n")
                || text.contains("a draw")
            {
                break 'game;
            }
            continue 'game;
        }
        panic!("no column to play after {script}");
    }
    let out = play_red(&format!("{script}1"));
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("the game is over") && err.contains("no move can follow it"),
        "{err}"
    );
    let out = c4lab(&["play", "--opponent", "model"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--model FILE"));
    // an option that belongs to the other opponent is refused, not ignored
    let out = c4lab(
        &[
            "play",
            "examples/win.txt",
            "--opponent",
            "model",
            "--model",
            &model,
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("leave out the diagram file"));
}

/// A script of Red moves that beats `model` (Yellow): the shortest found by trying every
/// line of up to `depth` Red moves against the model's answers; None when none does.
fn beating_line(
    model: &c4lab_model::Model,
    pos: c4lab_board::Position,
    depth: usize,
) -> Option<String> {
    if depth == 0 {
        return None;
    }
    for x in 0..7 {
        if !pos.can_play(x) {
            continue;
        }
        let mine = (x + 1).to_string();
        if pos.is_winning_move(x) {
            return Some(mine);
        }
        let after = pos.after(x);
        if after.is_full() {
            continue;
        }
        let y = model
            .best_move(&after)
            .expect("a move on a board that is not full");
        if after.is_winning_move(y) || after.after(y).is_full() {
            continue;
        }
        if let Some(rest) = beating_line(model, after.after(y), depth - 1) {
            return Some(mine + &rest);
        }
    }
    None
}

/// The shortest script of Red moves that beats the model in file `model`.
fn shortest_win(model: &str) -> String {
    let net = c4lab_model::Model::from_bytes(&std::fs::read(model).unwrap()).unwrap();
    (1..=8)
        .find_map(|d| beating_line(&net, c4lab_board::Position::new(), d))
        .expect("the test's model can be beaten within eight moves")
}

/// `c4lab play` as Red against the model in file `model`: `moves` first, then `typed` on
/// standard input (none: `--no-input`).
fn red_against(model: &str, moves: &str, typed: Option<&str>) -> std::process::Output {
    let mut args = vec![
        "play",
        "--opponent",
        "model",
        "--model",
        model,
        "--you",
        "red",
    ];
    args.extend(["--moves", moves]);
    if typed.is_none() {
        args.push("--no-input");
    }
    c4lab(&args, typed.unwrap_or(""))
}

#[test]
fn the_model_game_exits_1_when_you_win_shows_where_a_script_stops_and_undoes_after_its_end() {
    let g = Generated::new("model-game");
    let model = g.model();
    let line = shortest_win(&model);
    let out = red_against(&model, &line, None);
    let text = stdout(&out);
    assert!(text.trim_end().ends_with("and win"), "{line}: {text}");
    // as documented: 1 when you beat the model (it was 0, as for a loss)
    assert_eq!(out.status.code(), Some(1), "{line}: {text}");
    let game = |moves: &str, typed: &str| red_against(&model, moves, Some(typed));
    // a full column in --moves: the board the script got to, then the move named (the
    // board was left out)
    let out = game("4444444", "");
    assert_exit(&out, 2);
    assert!(stdout(&out).contains("  1 2 3 4 5 6 7"), "{}", stdout(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains(": column 4 is full"));
    // the game's end is not the program's: a column typed after it is answered, `u`
    // takes the winning move back (the program had ended), and the exit code is judged
    // where the game stands when input ends
    let out = game(&line, "5\n");
    assert_exit(&out, 1);
    assert!(
        stdout(&out).contains("the game is over (you play ")
            && stdout(&out).contains("and win): u takes back your last move, q quits"),
        "{}",
        stdout(&out)
    );
    let out = game(&line, "u\n");
    assert_exit(&out, 0);
    // (the first screen was an empty board alone: whose move, which side, nothing)
    assert!(
        stdout(&out)
            .starts_with("You are Red and move first; the model plays Yellow. Type a column 1-7"),
        "{}",
        stdout(&out)
    );
    assert!(
        stdout(&out).contains("took back your last move"),
        "{}",
        stdout(&out)
    );
    // and shows the board it went back to, also where that board was on screen before
    // the winning move was typed (the last board shown was the won one)
    let (start, last) = line.split_at(line.len() - 1);
    let out = game(start, &format!("{last}\nu\n"));
    let text = stdout(&out);
    let after = text.split("took back your last move").nth(1).unwrap();
    assert!(after.contains("1 2 3 4 5 6 7"), "{text}");
    let out = game(&line, "u\nq\n");
    assert_exit(&out, 0);
    let out = game(&line, "q\n");
    assert_exit(&out, 1);
}

#[cfg(target_os = "linux")]
#[test]
fn on_a_terminal_play_draws_the_stones_in_their_colours() {
    // (the board was letters alone); in a pipe, or with NO_COLOR, it stays plain text
    let play = format!(
        "{} play {} --moves 4 --no-input",
        env!("CARGO_BIN_EXE_c4lab"),
        repo().join("examples/win.txt").display()
    );
    let red = "\u{1b}[1m\u{1b}[31mR\u{1b}[0m";
    let yellow = "\u{1b}[1m\u{1b}[33mY\u{1b}[0m";
    let Some(shown) = on_a_terminal(&format!("env -u NO_COLOR TERM=xterm {play}")) else {
        return;
    };
    assert!(shown.contains(red) && shown.contains(yellow), "{shown:?}");
    let plain = on_a_terminal(&format!("env NO_COLOR=1 TERM=xterm {play}")).unwrap();
    assert!(
        !plain.contains('\u{1b}') && plain.contains("R R R Y Y R Y"),
        "{plain:?}"
    );
    let piped = c4lab(
        &["play", "examples/win.txt", "--moves", "4", "--no-input"],
        "",
    );
    assert!(!stdout(&piped).contains('\u{1b}'), "{}", stdout(&piped));
}
