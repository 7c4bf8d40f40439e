// The playground page: files in tabs, checked by agentc (agentc.js) as they are typed, the
// diagnostics listed and marked in the text; the files kept in the link's fragment.

import { Agentc, decodeFiles, encodeFiles } from "./agentc.js";

const $ = (id) => document.getElementById(id);
const ui = {
  example: $("example"), add: $("add"), share: $("share"), status: $("status"),
  tabs: $("tabs"), path: $("path"), remove: $("remove"), notes: $("file-notes"), text: $("text"),
  backdrop: $("backdrop"), summary: $("summary"), list: $("diagnostics"),
  cliText: $("cli-text"), explain: $("explain"), explainText: $("explain-text"),
  version: $("version"),
};

const state = { files: [], current: 0, diagnostics: [] };
let agentc = null;
let examples = [];
let checkTimer = 0;
let checking = Promise.resolve();
// What the next status says instead of the check's time: why a link was not opened.
let notice = "";

function status(text, failed = false) {
  ui.status.textContent = text;
  ui.status.classList.toggle("failed", failed);
}

function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === "class") node.className = value;
    else node.setAttribute(name, value);
  }
  node.append(...children);
  return node;
}

// Positions ---------------------------------------------------------------------------

/**
 * The index in `text` (UTF-16) of 1-based `line` and `column`, a column counting Unicode
 * scalar values as agentc's do.
 */
function offset(text, line, column) {
  let i = 0;
  for (let l = 1; l < line; l++) {
    const next = text.indexOf("\n", i);
    if (next < 0) return text.length;
    i = next + 1;
  }
  for (let c = 1; c < column && i < text.length && text[i] !== "\n"; c++) {
    i += text.codePointAt(i) > 0xffff ? 2 : 1;
  }
  return i;
}

/** The range [start, end) of `d` in `text`, or null when it points at no text. */
function range(text, d) {
  if (d.line == null || d.column == null) return null;
  const start = offset(text, d.line, d.column);
  const end = d.end_line == null ? start : offset(text, d.end_line, d.end_column);
  return [start, Math.max(end, start)];
}

// Rendering ---------------------------------------------------------------------------

function currentFile() {
  return state.files[state.current];
}

function diagnosticsOf(path) {
  return state.diagnostics.filter((d) => d.file === path);
}

function renderTabs() {
  ui.tabs.replaceChildren(...state.files.map((file, i) => {
    const found = diagnosticsOf(file.path);
    const errors = found.filter((d) => d.severity === "error").length;
    const tab = element("button", {
      type: "button", role: "tab", title: file.path,
      "aria-selected": String(i === state.current),
    }, file.path || "(no path)");
    if (found.length) {
      tab.append(element("span", { class: `badge ${errors ? "error" : "warning"}` },
        String(found.length)));
    }
    tab.addEventListener("click", () => select(i));
    return tab;
  }));
}

/** The end of the word at `start` (at least one character). */
function wordEnd(text, start) {
  const match = /^[\w.$@-]+/u.exec(text.slice(start, start + 200));
  return Math.min(text.length, start + (match ? match[0].length : 1));
}

/**
 * The text behind the textarea, with the current file's diagnostics marked, and their
 * labels (a place elsewhere a diagnostic points to, given by its start only) on the word
 * there; diagnostics of the whole file above the text.
 */
function renderMarks() {
  const file = currentFile();
  const text = file ? file.text : "";
  const marks = [];
  for (const d of file ? diagnosticsOf(file.path) : []) {
    const found = range(text, d);
    if (!found) continue;
    let [start, end] = found;
    // A point (an empty span) is marked on the character there, or as a caret at the end.
    if (start === end) end = Math.min(text.length, start + 1);
    marks.push({ start, end, kind: d.severity });
  }
  for (const d of file ? state.diagnostics : []) {
    for (const label of d.labels.filter((l) => l.file === file.path && l.line != null)) {
      const start = offset(text, label.line, label.column);
      marks.push({ start, end: wordEnd(text, start), kind: `label ${d.severity}`, title: label.message });
    }
  }
  const whole = file ? diagnosticsOf(file.path).filter((d) => d.line == null) : [];
  ui.notes.replaceChildren(...whole.map((d) =>
    element("p", { class: d.severity }, `${d.severity}[${d.code}]: ${d.message}`)));
  marks.sort((a, b) => a.start - b.start || b.end - a.end);
  const nodes = [];
  let at = 0;
  for (const mark of marks) {
    if (mark.start < at) continue; // Overlapping marks: the first one is shown.
    nodes.push(text.slice(at, mark.start));
    const attributes = mark.title ? { class: mark.kind, title: mark.title } : { class: mark.kind };
    nodes.push(element("mark", attributes, text.slice(mark.start, mark.end) || " "));
    at = mark.end;
  }
  // A final line break needs something after it to take its height.
  nodes.push(text.slice(at) + "\n");
  ui.backdrop.replaceChildren(...nodes);
  syncScroll();
}

