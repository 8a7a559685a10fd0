// A stand-in for Chrome's `LanguageModel` (the Prompt API), for tests only: never copied to dist/.
// The e2e harness evaluates this file in the service worker (and in the options page for Download).
// It follows the Web IDL web-platform-tests keeps as interfaces/prompt-api.idl, and checks every call
// against it the way a WebIDL binding would: wrong types and missing required members throw a
// TypeError, system turns after the first initial prompt throw a TypeError, and state errors are
// DOMExceptions (NotAllowedError, NotSupportedError, InvalidStateError, QuotaExceededError, AbortError).
// Its "model" only reads the request it receives: scripted replies are chosen by matching that text.
(() => {
  const MESSAGE_TYPES = ["text", "image", "audio", "tool-call", "tool-response"];
  const ROLES = ["system", "user", "assistant"];
  const AVAILABILITIES = ["unavailable", "downloadable", "downloading", "available"];

  const control = (globalThis.__promptApiStandIn ??= {
    availability: "available",
    contextWindow: 6144,
    /** Scripted replies: {match?: substring of the request, chunks: [...], delayMs?, overflow?, becomeUnavailable?} */
    replies: [],
    /** Every call, as the API received it (for tests to assert on). */
    calls: [],
    sessions: 0,
    destroyed: 0,
  });

  const typeError = (what) => new TypeError(`Failed to execute '${what}' on 'LanguageModel'`);
  const dom = (name, message) => new DOMException(message, name);
  const isObject = (v) => v !== null && (typeof v === "object" || typeof v === "function");

  /** A dictionary argument: undefined/null mean {}; anything else must be an object. */
  function dictionary(v, what) {
    if (v === undefined || v === null) return {};
    if (!isObject(v)) throw typeError(what);
    return v;
  }

  function sequence(v, what) {
    if (!isObject(v) || typeof v[Symbol.iterator] !== "function") throw typeError(what);
    return [...v];
  }

  function enumValue(v, allowed, what) {
    const s = String(v);
    if (!allowed.includes(s)) throw typeError(`${what}: '${s}' is not a valid enum value`);
    return s;
  }

  /** LanguageModelExpected { required type; sequence<DOMString> languages } */
  function expected(list, what) {
    if (list === undefined) return undefined;
    return sequence(list, what).map((e) => {
      const d = dictionary(e, what);
      if (d.type === undefined) throw typeError(`${what}: required member type is undefined`);
      const out = { type: enumValue(d.type, MESSAGE_TYPES, what) };
      if (d.languages !== undefined) out.languages = sequence(d.languages, what).map(String);
      return out;
    });
  }

  function signalOf(d, what) {
    if (d.signal === undefined) return undefined;
    if (!(d.signal instanceof AbortSignal)) throw typeError(`${what}: member signal is not of type AbortSignal`);
    return d.signal;
  }

  const isImageSource = (v) =>
    (typeof Blob !== "undefined" && v instanceof Blob) ||
    (typeof ImageBitmap !== "undefined" && v instanceof ImageBitmap) ||
    (typeof ImageData !== "undefined" && v instanceof ImageData) ||
    (typeof OffscreenCanvas !== "undefined" && v instanceof OffscreenCanvas) ||
    ArrayBuffer.isView(v) || v instanceof ArrayBuffer;

  /** LanguageModelMessageContent { required type; required value } */
  function content(c, what) {
    const d = dictionary(c, what);
    if (d.type === undefined) throw typeError(`${what}: required member type is undefined`);
    if (d.value === undefined) throw typeError(`${what}: required member value is undefined`);
    const type = enumValue(d.type, MESSAGE_TYPES, what);
    if (type === "text" && typeof d.value !== "string") throw typeError(`${what}: a text value must be a string`);
    if (type === "image" && !isImageSource(d.value)) throw typeError(`${what}: an image value must be an ImageBitmapSource or BufferSource`);
    return { type, value: d.value };
  }

  /** LanguageModelMessage { required role; required (DOMString or sequence<content>) content; prefix } */
  function message(m, what) {
    const d = dictionary(m, what);
    if (d.role === undefined) throw typeError(`${what}: required member role is undefined`);
    if (d.content === undefined) throw typeError(`${what}: required member content is undefined`);
    const role = enumValue(d.role, ROLES, what);
    const parts = typeof d.content === "string" ? [{ type: "text", value: d.content }] : sequence(d.content, what).map((c) => content(c, what));
    return { role, content: parts };
  }

  /** LanguageModelPrompt: sequence<LanguageModelMessage> or DOMString. */
  function promptInput(input, what) {
    if (isObject(input) && typeof input[Symbol.iterator] === "function") {
      const messages = [...input].map((m) => message(m, what));
      if (messages.some((m) => m.role === "system")) throw typeError(`${what}: a system message is only allowed first in initialPrompts`);
      return messages;
    }
    return [{ role: "user", content: [{ type: "text", value: String(input) }] }];
  }

  const textOf = (messages) => messages.map((m) => m.content.filter((c) => c.type === "text").map((c) => c.value).join("")).join("\n");
  const tokens = (messages) => Math.ceil(textOf(messages).length / 4) + 4 * messages.length;

  function checkInputs(messages, allowed) {
    for (const m of messages) for (const c of m.content) {
      if (c.type !== "text" && !allowed.includes(c.type)) throw dom("NotSupportedError", `${c.type} input was not declared in expectedInputs`);
    }
  }

  class CreateMonitor extends EventTarget {}

  class LanguageModel extends EventTarget {
    #messages;
    #allowed;
    #destroyed = false;
    #usage;
    oncontextoverflow = null;

    constructor(key, messages, allowed) {
      if (key !== CONSTRUCT) throw new TypeError("Illegal constructor");
      super();
      this.#messages = messages;
      this.#allowed = allowed;
      this.#usage = tokens(messages);
    }

    static async availability(options = {}) {
      const d = dictionary(options, "availability");
      const inputs = expected(d.expectedInputs, "availability");
      expected(d.expectedOutputs, "availability");
      control.calls.push({ method: "availability", expectedInputs: inputs });
      enumValue(control.availability, AVAILABILITIES, "the stand-in's availability");
      if (control.availability === "available" && inputs?.some((e) => e.type === "audio")) return "unavailable";
      return control.availability;
    }

    static async create(options = {}) {
      const d = dictionary(options, "create");
      const inputs = expected(d.expectedInputs, "create");
      expected(d.expectedOutputs, "create");
      const signal = signalOf(d, "create");
      if (d.monitor !== undefined && typeof d.monitor !== "function") throw typeError("create: member monitor is not a function");
      const initial = d.initialPrompts === undefined ? [] : sequence(d.initialPrompts, "create").map((m) => message(m, "create"));
      if (initial.some((m, i) => m.role === "system" && i > 0)) throw typeError("create: a system message is only allowed first in initialPrompts");
      control.calls.push({ method: "create", initialPrompts: initial.map((m) => m.role), text: textOf(initial), expectedInputs: inputs, signal: Boolean(signal), monitor: Boolean(d.monitor) });
      if (signal?.aborted) throw signal.reason;
      const allowed = (inputs ?? []).map((e) => e.type);
      checkInputs(initial, allowed);
      const state = control.availability;
      if (state === "unavailable") throw dom("NotSupportedError", "The model is not available on this device.");
      if (state === "downloadable" || state === "downloading") {
        // Chrome downloads only inside a user gesture; a service worker never has one.
        if (!globalThis.navigator?.userActivation?.isActive) throw dom("NotAllowedError", "Requires a user gesture when availability is \"downloading\" or \"downloadable\".");
        const monitor = new CreateMonitor();
        d.monitor?.(monitor);
        for (const loaded of [0, 0.5, 1]) {
          await new Promise((r) => setTimeout(r, 60));
          const e = new ProgressEvent("downloadprogress", { loaded, total: 1 });
          monitor.dispatchEvent(e);
        }
        control.availability = "available";
      } else {
        d.monitor?.(new CreateMonitor());
      }
      if (tokens(initial) > control.contextWindow) throw dom("QuotaExceededError", "The initial prompts are too large.");
      control.sessions++;
      return new LanguageModel(CONSTRUCT, initial, allowed);
    }

    static async params() {
      return null;
    }

    get contextUsage() {
      return this.#usage;
    }

    get contextWindow() {
      return control.contextWindow;
    }

    #alive(what) {
      if (!(this instanceof LanguageModel)) throw typeError(what);
      if (this.#destroyed) throw dom("InvalidStateError", "The session has been destroyed.");
    }

    #add(messages) {
      const needed = tokens(messages);
      if (this.#usage + needed > control.contextWindow) {
        throw dom("QuotaExceededError", `The input is too large: ${this.#usage + needed} tokens for a window of ${control.contextWindow}.`);
      }
      this.#messages.push(...messages);
      this.#usage += needed;
    }

    async append(input, options = {}) {
      this.#alive("append");
      const messages = promptInput(input, "append");
      const signal = signalOf(dictionary(options, "append"), "append");
      control.calls.push({ method: "append", roles: messages.map((m) => m.role), signal: Boolean(signal) });
      if (signal?.aborted) throw signal.reason;
      checkInputs(messages, this.#allowed);
      this.#add(messages);
    }

    /** The scripted reply for the session's whole text; `becomeUnavailable` flips availability. */
    #reply(messages) {
      const all = textOf([...this.#messages, ...messages]);
      const i = control.replies.findIndex((r) => !r.match || all.includes(r.match));
      const reply = i >= 0 ? control.replies.splice(i, 1)[0] : { chunks: ["(no scripted reply)"] };
      if (reply.becomeUnavailable) control.availability = "unavailable";
      return reply;
    }

    #begin(input, options, what) {
      this.#alive(what);
      const messages = promptInput(input, what);
      const d = dictionary(options, what);
      const signal = signalOf(d, what);
      if (d.responseConstraint !== undefined && !isObject(d.responseConstraint)) throw typeError(`${what}: responseConstraint is not an object`);
      control.calls.push({ method: what, roles: messages.map((m) => m.role), signal: Boolean(signal), text: textOf(messages) });
      return { messages, signal };
    }

    async prompt(input, options = {}) {
      const { messages, signal } = this.#begin(input, options, "prompt");
      if (signal?.aborted) throw signal.reason;
      checkInputs(messages, this.#allowed);
      this.#add(messages);
      const reply = this.#reply(messages);
      if (reply.error) throw dom(reply.error, reply.message ?? reply.error);
      const text = reply.chunks.join("");
      this.#usage += Math.ceil(text.length / 4);
      return text;
    }

    promptStreaming(input, options = {}) {
      const { messages, signal } = this.#begin(input, options, "promptStreaming");
      const session = this;
      let reply;
      return new ReadableStream({
        start: () => {
          if (signal?.aborted) throw signal.reason;
          checkInputs(messages, this.#allowed);
          this.#add(messages);
          reply = this.#reply(messages);
          if (reply.error) throw dom(reply.error, reply.message ?? reply.error);
        },
        async pull(controller) {
          const next = reply.chunks.shift();
          if (next === undefined) return controller.close();
          await new Promise((resolve) => {
            const timer = setTimeout(resolve, reply.delayMs ?? 10);
            signal?.addEventListener("abort", () => {
              clearTimeout(timer);
              resolve();
            }, { once: true });
          });
          if (signal?.aborted) return controller.error(signal.reason);
          if (session.#destroyed) return controller.error(dom("AbortError", "The session was destroyed."));
          session.#usage += Math.ceil(next.length / 4);
          controller.enqueue(next);
        },
      });
    }

    async measureContextUsage(input, options = {}) {
      const { messages } = this.#begin(input, options, "measureContextUsage");
      return tokens(messages);
    }

    async clone(options = {}) {
      this.#alive("clone");
      signalOf(dictionary(options, "clone"), "clone");
      return new LanguageModel(CONSTRUCT, [...this.#messages], this.#allowed);
    }

    destroy() {
      if (!this.#destroyed) control.destroyed++;
      control.calls.push({ method: "destroy" });
      this.#destroyed = true;
    }
  }
  const CONSTRUCT = Symbol("construct");

  Object.defineProperty(globalThis, "LanguageModel", { value: LanguageModel, configurable: true, writable: true, enumerable: false });
  return "LanguageModel stand-in installed";
})();
