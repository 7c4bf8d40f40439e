-- Sourced when editors/nvim is on 'runtimepath': agentc's language server
-- with the defaults, unless the configuration has called
-- require("agentc").setup() already. `vim.g.loaded_agentc = true` before
-- this runs leaves it all to you.
if vim.g.loaded_agentc then return end
vim.g.loaded_agentc = true
local agentc = require("agentc")
if not agentc.configured then agentc.setup() end
