//! Lower case for matching page text: `str::to_lowercase` brings Unicode's full mapping table
//! (~15 KB of the page layer); matching needs one char for one char, in the scripts pages write
//! with two cases. A char this does not know stays as it is (a test checks every char against std).

/// `(first, last, how)`: `how` 0 maps even→odd, 1 odd→even (pairs); otherwise it is added.
#[rustfmt::skip]
const RANGES: [(u32, u32, i32); 54] = [
    (0xC0, 0xD6, 32), (0xD8, 0xDE, 32), (0x100, 0x12F, 0), (0x132, 0x137, 0), (0x139, 0x148, 1),
    (0x14A, 0x177, 0), (0x179, 0x17E, 1), (0x1CD, 0x1DC, 1), (0x1DE, 0x1EF, 0), (0x1F8, 0x21F, 0),
    (0x222, 0x233, 0), (0x246, 0x24F, 0), (0x388, 0x38A, 37), (0x38E, 0x38F, 63), (0x391, 0x3A1, 32),
    (0x3A3, 0x3AB, 32), (0x3D8, 0x3EF, 0), (0x400, 0x40F, 80), (0x410, 0x42F, 32), (0x460, 0x481, 0),
    (0x48A, 0x4BF, 0), (0x4C1, 0x4CE, 1), (0x4D0, 0x52F, 0), (0x531, 0x556, 48), (0x10A0, 0x10C5, 7264),
    (0x13A0, 0x13EF, 38864), (0x13F0, 0x13F5, 8), (0x1C90, 0x1CBA, -3008), (0x1CBD, 0x1CBF, -3008),
    (0x1E00, 0x1E95, 0), (0x1EA0, 0x1EFF, 0), (0x1F08, 0x1F0F, -8), (0x1F18, 0x1F1D, -8),
    (0x1F28, 0x1F2F, -8), (0x1F38, 0x1F3F, -8), (0x1F48, 0x1F4D, -8), (0x1F68, 0x1F6F, -8),
    (0x2160, 0x216F, 16), (0x24B6, 0x24CF, 26), (0x2C00, 0x2C2F, 48), (0x2C80, 0x2CE3, 0),
    (0xA640, 0xA66D, 0), (0xA680, 0xA69B, 0), (0xA722, 0xA72F, 0), (0xA732, 0xA76F, 0),
    (0xA77E, 0xA787, 0), (0xFF21, 0xFF3A, 32), (0x10400, 0x10427, 40), (0x104B0, 0x104D3, 40),
    (0x10C80, 0x10CB2, 64), (0x118A0, 0x118BF, 32), (0x16E40, 0x16E5F, 32), (0x1E900, 0x1E921, 34),
    (0x10570, 0x1057A, 39),
];

/// `c` in lower case, where it has one char for it (see the module's note).
pub fn lower_char(c: char) -> char {
    if c.is_ascii() {
        return c.to_ascii_lowercase();
    }
    let n = c as u32;
    let lower = match n {
        0x130 => 0x69,
        0x178 => 0xFF,
        0x386 => 0x3AC,
        0x38C => 0x3CC,
        0x4C0 => 0x4CF,
        _ => match RANGES.iter().find(|r| (r.0..=r.1).contains(&n)) {
            Some(&(_, _, 0)) if n.is_multiple_of(2) => n + 1,
            Some(&(_, _, 1)) if !n.is_multiple_of(2) => n + 1,
            Some(&(_, _, add)) if add.abs() > 1 => n.wrapping_add_signed(add),
            _ => n,
        },
    };
    char::from_u32(lower).unwrap_or(c)
}

/// `s` in lower case, char by char.
pub fn lower(s: &str) -> String {
    s.chars().map(lower_char).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lower_case_is_std_s_where_it_knows_the_char_and_leaves_the_rest() {
        let (mut known, mut left) = (0, Vec::new());
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            let std: Vec<char> = c.to_lowercase().collect();
            let ours = lower_char(c);
            if std == [c] {
                assert_eq!(ours, c, "{c:?} {:x} has no lower case", c as u32);
            } else if ours == c {
                left.push(c);
            } else {
                assert_eq!(ours, std[0], "{c:?} {:x}", c as u32);
                known += 1;
            }
        }
        assert_eq!(lower("ÀÉÎÕÜ ĀŁŽ ΑΣΩ ДЖЯ Ё ԱՖ ẠẾỸ ＡＺ İ"), "àéîõü āłž ασω джя ё աֆ ạếỹ ａｚ i");
        // 1,220 of the 1,488 chars std lowers; left: odd ones of Latin Extended-B, -C, -D and Greek
        // Extended, letterlike symbols and a few rare scripts.
        assert!(known >= 1220, "{known} {}", left.len());
        assert!(left.len() <= 268, "{}", left.len());
    }
}
