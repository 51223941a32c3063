-- Headless Neovim as a real LSP client of acg-lsp on the inbox example:
-- the plugin starts the server, diagnostics arrive with their related
-- information, :AcgGraph and :AcgRescan answer, the quick fix is chosen
-- through vim.lsp.buf.code_action() and applied by the client itself (with
-- its own offset encoding), the diagnostics clear, and client.stop()
-- ends the server process.
--
-- Run by run.sh with ACG_LSP (server), ACG_TEST_ROOT (a copy of the
-- fixture) and ACG_TEST_AGENT (the agent's name in that copy). An uncaught
-- error would leave nvim running, so everything is under pcall and the
-- script always ends with :qall! or :cquit.

local function log(msg)
  io.stderr:write(msg .. '\n')
end

local function wait(what, ms, cond)
  if not vim.wait(ms, cond, 20) then
    error('timed out after ' .. ms .. ' ms waiting for ' .. what, 0)
  end
end

local function check(ok, msg)
  if not ok then
    error(msg, 0)
  end
end

local function acg_diags(bufnr)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if d.source == 'acg' then
      table.insert(out, d)
    end
  end
  return out
end

local function buf_text(bufnr)
  return table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), '\n')
end

local function main()
  local server = assert(os.getenv('ACG_LSP'), 'ACG_LSP not set')
  local root = assert(os.getenv('ACG_TEST_ROOT'), 'ACG_TEST_ROOT not set')
  local agent_name = os.getenv('ACG_TEST_AGENT') or 'inbox_assistant'
  local notes = {}
  vim.notify = function(msg, level)
    table.insert(notes, msg)
    log(('notify[%s]: %s'):format(tostring(level), msg))
  end

  vim.cmd('filetype on')
  vim.cmd('cd ' .. vim.fn.fnameescape(root))
  local acg = require('acg')
  acg.setup({ cmd = { server } })
  vim.cmd('edit agent.py')
  local buf = vim.api.nvim_get_current_buf()

  local client
  wait('the acg client to attach', 5000, function()
    client = acg.clients(buf)[1]
    return client ~= nil and vim.lsp.buf_is_attached(buf, client.id)
  end)
  wait('initialize', 10000, function()
    return client.initialized == true
  end)
  check(client.offset_encoding == 'utf-16', 'offset encoding is ' .. tostring(client.offset_encoding))
  check(client.config.root_dir == vim.fn.getcwd(), 'root_dir ' .. tostring(client.config.root_dir))

  -- Diagnostics on the agent's declaration, at the byte column of
  -- create_react_agent on line 9 (the server speaks UTF-16; the client
  -- converts, so this also checks the server's columns).
  local diag
  wait('the rule-of-two diagnostic', 30000, function()
    for _, d in ipairs(acg_diags(buf)) do
      if d.code == 'rule-of-two' then
        diag = d
        return true
      end
    end
    return false
  end)
  local line9 = vim.api.nvim_buf_get_lines(buf, 8, 9, false)[1]
  check(diag.lnum == 8, 'diagnostic on line ' .. (diag.lnum + 1))
  local want_col = line9:find('create_react_agent', 1, true) - 1
  check(diag.col == want_col, ('diagnostic at byte column %d, want %d'):format(diag.col, want_col))
  check(diag.severity == vim.diagnostic.severity.ERROR, 'severity ' .. tostring(diag.severity))
  check(diag.message:find(agent_name, 1, true) ~= nil, 'message names the agent: ' .. diag.message)

  local lsp = diag.user_data and diag.user_data.lsp or {}
  local related = lsp.relatedInformation or {}
  local tools_uri = vim.uri_from_fname(root .. '/tools.py')
  for _, tool in ipairs({ 'read_email', 'read_notes', 'send_http' }) do
    local found = false
    for _, ri in ipairs(related) do
      if ri.location.uri == tools_uri and ri.message:find(tool, 1, true) then
        found = true
      end
    end
    check(found, 'relatedInformation names ' .. tool .. ': ' .. vim.inspect(related))
  end
  check(lsp.data ~= nil, 'diagnostic data survives in user_data.lsp')

  -- open_float shows the finding with its path steps.
  vim.api.nvim_win_set_cursor(0, { diag.lnum + 1, diag.col })
  local float = require('acg').open_float()
  check(float ~= nil, 'open_float opened a window')
  local shown = buf_text(vim.api.nvim_win_get_buf(float))
  for _, want in ipairs({ 'ERROR [rule-of-two] Agent ' .. agent_name, '\n  tools.py:37: sends model-chosen data with requests.post' }) do
    check(shown:find(want, 1, true) ~= nil, 'open_float shows ' .. want .. ':\n' .. shown)
  end
  vim.api.nvim_win_close(float, true)

  -- :AcgGraph opens the graph in a scratch window; :AcgRescan answers.
  vim.cmd('AcgGraph')
  local graph_buf
  wait(':AcgGraph window', 10000, function()
    for _, b in ipairs(vim.api.nvim_list_bufs()) do
      if vim.api.nvim_buf_get_name(b):find('acg://capability-graph', 1, true) then
        graph_buf = b
        return true
      end
    end
    return false
  end)
  local graph = buf_text(graph_buf)
  for _, want in ipairs({
    '### ' .. agent_name .. ' — langgraph, agent.py:9',
    'Reaches: UNTRUSTED_SOURCE, READ_PRIVATE, EGRESS',
    'send_http            tools.py:35      irreversible (rules), network_egress (rules)',
    'CRITICAL rule-of-two (read_email → read_notes → send_http) at agent.py:9',
  }) do
    check(graph:find(want, 1, true) ~= nil, ':AcgGraph shows ' .. want .. ':\n' .. graph)
  end
  vim.cmd('close')
  check(vim.api.nvim_get_current_buf() == buf, 'back on agent.py')
  vim.cmd('AcgRescan')
  wait(':AcgRescan answer', 10000, function()
    for _, n in ipairs(notes) do
      if n:match('^acg: rescanned 3 files, %d+ findings$') then
        return true
      end
    end
    return false
  end)

  -- Record the codeAction request as the client sends it: Neovim 0.7
  -- echoes the diagnostic with byte columns, which the server must match
  -- by code and data.
  local sent
  local orig_request = client.request
  client.request = function(method, params, ...)
    if method == 'textDocument/codeAction' then
      sent = params
    end
    return orig_request(method, params, ...)
  end

  -- The quick fix through the client's own path: code_action() asks the
  -- server, vim.ui.select picks, the client applies the edit.
  local offered = {}
  vim.ui.select = function(items, _, on_choice)
    for i, item in ipairs(items) do
      table.insert(offered, item[2].title)
      if item[2].kind == 'quickfix' and item[2].isPreferred then
        return on_choice(item, i)
      end
    end
    return on_choice(nil)
  end
  vim.api.nvim_win_set_cursor(0, { diag.lnum + 1, diag.col })
  vim.lsp.buf.code_action()
  local tools_buf
  wait('the quick fix to edit tools.py', 10000, function()
    tools_buf = vim.fn.bufnr(root .. '/tools.py')
    return tools_buf ~= -1 and vim.api.nvim_buf_is_loaded(tools_buf) and buf_text(tools_buf):find('interrupt%(') ~= nil
  end)
  client.request = orig_request
  check(sent ~= nil and #sent.context.diagnostics > 0, 'codeAction request carried the line diagnostics')
  log('code actions offered: ' .. table.concat(offered, ' | '))
  log('codeAction context diagnostic range: ' .. vim.inspect(sent.context.diagnostics[1].range))

  local fixed = vim.api.nvim_buf_get_lines(tools_buf, 0, -1, false)
  local import, def, gate, post
  for i, l in ipairs(fixed) do
    if l == 'from langgraph.types import interrupt' then
      import = i
    elseif l:find('^def send_http%(') then
      def = i
    elseif l:find('interrupt%(') and not gate then
      gate = i
    elseif l:find('requests%.post%(') then
      post = i
    end
  end
  check(import ~= nil, 'import added:\n' .. table.concat(fixed, '\n'))
  check(def and gate and post and def < gate and gate < post, 'interrupt() in send_http before the POST:\n' .. table.concat(fixed, '\n'))
  check(vim.lsp.buf_is_attached(tools_buf, client.id), 'the edited tools.py is attached to acg-lsp')
  -- interrupt() needs a checkpointer: the same fix gives the agent one.
  check(buf_text(buf):find('checkpointer=InMemorySaver()', 1, true) ~= nil, 'checkpointer added:\n' .. buf_text(buf))

  -- The next analysis clears the findings.
  wait('diagnostics to clear', 30000, function()
    return #acg_diags(buf) == 0 and #acg_diags(tools_buf) == 0
  end)

  -- client.stop() sends shutdown, then exit, and keeps the server's stdin
  -- open: the server must end by itself, with code 0.
  local pid = client.rpc.pid
  local exit_code
  client.config.on_exit = function(code)
    exit_code = code
  end
  client.stop()
  wait('acg-lsp to exit after client.stop()', 5000, function()
    return exit_code ~= nil
  end)
  check(exit_code == 0, 'acg-lsp exited with code ' .. tostring(exit_code))
  check(vim.loop.kill(pid, 0) ~= 0, 'process ' .. pid .. ' is still there after client.stop()')
end

local ok, err = pcall(main)
if ok then
  log('PASS')
  vim.cmd('qall!')
else
  log('FAIL: ' .. tostring(err))
  vim.cmd('cquit 1')
end
