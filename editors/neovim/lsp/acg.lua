-- acg-lsp for Neovim 0.11+'s vim.lsp.config, in the form nvim-lspconfig
-- ships its configs: with this plugin on 'runtimepath',
-- `vim.lsp.enable('acg')` is enough (require('acg').setup{} does the same
-- and also adds :AcgRescan and :AcgGraph).
return require('acg').native_config(require('acg').defaults)