function syncScroll() {
  ui.backdrop.scrollTop = ui.text.scrollTop;
  ui.backdrop.scrollLeft = ui.text.scrollLeft;
}

function where(d) {
  if (!d.file) return "";
  return d.line == null ? d.file : `${d.file}:${d.line}:${d.column}`;
}

function renderDiagnostics(answer) {
  const { diagnostics, summary } = answer;
  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
  ui.summary.textContent = diagnostics.length
    ? `${plural(summary.errors, "error")}, ${plural(summary.warnings, "warning")}`
    : "No problems found";
  ui.list.replaceChildren(...diagnostics.map((d) => {
    const code = element("a", { class: "code", href: `#explain-${d.code}`, title: "Explain this code" },
      d.code);
    code.addEventListener("click", (event) => {
      event.preventDefault();
      event.stopPropagation();
      explain(d.code);
    });
    const item = element("li", { class: `diagnostic ${d.severity}` },
      element("div", { class: "head" },
        element("span", { class: "severity" }, d.severity), code,
        element("span", { class: "where" }, where(d))),
      element("p", { class: "message" }, d.message));
    for (const label of d.labels) {
      const at = label.line == null ? label.file : `${label.file}:${label.line}:${label.column}`;
      item.append(element("p", { class: "label" }, `${at}: ${label.message}`));
    }
    if (d.help) item.append(element("p", { class: "help" }, `help: ${d.help}`));
    if (d.fix) {
      const fix = element("button", { class: "fix", type: "button" }, `Fix: ${d.fix.message}`);
      fix.addEventListener("click", (event) => {
        event.stopPropagation();
        applyFix(d.fix);
      });
      item.append(fix);
    }
    item.addEventListener("click", () => reveal(d));
    return item;
  }));
  ui.cliText.textContent = diagnostics.map((d) => d.rendered + "\n").join("\n");
}

function renderCrash(message) {
  ui.summary.textContent = "agentc stopped";
  ui.list.replaceChildren(element("li", { class: "crash" },
    `agentc stopped on these files (a bug: please report it with this page's link):\n${message}`));
  ui.cliText.textContent = "";
}

function render() {
  renderTabs();
  const file = currentFile();
  ui.path.value = file ? file.path : "";
  if (file && ui.text.value !== file.text) ui.text.value = file.text;
  ui.text.disabled = ui.path.disabled = ui.remove.disabled = !file;
  renderMarks();
}

// Actions -----------------------------------------------------------------------------

function select(i) {
  state.current = Math.max(0, Math.min(i, state.files.length - 1));
  ui.text.value = currentFile() ? currentFile().text : "";
  ui.text.scrollTop = ui.text.scrollLeft = 0;
  render();
}

/** Shows `d`'s place: its file's tab, its text selected. */
function reveal(d) {
  const i = state.files.findIndex((f) => f.path === d.file);
  if (i < 0) return;
  if (i !== state.current) select(i);
  const found = range(currentFile().text, d);
  ui.text.focus();
  if (found) {
    ui.text.setSelectionRange(found[0], found[1]);
    const lineHeight = parseFloat(getComputedStyle(ui.text).lineHeight) || 21;
    ui.text.scrollTop = Math.max(0, (d.line - 3) * lineHeight);
    syncScroll();
  }
}

/** Applies a fix's edits (byte offsets into each file's UTF-8), the last first. */
function applyFix(fix) {
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const edits = [...fix.edits].sort((a, b) => b.start - a.start);
  for (const edit of edits) {
    const file = state.files.find((f) => f.path === edit.file);
    if (!file) continue;
    const bytes = encoder.encode(file.text);
    file.text = decoder.decode(bytes.slice(0, edit.start)) + edit.replacement +
      decoder.decode(bytes.slice(edit.end));
  }
  ui.text.value = currentFile().text;
  changed(0);
}

function explain(code) {
  ui.explainText.textContent = agentc.explain(code) || `No page for ${code}.`;
  if (typeof ui.explain.showModal === "function") ui.explain.showModal();
}

function load(files, current = 0) {
  state.files = files.map(({ path, text }) => ({ path, text }));
  state.diagnostics = [];
  select(current);
  changed(0);
}

