-- A headless Neovim session against `agentc lsp`, driven by tests/neovim.rs.
-- The client is the README's own snippet ($AGENTC_SNIPPET, cut from README.md),
-- which loads the plugin in editors/nvim/ of this repository, with
-- `vim.g.agentc_cmd` naming the binary under test; the session opens
-- files as a user would and writes what the editor holds to $AGENTC_OUT as
-- JSON. It runs on Neovim 0.7 (Debian bookworm's) and later.
local root = os.getenv('AGENTC_ROOT')
local out = {}

local function finish()
  local file = io.open(os.getenv('AGENTC_OUT'), 'w')
  file:write(vim.fn.json_encode(out))
  file:close()
  vim.cmd('qa!')
end

local function text(buf)
  return table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n')
end

-- The clients attached to `buf` (0.10 renamed the call).
local function clients_of(buf)
  local found = {}
  local clients = vim.lsp.get_clients and vim.lsp.get_clients({ bufnr = buf }) or vim.lsp.buf_get_clients(buf)
  for _, client in pairs(clients) do table.insert(found, client.id) end
  return found
end

-- Every client running, by id: its root.
local function all_clients()
  local found = {}
  for _, client in pairs(vim.lsp.get_clients and vim.lsp.get_clients() or vim.lsp.get_active_clients()) do
    table.insert(found, { id = client.id, name = client.name, root = client.config.root_dir })
  end
  table.sort(found, function(a, b) return a.id < b.id end)
  return found
end

-- Opens `path` and waits until a client is attached to it (at most 30 s):
-- the buffer and the ids of its clients.
local function open(path)
  vim.cmd('edit ' .. vim.fn.fnameescape(path))
  local buf = vim.api.nvim_get_current_buf()
  vim.wait(30000, function() return #clients_of(buf) > 0 end, 20)
  return buf, clients_of(buf)
end

local function diagnostics_of(buf)
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(found, { code = d.code, lnum = d.lnum, col = d.col, end_col = d.end_col,
      severity = d.severity, message = d.message })
  end
  return found
end

-- Puts the cursor on the first `needle` in the current buffer, `offset`
-- characters in.
local function cursor_at(needle, offset)
  vim.fn.cursor(1, 1)
  local line = vim.fn.search(vim.fn.escape(needle, '\\/.*$^~[]'), 'c')
  local col = vim.fn.stridx(vim.fn.getline(line), needle)
  vim.api.nvim_win_set_cursor(0, { line, col + (offset or 0) })
end

-- One request through the editor's client, at the cursor.
local function ask(buf, method, params)
  local responses = vim.lsp.buf_request_sync(buf, method, params or vim.lsp.util.make_position_params(0, 'utf-16'), 20000)
  for _, response in pairs(responses or {}) do
    if response.err then error(method .. ': ' .. vim.inspect(response.err)) end
    return response.result
  end
end

local ok, err = pcall(function()
  -- What a user's configuration has: file types detected, and the README's block.
  vim.cmd('filetype on')
  vim.g.agentc_cmd = os.getenv('AGENTC_BIN')
  dofile(os.getenv('AGENTC_SNIPPET'))

  -- Files of one project, one of each file type the snippet serves: each
  -- gets the project's one client.
  local intake = root .. '/agents/skills/intake/SKILL.md'
  local buf
  buf, out.attached = open(intake)
  out.filetype = vim.bo[buf].filetype
  out.attached_too = {}
  for _, path in ipairs({ root .. '/agentc.toml', root .. '/registry.yaml', root .. '/agents/escalations/agent.json' }) do
    local other_buf, ids = open(path)
    table.insert(out.attached_too, { file = path, filetype = vim.bo[other_buf].filetype, clients = ids })
  end

  -- A repository with nothing but `.claude/agents/x.md` gets its own client.
  local lone, lone_clients = open(os.getenv('AGENTC_CLAUDE_ONLY') .. '/.claude/agents/x.md')
  out.claude_only = { clients = lone_clients }
  vim.wait(30000, function() return #vim.diagnostic.get(lone) > 0 end, 20)
  out.claude_only.diagnostics = diagnostics_of(lone)

  -- A Markdown file in no project gets none.
  local _, loose_clients = open(os.getenv('AGENTC_LOOSE'))
  out.loose_clients = loose_clients
  vim.cmd('buffer ' .. buf)

  -- The mistake on disk is diagnosed when the file opens, once.
  out.diagnosed = vim.wait(30000, function() return #vim.diagnostic.get(buf) > 0 end, 20)
  out.diagnostics = diagnostics_of(buf)

  -- The quick fix, applied by the editor, then saved: the diagnostic goes away.
  local d = vim.diagnostic.get(buf)[1]
  local range = { start = { line = d.lnum, character = d.col }, ['end'] = { line = d.end_lnum, character = d.end_col } }
  local actions = ask(buf, 'textDocument/codeAction', {
    textDocument = vim.lsp.util.make_text_document_params(),
    range = range,
    context = { diagnostics = vim.lsp.diagnostic.from and vim.lsp.diagnostic.from({ d })
      or vim.lsp.diagnostic.get_line_diagnostics(buf, d.lnum) },
  })
  out.action = actions[1].title
  vim.lsp.util.apply_workspace_edit(actions[1].edit, 'utf-16')
  vim.cmd('write')
  out.fixed_text = table.concat(vim.fn.readfile(intake), '\n')
  out.healed = vim.wait(30000, function() return #vim.diagnostic.get(buf) == 0 end, 20)

  -- Typing a mistake: diagnosed from the unsaved buffer.
  cursor_at('update_ticket: stamp')
  vim.cmd('normal! ciwupdate_tiket')
  out.typed = vim.wait(30000, function() return #vim.diagnostic.get(buf) > 0 end, 20)
  out.typed_code = (vim.diagnostic.get(buf)[1] or {}).code
  cursor_at('update_tiket')
  vim.cmd('normal! ciwupdate_ticket')
  out.untyped = vim.wait(30000, function() return #vim.diagnostic.get(buf) == 0 end, 20)

  -- Hover on a tool.
  cursor_at('update_ticket', 2)
  local hover = ask(buf, 'textDocument/hover')
  out.hover = hover and hover.contents.value

  -- Completion where a route's target goes.
  cursor_at('classify-request', 3)
  local completion = ask(buf, 'textDocument/completion')
  out.completion = {}
  -- A list that may be capped (`isIncomplete`), or a bare array.
  local items = completion and (completion.items or completion) or {}
  for _, item in ipairs(items) do table.insert(out.completion, item.label) end

  -- Go to definition: the editor jumps to the target skill's name.
  cursor_at('verify-identity', 1)
  vim.lsp.buf.definition()
  vim.wait(30000, function() return vim.api.nvim_buf_get_name(0) ~= intake end, 20)
  out.definition = { file = vim.api.nvim_buf_get_name(0), cursor = vim.api.nvim_win_get_cursor(0) }
  vim.cmd('buffer ' .. buf)

  -- Rename a skill from a route: every file naming it is edited, and from
  -- Neovim 0.10 on, which applies file renames, its folder moves.
  cursor_at('verify-identity', 1)
  vim.lsp.buf.rename('confirm-identity')
  out.renamed = vim.wait(30000, function()
    for _, folder in ipairs({ 'verify-identity', 'confirm-identity' }) do
      local path = root .. '/agents/skills/' .. folder .. '/SKILL.md'
      local b = vim.fn.bufnr(path)
      if b ~= -1 and vim.fn.bufloaded(b) == 1 and text(b):find('name: confirm%-identity') then
        out.renamed_file = path
        return true
      end
    end
    return false
  end, 20)
  out.renamed_route = text(buf):find('  %- confirm%-identity: on lookup_customer') ~= nil

  -- After all that (a jump, a rename opening files): still one client a root.
  out.clients = all_clients()
end)

out.ok = ok
local loaded, agentc = pcall(require, 'agentc')
out.plugin = loaded and debug.getinfo(agentc.setup, 'S').source or nil
out.version = { vim.version().major, vim.version().minor }
out.err = err and tostring(err)
out.messages = vim.fn.execute('messages')
finish()
