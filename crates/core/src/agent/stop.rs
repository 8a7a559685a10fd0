//! Stop: a flag the UI sets and a future the loop races against model calls and tools, so a run
//! ends promptly even when the call in flight ignores its abort signal.

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::pin;
use std::rc::Rc;
use std::task::{Poll, Waker};

#[derive(Clone, Default)]
pub struct StopSignal {
    inner: Rc<Inner>,
}

#[derive(Default)]
struct Inner {
    stopped: Cell<bool>,
    wakers: RefCell<Vec<Waker>>,
}

impl StopSignal {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn stop(&self) {
        self.inner.stopped.set(true);
        for w in self.inner.wakers.borrow_mut().drain(..) {
            w.wake();
        }
    }

    pub fn is_stopped(&self) -> bool {
        self.inner.stopped.get()
    }

    /// Runs `fut` unless Stop comes first; `None` means stopped.
    pub async fn race<T>(&self, fut: impl Future<Output = T>) -> Option<T> {
        let mut fut = pin!(fut);
        std::future::poll_fn(|cx| {
            if self.is_stopped() {
                return Poll::Ready(None);
            }
            if let Poll::Ready(v) = fut.as_mut().poll(cx) {
                return Poll::Ready(Some(v));
            }
            let mut wakers = self.inner.wakers.borrow_mut();
            if !wakers.iter().any(|w| w.will_wake(cx.waker())) {
                wakers.push(cx.waker().clone());
            }
            Poll::Pending
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::task::Context;

    #[test]
    fn stop_wins_over_a_pending_future() {
        let stop = StopSignal::new();
        let mut race = Box::pin(stop.race(std::future::pending::<u8>()));
        let mut cx = Context::from_waker(Waker::noop());
        assert!(race.as_mut().poll(&mut cx).is_pending());
        stop.stop();
        assert_eq!(race.as_mut().poll(&mut cx), Poll::Ready(None));
        let done = StopSignal::new();
        let mut ready = Box::pin(done.race(async { 7 }));
        assert_eq!(ready.as_mut().poll(&mut cx), Poll::Ready(Some(7)));
    }
}
