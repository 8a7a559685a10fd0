//! Numbers as CSS and HTML write them (`12`, `-0.5`, `.5`, `1e3`). `str::parse::<f64>` is exact
//! for any input but brings a 10 KB table of powers of five and a big-number fallback into each
//! content layer; these numbers are short, and up to 15 significant digits and 10^±22 this is
//! exact too (one correctly rounded multiply or divide of two exact values).

const POW10: [f64; 23] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22];

/// A decimal number, or None for anything else (also `inf` and `NaN`, which CSS never writes).
pub fn parse_number(text: &str) -> Option<f64> {
    let bytes = text.as_bytes();
    let (negative, mut i) = match bytes.first() {
        Some(b'-') => (true, 1),
        Some(b'+') => (false, 1),
        _ => (false, 0),
    };
    let (mut mantissa, mut exp10, mut digits, mut dot) = (0u64, 0i32, false, false);
    while let Some(&b) = bytes.get(i) {
        match b {
            b'0'..=b'9' => {
                digits = true;
                if mantissa < 1_000_000_000_000_000_000 {
                    mantissa = mantissa * 10 + u64::from(b - b'0');
                    exp10 -= i32::from(dot);
                } else {
                    exp10 += i32::from(!dot);
                }
            }
            b'.' if !dot => dot = true,
            b'e' | b'E' => break,
            _ => return None,
        }
        i += 1;
    }
    if !digits {
        return None;
    }
    if i < bytes.len() {
        let exp = text.get(i + 1..)?;
        let unsigned = exp.strip_prefix(['+', '-']).unwrap_or(exp);
        if unsigned.is_empty() || !unsigned.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        exp10 = exp10.saturating_add(exp.parse::<i32>().unwrap_or(if exp.starts_with('-') { i32::MIN } else { i32::MAX }));
    }
    let m = mantissa as f64;
    let value = match exp10 {
        0..=22 => m * POW10[exp10 as usize],
        -22..=-1 => m / POW10[(-exp10) as usize],
        e if e > 0 => m * 10f64.powi(e.min(400)),
        e => m / 10f64.powi((-e).min(400)),
    };
    Some(if negative { -value } else { value })
}

#[cfg(test)]
mod tests {
    use super::parse_number;

    #[test]
    fn reads_what_str_parse_reads_to_the_bit() {
        for t in [
            "0",
            "12",
            "-0.5",
            ".5",
            "5.",
            "+3",
            "1e3",
            "2.5E-3",
            "0.1",
            "0.3",
            "123.456",
            "-0",
            "16",
            "400",
            "1e-7",
            "0.30000000000000004",
            "1e22",
            "99.99999",
        ] {
            let want = t.parse::<f64>().unwrap();
            let got = parse_number(t).unwrap();
            assert_eq!(got.to_bits(), want.to_bits(), "{t}");
        }
    }

    #[test]
    fn refuses_what_is_not_a_number() {
        for t in ["", "-", ".", "e3", "1e", "1e+", "1.2.3", "12px", "inf", "NaN", " 1", "1 ", "--1"] {
            assert_eq!(parse_number(t), None, "{t}");
        }
        assert!(parse_number("1e400").unwrap().is_infinite());
        assert_eq!(parse_number("1e-400"), Some(0.0));
    }
}
