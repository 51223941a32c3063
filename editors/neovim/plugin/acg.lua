-- The commands work with any acg client, however it was started
-- (setup{}, vim.lsp.enable('acg'), nvim-lspconfig), so define them eagerly.
if vim.g.loaded_acg then
  return
end
vim.g.loaded_acg = true
require('acg').define_commands()
