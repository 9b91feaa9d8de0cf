//! JSON text validation for JSON columns: one RFC 8259 value with optional surrounding
//! whitespace, nesting at most 100 deep (MySQL's limit). Errors carry MySQL's (rapidjson's)
//! reason text and the byte position, for error 3140 `Invalid JSON text: "…" at position N`.
//! The parser is iterative (an explicit stack), so hostile input cannot overflow the
//! thread's stack; it never allocates more than the nesting depth.

use super::count_digits;
use std::str::FromStr;

/// Maximum nesting depth of a JSON document (MySQL's limit).
const JSON_MAX_DEPTH: usize = 100;

/// Checks that `s` is one JSON value (RFC 8259) surrounded by optional whitespace.
/// On error: (MySQL/rapidjson's reason, byte position).
pub fn validate_json(s: &[u8]) -> Result<(), (&'static str, usize)> {
    let ws = |i: &mut usize| {
        while matches!(s.get(*i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            *i += 1;
        }
    };
    // Containers open on the way down: b'{' or b'['.
    let mut stack: Vec<u8> = Vec::new();
    let mut i = 0usize;
    ws(&mut i);
    if i >= s.len() {
        return Err(("The document is empty.", i));
    }
    loop {
        // Parse a value at i.
        ws(&mut i);
        match s.get(i) {
            Some(b'{') => {
                if stack.len() >= JSON_MAX_DEPTH {
                    return Err(("The JSON document exceeds the maximum depth.", i));
                }
                i += 1;
                ws(&mut i);
                if s.get(i) == Some(&b'}') {
                    i += 1;
                } else {
                    stack.push(b'{');
                    json_member_name(s, &mut i)?;
                    continue;
                }
            }
            Some(b'[') => {
                if stack.len() >= JSON_MAX_DEPTH {
                    return Err(("The JSON document exceeds the maximum depth.", i));
                }
                i += 1;
                ws(&mut i);
                if s.get(i) == Some(&b']') {
                    i += 1;
                } else {
                    stack.push(b'[');
                    continue;
                }
            }
            Some(b'"') => json_string(s, &mut i)?,
            Some(b't') if s[i..].starts_with(b"true") => i += 4,
            Some(b'f') if s[i..].starts_with(b"false") => i += 5,
            Some(b'n') if s[i..].starts_with(b"null") => i += 4,
            Some(b'-' | b'0'..=b'9') => json_number(s, &mut i)?,
            _ => return Err(("Invalid value.", i)),
        }
        // After a value: close containers or move to the next element.
        loop {
            ws(&mut i);
            match stack.last() {
                None => {
                    return if i == s.len() {
                        Ok(())
                    } else {
                        Err(("The document root must not be followed by other values.", i))
                    };
                }
                Some(b'{') => match s.get(i) {
                    Some(b',') => {
                        i += 1;
                        ws(&mut i);
                        json_member_name(s, &mut i)?;
                        break;
                    }
                    Some(b'}') => {
                        i += 1;
                        stack.pop();
                    }
                    _ => return Err(("Missing a comma or '}' after an object member.", i)),
                },
                Some(_) => match s.get(i) {
                    Some(b',') => {
                        i += 1;
                        break;
                    }
                    Some(b']') => {
                        i += 1;
                        stack.pop();
                    }
                    _ => return Err(("Missing a comma or ']' after an array element.", i)),
                },
            }
        }
    }
}

/// `"name"` `:` of an object member, leaving `i` at the value.
fn json_member_name(s: &[u8], i: &mut usize) -> Result<(), (&'static str, usize)> {
    if s.get(*i) != Some(&b'"') {
        return Err(("Missing a name for object member.", *i));
    }
    json_string(s, i)?;
    while matches!(s.get(*i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        *i += 1;
    }
    if s.get(*i) != Some(&b':') {
        return Err(("Missing a colon after a name of object member.", *i));
    }
    *i += 1;
    Ok(())
}

fn json_string(s: &[u8], i: &mut usize) -> Result<(), (&'static str, usize)> {
    let start = *i;
    *i += 1; // opening quote
    loop {
        match s.get(*i) {
            None => return Err(("Missing a closing quotation mark in string.", start)),
            Some(b'"') => {
                *i += 1;
                break;
            }
            Some(b'\\') => match s.get(*i + 1) {
                Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => *i += 2,
                Some(b'u') => {
                    let hex = s.get(*i + 2..*i + 6).unwrap_or_default();
                    if hex.len() != 4 || !hex.iter().all(u8::is_ascii_hexdigit) {
                        return Err(("Incorrect hex digit after \\u escape in string.", *i));
                    }
                    *i += 6;
                }
                _ => return Err(("Invalid escape character in string.", *i)),
            },
            Some(&c) if c < 0x20 => return Err(("Invalid encoding in string.", *i)),
            Some(_) => *i += 1,
        }
    }
    if std::str::from_utf8(&s[start..*i]).is_err() {
        return Err(("Invalid encoding in string.", start));
    }
    Ok(())
}

fn json_number(s: &[u8], i: &mut usize) -> Result<(), (&'static str, usize)> {
    let start = *i;
    if s.get(*i) == Some(&b'-') {
        *i += 1;
    }
    match s.get(*i) {
        Some(b'0') => *i += 1,
        Some(b'1'..=b'9') => *i += count_digits(s, *i),
        _ => return Err(("Invalid value.", start)),
    }
    if s.get(*i) == Some(&b'.') {
        let n = count_digits(s, *i + 1);
        if n == 0 {
            return Err(("Miss fraction part in number.", *i + 1));
        }
        *i += 1 + n;
    }
    if matches!(s.get(*i), Some(b'e' | b'E')) {
        *i += 1;
        if matches!(s.get(*i), Some(b'+' | b'-')) {
            *i += 1;
        }
        let n = count_digits(s, *i);
        if n == 0 {
            return Err(("Miss exponent in number.", *i));
        }
        *i += n;
    }
    let text = std::str::from_utf8(&s[start..*i]).unwrap_or("0");
    if f64::from_str(text).is_ok_and(f64::is_infinite) {
        return Err(("Number too big to be stored in double.", start));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_validator() {
        for ok in [
            "1",
            "-0.5e+3",
            "\"\"",
            "[]",
            "{}",
            " [ {\"a\" : [ ] } , 2 ] ",
            "true",
            "null",
            "\"\\ud83d\\ude00\"",
        ] {
            assert_eq!(validate_json(ok.as_bytes()), Ok(()), "{ok}");
        }
        for (bad, reason) in [
            ("", "The document is empty."),
            ("[1,]", "Invalid value."),
            (
                "{\"a\" 1}",
                "Missing a colon after a name of object member.",
            ),
            ("{1:2}", "Missing a name for object member."),
            ("[1 2]", "Missing a comma or ']' after an array element."),
            (
                "01",
                "The document root must not be followed by other values.",
            ),
            ("1.", "Miss fraction part in number."),
            ("1e", "Miss exponent in number."),
            ("\"a", "Missing a closing quotation mark in string."),
            ("\"\\x\"", "Invalid escape character in string."),
            (
                "\"\\u12g4\"",
                "Incorrect hex digit after \\u escape in string.",
            ),
            ("1e999", "Number too big to be stored in double."),
            ("tru", "Invalid value."),
        ] {
            assert_eq!(
                validate_json(bad.as_bytes()).map_err(|e| e.0),
                Err(reason),
                "{bad}"
            );
        }
        let deep = "[".repeat(100) + &"]".repeat(100);
        assert_eq!(validate_json(deep.as_bytes()), Ok(()));
        let too_deep = "[".repeat(101) + &"]".repeat(101);
        assert!(validate_json(too_deep.as_bytes()).is_err());
        let huge = "[".repeat(100_000);
        assert!(validate_json(huge.as_bytes()).is_err());
    }
}
