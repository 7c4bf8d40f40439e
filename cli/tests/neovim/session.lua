-- A headless Neovim session against `agentc lsp`, driven by tests/neovim.rs.
-- It uses the editor's own LSP client (Neovim 0.7 API, Debian bookworm's) and
-- writes what the editor holds to $AGENTC_OUT as JSON.
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
  local responses = vim.lsp.buf_request_sync(buf, method, params or vim.lsp.util.make_position_params(), 20000)
  for _, response in pairs(responses or {}) do
    if response.err then error(method .. ': ' .. vim.inspect(response.err)) end
    return response.result
  end
end

local ok, err = pcall(function()
  local intake = root .. '/agents/skills/intake/SKILL.md'
  vim.cmd('edit ' .. intake)
  local buf = vim.api.nvim_get_current_buf()
  local client = vim.lsp.start_client({ name = 'agentc', cmd = { os.getenv('AGENTC_BIN'), 'lsp' }, root_dir = root })
  vim.lsp.buf_attach_client(buf, client)

  -- The mistake on disk is diagnosed when the file opens.
  out.diagnosed = vim.wait(30000, function() return #vim.diagnostic.get(buf) > 0 end, 20)
  out.diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(out.diagnostics, { code = d.code, lnum = d.lnum, col = d.col, end_col = d.end_col,
      severity = d.severity, message = d.message })
  end

  -- The quick fix, applied by the editor, then saved: the diagnostic goes away.
  local d = vim.diagnostic.get(buf)[1]
  local range = { start = { line = d.lnum, character = d.col }, ['end'] = { line = d.end_lnum, character = d.end_col } }
  local actions = ask(buf, 'textDocument/codeAction', {
    textDocument = vim.lsp.util.make_text_document_params(),
    range = range,
    context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(buf, d.lnum) },
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
  for _, item in ipairs(completion or {}) do table.insert(out.completion, item.label) end

  -- Go to definition: the editor jumps to the target skill's name.
  cursor_at('verify-identity', 1)
  vim.lsp.buf.definition()
  vim.wait(30000, function() return vim.api.nvim_buf_get_name(0) ~= intake end, 20)
  out.definition = { file = vim.api.nvim_buf_get_name(0), cursor = vim.api.nvim_win_get_cursor(0) }
  vim.cmd('buffer ' .. buf)

  -- Rename a skill from a route: every file naming it is edited.
  cursor_at('verify-identity', 1)
  vim.lsp.buf.rename('confirm-identity')
  local target = root .. '/agents/skills/verify-identity/SKILL.md'
  out.renamed = vim.wait(30000, function()
    local b = vim.fn.bufnr(target)
    return b ~= -1 and vim.fn.bufloaded(b) == 1 and text(b):find('name: confirm%-identity') ~= nil
  end, 20)
  out.renamed_route = text(buf):find('  %- confirm%-identity: on lookup_customer') ~= nil
end)

out.ok = ok
out.err = err and tostring(err)
out.messages = vim.api.nvim_exec('messages', true)
finish()
