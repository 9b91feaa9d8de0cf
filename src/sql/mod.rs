//! SQL: from statement text to results.

pub mod types;
pub mod value;
