use dusk_core::protocol::{parse, ContentRequest, ContentResponse, Status, StatusReply, WorkerRequest, WorkerResponse};
use serde_json::json;

#[test]
fn ping_is_tagged_by_type() {
    let req: WorkerRequest = parse(json!({"type": "ping"})).unwrap();
    assert_eq!(req, WorkerRequest::Ping);
    let pong = WorkerResponse::Pong { version: "0.1.0".into(), init_ms: 3.5 };
    assert_eq!(serde_json::to_value(pong).unwrap(), json!({"type": "pong", "version": "0.1.0", "init_ms": 3.5}));
}

#[test]
fn the_worker_s_status_and_error_replies_read_as_a_status_reply() {
    let status = Status { version: "0.1.0".into(), provider_configured: true, provider: Some("ollama".into()), on_device: true };
    let wire = serde_json::to_value(WorkerResponse::Status(status.clone())).unwrap();
    assert_eq!(parse::<StatusReply>(wire).unwrap(), StatusReply::Status(status));
    let wire = serde_json::to_value(WorkerResponse::Error { message: "no tab".into() }).unwrap();
    assert_eq!(parse::<StatusReply>(wire).unwrap(), StatusReply::Error { message: "no tab".into() });
    assert!(parse::<StatusReply>(json!({"type": "saved"})).is_err());
}

#[test]
fn tab_rpc_nests_a_content_request() {
    let req: WorkerRequest = parse(json!({"type": "tab_rpc", "tab_id": 7, "rpc": {"type": "count_elements", "selector": "p"}})).unwrap();
    assert_eq!(req, WorkerRequest::TabRpc { tab_id: 7, rpc: ContentRequest::CountElements { selector: "p".into() } });
}

#[test]
fn unknown_type_is_a_clear_error() {
    let err = parse::<WorkerRequest>(json!({"type": "launch_missiles"})).unwrap_err();
    assert!(err.to_string().contains("launch_missiles"), "{err}");
}

#[test]
fn content_response_round_trips() {
    let r = ContentResponse::ElementCount { selector: "a".into(), count: 2 };
    let v = serde_json::to_value(&r).unwrap();
    assert_eq!(v["type"], "element_count");
    assert_eq!(parse::<ContentResponse>(v).unwrap(), r);
}
