//! The hit-test's grid: of the cells where the element is topmost, the largest 4-connected patch,
//! and the cell nearest that patch's centre (clicking there survives a small page shift).

/// `free` is row-major, `nx` × `ny`; returns the chosen cell's index.
pub fn centre_of_largest(free: &[bool], nx: usize, ny: usize) -> Option<usize> {
    let mut seen = vec![false; free.len()];
    let mut best: Vec<usize> = Vec::new();
    for start in 0..free.len() {
        if !free[start] || seen[start] {
            continue;
        }
        let mut patch = vec![start];
        seen[start] = true;
        let mut k = 0;
        while k < patch.len() {
            let c = patch[k];
            let (i, j) = (c % nx, c / nx);
            let mut near = Vec::with_capacity(4);
            if i > 0 {
                near.push(c - 1);
            }
            if i + 1 < nx {
                near.push(c + 1);
            }
            if j > 0 {
                near.push(c - nx);
            }
            if j + 1 < ny {
                near.push(c + nx);
            }
            for n in near {
                if free[n] && !seen[n] {
                    seen[n] = true;
                    patch.push(n);
                }
            }
            k += 1;
        }
        if patch.len() > best.len() {
            best = patch;
        }
    }
    if best.is_empty() {
        return None;
    }
    let (sx, sy) = best.iter().fold((0.0, 0.0), |(x, y), &c| (x + (c % nx) as f64, y + (c / nx) as f64));
    let (mx, my) = (sx / best.len() as f64, sy / best.len() as f64);
    best.into_iter().min_by(|&a, &b| {
        let d = |c: usize| ((c % nx) as f64 - mx).powi(2) + ((c / nx) as f64 - my).powi(2);
        d(a).total_cmp(&d(b))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picks_the_middle_of_the_biggest_free_patch() {
        // 5×3: a one-cell patch at the left, a 2×3 strip at the right.
        let f = [true, false, false, true, true, false, false, false, true, true, false, false, false, true, true];
        assert_eq!(centre_of_largest(&f, 5, 3), Some(8));
        assert_eq!(centre_of_largest(&[false; 9], 3, 3), None);
        assert_eq!(centre_of_largest(&[true; 9], 3, 3), Some(4));
    }
}
