//! Two round trips at once: independent reads of one step (the gate's page and target, the mask
//! and the outline, what changed and what is gone), or the chat's first reads, need not wait.

use std::future::Future;
use std::pin::pin;
use std::task::Poll;

/// Both outputs, once both futures are done; each is polled until it is.
pub async fn both<A: Future, B: Future>(a: A, b: B) -> (A::Output, B::Output) {
    let (mut a, mut b) = (pin!(a), pin!(b));
    let (mut ra, mut rb) = (None, None);
    std::future::poll_fn(move |cx| {
        if ra.is_none() {
            if let Poll::Ready(v) = a.as_mut().poll(cx) {
                ra = Some(v);
            }
        }
        if rb.is_none() {
            if let Poll::Ready(v) = b.as_mut().poll(cx) {
                rb = Some(v);
            }
        }
        match (ra.take(), rb.take()) {
            (Some(x), Some(y)) => Poll::Ready((x, y)),
            (x, y) => {
                (ra, rb) = (x, y);
                Poll::Pending
            }
        }
    })
    .await
}

/// The first of two futures to finish: Ok from `a`, Err from `b`; the other is dropped.
pub async fn either<A: Future, B: Future>(a: A, b: B) -> Result<A::Output, B::Output> {
    let (mut a, mut b) = (pin!(a), pin!(b));
    std::future::poll_fn(move |cx| {
        if let Poll::Ready(v) = a.as_mut().poll(cx) {
            return Poll::Ready(Ok(v));
        }
        b.as_mut().poll(cx).map(Err)
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;

    /// A future that is pending `n` times (waking itself) before it gives `v`, logging its turns.
    async fn after(n: u32, v: u32, log: &RefCell<Vec<u32>>) -> u32 {
        for _ in 0..n {
            log.borrow_mut().push(v);
            let mut once = false;
            std::future::poll_fn(|cx| {
                if once {
                    Poll::Ready(())
                } else {
                    once = true;
                    cx.waker().wake_by_ref();
                    Poll::Pending
                }
            })
            .await;
        }
        v
    }

    #[test]
    fn both_run_interleaved_and_both_results_come_back() {
        let log = RefCell::new(vec![]);
        let out = block_on(both(after(3, 1, &log), after(1, 2, &log)));
        assert_eq!(out, (1, 2));
        // The second started before the first was done: they ran at once.
        assert_eq!(log.borrow()[..2], [1, 2]);
    }

    #[test]
    fn either_gives_the_first_to_finish() {
        let log = RefCell::new(vec![]);
        assert_eq!(block_on(either(after(3, 1, &log), after(1, 2, &log))), Err(2));
        assert_eq!(block_on(either(after(0, 1, &log), after(0, 2, &log))), Ok(1));
    }

    fn block_on<F: Future>(f: F) -> F::Output {
        let mut f = pin!(f);
        let waker = std::task::Waker::noop();
        let mut cx = std::task::Context::from_waker(waker);
        loop {
            if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
                return v;
            }
        }
    }
}
