use dusk_core::protocol::{from_str, page_text_reply, parse, ContentRequest, ContentResponse, Status, StatusReply, WorkerRequest, WorkerResponse};
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

#[test]
fn page_text_reply_reads_the_measure_as_any_message_is_read() {
    // As page_blocks.js writes it: `type` first, fields at their default left out, a lone surrogate.
    let measure = r#"{"type":"page_text","title":"T","text":"","headings":[],"hidden":2,"boxes":[{"tag":"body","name":"","rect":[0,0,800,2000]},{"parent":0,"tag":"nav","role":"navigation","name":"menu","label":"Main","rect":[0,0,800,40],"fixed":true}],"blocks":[{"parent":1,"text":"Home News","chars":9,"rect":[0,0,800,40],"font":16,"link_chars":9,"links":2,"labels":["Home","News"]},{"parent":0,"text":"Title \ud800 here","chars":12,"rect":[10,50,700,30],"font":32.5,"heading":1,"heads":[[2,"Sub"]],"fields":1},{"parent":0,"chars":4000,"rect":[10,90,700,900],"font":16}]}"#;
    let fast = page_text_reply(measure).unwrap();
    assert_eq!(fast, from_str::<ContentResponse>(measure).unwrap());
    let ContentResponse::PageText(page) = fast else { panic!("not a page read: {fast:?}") };
    assert_eq!(page.blocks[1].text.as_deref(), Some("Title \u{fffd} here"));
    assert_eq!((page.boxes[1].fixed, page.blocks[0].links, page.blocks[1].heads.clone()), (true, 2, vec![(2, "Sub".to_string())]));
    assert_eq!(page.blocks[2].text, None);
    let error = r#"{"type":"error","message":"could not read the page's text: x"}"#;
    assert_eq!(page_text_reply(error).unwrap(), ContentResponse::Error { message: "could not read the page's text: x".into() });
    let reordered = r#"{"title":"T","type":"page_text","text":"","headings":[]}"#;
    assert_eq!(page_text_reply(reordered).unwrap(), from_str::<ContentResponse>(reordered).unwrap());
    assert!(page_text_reply(r#"{"type":"page_text","title":3}"#).is_err());
}
