-- acg for Neovim: starts acg-lsp for agent code (Python), MCP client configs,
-- Claude Code settings and subagents, on every Neovim from 0.7 on, and adds
-- :AcgRescan and :AcgGraph. Diagnostics, hover and quick fixes are the
-- built-in LSP client's.
local M = {}

local uv = vim.loop

local function has(version)
  return vim.fn.has('nvim-' .. version) == 1
end

-- Defaults; setup{} merges the user's options over them.
M.defaults = {
  cmd = { 'acg-lsp' },
  filetypes = { 'python', 'typescript', 'typescriptreact', 'javascript', 'javascriptreact', 'json', 'jsonc', 'markdown' },
  -- The nearest directory holding one of these is the workspace root.
  root_markers = { 'pyproject.toml', 'setup.py', 'setup.cfg', 'requirements.txt', 'package.json', 'tsconfig.json', '.mcp.json', '.claude', '.git' },
  -- Answered to the server's workspace/configuration for section "acg".
  settings = { acg = { severityThreshold = 'low' } },
  on_attach = nil,
  capabilities = nil,
}

M.options = vim.deepcopy(M.defaults)

-- wants tells whether acg reads this file: any Python file; for JSON and
-- Markdown only MCP configs, Claude Code settings and subagents, so the
-- server does not start for every README.
function M.wants(fname, filetype)
  if fname == nil or fname == '' then
    return false
  end
  fname = fname:gsub('\\', '/')
  if filetype == 'python' or fname:match('%.py$') then
    return true
  end
  -- TypeScript and JavaScript agent code (a .d.ts holds types only).
  local code = { typescript = true, typescriptreact = true, javascript = true, javascriptreact = true }
  if (code[filetype] or fname:match('%.[mc]?[jt]sx?$')) and not fname:match('%.d%.[mc]?ts$') then
    return true
  end
  local base = fname:match('[^/]+$')
  if base == '.mcp.json' or base == 'mcp.json' or base == 'mcp_config.json' then
    return true
  end
  -- Other clients' configs (Codex, Gemini CLI, Zed, Continue) and Claude
  -- Code plugin manifests.
  for _, pat in ipairs({ '%.claude%-plugin/[^/]+%.json$', '%.codex/config%.toml$', '%.gemini/settings%.json$', '%.zed/settings%.json$',
    '%.continue/config%.ya?ml$', '%.continue/mcpServers/[^/]+%.ya?ml$', '%.continue/mcpServers/[^/]+%.json$' }) do
    if fname:match('/' .. pat) or fname:match('^' .. pat) then
      return true
    end
  end
  if fname:match('/%.claude/settings[^/]*%.json$') or fname:match('^%.claude/settings[^/]*%.json$') then
    return true
  end
  if fname:match('/%.claude/agents/[^/]+%.md$') or fname:match('^%.claude/agents/[^/]+%.md$') then
    return true
  end
  return false
end

local function exists(path)
  return uv.fs_stat(path) ~= nil
end

