//! The v2 transcript codec: round trips, the column-byte bijection, error positions.

use c4lab_board::{Position, WIDTH};
use c4lab_corpus::transcript::{
    board_from_columns, column_byte, decode_column_byte, decode_row, encode_game, NO_LAST, PLY_LEN,
};
use c4lab_corpus::DecodeError;
use proptest::prelude::*;

/// A random legal game: `picks` choose among the legal columns until a four or a full board.
fn legal_game(picks: &[u8]) -> Vec<u8> {
    let mut pos = Position::new();
    let mut moves = Vec::new();
    for &p in picks {
        if pos.winner().is_some() || pos.is_full() {
            break;
        }
        let legal: Vec<usize> = (0..WIDTH).filter(|&x| pos.can_play(x)).collect();
        let x = legal[p as usize % legal.len()];
        pos.play(x);
        moves.push(x as u8);
    }
    moves
}

proptest! {
    #[test]
    fn round_trip(picks in proptest::collection::vec(any::<u8>(), 0..60)) {
        let moves = legal_game(&picks);
        let bytes = encode_game(&moves).unwrap();
        prop_assert_eq!(bytes.len(), moves.len() * PLY_LEN);
        let game = decode_row(0, &bytes).unwrap();
        prop_assert_eq!(&game.moves, &moves);
        let mut pos = Position::new();
        for (k, &m) in moves.iter().enumerate() {
            let p = &bytes[k * PLY_LEN..(k + 1) * PLY_LEN];
            // both players' stones rebuilt exactly
            let (red, yellow) = board_from_columns(&p[..7]).unwrap();
            prop_assert_eq!((red, yellow), (pos.red(), pos.yellow()));
            prop_assert_eq!(game.positions[k], pos);
            if k > 0 {
                prop_assert_eq!(p[7], bytes[(k - 1) * PLY_LEN + 9]);
            } else {
                prop_assert_eq!(p[7], NO_LAST);
            }
            prop_assert!(p.iter().all(|&b| b != b'\n' && b != b'\r'));
            pos.play(m as usize);
        }
    }
}

#[test]
fn column_byte_bijection() {
    let mut seen = std::collections::HashSet::new();
    for h in 0..=6usize {
        for bits in 0..(1u16 << h) {
            let b = column_byte(h, bits as u8);
            assert!(b >= 0x81, "bit 7 set and a height marker");
            assert_eq!(decode_column_byte(b), Some((h, bits as u8)));
            assert!(seen.insert(b), "two column states share byte {b:#x}");
        }
    }
    assert_eq!(seen.len(), 127);
    // and every byte outside is refused
    for b in 0..=255u8 {
        assert_eq!(
            decode_column_byte(b).is_some(),
            seen.contains(&b),
            "byte {b:#x}"
        );
    }
}

#[test]
fn errors_name_row_ply_and_byte() {
    let good = encode_game(&[3, 3, 4, 2]).unwrap();
    let mut bad = good.clone();
    bad[2 * PLY_LEN + 7] = b'A';
    let e = decode_row(7, &bad).unwrap_err();
    assert_eq!(
        e,
        DecodeError::LastMove {
            row: 7,
            ply: 2,
            byte: 7,
            value: b'A',
            expected: b'D'
        }
    );
    assert!(e.to_string().starts_with("row 7, ply 2, byte 7"), "{e}");

    let mut bad = good.clone();
    bad[PLY_LEN + 3] = 0x80;
    let e = decode_row(1, &bad).unwrap_err();
    assert_eq!(
        e,
        DecodeError::ColumnByte {
            row: 1,
            ply: 1,
            byte: 3,
            value: 0x80
        }
    );

    let mut bad = good.clone();
    bad[3 * PLY_LEN + 8] = b'1';
    assert!(matches!(
        decode_row(0, &bad),
        Err(DecodeError::Side {
            ply: 3,
            byte: 8,
            ..
        })
    ));

    let mut bad = good.clone();
    bad[PLY_LEN + 9] = b'Z';
    assert!(matches!(
        decode_row(0, &bad),
        Err(DecodeError::BadMove {
            ply: 1,
            byte: 9,
            ..
        })
    ));

    assert_eq!(
        decode_row(4, &good[..15]).unwrap_err(),
        DecodeError::Length { row: 4, len: 15 }
    );

    let mut bad = good.clone();
    bad[12] = b'\r';
    assert!(matches!(
        decode_row(0, &bad),
        Err(DecodeError::LineBreak {
            ply: 1,
            byte: 2,
            ..
        })
    ));

    // a move into a full column and a ply after a four
    let full = encode_game(&[0, 0, 0, 0, 0, 0]).unwrap();
    let mut over = full.clone();
    over.extend_from_slice(&full[50..60]);
    let last = &mut over[60..70];
    last.copy_from_slice(&[
        0xC0 | 0b010101,
        0x81,
        0x81,
        0x81,
        0x81,
        0x81,
        0x81,
        b'A',
        b'1',
        b'A',
    ]);
    let e = decode_row(2, &over).unwrap_err();
    assert_eq!(
        e,
        DecodeError::FullColumn {
            row: 2,
            ply: 6,
            byte: 9,
            column: 1
        }
    );

    let won = encode_game(&[0, 1, 0, 1, 0, 1, 0]).unwrap();
    assert!(encode_game(&[0, 1, 0, 1, 0, 1, 0, 1]).is_err());
    let mut after = won.clone();
    let mut pos = Position::from_moves("1212121").unwrap();
    let ply = c4lab_corpus::transcript::encode_ply(&pos, Some(0), 1);
    after.extend_from_slice(&ply);
    pos.play(1);
    let e = decode_row(0, &after).unwrap_err();
    assert_eq!(
        e,
        DecodeError::AfterFour {
            row: 0,
            ply: 7,
            byte: 9
        }
    );
}