/** A change to the files: checked after `delay` ms, and the link updated. */
function changed(delay = 150) {
  clearTimeout(checkTimer);
  checkTimer = setTimeout(() => {
    checking = checking.then(check).then(remember);
  }, delay);
}

async function check() {
  if (!agentc) return;
  const started = performance.now();
  try {
    const answer = await agentc.check(state.files);
    if (answer.error) {
      state.diagnostics = [];
      ui.summary.textContent = "These files cannot be checked";
      ui.list.replaceChildren(element("li", { class: "crash" }, answer.error));
      ui.cliText.textContent = "";
    } else {
      state.diagnostics = answer.diagnostics;
      renderDiagnostics(answer);
    }
    status(notice || `Checked in ${Math.round(performance.now() - started)} ms`, Boolean(notice));
    notice = "";
  } catch (error) {
    state.diagnostics = [];
    renderCrash(error.message);
    status("agentc stopped", true);
  }
  renderTabs();
  renderMarks();
}

async function remember() {
  try {
    const fragment = await encodeFiles(state.files);
    if (location.hash.slice(1) !== fragment) history.replaceState(null, "", `#${fragment}`);
  } catch (error) {
    status(`The link cannot hold these files: ${error.message}`, true);
  }
}

/** The files the link names: its own, an example's, or the first example's. */
async function fromLink() {
  const fragment = location.hash.slice(1);
  if (fragment.startsWith("example=")) {
    const id = decodeURIComponent(fragment.slice(8));
    const example = examples.find((e) => e.id === id);
    if (example) return { files: example.files, example: id };
    notice = `There is no example \`${id}\`; here is the first one.`;
  } else if (fragment.startsWith("files=")) {
    try {
      return { files: await decodeFiles(fragment) };
    } catch (error) {
      notice = `The link's files cannot be read (${error.message}); here is the first example.`;
    }
  }
  return { files: examples[0].files, example: examples[0].id };
}

async function openLink() {
  const { files, example } = await fromLink();
  ui.example.value = example || "";
  load(files);
}

// Wiring ------------------------------------------------------------------------------

ui.text.addEventListener("input", () => {
  const file = currentFile();
  if (!file) return;
  file.text = ui.text.value;
  renderMarks();
  changed();
});
ui.text.addEventListener("scroll", syncScroll);

ui.text.addEventListener("keydown", (event) => {
  // Tab types a tab rather than leaving the text; Escape first lets the focus go on.
  if (event.key === "Tab" && !event.shiftKey && !ui.text.dataset.escaped) {
    event.preventDefault();
    ui.text.setRangeText("\t", ui.text.selectionStart, ui.text.selectionEnd, "end");
    ui.text.dispatchEvent(new Event("input"));
  }
  ui.text.dataset.escaped = event.key === "Escape" ? "1" : "";
});

ui.path.addEventListener("change", () => {
  const file = currentFile();
  const path = ui.path.value.trim();
  if (!file || !path) {
    ui.path.value = file ? file.path : "";
    return;
  }
  file.path = path;
  render();
  changed(0);
});

ui.add.addEventListener("click", () => {
  let n = 1;
  while (state.files.some((f) => f.path === `notes-${n}.md`)) n++;
  state.files.push({ path: `notes-${n}.md`, text: "" });
  select(state.files.length - 1);
  changed(0);
  ui.path.focus();
  ui.path.select();
});

ui.remove.addEventListener("click", () => {
  if (!currentFile()) return;
  state.files.splice(state.current, 1);
  select(state.current);
  changed(0);
});

ui.example.addEventListener("change", () => {
  const example = examples.find((e) => e.id === ui.example.value);
  if (example) load(example.files);
});

ui.share.addEventListener("click", async () => {
  clearTimeout(checkTimer);
  await checking;
  await remember();
  try {
    await navigator.clipboard.writeText(location.href);
    status("The link is copied: it holds these files.");
  } catch (_) {
    status("Copy the address bar's link: it holds these files.");
  }
});

window.addEventListener("hashchange", () => {
  // Typing replaces the fragment without this event: a link pasted or followed.
  if (agentc) openLink();
});

async function start() {
  try {
    agentc = await Agentc.load("agentc.wasm");
  } catch (error) {
    status(`agentc could not be loaded: ${error.message}`, true);
    ui.summary.textContent = "agentc could not be loaded";
    return;
  }
  examples = agentc.examples();
  ui.example.replaceChildren(element("option", { value: "" }, "(your files)"),
    ...examples.map((e) => element("option", { value: e.id }, e.title)));
  ui.version.textContent = `agentc ${agentc.version()}`;
  status("Ready");
  await openLink();
}

start();
