//! Arithmetic in GF(2^8) (the field of the AES, polynomial x^8 + x^4 + x^3 + x + 1):
//! addition is XOR, multiplication is two table lookups and an add (log / antilog
//! tables over the generator 3), built at compile time.

/// The reduction polynomial without its x^8 term.
const POLY: u16 = 0x11B;

/// Antilogarithms of the generator 3, doubled in length so `exp[log a + log b]` needs
/// no reduction modulo 255.
const EXP: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut x: u16 = 1;
    let mut i = 0;
    while i < 512 {
        t[i] = x as u8;
        // multiply by 3 = x + 1: x * 2 xor x, reduced
        let mut d = x << 1;
        if d & 0x100 != 0 {
            d ^= POLY;
        }
        x = d ^ x;
        i += 1;
    }
    t
};

/// Logarithms to base 3 (`LOG[0]` is unused).
const LOG: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 255 {
        t[EXP[i] as usize] = i as u8;
        i += 1;
    }
    t
};

/// The product of `a` and `b` in GF(2^8), by table lookup (a `const fn`, so tables of
/// products can be built at compile time).
#[inline(always)]
pub const fn mul(a: u8, b: u8) -> u8 {
    if a == 0 || b == 0 {
        0
    } else {
        EXP[LOG[a as usize] as usize + LOG[b as usize] as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Shift-and-add multiplication, the definition.
    fn slow(mut a: u8, mut b: u8) -> u8 {
        let mut p = 0u8;
        while b != 0 {
            if b & 1 != 0 {
                p ^= a;
            }
            let carry = a & 0x80 != 0;
            a <<= 1;
            if carry {
                a ^= (POLY & 0xFF) as u8;
            }
            b >>= 1;
        }
        p
    }

    #[test]
    fn table_multiplication_is_the_field_product() {
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                assert_eq!(mul(a, b), slow(a, b), "{a} * {b}");
            }
        }
        // a known AES value: 0x57 * 0x83 = 0xC1
        assert_eq!(mul(0x57, 0x83), 0xC1);
    }
}
