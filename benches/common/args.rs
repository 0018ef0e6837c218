//! The figures a bench is given on its command line (`cargo bench --bench NAME -- 2000 20000`),
//! with cargo's own `--bench` flag left out.

/// Every argument that is a number, in order.
pub fn numbers() -> Vec<usize> {
    std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .filter_map(|a| a.parse().ok())
        .collect()
}

/// The numbers given, else `default`.
pub fn numbers_or(default: &[usize]) -> Vec<usize> {
    let given = numbers();
    if given.is_empty() {
        default.to_vec()
    } else {
        given
    }
}

/// The first number given, else `default`.
pub fn number_or(default: usize) -> usize {
    numbers().first().copied().unwrap_or(default)
}
