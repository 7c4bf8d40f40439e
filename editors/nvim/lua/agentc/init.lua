-- agentc's language server (`agentc lsp`) in Neovim 0.7 or later.
--
-- One server per project, shared by every buffer of that project, found as
-- `agentc check` finds it from the file's folder: the nearest `agentc.toml`,
-- else the nearest folder holding one of `markers` (in the home folder only
-- `.git` and `agentc.toml` count, `~/.claude` being your settings). A file in
-- neither gets no server. On Neovim 0.11 or later the server is declared with
-- `vim.lsp.config` and started by `vim.lsp.enable`; before, by a FileType
-- autocommand (`vim.lsp.start`, or on 0.7 `vim.lsp.start_client`).
--
--   vim.opt.runtimepath:append("/path/to/agentc/editors/nvim")
--   require("agentc").setup() -- or .setup({ cmd = { "/path/to/agentc", "lsp" } })
--
-- docs/editors.md says more; cli/tests/neovim.rs runs this file in Neovim 0.7.2
-- and 0.11.4.
local M = {}

local uv = vim.uv or vim.loop -- 0.10 renamed it

-- What makes a folder a repository's top for `agentc check` (the compiler's
-- `repository::MARKERS`; cli/tests/neovim.rs checks that they agree).
M.markers = { ".git", "agentc.toml", ".claude", ".github", ".agents", ".claude-plugin", ".codex-plugin",
  ".codex", ".cursor", ".clinerules", ".opencode", ".gemini", ".kiro", "gemini-extension.json" }

-- The file types of the files agentc reads.
M.filetypes = { "markdown", "json", "yaml", "toml" }

-- Whether `setup` has run: the `plugin/` file sets up with the defaults only
-- when the user's configuration has not.
M.configured = false

-- The nearest folder at or above `dir` holding one of `names`.
local function nearest(dir, names)
  local home = uv.fs_realpath(uv.os_homedir() or "")
  while dir do
    for _, name in ipairs(names) do
      local counts = dir ~= home or name == ".git" or name == "agentc.toml"
      if counts and uv.fs_lstat(dir .. "/" .. name) then return dir end
    end
    local up = vim.fn.fnamemodify(dir, ":h")
    dir = up ~= dir and up or nil
  end
end

-- The project the file of buffer `buf` belongs to, or nil.
function M.root(buf)
  local name = vim.api.nvim_buf_get_name(buf)
  local dir = name ~= "" and uv.fs_realpath(vim.fn.fnamemodify(name, ":p:h"))
  return dir and (nearest(dir, { "agentc.toml" }) or nearest(dir, M.markers)) or nil
end

-- Starts agentc's server for the buffers of its projects. `opts.cmd`: the
-- command (default `{ vim.g.agentc_cmd or "agentc", "lsp" }`); `opts.filetypes`:
-- the file types to serve (default `M.filetypes`). Calling it again replaces
-- the settings.
function M.setup(opts)
  opts = opts or {}
  local cmd = opts.cmd or { vim.g.agentc_cmd or "agentc", "lsp" }
  local filetypes = opts.filetypes or M.filetypes
  M.configured = true
  if vim.lsp.config and vim.lsp.enable then -- 0.11 or later
    vim.lsp.config("agentc", {
      cmd = cmd,
      filetypes = filetypes,
      root_dir = function(buf, on_dir)
        local root = M.root(buf)
        if root then on_dir(root) end
      end,
    })
    vim.lsp.enable("agentc")
    return
  end
  local clients = {} -- root -> client id, for Neovim 0.7, which has no vim.lsp.start
  local function start(buf)
    local root = M.root(buf)
    if not root then return end
    local config = { name = "agentc", cmd = cmd, root_dir = root }
    if vim.lsp.start then -- 0.8 or later: reuses the client of the same name and root
      vim.lsp.start(config, { bufnr = buf })
      return
    end
    local id = clients[root]
    if not (id and vim.lsp.get_client_by_id(id)) then
      id = vim.lsp.start_client(config)
      clients[root] = id
    end
    vim.lsp.buf_attach_client(buf, id)
  end
  vim.api.nvim_create_autocmd("FileType", {
    group = vim.api.nvim_create_augroup("agentc", { clear = true }),
    pattern = filetypes,
    callback = function(args) start(args.buf) end,
  })
  -- The buffers open already (set up late, by a plugin manager that loads
  -- on a file type): as `vim.lsp.enable` does.
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(buf) and vim.tbl_contains(filetypes, vim.bo[buf].filetype) then
      start(buf)
    end
  end
end

return M
