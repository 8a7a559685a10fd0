//! Set-of-marks: where each index label goes on a screenshot, so a model that sees the picture
//! can name elements by index. The worker only draws what this lays out.

use crate::protocol::page::ElementInfo;

/// Screenshots the agent takes are at most this wide.
pub const MAX_WIDTH: u32 = 1024;
/// Labels per screenshot; past this the picture is unreadable.
pub const MAX_MARKS: usize = 150;

const COLORS: &[&str] = &["#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#008080", "#9a6324", "#800000"];

/// One mark, in the output image's pixels.
#[derive(Debug, Clone, PartialEq)]
pub struct Mark {
    pub label: String,
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
    pub color: &'static str,
    /// The label's box: above the element's top-left corner, or inside it at the top edge.
    pub label_x: f64,
    pub label_y: f64,
    pub label_width: f64,
    pub label_height: f64,
}

/// The output size for a capture of `image_w`×`image_h` pixels: at most `max_width` wide.
pub fn output_size(image_w: f64, image_h: f64, max_width: u32) -> (f64, f64) {
    if image_w <= f64::from(max_width) || image_w <= 0.0 {
        return (image_w, image_h);
    }
    let s = f64::from(max_width) / image_w;
    ((image_w * s).round(), (image_h * s).round())
}

/// Marks for the visible elements, scaled from CSS pixels (`viewport_width` wide) to an output
/// image `out_w`×`out_h` pixels.
pub fn layout(elements: &[ElementInfo], viewport_width: f64, out_w: f64, out_h: f64) -> Vec<Mark> {
    if viewport_width <= 0.0 || out_w <= 0.0 {
        return vec![];
    }
    let scale = out_w / viewport_width;
    let label_height = 14.0_f64.max((12.0 * scale).round());
    let char_width = label_height * 0.6;
    elements
        .iter()
        .filter(|e| e.visible && e.rect.width > 0.0 && e.rect.height > 0.0)
        .take(MAX_MARKS)
        .enumerate()
        .filter_map(|(i, e)| {
            let (x, y) = (e.rect.x * scale, e.rect.y * scale);
            let (width, height) = (e.rect.width * scale, e.rect.height * scale);
            if x + width < 0.0 || y + height < 0.0 || x > out_w || y > out_h {
                return None;
            }
            let label = e.index.to_string();
            let label_width = char_width * label.len() as f64 + 6.0;
            let label_y = if y - label_height >= 0.0 { y - label_height } else { y.max(0.0) };
            let label_x = x.clamp(0.0, (out_w - label_width).max(0.0));
            Some(Mark { label, x, y, width, height, color: COLORS[i % COLORS.len()], label_x, label_y, label_width, label_height })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::page::Rect;

    #[test]
    fn captures_shrink_to_1024_and_marks_follow() {
        assert_eq!(output_size(2560.0, 1440.0, MAX_WIDTH), (1024.0, 576.0));
        assert_eq!(output_size(800.0, 600.0, MAX_WIDTH), (800.0, 600.0));
        let e = ElementInfo { index: 42, visible: true, rect: Rect { x: 100.0, y: 2.0, width: 50.0, height: 20.0 }, ..Default::default() };
        let hidden = ElementInfo { index: 7, visible: false, rect: Rect { x: 1.0, y: 1.0, width: 5.0, height: 5.0 }, ..Default::default() };
        let marks = layout(&[e, hidden], 1280.0, 1024.0, 576.0);
        assert_eq!(marks.len(), 1);
        let m = &marks[0];
        assert_eq!((m.label.as_str(), m.x, m.width), ("42", 80.0, 40.0));
        assert_eq!(m.label_y, m.y, "no room above: the label sits inside the top edge");
    }
}

/// The part of a capture (`image_w` px wide, of a viewport `viewport_width` CSS px wide) shown
/// on a confirmation card: the target with some of its surroundings. `(x, y, width, height)`.
pub fn crop_box(target: &crate::protocol::page::Rect, viewport_width: f64, image_w: f64, image_h: f64) -> (f64, f64, f64, f64) {
    if viewport_width <= 0.0 || image_w <= 0.0 {
        return (0.0, 0.0, image_w, image_h);
    }
    let s = image_w / viewport_width;
    let pad = 80.0 * s;
    let x = (target.x * s - pad).clamp(0.0, image_w);
    let y = (target.y * s - pad).clamp(0.0, image_h);
    let right = ((target.x + target.width) * s + pad).clamp(x + 1.0, image_w.max(x + 1.0));
    let bottom = ((target.y + target.height) * s + pad).clamp(y + 1.0, image_h.max(y + 1.0));
    (x, y, (right - x).min(image_w - x).max(1.0), (bottom - y).min(image_h - y).max(1.0))
}

#[cfg(test)]
mod crop_tests {
    use super::*;
    use crate::protocol::page::Rect;

    #[test]
    fn the_crop_keeps_the_target_and_stays_inside_the_image() {
        let (x, y, w, h) = crop_box(&Rect { x: 100.0, y: 50.0, width: 40.0, height: 20.0 }, 1000.0, 2000.0, 1200.0);
        assert_eq!((x, y), (40.0, 0.0));
        assert!(x <= 200.0 && x + w >= 280.0 && y + h >= 140.0 && x + w <= 2000.0 && y + h <= 1200.0);
    }
}
