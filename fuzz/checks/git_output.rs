//! What must hold for any bytes git (or a server speaking through it) prints where skilldeck
//! reads a tree listing or a batch of blobs: no panic; a listing entry is only ever one git
//! writes (a known mode, a full id, a size exactly for a blob, a non-empty path); and the blob
//! reader holds no more than the sizes asked, and reads the same answer in any chunks.
//!
//! The input: its first byte is how many blobs are asked (0 to 3), the next two each one's
//! size (0 to 255 bytes), one more the chunk size; the rest is git's answer, and also a listing.

use skilldeck_core::source::git::objects::{Blobs, EntryMode, is_object_id, parse_tree};

const IDS: [&str; 3] = [
    "1111111111111111111111111111111111111111",
    "2222222222222222222222222222222222222222",
    "3333333333333333333333333333333333333333",
];

pub fn check(data: &[u8]) {
    if let Ok(entries) = parse_tree(data) {
        for entry in entries {
            assert!(is_object_id(&entry.id));
            assert!(!entry.path.is_empty() && !entry.path.contains(&0));
            let blob = matches!(
                entry.mode,
                EntryMode::File | EntryMode::Executable | EntryMode::Link
            );
            assert_eq!(entry.size.is_some(), blob);
        }
    }
    let Some((&count, rest)) = data.split_first() else {
        return;
    };
    let count = usize::from(count % 4);
    if rest.len() < count + 1 {
        return;
    }
    let wanted: Vec<(String, u64)> = (0..count)
        .map(|i| (IDS[i].to_owned(), u64::from(rest[i])))
        .collect();
    let chunk = usize::from(rest[count]).max(1);
    let answer = &rest[count + 1..];
    let asked: u64 = wanted.iter().map(|(_, size)| size).sum();

    let mut whole = Blobs::new(wanted.clone());
    let whole = whole
        .feed(answer)
        .and_then(|()| whole.finish())
        .map_err(|_| ());
    let mut chunked = Blobs::new(wanted.clone());
    let mut fed = Ok(());
    for piece in answer.chunks(chunk) {
        fed = chunked.feed(piece);
        assert!(chunked.held() <= asked, "held more than asked");
        if fed.is_err() {
            break;
        }
    }
    let chunked = fed.and_then(|()| chunked.finish()).map_err(|_| ());
    assert_eq!(whole, chunked, "the answer reads the same in any chunks");
    if let Ok(blobs) = whole {
        assert_eq!(blobs.len(), wanted.len());
        for (blob, (_, size)) in blobs.iter().zip(&wanted) {
            assert_eq!(blob.len() as u64, *size);
        }
    }
}