-- root_dir finds the workspace for fname: the nearest ancestor holding a
-- root marker, else the current directory when fname lies inside it, else
-- the file's own directory. Written without vim.fs so it runs on 0.7.
function M.root_dir(fname, markers)
  markers = markers or M.options.root_markers
  local path = vim.fn.fnamemodify(fname, ':p')
  local dir = vim.fn.fnamemodify(path, ':h')
  while true do
    for _, marker in ipairs(markers) do
      -- A .claude directory marks its parent, not itself.
      if vim.fn.fnamemodify(dir, ':t') ~= '.claude' and exists(dir .. '/' .. marker) then
        return dir
      end
    end
    local parent = vim.fn.fnamemodify(dir, ':h')
    if parent == dir then
      break
    end
    dir = parent
  end
  local cwd = vim.fn.getcwd()
  if path:sub(1, #cwd + 1) == cwd .. '/' then
    return cwd
  end
  return vim.fn.fnamemodify(path, ':h')
end

-- config returns a client configuration (name, cmd, filetypes, settings, ...)
-- without root_dir, shared by every start path and by lsp/acg.lua.
function M.config(opts)
  opts = opts or M.options
  return {
    name = 'acg',
    cmd = opts.cmd,
    filetypes = opts.filetypes,
    root_markers = opts.root_markers,
    settings = opts.settings,
    on_attach = opts.on_attach,
    capabilities = opts.capabilities,
  }
end

-- clients returns the running acg clients, those attached to bufnr first.
function M.clients(bufnr)
  local all = vim.lsp.get_clients and vim.lsp.get_clients({ name = 'acg' }) or vim.lsp.get_active_clients()
  local attached, others = {}, {}
  for _, c in ipairs(all) do
    if c.name == 'acg' then
      if bufnr and vim.lsp.buf_is_attached(bufnr, c.id) then
        table.insert(attached, c)
      else
        table.insert(others, c)
      end
    end
  end
  vim.list_extend(attached, others)
  return attached
end

-- request calls client:request on 0.11+ and client.request before.
local function request(client, method, params, handler, bufnr)
  if has('0.11') then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
end

-- command runs an acg server command on the client serving the current
-- buffer and hands the result to on_result.
function M.command(name, on_result)
  local bufnr = vim.api.nvim_get_current_buf()
  local client = M.clients(bufnr)[1]
  if client == nil then
    vim.notify('acg: acg-lsp is not running (open a Python file, or see :checkhealth / :LspInfo)', vim.log.levels.WARN)
    return
  end
  request(client, 'workspace/executeCommand', { command = name, arguments = {} }, function(err, result)
    if err then
      vim.notify(('acg: %s failed: %s'):format(name, err.message or vim.inspect(err)), vim.log.levels.ERROR)
      return
    end
    if on_result then
      on_result(result)
    end
  end, bufnr)
end

function M.rescan()
  M.command('acg.rescan', function(res)
    res = type(res) == 'table' and res or {}
    vim.notify(('acg: rescanned %d files, %d findings'):format(res.files or 0, res.findings or 0), vim.log.levels.INFO)
  end)
end

-- render_graph turns the server's acg.showGraph answer (the output contract
-- per folder) into lines: each agent, what it reaches, its tools with the
-- effects that are on (and what decided them), its findings.
function M.render_graph(graph)
  local lines = { '# acg capability graph' }
  local folders = type(graph) == 'table' and graph.folders or {}
  if folders == vim.NIL or #folders == 0 then
    table.insert(lines, 'No workspace folder is being analysed.')
  end
  for _, f in ipairs(folders) do
    table.insert(lines, '')
    table.insert(lines, '## ' .. f.root)
    local tools = {}
    for _, t in ipairs(type(f.tools) == 'table' and f.tools or {}) do
      tools[t.id] = t
    end
    local agents = type(f.agents) == 'table' and f.agents or {}
    if #agents == 0 then
      table.insert(lines, 'No agents found.')
    end
    for _, a in ipairs(agents) do
      table.insert(lines, '')
      table.insert(lines, ('### %s — %s, %s:%d'):format(a.name, a.framework, a.file, a.line))
      local caps = type(a.capabilities) == 'table' and a.capabilities or {}
      table.insert(lines, 'Reaches: ' .. (#caps > 0 and table.concat(caps, ', ') or 'nothing risky'))
      for _, id in ipairs(type(a.tools) == 'table' and a.tools or {}) do
        local t = tools[id]
        if t then
          local on = {}
          for k, v in pairs(t.effects or {}) do
            if v == true then
              table.insert(on, ('%s (%s)'):format(k, (t.decided_by or {})[k] or '?'))
            end
          end
          table.sort(on)
          table.insert(lines, ('  %-20s %-16s %s'):format(t.name, ('%s:%d'):format(t.file, t.line), #on > 0 and table.concat(on, ', ') or 'none'))
        else
          table.insert(lines, '  ' .. id .. '  unknown')
        end
      end
      for _, x in ipairs(type(f.findings) == 'table' and f.findings or {}) do
        if x.agent == a.name then
          local chain = type(x.chain) == 'table' and #x.chain > 0 and (' (' .. table.concat(x.chain, ' → ') .. ')') or ''
          table.insert(lines, ('  %s %s%s at %s:%d'):format(x.severity:upper(), x.rule, chain, x.location.file, x.location.line))
        end
      end
    end
  end
  return lines
end

-- graph opens the capability graph in a scratch split.
function M.graph()
  M.command('acg.showGraph', function(result)
    if type(result) ~= 'table' then
      vim.notify('acg: the server returned no graph', vim.log.levels.WARN)
      return
    end
    vim.cmd('botright new')
    local buf = vim.api.nvim_get_current_buf()
    vim.api.nvim_buf_set_lines(buf, 0, -1, false, M.render_graph(result))
    vim.bo[buf].buftype = 'nofile'
    vim.bo[buf].bufhidden = 'wipe'
    vim.bo[buf].swapfile = false
    vim.bo[buf].modifiable = false
    vim.bo[buf].filetype = 'markdown'
    pcall(vim.api.nvim_buf_set_name, buf, 'acg://capability-graph')
  end)
end

-- wrap breaks text at spaces into lines of at most width characters,
-- keeping its leading blanks; the lines after the first start with indent.
local function wrap(text, width, indent)
  local lead = text:match('^%s*')
  local lines, line = {}, lead
  for word in text:gmatch('%S+') do
    if line == lead then
      line = lead .. word
    elseif vim.fn.strdisplaywidth(line .. ' ' .. word) > width then
      table.insert(lines, line)
      line = indent .. word
    else
      line = line .. ' ' .. word
    end
  end
  table.insert(lines, line)
  return lines
end

-- path_lines renders one diagnostic and its relatedInformation (the tools
-- and path steps behind the finding) as lines of at most width columns,
-- file names relative to the cwd.
function M.path_lines(d, width)
  width = width or 100
  local sev = ({ 'ERROR', 'WARN', 'INFO', 'HINT' })[d.severity] or '?'
  local head = ('%s [%s] %s'):format(sev, tostring(d.code), (d.message:gsub('\n.*', '')))
  local lines = wrap(head, width, '    ')
  local lsp = d.user_data and d.user_data.lsp or {}
  for _, ri in ipairs(lsp.relatedInformation or {}) do
    local fname = vim.fn.fnamemodify(vim.uri_to_fname(ri.location.uri), ':.')
    local step = ('  %s:%d: %s'):format(fname, ri.location.range.start.line + 1, ri.message)
    vim.list_extend(lines, wrap(step, width, '      '))
  end
  return lines
end

-- open_float shows the acg diagnostics of the cursor line with their path
-- steps, which Neovim's own diagnostic float leaves out.
function M.open_float()
  local bufnr = vim.api.nvim_get_current_buf()
  local lnum = vim.api.nvim_win_get_cursor(0)[1] - 1
  local width = math.min(100, vim.o.columns - 4)
  local lines = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr, { lnum = lnum })) do
    if d.source == 'acg' then
      if #lines > 0 then
        table.insert(lines, '')
      end
      vim.list_extend(lines, M.path_lines(d, width))
    end
  end
  if #lines == 0 then
    return nil
  end
  local _, win = vim.lsp.util.open_floating_preview(lines, '', { border = 'rounded', max_width = width, focus_id = 'acg-path' })
  return win
end

local warned = false

-- executable_or_warn says once per session how to install a missing server.
local function executable_or_warn(cmd)
  if vim.fn.executable(cmd[1]) == 1 then
    return true
  end
  if not warned then
    warned = true
    vim.notify(
      ('acg: %s was not found. Install it with `go install github.com/acg-dev/acg/cmd/acg-lsp@latest` '
        .. '(and put $(go env GOPATH)/bin on PATH), or set cmd in require("acg").setup{}.'):format(cmd[1]),
      vim.log.levels.WARN
    )
  end
  return false
end

-- 0.7: one client per root, started by hand and attached per buffer.
local started = {} -- root_dir -> client id

local function attach_07(bufnr)
  local fname = vim.api.nvim_buf_get_name(bufnr)
  local root = M.root_dir(fname)
  local id = started[root]
  local client = id and vim.lsp.get_client_by_id(id)
  if client == nil or client.is_stopped() then
    local cfg = M.config()
    cfg.root_dir = root
    cfg.workspace_folders = { { uri = vim.uri_from_fname(root), name = root } }
    id = vim.lsp.start_client(cfg)
    if id == nil then
      return
    end
    started[root] = id
  end
  vim.lsp.buf_attach_client(bufnr, id)
end

-- 0.8 to 0.10: vim.lsp.start reuses the client with the same name and root.
local function attach_08(bufnr)
  local cfg = M.config()
  cfg.root_dir = M.root_dir(vim.api.nvim_buf_get_name(bufnr))
  vim.api.nvim_buf_call(bufnr, function()
    vim.lsp.start(cfg)
  end)
end

-- attach starts or reuses the client for bufnr when acg reads that file.
function M.attach(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  if vim.bo[bufnr].buftype ~= '' or not M.wants(vim.api.nvim_buf_get_name(bufnr), vim.bo[bufnr].filetype) then
    return
  end
  if not executable_or_warn(M.options.cmd) then
    return
  end
  if vim.lsp.start then
    attach_08(bufnr)
  else
    attach_07(bufnr)
  end
end

function M.define_commands()
  vim.api.nvim_create_user_command('AcgRescan', M.rescan, { desc = 'acg: rescan the workspace' })
  vim.api.nvim_create_user_command('AcgGraph', M.graph, { desc = 'acg: show the capability graph' })
end

-- native_config is the configuration for vim.lsp.config (0.11+): root_dir
-- calls on_dir only for files acg reads, which is what keeps the server
-- away from ordinary JSON and Markdown.
function M.native_config(opts)
  local cfg = M.config(opts)
  cfg.name = nil
  cfg.root_markers = nil
  cfg.root_dir = function(bufnr, on_dir)
    local fname = vim.api.nvim_buf_get_name(bufnr)
    if M.wants(fname, vim.bo[bufnr].filetype) then
      on_dir(M.root_dir(fname))
    end
  end
  return cfg
end

function M.setup(opts)
  M.options = vim.tbl_deep_extend('force', vim.deepcopy(M.defaults), opts or {})
  M.define_commands()
  if vim.lsp.config and vim.lsp.enable then
    executable_or_warn(M.options.cmd)
    vim.lsp.config('acg', M.native_config())
    vim.lsp.enable('acg')
    return
  end
  local group = vim.api.nvim_create_augroup('acg', { clear = true })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = M.options.filetypes,
    callback = function(args)
      M.attach(args.buf)
    end,
  })
  -- Buffers already open when setup runs (lazy loading).
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) and vim.tbl_contains(M.options.filetypes, vim.bo[bufnr].filetype) then
      M.attach(bufnr)
    end
  end
end

return M
