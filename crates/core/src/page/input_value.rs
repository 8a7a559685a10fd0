//! Inputs typed whole: date, time, datetime-local, month, week, color and range take their value
//! in one piece, in their own format. Typing them a character at a time blanks every partial
//! value, so the common human spellings are converted here and the format used is named.

use super::color::Rgba;

/// Input types whose value is set whole.
pub fn is_whole_value(input_type: &str) -> bool {
    matches!(input_type, "date" | "time" | "datetime-local" | "month" | "week" | "color" | "range")
}

/// The value to set and which spelling of the text was understood, or why it can't be.
pub fn whole_value(input_type: &str, text: &str) -> Result<(String, &'static str), String> {
    let t = text.trim();
    let parsed = match input_type {
        "date" => date(t),
        "time" => time(t),
        "datetime-local" => datetime(t),
        "month" => month(t),
        "week" => week(t),
        "color" => Rgba::parse(t).filter(|c| c.a >= 0.999).map(|c| (c.to_hex(), "CSS colour")),
        "range" => super::number::parse_number(t).filter(|v| v.is_finite()).map(|v| (trim_number(v), "number")),
        _ => None,
    };
    parsed.ok_or_else(|| format!("\"{text}\" is not a {input_type} value; {}", expected(input_type)))
}

fn expected(input_type: &str) -> &'static str {
    match input_type {
        "date" => "use 2019-04-29, 04/29/2019 (month/day/year) or 29.04.2019",
        "time" => "use 14:30, 14:30:15 or 2:30 PM",
        "datetime-local" => "use 2019-04-29T14:30, 2019-04-29 14:30 or 04/29/2019 2:30 PM",
        "month" => "use 2019-04 or 04/2019",
        "week" => "use 2019-W17",
        "color" => "use an opaque CSS colour such as #1e90ff",
        _ => "use a number",
    }
}

fn trim_number(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

fn num(s: &str, min: u32, max: u32) -> Option<u32> {
    let n: u32 = s.trim().parse().ok()?;
    (min..=max).contains(&n).then_some(n)
}

fn ymd(y: u32, m: u32, d: u32) -> Option<String> {
    let leap = (y.is_multiple_of(4) && !y.is_multiple_of(100)) || y.is_multiple_of(400);
    let days = [31, if leap { 29 } else { 28 }, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    (d >= 1 && d <= *days.get(m.checked_sub(1)? as usize)?).then(|| format!("{y:04}-{m:02}-{d:02}"))
}

fn date(t: &str) -> Option<(String, &'static str)> {
    let parts = |sep: char| -> Option<[u32; 3]> {
        let p: Vec<&str> = t.split(sep).collect();
        (p.len() == 3).then(|| Some([p[0].trim().parse().ok()?, p[1].trim().parse().ok()?, p[2].trim().parse().ok()?]))?
    };
    if let Some([y, m, d]) = parts('-').filter(|p| p[0] > 999) {
        return ymd(y, m, d).map(|v| (v, "YYYY-MM-DD"));
    }
    if let Some([a, b, c]) = parts('/') {
        if a > 999 {
            return ymd(a, b, c).map(|v| (v, "YYYY/MM/DD"));
        }
        return ymd(c, a, b).map(|v| (v, "MM/DD/YYYY"));
    }
    if let Some([d, m, y]) = parts('.') {
        return ymd(y, m, d).map(|v| (v, "DD.MM.YYYY"));
    }
    None
}

fn time(t: &str) -> Option<(String, &'static str)> {
    let lower = t.to_ascii_lowercase();
    let (clock, pm) = match lower.strip_suffix("pm").or_else(|| lower.strip_suffix("p.m.")) {
        Some(c) => (c.trim().to_string(), Some(true)),
        None => match lower.strip_suffix("am").or_else(|| lower.strip_suffix("a.m.")) {
            Some(c) => (c.trim().to_string(), Some(false)),
            None => (lower.clone(), None),
        },
    };
    let p: Vec<&str> = clock.split(':').collect();
    if p.len() < 2 || p.len() > 3 {
        return None;
    }
    let mut h = num(p[0], 0, 23)?;
    let m = num(p[1], 0, 59)?;
    match pm {
        Some(true) if (1..=12).contains(&h) => h = if h == 12 { 12 } else { h + 12 },
        Some(false) if (1..=12).contains(&h) => h = if h == 12 { 0 } else { h },
        Some(_) => return None,
        None => {}
    }
    match p.get(2) {
        Some(s) => Some((format!("{h:02}:{m:02}:{:02}", num(s, 0, 59)?), if pm.is_some() { "h:mm:ss AM/PM" } else { "HH:MM:SS" })),
        None => Some((format!("{h:02}:{m:02}"), if pm.is_some() { "h:mm AM/PM" } else { "HH:MM" })),
    }
}

fn datetime(t: &str) -> Option<(String, &'static str)> {
    let (d, rest) = t.split_once('T').or_else(|| t.split_once(' '))?;
    let (date, _) = date(d.trim())?;
    let (time, _) = time(rest.trim())?;
    Some((format!("{date}T{time}"), "date and time"))
}

fn month(t: &str) -> Option<(String, &'static str)> {
    if let Some((y, m)) = t.split_once('-') {
        let (y, m) = (num(y, 1000, 9999)?, num(m, 1, 12)?);
        return Some((format!("{y:04}-{m:02}"), "YYYY-MM"));
    }
    let (m, y) = t.split_once('/')?;
    let (y, m) = (num(y, 1000, 9999)?, num(m, 1, 12)?);
    Some((format!("{y:04}-{m:02}"), "MM/YYYY"))
}

fn week(t: &str) -> Option<(String, &'static str)> {
    let upper = t.to_ascii_uppercase();
    let (y, w) = upper.split_once("-W")?;
    let (y, w) = (num(y, 1000, 9999)?, num(w, 1, 53)?);
    Some((format!("{y:04}-W{w:02}"), "YYYY-Www"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn human_formats_become_the_inputs_own() {
        assert_eq!(whole_value("date", "04/29/2019").unwrap(), ("2019-04-29".into(), "MM/DD/YYYY"));
        assert_eq!(whole_value("date", "2019-04-29").unwrap(), ("2019-04-29".into(), "YYYY-MM-DD"));
        assert_eq!(whole_value("date", "29.04.2019").unwrap().0, "2019-04-29");
        assert!(whole_value("date", "02/30/2019").unwrap_err().contains("not a date value"));
        assert_eq!(whole_value("time", "2:30 PM").unwrap(), ("14:30".into(), "h:mm AM/PM"));
        assert_eq!(whole_value("time", "12:05 am").unwrap().0, "00:05");
        assert_eq!(whole_value("time", "09:15:30").unwrap().0, "09:15:30");
        assert_eq!(whole_value("datetime-local", "2019-04-29 14:30").unwrap().0, "2019-04-29T14:30");
        assert_eq!(whole_value("datetime-local", "04/29/2019 2:30 PM").unwrap().0, "2019-04-29T14:30");
        assert_eq!(whole_value("month", "04/2019").unwrap().0, "2019-04");
        assert_eq!(whole_value("week", "2019-w17").unwrap().0, "2019-W17");
        assert_eq!(whole_value("color", "rgb(30, 144, 255)").unwrap().0, "#1e90ff");
        assert_eq!(whole_value("color", "white").unwrap().0, "#ffffff");
        assert_eq!(whole_value("range", "40").unwrap().0, "40");
        assert!(whole_value("range", "lots").is_err());
        assert!(is_whole_value("week") && !is_whole_value("text"));
    }
}
