//! A hue angle's cosine and sine, for `lch()` and `oklch()`. libm's `sin` and `cos` were ~6 KB of
//! each content layer (their reduction of huge arguments, a table of 2/π's digits); a hue is
//! wrapped to a turn first, which leaves a short series exact to ~1e-14.

/// `(cos, sin)` of an angle in degrees.
pub fn cos_sin_deg(deg: f64) -> (f64, f64) {
    let turn = wrap(deg, 360.0);
    let quarter = (turn / 90.0).round();
    let x = (turn - quarter * 90.0).to_radians(); // |x| ≤ π/4
    let x2 = x * x;
    let cos = 1.0 - x2 / 2.0 * (1.0 - x2 / 12.0 * (1.0 - x2 / 30.0 * (1.0 - x2 / 56.0 * (1.0 - x2 / 90.0 * (1.0 - x2 / 132.0 * (1.0 - x2 / 182.0))))));
    let sin = x * (1.0 - x2 / 6.0 * (1.0 - x2 / 20.0 * (1.0 - x2 / 42.0 * (1.0 - x2 / 72.0 * (1.0 - x2 / 110.0 * (1.0 - x2 / 156.0))))));
    match quarter as u8 {
        1 => (-sin, cos),
        2 => (-cos, -sin),
        3 => (sin, -cos),
        _ => (cos, sin),
    }
}

/// `x` wrapped into `0..m` (`rem_euclid`, without libm's `fmod`).
pub fn wrap(x: f64, m: f64) -> f64 {
    let r = x - (x / m).floor() * m;
    if r >= m || r < 0.0 {
        0.0
    } else {
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cos_and_sin_of_any_hue_match_libm() {
        for i in -7200..=7200 {
            let deg = f64::from(i) * 0.37;
            let (c, s) = cos_sin_deg(deg);
            let r = deg.to_radians();
            assert!((c - r.cos()).abs() < 1e-13 && (s - r.sin()).abs() < 1e-13, "{deg}: {c} {s}");
        }
        assert_eq!(cos_sin_deg(90.0), (0.0, 1.0));
        assert!(cos_sin_deg(f64::NAN).0.is_nan());
    }

    #[test]
    fn wrap_is_rem_euclid() {
        for x in [-725.5, -360.0, -0.25, 0.0, 11.99, 12.0, 359.9, 360.0, 1e6 + 0.5] {
            assert_eq!(wrap(x, 360.0), x.rem_euclid(360.0), "{x}");
            assert_eq!(wrap(x, 12.0), x.rem_euclid(12.0), "{x}");
        }
    }
}
