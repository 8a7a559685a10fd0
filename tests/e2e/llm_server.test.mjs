// Self-tests for the scripted LLM server's wire formats, streaming included; no browser needed.
import assert from 'node:assert/strict';
import { anthropicBody, anthropicStream, anthropicTools, geminiBody, geminiStream, geminiTools, geminiUrl, openaiBody, openaiStream, openaiTools, post, withServer } from './llm_server_client.mjs';

export const tests = [
  ['llm-server: openai non-streaming text', () => withServer(async (llm) => {
    llm.script({ text: 'Hello from OpenAI' });
    const res = await post(`${llm.url}/v1/chat/completions`, openaiBody());
    assert.equal(res.status, 200);
    const json = await res.json();
    assert.equal(json.object, 'chat.completion');
    assert.equal(json.model, 'gpt-4o-mini');
    assert.equal(json.choices[0].message.role, 'assistant');
    assert.equal(json.choices[0].message.content, 'Hello from OpenAI');
    assert.equal(json.choices[0].finish_reason, 'stop');
    assert.equal(json.usage.total_tokens, json.usage.prompt_tokens + json.usage.completion_tokens);
  })],

  ['llm-server: anthropic non-streaming text', () => withServer(async (llm) => {
    llm.script({ text: 'Hello from Claude', usage: { input: 10, output: 5 } });
    const json = await (await post(`${llm.url}/v1/messages`, anthropicBody())).json();
    assert.equal(json.type, 'message');
    assert.equal(json.role, 'assistant');
    assert.deepEqual(json.content, [{ type: 'text', text: 'Hello from Claude' }]);
    assert.equal(json.stop_reason, 'end_turn');
    assert.deepEqual(json.usage, { input_tokens: 10, output_tokens: 5 });
  })],

  ['llm-server: gemini non-streaming text', () => withServer(async (llm) => {
    llm.script({ text: 'Hello from Gemini' });
    const json = await (await post(geminiUrl(llm, false), geminiBody())).json();
    const cand = json.candidates[0];
    assert.equal(cand.content.role, 'model');
    assert.deepEqual(cand.content.parts, [{ text: 'Hello from Gemini' }]);
    assert.equal(cand.finishReason, 'STOP');
    assert.equal(json.modelVersion, 'gemini-2.5-flash');
    assert.ok(json.usageMetadata.totalTokenCount > 0);
  })],

  ['llm-server: openai streaming text reassembles, with usage chunk and [DONE]', () => withServer(async (llm) => {
    llm.script({ text: 'Hello streaming world' }, { text: 'ab', chunks: ['a', 'b'], omitUsage: true });
    const events = await openaiStream(llm, openaiBody({ stream_options: { include_usage: true } }));
    assert.equal(events.at(-1).data, '[DONE]');
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.data));
    assert.ok(chunks.every((c) => c.object === 'chat.completion.chunk'));
    assert.equal(chunks[0].choices[0].delta.role, 'assistant');
    const text = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
    assert.equal(text, 'Hello streaming world');
    assert.ok(chunks.filter((c) => c.choices[0]?.delta.content).length >= 2, 'text split into several chunks');
    assert.equal(chunks.at(-2).choices[0].finish_reason, 'stop');
    assert.deepEqual(chunks.at(-1).choices, []);
    assert.ok(chunks.at(-1).usage.completion_tokens > 0);

    const second = (await openaiStream(llm, openaiBody({ stream_options: { include_usage: true } }))).slice(0, -1).map((e) => JSON.parse(e.data));
    assert.deepEqual(second.map((c) => c.choices[0]?.delta.content).filter(Boolean), ['a', 'b']);
    assert.ok(second.every((c) => c.choices.length === 1), 'omitUsage drops the usage chunk');
  })],

  ['llm-server: anthropic streaming text reassembles in the real event order', () => withServer(async (llm) => {
    llm.script({ text: 'Hi', chunks: ['H', 'i'], usage: { input: 7, output: 3 } });
    const events = await anthropicStream(llm, anthropicBody());
    assert.deepEqual(events.map((e) => e.event), [
      'message_start', 'content_block_start', 'ping', 'content_block_delta', 'content_block_delta',
      'content_block_stop', 'message_delta', 'message_stop',
    ]);
    assert.ok(events.every((e) => e.event === e.data.type));
    assert.equal(events[0].data.message.usage.input_tokens, 7);
    const text = events.filter((e) => e.event === 'content_block_delta').map((e) => e.data.delta.text).join('');
    assert.equal(text, 'Hi');
    assert.equal(events[6].data.delta.stop_reason, 'end_turn');
    assert.equal(events[6].data.usage.output_tokens, 3);
  })],

  ['llm-server: gemini streaming text reassembles (SSE and JSON array)', () => withServer(async (llm) => {
    llm.script({ text: 'Hello Gemini stream' }, { text: 'xy', chunks: ['x', 'y'] });
    const events = await geminiStream(llm, geminiBody());
    const text = events.flatMap((e) => e.candidates[0].content.parts.map((p) => p.text ?? '')).join('');
    assert.equal(text, 'Hello Gemini stream');
    assert.ok(events.length >= 3);
    assert.equal(events.at(-1).candidates[0].finishReason, 'STOP');
    assert.ok(events.at(-1).usageMetadata.candidatesTokenCount > 0);
    assert.equal(llm.lastRequest().stream, true);

    const res = await post(`${llm.url}/v1beta/models/gemini-2.5-flash:streamGenerateContent`, geminiBody());
    const array = JSON.parse(await res.text());
    assert.equal(array.map((e) => e.candidates[0].content.parts[0].text).join(''), 'xy');
  })],

  ['llm-server: openai tool calls (streamed argument fragments reassemble)', () => withServer(async (llm) => {
    const toolCalls = [{ name: 'click', args: { index: 3, reason: 'open the "Settings" menu' } }, { name: 'scroll', args: { dy: 400 } }];
    llm.script({ toolCalls }, { text: 'Clicking now', toolCalls: [{ id: 'call_fixed', name: 'click', args: { index: 3 } }] });
    const events = await openaiStream(llm, openaiBody({ tools: openaiTools }));
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.data));
    const calls = [];
    let fragments = 0;
    for (const c of chunks) {
      for (const d of c.choices[0]?.delta.tool_calls ?? []) {
        if (d.id) calls[d.index] = { id: d.id, type: d.type, name: d.function.name, args: d.function.arguments };
        else { calls[d.index].args += d.function.arguments; fragments++; }
      }
    }
    assert.ok(fragments >= 4, 'arguments arrive in several fragments');
    assert.equal(calls.length, 2);
    assert.ok(calls.every((c) => c.id.startsWith('call_') && c.type === 'function'));
    assert.deepEqual(calls.map((c) => [c.name, JSON.parse(c.args)]), toolCalls.map((t) => [t.name, t.args]));
    assert.equal(chunks.at(-1).choices[0].finish_reason, 'tool_calls');

    const json = await (await post(`${llm.url}/v1/chat/completions`, openaiBody({ tools: openaiTools }))).json();
    const msg = json.choices[0].message;
    assert.equal(msg.content, 'Clicking now');
    assert.deepEqual(msg.tool_calls, [{ id: 'call_fixed', type: 'function', function: { name: 'click', arguments: '{"index":3}' } }]);
    assert.equal(json.choices[0].finish_reason, 'tool_calls');
  })],

  ['llm-server: anthropic tool_use (input_json_delta and non-streaming)', () => withServer(async (llm) => {
    const args = { index: 3, text: 'hello wörld 👋' };
    llm.script({ text: 'Let me click.', toolCalls: [{ name: 'click', args }] }, { toolCalls: [{ name: 'click', args }] });
    const events = await anthropicStream(llm, anthropicBody({ tools: anthropicTools }));
    const start = events.find((e) => e.event === 'content_block_start' && e.data.content_block.type === 'tool_use');
    assert.equal(start.data.index, 1);
    assert.match(start.data.content_block.id, /^toolu_/);
    assert.equal(start.data.content_block.name, 'click');
    const partials = events.filter((e) => e.data.delta?.type === 'input_json_delta');
    assert.ok(partials.length >= 2);
    assert.ok(partials.every((e) => e.data.index === 1));
    assert.deepEqual(JSON.parse(partials.map((e) => e.data.delta.partial_json).join('')), args);
    assert.equal(events.find((e) => e.event === 'message_delta').data.delta.stop_reason, 'tool_use');

    const json = await (await post(`${llm.url}/v1/messages`, anthropicBody({ tools: anthropicTools }))).json();
    assert.equal(json.content.length, 1);
    assert.equal(json.content[0].type, 'tool_use');
    assert.deepEqual(json.content[0].input, args);
    assert.equal(json.stop_reason, 'tool_use');
  })],

  ['llm-server: gemini functionCall (streaming and non-streaming)', () => withServer(async (llm) => {
    llm.script({ toolCalls: [{ name: 'click', args: { index: 3 } }] }, { text: 'ok', toolCalls: [{ name: 'type', args: { text: 'hi' } }] });
    const events = await geminiStream(llm, geminiBody({ tools: geminiTools }));
    const calls = events.flatMap((e) => e.candidates[0].content.parts).filter((p) => p.functionCall);
    assert.deepEqual(calls, [{ functionCall: { name: 'click', args: { index: 3 } } }]);

    const json = await (await post(geminiUrl(llm, false), geminiBody({ tools: geminiTools }))).json();
    assert.deepEqual(json.candidates[0].content.parts, [{ text: 'ok' }, { functionCall: { name: 'type', args: { text: 'hi' } } }]);
  })],

];
