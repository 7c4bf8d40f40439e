// agentc's compiler as a WebAssembly module (agentc.wasm, built by playground/build.sh from
// the agentc-playground crate), behind a few functions. The module's exports carry bytes: a
// request is written into a block `alloc` gives; an answer is a pointer to a 4-byte
// little-endian length and that many bytes of UTF-8, freed with `dealloc` once read
// (playground/src/abi.rs).

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class Agentc {
  /**
   * Loads the module at `url` (fetched once; a fresh instance after a crash). It is
   * compiled at once, which browsers allow on the page's thread for a module this size
   * (Chromium up to 8 MB), so the page is ready as soon as it has the bytes, in a headless
   * browser's virtual time too; a browser that refuses compiles it in the background.
   */
  static async load(url) {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url}: ${response.status} ${response.statusText}`);
    const bytes = await response.arrayBuffer();
    let module;
    try {
      module = new WebAssembly.Module(bytes);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      module = await WebAssembly.compile(bytes);
    }
    return new Agentc(module);
  }

  constructor(module) {
    this.module = module;
    this.restart();
  }

  restart() {
    this.exports = new WebAssembly.Instance(this.module, {}).exports;
  }

  /** The text of the answer at `ptr`, freed. */
  read(ptr) {
    const { memory, dealloc } = this.exports;
    const length = new DataView(memory.buffer).getUint32(ptr, true);
    const text = decoder.decode(new Uint8Array(memory.buffer, ptr + 4, length));
    dealloc(ptr, 4 + length);
    return text;
  }

  /** Calls the export `name` with `text` as its request; its answer as text. */
  call(name, text) {
    const bytes = encoder.encode(text);
    const ptr = this.exports.alloc(bytes.length);
    new Uint8Array(this.exports.memory.buffer, ptr, bytes.length).set(bytes);
    return this.read(this.exports[name](ptr, bytes.length));
  }

  /**
   * Checks `files` ([{path, text}]) as `agentc check` checks a repository holding them:
   * {diagnostics: [...], summary: {errors, warnings}}, or {error} for a request that names
   * no file. A crash (a panic traps the module) is thrown with its message, and the next
   * call runs on a fresh instance.
   */
  async check(files) {
    try {
      return JSON.parse(this.call("check", JSON.stringify({ files })));
    } catch (error) {
      let message = "";
      try {
        message = this.read(this.exports.panic_message());
      } catch (_) {
        // The instance is past asking.
      }
      this.restart();
      throw new Error(message || String(error));
    }
  }

  /** The page of a diagnostic code, as `agentc explain CODE` prints it ("" for none). */
  explain(code) {
    return this.call("explain", code);
  }

  /** The examples: [{id, title, files}]. */
  examples() {
    return JSON.parse(this.read(this.exports.examples()));
  }

  /** agentc's version. */
  version() {
    return this.read(this.exports.version());
  }
}

/** `bytes` in base64url, unpadded. */
function base64url(bytes) {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64url(text) {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

async function pipe(bytes, stream) {
  const piped = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(piped).arrayBuffer());
}

/** `files` as a link's fragment: `files=` and their JSON, raw-deflated, in base64url. */
export async function encodeFiles(files) {
  const json = encoder.encode(JSON.stringify({ files }));
  return "files=" + base64url(await pipe(json, new CompressionStream("deflate-raw")));
}

/** The files of a fragment `encodeFiles` wrote (without its `#`). */
export async function decodeFiles(fragment) {
  if (!fragment.startsWith("files=")) throw new Error("the link holds no files");
  const bytes = await pipe(fromBase64url(fragment.slice(6)), new DecompressionStream("deflate-raw"));
  const { files } = JSON.parse(decoder.decode(bytes));
  const valid = Array.isArray(files) &&
    files.every((f) => f && typeof f.path === "string" && typeof f.text === "string");
  if (!valid) throw new Error("the link's files are not [{path, text}]");
  return files.map(({ path, text }) => ({ path, text }));
}
