//! Shared by the integration tests.

use std::future::Future;
use std::task::{Context, Poll, Waker};

/// The fakes never pend, so polling until ready is enough; no async runtime needed.
pub fn block_on<F: Future>(f: F) -> F::Output {
    let mut f = std::pin::pin!(f);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
    }
}
